/**
 * The metrics of each kind of module (io, bmc, power) as a DBIRTH declares them, what a msg of
 * our nodes or a health event says about them, and what a DCMD write becomes. Every module
 * has the common ones (its connection's state, resets, notifications lost); the kinds' own
 * are in catalogue-io.ts, catalogue-bmc.ts, catalogue-power.ts.
 *
 * Msgs are untrusted: a payload of another shape says nothing (no change, never a throw), and
 * every walk over one is bounded. Both API versions give the same metrics: a 1.0 answer
 * reaches the flows in the spec's shape (device/dialects.ts), and what differs (1.0's names in
 * `msg.request`'s bodies) is read in both forms.
 */
import { t } from '../../lib/base/i18n';
import type { HealthEvent } from '../../lib/config-node/health';
import type { Service } from '../../lib/pure/limits';
import { DataType, MetricChange, MetricDef, MetricValue, WriteCommand } from './types';
import { IO_METRICS, ioAlert, ioReading, ioWrite } from './catalogue-io';
import { BMC_FIELDS, bmcReading } from './catalogue-bmc';
import { POWER_FIELDS, powerReading } from './catalogue-power';
import { declaredOf, ofDatatype, typeName } from './catalogue-values';

/** Every module's: the config node's connection state, its resets, the notification windows lost. */
export const COMMON_METRICS: readonly MetricDef[] = [
  { name: 'Connection/State', datatype: DataType.String },
  { name: 'Connection/Resets', datatype: DataType.UInt64 },
  { name: 'Connection/Last Reset', datatype: DataType.DateTime },
  { name: 'Notifications Lost', datatype: DataType.UInt64 },
];

const KINDS: Record<Service, readonly MetricDef[]> = {
  io: [...COMMON_METRICS, ...IO_METRICS],
  bmc: [...COMMON_METRICS, ...declaredOf(BMC_FIELDS)],
  power: [...COMMON_METRICS, ...declaredOf(POWER_FIELDS)],
};

const BY_NAME: Record<Service, ReadonlyMap<string, MetricDef>> = {
  io: new Map(KINDS.io.map((d) => [d.name, d])),
  bmc: new Map(KINDS.bmc.map((d) => [d.name, d])),
  power: new Map(KINDS.power.map((d) => [d.name, d])),
};

const isService = (service: unknown): service is Service => service === 'io' || service === 'bmc' || service === 'power';

/** Every metric a module of this kind declares in its DBIRTH, in a stable order. */
export function metricsOf(service: Service): readonly MetricDef[] {
  return isService(service) ? KINDS[service] : [];
}

/** A declared metric of the kind, by name. */
export function metricNamed(service: Service, name: string): MetricDef | undefined {
  return isService(service) ? BY_NAME[service].get(name) : undefined;
}

/** Only declared metrics leave, each value of its declared type (a null clears it). */
function declared(service: Service, changes: MetricChange[]): MetricChange[] {
  return changes.filter((c) => {
    const def = BY_NAME[service].get(c.name);
    if (!def) return false;
    return 'add' in c || c.value === null || ofDatatype(def, c.value);
  });
}

/**
 * A reading node's msg (or a write's answer): `what` is its wire path's words (scheme.ts
 * moduleOfRequest), `payload` its msg.payload; `request` its msg.request, where a write's
 * values are (the device answers a write with `{status: "success"}` only).
 */
export function changesOfReading(service: Service, what: string, payload: unknown, request?: unknown): MetricChange[] {
  if (!isService(service) || typeof what !== 'string') return [];
  try {
    const changes =
      service === 'io' ? ioReading(what, payload, request) : service === 'bmc' ? bmcReading(what, payload, request) : powerReading(what, payload, request);
    return declared(service, changes);
  } catch {
    // A getter that throws, a proxy: a msg no node of ours sends says nothing.
    return [];
  }
}

/** notification-poll's msg: every alert counts, two alike too. */
export function changesOfAlert(service: Service, payload: unknown, alerts: unknown): MetricChange[] {
  if (service !== 'io') return [];
  try {
    return declared(service, ioAlert(payload, alerts));
  } catch {
    return [];
  }
}

/** A module's health event: its connection's state, a reset noticed, a notification window lost. */
export function changesOfHealth(event: HealthEvent): MetricChange[] {
  switch (event.kind) {
    case 'connection': {
      const state: unknown = event.detail?.state;
      return typeof state === 'string' ? [{ name: 'Connection/State', value: state }] : [];
    }
    case 'reset': {
      const time = Date.parse(event.time);
      return [{ name: 'Connection/Resets', add: 1 }, ...(Number.isFinite(time) ? [{ name: 'Connection/Last Reset', value: time }] : [])];
    }
    case 'notifications-lost':
      return [{ name: 'Notifications Lost', add: 1 }];
    default:
      return [];
  }
}

/**
 * A DCMD write of `def` (a declared metric of the kind): the command msg's op (the node type)
 * and payload (as that node takes it), or why not. The value is checked with the limits the
 * node checks, so a passed write does not fail there.
 */
export function writeOf(service: Service, def: MetricDef, value: MetricValue): WriteCommand | { refused: string } {
  const known = metricNamed(service, def?.name);
  if (!known) {
    const metric = String(def?.name).slice(0, 80);
    return { refused: t(service === 'io' ? 'fleet-publish.spNotOfIo' : 'fleet-publish.spNotOfModule', { metric, service: String(service) }) };
  }
  if (!known.writes) return { refused: t('fleet-publish.spReadOnly', { metric: known.name }) };
  if (!ofDatatype(known, value)) {
    const got = JSON.stringify(typeof value === 'string' ? value.slice(0, 40) : value);
    return { refused: t('fleet-publish.spTakes', { metric: known.name, type: typeName(known.datatype), got }) };
  }
  if (service === 'io') return ioWrite(known, value);
  return { refused: t('fleet-publish.spNotWritten', { metric: known.name }) };
}
