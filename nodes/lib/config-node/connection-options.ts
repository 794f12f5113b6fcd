/**
 * What a config node gives its connection (connection.ts) besides the client: the modules it
 * shares with the other config nodes of this Node-RED (sessions.ts) and the health check's
 * pace, settings.js `modularDevice.healthIntervalMs` within its bound (limits.ts).
 */
import { check, LIMITS } from '../pure/limits';
import type { Phrase } from '../pure/phrase';
import type { ModuleSessions } from './sessions';

/** While connected, the version record is read again this often: an idle flow learns of an outage or (API 1.0) new sessions. */
export const HEALTH_INTERVAL_MS: number = LIMITS.health_interval_ms.default;

/**
 * settings.js `modularDevice.healthIntervalMs` within its bound (limits.ts); none: the default.
 * A bad value leaves the default and says why (the config node warns with it).
 */
export function healthInterval(value: unknown): { ms: number; refused?: Phrase } {
  if (value === undefined) return { ms: HEALTH_INTERVAL_MS };
  const ok = check('health_interval_ms', value, 'modularDevice.healthIntervalMs');
  return ok === true ? { ms: value as number } : { ms: HEALTH_INTERVAL_MS, refused: ok };
}

/** What the config node gives its connection besides the client: what it shares with its peers, and its pace. */
export interface ConnectionOptions {
  /** The modules of this Node-RED (sessions.ts): config nodes naming the same module share its own writes. */
  modules?: ModuleSessions;
  /** The health check's interval (healthInterval). */
  healthIntervalMs?: number;
}
