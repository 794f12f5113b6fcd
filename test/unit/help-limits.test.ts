/**
 * Help text and the limits table agree (architecture: "A test proves that help text and
 * table agree"). For every node type:
 *  - each limit its editor definition (nodes/<type>.html, with the editor module building its
 *    defaults where there is one) validates with appears in its
 *    help, in every language, with the exact numbers of LIMITS ("50 to 25000", "50 bis
 *    25000" or "50..25000"); listed values (fan modes, words) each appear;
 *  - every integer range the help states ("A to B") is a range of the table: a typo or a
 *    stale bound in the help fails here even where the right range is also written.
 */
import fs from 'fs';
import path from 'path';
import should from 'should';
import { LIMITS, Limit, LimitName } from '../../nodes/lib/pure/limits';
import { FACTS } from '../../nodes/lib/pure/facts';
import { dialogDefinition } from '../helpers/source-files';

const root = path.resolve(__dirname, '..', '..', '..');
const LANGUAGES = ['en-US', 'de'];
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const TYPES = Object.keys(pkg['node-red'].nodes) as string[];

/** Checkers that read several limits (limit-rules.ts, re-exported by limits.ts; alarm-settings.ts): what each one validates with. */
const COMPOSITE: Record<string, LimitName[]> = {
  checkPwm: ['prescaler', 'period'],
  checkKeepAlive: ['watchdog_timeout', 'keepalive_interval'],
  checkKeepAliveTimeout: ['watchdog_timeout'],
  checkKeepAliveInterval: ['watchdog_timeout', 'keepalive_interval'],
  checkPowerConfig: ['pin', 'rail', 'current_5_volt', 'current_12_volt'],
  // The device-alarm dialog checks each field with the runtime's reading of its settings (pure/alarm-settings.ts).
  readAlarmSettings: ['alarm_id', 'alarm_priority', 'alarm_comment', 'alarm_delay', 'alarm_limit', 'alarm_deadband', 'pin'],
};

/** The limits an editor definition validates with: validator('x'), check('x'), and the composites. */
export function limitsOf(editorHtml: string): LimitName[] {
  const names = new Set<LimitName>();
  for (const m of editorHtml.matchAll(/\b(?:validator|check)\(\s*'([a-zA-Z0-9_]+)'/g)) {
    if (!(m[1] in LIMITS)) throw new Error(`unknown limit ${m[1]}`);
    names.add(m[1] as LimitName);
  }
  for (const [fn, limits] of Object.entries(COMPOSITE)) {
    if (new RegExp(`\\b${fn}\\(`).test(editorHtml)) limits.forEach((l) => names.add(l));
  }
  return [...names];
}

/** The help's text with tags removed and entities that matter for numbers decoded. */
function helpText(lang: string, type: string): string {
  const html = fs.readFileSync(path.join(root, 'locales', lang, `${type}.html`), 'utf8');
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

const RANGE_WORDS = '(?:\\s*\\.\\.\\s*|\\s*[–-]\\s*|\\s+to\\s+|\\s+bis\\s+)';

function statesRange(text: string, min: number, max: number): boolean {
  return new RegExp(`(?<!\\d|\\d\\.)${min}${RANGE_WORDS}${max}(?!\\d|\\.\\d)`).test(text);
}

function hasNumber(text: string, n: number): boolean {
  return new RegExp(`(?<!\\d|\\d\\.)${n}(?!\\d|\\.\\d)`).test(text);
}

/** What is missing from `text` for `limit`, or nothing. */
function missing(text: string, name: LimitName, limit: Limit): string[] {
  switch (limit.kind) {
    case 'int':
      return statesRange(text, limit.min, limit.max) ? [] : [`${name}: "${limit.min} to ${limit.max}"`];
    case 'intSet':
      return limit.values.filter((v) => !hasNumber(text, v)).map((v) => `${name}: value ${v}`);
    case 'word':
      return limit.values.filter((v) => !text.includes(v)).map((v) => `${name}: word "${v}"`);
    default:
      return [];
  }
}

/** Every integer range of the table and of FACTS (rail windows): what a help may state. */
const KNOWN_RANGES = new Set<string>();
for (const limit of Object.values(LIMITS) as Limit[]) if (limit.kind === 'int') KNOWN_RANGES.add(`${limit.min}-${limit.max}`);
for (const [low, high] of Object.values(FACTS.railWindowsMv) as ReadonlyArray<readonly number[]>) KNOWN_RANGES.add(`${low}-${high}`);

/** "A to B" ranges stated in the help (integers on both sides). */
function statedRanges(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(new RegExp(`(?<!\\d|\\d\\.)(\\d+)${RANGE_WORDS}(\\d+)(?!\\d|\\.\\d)`, 'g'))) found.push(`${m[1]}-${m[2]}`);
  return found;
}

describe('help text and limits.ts agree', function () {
  it('finds the limits of an editor definition (self-check of the parser)', function () {
    const html = fs.readFileSync(path.join(root, 'nodes', 'io-threshold.html'), 'utf8');
    limitsOf(html).should.containDeep(['pin', 'threshold_mV', 'threshold_trigger']);
    statesRange('threshold 50 to 25000 mV', 50, 25000).should.be.true();
    statesRange('threshold 50 to 250000 mV', 50, 25000).should.be.false();
    statesRange('threshold 150 bis 25000 mV', 50, 25000).should.be.false();
  });

  for (const type of TYPES) {
    const editorHtml = dialogDefinition(type);
    const names = limitsOf(editorHtml);

    for (const lang of LANGUAGES) {
      it(`${type} (${lang}): states every limit it validates with (${names.join(', ') || 'none'})`, function () {
        const text = helpText(lang, type);
        const gaps = names.flatMap((name) => missing(text, name, LIMITS[name]));
        should(gaps).eql([], `${lang}/${type}.html lacks`);
      });

      it(`${type} (${lang}): states no range that is not in the table`, function () {
        const unknown = statedRanges(helpText(lang, type)).filter((r) => !KNOWN_RANGES.has(r));
        should(unknown).eql([], `${lang}/${type}.html states ranges limits.ts does not have`);
      });
    }
  }
});
