/**
 * Every status a node shows fits the workspace: Node-RED's editor cuts a status at about 60
 * characters, and the package's own `short()` cuts there too, so a longer one loses its end.
 * Each status template is said with the longest values it realistically gets (the limits'
 * maxima, six pins, all four alerts, an IPv4 address with a port), in English and German,
 * through Node-RED's real i18n.
 *
 * The templates are not listed by hand: they are every `status.*` key of the catalogues and
 * every runtime key the code says where a status is made (see `statusKeys`). A new one is
 * checked without a word here, unless it has a placeholder this file has no value for: then
 * the test says so, and VALUES (or, for a value that differs by key, BY_KEY) gets one.
 */
import 'should';
import fs from 'fs';
import path from 'path';
import { LIMITS } from '../../nodes/lib/pure/limits';
import { catalogsReady, inLanguage } from '../helpers/i18n';

const MAX = 60;
const L = LIMITS;

/** A template: its catalog (a node type, or the shared one) and key, with the longest values. */
type Template = [catalog: string, key: string, values?: Record<string, string | number | Template>];

/** A status said in `language`, nested templates first (a cause said in the same language). */
function said(language: string, [catalog, key, values = {}]: Template): string {
  const translate = inLanguage(language);
  const filled: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) filled[name] = Array.isArray(value) ? said(language, value) : String(value);
  return translate(`@modular-device/node-red/${catalog}:${catalog}.${key}`, filled);
}

const SHARED = 'modular-device';
const root = path.resolve(__dirname, '..', '..', '..');
const clock = '12:59:59 PM';
const longest = (...values: number[]) => Math.max(...values);

/** The longest realistic value of each placeholder name, whatever status it is in. */
const VALUES: Record<string, string | number | Template> = {
  api: '1.0',
  reason: 'connect ECONNREFUSED 192.168.100.200:8080',
  type: 'notification-poll',
  // A conflict names the other node by its type (a name, when it has one, is cut by short()).
  other: 'notification-poll',
  pin: 6,
  port: L.usb_port.max,
  cause: [SHARED, 'runtime.common.resetBy', { type: 'notification-poll' }],
  status: 'pin 6 digital, falling 1000 ms, counter',
  timeout: longest(L.bootloader_timeout.max, L.watchdog_timeout.max, L.sw_shutdown_timeout.max),
  left: L.watchdog_timeout.max,
  since: L.watchdog_timeout.max,
  ms: L.watchdog_timeout.max,
  interval: longest(L.keepalive_interval.max, L.notification_interval.max),
  mode: longest(L.buzzer_mode.max, 100),
  duration: L.buzzer_duration.max,
  state: 'high',
  duty: 100,
  pins: 6,
  total: 6 * L.current_12_volt.max,
  trigger: 'falling',
  threshold: L.threshold_mV.max,
  alerts: 'threshold or interrupt +3',
  time: clock,
  wait: L.fan_wait.max,
  now: 100,
  rpm: 99999,
  n: 99999,
  day: '2026-11-24',
  name: '192.168.100.200',
  // Alarms of one node (a notification alarm: 6 pins × 4 flags), or of a whole list (ALARM_JOURNAL.maxStates).
  count: 5000,
};

/** Values that differ by key: `<catalog> <key>` → its value sets (each one said and checked). */
const BY_KEY: Record<string, Record<string, string | number | Template>[]> = {
  [`${SHARED} status.down`]: [{ reason: '503 Service Temporarily Unavailable' }],
  [`${SHARED} status.refused`]: [{ reason: '401 Unauthorized' }],
  // io-input's mode, io-output's state: words, not numbers.
  'io-input runtime.pinMode': [{ pin: 6, mode: 'digital' }],
  'power-fan runtime.at': [{ mode: 100 }],
  'power-fan runtime.setting': [{ mode: 100 }],
  'power-fan runtime.forced': [{ mode: 100 }],
  'power-fan runtime.notReached': [{ mode: 100, wait: L.fan_wait.max, now: 100 }],
  // A health cause (device-status shows it): the connected status, and the restart.
  [`${SHARED} runtime.common.serviceRestarted`]: [{ status: [SHARED, 'status.connected', { api: '1.0' }] }],
};

/**
 * Statuses whose value is a free sentence, cut by `short()` on purpose (the dot shows its
 * start, the whole sentence goes to the log and Catch): not length-checked, with why.
 */
const CUT_ON_PURPOSE: Record<string, string> = {
  [`${SHARED} status.incompatible`]: 'the reason names the API versions or the missing slot in a sentence',
  [`${SHARED} status.invalid`]: "the reason is the config node's whole configuration problem",
};

/** Runtime keys the code makes a status of where the scan below cannot see it (a status built in parts). */
const ALSO_STATUS = [
  'io-input runtime.pinMode',
  'io-input runtime.counter',
  'power-fan runtime.notReached',
  ...['active-unack', 'rtn-unack', 'active-ack', 'suppressed', 'shelved', 'out-of-service', 'normal'].map((state) => `device-alarm runtime.state.${state}`),
  'device-alarm-list runtime.list.unack',
  'device-alarm-list runtime.list.quiet',
];

/** The catalogue's keys (en-US), flattened: `status.connected` → its text. */
function catalogue(catalog: string): Map<string, string> {
  const keys = new Map<string, string>();
  const walk = (o: Record<string, unknown>, at: string) => {
    for (const [k, v] of Object.entries(o)) {
      if (typeof v === 'string') keys.set(`${at}${k}`, v);
      else walk(v as Record<string, unknown>, `${at}${k}.`);
    }
  };
  walk(JSON.parse(fs.readFileSync(path.join(root, 'locales', 'en-US', `${catalog}.json`), 'utf8'))[catalog] ?? {}, '');
  return keys;
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const at = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'editor' ? [] : sources(at);
    return e.name.endsWith('.ts') ? [at] : [];
  });
}

