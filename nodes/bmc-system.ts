/**
 * bmc-system: the board's hard reset, the bmc module's reset (API 1.0), USB bootloader and
 * buzzer. A hard reset restarts the whole device; a module reset restarts the bmc module
 * alone (its watchdog back to the saved timeout); the USB bootloader changes how the device
 * starts next time (and for up to an hour exposes its storage over USB). All three need the
 * node's "confirm" setting and are only ever sent by a msg. The module reset sits here,
 * beside the hard reset, so the dialog shows the two resets side by side.
 */
import { registerActionNode } from './lib/action/action-node';
import { Operation, requestTo } from './lib/action/operation';
import { ensure } from './lib/base/errors';
import { t } from './lib/base/i18n';
import { check, checkBool, labelled } from './lib/pure/limits';
import { payloadFields, given } from './lib/action/msg';
import { DANGEROUS_OPERATIONS } from './lib/pure/dangerous';
import { chooseOperation, moduleReset } from './lib/action/operation-choice';
import { bool, int, readWith, text } from './lib/action/setting-values';
import type { NodeAPI, NodeMessage } from './lib/base/node-red';

const OPERATIONS = ['buzzer', 'usb_bootloader', 'hard_reset', 'module_reset'] as const;
const DANGEROUS = DANGEROUS_OPERATIONS['bmc-system'];

const readSettings = readWith({
  operation: text('buzzer'),
  mode: int(2),
  duration: int(200),
  enabled: bool(false),
  timeout: int(0),
  confirm: bool(false),
});
type Settings = ReturnType<typeof readSettings>;

function build(msg: NodeMessage, s: Settings): Operation {
  const operation = chooseOperation(msg, s.operation, OPERATIONS, { type: 'bmc-system', dangerous: DANGEROUS, confirm: s.confirm });
  const f = payloadFields(msg, ['mode', 'duration', 'enabled', 'timeout']);
  if (operation === 'hard_reset') {
    return { kind: 'requests', requests: { method: 'POST', endpoint: ['hard_reset'], body: { reset: 'yes' } }, status: t('bmc-system.hardResetSent') };
  }
  if (operation === 'module_reset') return { kind: 'requests', requests: moduleReset(), status: t('bmc-system.moduleReset') };
  if (operation === 'usb_bootloader') {
    const enabled = given(f.enabled, s.enabled);
    const timeout = given(f.timeout, s.timeout);
    ensure(checkBool(labelled('bmc-system', 'enabled'), enabled));
    ensure(check('bootloader_timeout', timeout, labelled('bmc-system', 'timeout')));
    return {
      kind: 'requests',
      requests: { method: 'POST', endpoint: ['usb_bootloader'], body: { enabled, timeout } },
      status: enabled ? t('bmc-system.bootloaderOn', { timeout }) : t('bmc-system.bootloaderOff'),
    };
  }
  // The released service needs a duration for every mode, also 0 and 1 (real §3.3).
  const mode = given(f.mode, s.mode);
  const duration = given(f.duration, s.duration);
  ensure(check('buzzer_mode', mode, labelled('bmc-system', 'mode')));
  ensure(check('buzzer_duration', duration, labelled('bmc-system', 'duration')));
  return { kind: 'requests', requests: { method: 'POST', endpoint: ['buzzer'], body: { mode, duration } }, status: t('bmc-system.buzzer', { mode, duration }) };
}

export = function (RED: NodeAPI) {
  registerActionNode(RED, 'bmc-system', {
    service: 'bmc',
    settings: readSettings,
    build,
    // After the module reset, what the package set on the module is applied again.
    resetsModule: (op) => requestTo(op, 'reset') !== undefined,
  });
};
