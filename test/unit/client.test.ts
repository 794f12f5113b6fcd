/**
 * The config node's defaults, as the runtime reads them and as the editor's dialog starts
 * with them: one place (limits.ts), the numbers the README and the help promise.
 */
import fs from 'fs';
import path from 'path';
import vm from 'vm';
import should from 'should';
import { readSettings } from '../../nodes/lib/device-settings';

const root = path.resolve(__dirname, '..', '..', '..');

/** The README's and the help's defaults, written out on purpose (not read from limits.ts). */
const DEFAULTS = { timeout: 5000, queueLimit: 100, answerLimit: 64 };

/** The `defaults` of the modular-device dialog, as the editor registers them with the built bundle. */
function editorDefaults(): Record<string, { value: unknown }> {
  let registered: { defaults: Record<string, { value: unknown }> } | undefined;
  const RED = { nodes: { registerType: (_type: string, def: typeof registered) => (registered = def) }, _: (key: string) => key };
  const context = vm.createContext({ RED });
  vm.runInContext(fs.readFileSync(path.join(root, 'resources', 'editor.js'), 'utf8'), context);
  const html = fs.readFileSync(path.join(root, 'nodes', 'modular-device.html'), 'utf8');
  const script = /<script type="text\/javascript">([\s\S]*?)<\/script>/.exec(html);
  vm.runInContext(script![1], context);
  return registered!.defaults;
}

describe('client defaults: one place, read by the runtime and the editor', function () {
  it('the runtime: a config node without timeout, queue limit and answer limit gets 5000 ms, 100, 64 KiB', function () {
    const options = readSettings({ id: 'd', type: 'modular-device', z: '', service: 'io', slot: '2', timeout: '', queueLimit: '', answerLimit: '' });
    should({ timeout: options.timeout, queueLimit: options.queueLimit, answerLimit: options.answerLimitKiB }).eql(DEFAULTS);
  });

  it('the editor: a new config node starts with the same three values', function () {
    const defaults = editorDefaults();
    should({ timeout: defaults.timeout.value, queueLimit: defaults.queueLimit.value, answerLimit: defaults.answerLimit.value }).eql(DEFAULTS);
  });
});
