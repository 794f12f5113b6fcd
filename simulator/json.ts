/**
 * Request bodies read the way the released services' framework reads them (Rocket's JSON
 * guard over serde_json into structs with `deny_unknown_fields`, real §2).
 * serde reads the text once, front to back, against the target type, and stops at the
 * first problem; what kind of problem decides the answer:
 *  - syntax (bad JSON, empty body, trailing characters): 400 "Bad Request";
 *  - data (wrong type, missing, unknown or duplicate field, `null` for a required field,
 *    an integer beyond u8/u16/u32, a negative, a float such as `1.0`, `1e2` or `-0` for an
 *    integer): 422 "Unprocessable Entity".
 * Because reading stops at the first problem, `{"pin":"1"} garbage` is a 422, as it is
 * on the device. With `arrayStructs` a struct may also come as a JSON array of its fields
 * in order (a serde quirk of API 1.0: `[1,"analog"]`); too few elements are a data error.
 */
import { ArrayOf, Field, ObjectSchema, Scalar, SCALAR_MAX } from './schema';

export type Decoded = { ok: true; value: Record<string, unknown> } | { ok: false; status: 400 | 422 };

class Refused {
  constructor(readonly status: 400 | 422) {}
}
const syntax = (): Refused => new Refused(400);
const data = (): Refused => new Refused(422);

const WHITESPACE = ' \t\n\r';
const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

function fieldOf(spec: Scalar | ArrayOf | Field): Field {
  return typeof spec === 'string' || 'array' in spec ? { type: spec } : spec;
}

class Reader {
  private i = 0;

  constructor(
    private readonly text: string,
    private readonly arrayStructs: boolean,
  ) {}

  /** Skips white space; the next character, or '' at the end. */
  peek(): string {
    while (this.i < this.text.length && WHITESPACE.includes(this.text[this.i])) this.i++;
    return this.text.charAt(this.i);
  }

  struct(schema: ObjectSchema): Record<string, unknown> {
    const c = this.peek();
    if (c === '{') {
      this.i++;
      return this.objectStruct(schema);
    }
    if (c === '[' && this.arrayStructs) {
      this.i++;
      return this.arrayStruct(schema);
    }
    throw this.invalidType();
  }

  /** Before the next element of an array or member of an object: its separator, if any. */
  private separator(first: boolean, close: string): void {
    if (first) return;
    if (this.peek() !== ',') throw syntax();
    this.i++;
    if (this.peek() === close) throw syntax(); // a trailing comma
  }

