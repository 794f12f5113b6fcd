/**
 * notification-poll: reads the io module's notifications every N ms (never two reads at
 * once) and sends one msg per pin whose alert flags are set. The device keeps only
 * "triggered" per flag and reading clears it, so each alert is sent once.
 *
 * A msg with payload "stop" / "start" pauses / resumes polling; any other msg reads now.
 * While the device is away the node backs off, tells a Catch node once per outage, and
 * resumes by itself.
 */
import { registerActionNode } from './lib/action-node';
import { DeviceResult } from './lib/client';
import { Operation, Outcome } from './lib/device-operation';
import { badResponse, ensure, invalidInput } from './lib/errors';
import { t } from './lib/i18n';
import { ALERT_FLAGS, AlertFlag, check, LIMITS } from './lib/limits';
import { boolSetting, intSetting } from './lib/settings';
import type { NodeAPI, NodeDef, NodeMessage } from './lib/red';

interface Settings {
  interval: number;
  pins: Set<number>;
  alerts: Set<AlertFlag>;
  combined: boolean;
  /** Status text of the last alert sent, kept between rounds. */
  lastAlert?: string;
}

type NotificationRecord = { pin: number } & Partial<Record<AlertFlag, boolean>>;

/** A list setting: an array, or comma-separated text; empty = everything. */
function listSetting(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return items.map((v) => String(v).trim()).filter(Boolean);
}

function readSettings(def: NodeDef): Settings {
  const interval = intSetting(def.interval, 100);
  ensure(check('notification_interval', interval, 'interval'));
  const pins = listSetting(def.pins).map((p) => intSetting(p));
  for (const pin of pins) ensure(check('pin', pin, 'pins'));
  const alerts = listSetting(def.alerts);
  for (const alert of alerts) {
    if (!(ALERT_FLAGS as readonly string[]).includes(alert)) throw invalidInput(t('notification-poll.badAlerts', { flags: ALERT_FLAGS.join(', '), got: JSON.stringify(alert) }));
  }
  const allPins = Array.from({ length: LIMITS.pin.max }, (_, i) => i + 1);
  return {
    interval: interval as number,
    pins: new Set(pins.length ? (pins as number[]) : allPins),
    alerts: new Set((alerts.length ? alerts : ALERT_FLAGS) as AlertFlag[]),
    combined: boolSetting(def.combined, false),
  };
}

function read(s: Settings): Operation {
  return { kind: 'requests', requests: { method: 'GET', endpoint: ['notification'] }, status: t('notification-poll.polling', { interval: s.interval }) };
}

function output(result: DeviceResult, msg: NodeMessage, s: Settings): Outcome {
  const records = (result.data as { notification?: unknown })?.notification;
  if (!Array.isArray(records)) throw badResponse(t('notification-poll.noNotifications'));
  const raised: Array<{ record: NotificationRecord; alerts: AlertFlag[] }> = [];
  for (const record of records as NotificationRecord[]) {
    if (!record || !s.pins.has(record.pin)) continue;
    const alerts = ALERT_FLAGS.filter((flag) => record[flag] === true && s.alerts.has(flag));
    if (alerts.length) raised.push({ record, alerts });
  }
  if (raised.length) {
    const last = raised[raised.length - 1];
    s.lastAlert = t('notification-poll.alert', { pin: last.record.pin, alerts: last.alerts.join(', '), time: new Date().toLocaleTimeString() });
  }
  const status = s.lastAlert ?? t('notification-poll.polling', { interval: s.interval });
  if (!raised.length) return { msgs: [], status };
  if (s.combined) {
    const alerts = Object.fromEntries(raised.map((r) => [String(r.record.pin), r.alerts]));
    return { msgs: [{ ...msg, topic: 'notification', payload: raised.map((r) => r.record), alerts }], status };
  }
  const msgs = raised.map((r) => ({ ...msg, topic: `pin/${r.record.pin}`, payload: r.record, alerts: r.alerts }));
  return { msgs, status };
}

export = function (RED: NodeAPI) {
  registerActionNode(RED, 'notification-poll', {
    service: 'io',
    settings: readSettings,
    // stop/start are handled by action-node for every polling node; any other msg reads now.
    build: (_msg, s) => read(s),
    output,
    poll: { interval: (s) => s.interval, build: read },
    onRestart(node) {
      // The released service caches notifications per pin; a restart of it lost them.
      const text = t('notification-poll.lost');
      node.warn(text);
      node.send({ topic: 'notifications-lost', payload: { reason: text }, alerts: [] });
    },
  });
};
