/**
 * The English a German user must not meet: the words of the package's English catalogues
 * (locales/en-US/*.json) that none of its German ones (locales/de/*.json) uses. A word both
 * say (Pin, API, PWM, Modul names, units, the device's own words such as HIGH) is no sign
 * of English; a word only the English catalogue has is. Placeholders (`__pin__`) are not
 * words. Read from the source tree, so a word added to a catalogue is checked at once.
 */
import fs from 'fs';
import path from 'path';

/** dist/test/helpers → the repository. */
const root = path.resolve(__dirname, '..', '..', '..');

/**
 * Words of a text: runs of letters, lower-cased, of three letters or more (an "a" or "on"
 * says little). A name with an underscore or a digit (total_power_overload, ntc_0, 3v3) is
 * the device's field or the code's, the same in every language: no word.
 */
export function wordsOf(text: string): string[] {
  return (text.replace(/__\w+?__/g, ' ').match(/[\p{L}\d_]+/gu) ?? [])
    .filter((w) => !/[\d_]/.test(w))
    .map((w) => w.toLowerCase())
    .filter((w) => w.length >= 3);
}

/** Every string value of a catalogue (nested objects walked). */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

function catalogueWords(lang: string, extra: string[]): Set<string> {
  const dir = path.join(root, 'locales', lang);
  const texts = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => strings(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))));
  return new Set([...texts, ...extra].flatMap(wordsOf));
}

/**
 * The English-only words: of the English catalogues and `english` (further English texts,
 * e.g. the demo's English dashboard), less those of the German catalogues and `german`.
 */
export function englishOnlyWords(english: string[] = [], german: string[] = []): Set<string> {
  const de = catalogueWords('de', german);
  return new Set([...catalogueWords('en-US', english)].filter((w) => !de.has(w)));
}

/** The English-only words in `text`, each once. */
export function englishIn(text: string, englishOnly: Set<string>): string[] {
  return [...new Set(wordsOf(text).filter((w) => englishOnly.has(w)))];
}
