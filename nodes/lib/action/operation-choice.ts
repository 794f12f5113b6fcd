/**
 * Which operation a msg runs, and whether the node may run it: written once for every node
 * with an operation select.
 *
 * A node runs the operation chosen in its dialog. A msg chooses only when the dialog says
 * so (`from msg.operation`, stored as `msg`): a stray or crafted `msg.operation` must never
 * turn a node set to "read" into one that saves a watchdog timeout or arms the bootloader.
 * Operations that change the device's persistent or running state also need the node's
 * "confirm" checkbox, whoever asks for them: a msg cannot tick it.
 */
import { describe, checkValue, labelled } from '../pure/limits';
import { ensure, invalidInput } from '../base/errors';
import { nodeText, nodeTextOr, t } from '../base/i18n';
import type { NodeMessage } from '../base/node-red';
import type { DeviceRequest } from '../device/request';
import { FROM_MSG } from '../pure/dangerous';

// Where the dialog's "from msg.operation" value is kept (a pure file, read by the flow check too).
export { FROM_MSG };

export interface OperationRules<Op extends string> {
  /** The node type: the refusals quote its dialog's own words. */
  type: string;
  /** Operations that need the node's confirm setting. */
  dangerous?: readonly Op[];
  /** The node's confirm setting. */
  confirm?: boolean;
}

/**
 * The operation for `msg`: the dialog's `setting`, or `msg.operation` when the setting is
 * `msg`. Throws INVALID_INPUT (nothing is sent) for a msg.operation the dialog does not
 * allow, an unknown one, or a dangerous one without confirm.
 */
export function chooseOperation<Op extends string>(msg: NodeMessage, setting: unknown, operations: readonly Op[], rules: OperationRules<Op>): Op {
  const wanted = msg.operation;
  let operation: unknown;
  if (setting === FROM_MSG) {
    // Required here: an absent msg.operation must not quietly fall back to some default.
    // The field as the dialog labels it; the range in the words a msg must carry.
    ensure(checkValue(labelled(rules.type, 'msg.operation', 'operation'), { kind: 'word', values: operations, source: 'node' }, wanted));
    operation = wanted;
  } else {
    // The setting itself may come from an env var: check it like any other value.
    ensure(checkValue(labelled(rules.type, 'operation'), { kind: 'word', values: [...operations, FROM_MSG], source: 'node' }, setting));
    if (wanted !== undefined && wanted !== setting) {
      const operation = operationName(rules.type, setting as string);
      throw invalidInput(t('common.operationFixed', { got: describe(wanted), operation, fromMsg: nodeText(rules.type, 'operation.msg') }));
    }
    operation = setting;
  }
  if (rules.dangerous?.includes(operation as Op)) requireConfirm(rules.type, operation as string, rules.confirm === true);
  return operation as Op;
}

/** Throws the one shared refusal (naming the operation and the checkbox as the dialog does) unless `confirm` is on. */
export function requireConfirm(type: string, operation: string, confirm: boolean): void {
  if (!confirm) throw invalidInput(t('common.needsConfirm', { operation: operationName(type, operation), confirm: nodeText(type, 'label.confirm') }));
}

/** An operation as the node's dialog lists it (`set the timeout`), else its own name (`keep-alive`). */
function operationName(type: string, operation: string): string {
  return nodeTextOr(type, `operation.${operation}`, operation);
}

/**
 * The module reset of a bmc or power module: 1.0's `POST reset {"reset":"yes"}` (real §3.1).
 * The spec (0.9) has a module reset for io only (`GET reset`), so the 0.9 dialect refuses
 * this before sending. A dangerous operation: callers require the node's confirm.
 */
export function moduleReset(): DeviceRequest {
  return { method: 'POST', endpoint: ['reset'], body: { reset: 'yes' } };
}