/** Words near a call that say its text becomes a status (a `status:`, a dot's `text:`, a kept alert, a TLS brief, a reset cause). */
const STATUS_CONTEXT = /\b(status|busyStatus)\s*[:=]|\.status\(|\btext:|lastAlert\s*=|\bbrief:|ownReset\(/;
/** Words on the call's line that say its text is an error's message (Catch's, not the dot's). */
const ERROR_CONTEXT = /\bthrow\b|Error\(|invalidInput\(|badPayload\(|badResponse\(/;

/**
 * The status keys, `<catalog> <key>`: every `status.*` key of every catalogue, and every
 * runtime key that the runtime code (nodes/, not the editor's) names in a `t(...)` within
 * the statement that makes a status (the call's line or the four before it say so), or
 * anywhere in a module of nodes/lib or nodes/sidebar/runtime named for statuses (`*status*.ts`), and
 * not in an error's message (a `throw`, an `...Error(` on its line), as `t()`
 * resolves it (`<type>.<key>` → that catalogue's `status.<key>` or `runtime.<key>`,
 * `common.<key>` → the shared one's); a `${...}` in a key stands for every key it can be.
 */
function statusKeys(): Set<string> {
  const catalogs = fs
    .readdirSync(path.join(root, 'locales', 'en-US'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length));
  const keys = new Map(catalogs.map((c) => [c, catalogue(c)]));
  const found = new Set<string>();
  for (const [catalog, words] of keys) for (const key of words.keys()) if (key.startsWith('status.')) found.add(`${catalog} ${key}`);
  const resolve = (id: string) => {
    const dot = id.indexOf('.');
    const [type, name] = [id.slice(0, dot), id.slice(dot + 1)];
    const catalog = type === 'common' ? SHARED : type;
    const words = keys.get(catalog);
    if (!words) return;
    const prefixes = type === 'common' ? [`status.common.`, `runtime.common.`] : [`status.`, `runtime.`];
    const pattern = (prefix: string) => new RegExp(`^${(prefix + name).replace(/[.*+?^()|[\]\\]/g, '\\$&').replace(/\$\{[^}]*\}/g, '[^.]+')}$`);
    for (const prefix of prefixes) {
      const hits = [...words.keys()].filter((k) => pattern(prefix).test(k));
      if (hits.length) return hits.forEach((k) => found.add(`${catalog} ${k}`));
    }
  };
  for (const file of sources(path.join(root, 'nodes'))) {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const statusModule = path.dirname(file) !== path.join(root, 'nodes') && path.basename(file).includes('status');
    lines.forEach((line, i) => {
      if (ERROR_CONTEXT.test(line)) return;
      if (!statusModule && !STATUS_CONTEXT.test(lines.slice(Math.max(0, i - 4), i + 1).join('\n'))) return;
      for (const call of line.matchAll(/\bt\(([^;]*)/g)) for (const id of call[1].matchAll(/['`]([\w-]+\.[\w.${}-]+)['`]/g)) resolve(id[1]);
    });
  }
  for (const key of ALSO_STATUS) found.add(key);
  return found;
}

/** The templates of a status key: its value sets, from BY_KEY or from VALUES by its placeholders. */
function templatesOf(status: string): Template[] | string {
  const [catalog, key] = status.split(' ');
  if (BY_KEY[status]) return BY_KEY[status].map((values): Template => [catalog, key, values]);
  const text = catalogue(catalog).get(key);
  if (text === undefined) return `no such key in locales/en-US/${catalog}.json`;
  const names = [...new Set([...text.matchAll(/__(\w+)__/g)].map((m) => m[1]))];
  const missing = names.filter((n) => !(n in VALUES));
  if (missing.length) return `no longest value for ${missing.join(', ')}: add one to VALUES (or BY_KEY)`;
  // TLS: the short words of each problem, with the longest values they get (an IPv4 host).
  if (status === `${SHARED} status.tls`) {
    return [...catalogue(SHARED).keys()]
      .filter((k) => k.startsWith('runtime.common.tlsBrief.'))
      .map((brief): Template => [catalog, key, { reason: [SHARED, brief, { day: VALUES.day, name: VALUES.name } as Record<string, string>] }]);
  }
  return [[catalog, key, Object.fromEntries(names.map((n) => [n, VALUES[n]]))]];
}

const TEMPLATES = [...statusKeys()].filter((s) => !CUT_ON_PURPOSE[s]).sort();

describe('statuses fit the workspace (at most 60 characters, en and de)', () => {
  before(() => catalogsReady);
  it('finds the statuses in the catalogues and the code', () => {
    TEMPLATES.should.containDeep([
      `${SHARED} status.connected`,
      'io-output runtime.pinState',
      `${SHARED} runtime.common.conflict.pin`,
      `${SHARED} runtime.common.tlsBrief.expired`,
    ]);
  });
  for (const language of ['en-US', 'de']) {
    for (const status of TEMPLATES) {
      it(`${language} ${status}`, () => {
        const templates = templatesOf(status);
        if (typeof templates === 'string') throw new Error(`${status}: ${templates}`);
        for (const template of templates) {
          const text = said(language, template);
          text.should.not.endWith(template[1], 'a missing key');
          text.length.should.be.belowOrEqual(MAX, text);
        }
      });
    }
  }
});
