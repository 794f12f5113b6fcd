/**
 * readingSettings (readings.ts), the one reader of every reading node's settings: io-read's
 * dialog says `per-pin` where the readings nodes say `per-field` for one msg per value.
 */
import fs from 'fs';
import path from 'path';
import should from 'should';
import { readingSettings } from '../../nodes/lib/action/readings';
import type { NodeDef } from '../../nodes/lib/base/node-red';
import { readingsRows, ROWS_MARK } from '../../nodes/editor/readings-rows';

const root = path.resolve(__dirname, '..', '..', '..');

const def = (fields: Record<string, unknown>): NodeDef => ({ id: 'n1', type: 'test', ...fields });

describe('readingSettings', () => {
  it("one msg per value when the dialog's output is the node's word for it", () => {
    readingSettings(def({ output: 'per-field' }), [['stats']]).perValue.should.be.true();
    readingSettings(def({ output: 'per-pin' }), [['input', 'values']], 'per-pin').perValue.should.be.true();
    readingSettings(def({ output: 'per-pin' }), [['stats']]).perValue.should.be.false();
    readingSettings(def({ output: 'record' }), [['input', 'values']], 'per-pin').perValue.should.be.false();
  });

  it('defaults: no polling, every read sent, the endpoints kept as given', () => {
    const s = readingSettings(def({}), [['voltage'], ['temperature']]);
    s.should.have.properties({ interval: 0, onlyOnChange: false, perValue: false });
    s.endpoints.should.eql([['voltage'], ['temperature']]);
  });

  it('a bad interval or deadband is refused naming the field', () => {
    should(() => readingSettings(def({ interval: '-5' }), [['stats']])).throw(/interval/);
    should(() => readingSettings(def({ deadband: 'abc' }), [['stats']])).throw(/deadband/);
  });
});

describe("the readings dialogs' shared rows (editor/readings-rows.ts)", () => {
  const DIALOGS = [
    { type: 'bmc-readings', layout: { shown: ['voltage', 'temperature'], stacked: false } },
    { type: 'power-readings', layout: { shown: ['stats', 'temperature', 'protectionlog', 'source'], stacked: true } },
  ];
  for (const { type, layout } of DIALOGS) {
    it(`${type}: its template marks the place of the rows, and its script gives the layout its records are shown in`, () => {
      const html = fs.readFileSync(path.join(root, 'nodes', `${type}.html`), 'utf8');
      html.should.containEql(ROWS_MARK);
      html.should.containEql(`shown: [${layout.shown.map((r) => `'${r}'`).join(', ')}], stacked: ${layout.stacked}`);
    });

    it(`${type}: a field for every setting of the dialog but its Module and Name, in its own words`, () => {
      const rows = readingsRows(type, layout);
      for (const prop of [...layout.shown, 'interval', 'onlyOnChange', 'deadband', 'output']) rows.should.containEql(`id="node-input-${prop}"`);
      (rows.match(/id="node-input-/g) ?? []).length.should.equal(layout.shown.length + 4);
      (rows.match(/data-i18n="([\w-]+)\./g) ?? []).every((k) => k === `data-i18n="${type}.`).should.be.true();
      rows.should.containEql(`class="form-row ${type}-deadband"`);
    });
  }
});
