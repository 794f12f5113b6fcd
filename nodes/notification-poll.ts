/**
 * notification-poll: reads the io module's notifications every N ms (never two reads at
 * once) and sends one msg per pin whose alert flags are set. The device keeps only
 * "triggered" per flag and reading clears it, so each alert is sent once.
 *
 * A msg with payload "stop" / "start" pauses / resumes polling; any other msg reads now.
 * While the device is away the node backs off, tells a Catch node once per outage, and
 * resumes by itself.
 */
import { registerActionNode } from './lib/action/action-node';
import { rememberAlerts } from './sidebar/runtime/alerts';
import { DeviceResult, ModuleClient } from './lib/device/client';
import type { DeviceRequest, SentRequest } from './lib/device/request';
import { Operation, Outcome } from './lib/action/operation';
import { badResponse, DeviceError, ensure, invalidInput, mayHaveReachedDevice, statusText } from './lib/base/errors';
import { clockText, nodeText, t } from './lib/base/i18n';
import { counting, HealthModule, publish, tally } from './lib/config-node/health';
import { check, labelled } from './lib/pure/limits';
import { ALERT_FLAGS, AlertFlag, PINS } from './lib/pure/facts';
import { boolSetting, intSetting } from './lib/action/setting-values';
import type { NodeAPI, NodeDef, NodeMessage } from './lib/base/node-red';
import { listSetting } from './lib/pure/list-setting';
import { msgWith } from './lib/action/msg';
import type { PinTrips } from './lib/config-node/pin-trips';

/** What the node keeps between rounds while it runs: none of it is a setting. */
interface PollState {
  /** Status text of the last alert sent. */
  lastAlert?: string;
  /** The module, for health events (set once the node runs). */
  module?: () => HealthModule | undefined;
  /** The module's connection: the live sidebar shows the alerts delivered for it (sidebar/runtime/alerts.ts). */
  connection?: () => object | undefined;
  /** The module's tripped pins and the package's own suspends of it (config-node/pin-trips.ts). */
  trips?: () => PinTrips | undefined;
  /** The own suspends already announced (or before this node ran). */
  suspends?: number;
  /**
   * When each watched pin was last read whole (or its loss announced), by pin number: where
   * a loss window starts. An array, not a Map: every round of every module stores six.
   */
  readAt: number[];
  /**
   * The outcome of a round that raised nothing and read every pin, which is most rounds:
   * made once, and again when the status it carries changes (an alert came).
   */
  quiet?: Outcome;
}

/** No msgs: frozen, so that nothing can add to the list every quiet round shares. */
const NOTHING = Object.freeze([]) as readonly NodeMessage[] as NodeMessage[];

interface Settings {
  interval: number;
  pins: Set<number>;
  alerts: Set<AlertFlag>;
  combined: boolean;
  /** The node's own state between rounds, beside its settings. */
  state: PollState;
}

type NotificationRecord = { pin: number } & Partial<Record<AlertFlag, boolean>>;

/** A list setting (pure/list-setting.ts), refused when it is no list; empty = everything. */
function listOf(value: unknown, field: 'pins' | 'alerts'): string[] {
  const list = listSetting(value);
  if (!list) throw invalidInput(nodeText('notification-poll', `notAList.${field}`, { flags: ALERT_FLAGS.join(', ') }));
  return list;
}

function readSettings(def: NodeDef): Settings {
  const interval = intSetting(def.interval, 100);
  ensure(check('notification_interval', interval, labelled('notification-poll', 'interval')));
  const pins = listOf(def.pins, 'pins').map((p) => intSetting(p));
  for (const pin of pins) ensure(check('pin', pin, labelled('notification-poll', 'pins')));
  const alerts = listOf(def.alerts, 'alerts');
  for (const alert of alerts) {
    if (!(ALERT_FLAGS as readonly string[]).includes(alert))
      throw invalidInput(t('notification-poll.badAlerts', { flags: ALERT_FLAGS.join(', '), got: JSON.stringify(alert) }));
  }
  return {
    interval: interval as number,
    pins: new Set(pins.length ? (pins as number[]) : PINS),
    alerts: new Set((alerts.length ? alerts : ALERT_FLAGS) as AlertFlag[]),
    combined: boolSetting(def.combined, false),
    state: { readAt: [] },
  };
}

/**
 * One read of the watched pins (on API 1.0 a request per pin, the others not asked). A read
 * that failed as a whole still answers, with every pin unread, so that output can tell a
 * possible loss (a read the device may have acted on clears its flags there). A poll round
 * (`deliver`) sends each pin's alerts as its read arrives (early).
 */
