/**
 * What the io module did on its own that the package must not undo or hide:
 *  - pins its protection switched off. Every protection event but the custom voltage alert
 *    (under voltage, high voltage, high current: a short) disables the pin, which falls back
 *    to analog input (the io module's documentation). The package learns of it from the
 *    flags its notification reads see (notification-poll). A tripped pin is no reset: no
 *    setting of that pin is put back or read back until a msg sets the pin again (an
 *    explicit act), so the package never drives an output into the short it tripped on.
 *  - the package's own suspends of the module (a power-management msg: the driver suspends
 *    the module first, real §3.2 step 1, and drops the notification it holds unread, §5), so
 *    that each notification-poll announces the flags that may have gone with them.
 */
import { DeviceError, mayHaveReachedDevice } from '../base/errors';
import type { DeviceRequest } from '../device/request';
import type { AlertFlag } from '../pure/facts';

/** The flags of a protection event: every alert but the custom voltage alert (thresholds, interrupts). */
export const PROTECTION_FLAGS: readonly AlertFlag[] = ['under_voltage_alert', 'high_voltage_alert', 'high_current_alert'];

/**
 * Whether a power-management that failed still suspended the module: the driver suspends it
 * before it tests the configuration or asks the budget (real §3.2), so a `denied`, a driver's
 * 422 or 500, or an answer that never came may follow a suspend; a library refusal (400) or an
 * unknown slot (404) does not reach the driver, nor does a request never sent.
 */
export function maySuspend(error: unknown): boolean {
  if (!(error instanceof DeviceError)) return false;
  if (error.code === 'DEVICE_ERROR') return error.deviceMessage === 'denied' || error.statusCode === 422 || error.statusCode === 500;
  return mayHaveReachedDevice(error);
}

type TripListener = (pin: number, flags: readonly string[]) => void;

/** The pin a request sets (its body's `pin`), if any. */
export function pinOf(request: { method: string; body?: Record<string, unknown> }): number | undefined {
  const pin = request.method === 'POST' ? request.body?.pin : undefined;
  return typeof pin === 'number' && Number.isInteger(pin) ? pin : undefined;
}

/** The pins an operation sets (a conversation's are not known here). */
export function pinsOf(op: { kind: string; requests?: DeviceRequest | DeviceRequest[] } | undefined): number[] {
  if (op?.kind !== 'requests' || !op.requests) return [];
  // One request, most msgs' case (every output msg asks it twice): no list, no Set.
  if (!Array.isArray(op.requests)) {
    const pin = pinOf(op.requests);
    return pin === undefined ? [] : [pin];
  }
  const pins = op.requests.map(pinOf);
  return [...new Set(pins.filter((p): p is number => p !== undefined))];
}

export class PinTrips {
  /** Each tripped pin and the protection flags the device raised for it. */
  private readonly pins = new Map<number, readonly string[]>();
  private readonly listeners = new Set<TripListener>();
  /** The package's own suspends of the module so far (a running count). */
  suspends = 0;

  /** A notification read saw these flags on `pin`; the protection ones trip it. */
  seen(pin: number, flags: readonly string[]): void {
    const tripped = flags.filter((f) => (PROTECTION_FLAGS as readonly string[]).includes(f));
    if (!tripped.length) return;
    this.pins.set(pin, tripped);
    for (const listener of this.listeners) listener(pin, tripped);
  }

  /** The protection flags that switched `pin` off, or undefined. */
  of(pin: number | undefined): readonly string[] | undefined {
    return pin === undefined ? undefined : this.pins.get(pin);
  }

  /** A msg set these pins again: the user's explicit act, the pins are theirs again. */
  release(pins: readonly number[]): void {
    for (const pin of pins) this.pins.delete(pin);
  }

  /** Hears every trip; returns the stop. */
  watch(listener: TripListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
