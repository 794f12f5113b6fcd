/**
 * The value of a property as the open dialog shows it (the node object still holds the
 * saved one while the user edits), for validators that depend on another field.
 */
import { jquery } from './page';
export function current(node: Record<string, unknown>, prop: string): unknown {
  const $ = jquery<(sel: string) => { length: number; val(): unknown; is(sel: string): boolean }>();
  const field = $ ? $(`#node-input-${prop}`) : undefined;
  if (!field || !field.length) return node[prop];
  // A checkbox's val() is "on" whether it is ticked or not.
  return field.is('[type=checkbox]') ? field.is(':checked') : field.val();
}
