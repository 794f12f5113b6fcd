/**
 * The io-output dialog (io-output.html): the rows shown for the mode and PWM input chosen,
 * the pin and state as typedInputs, the pin picker, and the PWM readout, what the device
 * will really produce with the values in the form. The registerType literal stays in the html.
 */
import { conflictWarning } from './conflicts';
import { editorRed, jquery, JQ } from './page';
import { pinPicker } from './pin-picker';
import { pwmReadout } from './pwm-readout';
import { text } from './text';
import { typedField } from './typed-field';

type Red = { _(key: string, values?: Record<string, unknown>): string };

const NS = '@modular-device/node-red/io-output:io-output.';

export function prepareIoOutput(node: { id: string; type: string }): void {
  const $ = jquery<JQ>();
  const editor = editorRed<Red>();
  if (!$ || !editor) return;
  const RED: Red = editor;
  // Conflicts with other nodes (two polls, two keep-alives, a pin set up twice, an output without power), named.
  conflictWarning(node);
  function showMode(): void {
    const pwm = $('#node-input-mode').val() === 'pwm';
    const rawInput = $('#node-input-pwmInput').val() === 'raw';
    $('.io-output-state').toggle(!pwm);
    $('.io-output-pwm').toggle(pwm);
    $('.io-output-frequency').toggle(pwm && !rawInput);
    $('.io-output-raw').toggle(pwm && rawInput);
    readOut();
  }
  // What the device will really produce with the values in the form: the plan
  // (from frequency and duty) or the raw timer values, and the frequency and duty
  // cycle they give by the device's own integer maths. Numbers sit in spans with
  // stable ids (io-output-pwm-frequency, -duty, -prescaler, -period, -time_on).
  function readOut(): void {
    const ns = `${NS}pwm.`;
    const r = pwmReadout({
      pwmInput: $('#node-input-pwmInput').val(),
      frequency: $('#node-input-frequency').val(),
      duty: $('#node-input-duty').val(),
      prescaler: $('#node-input-prescaler').val(),
      period: $('#node-input-period').val(),
      time_on: $('#node-input-time_on').val(),
    });
    const box = $('#io-output-pwm-readout');
    box.empty().removeAttr('data-frequency-hz data-duty-percent').toggleClass('io-output-pwm-invalid', !r.ok).attr('data-ok', String(r.ok));
    if (!r.ok) {
      const why = r.reason === 'unreachable' ? RED._(`${NS}runtime.unreachableFrequency`, { frequency: r.frequency }) : text(r.message!);
      box.text(r.reason === 'env' ? RED._(`${ns}env`) : RED._(`${ns}invalid`, { message: why }));
      return;
    }
    const num = (id: string, value: unknown): string => `<span id="io-output-pwm-${id}">${value}</span>`;
    const values = {
      prescaler: num('prescaler', r.prescaler),
      period: num('period', r.period),
      time_on: num('time_on', r.time_on),
      frequency: num('frequency', r.frequencyHz),
      duty: num('duty', r.dutyPercent.toFixed(2)),
    };
    box.html(RED._(ns + (r.input === 'raw' ? 'gives' : 'plan'), values));
    box.attr('data-frequency-hz', String(r.frequencyHz)).attr('data-duty-percent', String(r.dutyPercent));
  }
  typedField('pin', 'num', node);
  typedField(
    'state',
    {
      value: 'state',
      label: RED._(`${NS}label.state`),
      options: [
        { value: 'high', label: RED._(`${NS}state.high`) },
        { value: 'low', label: RED._(`${NS}state.low`) },
      ],
    },
    node,
  );
  pinPicker({ node });
  $('#node-input-mode, #node-input-pwmInput').on('change', showMode);
  $('#node-input-frequency, #node-input-duty, #node-input-prescaler, #node-input-period, #node-input-time_on').on('change keyup paste input', readOut);
  showMode();
}
