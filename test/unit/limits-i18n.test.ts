import should from 'should';
import fs from 'fs';
import path from 'path';
import { check, checkPowerConfig, checkPwm, PHRASES, PhraseKey, useTemplates } from '../../nodes/lib/limits';

/** The catalogs as Node-RED reads them, from the source tree (dist/test/unit → repo root). */
const root = path.resolve(__dirname, '..', '..', '..');
const catalog = (lang: string): Record<string, string> =>
  JSON.parse(fs.readFileSync(path.join(root, 'locales', lang, 'modular-device.json'), 'utf8'))['modular-device'].limits;

describe('limit messages in both languages', function () {
  afterEach(() => useTemplates(() => undefined));

  it('the English catalog says exactly what limits.ts says by default', function () {
    should(catalog('en-US')).eql({ ...PHRASES });
  });

  it('the German catalog has every phrase, with the same slots', function () {
    const de = catalog('de');
    should(Object.keys(de).sort()).eql(Object.keys(PHRASES).sort());
    const slots = (t: string) => (t.match(/\{\{\w+\}\}/g) ?? []).sort();
    for (const key of Object.keys(PHRASES) as PhraseKey[]) should(slots(de[key])).eql(slots(PHRASES[key]), key);
  });

  it('with the German templates the messages are German and keep field, value and range', function () {
    const de = catalog('de');
    useTemplates((key) => de[key]);
    should(check('threshold_mV', 25001)).equal('threshold_mV muss eine ganze Zahl von 50 bis 25000 mV sein, erhalten: 25001');
    should(check('watchdog_timeout', 999, 'timeout')).equal('timeout muss 0 oder eine ganze Zahl von 1000 bis 600000 ms sein, erhalten: 999');
    should(check('rail', undefined)).equal('rail muss eines von 5_volt, 12_volt sein, erhalten: nichts');
    should(checkPwm({ prescaler: 47, period: 100, time_on: 99 })).equal('time_on muss eine ganze Zahl von 1 bis 98 (unter period − 1) sein, erhalten: 99');
    should(checkPowerConfig([])).equal('config muss ein Array mit 6 Einträgen sein (einer je Pin), erhalten: 0 Einträge');
  });

  it('without templates (the simulator, a device) the messages stay English', function () {
    should(check('threshold_mV', 25001)).equal('threshold_mV must be an integer from 50 to 25000 mV, got 25001');
  });
});
