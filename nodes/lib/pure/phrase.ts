/**
 * A sentence not yet said: a key of the package's shared catalog (locales/<lang>/
 * modular-device.json, under `modular-device.`) and the values of its `__placeholders__`.
 *
 * The limits are checked in two places that speak different languages: the editor (the
 * browser's) and the runtime (settings.lang). So a check answers with a phrase, never with
 * text, and each side says it with its own Node-RED `RED._`: one catalog, one template
 * syntax, one engine (i18next as Node-RED configures it). Pure: bundled into the editor.
 */

export interface Phrase {
  /** e.g. `limits.mustBe` for `modular-device.limits.mustBe`. */
  readonly key: string;
  /** Placeholder values; a value may itself be a phrase (the range inside "must be ..."). */
  readonly values?: Readonly<Record<string, PhraseValue>>;
  /** A node's own catalog instead of the shared one, e.g. `power-limits` for its dialog labels. */
  readonly catalog?: string;
}

/** What fills a placeholder: said as it is (numbers, quoted user text), or a phrase said first. */
export type PhraseValue = string | number | Phrase;

export function phrase(key: string, values?: Record<string, PhraseValue>): Phrase {
  return values ? { key, values } : { key };
}

export function isPhrase(value: unknown): value is Phrase {
  return typeof value === 'object' && value !== null && typeof (value as Phrase).key === 'string';
}

/** A `RED._` reduced to what saying a phrase needs: the full key and the filled-in values. */
export type Translate = (key: string, values: Record<string, string>) => string;

/** The message id of a phrase key in its catalog (the shared one by default), as `RED._` of either side takes it. */
export function phraseId(key: string, catalog = 'modular-device'): string {
  return `@modular-device/node-red/${catalog}:${catalog}.${key}`;
}

/** Says `value` with `translate`: nested phrases first, then the phrase around them. */
export function render(value: PhraseValue, translate: Translate): string {
  if (!isPhrase(value)) return String(value);
  const values: Record<string, string> = {};
  for (const [name, v] of Object.entries(value.values ?? {})) values[name] = render(v, translate);
  // A label that is the wire name itself ("slot") needs no brackets repeating it.
  if (value.key === 'limits.field' && values.label === values.wire) return values.label;
  return translate(phraseId(value.key, value.catalog), values);
}
