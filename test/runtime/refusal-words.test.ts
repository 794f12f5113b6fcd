/**
 * The editor and the runtime say the same sentence for the same bad value.
 *
 * For every node type and every limited field of its dialog (the `ModularDevice.validator(...)`
 * defaults of nodes/<type>.html, read as the browser test reads them), one out-of-range
 * value is said twice:
 *  - by the editor's own validator (nodes/editor/index.ts, the function the dialog calls),
 *    with Node-RED's real i18n as the editor's `RED._`;
 *  - by the real Node-RED runtime, the node deployed with that value in its settings against
 *    the simulator: the refusal a msg gets at Catch (a config node's: its problem).
 * Both must be the very same text. No browser: the same functions both sides call.
 */
import { declaredTypes, LimitedField, limitedFields } from '../helpers/browser/cases';
import { LIMITS } from '../../nodes/lib/pure/limits';
import { validator } from '../../nodes/editor';
import { runtimeWordsInEditor } from '../helpers/i18n';
import { expectRefused } from '../helpers/bmc-power';
import { deviceNode, helper } from '../helpers/node-red';
import { ALL_MODULES, kindDevices, KINDS, loadCollect, reliabilityFlow } from '../helpers/reliability';
import { runtimeSuite } from '../helpers/runtime-suite';

/** Settings that make the dialog (and the runtime) use a field, by type and prop. */
const REVEAL: Record<string, Record<string, Record<string, unknown>>> = {
  'bmc-system': { timeout: { operation: 'usb_bootloader', enabled: true, confirm: true } },
  'bmc-usbhub': { port: { operation: 'port' } },
  'bmc-watchdog': {
    timeout: { operation: 'timeout', confirm: true, keepAlive: false },
    swShutdownTimeout: { operation: 'sw_shutdown_timeout', confirm: true, keepAlive: false },
  },
  'io-input': { counter: { mode: 'digital', trigger: '' } },
  'io-output': {
    state: { mode: 'state' },
    frequency: { mode: 'pwm', pwmInput: 'frequency', frequency: '1000', duty: '50' },
    duty: { mode: 'pwm', pwmInput: 'frequency', frequency: '1000', duty: '50' },
    prescaler: { mode: 'pwm', pwmInput: 'raw' },
    period: { mode: 'pwm', pwmInput: 'raw' },
  },
  'power-fan': { fan_mode: { operation: 'set', fan_forced: true }, wait: { operation: 'set', fan_forced: true, waitApplied: true } },
};

/** A value the field's limit refuses, as the dialog stores typed text. */
function badValue(f: LimitedField): string {
  const limit = LIMITS[f.limit];
  if (limit.kind === 'int') return String(limit.max + 1);
  if (limit.kind === 'intSet') return String(Math.max(...limit.values) + 1);
  return 'bogus';
}

/** What the dialog shows for `value` in node `node`'s field `f`: its own validator, the editor's `RED._`. */
function editorSays(f: LimitedField, node: Record<string, unknown>, value: string): string {
  const said = validator(f.limit, f.field, null, f.label).call({ ...node, type: f.type }, value, {});
  if (said === true) throw new Error(`the editor takes ${f.type} ${f.prop} = ${value}`);
  return said;
}

const CONFIG = 'modular-device';
const fields = declaredTypes().flatMap((type) => limitedFields(type));

describe('editor and runtime say the same refusal for every limited field (runtime, simulator)', function () {
  this.timeout(15000);
  const { ctl } = runtimeSuite();
  runtimeWordsInEditor();

  it('finds the limited fields of every dialog', () => {
    fields.length.should.be.above(30);
    fields.filter((f) => f.type === CONFIG).length.should.equal(6);
  });

  for (const f of fields.filter((x) => x.type === CONFIG)) {
    it(`${f.type} ${f.prop}: the dialog's words are the config node's problem`, async () => {
      const value = badValue(f);
      const dev = { ...deviceNode({ id: 'dev', url: ctl.url, service: 'io', slot: 2 }), [f.prop]: value };
      await helper.load(ALL_MODULES, [dev]);
      helper.getNode('dev').problem.should.equal(editorSays(f, dev, value));
    });
  }

  for (const f of fields.filter((x) => x.type !== CONFIG)) {
    it(`${f.type} ${f.prop}: the dialog's words are the refusal at Catch`, async () => {
      // A node of no module (device-alarm-list) is none of the reliability kinds: its own settings only.
      const kind = KINDS.find((k) => k.type === f.type);
      const value = badValue(f);
      const node = { id: 'n', type: f.type, device: kind?.device, ...kind?.settings, ...REVEAL[f.type]?.[f.prop], [f.prop]: value };
      const outcomes = await loadCollect(reliabilityFlow([node], kindDevices(ctl.url)));
      await expectRefused(ctl, outcomes, 'n', { payload: {} }, editorSays(f, node, value));
    });
  }
});
