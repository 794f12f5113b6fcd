/**
 * device-alarm: alarms an operator acknowledges (ISA-18.2 / IEC 62682), defined by this
 * node and fed by what it hears: a msg's condition (a boolean, or a number against
 * Hi/HiHi/Lo/LoLo with a deadband), notification-poll's alerts (per pin and flag), or the
 * module's health (unreachable, reset, service restarted, watchdog, notifications lost).
 * One msg per transition of its alarms, whoever caused it: topic the alarm's id, payload
 * {alarm, from, to, value, active, time, cause, user?, comment?, priority, message, where}.
 * The states live in the alarm system and its journal (nodes/alarms/), not in the node, so
 * a redeploy or a restart finds them as they were.
 */
import { t, useRuntimeLanguage, spoken } from './lib/base/i18n';
import { invalidInput } from './lib/base/errors';
import { subscribe as hearHealth } from './lib/config-node/health';
import type { DeviceNode } from './lib/config-node/device-settings';
import type { ConnectionState } from './lib/config-node/connection-state';
import type { Node, NodeAPI, NodeDef } from './lib/base/node-red';
import { readAlarmSettings } from './lib/pure/alarm-settings';
import { isPhrase } from './lib/pure/phrase';
import { NodeAlarms } from './alarms/node-alarms';
import { systemOf } from './alarms/userdir-system';
import type { AlarmWhere } from './alarms/alarm-record';

export = function (RED: NodeAPI) {
  useRuntimeLanguage(RED);
  function DeviceAlarmNode(this: Node, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    /** Settings the node cannot run with: said once, red, and every msg refused at Catch with the reason (none dropped silently). */
    const unusable = (reason: string): void => {
      node.error(reason);
      node.status({ fill: 'red', shape: 'ring', text: t('device-alarm.invalid') });
      node.on('input', (_msg, _send, done) => done(invalidInput(reason)));
    };
    const settings = readAlarmSettings(def, def.id);
    if (isPhrase(settings)) return unusable(spoken(settings));
    const { system, temporary } = systemOf(RED);
    const device = typeof def.device === 'string' && def.device ? (RED.nodes.getNode(def.device) as DeviceNode | null) : null;
    const module = device?.connection?.healthModule;
    if (!module && settings.source !== 'condition') return unusable(t('device-alarm.needsModule'));
    const where: AlarmWhere = module ? { config: module.config, device: module.device, service: module.service, slot: module.slot } : {};
    const alarms = new NodeAlarms(system, node.id, settings, where);
    const refused = alarms.define();
    if (refused) return unusable(spoken(refused));
    let journalProblem: string | undefined;
    const show = () => {
      const status = alarms.status();
      node.status(journalProblem ? { fill: 'red', shape: 'ring', text: `${status.text}; ${journalProblem}` } : status);
    };
    const stops: Array<() => void> = [];
    stops.push(
      system.subscribe(
        (record) => {
          node.send({ topic: record.alarm, payload: structuredClone(record) });
          show();
        },
        alarms.alarms.map((a) => a.id),
      ),
    );
    stops.push(
      system.watchJournal((problem) => {
        journalProblem = problem ? t('device-alarm.journalProblem', { reason: problem.reason }) : undefined;
        // A journal that cannot be written reaches Catch (a msg is needed for that: Node-RED hands a msg-less error only to the log); the alarms keep working in memory.
        if (problem) node.error(invalidInput(t('device-alarm.journalFailed', { file: problem.file, reason: problem.reason })), {});
        show();
      }),
    );
    if (device) {
      const user = { onConnectionState: (state: ConnectionState) => alarms.connection(state) };
      device?.register(user);
      stops.push(() => device?.deregister(user));
      if (module)
        stops.push(
          hearHealth(
            (event) => event.module.config === module.config && alarms.health(event),
            (text) => node.error(text),
          ),
        );
    }
    show();
    // Said once per node start: the journal is kept, but not where a restart of the machine finds it.
    if (temporary) node.warn(t('device-alarm.temporaryJournal', { file: system.journal.file }));
    node.on('input', (msg, _send, done) => {
      if (settings.source === 'condition') {
        const problem = alarms.condition(RED.util.getMessageProperty(msg, settings.property));
        return done(problem ? invalidInput(problem) : undefined);
      }
      if (settings.source === 'notification' && (msg.topic === 'notification' || String(msg.topic).startsWith('pin/'))) alarms.notification(msg.payload);
      done();
    });
    node.on('close', (removed, done) => {
      for (const stop of stops) stop();
      alarms.close(removed);
      void system.journal.flush().then(done, done);
    });
  }
  RED.nodes.registerType('device-alarm', DeviceAlarmNode);
};
