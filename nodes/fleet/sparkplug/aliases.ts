/**
 * Metric aliases (Sparkplug 3.0, 6.4.6): one number per metric, unique across the edge node
 * (its own metrics and every device's), so a host and a DCMD may use the alias alone.
 *
 * An alias is computed, not handed out in order of first use, so the same metric has the same
 * alias after a rebirth, a redeploy and a restart (a host's alias table stays right) and the
 * docs can give it: the edge node's own metrics are 1, 2, ... in NODE_METRICS' order; a
 * module's metric is `service × 2^24 + slot × 2^8 + its index in the catalogue` (service io 1,
 * bmc 2, power 3), plus `n × 2^32` for the n-th other Fleet device of a gateway (in the order
 * this Node-RED first saw them; the instance's own device is 0). Every kind declares fewer
 * than 256 metrics and a slot is a u16, so no two metrics share an alias.
 */
import { SERVICES } from '../../lib/pure/limits';
import { metricsOf } from './catalogue';

const SLOT = 2 ** 8;
const SERVICE = 2 ** 24;
const DEVICE = 2 ** 32;

export class Aliases {
  private readonly byAlias = new Map<number, { device: string; name: string }>();
  /** The gateway's other Fleet devices, numbered from 1 as first seen. */
  private readonly fleetDevices = new Map<string, number>();

  /** `nodeMetrics`: the edge node's own metric names, in alias order. */
  constructor(private readonly nodeMetrics: readonly string[]) {}

  /** The alias of a metric of `device` (a device id, '' for the edge node's own); undefined for a metric it does not declare. */
  of(device: string, name: string): number {
    const alias = this.compute(device, name);
    this.byAlias.set(alias, { device, name });
    return alias;
  }

  /** The metric an alias stands for, if one of ours declared so far. */
  named(alias: number): { device: string; name: string } | undefined {
    return this.byAlias.get(alias);
  }

  private compute(device: string, name: string): number {
    if (device === '') return this.index(this.nodeMetrics.indexOf(name), name) + 1;
    // A device id: `<service>-<slot>`, or `<fleet device>.<service>-<slot>` (topics.ts deviceId).
    const m = /^(?:(.+)\.)?(io|bmc|power)-(\d{1,5})$/.exec(device);
    if (!m) throw new Error(`not a device id of ours: ${JSON.stringify(device.slice(0, 80))}`);
    const [, fleet, service, slot] = m;
    let ordinal = 0;
    if (fleet !== undefined) {
      ordinal = this.fleetDevices.get(fleet) ?? this.fleetDevices.size + 1;
      this.fleetDevices.set(fleet, ordinal);
    }
    const kind = SERVICES.indexOf(service as (typeof SERVICES)[number]) + 1;
    const index = this.index(
      metricsOf(service as (typeof SERVICES)[number]).findIndex((def) => def.name === name),
      name,
    );
    return ordinal * DEVICE + kind * SERVICE + Number(slot) * SLOT + index;
  }

  private index(index: number, name: string): number {
    if (index < 0 || index >= SLOT) throw new Error(`no alias for the undeclared metric ${JSON.stringify(name.slice(0, 80))}`);
    return index;
  }
}
