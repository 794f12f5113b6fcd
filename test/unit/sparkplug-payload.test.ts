/**
 * The Sparkplug B payload codec (nodes/fleet/sparkplug/payload.ts): what we encode, Eclipse
 * Tahu's sparkplug-payload decodes to the same values (every datatype we send, is_null,
 * properties, historical, seq 0); what Tahu encodes, we decode; untrusted bytes are refused
 * with the reason, never thrown; protobufjs loads only when Sparkplug is used.
 */
import { execFileSync } from 'child_process';
import path from 'path';
import should from 'should';
import { decode, encode, fits, valueAs } from '../../nodes/fleet/sparkplug/payload';
import { DataType, DataTypeCode, MetricValue } from '../../nodes/fleet/sparkplug/types';
import { FLEET_BOUNDS, SPARKPLUG_BOUNDS } from '../../nodes/lib/pure/limits';
import { speak } from '../helpers/i18n';
import { hostDecode, hostEncode, hostEncodeFields } from '../helpers/sparkplug-host';

/** Each datatype at its edges, with the name Tahu gives it. */
const CASES: Array<[string, DataTypeCode, MetricValue]> = [
  ['Int8', DataType.Int8, -128],
  ['Int8', DataType.Int8, -1],
  ['Int8', DataType.Int8, 127],
  ['Int16', DataType.Int16, -32768],
  ['Int16', DataType.Int16, 32767],
  ['Int32', DataType.Int32, -(2 ** 31)],
  ['Int32', DataType.Int32, 2 ** 31 - 1],
  ['UInt8', DataType.UInt8, 255],
  ['UInt16', DataType.UInt16, 65535],
  ['UInt32', DataType.UInt32, 2 ** 32 - 1],
  ['Int64', DataType.Int64, -5],
  ['Int64', DataType.Int64, Number.MAX_SAFE_INTEGER],
  ['UInt64', DataType.UInt64, Number.MAX_SAFE_INTEGER],
  ['Float', DataType.Float, 1.5],
  ['Double', DataType.Double, -1234.5678],
  ['Boolean', DataType.Boolean, true],
  ['Boolean', DataType.Boolean, false],
  ['String', DataType.String, 'Grüße, 1 °C'],
  ['Text', DataType.Text, ''],
  ['DateTime', DataType.DateTime, Date.UTC(2026, 10, 28)],
];

/** A small deterministic generator: the same "random" bytes on every run. */
function bytesFrom(seed: number, length: number): Buffer {
  let x = seed;
  return Buffer.from(Array.from({ length }, () => ((x = (x * 1103515245 + 12345) % 2 ** 31), x & 0xff)));
}

