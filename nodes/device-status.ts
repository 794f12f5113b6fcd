/**
 * device-status: health as data. One msg per health event (config-node/health.ts) of the chosen
 * config node's module, or of every module in this Node-RED when none is chosen: topic the
 * kind, payload {kind, module, cause, time, detail}. It only listens: it sends no device
 * request and has no input, so it is no action node.
 */
import { HealthEvent, subscribe } from './lib/config-node/health';
import { t, useRuntimeLanguage } from './lib/base/i18n';
import { HEALTH_KINDS } from './lib/pure/facts';
import { textSetting } from './lib/action/setting-values';
import type { Node, NodeAPI, NodeDef, NodeStatus } from './lib/base/node-red';
import { listSetting } from './lib/pure/list-setting';

type Kind = (typeof HEALTH_KINDS)[number];

/** The kinds setting: a list (or comma-separated text after env substitution); empty = all. */
function readKinds(value: unknown): Set<Kind> | string {
  const list = listSetting(value);
  const unknown = list ? list.filter((k) => !(HEALTH_KINDS as readonly unknown[]).includes(k)) : [value];
  if (unknown.length) return t('device-status.badKinds', { kinds: HEALTH_KINDS.join(', '), got: JSON.stringify(unknown) });
  return new Set(list?.length ? (list as Kind[]) : HEALTH_KINDS);
}

/** Good news green, a lost connection red, the rest (something happened to the module) yellow. */
function statusOf(event: HealthEvent): NodeStatus {
  const state = event.kind === 'connection' ? event.detail.state : undefined;
  const fill = event.kind === 'reapplied' || state === 'connected' ? 'green' : event.kind === 'connection' && state !== 'connecting' ? 'red' : 'yellow';
  // In the runtime's language, as the cause is: the kind's word, not its id.
  const text = t('device-status.event', { time: event.time.slice(11, 19), kind: t(`device-status.kind.${event.kind}`), cause: event.cause });
  return { fill, shape: fill === 'green' ? 'dot' : 'ring', text: text.length > 60 ? `${text.slice(0, 57)}...` : text };
}

/** A payload of its own per msg: the event is shared by every listener. */
function payloadOf(event: HealthEvent): Record<string, unknown> {
  return structuredClone({ kind: event.kind, module: event.module, cause: event.cause, time: event.time, detail: event.detail ?? {} });
}

export = function (RED: NodeAPI) {
  useRuntimeLanguage(RED);
  function DeviceStatusNode(this: Node, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    const config = textSetting(def.device).replace(/^_ADD_$/, '');
    const kinds = readKinds(def.kinds);
    if (typeof kinds === 'string') {
      node.error(kinds);
      node.status({ fill: 'red', shape: 'ring', text: t('device-status.invalid') });
      return;
    }
    const stop = subscribe(
      (event) => {
        if ((config && event.module.config !== config) || !kinds.has(event.kind)) return;
        node.send({ topic: event.kind, payload: payloadOf(event) });
        node.status(statusOf(event));
      },
      (text) => node.error(text),
    );
    node.on('close', (_removed, done) => {
      stop();
      done();
    });
  }
  RED.nodes.registerType('device-status', DeviceStatusNode);
};
