/**
 * The `validate` of a limited setting in a dialog's `defaults`: the check of limits.ts the
 * runtime runs, said with the dialog's words (field-name.ts).
 */
import * as limits from '../lib/pure/limits';
import { fieldName } from './field-name';
import { text } from './text';

type Validator = (this: Record<string, unknown>, value: unknown, opt?: unknown) => true | string;

/**
 * A two-parameter `validate` for `defaults` (Node-RED shows the message only then).
 * Values that are exactly `${VAR}` or `$(VAR)` pass: they are checked at runtime.
 * `field` is the msg's name of the value, `label` the dialog's label key where it differs
 * (the runtime's `labelled(type, field, label)`), so both sides say the same sentence.
 * `when` limits the check to the settings where the field is used.
 */
export function validator(name: limits.LimitName, field?: string, when?: ((node: Record<string, unknown>) => boolean) | null, label?: string): Validator {
  return function (value: unknown, _opt?: unknown) {
    if (when && !when(this)) return true;
    if (limits.isEnvReference(value)) return true;
    return text(limits.check(name, typed(name, value), fieldName(this.type, field ?? name, label)));
  };
}

/**
 * A value as typed into a field of limit `name`, read as the runtime reads it: an integer
 * (parseInteger) or a number (parseNumber: an alarm's limit, its deadband), else unchanged.
 */
export function typed(name: limits.LimitName, value: unknown): unknown {
  const kind = limits.LIMITS[name].kind;
  if (kind === 'int' || kind === 'intSet') return limits.parseInteger(value);
  return kind === 'number' ? limits.parseNumber(value) : value;
}
