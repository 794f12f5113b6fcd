/**
 * Bad input, the invariants (fast-check): random msgs into every action node type on the
 * real Node-RED runtime against the simulator, one msg at a time. Payloads mix plausible
 * values with wrong types, NaN, ±Infinity, fractions, huge numbers, numeric strings, nested
 * garbage, decoy keys (`slot`, `path`, `url`, ...) and prototype-pollution keys
 * (`__proto__`, `constructor`, `prototype`); msg.operation is random too.
 *
 * No expected outcome is computed (the per-field cases in bad-input-io / bad-input-bmc-power
 * say what each value must do). What must hold for every msg:
 *  - it ends exactly once: one done() or one done(err), and a msg ended with an error has
 *    no output;
 *  - refused (INVALID_INPUT): nothing reached the device (the simulator's request log);
 *  - whatever was sent stayed in the node's own module and carried no decoy or pollution key;
 *  - Object.prototype is untouched.
 * FC_RUNS=<n> msgs per node type (default 60), FC_SEED=<n> reproduces a run.
 */
import should from 'should';
import fc from 'fast-check';
import type { NodeMessage } from '../../nodes/lib/base/node-red';
import { apiRoot } from '../helpers/api';
import { deviceRequests } from '../helpers/bmc-power';
import { lastSeq, send, waitRequests } from '../helpers/io-nodes';
import { deviceNode, waitConnected } from '../helpers/node-red';
import { Counted, loadCollect, reliabilityFlow, SLOT } from '../helpers/reliability';
import { SimHarness } from '../helpers/sim-control';
import { runtimeSuite } from '../helpers/runtime-suite';

const RUNS = Number(process.env.FC_RUNS ?? 60);
const SEED = Number(process.env.FC_SEED ?? 20261121);

interface Subject {
  type: string;
  service: 'io' | 'bmc' | 'power';
  /** Slot when not the service's first module. */
  slot?: number;
  settings: Record<string, unknown>;
  /** The payload fields the node reads. */
  fields: string[];
  /** The operations a msg may choose ("from msg.operation"). */
  operations?: string[];
  /** Every msg ends with done(err) (io-reset without confirm) or none does (nodes that only read). */
  always?: 'refused' | 'accepted';
  /** Outputs per msg are not one (notification-poll sends one per raised pin, none for "stop"). */
  anyOutputs?: boolean;
  prepare?(ctl: SimHarness): Promise<void>;
}

const SIX = [1, 2, 3, 4, 5, 6].map(() => ({ rail: '5_volt', current: '100' }));

// Dangerous operations stay without confirm: a random msg choosing one must be refused with nothing sent.
const SUBJECTS: Subject[] = [
  {
    type: 'io-output',
    service: 'io',
    settings: { pin: '1', mode: 'state', state: 'high', pwmInput: 'raw', prescaler: '47', period: '1000', time_on: '500' },
    fields: ['pin', 'state', 'prescaler', 'period', 'time_on'],
    prepare: (ctl) => ctl.powerConfig(2),
  },
  {
    type: 'io-threshold',
    service: 'io',
    settings: { pin: '2', threshold_mV: '1000', trigger: 'rising', analogFirst: true, applyOnConnect: false },
    fields: ['pin', 'threshold_mV', 'trigger'],
  },
  {
    type: 'io-input',
    service: 'io',
    settings: { pin: '3', mode: 'digital', trigger: 'rising', debounce_time_ms: '20', counter: '', applyOnConnect: false },
    fields: ['pin', 'mode', 'trigger', 'debounce_time_ms', 'state'],
  },
  {
    type: 'io-read',
    service: 'io',
    settings: { source: 'values', pin: 'all', interval: '0', onlyOnChange: false, deadband: '0', output: 'record' },
    fields: ['pin'],
  },
  { type: 'io-power', service: 'io', settings: { pins: SIX, applyOnConnect: false }, fields: ['config'] },
  {
    type: 'io-reset',
    service: 'io',
    slot: SLOT.io2,
    settings: { confirm: false },
    fields: ['confirm'],
    operations: ['reset', 'hard_reset'],
    always: 'refused',
  },
  {
    type: 'notification-poll',
    service: 'io',
    settings: { interval: '3600000', pins: '', alerts: '', combined: false },
    fields: ['pin'],
    always: 'accepted',
    anyOutputs: true,
  },
  { type: 'device-info', service: 'io', settings: {}, fields: ['slot', 'service'], always: 'accepted' },
  {
    type: 'bmc-watchdog',
    service: 'bmc',
    settings: { operation: 'msg', timeout: '0', keepAlive: false, interval: '1000', confirm: false, swShutdownTimeout: '60000' },
    fields: ['timeout'],
    operations: ['read', 'timeout', 'alive', 'save', 'shutdown', 'sw_shutdown_timeout'],
  },
  {
    type: 'bmc-readings',
    service: 'bmc',
    settings: { voltage: true, temperature: true, interval: '0', deadband: '0', onlyOnChange: false, output: 'record' },
    fields: ['voltage', 'temperature'],
    always: 'accepted',
  },
  {
    type: 'bmc-usbhub',
    service: 'bmc',
    settings: { operation: 'msg', port: '2', state: true, confirm: false },
    fields: ['port', 'state'],
    operations: ['read', 'hub', 'port', 'reset', 'devices'],
  },
  {
    type: 'bmc-system',
    service: 'bmc',
    settings: { operation: 'msg', mode: '2', duration: '50', enabled: false, timeout: '0', confirm: false },
    fields: ['mode', 'duration', 'enabled', 'timeout'],
    operations: ['buzzer', 'usb_bootloader', 'hard_reset', 'module_reset'],
  },
  {
    type: 'power-fan',
    service: 'power',
    settings: { operation: 'msg', fan_forced: true, fan_mode: '60', measurement_enabled: true, waitApplied: false },
    fields: ['fan_forced', 'fan_mode', 'measurement_enabled'],
    operations: ['read', 'set', 'rpm', 'measurement'],
  },
  {
    type: 'power-limits',
    service: 'power',
    settings: { operation: 'msg', limit_3v3: '3000', limit_5v0: '3000', limit_12v: '1000', confirm: false },
    fields: ['limit_3v3', 'limit_5v0', 'limit_12v'],
    operations: ['set', 'read', 'module_reset'],
  },
  {
    type: 'power-readings',
    service: 'power',
    settings: { stats: true, interval: '0', deadband: '0', onlyOnChange: false, output: 'record' },
    fields: ['stats', 'source'],
    always: 'accepted',
  },
];

