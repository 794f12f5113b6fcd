/**
 * A device answer is untrusted input: a broken or hostile device (or whatever answers at a
 * URL typed into the editor) chooses every byte. This file is the only place that reads
 * device text, and all of it is linear in a bounded input:
 *
 *  - `parseAnswer`: JSON.parse (V8's parser is iterative, so depth cannot overflow it),
 *    then an iterative walk that refuses more than `maxDepth` levels or `maxValues` values
 *    before anything reaches a msg (Node-RED clones msgs recursively: 2,000 levels of
 *    nesting in 4 KB overflowed its stack).
 *  - `deviceText`, `envelopeMessage`: the words of an error answer, found with indexOf and
 *    one pass over at most `SCAN_CHARS` characters. No regular expression runs on device
 *    text: `/<[^>]*>/g` over 100 KB of `<` took 13 s, and a backtracking envelope pattern
 *    over 30 KB took 56 s, with the event loop blocked (and a watchdog expiring) meanwhile.
 */
import { ANSWER_BOUNDS } from '../pure/limits';

/** Device text is looked at only this far; nothing past it can reach a message. */
export const SCAN_CHARS = 4096;

export type Parsed = { ok: true; value: unknown } | { ok: false; problem: 'json' | 'depth' | 'values' };

/** Parses a device answer and checks its shape; nothing deeper or larger than the bounds passes. */
export function parseAnswer(text: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'json' };
  }
  const problem = shapeProblem(value);
  return problem ? { ok: false, problem } : { ok: true, value };
}

/**
 * 'depth' or 'values' when a parsed answer is beyond the bounds. Iterative: a recursive walk
 * would overflow on exactly the answers it guards against. Two stacks (values and their
 * depths) kept between calls: every answer of every msg passes here, and the walk is
 * synchronous, so one pair serves them all (at most ANSWER_BOUNDS.maxValues deep).
 */
export function shapeProblem(value: unknown): 'depth' | 'values' | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const values = walkValues;
  const depths = walkDepths;
  let top = 0;
  values[top] = value;
  depths[top++] = 0;
  let count = 0;
  let problem: 'depth' | 'values' | undefined;
  while (top > 0 && !problem) {
    const at = values[--top];
    const depth = depths[top];
    values[top] = undefined;
    if (++count > ANSWER_BOUNDS.maxValues) problem = 'values';
    else if (at === null || typeof at !== 'object') continue;
    else if (depth >= ANSWER_BOUNDS.maxDepth) problem = 'depth';
    // Counted before they are walked, so a flat array of a million values stops at once.
    else if (Array.isArray(at)) {
      if (count + top + at.length > ANSWER_BOUNDS.maxValues) problem = 'values';
      else
        for (const child of at) {
          values[top] = child;
          depths[top++] = depth + 1;
        }
    } else
      for (const key in at) {
        if (count + top + 1 > ANSWER_BOUNDS.maxValues) {
          problem = 'values';
          break;
        }
        values[top] = (at as Record<string, unknown>)[key];
        depths[top++] = depth + 1;
      }
  }
  // Nothing of this answer stays referenced after the walk.
  while (top > 0) values[--top] = undefined;
  return problem;
}

/** shapeProblem's stacks, reused by every walk. */
const walkValues: unknown[] = [];
const walkDepths: number[] = [];

function isSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

/**
 * Printable text for a message: control and format characters (terminal escapes, line
 * breaks, bidi overrides) become spaces, runs of spaces one, at most `max` characters.
 */
export function printable(text: string, max: number = ANSWER_BOUNDS.maxTextChars): string {
  let out = '';
  let space = false;
  const end = Math.min(text.length, SCAN_CHARS);
  for (let i = 0; i < end && out.length <= max; i++) {
    const code = text.charCodeAt(i);
    const blank = isSpace(code) || code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0x2028 && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
    if (blank) {
      space = out.length > 0;
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += text[i];
  }
  return out.length > max ? `${out.slice(0, max - 3)}...` : out;
}

/**
 * The readable words of a non-JSON error body (an nginx page, say): its <title> when it has
 * one, else its text with markup left out. One pass; an unclosed `<` ends the text.
 */
export function deviceText(body: string): string {
  const head = body.slice(0, SCAN_CHARS);
  const lower = head.toLowerCase();
  const open = lower.indexOf('<title>');
  const close = open < 0 ? -1 : lower.indexOf('</title>', open);
  if (close > open) return printable(head.slice(open + '<title>'.length, close));
  let text = '';
  let inTag = false;
  for (let i = 0; i < head.length; i++) {
    const ch = head[i];
    if (ch === '<') inTag = true;
    else if (ch === '>' && inTag) {
      inTag = false;
      text += ' ';
    } else if (!inTag) text += ch;
  }
  return printable(text);
}

function skipSpaces(text: string, i: number, step: 1 | -1): number {
  while (i >= 0 && i < text.length && isSpace(text.charCodeAt(i))) i += step;
  return i;
}

/**
 * The message of an error envelope the released services broke: they insert the message
 * without escaping it, so a message with a quote makes the body invalid JSON (real §2):
 * `{"status": "error", "code": 400, "message": "say "hi""}`. Read the message anyway:
 * from the last `"message"` key to the last quote before the closing brace.
 */
export function brokenEnvelopeMessage(body: string): string | undefined {
  if (body.length > SCAN_CHARS) return undefined;
  const status = body.indexOf('"status"');
  if (status < 0) return undefined;
  let i = skipSpaces(body, status + '"status"'.length, 1);
  if (body[i] !== ':') return undefined;
  i = skipSpaces(body, i + 1, 1);
  if (!body.startsWith('"error"', i)) return undefined;
  const key = body.lastIndexOf('"message"');
  if (key < i) return undefined;
  let start = skipSpaces(body, key + '"message"'.length, 1);
  if (body[start] !== ':') return undefined;
  start = skipSpaces(body, start + 1, 1);
  if (body[start] !== '"') return undefined;
  let end = skipSpaces(body, body.length - 1, -1);
  if (body[end] !== '}') return undefined;
  end = skipSpaces(body, end - 1, -1);
  if (body[end] !== '"' || end <= start) return undefined;
  return printable(body.slice(start + 1, end));
}

/** The device's own words in an error answer: the envelope's message, else the page's text. */
export function errorMessage(body: string, parsed: Parsed): string {
  if (parsed.ok) {
    const message = (parsed.value as { message?: unknown } | null)?.message;
    if (typeof message === 'string') return printable(message);
  }
  return brokenEnvelopeMessage(body) ?? deviceText(body);
}
