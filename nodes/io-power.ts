/**
 * io-power: sends the module's power-management configuration: for each of the six pins
 * the supply rail and the most current the application allows. The device refuses outputs
 * until it has one (spec, io rule 1), so by default the node sends it whenever the module
 * connects: on deploy and again after a device restart.
 */
import { registerActionNode } from './lib/action/action-node';
import { appliedOnConnect } from './lib/action/applied-on-connect';
import { PHASE } from './lib/config-node/desired-state';
import { Operation } from './lib/action/operation';
import { ensure } from './lib/base/errors';
import { t } from './lib/base/i18n';
import { checkPowerConfig, PowerEntry } from './lib/pure/limit-rules';
import { FACTS } from './lib/pure/facts';
import { payloadFields } from './lib/action/msg';
import { boolSetting, intSetting } from './lib/action/setting-values';
import type { NodeAPI, NodeDef, NodeMessage } from './lib/base/node-red';

interface Settings {
  config: unknown[];
  applyOnConnect: boolean;
}

function readSettings(def: NodeDef): Settings {
  const pins = Array.isArray(def.pins) ? def.pins : [];
  const config = pins.map((entry: unknown, i: number) => {
    const e = (entry ?? {}) as Record<string, unknown>;
    return { pin: i + 1, rail: e.rail, current: intSetting(e.current) };
  });
  return { config, applyOnConnect: boolSetting(def.applyOnConnect, true) };
}

function build(msg: NodeMessage, s: Settings): Operation {
  const { config = s.config } = payloadFields(msg, ['config']);
  ensure(checkPowerConfig(config, 'io-power'));
  const entries = config as PowerEntry[];
  // Send exactly the checked fields, in pin order, whatever else the msg carried.
  const body = { config: entries.map(({ pin, rail, current }) => ({ pin, rail, current })).sort((a, b) => a.pin - b.pin) };
  const total = entries.reduce((sum, e) => sum + e.current, 0);
  return {
    kind: 'requests',
    requests: { method: 'POST', endpoint: ['power-management'], body },
    status: t('io-power.done', { pins: FACTS.pinCount, total }),
  };
}

export = function (RED: NodeAPI) {
  registerActionNode(RED, 'io-power', {
    service: 'io',
    settings: readSettings,
    build,
    // First after a reset: outputs need it (spec io rule 1).
    ...appliedOnConnect(build, PHASE.power),
    // API 1.0: an accepted configuration makes the driver re-read the module (a new
    // device_session), which the connection adopts instead of taking it for a reset.
    renewsSession: true,
  });
};
