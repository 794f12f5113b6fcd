/**
 * @modular-device/node-red device simulator: one HTTP port serving the io, bmc and power
 * services of API 0.9 (the spec) or 1.0 (the released services) as nginx presents them,
 * plus the /sim control API.
 */
import type { Service } from './facts';
import { API09, API10 } from './dialects';
import {
  checkFanDelay,
  checkModules,
  checkRebootMs,
  DEFAULT_FAN_APPLY_DELAY_MS,
  DEFAULT_IDENTITY,
  DEFAULT_MODULES,
  DEFAULT_REBOOT_MS,
  Device,
  REBOOT_MAX_MS,
  DeviceIdentity,
  ModuleSpec,
  Outage,
} from './device';
import { Faults } from './faults';
import { DEFAULT_LOG_CAPACITY, LogEntry, RequestLog, RingLog } from './log';
import { NGINX_DEFAULTS, NginxOptions, nginxSettings } from './nginx';
import { SimAuth, SimServer } from './server';
import type { BmcModel } from './models/bmc';
import type { IoModel } from './models/io';
import type { PowerModel } from './models/power';

export type { LogEntry, RequestLog, ModuleSpec, SimAuth, NginxOptions, Outage };
export { startFleet } from './fleet';
export type { Fleet, FleetOptions } from './fleet';
export { DEFAULT_MODULES, DEFAULT_FAN_APPLY_DELAY_MS, DEFAULT_REBOOT_MS, REBOOT_MAX_MS, DEFAULT_LOG_CAPACITY, NGINX_DEFAULTS };

/** A module as GET /sim/state shows it (its models' own snapshot types, so the two cannot differ). */
export type IoModuleState = { slot: number } & ReturnType<IoModel['snapshot']>;
export type BmcModuleState = { slot: number } & ReturnType<BmcModel['snapshot']>;
export type PowerModuleState = { slot: number } & ReturnType<PowerModel['snapshot']>;
/** An io pin as GET /sim/state shows it (modules[].pins[]). */
export type IoPinState = IoModuleState['pins'][number];

export interface SimulatorOptions {
  /** TCP port; 0 (default) = an ephemeral port, read it from `port`. */
  port?: number;
  /** Bind address; default 127.0.0.1. */
  host?: string;
  /** Modules by slot; default bmc 0, power 1, io 2 and 3. */
  modules?: Array<{ service: Service; slot: number }>;
  /** Time the fan takes to reach a new mode, ms; default 3000, at most 10000 (the spec's bound). */
  fanApplyDelayMs?: number;
  /**
   * How long a device hard reset (hard_reset, watchdog or shutdown expiry, bootloader window
   * end) keeps the device down, refusing connections, ms; at most 600000. Default 0: back at
   * once, as the tests expect unless they ask for an outage. The CLI's default is realistic
   * (DEFAULT_REBOOT_MS).
   */
  rebootMs?: number;
  /** Entries the request log keeps; default 50,000. */
  logCapacity?: number;
  /** The API the device speaks: '0.9' (the spec, default) or '1.0' (the released services). */
  api?: '0.9' | '1.0';
  /** Serve HTTPS with this key and certificate (PEM); `url` then starts with https://. */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /**
   * Require Basic auth (`{username, password}`) or a bearer token (`{token}`) on every
   * /api request except the version roots /api/<svc>/<ver>; others get 401.
   */
  auth?: SimAuth;
  /**
   * Behave like the device's nginx (`true` for its defaults): idle keep-alive connections
   * closed after keepAliveTimeoutMs (75 s), `Connection: close` on the keepAliveRequests-th
   * answer of a connection (1000), `Keep-Alive: timeout=<keepAliveHeaderS>` only when set;
   * with `auth`, only the version root public and nginx's HTML page for 401.
   */
  nginx?: true | NginxOptions;
  /** The device's name in a fleet (GET /sim/state says it); default 'sim'. */
  name?: string;
  /** Prefix of the modules' serial codes (`<prefix>-IO-0002`); default 'SIM'. */
  serialPrefix?: string;
}

export interface Simulator {
  /** The device's name (options.name, default 'sim'). */
  readonly name: string;
  readonly port: number;
  /** http://host:port (https:// with `tls`) */
  readonly url: string;
  close(): Promise<void>;
  /** Stop listening and destroy sockets; state kept: a device that is unreachable. */
  pause(): Promise<void>;
  /** Listen again on the same port. */
  resume(): Promise<void>;
  /** Device restart: state to defaults (factory state); ends an outage. */
  restart(): void;
  /** While the device reboots: since when, until when (device time, ms) and why; else null. */
  readonly outage: Outage | null;
  /** Ends an outage now: the device boots at once, as if reboot_ms had passed. */
  boot(): Promise<void>;
  /** Resolves once the device accepts connections again (at once when it is not down). */
  whenUp(): Promise<void>;
  readonly log: RequestLog;
}

/** Names and serial prefixes go into topics and descriptors: letters, digits, '.', '_', '-' only. */
function checkIdentity(name: string, serialPrefix: string): DeviceIdentity {
  for (const [field, value] of [
    ['name', name],
    ['serialPrefix', serialPrefix],
  ]) {
    if (!/^[A-Za-z0-9._-]{1,64}$/.test(value)) throw new Error(`${field} must be 1 to 64 letters, digits, '.', '_' or '-', got ${JSON.stringify(value)}`);
  }
  return { name, serialPrefix };
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const host = options.host ?? '127.0.0.1';
  const modules = options.modules ?? DEFAULT_MODULES;
  checkModules(modules);
  const fanDelay = options.fanApplyDelayMs ?? DEFAULT_FAN_APPLY_DELAY_MS;
  const fanOk = checkFanDelay(fanDelay);
  if (fanOk !== true) throw new Error(fanOk);

  const rebootMs = options.rebootMs ?? 0;
  const rebootOk = checkRebootMs(rebootMs);
  if (rebootOk !== true) throw new Error(rebootOk);

  const device = new Device(modules, fanDelay, Date.now(), rebootMs);
  const identity = checkIdentity(options.name ?? DEFAULT_IDENTITY.name, options.serialPrefix ?? DEFAULT_IDENTITY.serialPrefix);
  device.identity = identity;
  const log = new RingLog(options.logCapacity ?? DEFAULT_LOG_CAPACITY);
  if (options.api !== undefined && options.api !== '0.9' && options.api !== '1.0')
    throw new Error(`api must be 0.9 or 1.0, got ${JSON.stringify(options.api)}`);
  const dialect = options.api === '1.0' ? API10 : API09;
  const nginx = options.nginx ? nginxSettings(options.nginx) : undefined;
  const server = new SimServer({ device, log, faults: new Faults(), dialect, tls: options.tls, auth: options.auth, nginx });
  const port = await server.listen(options.port ?? 0, host);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let state: 'running' | 'paused' | 'closed' = 'running';

  return {
    name: identity.name,
    port,
    url: `${options.tls ? 'https' : 'http'}://${urlHost}:${port}`,
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
      server.gate.sync(); // still within an outage: shut again until its end
    },
    restart() {
      device.restart(device.now());
      server.gate.sync();
    },
    get outage() {
      return device.outage;
    },
    async boot() {
      device.boot();
      server.gate.sync();
      await server.gate.whenUp();
    },
    whenUp() {
      return server.gate.whenUp();
    },
  };
}

export { startRecorder, Recorder, Recording, Exchange, RECORD_LIMITS, scrubPath } from './record';
export { startReplay, checkRecording, Replay } from './replay';
