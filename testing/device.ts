/**
 * The simulated device as a test changes it: the simulator's control API (/sim/..., see
 * simulator/README.md) over loopback HTTP, so the kit works the same with an in-process
 * simulator or one started elsewhere, and imports nothing of the simulator's insides.
 */
import http from 'http';
import { KitError } from './errors';
// The package's own names (the pure layer), as the nodes and the scenario schema use them.
import type { Service } from '../nodes/lib/pure/limits';
import type { AlertFlag } from '../nodes/lib/pure/facts';

export type { Service, AlertFlag };

export interface PinStimulus {
  voltage_mV?: number;
  level?: 0 | 1;
  frequency_hz?: number;
  load_mA?: number;
}

/** A fault rule of the simulator (POST /sim/faults): see simulator/README.md. */
export interface FaultRule {
  path: string;
  method?: string;
  count?: number;
  latency_ms?: number;
  status?: number;
  message?: string;
  reset?: boolean;
  body?: 'truncated' | 'nonjson' | 'empty';
  /** Process the request, then hold its answer this long (the device acted on it). */
  answer_delay_ms?: number;
  /** Process the request, then close the connection without answering. */
  drop_answer?: boolean;
  /** A frozen device: the request is read and logged (status 0), never processed or answered. */
  hang?: boolean;
}

/** Longest latency the simulator injects (its bound): long enough that any client gives up. */
export const HANG_MS = 120_000;
/** A control answer is small JSON; anything past this is not the simulator. */
const MAX_ANSWER = 4 * 1024 * 1024;

/**
 * `t.device`: the simulated device as a test changes it (a pin's outside world, faults,
 * unplug, reboot) and reads it back (state, log). Named for what it stands for, the device;
 * the runtime tests' own handle on an in-process simulator is another class (SimHarness).
 */
export class DeviceControl {
  constructor(readonly url: string) {}

  private call(method: string, path: string, body?: unknown): Promise<any> {
    const target = new URL(`/sim/${path}`, this.url);
    const data = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = http.request(target, { method, headers: data ? { 'content-type': 'application/json' } : {}, timeout: 10_000 }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER) req.destroy(new Error('answer too large'));
          else chunks.push(c);
        });
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let value: any;
          try {
            value = text ? JSON.parse(text) : {};
          } catch {
            value = { message: text.slice(0, 200) };
          }
          if ((res.statusCode ?? 500) >= 400) reject(new KitError(`simulator refused ${method} /sim/${path}: ${value?.message ?? res.statusCode}`));
          else resolve(value);
        });
      });
      req.on('timeout', () => req.destroy(new Error('no answer in 10 s')));
      req.on('error', (error) => reject(new KitError(`simulator at ${this.url} did not answer ${method} /sim/${path}: ${error.message}`)));
      req.end(data);
    });
  }

  /** The whole device: modules by slot with pins, watchdog, sessions, resets, faults. */
  state(): Promise<any> {
    return this.call('GET', 'state');
  }

  /** The module in `slot`, as state() shows it. */
  async module(slot: number): Promise<any> {
    const found = (await this.state()).modules.find((m: any) => m.slot === slot);
    if (!found) throw new KitError(`the simulated device has no module in slot ${slot}`);
    return found;
  }

  /** What the outside world does to an io pin: a voltage, a level, a frequency, a load. */
  async pin(slot: number, pin: number, stimulus: PinStimulus): Promise<void> {
    await this.call('POST', `io/${slot}/pins/${pin}`, stimulus);
  }

  /** A short on an io pin: its high-current alert. */
  async short(slot: number, pin: number): Promise<void> {
    await this.call('POST', `io/${slot}/pins/${pin}/short`);
  }

  async alert(slot: number, pin: number, alert: AlertFlag): Promise<void> {
    await this.call('POST', `io/${slot}/pins/${pin}/alert`, { alert });
  }

  /** The service's modules unplugged: its REST service answers as if none were there. */
  async unplug(service: Service): Promise<void> {
    await this.call('POST', `services/${service}/down`);
  }

  async plug(service: Service): Promise<void> {
    await this.call('POST', `services/${service}/up`);
  }

  /** Any fault rule; returns its id (for removeFault). */
  async fault(rule: FaultRule): Promise<string> {
    return (await this.call('POST', 'faults', rule)).id;
  }

  /** The service answers `ms` late (the next `count` requests, or until removed). */
  slow(service: Service, ms: number, count?: number): Promise<string> {
    return this.fault({ path: `/api/${service}/`, latency_ms: ms, count });
  }

  /** The service hangs: it takes requests and answers none in any client's time. */
  hang(service: Service, count?: number): Promise<string> {
    return this.fault({ path: `/api/${service}/`, latency_ms: HANG_MS, count });
  }

  async removeFault(id: string): Promise<void> {
    await this.call('DELETE', `faults/${id}`);
  }

  async clearFaults(): Promise<void> {
    await this.call('DELETE', 'faults');
  }

  /** Moves the device's clock on: timers (watchdog, shutdown, fan) fire as if `ms` passed. */
  async advance(ms: number): Promise<void> {
    await this.call('POST', 'advance', { ms });
  }

  /**
   * The bmc watchdog of `slot` (default: the only bmc) expires now: the device's clock moves
   * past its deadline and the device resets as it would. Refused when no watchdog is armed.
   */
  async watchdogReset(slot?: number): Promise<void> {
    const state = await this.state();
    const bmcs = state.modules.filter((m: any) => m.service === 'bmc' && (slot === undefined || m.slot === slot));
    if (bmcs.length !== 1)
      throw new KitError(
        slot === undefined ? `watchdogReset: the device has ${bmcs.length} bmc modules: give the slot` : `watchdogReset: no bmc module in slot ${slot}`,
      );
    const { watchdog } = bmcs[0];
    if (!watchdog || !watchdog.timeoutMs)
      throw new KitError(`watchdogReset: the watchdog of the bmc in slot ${bmcs[0].slot} is not armed (timeout 0): the flow has not set it`);
    await this.advance(watchdog.leftMs + 1);
  }

  /** The whole device reboots: every module back to its factory state, sessions new. */
  async reboot(): Promise<void> {
    await this.call('POST', 'restart');
  }

  /** How long a hard reset keeps the device down, ms (0 = back at once). */
  async setRebootMs(ms: number): Promise<void> {
    await this.call('POST', 'config', { reboot_ms: ms });
  }

  /** The device's request log since `seq`. */
  async log(since = 0): Promise<any[]> {
    return (await this.call('GET', `log?since=${since}`)).entries;
  }
}

/** @deprecated The old name of DeviceControl (kit 1.0): use DeviceControl. */
export const SimControl = DeviceControl;
/** @deprecated The old name of DeviceControl (kit 1.0): use DeviceControl. */
export type SimControl = DeviceControl;
