/**
 * The primary host application's STATE (Sparkplug 3.0, 5.2 and 6.6): a retained JSON
 * `{"online": true|false, "timestamp": <ms>}` on `spBv1.0/STATE/<host id>`. Untrusted and
 * bounded: at most SPARKPLUG_BOUNDS.stateBytes are read; anything else is said, not believed.
 */
import { t } from '../../lib/base/i18n';
import { SPARKPLUG_BOUNDS } from '../../lib/pure/limits';

export type HostState = { online: boolean; timestamp: number } | { refused: string } | undefined;

/** The state a STATE message says; undefined for an empty one (a retained STATE cleared). */
export function readHostState(payload: Uint8Array): HostState {
  if (!payload.length) return undefined;
  if (payload.length > SPARKPLUG_BOUNDS.stateBytes)
    return { refused: t('fleet-publish.spStateBytes', { max: SPARKPLUG_BOUNDS.stateBytes, got: payload.length }) };
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload).toString('utf8'));
  } catch {
    // Sparkplug 2.x hosts say ONLINE / OFFLINE in plain words, not the 3.0 state this edge node follows.
    return { refused: t('fleet-publish.spStateJson') };
  }
  const state = value as { online?: unknown; timestamp?: unknown } | null;
  if (
    typeof state !== 'object' ||
    state === null ||
    typeof state.online !== 'boolean' ||
    typeof state.timestamp !== 'number' ||
    !Number.isFinite(state.timestamp)
  )
    return { refused: t('fleet-publish.spStateJson') };
  return { online: state.online, timestamp: state.timestamp };
}
