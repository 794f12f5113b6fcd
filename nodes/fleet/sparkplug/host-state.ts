/**
 * The primary host application's STATE (Sparkplug 3.0, 5.2 and 6.6): a retained JSON
 * `{"online": true|false, "timestamp": <ms>}` on `spBv1.0/STATE/<host id>`. Untrusted and
 * bounded: at most SPARKPLUG_BOUNDS.stateBytes are read; anything else is said, not believed.
 */
import { SPARKPLUG_BOUNDS } from '../../lib/pure/limits';

export type HostState = { online: boolean; timestamp: number } | { refused: string } | undefined;

/** The state a STATE message says; undefined for an empty one (a retained STATE cleared). */
export function readHostState(payload: Uint8Array): HostState {
  if (!payload.length) return undefined;
  if (payload.length > SPARKPLUG_BOUNDS.stateBytes) return { refused: `a STATE must be at most ${SPARKPLUG_BOUNDS.stateBytes} bytes, got ${payload.length}` };
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload).toString('utf8'));
  } catch {
    // Sparkplug 2.x hosts say ONLINE / OFFLINE as text: not the 3.0 state this edge node follows.
    return { refused: 'a STATE must be Sparkplug 3.0 JSON {"online": true|false, "timestamp": <ms>}' };
  }
  const state = value as { online?: unknown; timestamp?: unknown } | null;
  if (
    typeof state !== 'object' ||
    state === null ||
    typeof state.online !== 'boolean' ||
    typeof state.timestamp !== 'number' ||
    !Number.isFinite(state.timestamp)
  )
    return { refused: 'a STATE must be Sparkplug 3.0 JSON {"online": true|false, "timestamp": <ms>}' };
  return { online: state.online, timestamp: state.timestamp };
}
