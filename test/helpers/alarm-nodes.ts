/**
 * Runtime-test harness for the alarm nodes (device-alarm, device-alarm-list): the nodes as
 * the editor saves them, a fresh userDir per test (the alarm system is one per journal file
 * per process, `alarmSystem(file)`: a test's own file keeps the tests apart), a cause that
 * persists on the simulator (an alert flag is latched until read, so a cause that stays is
 * one raised again and again), and readers of what the alarm nodes sent.
 *
 * Built on io-nodes.ts (loadActions, send, Outcomes: one Catch and one Complete for every node)
 * and the real Node-RED through the test helper; nothing is mocked.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import deviceAlarm = require('../../nodes/device-alarm');
import deviceAlarmList = require('../../nodes/device-alarm-list');
import type { NodeMessage } from '../../nodes/lib/base/node-red';
import type { AlarmRecord } from '../../nodes/alarms/alarm-record';
import type { ListPayload } from '../../nodes/alarms/alarm-list';
import { helper, NodeModule, waitFor } from './node-red';
import { ActionDef, CaughtMsg, IO_NODE_MODULES, Outcomes, raiseAlert, send } from './io-nodes';
import type { SimHarness } from './sim-control';
import { alarmNode } from './alarm-node';

export const ALARM_MODULES: NodeModule[] = [...IO_NODE_MODULES, deviceAlarm as NodeModule, deviceAlarmList as NodeModule];

export { alarmNode };

/** The device-alarm-list node `list`. */
export function listNode(settings: Record<string, unknown> = {}): ActionDef {
  return { id: 'list', type: 'device-alarm-list', area: '', journal: '50', shelveFor: '3600000', ...settings };
}

/** notification-poll every 100 ms, wired to the alarm nodes by loadActions's `wires`. */
export function pollNode(): ActionDef {
  return { id: 'np', type: 'notification-poll', interval: '100', pins: '', alerts: '', combined: false };
}

/**
 * A fresh userDir for each test of the enclosing describe (helper.settings), its journal
 * file the test's own; the helper's settings put back and the folder removed after.
 */
export function alarmUserDir(): { readonly dir: string; readonly journal: string } {
  const h = helper as unknown as { _settings: Record<string, unknown> };
  const at = { dir: '', journal: '' };
  let saved: Record<string, unknown>;
  beforeEach(() => {
    saved = h._settings;
    at.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'md-alarm-'));
    at.journal = path.join(at.dir, 'modular-device-alarms.json');
    helper.settings({ ...saved, userDir: at.dir });
  });
  afterEach(() => {
    h._settings = saved;
    fs.rmSync(at.dir, { recursive: true, force: true });
  });
  return at;
}

/**
 * A cause on the device that stays until stopped: the alert raised every 100 ms (the
 * device latches a flag until read, so notification-poll sees it at each round).
 */
export function cause(ctl: SimHarness, pin: number, flag: string): { stop(): Promise<void> } {
  let running = true;
  const loop = (async () => {
    while (running) {
      await raiseAlert(ctl, 2, pin, flag);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/** The transitions node `id` sent (its payloads), optionally of one alarm. */
export function transitions(outcomes: Outcomes, id: string, alarm?: string): AlarmRecord[] {
  return outcomes
    .sent(id)
    .map((m) => m.payload as AlarmRecord)
    .filter((r) => alarm === undefined || r.alarm === alarm);
}

/** The states alarm `alarm` went through, as node `id` told them (`from` of the first, then each `to`). */
export function statesOf(outcomes: Outcomes, id: string, alarm: string): string[] {
  const records = transitions(outcomes, id, alarm);
  return records.length ? [records[0].from, ...records.map((r) => r.to)] : [];
}

/** Waits until node `id` told alarm `alarm` into `to` (the `n`th time, default the first); returns that record. */
export async function waitTransition(outcomes: Outcomes, id: string, alarm: string, to: string, n = 1, timeoutMs = 5000): Promise<AlarmRecord> {
  let found: AlarmRecord | undefined;
  await waitFor(
    () => !!(found = transitions(outcomes, id, alarm).filter((r) => r.to === to)[n - 1]),
    `${alarm} to go ${to} (${n}) from ${id}; so far ${JSON.stringify(statesOf(outcomes, id, alarm))}`,
    timeoutMs,
  );
  return found!;
}

/** Sends an operator's command to the list node; the caught msg when refused. */
export function command(outcomes: Outcomes, payload: unknown): Promise<CaughtMsg | undefined> {
  return send(outcomes, 'list', { payload } as NodeMessage);
}

/** The list node's newest list. */
export function lastList(outcomes: Outcomes): ListPayload {
  const sent = outcomes.sent('list');
  if (!sent.length) throw new Error('the list node sent nothing yet');
  return sent[sent.length - 1].payload as ListPayload;
}

/** The list a `list` command answers now (after every transition so far). */
export async function listNow(outcomes: Outcomes): Promise<ListPayload> {
  const caught = await command(outcomes, { action: 'list' });
  if (caught) throw new Error(`list refused: ${caught.error.message}`);
  return lastList(outcomes);
}
