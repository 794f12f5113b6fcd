/**
 * io-output: sets a pin of an io module high or low (`output/state`) or to PWM
 * (`output/pwm`). Both need a power-management configuration on the module first (spec,
 * io rule 1); the device refuses them otherwise and the error says so.
 */
import { registerActionNode } from './lib/action/action-node';
import { PHASE } from './lib/config-node/desired-state';
import { settingsGone } from './lib/device/settings-lost';
import { Operation } from './lib/action/operation';
import { ensure, invalidInput } from './lib/base/errors';
import { t } from './lib/base/i18n';
import { check, labelled, parseInteger } from './lib/pure/limits';
import { checkPwm, Pwm } from './lib/pure/limit-rules';
import { badPayload, payloadFields, given } from './lib/action/msg';
import { planPwm } from './lib/pure/pwm';
import { boolSetting, intSetting } from './lib/action/setting-values';
import type { Node, NodeAPI, NodeDef, NodeMessage } from './lib/base/node-red';
import { Evaluate, evaluator, settingFromElsewhere, TypedSetting } from './lib/action/typed-setting';

interface Settings {
  pin: unknown;
  mode: 'state' | 'pwm';
  state: unknown;
  /** The timer values: given raw, or planned from frequency and duty at deploy. */
  pwm: Record<keyof Pwm, unknown>;
  /** Put the last state (or PWM) a msg set back on the pin after the module was reset. */
  restore: boolean;
  /** Pin and state the user takes from msg, flow, global or env: evaluated per msg. */
  from: { pin?: TypedSetting; state?: TypedSetting };
}

const PWM_FIELDS = ['prescaler', 'period', 'time_on'] as const;
const FIELDS = ['pin', 'state', ...PWM_FIELDS] as const;

function readSettings(def: NodeDef): Settings {
  const mode = def.mode === 'pwm' ? 'pwm' : 'state';
  let pwm: Settings['pwm'] = {
    prescaler: parseInteger(def.prescaler),
    period: parseInteger(def.period),
    time_on: parseInteger(def.time_on),
  };
  if (mode === 'pwm' && def.pwmInput !== 'raw') {
    const frequency = parseInteger(def.frequency);
    const duty = parseInteger(def.duty);
    ensure(check('pwm_frequency_hz', frequency, labelled('io-output', 'frequency')));
    ensure(check('duty_percent', duty, labelled('io-output', 'duty')));
    const plan = planPwm(frequency as number, duty as number);
    if (!plan) throw invalidInput(t('io-output.unreachableFrequency', { frequency }));
    pwm = { prescaler: plan.prescaler, period: plan.period, time_on: plan.time_on };
  }
  const from = { pin: settingFromElsewhere(def, 'pin'), state: settingFromElsewhere(def, 'state') };
  return { pin: parseInteger(def.pin), mode, state: def.state, pwm, restore: boolSetting(def.restore, false), from };
}

/** The settings for this msg: those from msg, flow, global or env evaluated now. */
function forMsg(s: Settings, node: Node, msg: NodeMessage, evaluate: Evaluate): Settings {
  const { pin, state } = s.from;
  if (!pin && !state) return s;
  return { ...s, pin: pin ? intSetting(evaluate(pin, node, msg)) : s.pin, state: state ? evaluate(state, node, msg) : s.state };
}

/** A bare payload that sets the state: true/false, 1/0, "high"/"low". */
function bareState(payload: unknown): string | undefined {
  if (payload === true || payload === 1 || payload === 'high') return 'high';
  if (payload === false || payload === 0 || payload === 'low') return 'low';
  return undefined;
}

function build(msg: NodeMessage, s: Settings): Operation {
  const payload = msg.payload;
  const fields = payloadFields(msg, FIELDS);
  const bare = bareState(payload);
  if (bare) fields.state = bare;
  else if (typeof payload === 'string' && payload !== '') throw badPayload(t('io-output.expectedValue'), payload);
  else if (Array.isArray(payload)) throw badPayload(t('io-output.expectedStateOrObject'), payload);
  // Anything else (no payload, an inject timestamp) triggers the configured action.

  const pin = given(fields.pin, s.pin);
  ensure(check('pin', pin, labelled('io-output', 'pin')));
  const givesPwm = PWM_FIELDS.some((f) => f in fields);
  if (givesPwm && 'state' in fields) throw invalidInput(t('io-output.stateOrPwm'));
  const mode = givesPwm ? 'pwm' : 'state' in fields ? 'state' : s.mode;

  if (mode === 'state') {
    const state = given(fields.state, s.state);
    ensure(check('output_state', state, labelled('io-output', 'state')));
    return {
      kind: 'requests',
      requests: { method: 'POST', endpoint: ['output', 'state'], body: { pin, state } },
      status: t('io-output.pinState', { pin, state }),
    };
  }
  const pwm = {
    prescaler: given(fields.prescaler, s.pwm.prescaler),
    period: given(fields.period, s.pwm.period),
    time_on: given(fields.time_on, s.pwm.time_on),
  };
  ensure(checkPwm(pwm, 'io-output'));
  const { prescaler, period, time_on } = pwm as Pwm;
  const plan = { prescaler, period, time_on };
  return {
    kind: 'requests',
    requests: { method: 'POST', endpoint: ['output', 'pwm'], body: { pin, ...plan } },
    status: t('io-output.pinPwm', { pin, duty: Math.round((time_on / period) * 100) }),
  };
}

export = function (RED: NodeAPI) {
  const evaluate = evaluator(RED);
  registerActionNode(RED, 'io-output', {
    service: 'io',
    settings: readSettings,
    build: (msg, s, node) => build(msg, forMsg(s, node, msg, evaluate)),
    // A pin or state from a msg (or context not yet set) is only known when a msg arrives.
    checkOnDeploy: (s) => !s.from.pin && !s.from.state,
    // Where the user asks: after a reset the pin gets its last state again, after the
    // power configuration and the pin modes.
    remembers: (s) => s.restore,
    phase: PHASE.outputs,
    // API 0.9 shows no output's state: the last one sent again is the read-back. Taken, the
    // power configuration is there (a reset takes it); refused with "Power config missing"
    // (spec io rule 1), the module forgot (the answer itself starts the settings' return,
    // settings-lost.ts). A write: only after an outage, when no read told.
    async readBack(setting, client) {
      const request = setting.kind === 'requests' ? [setting.requests].flat()[0] : undefined;
      if (!request) return undefined;
      try {
        await client.request(request, 'settings');
        return true;
      } catch (error) {
        if (settingsGone(error)) return error.deviceMessage ?? 'Power config missing';
        throw error;
      }
    },
    readBackSends: true,
  });
};
