/**
 * The version record of a service root (spec: Version record), read from an untrusted
 * answer into a clean one: only the fields this package uses, each checked, so nothing else
 * a device (or whatever answers at a typed URL) puts there reaches a status, a log or the
 * editor. The slot check is here too, shared by the config node and the admin routes.
 */
import { printable } from './answer';
import { ApiVersion, LIMITS } from '../pure/limits';
import { DeviceError } from '../base/errors';
import { t } from '../base/i18n';

export interface VersionRecord {
  /** API 1.0: random per start of the device's service (printable, at most 64 characters). */
  driver_session?: string;
  version: { api: { major: number; minor: number; patch: number } };
  /** API 1.0 adds each device's `device_session`: new whenever the driver re-reads the device. */
  devices: Array<{ slot_number: number; device_session?: string }>;
}

/** Slots a message lists at most; a device has a handful. */
const LISTED_SLOTS = 16;

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isSlot(value: unknown): value is number {
  return isCount(value) && value >= LIMITS.slot.min && value <= LIMITS.slot.max;
}

/** The record, or undefined when the answer is not a version record. */
export function parseVersionRecord(data: unknown): VersionRecord | undefined {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const d = data as { version?: { api?: Record<string, unknown> }; devices?: unknown; driver_session?: unknown };
  const api = d.version && typeof d.version === 'object' ? d.version.api : undefined;
  if (!api || typeof api !== 'object' || !isCount(api.major) || !isCount(api.minor) || !isCount(api.patch)) return undefined;
  if (!Array.isArray(d.devices)) return undefined;
  const devices: VersionRecord['devices'] = [];
  for (const device of d.devices) {
    const { slot_number: slot, device_session: session } = (device && typeof device === 'object' ? device : {}) as {
      slot_number?: unknown;
      device_session?: unknown;
    };
    if (!isSlot(slot)) return undefined;
    devices.push(typeof session === 'string' ? { slot_number: slot, device_session: printable(session, 64) } : { slot_number: slot });
  }
  const record: VersionRecord = { version: { api: { major: api.major, minor: api.minor, patch: api.patch } }, devices };
  if (typeof d.driver_session === 'string') record.driver_session = printable(d.driver_session, 64);
  return record;
}

/** `1.0.3`: the API version a record reports. */
export function apiText(record: VersionRecord): string {
  const { major, minor, patch } = record.version.api;
  return `${major}.${minor}.${patch}`;
}

/** The slots of a record, at most LISTED_SLOTS, for a message: `2, 3` or `none`. */
export function listedSlots(record: VersionRecord): string {
  const slots = [...new Set(record.devices.map((d) => d.slot_number))];
  if (!slots.length) return t('common.noSlots');
  return slots.length > LISTED_SLOTS ? `${slots.slice(0, LISTED_SLOTS).join(', ')}, ...` : slots.join(', ');
}

/** Why the record's device has no module of the service in the slot, or undefined when it has. */
export function slotProblem(record: VersionRecord, service: string, slot: number): string | undefined {
  if (record.devices.some((d) => d.slot_number === slot)) return undefined;
  return t('common.slotMissing', { service, slot, slots: listedSlots(record) });
}

/**
 * Whether a version root's answer says "this API version is not spoken here" (400 "Version
 * not compatible", or 404 of a path the service does not route): auto-detection moves on
 * to the next version only then, never on a TLS, auth or transport failure.
 */
export function versionNotSpoken(error: unknown): boolean {
  return error instanceof DeviceError && error.code === 'DEVICE_ERROR' && (error.statusCode === 400 || error.statusCode === 404);
}

/**
 * Reads the version record at each candidate's root (`roots[version]`) in turn; the first
 * that answers with one is the device's version. Only "this version is not spoken here"
 * moves on to the next candidate: any other failure is the answer. `read` is told whether
 * a candidate follows: then "not spoken here" is the answer the probe asks for (a 0.9
 * device answers 1.0's root so at every start), not a failed request.
 */
export async function firstSpoken(
  candidates: readonly ApiVersion[],
  roots: Readonly<Record<ApiVersion, string>>,
  read: (path: string, another: boolean) => Promise<unknown>,
): Promise<{ apiVersion: ApiVersion; record: VersionRecord }> {
  let lastError: unknown;
  for (const [index, version] of candidates.entries()) {
    const path = roots[version];
    try {
      const record = parseVersionRecord(await read(path, index < candidates.length - 1));
      if (!record) throw new DeviceError(`GET ${path}: the answer is not a version record`, { code: 'BAD_RESPONSE', method: 'GET', path });
      return { apiVersion: version, record };
    } catch (error) {
      lastError = error;
      if (!versionNotSpoken(error)) throw error;
    }
  }
  throw lastError;
}
