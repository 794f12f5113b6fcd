/**
 * power-fan: the power module's fan. Read it; set forced mode and speed (`fan_forced`,
 * `fan_mode` 0/20/40/60/80/100 %); read the rpm; switch rpm measurement on or off.
 *
 * The fan takes up to 10 s to reach a new mode (spec, power fan). With "wait until
 * applied" the node polls `fan` until `fan_current_mode` equals the setting and only then
 * sends the msg on; if it does not within the wait, the msg fails with a timeout error.
 */
import { registerActionNode } from './lib/action/action-node';
import { DeviceResult, ModuleClient } from './lib/device/client';
import { Operation } from './lib/action/operation';
import { DeviceError, ensure } from './lib/base/errors';
import { t } from './lib/base/i18n';
import { sentRequests } from './lib/device/request';
import { check, checkBool, labelled } from './lib/pure/limits';
import { FACTS } from './lib/pure/facts';
import { payloadFields, given } from './lib/action/msg';
import { chooseOperation } from './lib/action/operation-choice';
import { bool, int, readWith, text } from './lib/action/setting-values';
import type { NodeAPI, NodeDef, NodeMessage } from './lib/base/node-red';

const OPERATIONS = ['read', 'set', 'rpm', 'measurement'] as const;
const WAIT_POLL_MS = 250;

const readFields = readWith({
  operation: text('read'),
  fan_forced: bool(true),
  fan_mode: int(60),
  measurement_enabled: bool(true),
  waitApplied: bool(false),
  // A little more than the documented 10 s, so a fan on time is not called late.
  wait: int(FACTS.fanApplyDelayMs + 2000),
});
type Settings = ReturnType<typeof readFields>;

function readSettings(def: NodeDef): Settings {
  const s = readFields(def);
  ensure(check('fan_wait', s.wait, labelled('power-fan', 'wait')));
  return s;
}

interface Fan {
  fan_forced: boolean;
  fan_current_mode: number;
  fan_setting_mode: number;
}

/**
 * Sets the fan, then reads it until the current mode is the one set, or the wait (counted
 * from the msg, as the deadline of its requests is: timeout + wait) is over.
 */
function setAndWait(body: { fan_forced: boolean; fan_mode: number }, waitMs: number) {
  return async (client: ModuleClient): Promise<DeviceResult> => {
    const until = Date.now() + waitMs;
    const set = await client.request({ method: 'POST', endpoint: ['fan'], body });
    const sent = [set.request];
    for (;;) {
      const read = await client.request<Fan>({ method: 'GET', endpoint: ['fan'] });
      sent.push(read.request);
      if (read.data.fan_current_mode === body.fan_mode) return { data: read.data, request: sentRequests(...sent) };
      if (Date.now() >= until) {
        throw new DeviceError(
          t('power-fan.notReached', { mode: body.fan_mode, wait: waitMs, now: read.data.fan_current_mode }),
          // GET fan is one wire call on every API version.
          { code: 'TIMEOUT', method: 'GET', path: [read.request].flat()[0].path },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    }
  };
}

function build(msg: NodeMessage, s: Settings): Operation {
  // Nothing here changes more than the fan: no operation needs confirm.
  const operation = chooseOperation(msg, s.operation, OPERATIONS, { type: 'power-fan' });
  const f = payloadFields(msg, ['fan_forced', 'fan_mode', 'measurement_enabled']);
  switch (operation) {
    case 'set': {
      const fan_forced = given(f.fan_forced, s.fan_forced);
      const fan_mode = given(f.fan_mode, s.fan_mode);
      ensure(checkBool(labelled('power-fan', 'fan_forced'), fan_forced));
      ensure(check('fan_mode', fan_mode, labelled('power-fan', 'fan_mode')));
      const body = { fan_forced: fan_forced as boolean, fan_mode: fan_mode as number };
      const status = fan_forced ? t('power-fan.forced', { mode: fan_mode }) : t('power-fan.automatic');
      // Only a forced mode has a known target to wait for; automatic picks its own.
      if (s.waitApplied && fan_forced)
        return {
          kind: 'conversation',
          run: setAndWait(body, s.wait as number),
          waitsMs: s.wait as number,
          status,
          busyStatus: t('power-fan.setting', { mode: fan_mode }),
        };
      return { kind: 'requests', requests: { method: 'POST', endpoint: ['fan'], body }, status };
    }
    case 'rpm':
      return { kind: 'requests', requests: { method: 'GET', endpoint: ['fan', 'rpm'] }, status: t('power-fan.rpmRead') };
    case 'measurement': {
      const measurement_enabled = given(f.measurement_enabled, s.measurement_enabled);
      ensure(checkBool(labelled('power-fan', 'measurement_enabled'), measurement_enabled));
      return {
        kind: 'requests',
        requests: { method: 'POST', endpoint: ['fan', 'rpm'], body: { measurement_enabled } },
        status: t(measurement_enabled ? 'power-fan.measurementOn' : 'power-fan.measurementOff'),
      };
    }
    default:
      return { kind: 'requests', requests: { method: 'GET', endpoint: ['fan'] }, status: t('common.read') };
  }
}

export = function (RED: NodeAPI) {
  registerActionNode(RED, 'power-fan', {
    service: 'power',
    settings: readSettings,
    build,
    output: (result, msg, _s, op) => {
      msg.payload = result.data;
      msg.request = result.request;
      const data = result.data as Partial<Fan> & { rpm?: number };
      const status =
        typeof data.rpm === 'number'
          ? t('power-fan.rpm', { rpm: data.rpm })
          : typeof data.fan_current_mode === 'number'
            ? t('power-fan.at', { mode: data.fan_current_mode })
            : op.status;
      return { msgs: [msg], status };
    },
  });
};
