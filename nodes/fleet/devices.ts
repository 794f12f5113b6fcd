/**
 * Which device each module is on, for the fleet's topics: the Fleet device its config node
 * names, else this instance's (fleet-publish's Device, else FF_DEVICE_NAME). The device's own
 * answers do not name it (a descriptor's serial_code is a module's, not the device's), and a
 * name is not asked of a device on the way. A topic belongs to one module: a second device's
 * module on it is refused and said once, never published over the first.
 */
import type { HealthModule } from '../lib/config-node/health';
import { t } from '../lib/base/i18n';
import { isLevel, ModuleKey, Scheme } from './scheme';

export const keyText = (key: ModuleKey): string => `${key.device}/${key.service}/${key.slot}`;
const slotText = (key: { service: string; slot: number }): string => `${key.service}/${key.slot}`;

export class FleetDevices {
  /** Each topic's module (its device's location, host[:port]): a second device on the same topic is refused. */
  private readonly owners = new Map<string, string>();
  /** The devices that have a module in each service/slot: a reading msg names only its service and slot. */
  private readonly bySlot = new Map<string, Set<string>>();
  private readonly warned = new Set<string>();

  constructor(
    readonly scheme: Scheme,
    private readonly deviceOf: (config: string) => string | undefined,
    private readonly warn: (text: string) => void,
  ) {}

  /** Every device with a module here, and this instance's own. */
  all(): Set<string> {
    const all = new Set([this.scheme.device]);
    for (const devices of this.bySlot.values()) for (const d of devices) all.add(d);
    return all;
  }

  /** The topics' name of a config node's module, or undefined when another device's module has its topic already. */
  keyOf(module: HealthModule): ModuleKey | undefined {
    const own = this.deviceOf(module.config);
    if (own && !isLevel(own))
      this.warnOnce(`name ${module.config}`, t('fleet-publish.badModuleDevice', { got: JSON.stringify(own.slice(0, 80)), device: this.scheme.device }));
    const key = { device: own && isLevel(own) ? own : this.scheme.device, service: module.service, slot: module.slot };
    const text = keyText(key);
    const owner = this.owners.get(text);
    if (owner === undefined) {
      this.owners.set(text, module.device);
      const devices = this.bySlot.get(slotText(key)) ?? new Set<string>();
      this.bySlot.set(slotText(key), devices.add(key.device));
    } else if (owner !== module.device) {
      this.warnOnce(`clash ${text}`, t('fleet-publish.sameTopic', { topic: this.scheme.module(key, 'state'), first: owner, second: module.device }));
      return undefined;
    }
    return key;
  }

  /** The device of a msg from one of our nodes: msg.device, else the one device with a module in its slot. */
  ofMsg(module: { service: string; slot: number }, msg: Record<string, unknown>): string {
    const devices = this.bySlot.get(slotText(module));
    const named = msg.device;
    if (named !== undefined) {
      if (typeof named === 'string' && devices?.has(named)) return named;
      throw new Error(t('fleet-publish.unknownDevice', { device: JSON.stringify(String(named).slice(0, 80)), module: slotText(module) }));
    }
    if (!devices) return this.scheme.device; // no config node for it has told its health yet
    if (devices.size === 1) return devices.values().next().value as string;
    throw new Error(t('fleet-publish.whichDevice', { module: slotText(module), devices: [...devices].slice(0, 5).join(', ') }));
  }

  private warnOnce(what: string, text: string): void {
    if (this.warned.has(what)) return;
    this.warned.add(what);
    this.warn(text);
  }
}
