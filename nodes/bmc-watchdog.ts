/**
 * bmc-watchdog: the board's watchdog, which hard resets the device when its timeout runs
 * out. One node, one operation chosen in the editor (or by `msg.operation` when the editor
 * says "from msg.operation"): read the state, set the timeout, `alive`, `save`, start a
 * `shutdown`, set the shutdown timeout.
 *
 * Setting the timeout arms a reset, `save` makes it survive every reset (a timeout too short
 * for the flow then gives a reset loop), the shutdown and its timeout reset the device: all
 * need the node's "confirm" setting, and so does the keep-alive, which sets the timeout.
 *
 * Keep-alive: while deployed the node itself sets the timeout when the module connects and
 * sends `alive` every N ms (at most half the timeout), showing the interval and timeout after each
 * round. It stops on close, and then the device resets once the timeout runs out: that is
 * the point of a watchdog. A failed round is reported at once; the device is about to reset.
 */
import { registerActionNode } from './lib/action/action-node';
import { PHASE } from './lib/config-node/desired-state';
import { DeviceResult, ModuleClient } from './lib/device/client';
import { bodyOf, Operation, Outcome, requestTo } from './lib/action/operation';
import { DeviceError, ensure } from './lib/base/errors';
import { t } from './lib/base/i18n';
import { check, labelled } from './lib/pure/limits';
import { checkKeepAlive } from './lib/pure/limit-rules';
import { payloadFields, given } from './lib/action/msg';
import { DANGEROUS_OPERATIONS, KEEP_ALIVE_OPERATION } from './lib/pure/dangerous';
import { chooseOperation, requireConfirm } from './lib/action/operation-choice';
import { bool, int, readWith, text } from './lib/action/setting-values';
import { KeepAliveWatch } from './lib/action/keep-alive-watch';
import { publish } from './lib/config-node/health';
import type { NodeAPI, NodeDef, NodeMessage } from './lib/base/node-red';

const OPERATIONS = ['read', 'timeout', 'alive', 'save', 'shutdown', 'sw_shutdown_timeout'] as const;
type Op = (typeof OPERATIONS)[number];
const DANGEROUS: readonly Op[] = DANGEROUS_OPERATIONS['bmc-watchdog'];

const readFields = readWith({
  operation: text('read'),
  timeout: int(0),
  swShutdownTimeout: int(60000),
  confirm: bool(false),
  keepAlive: bool(false),
  interval: int(1000),
});
type Settings = ReturnType<typeof readFields> & {
  /** Watches the keep-alive while it runs (see action/keep-alive-watch.ts). */
  watch?: KeepAliveWatch;
  /** Tells the config node the timeout is gone from the module (ActionNode.settingGone). */
  gone?: (proof: string) => void;
};

function readSettings(def: NodeDef): Settings {
  const s = readFields(def);
  if (s.keepAlive) {
    ensure(checkKeepAlive(s.interval, s.timeout, 'bmc-watchdog'));
    // Refused here, as a settings problem: registerActionNode then neither applies anything
    // on connect nor polls, so no path below sends a keep-alive without confirm.
    requireConfirm('bmc-watchdog', KEEP_ALIVE_OPERATION, s.confirm);
  }
  return s;
}

interface WatchdogState {
  timeout?: number;
  timeout_left?: number;
}

/** Marks the node's own keep-alive rounds: their output is a status, no msg. */
type Round = { keepAlive?: true };

function build(msg: NodeMessage, s: Settings): Operation<Round> {
  const operation = chooseOperation(msg, s.operation, OPERATIONS, { type: 'bmc-watchdog', dangerous: DANGEROUS, confirm: s.confirm });
  const { timeout } = payloadFields(msg, ['timeout']);
  switch (operation) {
    case 'read':
      return { kind: 'requests', requests: { method: 'GET', endpoint: ['watchdog'] }, status: t('common.read') };
    case 'timeout': {
      const value = given(timeout, s.timeout);
      ensure(check('watchdog_timeout', value, labelled('bmc-watchdog', 'timeout')));
      return {
        kind: 'requests',
        requests: { method: 'POST', endpoint: ['watchdog'], body: { timeout: value } },
        status: value === 0 ? t('bmc-watchdog.off') : t('bmc-watchdog.timeout', { timeout: value }),
      };
    }
    case 'alive':
      // Alives from a flow are keep-alives too: they take the lane that never waits.
      return { kind: 'requests', requests: { method: 'GET', endpoint: ['watchdog', 'alive'] }, lane: 'keep-alive', status: t('bmc-watchdog.alive') };
    case 'save':
      return { kind: 'requests', requests: { method: 'GET', endpoint: ['watchdog', 'save'] }, status: t('bmc-watchdog.saved') };
    case 'shutdown':
      return {
        kind: 'requests',
        requests: { method: 'POST', endpoint: ['watchdog', 'shutdown'], body: { shutdown: 'start' } },
        status: t('bmc-watchdog.shutdownStarted'),
      };
    case 'sw_shutdown_timeout': {
      const value = given(timeout, s.swShutdownTimeout);
      ensure(check('sw_shutdown_timeout', value, labelled('bmc-watchdog', 'timeout', 'swShutdownTimeout')));
      return {
        kind: 'requests',
        requests: { method: 'POST', endpoint: ['watchdog', 'sw_shutdown_timeout'], body: { timeout: value } },
        status: t('bmc-watchdog.shutdownTimeout', { timeout: value }),
      };
    }
  }
}