describe('Sparkplug B payload (nodes/fleet/sparkplug/payload.ts)', function () {
  // Refusals are said in the runtime's language: English here.
  before(() => speak());
  it('encodes every datatype so that Tahu reads the same value and type', function () {
    const metrics = CASES.map(([, datatype, value], i) => ({ name: `m${i}`, alias: i + 1, datatype, value, timestamp: 1000 + i }));
    const read = hostDecode(encode({ timestamp: 42, seq: 0, metrics }));
    read.should.have.properties({ timestamp: 42, seq: 0 });
    read.metrics.map((m) => [m.type, m.value]).should.eql(CASES.map(([name, , value]) => [name, value]));
    read.metrics.map((m) => m.alias).should.eql(CASES.map((_, i) => i + 1));
    read.metrics.map((m) => m.timestamp).should.eql(CASES.map((_, i) => 1000 + i));
  });

  it('says is_null, properties (engUnit) and historical as Tahu reads them; NDEATH without seq', function () {
    const read = hostDecode(
      encode({
        timestamp: 1,
        seq: 255,
        metrics: [
          { name: 'Pin 1/Voltage', alias: 7, datatype: DataType.Double, isNull: true, properties: { engUnit: { type: DataType.String, value: 'mV' } } },
          { alias: 8, datatype: DataType.UInt16, value: 600, isHistorical: true, timestamp: 5 },
        ],
      }),
    );
    read.seq!.should.equal(255);
    read.metrics[0].should.eql({ name: 'Pin 1/Voltage', alias: 7, type: 'Double', value: null, properties: { engUnit: { type: 'String', value: 'mV' } } });
    read.metrics[1].should.eql({ alias: 8, type: 'UInt16', value: 600, timestamp: 5, isHistorical: true });
    hostDecode(encode({ timestamp: 1, metrics: [{ name: 'bdSeq', datatype: DataType.UInt64, value: 3 }] })).should.not.have.property('seq');
  });

  it('sends a value that is not of its datatype as is_null, never a wrong one', function () {
    fits(DataType.Int8, 128).should.be.false();
    fits(DataType.UInt16, -1).should.be.false();
    fits(DataType.Boolean, 1).should.be.false();
    const read = hostDecode(encode({ timestamp: 1, metrics: [{ name: 'x', datatype: DataType.Int8, value: 300 }] }));
    should(read.metrics[0].value).be.null();
  });

  it('decodes what Tahu encodes: every datatype, is_null, properties, alias, historical', function () {
    const metrics = CASES.filter(([name]) => name !== 'Float').map(([type, , value], i) => ({ name: `m${i}`, type, value, alias: 100 + i }));
    const got = decode(hostEncode({ seq: 9, metrics }));
    if ('refused' in got) throw new Error(got.refused);
    got.payload.seq!.should.equal(9);
    got.payload.metrics.map((m) => [m.name, m.alias, m.value]).should.eql(metrics.map((m) => [m.name, m.alias, m.value]));
    const more = decode(
      hostEncode({
        metrics: [
          { name: 'f', type: 'Float', value: 0.25, isHistorical: true, timestamp: 77 },
          { name: 'n', type: 'Int32', value: null },
          { name: 'p', type: 'Boolean', value: true, properties: { engUnit: { type: 'String', value: '%' }, scale: { type: 'Int16', value: -2 } } },
        ],
      }),
    );
    if ('refused' in more) throw new Error(more.refused);
    more.payload.metrics.should.eql([
      { name: 'f', datatype: DataType.Float, value: 0.25, isHistorical: true, timestamp: 77 },
      { name: 'n', datatype: DataType.Int32, isNull: true },
      {
        name: 'p',
        datatype: DataType.Boolean,
        value: true,
        properties: { engUnit: { type: DataType.String, value: '%' }, scale: { type: DataType.Int16, value: -2 } },
      },
    ]);
  });

  it('keeps a value without datatype raw (a command by alias), read later as the declared type', function () {
    const got = decode(
      hostEncodeFields({
        metrics: [
          { alias: 3, intValue: 0xff },
          { alias: 4, intValue: 0xffffffff },
          { alias: 5, stringValue: 'on' },
        ],
      }),
    );
    if ('refused' in got) throw new Error(got.refused);
    got.payload.metrics.should.eql([
      { alias: 3, raw: { field: 'intValue', value: 0xff } },
      { alias: 4, raw: { field: 'intValue', value: 0xffffffff } },
      { alias: 5, raw: { field: 'stringValue', value: 'on' } },
    ]);
    const [own, extended, text] = got.payload.metrics.map((m) => m.raw!);
    // An Int8's -1 in its own width (0xFF) or sign-extended to 32 bits (Tahu's Java): both -1.
    valueAs(DataType.Int8, own).should.eql({ value: -1 });
    valueAs(DataType.Int8, extended).should.eql({ value: -1 });
    valueAs(DataType.UInt8, own).should.eql({ value: 255 });
    valueAs(DataType.UInt8, extended).should.eql({ refused: '4294967295 is outside the UInt8 range' });
    valueAs(DataType.Int16, { field: 'intValue', value: 0x10000 }).should.eql({ refused: '65536 is outside the Int16 range' });
    valueAs(DataType.Boolean, text).should.eql({ refused: 'a Boolean value must come in booleanValue, got stringValue' });
    // Tahu's encoder puts UInt32 in long_value: read from there too.
    const u32 = decode(hostEncode({ metrics: [{ name: 'u', type: 'UInt32', value: 4000000000 }] }));
    if ('refused' in u32) throw new Error(u32.refused);
    u32.payload.metrics[0].value!.should.equal(4000000000);
  });

  it('refuses a payload over the bound before decoding it', function () {
    const got = decode(Buffer.alloc(SPARKPLUG_BOUNDS.payloadBytes + 1));
    got.should.eql({ refused: `a payload must be at most ${SPARKPLUG_BOUNDS.payloadBytes} bytes, got ${SPARKPLUG_BOUNDS.payloadBytes + 1}` });
  });

  it('refuses malformed bytes, and never throws on any bytes', function () {
    decode(Buffer.from([0xff, 0xff, 0xff]))
      .should.have.property('refused')
      .match(/^not a Sparkplug B payload/);
    decode(Buffer.from([0x12, 0x05, 0x0a]))
      .should.have.property('refused')
      .match(/^not a Sparkplug B payload/);
    let refused = 0;
    for (let seed = 1; seed <= 500; seed++) {
      const got = decode(bytesFrom(seed, 1 + (seed % 200)));
      if ('refused' in got) refused++;
    }
    refused.should.be.above(0, 'random bytes were refused, and none threw');
  });

  it('refuses more than commandMetrics metrics, a name too long, a value out of its range, a type it does not read', function () {
    const many = Array.from({ length: SPARKPLUG_BOUNDS.commandMetrics + 1 }, (_, i) => ({ name: `m${i}`, type: 'Boolean', value: true }));
    decode(hostEncode({ metrics: many })).should.eql({
      refused: `at most ${SPARKPLUG_BOUNDS.commandMetrics} metrics in one payload, got ${SPARKPLUG_BOUNDS.commandMetrics + 1}`,
    });
    const long = 'x'.repeat(FLEET_BOUNDS.commandBytes + 1);
    decode(hostEncode({ metrics: [{ name: long, type: 'Boolean', value: true }] }))
      .should.have.property('refused')
      .match(/a name of at most/);
    decode(hostEncode({ metrics: [{ name: 's', type: 'String', value: long }] }))
      .should.have.property('refused')
      .match(/a text of at most/);
    // Tahu writes 300 in an Int8's int_value unchecked: out of range, refused, never wrapped.
    decode(hostEncode({ metrics: [{ name: 'i', type: 'Int8', value: 300 }] })).should.eql({ refused: 'metric "i": 300 is outside the Int8 range' });
    decode(hostEncode({ metrics: [{ name: 'b', type: 'Bytes', value: Buffer.from([1]) }] }))
      .should.have.property('refused')
      .match(/not a datatype we read/);
  });

  it('loads protobufjs only when a payload is encoded or decoded', function () {
    const file = path.resolve(__dirname, '../../nodes/fleet/sparkplug/payload.js');
    const script = `require(${JSON.stringify(file)}); const loaded = () => Object.keys(require.cache).some((k) => k.includes('/protobufjs/'));
      const before = loaded(); require(${JSON.stringify(file)}).decode(Buffer.from([8, 1])); console.log(JSON.stringify([before, loaded()]));`;
    JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })).should.eql([false, true]);
  });
});
