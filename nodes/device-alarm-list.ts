/**
 * device-alarm-list: the operator's side of the alarms. A msg acknowledges, shelves,
 * unshelves, removes from or returns to service one alarm, or acknowledges every alarm of a
 * device or an area, with who and why (pure/alarm-command.ts says what a command may hold);
 * a refused one reaches Catch and changes nothing. The node sends the list (annunciated
 * alarms first, by priority and time, then the rest), the journal's newest entries and the
 * alarm system's health, after every command and every transition (at most one msg per
 * `throttle` ms under a flood), ready for a Dashboard 2 table.
 */
import { nodeText, t, useRuntimeLanguage, spoken } from './lib/base/i18n';
import { invalidInput } from './lib/base/errors';
import type { Node, NodeAPI, NodeDef, NodeMessage } from './lib/base/node-red';
import { readCommand } from './lib/pure/alarm-command';
import { isPhrase } from './lib/pure/phrase';
import { check, labelled } from './lib/pure/limits';
import { intSetting, textSetting } from './lib/action/setting-values';
import { systemOf } from './alarms/userdir-system';
import { listPayload, LIST_SPACING_MS } from './alarms/alarm-list';
import { realLater } from './lib/base/clock';

export = function (RED: NodeAPI) {
  useRuntimeLanguage(RED);
  function DeviceAlarmListNode(this: Node, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    const area = textSetting(def.area);
    const journalCount = intSetting(def.journal, 50);
    const shelveFor = intSetting(def.shelveFor, 3_600_000);
    for (const [name, value, limit] of [
      ['journal', journalCount, 'alarm_journal_shown'],
      ['shelveFor', shelveFor, 'shelve_duration'],
    ] as const) {
      const ok = check(limit, value, labelled('device-alarm-list', name));
      if (ok !== true) {
        node.error(spoken(ok));
        node.status({ fill: 'red', shape: 'ring', text: t('device-alarm-list.invalid') });
        // Every msg is refused with the reason at Catch, as an action node with bad settings refuses it.
        node.on('input', (_msg, _send, done) => done(invalidInput(ok)));
        return;
      }
    }
    const { system } = systemOf(RED);
    const payload = () => listPayload(system, { area, journal: journalCount as number });
    const send = (msg: NodeMessage = {}) => {
      const p = payload();
      // The command's own msg goes on (its _msgid, the user's fields), as every node passes its msg.
      msg.topic = 'alarms';
      msg.payload = p;
      node.send(msg);
      const unack = p.alarms.filter((a) => a.shown === 'active-unack' || a.shown === 'rtn-unack').length;
      node.status(
        unack
          ? { fill: 'red', shape: 'dot', text: nodeText('device-alarm-list', 'runtime.list.unack', { count: unack }) }
          : { fill: 'green', shape: 'dot', text: nodeText('device-alarm-list', 'runtime.list.quiet', { count: p.alarms.length }) },
      );
    };
    // Transitions arrive in bursts (an acknowledge-all, a flood): one list per burst, and at
    // most one per LIST_SPACING_MS, since a list of a thousand alarms with the health figures
    // is no small msg for a dashboard to redraw.
    let pending = false;
    let lastSent = 0;
    let cancel: (() => void) | undefined;
    const sendLater = () => {
      pending = true;
      cancel = realLater(
        () => {
          pending = false;
          cancel = undefined;
          lastSent = Date.now();
          send();
        },
        Math.max(0, lastSent + LIST_SPACING_MS - Date.now()),
      );
    };
    const stop = system.subscribe((record) => {
      if (pending || (area && record.area !== area)) return;
      sendLater();
    });
    node.on('input', (msg, _send, done) => {
      const command = readCommand(msg.payload, shelveFor as number);
      if (isPhrase(command)) return done(invalidInput(command));
      // An area node acknowledges all of its own area unless the command names another.
      const scoped = command.action === 'acknowledge-all' && area && command.area === undefined ? { ...command, area } : command;
      // The command's own transitions are in the list sent below: no second list for them.
      const wasPending = pending;
      pending = true;
      const outcome = system.command(scoped);
      pending = wasPending;
      if (outcome.refusal) return done(invalidInput(outcome.refusal));
      lastSent = Date.now();
      send(msg);
      done();
    });
    node.on('close', (_removed, done) => {
      stop();
      cancel?.();
      void system.journal.flush().then(done, done);
    });
    setImmediate(() => send());
  }
  RED.nodes.registerType('device-alarm-list', DeviceAlarmListNode);
};
