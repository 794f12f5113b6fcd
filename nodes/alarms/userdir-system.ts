/**
 * The alarm system of a running Node-RED: its journal is a file in the runtime's userDir
 * (`modular-device-alarms.json`), so states survive a restart and a redeploy. A runtime
 * without a userDir (an embedded one) keeps it in the OS's temporary folder and says so.
 */
import os from 'os';
import path from 'path';
import type { NodeAPI } from '../lib/base/node-red';
import { journalFile } from './journal';
import { alarmSystem, AlarmSystem } from './alarm-system';

export function systemOf(RED: NodeAPI): { system: AlarmSystem; temporary: boolean } {
  const userDir = RED.settings?.userDir;
  const file = userDir ? journalFile(userDir) : path.join(os.tmpdir(), `modular-device-alarms-${process.pid}.json`);
  return { system: alarmSystem(file), temporary: userDir === undefined };
}