/**
 * A keep-alive round: alive, then the state for the status. A device that was reset (by its
 * watchdog, a hard reset or a shutdown) comes back with the watchdog off and refuses
 * `alive`; the round then sets the timeout again, so the keep-alive keeps guarding it.
 */
function keepAliveRound(s: Settings): Operation<Round> {
  const alive = { method: 'GET' as const, endpoint: ['watchdog', 'alive'] };
  return {
    kind: 'conversation',
    run: async (client: ModuleClient) => {
      let rearmed = false;
      // Every request of the round in the keep-alive's own lane: none waits behind the
      // module's other requests.
      try {
        await client.request(alive, 'keep-alive');
      } catch (error) {
        if (!(error instanceof DeviceError && error.statusCode === 500 && (error.deviceMessage ?? '').includes('not enabled'))) throw error;
        // Told before re-arming: a read-back after it would find the timeout in place.
        s.gone?.(t('common.cause.aliveRefused', { message: error.deviceMessage ?? '', set: String(s.timeout) }));
        await client.request({ method: 'POST', endpoint: ['watchdog'], body: { timeout: s.timeout } }, 'keep-alive');
        await client.request(alive, 'keep-alive');
        rearmed = true;
      }
      s.watch?.alive();
      const state = await client.request<WatchdogState>({ method: 'GET', endpoint: ['watchdog'] }, 'keep-alive');
      return { data: { ...state.data, rearmed }, request: state.request };
    },
    status: t('bmc-watchdog.alive'),
    keepAlive: true,
  };
}

function output(result: DeviceResult, msg: NodeMessage, s: Settings, op: Operation<Round>): Outcome {
  const state = result.data as WatchdogState;
  if (op.keepAlive) {
    const rearmed = (result.data as { rearmed?: boolean }).rearmed;
    // timeout_left read right after an alive is always the whole timeout: the status says
    // what holds instead, how often the alive goes and the timeout the device has armed.
    const said = { interval: s.interval as number, timeout: state.timeout };
    return { msgs: [], status: t(rearmed ? 'bmc-watchdog.keepAliveRearmed' : 'bmc-watchdog.keepAlive', said) };
  }
  msg.payload = result.data;
  msg.request = result.request;
  const status = typeof state?.timeout_left === 'number' ? t('bmc-watchdog.state', { timeout: state.timeout, left: state.timeout_left }) : undefined;
  return { msgs: [msg], status };
}

export = function (RED: NodeAPI) {
  registerActionNode(RED, 'bmc-watchdog', {
    service: 'bmc',
    settings: readSettings,
    build,
    output,
    phase: PHASE.watchdog,
    // A reset device comes back with the watchdog off unless its timeout was saved; a
    // timeout of 0 tells nothing (off is what a reset leaves).
    async readBack(setting, client) {
      const set = bodyOf(setting, 'watchdog');
      if (typeof set?.timeout !== 'number' || set.timeout === 0) return undefined;
      const { data } = await client.request<WatchdogState>({ method: 'GET', endpoint: ['watchdog'] }, 'keep-alive');
      if (typeof data?.timeout !== 'number') return undefined;
      return data.timeout === set.timeout ? true : t('common.cause.watchdogReads', { read: data.timeout, set: set.timeout });
    },
    // A timeout a msg set is read back after an outage, never put back: re-armed after the
    // reset it caused, it would cause the next one (the flow re-arms it, as its keep-alive
    // decides). A saved timeout survives a reset: it proves nothing any more.
    witness: (op) => {
      const set = bodyOf(op, 'watchdog');
      if (typeof set?.timeout === 'number') return set.timeout > 0 ? op : null;
      return requestTo(op, 'watchdog/save') ? null : undefined;
    },
    onConnect: (s) =>
      s.keepAlive
        ? {
            kind: 'requests',
            requests: { method: 'POST', endpoint: ['watchdog'], body: { timeout: s.timeout } },
            status: t('bmc-watchdog.timeout', { timeout: s.timeout }),
          }
        : undefined,
    poll: { interval: (s) => (s.keepAlive ? (s.interval as number) : 0), build: keepAliveRound, backoff: false },
    start(node, s) {
      if (!s.keepAlive) return undefined;
      s.gone = (proof) => node.settingGone(proof);
      // Late alives are told while there is time to act: status and a msg on the output.
      s.watch = new KeepAliveWatch(s.interval as number, s.timeout as number, (late) => {
        node.report({ fill: 'yellow', shape: 'dot', text: t('bmc-watchdog.keepAliveLate', { since: late.sinceMs, left: late.resetInMs }) });
        node.send({ topic: 'keepalive-late', payload: { since_ms: late.sinceMs, timeout_ms: late.timeoutMs, reset_in_ms: late.resetInMs } });
        const module = node.device?.connection?.healthModule;
        if (module)
          publish('keepalive-late', module, t('common.cause.keepAliveLate', { ms: late.sinceMs }), {
            since_ms: late.sinceMs,
            timeout_ms: late.timeoutMs,
            reset_in_ms: late.resetInMs,
          });
      });
      s.watch.start();
      return () => s.watch?.stop();
    },
  });
};
