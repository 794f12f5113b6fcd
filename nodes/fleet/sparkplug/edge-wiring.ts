/**
 * fleet-publish as a Sparkplug B edge node: its session (edge-node.ts) over its own MQTT link
 * (mqtt-link.ts), bdSeq from the userDir (bdseq-store.ts), and what the node shows of them.
 * Loaded by fleet-publish only when Protocol is sparkplug or both, so a Node-RED without
 * Sparkplug loads none of it (nor mqtt.js, nor protobufjs).
 *
 * The status says how things stand: connecting, the broker unreachable or refusing (its reason;
 * never a credential), waiting for the primary host, born (`spBv1.0/<group>/<edge>`), and a
 * refused command (yellow ring) until the next command passes. It is read again after every
 * call into the session, so no timer is needed to notice a birth.
 *
 * A refused command reaches Catch through node.error(reason, msg) with a msg marked
 * `sparkplugRefused`: a Catch node wired back into fleet-publish (as for the action nodes'
 * failures) hands that msg back, and it is dropped there, never raised again.
 */
import { servedMetrics } from '../metrics-route';
import { t } from '../../lib/base/i18n';
import type { HealthEvent } from '../../lib/config-node/health';
import type { Node, NodeAPI, NodeMessage, NodeStatus } from '../../lib/base/node-red';
import { bdSeqFileOf, bdSeqStore, StoreProblem } from './bdseq-store';
import { clientIdFor, LinkState, MqttLink, TlsConfigNode } from './mqtt-link';
import type { SparkplugSettings } from './edge-settings';
import { EdgeNode } from './edge-node';
import { FleetDevices } from '../devices';
import { Scheme } from '../scheme';
import type { BdSeqStore, EdgeOutput, EdgeSession, EdgeSettings } from './types';

/** What the session is made of (edge-node.ts's constructor takes these). */
export interface SessionParts {
  settings: EdgeSettings;
  store: BdSeqStore;
  output: EdgeOutput;
  /** The node types a DCMD may reach (the Commands setting). */
  allowed: ReadonlySet<string>;
  /** A module's Fleet device (its config node's), when set. */
  deviceOf: (config: string) => string | undefined;
  /** This instance's device (the node's Device, else FF_DEVICE_NAME), '' for none. */
  device: string;
  /** The UNS Prefix, '' when UNS is off (the modules' names do not depend on it). */
  prefix: string;
}

export interface EdgeWiring {
  /** A msg into fleet-publish for the session. Returns false for a msg to drop (a raised refusal coming back from Catch). */
  msg(msg: Record<string, unknown>): boolean;
  health(event: HealthEvent): void;
  /** Shows the status of the moment again (after another part of the node showed its own). */
  refresh(): void;
  /** NDEATH, then the connection ended; resolves when nothing of it is left. */
  close(): Promise<void>;
}

/** The marker of the msg a refusal is raised with (see the head of this file). */
export const REFUSED_MARK = 'sparkplugRefused';

export function isRaisedRefusal(msg: Record<string, unknown>): boolean {
  return msg[REFUSED_MARK] === true;
}

