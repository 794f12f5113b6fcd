import fs from 'fs';
import should from 'should';
import {
  LIMITS,
  LimitName,
  check,
  checkBool,
  describe as describeValue,
  isEnvReference,
  parseInteger,
  parseNumber,
  rangeText,
} from '../../nodes/lib/pure/limits';
import { checkPwm, checkPowerConfig, pwmDutyPercent, pwmFrequencyHz } from '../../nodes/lib/pure/limit-rules';
import type { Check } from '../../nodes/lib/pure/limits';
import type { PhraseValue } from '../../nodes/lib/pure/phrase';
import { catalogsReady, english } from '../helpers/i18n';
import { REPO } from '../helpers/source-files';

/** A check's answer as a reader gets it: `true`, or the refusal in English (Node-RED's i18n). */
function said(result: Check | PhraseValue): true | string {
  return result === true ? true : english(result);
}

/**
 * Integer limits at every boundary: [name, min, max, values allowed outside the range].
 * The numbers are written out again on purpose: this table is the documented limits as a
 * reader of the spec and the reference would list them, and the test proves limits.ts
 * says the same.
 */
const INT_BOUNDS: Array<[LimitName, number, number, number[]]> = [
  ['slot', 0, 65535, []],
  ['pin', 1, 6, []],
  ['threshold_mV', 50, 25000, []],
  ['debounce_time_ms', 0, 1000, []],
  ['current_5_volt', 0, 300, []],
  ['current_12_volt', 0, 500, []],
  ['prescaler', 1, 65534, []],
  ['period', 2, 65535, []],
  ['watchdog_timeout', 1000, 600000, [0]],
  ['sw_shutdown_timeout', 10000, 600000, []],
  ['bootloader_timeout', 0, 3600000, []],
  ['buzzer_mode', 0, 5, []],
  ['buzzer_duration', 1, 1000, []],
  ['usb_port', 2, 8, []],
  // The spec's lower bounds are exclusive (nothing shows a 0.9 device taking them); its sample sets the upper ones.
  ['limit_3v3', 1001, 5950, []],
  ['limit_5v0', 1001, 4950, []],
  ['limit_12v', 101, 2400, []],
  // Alarms (ISA-18.2 / IEC 62682): four priorities, a shelf of at most a day, delays of at most 10 minutes.
  ['alarm_priority', 1, 4, []],
  ['shelve_duration', 1000, 86400000, []],
  ['alarm_delay', 0, 600000, []],
];

const WORDS: Array<[LimitName, string[]]> = [
  ['service', ['io', 'bmc', 'power']],
  ['input_mode', ['analog', 'digital']],
  ['threshold_trigger', ['disabled', 'rising', 'falling']],
  ['interrupt_trigger', ['disabled', 'rising', 'falling', 'pulse']],
  ['counter_state', ['enabled', 'disabled']],
  ['output_state', ['high', 'low']],
  ['rail', ['5_volt', '12_volt']],
  ['watchdog_shutdown', ['start']],
  ['reset_confirmation', ['yes']],
];

/** Values no integer field accepts, whatever its range. */
const NOT_INTEGERS: unknown[] = [1.5, NaN, Infinity, -Infinity, '5', '', null, undefined, true, [], {}, [3], { pin: 1 }];