  private objectStruct(schema: ObjectSchema): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (let first = true; ; first = false) {
      if (this.peek() === '}') {
        this.i++;
        break;
      }
      this.separator(first, '}');
      if (this.peek() !== '"') throw syntax(); // keys are strings; '' is the end of the text
      this.i++;
      const key = this.string();
      if (!Object.prototype.hasOwnProperty.call(schema, key) || Object.prototype.hasOwnProperty.call(out, key)) throw data();
      if (this.peek() !== ':') throw syntax();
      this.i++;
      out[key] = this.value(fieldOf(schema[key]));
    }
    for (const name of Object.keys(schema)) {
      if (Object.prototype.hasOwnProperty.call(out, name)) continue;
      if (!fieldOf(schema[name]).optional) throw data();
      out[name] = null;
    }
    return out;
  }

  private arrayStruct(schema: ObjectSchema): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    Object.keys(schema).forEach((name, index) => {
      if (this.peek() === ']') throw data(); // too few elements
      this.separator(index === 0, ']');
      out[name] = this.value(fieldOf(schema[name]));
    });
    if (this.peek() !== ']') throw syntax(); // too many elements: trailing characters
    this.i++;
    return out;
  }

  private value(field: Field): unknown {
    const c = this.peek();
    if (field.optional && c === 'n') return this.literal('null', null);
    const type = field.type;
    if (typeof type !== 'string') return this.list(type.array);
    if (type === 'string') {
      if (c !== '"') return this.fail();
      this.i++;
      return this.string();
    }
    if (type === 'bool') return c === 't' ? this.literal('true', true) : c === 'f' ? this.literal('false', false) : this.fail();
    if (c !== '-' && !(c >= '0' && c <= '9')) return this.fail();
    const n = this.number();
    if (type === 'number') return n.value;
    if (!n.integer || n.value < 0 || n.value > SCALAR_MAX[type]) throw data();
    return n.value;
  }

  private list(schema: ObjectSchema): unknown[] {
    if (this.peek() !== '[') return this.fail();
    this.i++;
    const items: unknown[] = [];
    for (let first = true; ; first = false) {
      if (this.peek() === ']') {
        this.i++;
        return items;
      }
      this.separator(first, ']');
      items.push(this.struct(schema));
    }
  }

  private fail(): never {
    throw this.invalidType();
  }

  /** A value of the wrong type: a data error, unless reading it shows bad syntax first. */
  private invalidType(): Refused {
    const c = this.peek();
    if (c === 'n') this.literal('null', null);
    else if (c === 't') this.literal('true', true);
    else if (c === 'f') this.literal('false', false);
    else if (c === '-' || (c >= '0' && c <= '9')) this.number();
    else if (c === '"') {
      this.i++;
      this.string();
    } else if (c !== '[' && c !== '{') return syntax();
    return data();
  }

  private literal<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.i)) throw syntax();
    this.i += word.length;
    return value;
  }

  /** A number; `integer` when written without fraction or exponent (and not `-0`, which serde reads as a float). */
  private number(): { value: number; integer: boolean } {
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(this.text);
    if (m === null) throw syntax();
    this.i += m[0].length;
    // What the pattern stopped before must not continue the number: `01`, `1.`, `1e` are bad syntax.
    const next = this.text.charAt(this.i);
    if (
      (m[2] === undefined && m[3] === undefined && (next === '.' || (m[1] === '0' && next >= '0' && next <= '9'))) ||
      (m[3] === undefined && (next === 'e' || next === 'E'))
    ) {
      throw syntax();
    }
    const value = Number(m[0]);
    if (!Number.isFinite(value)) throw syntax(); // serde: number out of range
    return { value, integer: m[2] === undefined && m[3] === undefined && !Object.is(value, -0) };
  }

  /** The rest of a string after its opening quote. */
  private string(): string {
    let out = '';
    for (;;) {
      const c = this.text.charAt(this.i++);
      if (c === '"') return out;
      if (c === '' || c < ' ') throw syntax(); // end of text or a raw control character
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.text.charAt(this.i++);
      if (e === 'u') out += this.unicodeEscape();
      else if (e in ESCAPES) out += ESCAPES[e];
      else throw syntax();
    }
  }

  /** `\uXXXX`, a surrogate pair written as two of them; a lone surrogate is refused as serde does. */
  private unicodeEscape(): string {
    const unit = (): number => {
      const hex = this.text.slice(this.i, this.i + 4);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw syntax();
      this.i += 4;
      return parseInt(hex, 16);
    };
    const first = unit();
    if (first >= 0xdc00 && first <= 0xdfff) throw syntax();
    if (first < 0xd800 || first > 0xdbff) return String.fromCharCode(first);
    if (!this.text.startsWith('\\u', this.i)) throw syntax();
    this.i += 2;
    const second = unit();
    if (second < 0xdc00 || second > 0xdfff) throw syntax();
    return String.fromCharCode(first, second);
  }

  /** After the value: only white space may follow. */
  end(): void {
    if (this.peek() !== '') throw syntax();
  }
}

/** Reads `text` as a struct of `schema`, serde's way. */
export function decodeBody(text: string, schema: ObjectSchema, options: { arrayStructs: boolean }): Decoded {
  const reader = new Reader(text, options.arrayStructs);
  try {
    const value = reader.struct(schema);
    reader.end();
    return { ok: true, value };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, status: error.status };
    throw error;
  }
}
