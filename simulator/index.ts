/**
 * @modular-device/node-red device simulator: one HTTP port serving the io, bmc and power
 * services of API 0.9 as nginx presents them, plus the /sim control API.
 */
import type { Service } from '../nodes/lib/limits';
import { API09 } from './api09';
import { checkFanDelay, checkModules, DEFAULT_FAN_APPLY_DELAY_MS, DEFAULT_MODULES, Device, ModuleSpec } from './device';
import { Faults } from './faults';
import { DEFAULT_LOG_CAPACITY, LogEntry, RequestLog, RingLog } from './log';
import { SimServer } from './server';

export type { LogEntry, RequestLog, ModuleSpec };
export { DEFAULT_MODULES, DEFAULT_FAN_APPLY_DELAY_MS, DEFAULT_LOG_CAPACITY };

export interface SimulatorOptions {
  /** TCP port; 0 (default) = an ephemeral port, read it from `port`. */
  port?: number;
  /** Bind address; default 127.0.0.1. */
  host?: string;
  /** Modules by slot; default bmc 0, power 1, io 2 and 3. */
  modules?: Array<{ service: Service; slot: number }>;
  /** Time the fan takes to reach a new mode, ms; default 3000, at most 10000 (the spec's bound). */
  fanApplyDelayMs?: number;
  /** Entries the request log keeps; default 50,000. */
  logCapacity?: number;
}

export interface Simulator {
  readonly port: number;
  /** http://host:port */
  readonly url: string;
  close(): Promise<void>;
  /** Stop listening and destroy sockets; state kept: a device that is unreachable. */
  pause(): Promise<void>;
  /** Listen again on the same port. */
  resume(): Promise<void>;
  /** Device restart: state to defaults (factory state). */
  restart(): void;
  readonly log: RequestLog;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const host = options.host ?? '127.0.0.1';
  const modules = options.modules ?? DEFAULT_MODULES;
  checkModules(modules);
  const fanDelay = options.fanApplyDelayMs ?? DEFAULT_FAN_APPLY_DELAY_MS;
  const fanOk = checkFanDelay(fanDelay);
  if (fanOk !== true) throw new Error(fanOk);

  const device = new Device(modules, fanDelay, Date.now());
  const log = new RingLog(options.logCapacity ?? DEFAULT_LOG_CAPACITY);
  const server = new SimServer({ device, log, faults: new Faults(), dialect: API09 });
  const port = await server.listen(options.port ?? 0, host);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let state: 'running' | 'paused' | 'closed' = 'running';

  return {
    port,
    url: `http://${urlHost}:${port}`,
    log,
    async close() {
      state = 'closed';
      await server.stop();
    },
    async pause() {
      if (state !== 'running') return;
      state = 'paused';
      await server.stop();
    },
    async resume() {
      if (state !== 'paused') return;
      await server.listen(port, host);
      state = 'running';
    },
    restart() {
      device.restart(device.now());
    },
  };
}