// ---- random msgs ---------------------------------------------------------------------------

/** Values of every kind: some a node takes, most it must refuse. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    NaN,
    Infinity,
    -Infinity,
    -0,
    -1,
    0,
    1,
    2,
    6,
    7,
    1.5,
    20,
    60,
    100,
    1000,
    2400,
    5950,
    25000,
    65535,
    65536,
    600000,
    1e21,
    2 ** 53 + 2,
    '',
    ' ',
    '1',
    '1e3',
    '0x10',
    'high',
    'low',
    'rising',
    'pulse',
    'digital',
    'analog',
    'enabled',
    '5_volt',
    '12_volt',
    'true',
    '../reset',
    '1/../../hard_reset',
    '%2e%2e',
    '__proto__',
    'constructor',
    null,
    true,
    false,
    [],
    {},
    [1],
    { a: 1 },
  ),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 8 }),
  fc.array(fc.integer({ min: -3, max: 9 }), { maxLength: 7 }),
  fc.object({ maxDepth: 2, maxKeys: 3 }),
);

/** A power configuration: mostly six entries of plausible values, sometimes not. */
const configs: fc.Arbitrary<unknown> = fc.array(
  fc.oneof(
    fc.record({ pin: fc.integer({ min: 0, max: 7 }), rail: fc.constantFrom('5_volt', '12_volt', '3_volt'), current: fc.integer({ min: -1, max: 600 }) }),
    anyValue,
  ),
  { minLength: 4, maxLength: 7 },
);

const DECOYS = ['slot', 'path', 'url', 'endpoint', 'method', 'service', 'headers', 'prototype', 'polluted'];
/** Keys that must never reach the device. */
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype', 'polluted', 'slot', 'path', 'url', 'endpoint', 'method', 'headers']);

function payloads(s: Subject): fc.Arbitrary<unknown> {
  const fields = Object.fromEntries(s.fields.map((f) => [f, f === 'config' ? configs : anyValue]));
  const object = fc
    .tuple(fc.record(fields, { requiredKeys: [] }), fc.dictionary(fc.constantFrom(...DECOYS), anyValue, { maxKeys: 2 }), fc.boolean())
    .map(([own, decoys, polluting]) => {
      // Own keys named __proto__ and constructor, as JSON.parse makes them from a network payload.
      const p: Record<string, unknown> = polluting
        ? JSON.parse('{"__proto__": {"polluted": "yes", "pin": 5}, "constructor": {"prototype": {"polluted": "yes"}}}')
        : {};
      return Object.assign(p, decoys, own);
    });
  return fc.oneof(
    { weight: 6, arbitrary: object },
    { weight: 2, arbitrary: anyValue },
    { weight: 1, arbitrary: fc.constantFrom<unknown>('stop', 'start', 'now', undefined) },
  );
}

