/**
 * fleet-publish: this device in the plant's MQTT namespace (nodes/fleet/scheme.ts). Wired
 * between our nodes and core mqtt nodes: health events of every module become retained
 * states and events, our nodes' msgs readings by exception and alerts; commands from an mqtt
 * in node leave on output 2 (allow-listed) towards the action nodes, and their answers come
 * back in as replies. Refused commands are counted in the Prometheus metrics the plugin
 * modular-device-metrics serves (nodes/fleet/metrics-route.ts), when they are on.
 *
 * Protocol `sparkplug` or `both`: a Sparkplug B edge node beside (or instead of) the topics
 * above, with an MQTT connection of its own (nodes/fleet/sparkplug/edge-wiring.ts, loaded only
 * then); its commands leave on output 2 too (fleetCommand.via = 'sparkplug') and their answers
 * come back in to it.
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
import { isRefusal, readProtocol, readSparkplug, SettingRefusal, SparkplugSettings } from './fleet/sparkplug/edge-settings';
import type { EdgeWiring } from './fleet/sparkplug/edge-wiring';
import type { HealthEvent } from './lib/config-node/health';
import type { DeviceNode } from './lib/config-node/device-settings';
import type { Node, NodeAPI, NodeDef, NodeMessage } from './lib/base/node-red';

/** The device's name: the setting, else FlowFuse's FF_DEVICE_NAME of this instance. */
function deviceName(RED: NodeAPI, node: Node, setting: string): string {
  if (setting) return setting;
  const env = RED.util.getSetting?.(node, 'FF_DEVICE_NAME') ?? process.env.FF_DEVICE_NAME;
  return typeof env === 'string' ? env : '';
}

/** A Sparkplug or Protocol refusal in the runtime's words, the field named as the dialog labels it. */
function said(refusal: SettingRefusal): string {
  return t(`fleet-publish.${refusal.id}`, { ...refusal.values, field: t(`fleet-publish.${refusal.field}Field`) });
}

export = function (RED: NodeAPI) {
  useRuntimeLanguage(RED);
  function FleetPublishNode(this: Node, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    const protocol = readProtocol(def.protocol);
    const uns = protocol === 'uns' || protocol === 'both';
    const prefix = textSetting(def.prefix);
    const device = deviceName(RED, node, textSetting(def.deviceName));
    const allowed = readAllowList(def.commands);
    const sparkplug = protocol === 'sparkplug' || protocol === 'both' ? readSparkplug(def as Record<string, unknown>, device) : undefined;
    const badLevel = (field: string, value: string) =>
      t('fleet-publish.badLevel', { field: t(`fleet-publish.${field}`), got: JSON.stringify(value.slice(0, 80)) });
    // Sparkplug alone needs no Prefix, and a Device only as the Edge node id's default (checked there).
    const problem = isRefusal(protocol)
      ? said(protocol)
      : uns && !isLevel(prefix)
        ? badLevel('prefixField', prefix)
        : (uns || device !== '') && !isLevel(device)
          ? badLevel('deviceField', device)
          : !(allowed instanceof Set)
            ? t('fleet-publish.badCommands', { ops: ALLOWABLE_OPS.join(', '), got: JSON.stringify(allowed.unknown).slice(0, 100) })
            : isRefusal(sparkplug)
              ? said(sparkplug)
              : undefined;
    if (problem !== undefined || !(allowed instanceof Set) || isRefusal(sparkplug)) {
      node.error(problem);
      node.status({ fill: 'red', shape: 'ring', text: t('fleet-publish.invalid') });
      return;
    }
    const scheme = uns ? new Scheme(prefix, device) : undefined;
    // A module's device: its config node's Fleet device, when set (a Node-RED serving several devices).
    const deviceOf = (config: string) => (RED.nodes.getNode(config) as DeviceNode | null)?.fleetDevice;
    const publisher = scheme
      ? new FleetPublisher(
          scheme,
          allowed,
          {
            mqtt: (msg) => node.send([msg as unknown as NodeMessage, null]),
            command: (msg) => node.send([null, msg as unknown as NodeMessage]),
            warn: (text) => node.warn(text),
          },
          deviceOf,
          systemOf(RED).system,
        )
      : undefined;
    const edge = sparkplug ? startSparkplug(RED, node, sparkplug, { allowed, deviceOf, device, prefix }) : undefined;
    const ok = { fill: 'green', shape: 'dot', text: `${prefix}/${device}` } as const;
    const showOk = () => (edge ? edge.refresh() : node.status(ok));
    if (!edge) showOk();
    const onHealth = (event: HealthEvent) => {
      publisher?.onHealth(event);
      edge?.health(event);
    };
    const stops = [subscribe(onHealth, (text) => node.error(text)), publisher?.alarms?.start() ?? (() => undefined)];
    // Modules connected before this node was (re)deployed: their state now. The alarms' states once every
    // node of the flows has started (an alarm node after this one defines its alarms then); any deploy ends so.
    for (const event of currentStates(RED)) onHealth(event);
    const started = () => publisher?.alarms?.publishAll();
    if (RED.events) {
      RED.events.once('flows:started', started);
      stops.push(() => RED.events?.removeListener('flows:started', started));
    } else started();
    let refusedShown = false;
    node.on('input', (msg, _send, done) => {
      try {
        const m = msg as Record<string, unknown>;
        // A Sparkplug command's answer goes to its session only; anything else to both.
        const viaSparkplug = (m.fleetCommand as { via?: unknown } | undefined)?.via === 'sparkplug';
        if (edge && !edge.msg(m)) return done(); // a refusal raised by this node, back from Catch: never raised again
        if (!publisher || !scheme || viaSparkplug) return done();
        const refused = publisher.onMsg(m);
        const command = scheme.commandTopic(msg.topic);
        if (refused === undefined) {
          // A command that ran: the last refusal is no longer the news.
          if (command && refusedShown) {
            refusedShown = false;
            showOk();
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
      publisher?.close();
      // NDEATH then DISCONNECT: done once the connection has ended, so a redeploy's new node never overlaps the old one's.
      if (edge) edge.close().then(() => done(), done);
      else done();
    });
  }
  RED.nodes.registerType('fleet-publish', FleetPublishNode, { credentials: { username: { type: 'text' }, password: { type: 'password' } } });
};

/** The Sparkplug part, required only now: a Node-RED whose flows never turn it on never loads mqtt.js or protobufjs. */
function startSparkplug(
  RED: NodeAPI,
  node: Node,
  sparkplug: SparkplugSettings,
  parts: { allowed: ReadonlySet<string>; deviceOf: (config: string) => string | undefined; device: string; prefix: string },
): EdgeWiring {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when a node turns Sparkplug on
  const wiring = require('./fleet/sparkplug/edge-wiring') as typeof import('./fleet/sparkplug/edge-wiring');
  return wiring.startEdge(RED, node, { ...parts, sparkplug }, wiring.newSession);
}
