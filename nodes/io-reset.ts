/**
 * io-reset: `GET reset`, the module back to its initial state (every pin analog input,
 * thresholds, interrupts, counters, notifications and power management gone). It runs
 * only when a msg asks, never on deploy, and only with the node's "confirm" setting on.
 */
import { registerActionNode } from './lib/action/action-node';
import { Operation } from './lib/action/operation';
import { t } from './lib/base/i18n';
import { DANGEROUS_OPERATIONS } from './lib/pure/dangerous';
import { requireConfirm } from './lib/action/operation-choice';
import { boolSetting } from './lib/action/setting-values';
import type { NodeAPI, NodeDef } from './lib/base/node-red';

interface Settings {
  confirm: boolean;
}

function build(_msg: unknown, s: Settings): Operation {
  requireConfirm('io-reset', DANGEROUS_OPERATIONS['io-reset'][0], s.confirm);
  return { kind: 'requests', requests: { method: 'GET', endpoint: ['reset'] }, status: t('io-reset.done') };
}

export = function (RED: NodeAPI) {
  registerActionNode(RED, 'io-reset', {
    service: 'io',
    settings: (def: NodeDef) => ({ confirm: boolSetting(def.confirm, false) }),
    build,
    // What the package set on the module is applied again after the reset.
    resetsModule: true,
  });
};
