/**
 * A device-alarm node as its dialog saves it (numbers as text, lists as text), on its own:
 * the runtime tests (alarm-nodes.ts re-exports it) and bench/alarms.js (plain JS, from dist/)
 * build their alarms with it, so this file loads nothing (no Node-RED, no test helper).
 */

/** A device-alarm node `id` (its alarm id too) of module `dev`; override any setting. */
export function alarmNode(id: string, settings: Record<string, unknown> = {}): Record<string, unknown> & { id: string; type: string } {
  return {
    id,
    type: 'device-alarm',
    alarmId: id,
    priority: '2',
    message: '',
    area: '',
    device: 'dev',
    source: 'condition',
    property: 'payload',
    hihi: '',
    hi: '',
    lo: '',
    lolo: '',
    deadband: '',
    onDelay: '0',
    offDelay: '0',
    clearAfter: '1000',
    pins: '',
    flags: '',
    kinds: '',
    ...settings,
  };
}
