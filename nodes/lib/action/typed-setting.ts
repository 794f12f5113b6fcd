/**
 * A setting the user may take from msg, flow, global or env instead of typing it (a
 * typedInput in the dialog, its type saved beside it as `<prop>Type`). Such a setting is
 * only known when a msg arrives, so it is evaluated then, with Node-RED's own
 * `RED.util.evaluateNodeProperty`, and checked against limits.ts like a typed value.
 * A node saved before the field had a type keeps its plain value.
 */
import type { Node, NodeAPI, NodeDef, NodeMessage } from '../base/node-red';
import { SETTING_SOURCES } from '../pure/facts';

export interface TypedSetting {
  value: unknown;
  type: string;
}

/** Types whose value lives elsewhere: evaluated per msg, never at deploy. */
const ELSEWHERE = new Set(SETTING_SOURCES);

/** The setting `prop` as saved, or undefined when it is a plain value (typed in the dialog). */
export function settingFromElsewhere(def: NodeDef, prop: string): TypedSetting | undefined {
  const type = def[`${prop}Type`];
  return typeof type === 'string' && ELSEWHERE.has(type) ? { value: def[prop], type } : undefined;
}

export type Evaluate = (setting: TypedSetting, node: Node, msg: NodeMessage) => unknown;

/** Evaluates a setting for a msg; a context read without a callback is Node-RED's synchronous one. */
export function evaluator(RED: NodeAPI): Evaluate {
  const util = RED.util as unknown as {
    evaluateNodeProperty(value: unknown, type: string, node: Node, msg: NodeMessage): unknown;
  };
  return (setting, node, msg) => util.evaluateNodeProperty(setting.value, setting.type, node, msg);
}
