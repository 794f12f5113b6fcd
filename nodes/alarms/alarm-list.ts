/**
 * What device-alarm-list sends: the alarms in the operator's order (annunciated ones first,
 * then by priority and time), the journal's newest entries, and the health figures.
 */
import type { HealthReport } from '../lib/pure/alarm-health';
import type { AlarmRecord, AlarmView } from './alarm-record';
import type { AlarmSystem } from './alarm-system';

/** The least time between two lists sent for transitions (a command's answer is never held back). */
export const LIST_SPACING_MS = 250;

export interface ListPayload {
  alarms: AlarmView[];
  journal: AlarmRecord[];
  health: HealthReport;
  /** When the list was made (ms since the epoch). */
  time: number;
}

export function listPayload(system: AlarmSystem, options: { area?: string; journal: number }): ListPayload {
  const inArea = <T extends { area?: string }>(x: T) => !options.area || x.area === options.area;
  const all = system.list().filter(inArea);
  const alarms = [...all.filter((a) => a.annunciated), ...all.filter((a) => !a.annunciated)];
  const journal = options.area
    ? system
        .recent(options.journal * 4)
        .filter(inArea)
        .slice(0, options.journal)
    : system.recent(options.journal);
  return { alarms, journal, health: system.report(), time: system.now() };
}
