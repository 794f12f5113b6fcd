/**
 * An action node that set a pin (an output driven, a PWM, a pin mode, a threshold) says so
 * when the module's protection switched that pin off (config-node/pin-trips.ts): a red ring
 * naming the pin and the device's flags, and one error at Catch per trip. The next msg that
 * sets the pin is the user's explicit act: it sets the pin again.
 */
import { DeviceError } from '../base/errors';
import { t } from '../base/i18n';
import { PinTrips, pinsOf } from '../config-node/pin-trips';
import type { Operation } from './operation';

/** The error of a pin switched off by the module's protection, with the device's flags. */
export function trippedError(pin: number, flags: readonly string[]): DeviceError {
  const alerts = flags.join(', ');
  return new DeviceError(t('common.protectionTripped', { pin, alerts }), {
    code: 'DEVICE_ERROR',
    deviceMessage: alerts,
    brief: t('common.protectionTrippedBrief', { pin, alerts }),
    detail: { pin, protection: [...flags] },
  });
}

export class TrippedPins {
  /** The pins this node set since deploy. */
  private readonly pins = new Set<number>();
  private readonly stop?: () => void;

  constructor(trips: PinTrips | undefined, tell: (error: DeviceError) => void) {
    this.stop = trips?.watch((pin, flags) => {
      if (this.pins.has(pin)) tell(trippedError(pin, flags));
    });
  }

  /** The device took an operation of this node: the pins it sets are the node's to report. */
  set(op: Operation<object>): void {
    for (const pin of pinsOf(op)) this.pins.add(pin);
  }

  close(): void {
    this.stop?.();
  }
}
