/**
 * Conflicts shown where they are made: after every deploy, and again whenever a
 * module's connection changes (the API version decides whether two polls meet), the flow
 * check runs on the deployed flows, and every action node a conflict names shows it as a
 * yellow status naming the other node (action/status-dot.ts keeps a failure above it). Nodes
 * no longer in a conflict get their own status back.
 */
import { subscribe } from '../../lib/config-node/health';
import { t } from '../../lib/base/i18n';
import type { NodeDef } from '../../lib/base/node-red';
import { checkFlows } from '../../lib/pure/flow-check';
import { nodeName } from '../../lib/pure/flow-nodes';
import { deployedModules, deployedNodes, liveDevices, liveModule } from './modules';
import type { PluginAPI } from './plugin-api';
import type { Finding } from '../../lib/pure/snapshot';

/** The status text of a conflict finding, as node `id` sees it; undefined for other kinds. */
function textFor(f: Finding, id: string, byId: Map<string, NodeDef>): string | undefined {
  const otherId = f.nodes.find((n) => n !== id && byId.get(n)?.type !== 'modular-device');
  const other = otherId ? nodeName(byId.get(otherId)! as Parameters<typeof nodeName>[0]) : '';
  switch (f.kind) {
    case 'two-polls':
      return t('common.conflict.twoPolls', { other });
    case 'two-keepalives':
      return t('common.conflict.twoKeepAlives', { other });
    case 'pin-conflict':
      return t('common.conflict.pin', { other, pin: f.values.pin });
    case 'output-as-input':
      return t('common.conflict.outputAsInput', { other, pin: f.values.pin });
    case 'no-power-config':
      return t('common.conflict.noPower');
    default:
      return undefined;
  }
}

type Conflicted = { conflict?: (text: string | undefined) => void };

export class ConflictStatus {
  private readonly stopHealth: () => void;
  private readonly onStarted = () => this.update();
  private pending = false;

  constructor(private readonly RED: PluginAPI) {
    RED.events.on('flows:started', this.onStarted);
    this.stopHealth = subscribe((event) => {
      if (event.kind === 'connection') this.later();
    });
  }

  /** Once per burst of connection events (a deploy connects many modules at once). */
  private later(): void {
    if (this.pending) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      this.update();
    });
  }

  update(): void {
    const nodes = deployedNodes(this.RED);
    const deployed = deployedModules(this.RED, nodes);
    const findings = checkFlows(nodes, { modules: deployed.map((m) => liveModule(m, undefined)), devices: liveDevices(deployed) });
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const texts = new Map<string, string>();
    for (const f of findings) {
      for (const id of f.nodes) {
        const text = texts.has(id) ? undefined : textFor(f, id, byId);
        if (text !== undefined) texts.set(id, text);
      }
    }
    for (const def of nodes) {
      const node = this.RED.nodes.getNode(def.id) as Conflicted | null;
      if (typeof node?.conflict === 'function') node.conflict(texts.get(def.id));
    }
  }

  close(): void {
    this.RED.events.removeListener('flows:started', this.onStarted);
    this.stopHealth();
  }
}
