/**
 * Hand-written expected cases per msg field, run on the real Node-RED runtime against the
 * simulator (test/reliability/bad-input-*.test.ts).
 *
 * A case names one field of one node, the values that must pass and the requests each
 * sends (in the spec's form; the request log is read through test/helpers/api.ts, so the
 * same case holds on API 0.9 and 1.0), and the values that must be refused. The bounds are
 * literal numbers in the test files, each with its source: nothing here reads
 * nodes/lib/pure/limits.ts, so a wrong bound there fails a case instead of agreeing with itself.
 *
 * An accepted value: one output msg, no error, and the log since the msg holds exactly the
 * expected requests, the value unchanged. A refused value: one INVALID_INPUT error at
 * Catch naming the field, the value and the range (substrings only: the sentence around
 * them belongs to the message catalogue), no output, nothing on the wire.
 */
import type { NodeMessage } from '../../nodes/lib/base/node-red';
import { expectRefused, sendOne, wireSince } from './bmc-power';
import { lastSeq } from './io-nodes';
import { deviceNode, waitConnected } from './node-red';
import { loadCollect, reliabilityFlow, SLOT } from './reliability';
import type { SimHarness } from './sim-control';
import { runtimeSuite } from './runtime-suite';

export type Service = 'io' | 'bmc' | 'power';

/** One request in the spec's terms: method, endpoint below `<slot>/`, body (null for none). */
export type Req = [method: string, endpoint: string, body: unknown];

export interface NodeUnderTest {
  type: string;
  service: Service;
  /** The node's dialog settings, as the editor saves them. */
  settings: Record<string, unknown>;
  /** Device state the node's requests need (e.g. a power configuration before outputs). */
  prepare?(ctl: SimHarness): Promise<void>;
}

/** A refusal whose words are not the field's own range (another field's rule, another API's bound). */
export interface Refusal {
  value: unknown;
  /** Substrings the message must hold. */
  says: Array<string | number>;
}

export interface FieldCase {
  node: NodeUnderTest;
  /** The field as the refusal names it. */
  field: string;
  /** The msg that gives `value` to the field (everything else valid). */
  msg(value: unknown): NodeMessage;
  /** Values that pass, sent in this order. */
  accepted: unknown[];
  /** The requests an accepted value sends. */
  wire(value: unknown): Req[];
  /** Values refused with the field, the value and `range` in the message. */
  refused: unknown[];
  /** The allowed range as the message shows it: its bounds or its words. */
  range: Array<string | number>;
  /** Refusals that say something else. */
  refusedSaying?: Refusal[];
  /** Words for the title where the values are too long to list (e.g. whole configurations). */
  label?: string;
}

/** A value as a refusal shows it (the package's msg contract: numbers as they are, strings quoted). */
export function shown(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return String(value);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A message that holds every part; numbers stand alone (999 does not match inside 9999). */
export function saying(parts: Array<string | number>): RegExp {
  const ahead = parts.map((p) => {
    const text = escape(String(p));
    return `(?=[\\s\\S]*${/^-?[\d.]+$/.test(String(p)) ? `(?<![\\d.])${text}(?![\\d.])` : text})`;
  });
  return new RegExp(`^${ahead.join('')}`);
}

/** An integer field: lowest and highest pass (and `also`); one beyond each, the wrong types, a fraction fail. */
export function intCase(c: {
  node: NodeUnderTest;
  field: string;
  msg(value: unknown): NodeMessage;
  wire(value: unknown): Req[];
  lowest: number;
  highest: number;
  also?: number[];
  /** Refused values below and above, when not lowest − 1 and highest + 1. */
  below?: number;
  above?: number;
  /** The range as the message shows it, when not [lowest, highest, ...also]. */
  range?: Array<string | number>;
  refusedSaying?: Refusal[];
  label?: string;
}): FieldCase {
  const { lowest, highest, also = [] } = c;
  return {
    node: c.node,
    field: c.field,
    msg: c.msg,
    wire: c.wire,
    accepted: [lowest, highest, ...also],
    refused: [c.below ?? lowest - 1, c.above ?? highest + 1, String(lowest), null, NaN, lowest + 0.5, [lowest]],
    range: c.range ?? [lowest, highest, ...also],
    refusedSaying: c.refusedSaying,
    label: c.label,
  };
}

/** A field of listed words: each passes; another case, a blank, a number, null, an array fail. */
export function wordCase(c: {
  node: NodeUnderTest;
  field: string;
  msg(value: unknown): NodeMessage;
  wire(value: unknown): Req[];
  words: string[];
  refused?: unknown[];
}): FieldCase {
  const first = c.words[0];
  return {
    node: c.node,
    field: c.field,
    msg: c.msg,
    wire: c.wire,
    accepted: c.words,
    refused: c.refused ?? [first.toUpperCase(), ` ${first}`, '', null, 1, [first]],
    range: c.words,
  };
}

/** A boolean field: true and false pass; their text, 1, 0, null, an array fail. */
export function boolCase(c: { node: NodeUnderTest; field: string; msg(value: unknown): NodeMessage; wire(value: unknown): Req[] }): FieldCase {
  return { ...c, accepted: [true, false], refused: ['true', 1, 0, null, [true]], range: ['true', 'false'] };
}

/** The spec path of an endpoint of the node's module. */
function specPath(service: Service, endpoint: string): string {
  return `/api/${service}/0.9/${SLOT[service]}/${endpoint}`;
}

/** Runs every value of a case through one node on a fresh flow; `ctl` is read when the test runs. */
export async function runCase(ctl: SimHarness, c: FieldCase): Promise<void> {
  const { node } = c;
  const device = deviceNode({ id: 'dev', url: ctl.url, service: node.service, slot: SLOT[node.service] });
  const outcomes = await loadCollect(reliabilityFlow([{ id: 'n', type: node.type, device: 'dev', ...node.settings }], [device]));
  await waitConnected('dev');
  await node.prepare?.(ctl);
  for (const value of c.accepted) {
    const since = await lastSeq(ctl);
    await sendOne(outcomes, 'n', c.msg(value));
    const expected = c.wire(value).map(([method, endpoint, body]) => [method, specPath(node.service, endpoint), body]);
    (await wireSince(ctl, since)).should.eql(expected, `${c.field} ${shown(value)} on the wire`);
  }
  for (const value of c.refused) await expectRefused(ctl, outcomes, 'n', c.msg(value), saying([c.field, shown(value), ...c.range]));
  for (const r of c.refusedSaying ?? []) await expectRefused(ctl, outcomes, 'n', c.msg(r.value), saying(r.says));
}

/** The test's title: what passes and what is refused. */
export function title(c: FieldCase): string {
  const one = (v: unknown) => (typeof v === 'number' && Number.isNaN(v) ? 'NaN' : JSON.stringify(v));
  const list = (values: unknown[]) => values.map((v) => (one(v).length > 24 ? `${one(v).slice(0, 21)}...` : one(v))).join(', ');
  const others = (c.refusedSaying ?? []).map((r) => r.value);
  if (c.label) return `${c.node.type} ${c.field}: ${c.label}`;
  return `${c.node.type} ${c.field}: ${list(c.accepted)} reach the device as given; ${list([...c.refused, ...others])} refused, nothing sent`;
}

/** A mocha suite of cases: a simulator of the API under test, one test per case. */
export function fieldSuite(name: string, cases: FieldCase[]): void {
  describe(name, function () {
    this.timeout(30000);
    const { ctl } = runtimeSuite({ server: true });
    for (const c of cases) it(title(c), () => runCase(ctl, c));
  });
}
