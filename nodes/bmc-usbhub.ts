/**
 * bmc-usbhub: the board's USB hub. Read its state; enable or disable the hub or one port;
 * apply the stored settings with `usbhub/reset`. Settings take effect only on that reset,
 * and the reset disconnects every USB device, so it needs the node's "confirm" setting.
 */
import { registerActionNode } from './lib/action/action-node';
import { Operation } from './lib/action/operation';
import { ensure } from './lib/base/errors';
import { t } from './lib/base/i18n';
import { check, checkBool, labelled } from './lib/pure/limits';
import { payloadFields, given } from './lib/action/msg';
import { DANGEROUS_OPERATIONS } from './lib/pure/dangerous';
import { chooseOperation } from './lib/action/operation-choice';
import { bool, int, readWith, text } from './lib/action/setting-values';
import type { NodeAPI, NodeMessage } from './lib/base/node-red';

/** `devices` lists the plugged USB devices: API 1.0 devices only. */
const OPERATIONS = ['read', 'hub', 'port', 'reset', 'devices'] as const;
const DANGEROUS = DANGEROUS_OPERATIONS['bmc-usbhub'];

const readSettings = readWith({ operation: text('read'), port: int(2), state: bool(true), confirm: bool(false) });
type Settings = ReturnType<typeof readSettings>;

function build(msg: NodeMessage, s: Settings): Operation {
  const operation = chooseOperation(msg, s.operation, OPERATIONS, { type: 'bmc-usbhub', dangerous: DANGEROUS, confirm: s.confirm });
  const f = payloadFields(msg, ['port', 'state']);
  const state = given(f.state, s.state);
  switch (operation) {
    case 'hub':
      ensure(checkBool(labelled('bmc-usbhub', 'state'), state));
      return {
        kind: 'requests',
        requests: { method: 'POST', endpoint: ['usbhub'], body: { state } },
        status: t(state ? 'bmc-usbhub.hubOn' : 'bmc-usbhub.hubOff'),
      };
    case 'port': {
      const port = given(f.port, s.port);
      ensure(check('usb_port', port, labelled('bmc-usbhub', 'port')));
      ensure(checkBool(labelled('bmc-usbhub', 'state'), state));
      return {
        kind: 'requests',
        requests: { method: 'POST', endpoint: ['usbhub', 'port', port as number], body: { state } },
        status: t(state ? 'bmc-usbhub.portOn' : 'bmc-usbhub.portOff', { port }),
      };
    }
    case 'reset':
      return { kind: 'requests', requests: { method: 'POST', endpoint: ['usbhub', 'reset'], body: { reset: 'yes' } }, status: t('bmc-usbhub.resetDone') };
    case 'devices':
      return { kind: 'requests', requests: { method: 'GET', endpoint: ['usbhub', 'devices'] }, status: t('bmc-usbhub.devicesListed') };
    default:
      return { kind: 'requests', requests: { method: 'GET', endpoint: ['usbhub'] }, status: t('common.read') };
  }
}

export = function (RED: NodeAPI) {
  registerActionNode(RED, 'bmc-usbhub', { service: 'bmc', settings: readSettings, build });
};
