/**
 * Editor-side helpers, bundled by the build into resources/editor.js and exposed to the
 * node dialogs as the global `ModularDevice`. It carries limits.ts itself (with limit-rules.ts,
 * the checks over several fields, as `ModularDevice.limits` too), so the editor
 * checks exactly what the runtime checks, with the same messages: a check answers with a
 * phrase, and `ModularDevice.text` says it (validators built by `validator` do so already).
 */
import * as limits from '../lib/pure/limits';
import * as limitRules from '../lib/pure/limit-rules';
import * as facts from '../lib/pure/facts';
import { baseUrl } from '../lib/pure/base-url';
import { listSetting } from '../lib/pure/list-setting';
import { defaults, moduleOf, serviceOfNew } from './module-choice';
import { pinPicker } from './pin-picker';
import { pwmReadout } from './pwm-readout';
import { current } from './current';
import { typedField, typedIn } from './typed-field';
import { DANGEROUS_OPERATIONS, FROM_MSG, GuardedType } from '../lib/pure/dangerous';
import { confirmed } from './confirm';
import { conflictWarning } from './conflicts';
import { text } from './text';
import { ioPower } from './io-power';
import { prepareIoOutput } from './io-output';
import { prepareBmcWatchdog } from './bmc-watchdog';
import { readings } from './readings';
import { prepareConfigDialog } from './config-dialog';
import { fieldName } from './field-name';
import { typed, validator } from './validator';
import { notificationPoll } from './notification-poll';
import { deviceAlarm } from './device-alarm';

/**
 * The operations of `type` whose dialog shows the confirm checkbox: the runtime's own list
 * (pure/dangerous.ts), plus "from msg.operation", since a msg may name any of them.
 */
function dangerous(type: GuardedType): string[] {
  return [...DANGEROUS_OPERATIONS[type], FROM_MSG];
}

/**
 * A setting as a node's label shows it: the value when it passes its check (or is a
 * `${VAR}` the runtime checks), else `?`, so a label never states a value the node cannot send.
 */
function shown(name: limits.LimitName, value: unknown): string {
  if (limits.isEnvReference(value)) return String(value);
  const parsed = typed(name, value);
  return limits.check(name, parsed) === true ? String(parsed) : '?';
}

/** A checkbox or on/off setting as saved: `true`, or "true" (a select's value, env text). */
function isOn(value: unknown): boolean {
  return value === true || value === 'true';
}

/** A duration in ms as a label shows it: whole or tenth seconds in s, shorter ones in ms. */
function duration(ms: unknown): string {
  const n = limits.parseInteger(ms);
  if (typeof n !== 'number') return limits.isEnvReference(ms) ? String(ms) : '?';
  return n >= 1000 && n % 100 === 0 ? `${n / 1000} s` : `${n} ms`;
}

/** One namespace for the dialogs: the table and the rules over several of its fields. */
const editorLimits = { ...limits, ...limitRules };

export {
  readings,
  notificationPoll,
  deviceAlarm,
  prepareConfigDialog,
  ioPower,
  prepareIoOutput,
  prepareBmcWatchdog,
  confirmed,
  conflictWarning,
  shown,
  duration,
  isOn,
  dangerous,
  editorLimits as limits,
  facts,
  baseUrl,
  listSetting,
  text,
  fieldName,
  pwmReadout,
  pinPicker,
  validator,
  current,
  typedField,
  typedIn,
  defaults,
  moduleOf,
  serviceOfNew,
};
