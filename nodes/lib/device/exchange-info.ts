/**
 * One HTTP exchange of the client as health and metrics see it (client-events.ts exchange):
 * method, path, time and outcome. Never a body or a header, so never a credential.
 */
import type { SentRequest } from './request';

export interface ExchangeInfo {
  /** What it is among the tallies metrics count (config-node/health.ts `Tally`): one object serves both. */
  kind: 'exchange';
  method: string;
  path: string;
  /** From sending to the verdict on the answer (or the failure), 0.01 ms steps. */
  ms: number;
  ok: boolean;
  /** The DeviceError's code (TIMEOUT, DEVICE_ERROR...) when not ok. */
  code?: string;
  /** Requests waiting in the module's ordered queue when this one ended. */
  queued: number;
}

/** `failure` undefined: the exchange succeeded; `started` is a performance.now() reading. */
export function exchangeInfo(request: SentRequest, started: number, failure: unknown, queued: number): ExchangeInfo {
  const ms = Math.round((performance.now() - started) * 100) / 100;
  if (failure === undefined) return { kind: 'exchange', method: request.method, path: request.path, ms, ok: true, queued };
  const code = typeof (failure as { code?: unknown })?.code === 'string' ? (failure as { code: string }).code : 'UNREACHABLE';
  return { kind: 'exchange', method: request.method, path: request.path, ms, ok: false, code, queued };
}