function msgs(s: Subject): fc.Arbitrary<NodeMessage> {
  const operation = s.operations
    ? fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom<unknown>(...s.operations) },
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: anyValue },
      )
    : fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: anyValue });
  return fc.tuple(payloads(s), operation).map(([payload, op]) => (op === undefined ? { payload, topic: 'fuzz' } : { payload, operation: op, topic: 'fuzz' }));
}

// ---- the invariants ------------------------------------------------------------------------

/** Every key of a JSON value, deeply. */
function keysOf(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      keysOf(v, into);
    }
  }
  return into;
}

function show(msg: NodeMessage): string {
  try {
    return JSON.stringify({ operation: msg.operation, payload: msg.payload }, (_k, x) => (typeof x === 'number' && !Number.isFinite(x) ? String(x) : x)).slice(
      0,
      300,
    );
  } catch {
    return String(msg.payload);
  }
}

describe('reliability: bad input, invariants over random msgs (fast-check, runtime, simulator)', function () {
  this.timeout(120000);
  const { ctl } = runtimeSuite({ server: true });
  const protoKeys = Object.getOwnPropertyNames(Object.prototype).sort();
  const totals = { msgs: 0, refused: 0, polluting: 0 };
  after(() => {
    console.log(
      `      [reliability] bad input, invariants: ${totals.msgs} random msgs (${SUBJECTS.length} node types, seed ${SEED}): ${totals.refused} refused with nothing sent, ` +
        `each msg ended once, ${totals.polluting} carried __proto__/constructor keys and Object.prototype stayed untouched`,
    );
  });

  for (const s of SUBJECTS) {
    it(`${s.type}: ${RUNS} random msgs each end once; a refused one sends nothing; nothing leaves the module; Object.prototype untouched`, async () => {
      const slot = s.slot ?? SLOT[s.service];
      const device = deviceNode({ id: 'dev', url: ctl.url, service: s.service, slot });
      const outcomes: Counted = await loadCollect(reliabilityFlow([{ id: 'n', type: s.type, device: 'dev', ...s.settings }], [device]));
      await waitConnected('dev');
      await s.prepare?.(ctl);
      // notification-poll reads once when it starts: that round is not a msg's.
      if (s.type === 'notification-poll') await waitRequests(ctl, '/notification', 1);
      const base = `${apiRoot(s.service, '0.9')}/${slot}/`;
      const ids: string[] = [];
      let refused = 0;

      await fc.assert(
        fc.asyncProperty(msgs(s), async (msg) => {
          const since = await lastSeq(ctl);
          const caught = await send(outcomes, 'n', msg);
          const id = String(msg._msgid);
          ids.push(id);
          totals.msgs++;
          if (msg.payload && Object.prototype.hasOwnProperty.call(msg.payload, '__proto__')) totals.polluting++;
          const what = `${s.type} ${show(msg)}`;
          const outputs = outcomes.sent('n').filter((m) => m._msgid === id).length;
          if (caught) outputs.should.equal(0, `${what}: an output besides its error`);
          else if (!s.anyOutputs) outputs.should.equal(1, `${what}: one output`);
          const sent = await deviceRequests(ctl, since);
          if (caught?.error?.code === 'INVALID_INPUT') {
            refused++;
            totals.refused++;
            sent.map((e) => `${e.method} ${e.path}`).should.eql([], `${what} was refused (${caught.error.message}) yet sent`);
          }
          for (const e of sent) {
            e.path.should.startWith(base, `${what}: a request outside the module`);
            for (const k of keysOf(e.body)) FORBIDDEN.has(k).should.equal(false, `${what}: key ${k} reached the device`);
          }
          Object.getOwnPropertyNames(Object.prototype).sort().should.eql(protoKeys, `${what}: Object.prototype changed`);
          should(({} as Record<string, unknown>).polluted).be.undefined();
        }),
        { numRuns: RUNS, seed: SEED },
      );

      // Exactly one end per msg, counted once all have ended (a second done() would show here).
      const ends = new Map<string, number>();
      for (const m of [...outcomes.caught, ...outcomes.completed]) ends.set(String(m._msgid), (ends.get(String(m._msgid)) ?? 0) + 1);
      const wrong = ids.filter((id) => ends.get(id) !== 1);
      wrong.should.eql([], 'msgs that did not end exactly once');
      // Both kinds were really tried, or the node's one kind.
      if (s.always === 'refused') refused.should.equal(ids.length);
      else if (s.always === 'accepted') refused.should.equal(0);
      else refused.should.be.within(1, ids.length - 1);
    });
  }
});
