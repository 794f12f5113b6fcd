/**
 * power-limits: sets the per-rail current limits (`limits`: limit_3v3, limit_5v0,
 * limit_12v in mA), reads the stats, which include the limits in force, or resets the power
 * module (API 1.0 `POST reset`, with the node's confirm). The reset lives here because what
 * it changes most is the limits (back to the module's defaults, the fan to automatic).
 */
import { registerActionNode } from './lib/action/action-node';
import { Operation, requestTo } from './lib/action/operation';
import { ensure } from './lib/base/errors';
import { t } from './lib/base/i18n';
import { check, labelled } from './lib/pure/limits';
import { payloadFields, given } from './lib/action/msg';
import { DANGEROUS_OPERATIONS } from './lib/pure/dangerous';
import { chooseOperation, moduleReset } from './lib/action/operation-choice';
import { boolSetting, intSetting, textSetting } from './lib/action/setting-values';
import type { NodeAPI, NodeDef, NodeMessage } from './lib/base/node-red';

const RAILS = ['limit_3v3', 'limit_5v0', 'limit_12v'] as const;
const OPERATIONS = ['set', 'read', 'module_reset'] as const;
const DANGEROUS = DANGEROUS_OPERATIONS['power-limits'];

interface Settings {
  operation: string;
  limits: Record<(typeof RAILS)[number], unknown>;
  confirm: boolean;
}

function readSettings(def: NodeDef): Settings {
  return {
    operation: textSetting(def.operation, 'read'),
    limits: { limit_3v3: intSetting(def.limit_3v3), limit_5v0: intSetting(def.limit_5v0), limit_12v: intSetting(def.limit_12v) },
    confirm: boolSetting(def.confirm, false),
  };
}

function build(msg: NodeMessage, s: Settings): Operation {
  const operation = chooseOperation(msg, s.operation, OPERATIONS, { type: 'power-limits', dangerous: DANGEROUS, confirm: s.confirm });
  if (operation === 'module_reset') return { kind: 'requests', requests: moduleReset(), status: t('power-limits.moduleReset') };
  if (operation === 'read') return { kind: 'requests', requests: { method: 'GET', endpoint: ['stats'] }, status: t('power-limits.statsRead') };
  const f = payloadFields(msg, RAILS);
  const body: Record<string, unknown> = {};
  for (const rail of RAILS) {
    body[rail] = given(f[rail], s.limits[rail]);
    ensure(check(rail, body[rail], labelled('power-limits', rail)));
  }
  return {
    kind: 'requests',
    requests: { method: 'POST', endpoint: ['limits'], body },
    status: `3V3 ${body.limit_3v3} mA, 5V0 ${body.limit_5v0} mA, 12V ${body.limit_12v} mA`,
  };
}

export = function (RED: NodeAPI) {
  registerActionNode(RED, 'power-limits', {
    service: 'power',
    settings: readSettings,
    build,
    // After the module reset, what the package set on the module is applied again.
    resetsModule: (op) => requestTo(op, 'reset') !== undefined,
  });
};