describe('limits.ts', function () {
  before(() => catalogsReady);
  describe('integer limits at their boundaries', function () {
    for (const [name, min, max, also] of INT_BOUNDS) {
      it(`${name}: ${also.length ? `${also.join(',')} or ` : ''}${min}..${max}`, function () {
        should(said(check(name, min))).be.true();
        should(said(check(name, max))).be.true();
        for (const value of also) should(said(check(name, value))).be.true();
        const below = min - 1;
        if (!also.includes(below)) {
          should(said(check(name, below)))
            .be.a.String()
            .and.match(new RegExp(`^${name} must be .*${min} to ${max}.*, got ${below}$`));
        }
        should(said(check(name, max + 1))).equal(`${name} must be ${english(rangeText(LIMITS[name]))}, got ${max + 1}`);
        for (const bad of NOT_INTEGERS)
          should(said(check(name, bad)))
            .be.a.String()
            .and.startWith(`${name} must be`);
      });
    }
    it('names the field, the value and the range (the message users see)', function () {
      should(said(check('threshold_mV', 25001))).equal('threshold_mV must be an integer from 50 to 25000 mV, got 25001');
      should(said(check('watchdog_timeout', 999, 'timeout'))).equal('timeout must be 0 or an integer from 1000 to 600000 ms, got 999');
      should(said(check('pin', '1/../../hard_reset'))).equal('pin must be an integer from 1 to 6, got "1/../../hard_reset"');
    });
  });

  describe('word limits', function () {
    for (const [name, words] of WORDS) {
      it(`${name}: ${words.join('|')}`, function () {
        for (const word of words) should(said(check(name, word))).be.true();
        for (const bad of [words[0].toUpperCase(), ` ${words[0]}`, '', 1, null, undefined, true, [words[0]]]) {
          should(said(check(name, bad)))
            .be.a.String()
            .and.startWith(`${name} must be one of ${words.join(', ')}, got`);
        }
      });
    }
  });

  it('fan_mode takes only 0, 20, 40, 60, 80, 100', function () {
    for (const mode of [0, 20, 40, 60, 80, 100]) should(said(check('fan_mode', mode))).be.true();
    for (const bad of [-20, 10, 19, 21, 50, 99, 101, 120, 20.5, '20', null]) {
      should(said(check('fan_mode', bad)))
        .be.a.String()
        .and.startWith('fan_mode must be one of 0, 20, 40, 60, 80, 100, got');
    }
  });

  it('booleans are booleans', function () {
    should(said(checkBool('state', true))).be.true();
    should(said(checkBool('state', false))).be.true();
    for (const bad of [0, 1, 'true', null, undefined])
      should(said(checkBool('state', bad)))
        .be.a.String()
        .and.startWith('state must be true or false');
  });

  describe('PWM', function () {
    it('accepts time_on from 1 to period − 2 and refuses the rest', function () {
      should(said(checkPwm({ prescaler: 47, period: 100, time_on: 1 }))).be.true();
      should(said(checkPwm({ prescaler: 47, period: 100, time_on: 98 }))).be.true();
      should(said(checkPwm({ prescaler: 47, period: 100, time_on: 99 }))).equal('time_on must be an integer from 1 to 98 (below period − 1), got 99');
      should(said(checkPwm({ prescaler: 47, period: 100, time_on: 100 }))).be.a.String();
      should(said(checkPwm({ prescaler: 47, period: 100, time_on: 0 })))
        .be.a.String()
        .and.startWith('time_on must be');
      should(said(checkPwm({ prescaler: 47, period: 100, time_on: 1.5 }))).be.a.String();
      should(said(checkPwm({ prescaler: 47, period: 2, time_on: 1 }))).equal('time_on must be at least 1 and below period − 1, got 1');
    });
    it('checks prescaler and period bounds first', function () {
      should(said(checkPwm({ prescaler: 0, period: 100, time_on: 50 }))).equal('prescaler must be an integer from 1 to 65534, got 0');
      should(said(checkPwm({ prescaler: 65535, period: 100, time_on: 50 })))
        .be.a.String()
        .and.startWith('prescaler must be');
      should(said(checkPwm({ prescaler: 47, period: 65536, time_on: 50 })))
        .be.a.String()
        .and.startWith('period must be');
      should(said(checkPwm({ prescaler: 47, period: 1, time_on: 0 })))
        .be.a.String()
        .and.startWith('period must be');
    });
    it('refuses an output frequency above 1 MHz and computes as the device does', function () {
      // 48 MHz / (1 + 1) / 24 = exactly 1 MHz: the bound itself is allowed.
      should(pwmFrequencyHz({ prescaler: 1, period: 24 })).equal(1_000_000);
      should(said(checkPwm({ prescaler: 1, period: 24, time_on: 12 }))).be.true();
      should(said(checkPwm({ prescaler: 1, period: 23, time_on: 12 }))).match(/^PWM frequency must be at most 1000000 Hz, got 1043478 Hz/);
      should(pwmFrequencyHz({ prescaler: 47, period: 1000 })).equal(1000);
      should(pwmDutyPercent({ period: 100, time_on: 60 })).equal(60);
    });
  });

  describe('power-management configuration', function () {
    const good = () => [1, 2, 3, 4, 5, 6].map((pin) => ({ pin, rail: pin % 2 ? '5_volt' : '12_volt', current: 100 }));
    it('accepts six entries with per-rail currents at their bounds', function () {
      should(said(checkPowerConfig(good()))).be.true();
      const bounds = good();
      bounds[0].current = 300; // 5_volt cap
      bounds[1].current = 500; // 12_volt cap
      bounds[2].current = 0;
      should(said(checkPowerConfig(bounds))).be.true();
    });
    it('refuses a wrong count, a repeated pin, a bad rail and a current over the rail cap', function () {
      should(said(checkPowerConfig(good().slice(0, 5)))).equal('config must be an array of 6 entries (one per pin), got 5 entries');
      should(said(checkPowerConfig('x'))).equal('config must be an array of 6 entries (one per pin), got "x"');
      const twice = good();
      twice[5].pin = 1;
      should(said(checkPowerConfig(twice))).equal('config[5].pin must name each pin once, got 1 twice');
      const rail = good() as Array<Record<string, unknown>>;
      rail[2].rail = '3_volt';
      should(said(checkPowerConfig(rail))).equal('config[2].rail must be one of 5_volt, 12_volt, got "3_volt"');
      const over5 = good();
      over5[0].current = 301;
      should(said(checkPowerConfig(over5))).equal('config[0].current must be an integer from 0 to 300 mA, got 301');
      const over12 = good();
      over12[1].current = 501;
      should(said(checkPowerConfig(over12))).equal('config[1].current must be an integer from 0 to 500 mA, got 501');
      const nullEntry = good() as unknown[];
      nullEntry[3] = null;
      should(said(checkPowerConfig(nullEntry))).equal('config[3] must be an object {pin, rail, current}, got null');
    });
  });

  it('limits.ts never imports limit-rules.ts: the rules read the table, the table stands alone (no loop)', function () {
    const imports = (file: string) => /from '[./]*(?:[\w/-]*\/)?limit-rules'/.test(fs.readFileSync(file, 'utf8'));
    should(imports(`${REPO}/nodes/lib/pure/limits.ts`)).be.false();
    should(imports(`${REPO}/nodes/io-output.ts`)).be.true('the pattern finds an import of the rules');
  });

  describe('number and text limits (alarms)', function () {
    it('numbers: fractions within the bounds, never NaN, infinite or text', function () {
      for (const ok of [0, -2.5, 1e9, -1e9, 0.001]) should(said(check('alarm_limit', ok))).be.true();
      should(said(check('alarm_limit', 1e9 + 1))).equal('alarm_limit must be a number from -1000000000 to 1000000000, got 1000000001');
      for (const bad of [NaN, Infinity, -Infinity, '5', null, undefined, true, [1]])
        should(said(check('alarm_limit', bad))).startWith('alarm_limit must be a number');
      should(said(check('alarm_deadband', 0.5))).be.true();
      should(said(check('alarm_deadband', -0.1))).equal('alarm_deadband must be a number from 0 to 1000000000, got -0.1');
    });
    it('text: length from min to max, of the listed characters where given', function () {
      should(said(check('alarm_id', 'rail-12v.hi:slot_3'))).be.true();
      should(said(check('alarm_id', 'a'.repeat(64)))).be.true();
      should(said(check('alarm_id', 'a'.repeat(65)))).startWith('alarm_id must be text of 1 to 64 characters from A-Za-z0-9_.:-, got');
      for (const bad of ['', 'a/b', 'a+b', 'a#', 'ä', ' a', 7, null]) should(said(check('alarm_id', bad))).startWith('alarm_id must be text of 1 to 64');
      should(said(check('alarm_user', ''))).be.true();
      should(said(check('alarm_comment', 'x'.repeat(500)))).be.true();
      should(said(check('alarm_comment', 'x'.repeat(501)))).startWith('alarm_comment must be text of 0 to 500 characters, got "xxx');
    });
  });

  describe('editor text', function () {
    it('parseInteger reads plain decimal integers only', function () {
      should(parseInteger('42')).equal(42);
      should(parseInteger(' -7 ')).equal(-7);
      should(parseInteger('+5')).equal(5);
      for (const text of ['4.2', '1e3', '0x10', '', '12 34', 'abc']) should(parseInteger(text)).equal(text);
      should(parseInteger(17)).equal(17);
    });
    it('parseNumber reads decimal numbers with fraction and exponent only', function () {
      should(parseNumber('42')).equal(42);
      should(parseNumber(' -7.25 ')).equal(-7.25);
      should(parseNumber('.5')).equal(0.5);
      should(parseNumber('1e3')).equal(1000);
      for (const text of ['0x10', '', '1.2.3', '12 34', 'abc', 'Infinity', 'NaN', '1e']) should(parseNumber(text)).equal(text);
      should(parseNumber(17.5)).equal(17.5);
    });
    it('isEnvReference spots ${VAR} and $(VAR) only', function () {
      should(isEnvReference('${SLOT}')).be.true();
      should(isEnvReference('$(DEVICE_URL)')).be.true();
      should(isEnvReference('x${SLOT}')).be.false();
      should(isEnvReference('42')).be.false();
    });
    it('describe keeps messages short and never dumps objects', function () {
      should(describeValue('x'.repeat(100))).have.length(42);
      should(said(describeValue({ password: 'secret' }))).equal('an object');
      should(said(describeValue([1]))).equal('an array');
      should(said(describeValue(undefined))).equal('nothing');
    });
  });
});
