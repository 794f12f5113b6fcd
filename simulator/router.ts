/**
 * Device API requests: path parsing and the order of checks of the released services
 * (real §1), independent of the API dialect. A dialect (api09/, api10/) supplies
 * the version it speaks, the version record, a route table per service, how it writes its
 * answers and whether a body may come as a JSON array.
 *
 * Order: path (404) → POST body (413 too large; 400 bad JSON, 422 wrong shape, serde's way:
 * json.ts) → version (400) → the route's checks before the slot → slot present (404) →
 * the route's checks after the slot → route logic.
 */
import { Device } from './device';
import { ModelError, refusalError, SimError, SUCCESS } from './errors';
import { Service, SERVICES } from './facts';
import { decodeBody } from './json';
import { ObjectSchema } from './schema';

/**
 * A request body: none; text that parsed as JSON (`value`, for the log and the control API)
 * or not (`bad`); bytes that are not UTF-8 (`bad` without text); or over the size limit.
 */
export type ParsedBody = { kind: 'none' } | { kind: 'json'; value: unknown; text: string } | { kind: 'bad'; text?: string } | { kind: 'too_large' };

export interface RouteContext {
  readonly device: Device;
  readonly service: Service;
  readonly slot: number;
  /** The body, already checked against the route's schema. */
  readonly body: CheckedBody;
  /** The numeric last path segment of a `:n` route (u8), else -1. */
  readonly param: number;
  readonly now: number;
}

/**
 * A request body as a route sees it: already checked against the route's schema (wire
 * types, required and unknown fields) before any check or handler runs, so the routes read
 * its fields directly. The one `any` of the simulator, on purpose.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked against the route's schema first
export type CheckedBody = any;

export interface Route {
  /** Wire shape of the body; routes without one ignore any body (GET). */
  readonly body?: ObjectSchema;
  /** Checks before the slot (the dialect's bounds, a service's validate()): true or the refusal. */
  check?(body: CheckedBody, param: number): true | SimError;
  /**
   * Checks the released services run only after the slot was found (their library checks,
   * real §1 step 7), with their own status codes.
   */
  checkAfterSlot?(body: CheckedBody, param: number): true | SimError;
  /** 404 message when the slot holds no module of this service. */
  readonly missingSlot?: string;
  handle(ctx: RouteContext): unknown;
}

/** A route handler that acts on the device and answers `{"status":"success"}`. */
export const ok =
  (action: (ctx: RouteContext) => void) =>
  (ctx: RouteContext): typeof SUCCESS => {
    action(ctx);
    return SUCCESS;
  };

/**
 * A GET route answering a record read from the slot's module in the dialect's field names:
 * `read` takes the record from the model, `wire` names its fields.
 */
export const reading = <R>(read: (ctx: RouteContext) => R, wire: (record: R) => unknown): Route => ({ handle: (ctx) => wire(read(ctx)) });

/** Routes of one service, keyed `METHOD path/after/slot`; a numeric last segment is written `:n`. */
export type RouteTable = ReadonlyMap<string, Route>;

export interface Dialect {
  /** The `MAJOR.MINOR` path segment this dialect answers, as numbers. */
  readonly major: number;
  readonly minor: number;
  versionRecord(device: Device, service: Service, now: number): unknown;
  readonly routes: Readonly<Record<Service, RouteTable>>;
  /** A struct body may come as a JSON array of its fields in order (serde's quirk, API 1.0). */
  readonly arrayBodies: boolean;
  /** The text of a successful answer of `service`. */
  render(value: unknown, service: Service): string;
  /** An error answer; `accept` is the request's Accept header. */
  error(status: number, message?: string, accept?: string): DeviceAnswer;
}

export interface DeviceAnswer {
  readonly status: number;
  readonly body: string;
  /** Default: application/json. */
  readonly contentType?: string;
}

const VERSION = /^(\d{1,5})\.(\d{1,5})$/;
const DIGITS = /^\d{1,5}$/;

function parseUint(text: string, max: number): number {
  if (!DIGITS.test(text)) return -1;
  const n = Number(text);
  return n <= max ? n : -1;
}

/** The service a device path addresses (for "service down" and logging), or undefined. */
export function serviceOf(segments: readonly string[]): Service | undefined {
  return segments[0] === 'api' && SERVICES.includes(segments[1] as Service) ? (segments[1] as Service) : undefined;
}

/** Splits a path into its non-empty segments (Rocket ignores empty ones: `//`, trailing `/`). */
export function segmentsOf(pathname: string): string[] {
  return pathname.split('/').filter((s) => s.length > 0);
}

export function handleDeviceRequest(
  dialect: Dialect,
  device: Device,
  request: { method: string; segments: readonly string[]; body: ParsedBody; accept?: string },
  now: number,
): DeviceAnswer {
  const { segments, body } = request;
  const fail = (error: SimError): DeviceAnswer => dialect.error(error.status, error.message, request.accept);
  const notFound = (): DeviceAnswer => dialect.error(404);
  // 1. path
  const service = serviceOf(segments);
  if (service === undefined || segments.length < 3) return notFound();
  const version = VERSION.exec(segments[2]);
  if (version === null || Number(version[1]) > 0xffff || Number(version[2]) > 0xffff) return notFound();
  const versionOk = Number(version[1]) === dialect.major && Number(version[2]) === dialect.minor;
  const verb = request.method === 'HEAD' ? 'GET' : request.method;

  if (segments.length === 3) {
    if (verb !== 'GET') return notFound();
    if (!versionOk) return fail(new SimError(400, 'Version not compatible'));
    return { status: 200, body: dialect.render(dialect.versionRecord(device, service, now), service) };
  }

  const slot = parseUint(segments[3], 0xffff);
  if (slot < 0) return notFound();
  const table = dialect.routes[service];
  const rest = segments.slice(4);
  let route = table.get(`${verb} ${rest.join('/')}`);
  let param = -1;
  if (route === undefined && rest.length > 0) {
    route = table.get(`${verb} ${rest.slice(0, -1).concat(':n').join('/')}`);
    param = route === undefined ? -1 : parseUint(rest[rest.length - 1], 0xff);
    if (param < 0) return notFound();
  }
  if (route === undefined) return notFound();

  // 2. body (POST routes only)
  let value: unknown = undefined;
  if (route.body !== undefined) {
    if (body.kind === 'too_large') return fail(new SimError(413));
    const text = body.kind === 'none' ? '' : body.text;
    if (text === undefined) return fail(new SimError(400)); // not UTF-8
    const decoded = decodeBody(text, route.body, { arrayStructs: dialect.arrayBodies });
    if (!decoded.ok) return fail(new SimError(decoded.status));
    value = decoded.value;
  }

  // 3. version, 4. checks before the slot, 5. slot, 6. checks after the slot
  if (!versionOk) return fail(new SimError(400, 'Version not compatible'));
  const before = route.check?.(value, param) ?? true;
  if (before !== true) return fail(before);
  if (device.module(service, slot) === undefined) return fail(new SimError(404, route.missingSlot ?? 'Slot not found'));
  const after = route.checkAfterSlot?.(value, param) ?? true;
  if (after !== true) return fail(after);

  // 7. route logic
  try {
    const result = route.handle({ device, service, slot, body: value, param, now });
    return { status: 200, body: dialect.render(result, service) };
  } catch (error) {
    if (error instanceof ModelError) return fail(refusalError(error.refusal));
    if (error instanceof SimError) return fail(error);
    throw error;
  }
}
