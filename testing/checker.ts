/**
 * How a file a person wrote (a scenario) is checked: every mistake is collected with its
 * place (steps[2].pin.pin) and a sentence saying what would be right, and all of them are
 * reported at once, so one run shows what to fix rather than one mistake per run.
 */
import { KitError, show } from './errors';

/** Thrown inside the checker to leave a part that cannot be checked further (not an object). */
class Skip {}

export class Checker {
  readonly mistakes: string[] = [];
  constructor(readonly file: string) {}

  /** A mistake that leaves nothing more to check in this part: recorded, and the part skipped. */
  fail(place: string, message: string): never {
    this.note(place, message);
    throw new Skip();
  }

  /** A mistake after which checking goes on. */
  note(place: string, message: string): void {
    this.mistakes.push(`${place}: ${message}`);
  }

  /** Runs one part's checks; a fail() inside ends that part only. */
  part<T>(check: () => T): T | undefined {
    try {
      return check();
    } catch (error) {
      if (error instanceof Skip) return undefined;
      throw error;
    }
  }

  /** Throws the KitError listing every mistake, if there is one. */
  done(): void {
    if (!this.mistakes.length) return;
    if (this.mistakes.length === 1) throw new KitError(`${this.file}: ${this.mistakes[0]}`);
    throw new KitError(`${this.mistakes.length} mistakes in ${this.file}:\n${this.mistakes.map((m) => `  ${this.file}: ${m}`).join('\n')}`);
  }

  object(value: unknown, place: string, keys: readonly string[]): Record<string, any> {
    if (!value || typeof value !== 'object' || Array.isArray(value)) this.fail(place, `expected an object with ${keys.join(', ')}, got ${show(value, 60)}`);
    for (const key of Object.keys(value)) if (!keys.includes(key)) this.note(place, `unknown field "${key}"; known: ${keys.join(', ')}`);
    return value as Record<string, any>;
  }

  /** An object with any keys (a msg, a fault rule's free parts). */
  anyObject(value: unknown, place: string): Record<string, any> {
    if (!value || typeof value !== 'object' || Array.isArray(value)) this.fail(place, `expected an object, got ${show(value, 60)}`);
    return value as Record<string, any>;
  }

  // The checks of single values record a mistake and go on with a stand-in value: the
  // scenario is thrown away when there is any mistake, so the stand-in is never used.

  int(value: unknown, place: string, min: number, max: number): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      this.note(place, `must be a whole number from ${min} to ${max}, got ${show(value, 60)}`);
    return value as number;
  }

  optInt(value: unknown, place: string, min: number, max: number): number | undefined {
    return value === undefined ? undefined : this.int(value, place, min, max);
  }

  oneOf(value: unknown, place: string, options: readonly string[]): string {
    if (typeof value !== 'string' || !options.includes(value)) this.note(place, `must be one of ${options.join(', ')}, got ${show(value, 60)}`);
    return value as string;
  }

  string(value: unknown, place: string): string {
    if (typeof value !== 'string' || value === '') this.note(place, `must be a non-empty string, got ${show(value, 60)}`);
    return value as string;
  }

  /** A time as ms: a number as it is, text like "2 s", "500 ms", "1.5s" read; undefined when neither. */
  static ms(value: unknown): number | undefined {
    if (typeof value === 'number') return value;
    const m = typeof value === 'string' ? /^(\d{1,7}(?:\.\d{1,3})?)\s*(ms|s)$/.exec(value.trim()) : null;
    return m ? Math.round(Number(m[1]) * (m[2] === 's' ? 1000 : 1)) : undefined;
  }

  /** A time: ms as a number, or text like "2 s", "500 ms", "1.5s". */
  time(value: unknown, place: string, max: number): number {
    const ms = Checker.ms(value);
    if (ms === undefined || !Number.isFinite(ms) || ms < 0 || ms > max) {
      this.note(place, `must be a time from 0 to ${max} ms (a number of ms, or "2 s", "500 ms"), got ${show(value, 60)}`);
      return 0;
    }
    return ms;
  }
}
