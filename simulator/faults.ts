/**
 * Fault injection on device API requests: latency, an error status, a connection reset or
 * a mangled body, on chosen paths and methods, for a number of requests or until removed.
 * `latency_ms` and `reset` act before the device sees the request; `answer_delay_ms` and
 * `drop_answer` act after it processed it (state changed, notification flags cleared), the
 * case where an answer the client never gets loses what the device handed out. `hang`
 * stands for a device that froze: the connection is accepted and the request read (and
 * logged, status 0, when it arrives), but it is never processed or answered; the client
 * has to give up.
 */
import { checkShape, ObjectSchema } from './schema';
import type { CheckedBody } from './router';

export type BodyFault = 'truncated' | 'nonjson' | 'empty';

export interface FaultRule {
  readonly id: string;
  /** Substring of the request path, or "*" for every device request. */
  readonly path: string;
  /** Upper-case method, or undefined for any. */
  readonly method?: string;
  /** Requests left to hit; undefined = unlimited. */
  remaining?: number;
  readonly latency_ms?: number;
  readonly status?: number;
  readonly message?: string;
  readonly reset?: boolean;
  readonly body?: BodyFault;
  /** Process the request, then hold the answer this long. */
  readonly answer_delay_ms?: number;
  /** Process the request, then destroy the connection without answering (after answer_delay_ms, if set). */
  readonly drop_answer?: boolean;
  /** Read the request, log it, never process or answer it. */
  readonly hang?: boolean;
  hits: number;
}

const FAULT_SCHEMA: ObjectSchema = {
  path: 'string',
  method: { type: 'string', optional: true },
  count: { type: 'u32', optional: true },
  latency_ms: { type: 'u32', optional: true },
  status: { type: 'u16', optional: true },
  message: { type: 'string', optional: true },
  reset: { type: 'bool', optional: true },
  body: { type: 'string', optional: true },
  answer_delay_ms: { type: 'u32', optional: true },
  drop_answer: { type: 'bool', optional: true },
  hang: { type: 'bool', optional: true },
};

/** Longest injectable latency: long enough for any client timeout test, short enough to end. */
const MAX_LATENCY_MS = 120_000;
const BODY_FAULTS: readonly string[] = ['truncated', 'nonjson', 'empty'];

export class Faults {
  private rules: FaultRule[] = [];
  private nextId = 1;

  /** Adds a rule from a control API body; returns the rule or a message for a 400. */
  add(input: unknown): FaultRule | string {
    const shape = checkShape(FAULT_SCHEMA, input);
    if (shape !== true) return shape;
    // Its shape was checked against FAULT_SCHEMA just above: each field is there with its type or absent.
    const b = input as Record<string, CheckedBody>;
    if (b.path.length === 0) return 'path must be a non-empty substring of the request path, or "*"';
    if (b.count === 0) return 'count must be at least 1 (omit it for unlimited)';
    for (const field of ['latency_ms', 'answer_delay_ms']) {
      if (b[field] !== undefined && b[field] > MAX_LATENCY_MS) return `${field} must be at most ${MAX_LATENCY_MS}`;
    }
    if (b.status !== undefined && (b.status < 100 || b.status > 599)) return 'status must be an HTTP status from 100 to 599';
    if (b.body !== undefined && b.body !== null && !BODY_FAULTS.includes(b.body)) return `body must be one of ${BODY_FAULTS.join(', ')}`;
    if (
      b.hang === true &&
      ['latency_ms', 'status', 'reset', 'body', 'answer_delay_ms', 'drop_answer'].some((f) => b[f] !== undefined && b[f] !== null && b[f] !== false)
    ) {
      return 'hang goes alone: a frozen device neither delays, answers, resets nor processes';
    }
    const unprocessed = [b.status !== undefined && b.status !== null, b.reset === true];
    const effects = [...unprocessed, b.body !== undefined && b.body !== null, b.drop_answer === true];
    if (effects.filter(Boolean).length > 1) return 'give at most one of status, reset, body and drop_answer';
    // Without processing there is no answer of the device's to hold back: latency_ms is the delay then.
    if (unprocessed.some(Boolean) && b.answer_delay_ms) return 'answer_delay_ms needs a processed request: not with status or reset (use latency_ms)';
    if (!effects.some(Boolean) && !b.latency_ms && !b.answer_delay_ms && b.hang !== true)
      return 'a fault needs latency_ms, answer_delay_ms, status, reset, body, drop_answer or hang';
    const rule: FaultRule = {
      id: String(this.nextId++),
      path: b.path,
      method: b.method ? String(b.method).toUpperCase() : undefined,
      remaining: b.count ?? undefined,
      latency_ms: b.latency_ms ?? undefined,
      status: b.status ?? undefined,
      message: b.message ?? undefined,
      reset: b.reset === true ? true : undefined,
      body: b.body ?? undefined,
      answer_delay_ms: b.answer_delay_ms || undefined,
      drop_answer: b.drop_answer === true ? true : undefined,
      hang: b.hang === true ? true : undefined,
      hits: 0,
    };
    this.rules.push(rule);
    return rule;
  }

  /** The first rule matching the request, used up by one hit; rules are kept in order added. */
  take(method: string, path: string): FaultRule | undefined {
    if (this.rules.length === 0) return undefined; // the usual case: keep it cheap
    for (let i = 0; i < this.rules.length; i++) {
      const rule = this.rules[i];
      if (rule.method !== undefined && rule.method !== method) continue;
      if (rule.path !== '*' && !path.includes(rule.path)) continue;
      rule.hits++;
      if (rule.remaining !== undefined && --rule.remaining <= 0) this.rules.splice(i, 1);
      return rule;
    }
    return undefined;
  }

  list(): FaultRule[] {
    return this.rules.slice();
  }

  remove(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.id !== id);
    return this.rules.length !== before;
  }

  clear(): void {
    this.rules = [];
  }
}

/** A body mangled as the fault asks; `original` is the JSON the device would have sent. */
export function mangle(kind: BodyFault, original: string): string {
  switch (kind) {
    case 'truncated':
      return original.slice(0, Math.max(1, Math.floor(original.length / 2)));
    case 'nonjson':
      return '<html><body>this is not JSON</body></html>';
    case 'empty':
      return '';
  }
}
