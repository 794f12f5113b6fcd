/**
 * The device API the runtime suite runs against, and a test-side view of the wire in the
 * spec's terms.
 *
 * `MD_API=1.0` runs the whole runtime suite against a simulator speaking the released API
 * 1.0; otherwise the spec's 0.9. Tests state what they expect in the spec's form (paths with
 * `0.9`, `GET reset`, one `GET notification`, `threshold_mV`, ...); the helpers below map
 * the simulator's request log back to that form (`specView`) and a spec-form request to
 * the wire (`wireRequest`, `wirePath`) for what a node reports as sent (`msg.request`,
 * `msg.error.cause.path`).
 *
 * Written from the released services' behaviour (API 1.0) §0 on purpose, independently of
 * nodes/lib/device/dialects.ts: the tests must not echo the code under test.
 */
import type { LogEntry } from '../../simulator';

export type TestApi = '0.9' | '1.0';

/** The API version the simulator of every runtime test speaks. */
export const TEST_API: TestApi = process.env.MD_API === '1.0' ? '1.0' : '0.9';
export const IS_API10 = TEST_API === '1.0';
/** The version segment of the spec's paths (how the tests write their expectations). */
export const SPEC_API = '0.9';

export interface WireRequest {
  method: string;
  path: string;
  body?: unknown;
}

// /api/<svc>/<ver>[/<slot>][/rest]
const PATH = /^\/api\/(io|bmc|power)\/(\d+\.\d+)(?:\/(\d+))?(\/.*)?$/;

interface Parts {
  service: string;
  version: string;
  slot?: string;
  /** The part after the slot, without the leading slash ('' when none). */
  rest: string;
}

