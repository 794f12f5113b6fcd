/**
 * Writes after which the released driver re-reads the module, so it gets a new
 * device_session (API 1.0): an accepted power-management (the module re-enumerates) and a
 * module reset. The connection is told while such a write is on the wire, because the
 * device may renew the session before the answer arrives: a session it then sees is the
 * package's own doing, not a reset. The msg's life asks it of each call it hands down; the
 * exchanger tells the listeners (client-events.ts renewing).
 */
import type { ApiVersion } from '../pure/limits';

const RENEWING = ['power-management', 'reset'];

/** Whether the call is such a write on a device of `version`. */
export function renewsSession(version: ApiVersion, call: { method: string; endpoint: ReadonlyArray<string | number> }): boolean {
  return version === '1.0' && call.method === 'POST' && RENEWING.includes(call.endpoint.join('/'));
}
