/**
 * readingSettings (readings.ts), the one reader of every reading node's settings: io-read's
 * dialog says `per-pin` where the readings nodes say `per-field` for one msg per value.
 */
import should from 'should';
import { readingSettings } from '../../nodes/lib/node/readings';
import type { NodeDef } from '../../nodes/lib/base/node-red';

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
