/**
 * A fleet on one machine: N simulated devices at once, each a whole device of its own (its
 * own port, name, serials, request log, control API under /sim and so its own faults), as a
 * plant's devices are: nothing shared but the host. A test or `--devices N` stops one
 * (pause), reboots one (POST /sim/restart on its port) and leaves the others running.
 */
import { startSimulator, Simulator, SimulatorOptions } from './';

/** Sim-only bound: a laptop's fleet. Each device holds a listening socket and its state. */
export const FLEET_MAX_DEVICES = 500;

export interface FleetOptions extends Omit<SimulatorOptions, 'port' | 'name' | 'serialPrefix'> {
  /** How many devices, 1..500. */
  devices: number;
  /** First device's port; device i listens on basePort + i. 0 (default) = each an ephemeral port. */
  basePort?: number;
  /** Device i is `<namePrefix>-<i+1>` (two digits at least), serials `<NAMEPREFIX>-<i+1>-IO-0002`; default 'sim'. */
  namePrefix?: string;
}

export interface Fleet {
  readonly devices: readonly Simulator[];
  /** The device of this name, or undefined. */
  device(name: string): Simulator | undefined;
  close(): Promise<void>;
}

export function fleetName(prefix: string, index: number): string {
  return `${prefix}-${String(index + 1).padStart(2, '0')}`;
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const { devices: count, basePort = 0, namePrefix = 'sim', ...common } = options;
  if (!Number.isInteger(count) || count < 1 || count > FLEET_MAX_DEVICES)
    throw new Error(`devices must be an integer from 1 to ${FLEET_MAX_DEVICES}, got ${String(count)}`);
  if (!Number.isInteger(basePort) || basePort < 0 || (basePort > 0 && basePort + count - 1 > 65535)) {
    throw new Error(`basePort must be 0 or a port from which ${count} ports fit below 65536, got ${String(basePort)}`);
  }
  const devices: Simulator[] = [];
  try {
    // One after the other: a port in use fails at its device, and the ones started are closed.
    for (let i = 0; i < count; i++) {
      const name = fleetName(namePrefix, i);
      devices.push(await startSimulator({ ...common, port: basePort ? basePort + i : 0, name, serialPrefix: name.toUpperCase() }));
    }
  } catch (error) {
    await Promise.all(devices.map((d) => d.close()));
    throw error;
  }
  return {
    devices,
    device: (name) => devices.find((d) => d.name === name),
    async close() {
      await Promise.all(devices.map((d) => d.close()));
    },
  };
}
