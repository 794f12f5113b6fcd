/**
 * Runtime texts in the runtime's language, through Node-RED's real i18n (test/helpers/
 * i18n.ts) and the package's catalogs:
 *  - each node's runtime texts sit beside its dialog words, in `locales/<lang>/<type>.json`
 *    (`<type>.runtime.*`; fixed status texts `<type>.status.*`), the shared ones in
 *    modular-device.json; every `t('<type>.<key>')` of the code names one, in every language;
 *  - a fixed status text is sent as its message id, which Node-RED's editor says in the
 *    editor's language; a text with values is said by the runtime;
 *  - a German runtime (a real Node-RED with German `RED._`, the simulator) refuses and
 *    reports in German.
 */
import fs from 'fs';
import { sourceFiles } from '../helpers/source-files';
import path from 'path';
import should from 'should';
import modularDevice = require('../../nodes/modular-device');
import ioReset = require('../../nodes/io-reset');
import { API09_DIALECT } from '../../nodes/lib/device/dialects';
import { clockText, numberText, t } from '../../nodes/lib/base/i18n';
import type { NodeStatus } from '../../nodes/lib/base/node-red';
import { catalogsReady, inLanguage, runtimeTranslate, speak, withRuntimeI18n } from '../helpers/i18n';
import { helper, NodeModule, waitFor } from '../helpers/node-red';
import { loadActions, Outcomes, send } from '../helpers/io-nodes';
import { runtimeSuite } from '../helpers/runtime-suite';

/** The source tree (dist/test/unit → repo root). */
const root = path.resolve(__dirname, '..', '..', '..');
const LANGUAGES = ['en-US', 'de'];
const catalog = (lang: string, name: string): Record<string, any> =>
  JSON.parse(fs.readFileSync(path.join(root, 'locales', lang, `${name}.json`), 'utf8'))[name];

/** Every `t('<type>.<key>'` (both keys of a `t(cond ? 'a' : 'b'`) in nodes/: the first argument. */
function keysUsed(): string[] {
  const files = [...sourceFiles('nodes', false), ...sourceFiles('nodes/lib'), ...sourceFiles('nodes/sidebar', false), ...sourceFiles('nodes/sidebar/runtime')];
  const keys = new Set<string>();
  for (const file of files) {
    const source = fs.readFileSync(file, 'utf8');
    for (const m of source.matchAll(/\bt\(([^,)]*)/g)) for (const k of m[1].matchAll(/'([a-z0-9-]+\.[A-Za-z0-9]+)'/g)) keys.add(k[1]);
  }
  return [...keys].sort();
}

/** Where `t(key)` reads: the node's catalog, or the shared one for `common.`. */
function entry(lang: string, key: string): { status?: unknown; runtime?: unknown } {
  const [type, name] = key.split('.');
  if (type === 'common') {
    const shared = catalog(lang, 'modular-device');
    return { status: shared.status.common[name], runtime: shared.runtime.common[name] };
  }
  const own = catalog(lang, type);
  return { status: own.status?.[name], runtime: own.runtime?.[name] };
}

describe('runtime texts in both languages', function () {
  before(() => catalogsReady);

  it('every runtime text of the code is in the catalog of its node, in every language, once', function () {
    const used = keysUsed();
    should(used.length).be.above(50);
    for (const lang of LANGUAGES) {
      const missing = used.filter((key) => {
        const { status, runtime } = entry(lang, key);
        return (typeof status === 'string') === (typeof runtime === 'string');
      });
      should(missing).eql([], `${lang}: keys in neither (or both) of status and runtime`);
    }
  });

  it('no node keeps runtime texts in the shared catalog; fixed status texts have no values', function () {
    for (const lang of LANGUAGES) {
      const shared = catalog(lang, 'modular-device');
      const types = Object.keys(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))['node-red'].nodes);
      should(Object.keys(shared.runtime).filter((k) => types.includes(k))).eql([], `${lang}/modular-device.json runtime`);
      for (const type of types) {
        const status = type === 'modular-device' ? {} : (catalog(lang, type).status ?? {});
        for (const [key, text] of Object.entries(status)) should(text).not.match(/__\w+__/, `${lang}/${type}.json status.${key}`);
      }
    }
  });

  describe('said by the runtime', function () {
    before(() => speak(inLanguage('de')));
    after(() => speak());

    it('texts with values, and the shared code, in German', function () {
      should(t('bmc-system.buzzer', { mode: 2, duration: 200 })).equal('Summer Modus 2, 200 ms');
      should(() => API09_DIALECT.translate({ method: 'GET', endpoint: ['usbhub', 'devices'] })).throw(
        'die Liste der USB-Geräte braucht ein Gerät mit API 1.0 (dieses spricht 0.9)',
      );
    });

    it("numbers and clock times as ICU writes them in German (decimal comma, 24 hours), without Intl's memory", function () {
      const icu = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 3, useGrouping: false });
      // ICU writes a negative value that rounds to nothing as -0; a status says 0.
      for (const value of readingsLike()) should(numberText(value)).equal(icu.format(value).replace(/^-0$/, '0'), `${value}`);
      should(numberText(3300)).equal('3300');
      should(numberText('n/a')).equal('n/a');
      const clock = new Intl.DateTimeFormat('de-DE', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
      for (const ms of [0, 9 * 3600e3 + 5 * 60e3 + 7e3, 23 * 3600e3 + 59 * 60e3 + 59e3, Date.UTC(2026, 10, 28, 12, 0, 0)]) {
        const date = new Date(new Date(2026, 10, 28).getTime() + (ms % 86400e3));
        should(clockText(date)).equal(clock.format(date));
      }
    });

    it('a fixed status text is its message id, which the editor says in its own language', function () {
      const id = t('io-reset.done');
      should(id).equal('@modular-device/node-red/io-reset:io-reset.status.done');
      should(inLanguage('de')(id)).equal('Modul zurückgesetzt');
      should(runtimeTranslate(id)).equal('module reset');
      should(t('common.read')).equal('@modular-device/node-red/modular-device:modular-device.status.common.read');
      // The shared error text, not the status text of the same name.
      should(t('common.noDevice')).equal('kein Gerät konfiguriert: einen modular-device-Konfigurations-Node auswählen');
    });
  });
});

