/**
 * Untrusted answers (device/answer.ts, device/version-record.ts): the shape bounds, and that the
 * functions reading device text look at a bounded prefix only. The latter is what keeps the
 * event loop free whatever a device sends, shown without timing anything: the result for a
 * crafted text equals the result for its first SCAN_CHARS characters, however long the rest.
 */
import should from 'should';
import fc from 'fast-check';
import { brokenEnvelopeMessage, deviceText, errorMessage, parseAnswer, printable, SCAN_CHARS, shapeProblem } from '../../nodes/lib/device/answer';
import { ANSWER_BOUNDS } from '../../nodes/lib/pure/limits';
import { listedSlots, parseVersionRecord, slotProblem } from '../../nodes/lib/device/version-record';

function nested(depth: number): unknown {
  let value: unknown = 0;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe('untrusted answers', () => {
  describe('parseAnswer: JSON within the depth and value bounds', () => {
    it('takes the records of the interface as they are', () => {
      const record = { status: 'success', notification: [{ pin: 1, under_voltage_alert: true }], version: { api: { major: 1, minor: 0, patch: 0 } } };
      parseAnswer(JSON.stringify(record)).should.eql({ ok: true, value: record });
    });
    it(`refuses more than ${ANSWER_BOUNDS.maxDepth} levels of nesting, also 2,000 and 200,000 (no stack overflow)`, () => {
      parseAnswer(JSON.stringify(nested(ANSWER_BOUNDS.maxDepth))).ok.should.be.true();
      parseAnswer(JSON.stringify(nested(ANSWER_BOUNDS.maxDepth + 1))).should.eql({ ok: false, problem: 'depth' });
      for (const depth of [2000, 200000]) parseAnswer(`${'['.repeat(depth)}${']'.repeat(depth)}`).should.eql({ ok: false, problem: 'depth' });
      parseAnswer(`{"a":${'{"a":'.repeat(3000)}1${'}'.repeat(3001)}`).should.eql({ ok: false, problem: 'depth' });
    });
    it(`refuses more than ${ANSWER_BOUNDS.maxValues} values, counted before they are walked`, () => {
      parseAnswer(JSON.stringify(new Array(ANSWER_BOUNDS.maxValues - 1).fill(0))).ok.should.be.true();
      parseAnswer(JSON.stringify(new Array(ANSWER_BOUNDS.maxValues).fill(0))).should.eql({ ok: false, problem: 'values' });
      should(shapeProblem(new Array(1_000_000).fill({ a: 1 }))).equal('values');
    });
    it('refuses what is not JSON', () => {
      for (const text of ['', '<html>', '{"a":', 'NaN', '\u0000']) parseAnswer(text).should.eql({ ok: false, problem: 'json' });
    });
  });

  describe('device text: printable, short, read only up to a bound', () => {
    it('printable: control, format and bidi characters become one space; at most maxTextChars', () => {
      printable('a\u001b[31mb\r\nc\u202ed\u0000e').should.equal('a [31mb c d e');
      printable('x'.repeat(1000)).length.should.equal(ANSWER_BOUNDS.maxTextChars);
      printable('   ').should.equal('');
    });
    it("deviceText: nginx's page title, else the text without markup", () => {
      deviceText('<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr><center>nginx</center></body></html>').should.equal(
        '502 Bad Gateway',
      );
      deviceText('<p>Service <b>down</b></p>').should.equal('Service down');
      deviceText('<<<<<<').should.equal('');
    });
    it('brokenEnvelopeMessage: the message of an envelope broken by an unescaped quote (real §2)', () => {
      should(brokenEnvelopeMessage('{\n "status": "error",\n "code": 400,\n "message": "say "hi" twice"\n}')).equal('say "hi" twice');
      should(brokenEnvelopeMessage('{"status": "ok", "message": "x"}')).be.undefined();
      should(brokenEnvelopeMessage('{"status":"error"' + '"message":"'.repeat(3000))).be.undefined();
    });
    it('errorMessage: the envelope message first, then the broken envelope, then the page', () => {
      const body = '{"status": "error", "code": 422, "message": "Power config missing"}';
      errorMessage(body, parseAnswer(body)).should.equal('Power config missing');
      errorMessage('<title>401 Authorization Required</title>', parseAnswer('<title>')).should.equal('401 Authorization Required');
    });
    it('every reader gives the same result for a crafted text as for its first SCAN_CHARS characters (bounded work)', () => {
      const crafted = fc.oneof(fc.constantFrom('<', '"message":"', '{"status":"error"', '<title>', '"', ' ', '\\', '>'), fc.string({ maxLength: 8 }));
      fc.assert(
        fc.property(fc.array(crafted, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 20000 }), (parts, repeat) => {
          const text = parts.join('').repeat(Math.ceil((SCAN_CHARS * 2 + repeat) / Math.max(1, parts.join('').length)));
          const prefix = text.slice(0, SCAN_CHARS);
          deviceText(text).should.equal(deviceText(prefix));
          printable(text).should.equal(printable(prefix));
          // Longer than the bound: not read at all.
          should(brokenEnvelopeMessage(text)).be.undefined();
        }),
        { numRuns: 300 },
      );
    });
  });

  describe('version record', () => {
    const good = {
      version: { api: { major: 1, minor: 0, patch: 2 }, service: { major: 2 } },
      devices: [{ slot_number: 2, extra: 'x' }, { slot_number: 3 }],
      driver_session: 'abc\u001b[0m',
    };
    it('keeps only the fields the package uses, each checked', () => {
      parseVersionRecord(good)!.should.eql({
        version: { api: { major: 1, minor: 0, patch: 2 } },
        devices: [{ slot_number: 2 }, { slot_number: 3 }],
        driver_session: 'abc [0m',
      });
    });
    it('refuses anything else', () => {
      for (const bad of [
        null,
        [],
        'x',
        { version: {}, devices: [] },
        { ...good, devices: [{ slot_number: -1 }] },
        { ...good, devices: [null] },
        { ...good, devices: 'all' },
        { ...good, version: { api: { major: '1', minor: 0, patch: 0 } } },
      ]) {
        should(parseVersionRecord(bad)).be.undefined();
      }
    });
    it('lists at most 16 slots in a message', () => {
      const many = parseVersionRecord({ ...good, devices: Array.from({ length: 5000 }, (_, i) => ({ slot_number: i })) })!;
      listedSlots(many).split(', ').length.should.equal(17);
      slotProblem(many, 'io', 9999)!.length.should.be.below(120);
      should(slotProblem(many, 'io', 3)).be.undefined();
    });
  });
});
