/**
 * The live view of the runtime, one per process: the watchers' leases, the collector and
 * the throttled publishing of snapshots over comms (LIVE_TOPIC, never retained). Nothing
 * runs while no lease is alive: no timer, no device request, no message.
 */
import { spoken } from '../../lib/base/i18n';
import { check, LIMITS, LIVE_BOUNDS } from '../../lib/pure/limits';
import { Later, realLater } from '../../lib/base/clock';
import { Collector } from './collector';
import { Leases } from './leases';
import { checkFlows } from '../../lib/pure/flow-check';
import { deployedModules, deployedNodes, liveDevices, liveModule } from './modules';
import type { PluginAPI } from './plugin-api';
import { Throttle } from './throttle';
import { TokenBucket } from './token-bucket';
import { LIVE_TOPIC, LiveSnapshot } from '../../lib/pure/snapshot';

/** settings.js `modularDevice.sidebarReadsPerSecond`, checked against its bound; the default otherwise. */
export function readsPerSecond(RED: PluginAPI): number {
  const value = RED.settings?.modularDevice?.sidebarReadsPerSecond;
  if (value === undefined) return LIMITS.sidebar_reads_per_second.default;
  const ok = check('sidebar_reads_per_second', value, 'modularDevice.sidebarReadsPerSecond');
  if (ok === true) return value as number;
  RED.log.warn(`modular-device sidebar: ${spoken(ok)}; using ${LIMITS.sidebar_reads_per_second.default}`);
  return LIMITS.sidebar_reads_per_second.default;
}

export class LiveService {
  readonly readsPerSecond: number;
  readonly leases: Leases;
  readonly collector: Collector;
  private readonly throttle: Throttle;

  constructor(
    private readonly RED: PluginAPI,
    later: Later = realLater,
  ) {
    this.readsPerSecond = readsPerSecond(RED);
    // One bucket for the service's life: a sidebar opened and closed again gets no new burst.
    const bucket = new TokenBucket(this.readsPerSecond, LIVE_BOUNDS.bucketTokens);
    this.throttle = new Throttle(1000 / LIVE_BOUNDS.snapshotsPerSecond, () => this.publish(), later);
    this.collector = new Collector(
      () => deployedModules(RED),
      bucket,
      () => this.throttle.poke(),
      later,
    );
    this.leases = new Leases(LIVE_BOUNDS, (active) => (active ? this.begin() : this.end()), later);
  }

  /** The snapshot as it stands: every deployed module, its devices, no credential. */
  snapshot(): LiveSnapshot {
    const nodes = deployedNodes(this.RED);
    const deployed = deployedModules(this.RED, nodes);
    const modules = deployed.map((m) => liveModule(m, this.collector.readings.get(m.def.id)));
    const devices = liveDevices(deployed);
    // The deployed flows checked against what the device shows now (the editor checks the edited ones).
    return { time: new Date().toISOString(), modules, devices, deployed: checkFlows(nodes, { modules, devices }) };
  }

  close(): void {
    this.leases.close();
    this.end();
  }

  private begin(): void {
    this.collector.start();
    this.throttle.poke();
  }

  private end(): void {
    this.collector.stop();
    this.throttle.stop();
  }

  private publish(): void {
    if (!this.leases.size) return;
    this.RED.comms.publish(LIVE_TOPIC, this.snapshot(), false);
  }
}
