/** What every module model offers the device, and what the device offers the models. */
import { randomInt } from 'crypto';
import type { Service } from '../facts';

/** A deadline a model keeps (watchdog expiry, fan apply, ...); the device fires due ones in time order. */
export interface DueEvent {
  readonly at: number;
  fire(): void;
}

export interface ModuleModel {
  readonly service: Service;
  /**
   * Random id regenerated whenever the driver enumerates the module (created, reset,
   * reconfigured), like the released driver's device_session (real §4).
   */
  session: string;
  nextDue(): DueEvent | null;
  /** Full internal state for GET /sim/state. */
  snapshot(now: number): unknown;
}

export interface DeviceHooks {
  /** A device hard reset at time `at` (watchdog, shutdown, hard_reset, bootloader timeout). */
  hardReset(at: number, cause: string): void;
  readonly fanApplyDelayMs: number;
}

const SESSION_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A session id as the released services make them: 64 characters A-Z0-9 (real §4). */
export function newSession(): string {
  let id = '';
  for (let i = 0; i < 64; i++) id += SESSION_CHARACTERS[randomInt(SESSION_CHARACTERS.length)];
  return id;
}

/**
 * A slow, smooth wave in [-1, 1] used for readings that drift: a pure function of time so
 * no timer is needed and two reads a moment apart are plausibly close.
 */
export function wave(now: number, periodMs: number, phase = 0): number {
  return Math.sin((2 * Math.PI * now) / periodMs + phase);
}

export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
