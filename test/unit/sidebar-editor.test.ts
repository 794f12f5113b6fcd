/**
 * The device sidebar's editor code, its pure parts: which nodes use a module and which of
 * its pins (what a click selects, what a selection highlights), and its catalogue: the same
 * keys and placeholders in en-US and de, and every key the code says there.
 */
import fs from 'fs';
import path from 'path';
import should from 'should';
import { pinsOf, usersOf, UsingNode } from '../../nodes/sidebar/editor/usage';
import { NAMED_FIELDS } from '../../nodes/sidebar/editor/field-names';

const root = path.resolve(__dirname, '..', '..', '..');

describe('device sidebar: nodes using a module and its pins', function () {
  const nodes: UsingNode[] = [
    { id: 'out', type: 'io-output', device: 'io2', pin: 1, pinType: 'num' },
    { id: 'outMsg', type: 'io-output', device: 'io2', pin: 'payload.pin', pinType: 'msg' },
    { id: 'in', type: 'io-input', device: 'io2', pin: '3' },
    { id: 'thr', type: 'io-threshold', device: 'io2', pin: '${PIN}' },
    { id: 'readAll', type: 'io-read', device: 'io2', pin: 'all' },
    { id: 'read5', type: 'io-read', device: 'io2', pin: 5 },
    { id: 'power', type: 'io-power', device: 'io2' },
    { id: 'pollSome', type: 'notification-poll', device: 'io2', pins: [2, '4'] },
    { id: 'pollText', type: 'notification-poll', device: 'io2', pins: '6, 1' },
    { id: 'pollAll', type: 'notification-poll', device: 'io2', pins: [] },
    { id: 'reset', type: 'io-reset', device: 'io2' },
    { id: 'off', type: 'io-input', device: 'io2', pin: 3, d: true },
    { id: 'other', type: 'io-input', device: 'io3', pin: 3 },
  ];
  const ids = (list: UsingNode[]) => list.map((n) => n.id);

  it('knows the pins each io node works on; none for a pin known only at run time', function () {
    const all = [1, 2, 3, 4, 5, 6];
    should(Object.fromEntries(nodes.map((n) => [n.id, pinsOf(n)]))).eql({
      out: [1],
      outMsg: [],
      in: [3],
      thr: [],
      readAll: all,
      read5: [5],
      power: all,
      pollSome: [2, 4],
      pollText: [6, 1],
      pollAll: all,
      reset: [],
      off: [3],
      other: [3],
    });
  });

  it('lists the enabled nodes of a module, and of one of its pins', function () {
    should(ids(usersOf(nodes, 'io2'))).eql(['out', 'outMsg', 'in', 'thr', 'readAll', 'read5', 'power', 'pollSome', 'pollText', 'pollAll', 'reset']);
    should(ids(usersOf(nodes, 'io2', 3))).eql(['in', 'readAll', 'power', 'pollAll']);
    should(ids(usersOf(nodes, 'io3', 3))).eql(['other']);
    should(ids(usersOf(nodes, 'bmc0'))).eql([]);
  });
});

describe('device sidebar: catalogue (locales/<lang>/modular-device-sidebar.json)', function () {
  const catalogue = (lang: string) => JSON.parse(fs.readFileSync(path.join(root, 'locales', lang, 'modular-device-sidebar.json'), 'utf8'));
  const texts = (tree: unknown, prefix = ''): Array<[string, string]> =>
    typeof tree === 'string' ? [[prefix, tree]] : Object.entries(tree as Record<string, unknown>).flatMap(([k, v]) => texts(v, prefix ? `${prefix}.${k}` : k));
  const en = new Map(texts(catalogue('en-US')));
  const de = new Map(texts(catalogue('de')));
  const placeholders = (text = '') => [...new Set(text.match(/__[A-Za-z0-9_]+__/g) ?? [])].sort().join();

  it('has the same keys and placeholders in en-US and de', function () {
    should([...de.keys()].sort()).eql([...en.keys()].sort());
    const differ = [...en.keys()].filter((k) => placeholders(en.get(k)) !== placeholders(de.get(k)));
    should(differ).eql([], 'placeholders differ');
  });

  it('has every key the editor code says', function () {
    const dir = path.join(root, 'nodes', 'sidebar', 'editor');
    const said = fs.readdirSync(dir).flatMap((f) => [...fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/\bt\('([^']+)'/g)].map((m) => m[1]));
    said.length.should.be.above(40, 'keys found in the code');
    // Keys built from a value: every value the code can put in.
    const built = [
      ...['connecting', 'connected', 'unreachable', 'down', 'refused', 'incompatible', 'invalid'].map((s) => `state.${s}`),
      'rail.5_volt',
      'rail.12_volt',
      'io.rail.5v0',
      'io.rail.12v',
      'power.rail.3v3',
      'power.rail.5v0',
      'power.rail.12v',
      'pin.mode.voltage',
      'pin.mode.digital',
      'pin.mode.frequency',
      ...NAMED_FIELDS.map((f) => `field.${f}`),
      'field.port_slot',
      'field.ovp',
      'field.uvp',
      'field.ocp',
      'usb.enabled',
      'usb.disabled',
      'usb.notAvailable',
    ];
    should([...said, ...built].filter((k) => !en.has(k))).eql([]);
  });
});
