/**
 * io-input: configures a pin as an input: analog, or digital with an optional interrupt
 * and frequency counter. The calls follow the spec's transitions: the mode first, then
 * the interrupt and the counter, which the device accepts only in digital mode.
 */
import { registerActionNode } from './lib/action/action-node';
import { appliedOnConnect } from './lib/action/applied-on-connect';
import { PHASE } from './lib/config-node/desired-state';
import { DeviceRequest } from './lib/device/client';
import { bodyOf, Operation } from './lib/action/operation';
import { ensure, invalidInput } from './lib/base/errors';
import { t } from './lib/base/i18n';
import { check, labelled } from './lib/pure/limits';
import { payloadFields, given } from './lib/action/msg';
import { bool, int, readWith, text } from './lib/action/setting-values';
import type { NodeAPI, NodeMessage } from './lib/base/node-red';

const readSettings = readWith({
  pin: int(),
  mode: text('analog'),
  /** Interrupt trigger, or '' to leave the interrupt as it is. */
  trigger: text(),
  debounce_time_ms: int(250),
  /** Counter state, or '' to leave the counter as it is. */
  counter: text(),
  applyOnConnect: bool(true),
});
type Settings = ReturnType<typeof readSettings>;

function build(msg: NodeMessage, s: Settings): Operation {
  // `state` is the counter's field in the spec (input/digital/counter {pin, state}).
  const f = payloadFields(msg, ['pin', 'mode', 'trigger', 'debounce_time_ms', 'state']);
  const pin = given(f.pin, s.pin);
  const mode = given(f.mode, s.mode);
  const trigger = given(f.trigger, s.trigger);
  const debounce = given(f.debounce_time_ms, s.debounce_time_ms);
  const counter = given(f.state, s.counter);
  ensure(check('pin', pin, labelled('io-input', 'pin')));
  ensure(check('input_mode', mode, labelled('io-input', 'mode')));
  const requests: DeviceRequest[] = [{ method: 'POST', endpoint: ['input', 'mode'], body: { pin, mode } }];
  const parts = [t('io-input.pinMode', { pin, mode })];
  const wantsInterrupt = trigger !== '' && trigger !== undefined;
  const wantsCounter = counter !== '' && counter !== undefined;
  if (mode === 'analog' && (f.trigger !== undefined || f.debounce_time_ms !== undefined || f.state !== undefined)) {
    throw invalidInput(t('io-input.needsDigital'));
  }
  if (mode === 'digital') {
    if (wantsInterrupt) {
      ensure(check('interrupt_trigger', trigger, labelled('io-input', 'trigger')));
      ensure(check('debounce_time_ms', debounce, labelled('io-input', 'debounce_time_ms')));
      requests.push({ method: 'POST', endpoint: ['input', 'digital', 'interrupt'], body: { pin, debounce_time_ms: debounce, trigger } });
      if (trigger !== 'disabled') parts.push(t('io-input.edge', { trigger: t(`io-input.trigger.${String(trigger)}`), ms: debounce }));
    }
    if (wantsCounter) {
      ensure(check('counter_state', counter, labelled('io-input', 'state', 'counter')));
      requests.push({ method: 'POST', endpoint: ['input', 'digital', 'counter'], body: { pin, state: counter } });
      if (counter === 'enabled') parts.push(t('io-input.counter'));
    }
  }
  return { kind: 'requests', requests, status: parts.join(', ') };
}

export = function (RED: NodeAPI) {
  registerActionNode(RED, 'io-input', {
    service: 'io',
    settings: readSettings,
    build,
    // Put back after a reset, after the power configuration.
    ...appliedOnConnect(build, PHASE.pins),
    // A pin set digital reads back as digital_input or frequency_hz; a reset makes it analog.
    // One set analog tells nothing: analog is also what a reset leaves.
    async readBack(setting, client) {
      const mode = bodyOf(setting, 'input/mode');
      if (mode?.mode !== 'digital') return undefined;
      const { data } = await client.request<{ pins?: Array<{ pin: number; pin_type: string }> }>({ method: 'GET', endpoint: ['input', 'values'] }, 'settings');
      const pin = data?.pins?.find((p) => p.pin === mode.pin);
      if (!pin) return undefined;
      return pin.pin_type === 'voltage_mV' ? t('common.cause.pinReadsAnalog', { pin: String(mode.pin) }) : true;
    },
  });
};
