/**
 * The flow check as a whole: the order of the nodes never changes the findings (a
 * property), its work grows linearly with the flows (counted steps, never time), and every
 * key it says exists in the sidebar's catalogue in English and German with the placeholders
 * its values fill.
 */
import fs from 'fs';
import path from 'path';
import fc from 'fast-check';
import should from 'should';
import { checkFlows, FlowNode, Work } from '../../nodes/lib/pure/flow-check';
import type { Finding } from '../../nodes/lib/pure/snapshot';
import { config, device, liveModule, node, powerPins } from '../helpers/flows';

const root = path.resolve(__dirname, '..', '..', '..');

/** A flow with every kind of finding on module `m` (slot `slot`), ids prefixed to be unique. */
function faultyFlow(m: string, slot: number): FlowNode[] {
  const io = `${m}io`;
  const bmc = `${m}bmc`;
  return [
    config(io, 'io', slot),
    config(bmc, 'bmc', slot + 1),
    config(`${m}gone`, 'io', 9999),
    config(`${m}wrong`, 'io', 1),
    node(`${m}poll1`, 'notification-poll', io),
    node(`${m}poll2`, 'notification-poll', io),
    node(`${m}out`, 'io-output', io, { pin: 2 }),
    node(`${m}in`, 'io-input', io, { pin: 2 }),
    node(`${m}power`, 'io-power', io, {
      pins: powerPins([
        ['5_volt', 300],
        ['5_volt', 301],
        ['5_volt', 300],
        ['5_volt', 300],
        ['12_volt', 500],
        ['12_volt', 500],
      ]),
    }),
    node(`${m}arm`, 'bmc-watchdog', bmc, { operation: 'timeout', timeout: 5000, confirm: false }),
    node(`${m}bad`, 'bmc-readings', io),
    config(`${m}bmc2`, 'bmc', slot + 2),
    node(`${m}keep1`, 'bmc-watchdog', `${m}bmc2`, { keepAlive: true, confirm: true }),
    node(`${m}keep2`, 'bmc-watchdog', `${m}bmc2`, { keepAlive: true, confirm: true }),
    node(`${m}low`, 'io-threshold', io, { pin: 4, threshold_mV: 2500, trigger: 'rising' }),
    node(`${m}high`, 'io-threshold', io, { pin: 4, threshold_mV: 3000, trigger: 'rising' }),
    node(`${m}lamp`, 'io-output', `${m}gone`, { pin: 1 }),
  ];
}

function liveFor(slots: number[]) {
  const modules = slots.flatMap((slot, i) => [
    liveModule(`m${i}io`, 'io', slot, { apiVersion: '0.9' }),
    liveModule(`other${i}`, 'bmc', slot + 1, { bmc: { watchdog: { timeout: 9000, timeout_left: 1 } } }),
  ]);
  return { modules, devices: [device({ io: slots, bmc: [1, ...slots.flatMap((s) => [s + 1, s + 2])] })] };
}

/** A finding as one comparable text. */
const asText = (f: Finding) => JSON.stringify([f.kind, f.key, [...f.nodes].sort(), f.values]);

describe('flow check: order, size and texts', () => {
  const flows = faultyFlow('m0', 2);
  const live = liveFor([2]);

  it('the faulty flow shows every kind of finding', () => {
    const kinds = new Set(checkFlows(flows, live).map((f) => f.kind));
    [...kinds]
      .sort()
      .should.eql([
        'no-confirm',
        'no-power-config',
        'output-as-input',
        'over-budget',
        'pin-conflict',
        'slot-missing',
        'two-keepalives',
        'two-polls',
        'watchdog-unkept',
        'wrong-service',
      ]);
  });

  it('shuffling the nodes never changes the findings', () => {
    const expected = checkFlows(flows, live).map(asText).sort();
    fc.assert(
      fc.property(fc.shuffledSubarray(flows, { minLength: flows.length, maxLength: flows.length }), (shuffled) => {
        checkFlows(shuffled, live).map(asText).sort().should.eql(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('checks 5,000 nodes in work linear in their number (counted steps, no clock)', () => {
    const sized = (modules: number) => {
      const nodes = Array.from({ length: modules }, (_, i) => faultyFlow(`m${i}`, 10 + 3 * i)).flat();
      const work: Work = { steps: 0 };
      const findings = checkFlows(nodes, liveFor(nodes.length ? Array.from({ length: modules }, (_, i) => 10 + 3 * i) : []), work);
      return { nodes: nodes.length, steps: work.steps, findings: findings.length };
    };
    const small = sized(455);
    const large = sized(910);
    small.nodes.should.be.aboveOrEqual(5000);
    // Twice the flows: twice the findings and, within a little, twice the work.
    large.findings.should.equal(2 * small.findings);
    (large.steps / small.steps).should.be.within(1.9, 2.1);
    (small.steps / small.nodes).should.be.below(20);
  });

  it('every key the check says exists in en-US and de, with the placeholders its values fill', () => {
    const catalogue = (lang: string) =>
      JSON.parse(fs.readFileSync(path.join(root, 'locales', lang, 'modular-device-sidebar.json'), 'utf8')).finding as Record<string, string>;
    const texts = { en: catalogue('en-US'), de: catalogue('de') };
    // Every key written in the check's sources...
    const sources = fs
      .readdirSync(path.join(root, 'nodes', 'lib', 'pure'))
      .filter((f) => f.startsWith('flow-check'))
      .map((f) => fs.readFileSync(path.join(root, 'nodes', 'lib', 'pure', f), 'utf8'));
    const written = [...new Set(sources.join('\n').match(/'finding\.[A-Za-z]+'/g) ?? [])].map((k) => k.slice(9, -1)).sort();
    written.length.should.equal(13);
    Object.keys(texts.en).sort().should.eql(written);
    Object.keys(texts.de).sort().should.eql(written);
    // ...and every placeholder of each text filled by the values of a finding with that key.
    const placeholders = (text: string) => [...new Set(text.match(/__[A-Za-z0-9_]+__/g) ?? [])].map((p) => p.slice(2, -2)).sort();
    const said = new Set<string>();
    const everyKind = [...checkFlows(flows, live), ...checkFlows([config('c', 'io', 1)], live)];
    everyKind.push(...checkFlows([config('c', 'bmc', 2), node('w', 'io-read', 'c')], live));
    everyKind.push(
      ...checkFlows(
        [
          config('c', 'io', 2),
          node('i', 'io-input', 'c', { pin: 5, mode: 'digital' }),
          node('t', 'io-threshold', 'c', { pin: 5, threshold_mV: 1000, trigger: 'rising' }),
        ],
        live,
      ),
    );
    for (const f of everyKind) {
      const key = f.key.replace(/^finding\./, '');
      said.add(key);
      for (const lang of ['en', 'de'] as const) {
        should.exist(texts[lang][key], `${lang} ${f.key}`);
        placeholders(texts[lang][key]).should.eql(Object.keys(f.values).sort(), `${lang} ${f.key}`);
      }
    }
    [...said].sort().should.eql(written);
  });
});
