/**
 * The alarms on the fleet's MQTT (topics in scheme.ts): each alarm's state retained on
 * `<p>/<d>/alarms/<id>/state`, each transition an event on `…/event`, and the operator's
 * commands from `…/command` (allow-listed by fleet-publish, read as every alarm command is:
 * pure/alarm-command.ts, with the same words).
 *
 * An alarm is published under the device of its module: its config node's Fleet device, else
 * this instance's device, as the module itself (devices.ts). An alarm without a module (a
 * condition of any msg) belongs to this Node-RED, so to this instance's device too: a plant
 * that wants it elsewhere gives the alarm node a Module. A command acts only on its topic's
 * device's alarms: an alarm of another device served here (a gateway) is refused, unchanged.
 */
import type { AlarmSystem } from '../alarms/alarm-system';
import type { AlarmRecord, AlarmView, AlarmWhere } from '../alarms/alarm-record';
import { readCommand, AlarmCommand } from '../lib/pure/alarm-command';
import { LIMITS } from '../lib/pure/limits';
import { isPhrase } from '../lib/pure/phrase';
import { spoken, t } from '../lib/base/i18n';
import { isPlainObject } from '../lib/action/msg';
import { FLEET_ALARM_OPS } from '../lib/pure/facts';
import { ALL_ALARMS, Command, CommandTopic, isAlarmOp, isLevel, MqttMsg, Scheme } from './scheme';

export interface AlarmOutput {
  /** Now (a retained state or a reply: a broker that is away gets the states again when back). */
  send(msg: MqttMsg): void;
  /** An event: held while the broker is away (publisher.ts). */
  event(msg: MqttMsg): void;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** What the topic and op say of a command: its payload may not say them again (a second alarm, another device). */
const FROM_TOPIC = ['action', 'alarm', 'device'];

export class FleetAlarms {
  constructor(
    private readonly scheme: Scheme,
    private readonly system: AlarmSystem,
    /** The Fleet device a config node names ('' or undefined: none). */
    private readonly deviceOf: (config: string) => string | undefined,
    private readonly out: AlarmOutput,
  ) {}

  /** The device an alarm is published under. */
  deviceOfAlarm(where: AlarmWhere): string {
    const own = where.config ? this.deviceOf(where.config) : undefined;
    return own && isLevel(own) ? own : this.scheme.device;
  }

  /** Hears every transition: its event, and the alarm's state after it. Returns the stop. */
  start(): () => void {
    return this.system.subscribe((record) => this.onRecord(record));
  }

  /** Every alarm's state, retained: after a (re)deploy, and when the broker is back (it may have lost them). */
  publishAll(): void {
    for (const view of this.system.list()) this.state(view);
  }

  /**
   * An allowed command on an alarm's topic (or an alarm op on a module's: refused), for a
   * device of `devices` (this Node-RED's): run, and its outcome replied; or the refusal
   * (nothing changed) returned.
   */
  command(target: CommandTopic, { id, op, payload }: Command, devices: ReadonlySet<string>): string | undefined {
    if (!('alarm' in target) || !isAlarmOp(op))
      return t('fleet-publish.alarmOp', {
        op: JSON.stringify(op),
        where: `${this.scheme.prefix}/<device>/alarms/<alarm id | *>/command`,
        ops: FLEET_ALARM_OPS.join(', '),
      });
    if (!devices.has(target.device))
      return t('fleet-publish.alarmDevice', { device: JSON.stringify(target.device.slice(0, 80)), devices: [...devices].slice(0, 5).join(', ') });
    const action = op.slice('alarm-'.length);
    const all = target.alarm === ALL_ALARMS;
    if (all !== (action === 'acknowledge-all')) return t('fleet-publish.alarmTarget', { op, topic: all ? `alarms/${ALL_ALARMS}` : `alarms/${target.alarm}` });
    const fields = payload === undefined || payload === null ? {} : payload;
    if (!isPlainObject(fields)) return spoken(readCommand(fields, 0) as Exclude<ReturnType<typeof readCommand>, AlarmCommand>);
    const named = FROM_TOPIC.find((f) => f in (fields as object));
    if (named) return t('fleet-publish.alarmFromTopic', { field: named });
    const command = readCommand({ ...fields, action, ...(all ? {} : { alarm: target.alarm }) }, LIMITS.shelve_duration.default);
    if (isPhrase(command)) return spoken(command);
    const records: AlarmRecord[] = [];
    if (command.action === 'acknowledge-all') {
      for (const view of this.system.list()) {
        if (view.shown !== 'active-unack' && view.shown !== 'rtn-unack') continue;
        if (this.deviceOfAlarm(view.where) !== target.device) continue;
        if (command.area !== undefined && view.area !== command.area) continue;
        records.push(...this.system.command({ action: 'acknowledge', alarm: view.id, user: command.user, comment: command.comment }).records);
      }
    } else if (command.action !== 'list') {
      const view = this.system.get(command.alarm);
      const device = view && this.deviceOfAlarm(view.where);
      if (view && device !== target.device) return t('fleet-publish.alarmOfOther', { alarm: view.id, device: target.device, owner: device });
      const outcome = this.system.command(command);
      if (outcome.refusal) return spoken(outcome.refusal);
      records.push(...outcome.records);
    }
    const transitions = records.map((r) => ({ alarm: r.alarm, from: r.from, to: r.to }));
    this.out.send({
      topic: target.reply,
      payload: { device: target.device, id, op, ok: true, payload: { transitions }, time: iso(this.system.now()) },
      qos: 1,
      retain: false,
    });
    return undefined;
  }

  private onRecord(record: AlarmRecord): void {
    const device = this.deviceOfAlarm(record.where);
    this.out.event({ topic: this.scheme.alarm(device, record.alarm, 'event'), payload: { device, ...record, time: iso(record.time) }, qos: 1, retain: false });
    const view = this.system.get(record.alarm);
    if (view) this.state(view, device);
  }

  private state(view: AlarmView, device = this.deviceOfAlarm(view.where)): void {
    this.out.send({ topic: this.scheme.alarm(device, view.id, 'state'), payload: { device, ...view, time: iso(view.since) }, qos: 1, retain: true });
  }
}