function read(s: Settings, deliver?: (msgs: NodeMessage[]) => void): Operation {
  const request: DeviceRequest = { method: 'GET', endpoint: ['notification'], pins: [...s.pins], ...(deliver ? { arrived: early(s, deliver) } : {}) };
  const unread = (error: unknown): DeviceResult => {
    if (!(error instanceof DeviceError)) throw error;
    return { data: { notification: [], unread: [...s.pins].map((pin) => ({ pin, error })) }, request: [] };
  };
  return {
    kind: 'conversation',
    // One reaction, not an async function: a round of every module, every interval.
    run: (client: ModuleClient) => client.request(request).then(undefined, unread),
    status: t('notification-poll.polling', { interval: s.interval }),
  };
}

/** The msg announcing flags that may be lost: which pins, since when, and why. */
function lostMsg(s: Settings, pins: number[], reason: string): NodeMessage {
  const now = Date.now();
  const from = Math.min(...pins.map((pin) => s.state.readAt[pin] ?? now));
  // The window closes here: the next loss is counted from now.
  for (const pin of pins) s.state.readAt[pin] = now;
  const module = s.state.module?.();
  if (module) publish('notifications-lost', module, reason, { pins, from: new Date(from).toISOString(), to: new Date(now).toISOString() });
  return { topic: 'notifications-lost', payload: { pins, from: new Date(from).toISOString(), to: new Date(now).toISOString(), reason }, alerts: [] };
}

/** The announcement after the package's own suspend of the module (a msg's reason, not a status). */
function suspendLost(s: Settings): NodeMessage {
  return lostMsg(s, [...s.pins], t('notification-poll.lostSuspend'));
}

/**
 * A pin's alerts for the status: the first as the dialog names it, the rest counted, so the
 * text fits the workspace's status (about 60 characters) with all four raised.
 */
function alertWords(alerts: AlertFlag[]): string {
  const first = nodeText('notification-poll', `alert.${alerts[0]}`);
  return alerts.length > 1 ? `${first} +${alerts.length - 1}` : first;
}

/** Whether any of the record's flags is raised (ALERT_FLAGS, written out: see output). */
function anyFlag(r: NotificationRecord): boolean {
  return r.under_voltage_alert === true || r.high_voltage_alert === true || r.high_current_alert === true || r.custom_voltage_alert === true;
}
/** A flag added to ALERT_FLAGS and not read in anyFlag fails to compile here. */
type NotReadByAnyFlag = Exclude<AlertFlag, 'under_voltage_alert' | 'high_voltage_alert' | 'high_current_alert' | 'custom_voltage_alert'>;
const everyFlagRead: [NotReadByAnyFlag] extends [never] ? true : never = true;
void everyFlagRead;

/**
 * One pin's record read: when the pin was read, a protection event it tells, and the watched
 * alerts it raised (undefined: none), in the dialog's order.
 */
function take(record: NotificationRecord, s: Settings, now: number): AlertFlag[] | undefined {
  const watched = s.pins.has(record.pin);
  if (watched) s.state.readAt[record.pin] = now;
  // Most rounds find nothing raised: four reads of fixed names (not of a name from a
  // list, which V8 looks up the slow way) pass such a record, and no list is made for it.
  if (!anyFlag(record)) return undefined;
  // A protection event switched the pin off, watched or not (a 0.9 read clears all six).
  if (record.under_voltage_alert || record.high_voltage_alert || record.high_current_alert)
    s.state.trips?.()?.seen(
      record.pin,
      ALERT_FLAGS.filter((f) => record[f] === true),
    );
  if (!watched) return undefined;
  let alerts: AlertFlag[] | undefined;
  for (const flag of ALERT_FLAGS) if (record[flag] === true && s.alerts.has(flag)) (alerts ??= []).push(flag);
  if (alerts) rememberAlerts(s.state.connection?.(), record.pin, alerts);
  return alerts;
}

/** The msg of one pin's alerts, over `base` (a msg that asked for the read keeps its other properties). */
function pinMsg(base: NodeMessage, record: NotificationRecord, alerts: AlertFlag[], request: DeviceResult['request']): NodeMessage {
  return msgWith(base, { topic: `pin/${record.pin}`, payload: record, alerts, request });
}

/** Records already taken and sent as they arrived (early): the round's output passes them. */
const taken = new WeakSet<object>();

/**
 * The package's own power-management suspended the module since the last look: the driver
 * dropped the notification it held unread (real §5), which may have carried an alert.
 */
function suspendNews(s: Settings): NodeMessage | undefined {
  const suspends = s.state.trips?.()?.suspends;
  if (suspends === undefined || suspends === s.state.suspends) return undefined;
  s.state.suspends = suspends;
  return suspendLost(s);
}

