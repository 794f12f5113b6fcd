/**
 * Runtime texts in the runtime's language: a node's status texts and refusals, and the
 * shared code's errors, come from `modular-device.runtime.*` of the config node's catalog;
 * the dialog words a refusal quotes (the confirm checkbox's label) from the node's own.
 * Here a `RED._` reads the German catalogs as Node-RED would with `lang: 'de'`; without a
 * catalog (the test helper's `RED._` returns the key) the English ones answer.
 */
import fs from 'fs';
import path from 'path';
import should from 'should';
import ioReset = require('../../nodes/io-reset');
import { API09_DIALECT } from '../../nodes/lib/dialects';
import { t, useRuntimeLanguage } from '../../nodes/lib/i18n';
import type { DoneFn, NodeAPI, NodeDef, NodeMessage, NodeStatus } from '../../nodes/lib/red';

/** The catalogs as Node-RED reads them, from the source tree (dist/test/unit → repo root). */
const root = path.resolve(__dirname, '..', '..', '..');
const catalog = (lang: string, name = 'modular-device'): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(root, 'locales', lang, `${name}.json`), 'utf8'));

/**
 * Node-RED's `RED._` for one language: `namespace:key` (each node file's catalog is the
 * namespace `<package>/<type>`), `__var__` interpolation, the key when missing.
 */
function translator(lang: string | undefined): NodeAPI['_'] {
  return (key, vars = {}) => {
    const match = /^@modular-device\/node-red\/([a-z-]+):(.*)$/.exec(key);
    if (!lang || !match) return key;
    const [, file, id] = match;
    const text = id.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], catalog(lang, file));
    return typeof text === 'string' ? text.replace(/__(\w+)__/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole)) : key;
  };
}

interface FakeNode {
  statuses: NodeStatus[];
  input?: (msg: NodeMessage, send: () => void, done: DoneFn) => void;
}

/** Loads io-reset into a minimal runtime whose module is connected and answers every request. */
function loadIoReset(lang: string | undefined, confirm: boolean): FakeNode {
  let constructor: ((this: unknown, def: NodeDef) => void) | undefined;
  const device = {
    connection: { client: { service: 'io', request: async () => ({ data: {}, request: { method: 'GET', path: '/api/io/0.9/2/reset' } }) } },
    register: (user: { onConnectionState(state: unknown): void }) => user.onConnectionState({ state: 'connected', apiVersion: '0.9' }),
    deregister: () => undefined,
  };
  const RED = {
    _: translator(lang),
    nodes: {
      createNode: () => undefined,
      getNode: () => device,
      getCredentials: () => undefined,
      registerType: (_type: string, c: (this: unknown, def: NodeDef) => void) => (constructor = c),
    },
  } as unknown as NodeAPI;
  ioReset(RED);
  const node: FakeNode & Record<string, unknown> = {
    statuses: [],
    on(event: string, listener: FakeNode['input']) {
      if (event === 'input') node.input = listener;
    },
    status(status: NodeStatus) {
      node.statuses.push(status);
    },
  };
  constructor!.call(node, { id: 'rs', type: 'io-reset', device: 'dev', confirm });
  return node;
}

function send(node: FakeNode): Promise<Error | undefined> {
  return new Promise((resolve) => node.input!({ payload: true }, () => undefined, resolve));
}

describe('runtime texts in both languages', function () {
  afterEach(() => useRuntimeLanguage(undefined));

  it('the English and German catalogs have the same runtime keys', function () {
    const keys = (tree: unknown, prefix = ''): string[] =>
      typeof tree === 'string' ? [prefix] : Object.entries(tree as Record<string, unknown>).flatMap(([k, v]) => keys(v, `${prefix}.${k}`));
    const runtime = (lang: string) => keys((catalog(lang)['modular-device'] as Record<string, unknown>).runtime).sort();
    should(runtime('de')).eql(runtime('en-US'));
  });

  it('with a German runtime a node says its status and its refusal in German', async function () {
    const refused = await send(loadIoReset('de', false));
    // The shared refusal, quoting the German label of the node's confirm checkbox.
    should(refused?.message).equal('"reset" abgelehnt: "Bestätigen: das Modul zurücksetzen, wenn eine Nachricht eintrifft" im Dialog des Nodes anhaken, um es zu erlauben');

    const node = loadIoReset('de', true);
    should(await send(node)).be.undefined();
    should(node.statuses[node.statuses.length - 1]).eql({ fill: 'green', shape: 'dot', text: 'Modul zurückgesetzt' });
  });

  it('the shared code speaks German too (a dialect refusal, numbers filled in)', function () {
    useRuntimeLanguage({ _: translator('de') } as unknown as NodeAPI);
    should(() => API09_DIALECT.translate({ method: 'GET', endpoint: ['usbhub', 'devices'] })).throw(
      'die Liste der USB-Geräte braucht ein Gerät mit API 1.0 (dieses spricht 0.9)',
    );
    should(t('bmc-system.buzzer', { mode: 2, duration: 200 })).equal('Summer Modus 2, 200 ms');
  });

  it('without a catalog (RED._ returns the key) and before any runtime, English', async function () {
    should(t('bmc-system.buzzer', { mode: 2, duration: 200 })).equal('buzzer mode 2, 200 ms');
    const refused = await send(loadIoReset(undefined, false));
    should(refused?.message).equal('"reset" refused: tick "Confirm: reset the module when a msg arrives" in the node\'s dialog to allow it');
  });
});
