/**
 * Limit refusals in both languages: limits.ts (with limit-rules.ts) and checks.ts answer with phrases (a key of
 * `modular-device.limits` and values), and Node-RED's own i18n says them, in the runtime
 * and in the editor alike. Here that i18n reads the package's catalogs in en-US and de.
 */
import fs from 'fs';
import path from 'path';
import should from 'should';
import { check, Check, describe as describeValue } from '../../nodes/lib/pure/limits';
import { checkKeepAlive, checkPowerConfig, checkPwm } from '../../nodes/lib/pure/limit-rules';
import { render } from '../../nodes/lib/pure/phrase';
import { catalogsReady, english, inLanguage } from '../helpers/i18n';

/** The source tree (dist/test/unit → repo root): the catalogs and the code that uses them. */
const root = path.resolve(__dirname, '..', '..', '..');
const limitsCatalog = (lang: string): Record<string, string> =>
  JSON.parse(fs.readFileSync(path.join(root, 'locales', lang, 'modular-device.json'), 'utf8'))['modular-device'].limits;
/** Every `phrase('limits.<key>'` of the checking code. */
const usedKeys = [
  ...new Set(
    ['checks.ts', 'limits.ts', 'limit-rules.ts'].flatMap((f) =>
      [...fs.readFileSync(path.join(root, 'nodes', 'lib', 'pure', f), 'utf8').matchAll(/phrase\('limits\.(\w+)'/g)].map((m) => m[1]),
    ),
  ),
].sort();

function german(result: Check): string {
  if (result === true) throw new Error('expected a refusal');
  return render(result, inLanguage('de'));
}

/** Refusals covering every phrase of the catalog. */
const REFUSALS: Array<() => Check> = [
  () => check('threshold_mV', 25001),
  () => check('watchdog_timeout', 999, 'timeout'),
  () => check('rail', undefined),
  () => check('pin', [1]),
  () => check('pin', { pin: 1 }),
  () => check('pin', Symbol('x')),
  () => check('fan_mode', 30),
  () => check('input_mode', 'analogue', 'mode'),
  () => checkPwm({ prescaler: 47, period: 100, time_on: 99 }),
  () => checkPwm({ prescaler: 47, period: 2, time_on: 1 }),
  () => checkPwm({ prescaler: 1, period: 2, time_on: 0 }),
  () => checkPwm({ prescaler: 1, period: 20, time_on: 10 }),
  () => checkKeepAlive(1000, 0),
  () => checkPowerConfig([]),
  () => checkPowerConfig('all'),
  () => checkPowerConfig([1, 2, 3, 4, 5, 6]),
  () => checkPowerConfig(Array.from({ length: 6 }, () => ({ pin: 1, rail: '5_volt', current: 0 }))),
  () => check('alarm_deadband', -1),
  () => check('alarm_comment', 'x'.repeat(501)),
  () => check('alarm_id', 'a/b'),
];

describe('limit messages in both languages', function () {
  before(() => catalogsReady);

  it('the catalog has exactly the phrases the checking code uses', function () {
    should(Object.keys(limitsCatalog('en-US')).sort()).eql(usedKeys);
    should(Object.keys(limitsCatalog('de')).sort()).eql(usedKeys);
  });

  it('every refusal is said whole in both languages: no placeholder left, no message id', function () {
    const said = new Set<string>();
    for (const refusal of REFUSALS) {
      for (const text of [english(refusal() as Exclude<Check, true>), german(refusal())]) {
        should(text).not.match(/__\w+__|@modular-device|limits\./, text);
        said.add(text);
      }
    }
    should(said.size).equal(REFUSALS.length * 2, 'the German differs from the English, and each refusal from every other');
  });

  it('in English they name field, value and range', function () {
    should(english(check('threshold_mV', 25001) as Exclude<Check, true>)).equal('threshold_mV must be an integer from 50 to 25000 mV, got 25001');
    should(english(checkPwm({ prescaler: 1, period: 20, time_on: 10 }) as Exclude<Check, true>)).equal(
      'PWM frequency must be at most 1000000 Hz, got 1200000 Hz (prescaler 1, period 20)',
    );
    should(english(describeValue([]))).equal('an array');
  });

  it('in German they keep field, value and range', function () {
    should(german(check('threshold_mV', 25001))).equal('threshold_mV muss eine ganze Zahl von 50 bis 25000 mV sein, erhalten: 25001');
    should(german(check('watchdog_timeout', 999, 'timeout'))).equal('timeout muss 0 oder eine ganze Zahl von 1000 bis 600000 ms sein, erhalten: 999');
    should(german(check('rail', undefined))).equal('rail muss eines von 5_volt, 12_volt sein, erhalten: nichts');
    should(german(checkPwm({ prescaler: 47, period: 100, time_on: 99 }))).equal(
      'time_on muss eine ganze Zahl von 1 bis 98 (unter period − 1) sein, erhalten: 99',
    );
    should(german(checkPowerConfig([]))).equal('config muss ein Array mit 6 Einträgen sein (einer je Pin), erhalten: 0 Einträge');
  });
});