describe('numbers and clock times in English', function () {
  before(() => speak());

  it('as ICU writes them (decimal point, 24 hours, at most three decimals, half away from zero)', function () {
    const icu = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3, useGrouping: false });
    for (const value of readingsLike()) should(numberText(value)).equal(icu.format(value).replace(/^-0$/, '0'), `${value}`);
    const clock = new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    for (let h = 0; h < 24; h++) {
      const date = new Date(2026, 10, 28, h, (h * 7) % 60, (h * 13) % 60);
      should(clockText(date)).equal(clock.format(date));
    }
  });
});

/**
 * Non-integers as devices send them (mV, mA, °C, V) and edge cases of rounding to three
 * decimals: halves, values just below a half, negatives, tiny and large magnitudes.
 */
function readingsLike(): number[] {
  const values = [0.5, 1.5, 2.5, -2.5, 0.0625, -0.0625, 1.0005, 1.005, 48.426, -40.125, 0.0004, 123456789.123456, 3299.9999, 0.1 + 0.2, 1e-7, 12.3];
  // A fixed pseudo-random walk (no Math.random: a failure must be reproducible).
  let x = 12345;
  for (let i = 0; i < 2000; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    const magnitude = 10 ** ((x % 9) - 3);
    values.push(((x / 2 ** 31 - 0.5) * 2 * magnitude * 1000) / 1000 + (x % 7) / 10000);
  }
  return values.filter((v) => !Number.isInteger(v));
}

describe('a German runtime (real Node-RED, simulator)', function () {
  this.timeout(15000);
  const { sim } = runtimeSuite();
  after(() => speak());

  async function load(confirm: boolean): Promise<Outcomes> {
    const modules = withRuntimeI18n([modularDevice as NodeModule, ioReset as NodeModule], inLanguage('de'));
    return loadActions(sim.url, [{ id: 'rs', type: 'io-reset', confirm }], { modules });
  }

  /** The node's last status as sent (before the editor says it). */
  function sentStatus(): NodeStatus {
    const spy = helper.getNode('rs').status as { getCalls(): Array<{ thisValue: unknown; args: NodeStatus[] }> };
    const calls = spy.getCalls().filter((c) => c.thisValue === helper.getNode('rs'));
    return calls[calls.length - 1].args[0];
  }

  it('refuses in German, quoting the German label of the confirm checkbox', async function () {
    const outcomes = await load(false);
    const caught = await send(outcomes, 'rs', { payload: true });
    should(caught?.error.message).equal(
      'InvalidInputError: "reset" abgelehnt: "Bestätigen: das Modul zurücksetzen, wenn eine Nachricht eintrifft" im Dialog des Nodes anhaken, um es zu erlauben',
    );
  });

  it('reports the reset with a status a German editor shows as "Modul zurückgesetzt"', async function () {
    const outcomes = await load(true);
    should(await send(outcomes, 'rs', { payload: true })).be.undefined();
    await waitFor(() => sentStatus().shape === 'dot', 'the status of the reset');
    should(sentStatus()).eql({ fill: 'green', shape: 'dot', text: '@modular-device/node-red/io-reset:io-reset.status.done' });
    should(inLanguage('de')(sentStatus().text as string)).equal('Modul zurückgesetzt');
  });
});
