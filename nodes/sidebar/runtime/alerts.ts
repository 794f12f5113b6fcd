/**
 * The alerts the package's own notification-poll nodes saw, per module and pin, for the live
 * sidebar to show. The sidebar never reads notifications itself: a read clears the flags on
 * the device, so a read of its own would steal them from the flow.
 *
 * Tiny by construction: per module at most six pins, each the last set of flags raised
 * (four at most). Keyed by the module's connection object, so it goes with the config node.
 */
import { LIMITS } from '../../lib/pure/limits';
import { ALERT_FLAGS } from '../../lib/pure/facts';

const seen = new WeakMap<object, Map<number, string[]>>();

/** notification-poll delivered these flags for `pin` of the module behind `connection`. */
export function rememberAlerts(connection: object | undefined, pin: number, alerts: readonly string[]): void {
  if (!connection || !Number.isInteger(pin) || pin < LIMITS.pin.min || pin > LIMITS.pin.max) return;
  const flags = alerts.filter((a) => (ALERT_FLAGS as readonly string[]).includes(a));
  if (!flags.length) return;
  let pins = seen.get(connection);
  if (!pins) seen.set(connection, (pins = new Map()));
  pins.set(pin, flags);
}

/** The last flags seen per pin of the module (empty when none). */
export function alertsOf(connection: object | undefined): ReadonlyMap<number, string[]> {
  return (connection && seen.get(connection)) || new Map();
}
