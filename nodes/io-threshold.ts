/**
 * io-threshold: arms or disarms the analog threshold of a pin (`input/analog/threshold`).
 * Each crossing then sets the pin's notification (read it with notification-poll).
 *
 * The spec allows a threshold only in analog mode, so by default the node first sends
 * `input/mode` analog for the pin, in the same turn of the module's queue.
 */
import { registerActionNode } from './lib/action/action-node';
import { appliedOnConnect } from './lib/action/applied-on-connect';
import { PHASE } from './lib/config-node/desired-state';
import { DeviceRequest } from './lib/device/client';
import { Operation } from './lib/action/operation';
import { ensure } from './lib/base/errors';
import { t } from './lib/base/i18n';
import { check, labelled } from './lib/pure/limits';
import { payloadFields, given } from './lib/action/msg';
import { bool, int, readWith } from './lib/action/setting-values';
import type { NodeAPI, NodeMessage } from './lib/base/node-red';

const readSettings = readWith({
  pin: int(),
  threshold_mV: int(),
  // As saved: build checks it, with a msg's trigger in its place.
  trigger: (value: unknown) => value,
  analogFirst: bool(true),
  applyOnConnect: bool(true),
});
type Settings = ReturnType<typeof readSettings>;

function build(msg: NodeMessage, s: Settings): Operation {
  const fields = payloadFields(msg, ['pin', 'threshold_mV', 'trigger']);
  const pin = given(fields.pin, s.pin);
  const threshold_mV = given(fields.threshold_mV, s.threshold_mV);
  const trigger = given(fields.trigger, s.trigger);
  ensure(check('pin', pin, labelled('io-threshold', 'pin')));
  // The released service checks the range even when the trigger is `disabled`.
  ensure(check('threshold_mV', threshold_mV, labelled('io-threshold', 'threshold_mV')));
  ensure(check('threshold_trigger', trigger, labelled('io-threshold', 'trigger')));
  const requests: DeviceRequest[] = [];
  if (s.analogFirst) requests.push({ method: 'POST', endpoint: ['input', 'mode'], body: { pin, mode: 'analog' } });
  requests.push({ method: 'POST', endpoint: ['input', 'analog', 'threshold'], body: { pin, threshold_mV, trigger } });
  return {
    kind: 'requests',
    requests,
    status:
      trigger === 'disabled'
        ? t('io-threshold.off', { pin })
        : t('io-threshold.armed', { pin, trigger: t(`io-threshold.trigger.${trigger}`), threshold: threshold_mV }),
  };
}

export = function (RED: NodeAPI) {
  registerActionNode(RED, 'io-threshold', {
    service: 'io',
    settings: readSettings,
    build,
    // Put back after a reset, after the power configuration.
    ...appliedOnConnect(build, PHASE.pins),
  });
};
