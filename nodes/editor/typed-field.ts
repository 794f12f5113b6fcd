/**
 * A dialog field the user may fill from msg, flow, global or env instead of typing a value:
 * Node-RED's typedInput, with the chosen type kept in a hidden `<prop>Type` field. The
 * runtime evaluates such a value per msg (lib/typed-setting.ts); the editor checks only a
 * value typed in, since the others are known only when a msg arrives.
 */
import { current } from './current';
import { jquery } from './page';

/** The types a value may come from besides the one typed in. */
export const ELSEWHERE = ['msg', 'flow', 'global', 'env'];

/** Whether the dialog's (or the saved node's) `prop` is a value typed in, to be checked now. */
export function typedIn(node: Record<string, unknown>, prop: string): boolean {
  const type = current(node, `${prop}Type`);
  return !(typeof type === 'string' && ELSEWHERE.includes(type));
}

type TypeSpec = string | { value: string; label?: string; options?: Array<{ value: string; label: string }> };
interface TypedInputHost {
  length: number;
  typedInput(options: { default: string; types: TypeSpec[]; typeField: string }): void;
}

/** Turns `#node-input-<prop>` into a typedInput: `first` (what is typed in) then msg, flow, global, env. */
export function typedField(prop: string, first: TypeSpec): void {
  const $ = jquery<(sel: string) => TypedInputHost>();
  const field = $?.(`#node-input-${prop}`);
  if (!field || !field.length) return;
  field.typedInput({
    default: typeof first === 'string' ? first : first.value,
    types: [first, ...ELSEWHERE],
    typeField: `#node-input-${prop}Type`,
  });
}
