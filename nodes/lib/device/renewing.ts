/**
 * Writes after which the released driver re-reads the module, so it gets a new
 * device_session (API 1.0): an accepted power-management (the module re-enumerates) and a
 * module reset. The connection is told while such a write is on the wire, because the
 * device may renew the session before the answer arrives: a session it then sees is the
 * package's own doing, not a reset.
 */
import type { ApiVersion } from '../pure/limits';

const RENEWING = ['power-management', 'reset'];

/** Runs `exchange`, telling `onRenewing` before and after when the call renews the session. */
export function renewing<T>(
  version: ApiVersion,
  call: { method: string; endpoint: ReadonlyArray<string | number> },
  onRenewing: ((phase: 'sent' | 'ended') => void) | undefined,
  exchange: () => Promise<T>,
): Promise<T> {
  // Every other call goes straight through: no promise of its own on the hot path.
  if (version !== '1.0' || call.method !== 'POST' || !onRenewing || !RENEWING.includes(call.endpoint.join('/'))) return exchange();
  onRenewing('sent');
  return exchange().finally(() => onRenewing('ended'));
}