/** The status and the count of alerts sent; `last` the last pin's. */
function alertsSent(s: Settings, last: { record: NotificationRecord; alerts: AlertFlag[] }, count: number): void {
  s.state.lastAlert = t('notification-poll.alert', { pin: last.record.pin, alerts: alertWords(last.alerts), time: clockText(new Date()) });
  s.state.quiet = undefined;
  const module = s.state.module?.();
  if (module && counting()) tally(module, { kind: 'alerts', count });
}

/**
 * A poll round's pin read as it arrives (API 1.0 reads pin after pin): its alerts go out at
 * once, half a round sooner on average than after the last pin. One msg per round
 * (`combined`) waits for the round.
 */
function early(s: Settings, deliver: (msgs: NodeMessage[]) => void): (record: object, sent: SentRequest) => void {
  return (record, sent) => {
    const r = record as NotificationRecord;
    if (s.combined || !anyFlag(r)) return;
    const alerts = take(r, s, Date.now());
    taken.add(record);
    if (!alerts) return;
    alertsSent(s, { record: r, alerts }, 1);
    const news = suspendNews(s);
    const msg = pinMsg({}, r, alerts, sent);
    deliver(news ? [news, msg] : [msg]);
  };
}

function output(result: DeviceResult, msg: NodeMessage, s: Settings): Outcome {
  const data = result.data as { notification?: unknown; unread?: Array<{ pin: number; error: DeviceError }> };
  const records = data?.notification;
  if (!Array.isArray(records)) throw badResponse(t('notification-poll.noNotifications'));
  const now = Date.now();
  let raised: Array<{ record: NotificationRecord; alerts: AlertFlag[] }> | undefined;
  for (const record of records as NotificationRecord[]) {
    if (!record || taken.has(record)) continue;
    const alerts = take(record, s, now);
    if (alerts) (raised ??= []).push({ record, alerts });
  }
  // Pins whose read failed (API 1.0 reads each pin on its own).
  const unread = data.unread?.length ? data.unread.filter((u) => s.pins.has(u.pin)) : undefined;
  const suspended = suspendNews(s);
  // Until an alert came, the operation's own status says it ("polling every N ms", made once).
  if (!raised && !unread?.length && !suspended) return (s.state.quiet ??= { msgs: NOTHING, status: s.state.lastAlert });
  const msgs: NodeMessage[] = [];
  if (suspended) msgs.push(suspended);
  if (raised) {
    alertsSent(s, raised[raised.length - 1], raised.length);
    if (s.combined) {
      const alerts = Object.fromEntries(raised.map((r) => [String(r.record.pin), r.alerts]));
      msgs.push(msgWith(msg, { topic: 'notification', payload: raised.map((r) => r.record), alerts, request: result.request }));
    } else msgs.push(...raised.map((r) => pinMsg(msg, r.record, r.alerts, result.request)));
  }
  // What arrived goes out; pins whose read may have cleared flags unseen are announced.
  const maybeLost = unread?.length ? unread.filter((u) => mayHaveReachedDevice(u.error)) : undefined;
  if (maybeLost?.length)
    msgs.push(
      lostMsg(
        s,
        maybeLost.map((u) => u.pin),
        t('notification-poll.maybeLost', { problem: statusText(maybeLost[0].error) }),
      ),
    );
  return { msgs, status: s.state.lastAlert, error: unread?.[0]?.error };
}

export = function (RED: NodeAPI) {
  registerActionNode(RED, 'notification-poll', {
    service: 'io',
    settings: readSettings,
    // stop/start are handled by action-node for every polling node; any other msg reads now.
    build: (_msg, s) => read(s),
    output,
    // Reads clear the flags on the device: a round on the wire at a redeploy is delivered.
    poll: { interval: (s) => s.interval, build: read, handOver: true },
    start(node, s) {
      s.state.module = () => node.device?.connection?.healthModule;
      s.state.connection = () => node.device?.connection;
      s.state.trips = () => node.device?.connection?.desired.trips;
      s.state.suspends = s.state.trips()?.suspends;
      return undefined;
    },
    onRestart(node, s, what) {
      // The released service caches notifications per pin: a restart of it lost them; a reset
      // module lost its pending ones and the slot's cache (real §3.1, §5). The package's own
      // power-management keeps the cache (it lives in the service) and tells nothing here.
      const text = t(what === 'service' ? 'notification-poll.lost' : 'notification-poll.lostReset');
      node.warn(text);
      node.send(lostMsg(s, [...s.pins], text));
      // Own suspends so far are covered by this announcement.
      s.state.suspends = s.state.trips?.()?.suspends;
    },
  });
};