export function startEdge(
  RED: NodeAPI,
  node: Node,
  parts: Omit<SessionParts, 'store' | 'output' | 'settings'> & { sparkplug: SparkplugSettings },
  makeSession: (parts: SessionParts) => EdgeSession,
): EdgeWiring {
  const { sparkplug } = parts;
  const born = `spBv1.0/${sparkplug.group}/${sparkplug.edgeNode}`;
  let link: LinkState = { state: 'connecting' };
  let refusedText: string | undefined;
  let shown = '';
  let session: EdgeSession | undefined;

  const show = () => {
    const status = statusOf(link, session, sparkplug, born, refusedText);
    const key = JSON.stringify(status);
    if (key === shown) return;
    shown = key;
    node.status(status);
  };

  const output: EdgeOutput = {
    command: (msg) => {
      refusedText = undefined;
      node.send([null, msg as unknown as NodeMessage]);
      show();
    },
    refused: (reason) => {
      servedMetrics()?.refusedCommand('sparkplug');
      refusedText = reason;
      show();
      node.error(reason, { topic: born, payload: reason, [REFUSED_MARK]: true } as unknown as NodeMessage);
    },
    warn: (text) => node.warn(text),
  };

  const { store: file, temporary } = bdSeqFileOf(RED);
  if (temporary) node.warn(t('fleet-publish.spStoreTemporary', { file: file.file }));
  const problem = (p: StoreProblem) =>
    node.warn(t(`fleet-publish.spStore.${p.reason}`, { file: p.file, keptAs: p.keptAs ?? '', detail: p.detail ?? p.code ?? '' }));
  const { group, edgeNode, primaryHost } = sparkplug;
  session = makeSession({ ...parts, settings: { group, edgeNode, primaryHost }, store: bdSeqStore(file, problem), output });

  const credentials = (node as Node & { credentials?: { username?: string; password?: string } }).credentials ?? {};
  const tls = sparkplug.tls ? (RED.nodes.getNode(sparkplug.tls) as unknown as TlsConfigNode | null) : null;
  const mqttLink = new MqttLink(
    session,
    {
      url: sparkplug.url,
      clientId: clientIdFor(group, edgeNode),
      username: credentials.username,
      password: credentials.password,
      tls: tls ?? undefined,
    },
    {
      state: (state) => {
        link = state;
        if (state.state !== 'up') refusedText = undefined;
        show();
      },
      fault: (error) => node.error(t('fleet-publish.spFault', { error: String((error as Error)?.message ?? error).slice(0, 200) })),
      touched: show,
    },
  );
  if (sparkplug.tls && !tls) node.warn(t('fleet-publish.spNoTls'));
  show();

  return {
    msg: (msg) => {
      if (isRaisedRefusal(msg)) return false;
      session!.msg(msg);
      show();
      return true;
    },
    health: (event) => {
      session!.health(event);
      show();
    },
    refresh: () => {
      shown = '';
      show();
    },
    close: () => mqttLink.close(),
  };
}

/** The session of edge-node.ts, its modules named as fleet-publish names them (devices.ts). */
export function newSession(parts: SessionParts): EdgeSession {
  // The modules whose config node names no Fleet device are this instance's: its Device, else the edge node itself.
  const scheme = new Scheme(parts.prefix || 'plant', parts.device || parts.settings.edgeNode);
  const fleet = new FleetDevices(scheme, parts.deviceOf, (text) => parts.output.warn(text));
  return new EdgeNode(parts.settings, parts.store, parts.allowed, parts.output, fleet);
}

/** The status of the moment: the link's state first, then the session's (birth, primary host), a refused command over a born one. */
function statusOf(link: LinkState, session: EdgeSession | undefined, sp: SparkplugSettings, born: string, refused?: string): NodeStatus {
  if (link.state === 'connecting') return { fill: 'yellow', shape: 'ring', text: t('fleet-publish.spConnecting') };
  if (link.state === 'unreachable') {
    const text = link.detail ? t('fleet-publish.spUnreachable', { reason: link.detail.slice(0, 41) }) : t('fleet-publish.spLost');
    return { fill: 'red', shape: 'ring', text };
  }
  if (link.state === 'refused') return { fill: 'red', shape: 'ring', text: t('fleet-publish.spBrokerRefused', { reason: link.detail.slice(0, 41) }) };
  if (refused !== undefined) return { fill: 'yellow', shape: 'ring', text: t('fleet-publish.refusedStatus', { reason: refused.slice(0, 40) }) };
  const stats = session?.stats();
  if (stats?.born) return { fill: 'green', shape: 'dot', text: born };
  if (sp.primaryHost && stats?.hostOnline !== true) return { fill: 'yellow', shape: 'ring', text: t('fleet-publish.spWaitingHost') };
  return { fill: 'yellow', shape: 'ring', text: t('fleet-publish.spConnected') };
}
