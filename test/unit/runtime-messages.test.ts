/**
 * How the package's runtime texts read, through Node-RED's real
 * i18n and its real debug encoding:
 *  - a refused value names the field as its dialog labels it, the wire name in brackets,
 *    in every language, and every such label is in every catalog;
 *  - an error's name says what happened, and its cause reads as text where Node-RED makes
 *    text of it (the debug sidebar, for an error nobody caught);
 *  - every refusal of a base URL is the one sentence of the dialog's URL field.
 */
import fs from 'fs';
import { sourceFiles } from '../helpers/source-files';
import path from 'path';
import should from 'should';
import { DeviceError, invalidInput, statusText } from '../../nodes/lib/base/errors';
import { check, labelled } from '../../nodes/lib/pure/limits';
import { spoken } from '../../nodes/lib/base/i18n';
import { parseBaseUrl } from '../../nodes/lib/device/wire-path';
import { inLanguage, nodeRedPackage, runtimeTranslate, speak } from '../helpers/i18n';

const root = path.resolve(__dirname, '..', '..', '..');
const LANGUAGES = ['en-US', 'de'];
const label = (lang: string, type: string, key: string): unknown =>
  JSON.parse(fs.readFileSync(path.join(root, 'locales', lang, `${type}.json`), 'utf8'))[type].label?.[key];

/** Every `labelled('<type>', '<wire>'[, '<label>'])` in nodes/ with literal arguments. */
function labelsUsed(): Array<{ type: string; key: string }> {
  const files = [
    ...sourceFiles('nodes', false),
    ...sourceFiles('nodes/lib'),
    ...sourceFiles('nodes/sidebar', false),
    ...sourceFiles('nodes/sidebar/runtime'),
    ...sourceFiles('nodes/editor', false),
  ];
  const used: Array<{ type: string; key: string }> = [];
  for (const file of files) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/labelled\('([a-z-]+)', '(\w+)'(?:, '(\w+)')?\)/g)) used.push({ type: m[1], key: m[3] ?? m[2] });
  }
  return used;
}

describe('runtime messages read like the dialog', function () {
  before(() => speak());
  afterEach(() => speak());

  it('every field a refusal names by its dialog label has that label in every language', function () {
    const used = labelsUsed();
    should(used.length).be.above(25);
    for (const lang of LANGUAGES) {
      const missing = used.filter(({ type, key }) => typeof label(lang, type, key) !== 'string');
      should(missing).eql([], `labels missing in ${lang}`);
    }
  });

  it('a refusal names the field as the dialog does, with the wire name in brackets', async function () {
    const refusal = check('limit_5v0', 5000, labelled('power-limits', 'limit_5v0'));
    should(spoken(refusal as never)).equal('5 V rail (limit_5v0) must be an integer from 1001 to 4950 mA, got 5000');
    await speak(inLanguage('de'));
    should(spoken(refusal as never)).startWith(`${label('de', 'power-limits', 'limit_5v0')} (limit_5v0) muss `);
    should(spoken(check('duty_percent', 101, labelled('io-output', 'duty')) as never)).startWith(`${label('de', 'io-output', 'duty')} (duty) muss `);
    await speak();
  });

  it('a refused msg is an InvalidInputError (nothing was sent); a failed exchange a DeviceError', function () {
    const refused = invalidInput(check('pin', 7, labelled('io-output', 'pin')) as never);
    // What a Catch node shows: Node-RED puts the error's toString() on msg.error.message.
    should(refused.toString()).equal('InvalidInputError: Pin (pin) must be an integer from 1 to 6, got 7');
    should(new DeviceError('full', { code: 'QUEUE_FULL' }).name).equal('QueueFullError');
    const answered = new DeviceError('GET /api/io/0.9/2/input/values failed: 502 Bad Gateway', {
      code: 'DEVICE_ERROR',
      statusCode: 502,
      deviceMessage: '502 Bad Gateway',
      method: 'GET',
      path: '/api/io/0.9/2/input/values',
    });
    should(answered.name).equal('DeviceError');
    // The status says the code once: nginx's page title already starts with it.
    should(statusText(answered)).equal('502 Bad Gateway');
    // Catch still reads the fields.
    should(answered.cause).containEql({ code: 'DEVICE_ERROR', statusCode: 502, method: 'GET' });
  });

  it('the cause reads as text in the debug sidebar of an error nobody caught', function () {
    // Node-RED's own encoding of a logged error for the debug sidebar (21-debug.js).
    const util = require(nodeRedPackage('@node-red/util')).util;
    const shown = (error: Error) => JSON.parse(util.encodeObject({ msg: error }).msg).data.cause;
    should(shown(invalidInput('pin must be ...'))).equal('INVALID_INPUT');
    const answered = new DeviceError('x', {
      code: 'DEVICE_ERROR',
      statusCode: 502,
      deviceMessage: '502 Bad Gateway',
      method: 'GET',
      path: '/api/io/0.9/2/input/values',
    });
    should(shown(answered)).equal('DEVICE_ERROR 502 GET /api/io/0.9/2/input/values: Bad Gateway');
  });

  it('every refused base URL says the one sentence of the dialog’s URL field', function () {
    const sentence = runtimeTranslate('@modular-device/node-red/modular-device:modular-device.errors.url', {});
    should(sentence).startWith('URL must be http:// or https://');
    for (const url of ['ftp://host', 'http://user:pw@host', 'not a url', 'http://host/?q=1', 'http://host/#top', 'https:/u:pw@[::1']) {
      should(() => parseBaseUrl(url)).throw(sentence);
      try {
        parseBaseUrl(url);
      } catch (error) {
        should((error as DeviceError).message).not.containEql('pw');
      }
    }
  });
});
