/**
 * The live view's data: what the runtime tells an editor whose device sidebar is open, over
 * Node-RED's comms (topic LIVE_TOPIC), and what the flow check reads. Shared by the sidebar's
 * runtime (nodes/sidebar/runtime/) and its editor bundle (nodes/sidebar/editor/), so both
 * sides agree on one shape. Small on purpose: it is sent a few times a second at most, never retained, and
 * never carries a credential (a device is named by host[:port][/prefix] only).
 */
import type { Service } from './limits';

/** Comms topic of the snapshots. */
export const LIVE_TOPIC = 'modular-device/live';
/** The editor global where the sidebar keeps its latest snapshot for the dialogs' conflict warnings. */
export const SNAPSHOT_GLOBAL = '__modularDeviceSnapshot';
/** Admin route an editor posts to while its sidebar is open (a lease, renewed). */
export const WATCH_ROUTE = '/modular-device/live/watch';

/** What the device lists per service (each service's version record), read once per connect. */
export interface LiveDevice {
  /** host[:port][/prefix]: never credentials. */
  device: string;
  /** Slots each service's version record lists; a service absent here was not read (yet). */
  services: Partial<Record<Service, number[]>>;
}

/** One config node (one module of one device) as the sidebar shows it. */
export interface LiveModule {
  /** The config node's id: the editor selects the nodes that use it. */
  config: string;
  /** The config node's label as the editor shows it. */
  label: string;
  device: string;
  service: Service;
  slot: number;
  /** Connection state (config-node/connection-state.ts): connecting, connected, unreachable, down, refused, tls, incompatible, invalid. */
  state: string;
  /** Why, when not connected (printable, short). */
  reason?: string;
  /** '0.9' or '1.0' once connected. */
  apiVersion?: string;
  /** API 1.0 only: driver_session and this module's device_session (first 8 characters are enough to tell a change). */
  session?: { driver?: string; device?: string };
  /** ISO time of the last reading, and its error if it failed (printable, short). */
  readAt?: string;
  readError?: string;
  io?: LiveIo;
  bmc?: LiveBmc;
  power?: LivePower;
}

/** What the deployed flows last drove on a pin (config-node/driven-pins.ts): the device cannot tell it from an analog input. */
export type Driven = { kind: 'output'; level: 'high' | 'low' } | { kind: 'pwm'; frequencyHz: number; dutyPercent: number };

export interface LivePin {
  pin: number;
  /** What the flows drove on it, while the device shows an analog pin (voltage_mV). */
  driven?: Driven;
  /** The device's pin_type: voltage_mV, digital_input, frequency_hz (0.9 names; 1.0's mapped to these). */
  type?: string;
  value?: number;
  current_mA?: number;
  /** Alerts the package's own notification reads saw (the sidebar never reads notifications: a read clears them). */
  alerts?: string[];
  /** The module's protection switched the pin off: the device's flags (config-node/pin-trips.ts); a msg sets it again. */
  tripped?: string[];
}

export interface LiveIo {
  pins: LivePin[];
  /** The power configuration the package applied (desired state), if any: six {pin, rail, current}. */
  powerConfig?: Array<{ pin: number; rail: string; current: number }>;
}

export interface LiveBmc {
  watchdog?: { timeout: number; timeout_left: number; shutdown_timeout?: number; emergency_mode?: boolean };
  temperature?: Record<string, number>;
  voltage?: Record<string, number>;
  usbhub?: Record<string, string>;
}

export interface LivePower {
  stats?: Record<string, number>;
  protection?: Record<string, number>;
  temperature?: Record<string, number>;
  fan?: { fan_forced?: boolean; fan_current_mode?: number; fan_setting_mode?: number; rpm?: number };
}

/** One published snapshot: every module the deployed flows use, and their devices. */
export interface LiveSnapshot {
  time: string;
  modules: LiveModule[];
  devices: LiveDevice[];
  /** Findings of the flow check on the deployed flows (nodes/lib/pure/flow-check.ts). */
  deployed: Finding[];
}

export type FindingKind =
  | 'slot-missing'
  | 'wrong-service'
  | 'two-polls'
  | 'output-as-input'
  | 'over-budget'
  | 'watchdog-unkept'
  | 'no-confirm'
  | 'two-keepalives'
  | 'pin-conflict'
  | 'no-power-config';

/** One thing wrong between the flows and the device: a phrase (key + values) and the nodes concerned. */
export interface Finding {
  kind: FindingKind;
  /** Node ids concerned (the editor links and selects them). */
  nodes: string[];
  /** Message id in the sidebar's catalogue, and its values: the editor says it in its language. */
  key: string;
  values: Record<string, string | number>;
}
