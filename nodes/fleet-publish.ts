/**
 * fleet-publish: this device in the plant's MQTT namespace (nodes/fleet/scheme.ts). Wired
 * between our nodes and core mqtt nodes: health events of every module become retained
 * states and events, our nodes' msgs readings by exception and alerts; commands from an mqtt
 * in node leave on output 2 (allow-listed) towards the action nodes, and their answers come
 * back in as replies. Refused commands are counted in the Prometheus metrics the plugin
 * modular-device-metrics serves (nodes/fleet/metrics-route.ts), when they are on.
 */
import { FleetPublisher } from './fleet/publisher';
import { servedMetrics } from './fleet/metrics-route';
import { currentStates } from './fleet/current-states';
import { ALLOWABLE_OPS, isLevel, readAllowList, Scheme } from './fleet/scheme';
import { systemOf } from './alarms/userdir-system';
import { invalidInput } from './lib/base/errors';
import { subscribe } from './lib/config-node/health';
import { t, useRuntimeLanguage } from './lib/base/i18n';
import { textSetting } from './lib/action/setting-values';
import type { DeviceNode } from './lib/config-node/device-settings';
import type { Node, NodeAPI, NodeDef, NodeMessage } from './lib/base/node-red';

/** The device's name: the setting, else FlowFuse's FF_DEVICE_NAME of this instance. */
function deviceName(RED: NodeAPI, node: Node, setting: string): string {
  if (setting) return setting;
  const env = RED.util.getSetting?.(node, 'FF_DEVICE_NAME') ?? process.env.FF_DEVICE_NAME;
  return typeof env === 'string' ? env : '';
}

export = function (RED: NodeAPI) {
  useRuntimeLanguage(RED);
  function FleetPublishNode(this: Node, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    const prefix = textSetting(def.prefix);
    const device = deviceName(RED, node, textSetting(def.deviceName));
    const allowed = readAllowList(def.commands);
    const badLevel = (field: string, value: string) =>
      t('fleet-publish.badLevel', { field: t(`fleet-publish.${field}`), got: JSON.stringify(value.slice(0, 80)) });
    const problem = !isLevel(prefix)
      ? badLevel('prefixField', prefix)
      : !isLevel(device)
        ? badLevel('deviceField', device)
        : allowed instanceof Set
          ? undefined
          : t('fleet-publish.badCommands', { ops: ALLOWABLE_OPS.join(', '), got: JSON.stringify(allowed.unknown).slice(0, 100) });
    if (problem !== undefined || !(allowed instanceof Set)) {
      node.error(problem);
      node.status({ fill: 'red', shape: 'ring', text: t('fleet-publish.invalid') });
      return;
    }
    const scheme = new Scheme(prefix, device);
    // A module's device: its config node's Fleet device, when set (a Node-RED serving several devices).
    const deviceOf = (config: string) => (RED.nodes.getNode(config) as DeviceNode | null)?.fleetDevice;
    const publisher = new FleetPublisher(
      scheme,
      allowed,
      {
        mqtt: (msg) => node.send([msg as unknown as NodeMessage, null]),
        command: (msg) => node.send([null, msg as unknown as NodeMessage]),
        warn: (text) => node.warn(text),
      },
      deviceOf,
      systemOf(RED).system,
    );
    const ok = { fill: 'green', shape: 'dot', text: `${prefix}/${device}` } as const;
    node.status(ok);
    const stops = [
      subscribe(
        (event) => publisher.onHealth(event),
        (text) => node.error(text),
      ),
      publisher.alarms?.start() ?? (() => undefined),
    ];
    // Modules connected before this node was (re)deployed: their state now. The alarms' states once every
    // node of the flows has started (an alarm node after this one defines its alarms then); any deploy ends so.
    for (const event of currentStates(RED)) publisher.onHealth(event);
    const started = () => publisher.alarms?.publishAll();
    if (RED.events) {
      RED.events.once('flows:started', started);
      stops.push(() => RED.events?.removeListener('flows:started', started));
    } else started();
    let refusedShown = false;
    node.on('input', (msg, _send, done) => {
      try {
        const refused = publisher.onMsg(msg as Record<string, unknown>);
        const command = scheme.commandTopic(msg.topic);
        if (refused === undefined) {
          // A command that ran: the last refusal is no longer the news.
          if (command && refusedShown) {
            refusedShown = false;
            node.status(ok);
          }
          return done();
        }
        // A refused command (already answered on its reply topic): on the node (its start: a status fits 60 characters), in the metrics, at Catch.
        servedMetrics()?.refusedCommand(command && 'alarm' in command ? 'alarm' : 'module');
        refusedShown = true;
        node.status({ fill: 'yellow', shape: 'ring', text: t('fleet-publish.refusedStatus', { reason: refused.slice(0, 40) }) });
        done(invalidInput(refused));
      } catch (error) {
        done(error as Error);
      }
    });
    node.on('close', (_removed, done) => {
      for (const stop of stops) stop();
      publisher.close();
      done();
    });
  }
  RED.nodes.registerType('fleet-publish', FleetPublishNode);
};