function parts(path: string): Parts | undefined {
  const m = PATH.exec(path);
  return m ? { service: m[1], version: m[2], slot: m[3], rest: (m[4] ?? '').replace(/^\//, '') } : undefined;
}

function join(p: Parts, version: string, rest = p.rest): string {
  return `/api/${p.service}/${version}${p.slot === undefined ? '' : `/${p.slot}`}${rest ? `/${rest}` : ''}`;
}

/** The root of a service for the API under test, e.g. `/api/io/1.0`. */
export function apiRoot(service: string, api: TestApi = TEST_API): string {
  return `/api/${service}/${api}`;
}

/**
 * The wire path of a spec path (`/api/<svc>/0.9/...`) for `api`: the version segment, and
 * on 1.0 `usbhub/port/<n>` → `usbhub/slot/<n>`. Paths of other forms come back unchanged.
 */
export function wirePath(specPath: string, api: TestApi = TEST_API): string {
  const p = parts(specPath);
  if (!p || p.version !== SPEC_API || api === SPEC_API) return specPath;
  return join(p, api, p.rest.replace(/^usbhub\/port\/(\d+)$/, 'usbhub/slot/$1'));
}

type PowerEntry = { pin: number; rail: string; current: number };

/**
 * A spec-form request as it goes on the wire for `api`, as `msg.request` shows a single
 * call. The one spec request that takes several on 1.0, `GET notification` (six, listed
 * in `msg.request`), is refused here rather than answered with one of them.
 */
export function wireRequest(spec: WireRequest, api: TestApi = TEST_API): WireRequest {
  const p = parts(spec.path);
  const withBody = (path: string, body: unknown): WireRequest => (body === undefined ? { method: spec.method, path } : { method: spec.method, path, body });
  if (!p || p.version !== SPEC_API || api === SPEC_API) return withBody(spec.path, spec.body);
  const body = spec.body as Record<string, unknown> | undefined;
  const path = wirePath(spec.path, api);
  const key = `${spec.method} ${p.service} ${p.rest}`;
  if (key.endsWith(' reset') && spec.method === 'GET' && !p.rest.includes('/')) return { method: 'POST', path, body: { reset: 'yes' } };
  if (key === 'GET io notification') throw new Error('GET notification is six wire calls on 1.0, not one');
  if (key === 'POST io input/analog/threshold' && body) {
    const { threshold_mV, ...others } = body;
    return withBody(path, { ...others, threshold_millivolt: threshold_mV });
  }
  if (key === 'POST io input/digital/interrupt' && body) {
    const { debounce_time_ms, ...others } = body;
    return withBody(path, { ...others, debounce_time_milliseconds: debounce_time_ms });
  }
  if (key === 'POST io power-management' && body) {
    const config = [...(body.config as PowerEntry[])].sort((a, b) => a.pin - b.pin);
    return withBody(path, { config: config.map((e) => ({ rail: e.rail, current_milliampere: e.current })) });
  }
  return withBody(path, spec.body);
}

/**
 * The simulator's request log in the spec's terms. On 1.0: the version segment back to
 * 0.9, `POST <slot>/reset {"reset":"yes"}` → `GET <slot>/reset` (no body), the six
 * `GET notification/<n>` of one round → one `GET notification` (the seq of its last
 * request, the time of its first, the first failing status; a round still being read, all
 * answered 200 so far but not yet pin 6, is left out until it ends, as a 0.9 round is not
 * logged before it was answered), `threshold_millivolt` →
 * `threshold_mV`, `debounce_time_milliseconds` → `debounce_time_ms`, power-management
 * entries `{rail, current_milliampere}` → `{pin, rail, current}` (pin = position + 1),
 * `usbhub/slot/<n>` → `usbhub/port/<n>`. On 0.9 the log as it is.
 */
export function specView(entries: readonly LogEntry[], api: TestApi = TEST_API): LogEntry[] {
  if (api === SPEC_API) return [...entries];
  const out: LogEntry[] = [];
  /** The open notification round per slot: its index in `out` and the last pin read. */
  const rounds = new Map<string, { index: number; pin: number }>();
  for (const e of entries) {
    const p = parts(e.path);
    if (!p || p.version !== api) {
      out.push(e);
      continue;
    }
    const specPath = (rest: string) => join(p, SPEC_API, rest);
    const note = /^notification\/(\d+)$/.exec(p.rest);
    if (p.service === 'io' && e.method === 'GET' && note) {
      const pin = Number(note[1]);
      const key = `${p.slot}`;
      const open = rounds.get(key);
      if (open && pin === open.pin + 1) {
        const first = out[open.index];
        out[open.index] = { ...first, seq: e.seq, status: first.status === 200 ? e.status : first.status };
        if (pin === 6) rounds.delete(key);
        else open.pin = pin;
      } else {
        out.push({ ...e, path: specPath('notification'), body: null });
        if (pin < 6) rounds.set(key, { index: out.length - 1, pin });
      }
      continue;
    }
    let method = e.method;
    let rest = p.rest;
    let body = e.body;
    const b = (body ?? {}) as Record<string, unknown>;
    if (e.method === 'POST' && rest === 'reset' && b.reset === 'yes' && Object.keys(b).length === 1) {
      method = 'GET';
      body = null;
    } else if (e.method === 'POST' && p.service === 'io' && rest === 'input/analog/threshold' && 'threshold_millivolt' in b) {
      const { threshold_millivolt, ...others } = b;
      body = { ...others, threshold_mV: threshold_millivolt };
    } else if (e.method === 'POST' && p.service === 'io' && rest === 'input/digital/interrupt' && 'debounce_time_milliseconds' in b) {
      const { debounce_time_milliseconds, ...others } = b;
      body = { ...others, debounce_time_ms: debounce_time_milliseconds };
    } else if (e.method === 'POST' && p.service === 'io' && rest === 'power-management' && Array.isArray(b.config)) {
      body = {
        config: (b.config as Array<Record<string, unknown>>).map((c, i) => {
          const { rail, current_milliampere, ...others } = c;
          return { pin: i + 1, rail, current: current_milliampere, ...others };
        }),
      };
    } else if (p.service === 'bmc') {
      rest = rest.replace(/^usbhub\/slot\/(\d+)$/, 'usbhub/port/$1');
    }
    out.push({ ...e, method, path: specPath(rest), body });
  }
  // A round that failed ended where it failed; one that has not failed yet is still going.
  const going = new Set([...rounds.values()].filter((r) => out[r.index].status === 200).map((r) => r.index));
  return going.size ? out.filter((_, i) => !going.has(i)) : out;
}

/**
 * What the simulator's power budget lets through on 1.0 (simulator/api10/io.ts): runtime
 * configurations stay within it so they succeed on both APIs. 5 V rail: Σ(I×5+200) over
 * 5 V pins + 400 per 12 V pin ≤ 6000 mW; 12 V rail: Σ I×12 ≤ 24000 mW.
 */
export function withinSimBudget(config: ReadonlyArray<{ rail: string; current: number }>): boolean {
  let mw5 = 0;
  let mw12 = 0;
  for (const e of config) {
    if (e.rail === '5_volt') mw5 += e.current * 5 + 200;
    else {
      mw5 += 400;
      mw12 += e.current * 12;
    }
  }
  return mw5 <= 6000 && mw12 <= 24000;
}
