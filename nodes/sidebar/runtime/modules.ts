/**
 * The modules the deployed flows use, as the live view sees them: every deployed
 * `modular-device` config node (Node-RED's own list of the deployed flows, no registry of
 * ours), its connection's state and what the connection already knows (version record,
 * sessions, the power configuration the package applied), merged with the
 * collector's last reading and the alerts the flows' polls saw.
 *
 * Never a credential: a device is named by host[:port][/prefix] (no user info), a config
 * node's credentials are not looked at, and every text is printable and short.
 */
import { printable } from '../../lib/device/answer';
import type { Connection } from '../../lib/config-node/connection';
import type { DeviceNode } from '../../lib/config-node/device-settings';
import { LIMITS, SERVICES } from '../../lib/pure/limits';
import type { NodeDef } from '../../lib/base/node-red';
import { alertsOf } from './alerts';
import type { Reading } from './module-reads';
import type { PluginAPI } from './plugin-api';
import type { LiveDevice, LiveIo, LiveModule } from '../../lib/pure/snapshot';
import type { Service } from '../../lib/pure/limits';

/** A deployed config node of a usable service and slot. */
export interface Deployed {
  def: NodeDef;
  node?: DeviceNode;
  service: Service;
  slot: number;
}

/** Characters of a label, of a reason, of a session id shown; slots listed per service. */
const LABEL_CHARS = 80;
const REASON_CHARS = 200;
const SESSION_CHARS = 8;
const LISTED_SLOTS = 16;

/** Every node definition of the deployed flows (tabs and config nodes included). */
export function deployedNodes(RED: PluginAPI): NodeDef[] {
  const all: NodeDef[] = [];
  RED.nodes.eachNode((def) => all.push(def));
  return all;
}

/** Every deployed config node, in the order of the flows. */
export function deployedModules(RED: PluginAPI, nodes: NodeDef[] = deployedNodes(RED)): Deployed[] {
  const found: Deployed[] = [];
  nodes.forEach((def) => {
    if (def.type !== 'modular-device') return;
    const service = String(def.service ?? '').trim() as Service;
    const slot = Number(def.slot);
    if (!SERVICES.includes(service) || !Number.isInteger(slot) || slot < LIMITS.slot.min || slot > LIMITS.slot.max) return;
    found.push({ def, node: (RED.nodes.getNode(def.id) as DeviceNode | null) ?? undefined, service, slot });
  });
  return found;
}

/** host[:port][/prefix] of a URL, without user info; '' when it is no URL. */
function deviceOf(m: Deployed): string {
  const client = m.node?.connection?.client;
  if (client) return client.location;
  try {
    const url = new URL(String(m.def.url ?? '').trim());
    return printable(`${url.host}${url.pathname.replace(/\/+$/, '')}`, LABEL_CHARS);
  } catch {
    return '';
  }
}

function labelOf(m: Deployed, device: string): string {
  const name = typeof m.def.name === 'string' ? printable(m.def.name, LABEL_CHARS) : '';
  return name || `${m.service} slot ${m.slot} @ ${device}`;
}

/** The power configuration the package applied (desired state), six checked entries. */
function powerConfig(connection: Connection): LiveIo['powerConfig'] {
  const config = connection.desired.body('power-management')?.config;
  if (!Array.isArray(config)) return undefined;
  return config
    .slice(0, LIMITS.pin.max)
    .map((e: Record<string, unknown>) => ({ pin: Number(e.pin), rail: printable(String(e.rail), 16), current: Number(e.current) }));
}

/** One module as the sidebar shows it. */
export function liveModule(m: Deployed, reading: Reading | undefined): LiveModule {
  const device = deviceOf(m);
  const base: LiveModule = { config: m.def.id, label: labelOf(m, device), device, service: m.service, slot: m.slot, state: 'invalid' };
  const connection = m.node?.connection;
  if (!connection) return { ...base, reason: printable(m.node?.problem ?? 'not deployed', REASON_CHARS) };
  const state = connection.state;
  const module: LiveModule = { ...base, ...reading, state: state.state };
  if ('reason' in state) module.reason = printable(state.reason, REASON_CHARS);
  if (state.state === 'connected') {
    module.apiVersion = state.apiVersion;
    if (state.session || state.deviceSession)
      module.session = { driver: state.session?.slice(0, SESSION_CHARS), device: state.deviceSession?.slice(0, SESSION_CHARS) };
  }
  if (m.service === 'io') module.io = ioOf(connection, reading);
  return module;
}

/** io: the reading's pins with the alerts seen, and the applied power configuration. */
function ioOf(connection: Connection, reading: Reading | undefined): LiveIo {
  // A pin the device shows as analog may be an output or a PWM the flows drive: said so.
  const pins = (reading?.io?.pins ?? []).map((p) => {
    const driven = p.type === 'voltage_mV' ? connection.desired.driven.get(p.pin) : undefined;
    const tripped = connection.desired.trips.of(p.pin);
    return { ...p, ...(driven ? { driven: { ...driven } } : {}), ...(tripped ? { tripped: [...tripped] } : {}) };
  });
  for (const [pin, alerts] of alertsOf(connection)) {
    const entry = pins.find((p) => p.pin === pin) ?? pins[pins.push({ pin }) - 1];
    entry.alerts = [...alerts];
  }
  const config = powerConfig(connection);
  return config ? { pins, powerConfig: config } : { pins };
}

/** The devices of the modules: per device, the slots each service's version record lists. */
export function liveDevices(modules: Deployed[]): LiveDevice[] {
  const devices = new Map<string, LiveDevice>();
  for (const m of modules) {
    const device = deviceOf(m);
    const entry = devices.get(device) ?? { device, services: {} };
    devices.set(device, entry);
    const record = m.node?.connection?.record;
    if (record) entry.services[m.service] = [...new Set(record.devices.map((d) => d.slot_number))].slice(0, LISTED_SLOTS);
  }
  return [...devices.values()];
}
