/**
 * The kit's one error: a sentence for a person, naming the place (file, node, step) and what
 * was expected. The CLI prints its message alone, never a stack.
 */
export class KitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KitError';
  }
}

/** A short, bounded rendering of a value for messages (user data can be large). */
export function show(value: unknown, max = 200): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
