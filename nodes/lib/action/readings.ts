/**
 * Shared by the nodes that read several records and merge them (bmc-readings,
 * power-readings): one GET per record in one turn of the queue, merged into one flat
 * object of plain numbers, optionally "only on change". The settings of every reading node
 * (io-read too): polling, deadband, "only on change", output.
 */
import { Conversation, Operation, Outcome } from './operation';
import { ensure } from '../base/errors';
import { check, labelled } from '../pure/limits';
import { boolSetting, intSetting, textSetting } from './setting-values';
import { DeviceResult, ModuleClient } from '../device/client';
import { SentRequests, sentRequests } from '../device/request';
import { ChangeFilter } from './change';
import { msgWith } from './msg';
import { t } from '../base/i18n';
import type { NodeDef, NodeMessage } from '../base/node-red';

/** Reads each endpoint in turn and merges the answers (fields are unique across records). */
export function readMerged(endpoints: ReadonlyArray<ReadonlyArray<string>>): Conversation {
  return async (client: ModuleClient): Promise<DeviceResult> => {
    const merged: Record<string, unknown> = {};
    const requests: SentRequests[] = [];
    for (const endpoint of endpoints) {
      const result = await client.request({ method: 'GET', endpoint });
      Object.assign(merged, result.data);
      requests.push(result.request);
    }
    return { data: merged, request: sentRequests(...requests) };
  };
}

export interface MergedOutputOptions {
  onlyOnChange: boolean;
  filter: ChangeFilter;
  /** false: one msg with the merged object; true: one msg per number, topic = field. */
  perValue: boolean;
  /** Extra msg properties derived from the record (e.g. protection_changed). */
  extra?: (record: Record<string, unknown>) => Record<string, unknown>;
  status: (record: Record<string, unknown>) => string;
  /** Fields compared without the deadband (counters: every step counts). */
  exact?: (key: string) => boolean;
  /** A record that must be sent even when "only on change" would hold it back. */
  force?: (extra: Record<string, unknown>) => boolean;
}

export function mergedOutput(result: DeviceResult, msg: NodeMessage, o: MergedOutputOptions): Outcome {
  const record = result.data as Record<string, unknown>;
  const extra = o.extra?.(record) ?? {};
  const status = o.status(record);
  const entries = Object.entries(record);
  const useDeadband = (key: string) => !o.exact?.(key);
  if (o.perValue) {
    const fresh = o.onlyOnChange ? entries.filter(([key, value]) => o.filter.changed(key, value, useDeadband(key))) : entries;
    return { msgs: fresh.map(([key, value]) => msgWith(msg, { topic: key, payload: value, request: result.request, ...extra })), status };
  }
  const moved = o.filter.anyChanged(entries.map(([key, value]) => [key, value, useDeadband(key)]));
  if (o.onlyOnChange && !moved && !o.force?.(extra)) return { msgs: [], status };
  // One msg out: the msg that came in, as Node-RED's own nodes send it.
  return { msgs: [Object.assign(msg, { payload: record, request: result.request }, extra)], status };
}

/** The settings every readings node has: what to read, polling, "only on change", output. */
export interface ReadingSettings {
  endpoints: string[][];
  interval: number;
  onlyOnChange: boolean;
  /** One msg per value instead of one record (the dialog's output choice). */
  perValue: boolean;
  filter: ChangeFilter;
}

/**
 * Reads and checks those settings; `endpoints` are the records the node was set to read,
 * `perValueWord` the dialog's word for one msg per value (io-read says `per-pin`).
 */
export function readingSettings(def: NodeDef, endpoints: string[][], perValueWord = 'per-field'): ReadingSettings {
  const interval = intSetting(def.interval, 0);
  const deadband = intSetting(def.deadband, 0);
  ensure(check('poll_interval', interval, labelled(def.type, 'interval')));
  ensure(check('deadband', deadband, labelled(def.type, 'deadband')));
  return {
    endpoints,
    interval: interval as number,
    onlyOnChange: boolSetting(def.onlyOnChange, false),
    perValue: textSetting(def.output) === perValueWord,
    filter: new ChangeFilter(deadband as number),
  };
}

/** One read of every chosen record. */
export function readOperation(s: ReadingSettings): Operation {
  return { kind: 'conversation', run: readMerged(s.endpoints), status: t('common.read') };
}
