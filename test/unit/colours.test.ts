/**
 * Each node's colour is written once, in COLOURS (pure/facts.ts). The dialogs repeat it as a
 * literal because the Flow Library reads a node's colour from its registerType call without
 * running it; this test holds every literal to the table.
 */
import fs from 'fs';
import path from 'path';
import should from 'should';
import { COLOURS } from '../../nodes/lib/pure/facts';

const root = path.resolve(__dirname, '..', '..', '..');
/** Every node type but the config node, which the palette does not show. */
const TYPES = (Object.keys(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))['node-red'].nodes) as string[]).filter(
  (t) => t !== 'modular-device',
);

describe('node colours: one table, literals held to it', () => {
  it('covers every node type of the palette', () => TYPES.length.should.be.aboveOrEqual(17));
  for (const type of TYPES) {
    it(`${type}: its dialog's colour is COLOURS of its service`, () => {
      const html = fs.readFileSync(path.join(root, 'nodes', `${type}.html`), 'utf8');
      const m = /color: '(#[0-9A-Fa-f]{6})', \/\/ COLOURS\.(\w+)/.exec(html);
      should.exist(m, `${type}: no colour line naming COLOURS`);
      const [, literal, name] = m!;
      const service = type === 'notification-poll' ? 'io' : (['io', 'bmc', 'power'].find((s) => type.startsWith(`${s}-`)) ?? 'any');
      name.should.equal(service, `${type}: named after its service`);
      literal.should.equal(COLOURS[name as keyof typeof COLOURS], `${type}: ${literal} is not COLOURS.${name}`);
    });
  }
});
