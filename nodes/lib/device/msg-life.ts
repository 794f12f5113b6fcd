/**
 * A msg's life: its requests in the wire calls of the device's API version, within its
 * timeout. The layer between the client and the exchanger (ARCHITECTURE.md, "A request's
 * way"): the client hands it a job once, when its turn in the queue comes; it hands each
 * wire call down to the exchanger once, and the answers come back up through it once.
 *
 * In a plant a pin switched 20 s late is a wrong command, not a slow one. So a msg's
 * requests share one deadline (its timeout from its arrival): what has not left by then is
 * never sent, what is on the wire gets only the time left, and a job of several requests
 * stops at its first timeout. When the module does not answer one that had (nearly) its
 * whole timeout, the msgs waiting behind it end at once, unsent: a module that stopped
 * answering is not fed a backlog of old commands when it wakes. Every such end is NOT_SENT
 * (errors.ts).
 */
import { afterNoAnswer, asDeviceError, deadlinePassed, DeviceError, notAnswered } from '../base/errors';
import type { Clock } from '../base/clock';
import { DeadlinePassedError, QueueFullError, RequestQueue } from './queue';
import type { ApiVersion } from '../pure/limits';
import { answerAsIs, CallFailure, dialectFor, Translation } from './dialects';
import { wireRequest } from './wire-path';
import { renewsSession } from './renewing';
import { WHOLE_TIMEOUT_SHARE } from './verdict';
import type { Exchanger, Failures, Shape } from './exchanger';
import { DeviceRequest, DeviceResult, SentRequest, sentRequests } from './request';

/** What every msg's life of one client shares: set up by the client, read here. */
export interface ModuleWay {
  readonly slot: number;
  /** `<prefix>/api/<service>/<version>` per version. */
  readonly roots: Record<ApiVersion, string>;
  /** The request timeout of the config node, ms. */
  readonly timeoutMs: number;
  readonly clock: Clock;
  /** The layer below: one HTTP exchange. */
  readonly exchanger: Exchanger;
  /** Set by the client when it closes: the calls of a job not yet sent stay unsent. */
  closed: boolean;
}

export const CLOSED_UNSENT = 'the node was closed (redeploy or stop) before this request was sent';

/** The result of a call that passed as it is (Dialect.passesAsIs). */
const asIsResult: Shape = (value, request): DeviceResult => ({ data: answerAsIs(value, request), request });

/** One job of the module's queue: its msg's deadline, and the request the device did not answer. */
export class MsgLife implements Failures {
  /** A request of this job that got no answer in its time: the rest of the job is not sent. */
  timedOut?: DeviceError;
  /** ... after (nearly) the whole timeout: the module stopped answering (the jobs behind end, see `silenced`). */
  silent?: DeviceError;
  readonly timeoutMs: number;

  constructor(
    /** When the msg must have ended (the way's clock). */
    readonly deadline: number,
    private readonly way: ModuleWay,
    /**
     * The module's ordered queue, whose waiting jobs end NOT_SENT the moment this job's
     * request goes unanswered for (nearly) the whole timeout: while this job still runs, so
     * before the next one could start. Undefined for the keep-alive's lane.
     */
    private readonly silenced?: RequestQueue,
  ) {
    this.timeoutMs = way.timeoutMs;
  }

  /**
   * The job: one request, or several back to back, stopping at the first failure; resolves
   * with the answer of the last and every wire call of them all. `version` is the module's
   * API version, or its first read (waited for no longer than the msg's time).
   */
  run<T>(requests: DeviceRequest | DeviceRequest[], version: ApiVersion | Promise<ApiVersion>): Promise<DeviceResult<T>> {
    if (Array.isArray(requests) || typeof version !== 'string') return this.runAll(requests, version) as Promise<DeviceResult<T>>;
    return this.send(requests, version) as Promise<DeviceResult<T>>;
  }

  /** The time one exchange may take now: the timeout, or what is left of the msg's. */
  left(): number {
    return Math.min(this.timeoutMs, Math.floor(this.deadline - this.way.clock.now()));
  }

  /** Remembers a TIMEOUT of a request that had `hadMs` to get its answer (the exchanger's Failures). */
  noted(error: unknown, hadMs = this.timeoutMs): unknown {
    if (!(error instanceof DeviceError) || error.code !== 'TIMEOUT') return error;
    this.timedOut ??= error;
    if (hadMs >= this.timeoutMs * WHOLE_TIMEOUT_SHARE && !this.silent) {
      this.silent = error;
      this.silenced?.clear((count) => notAnswered(count, error));
    }
    return error;
  }

  /** Why `request` must not leave now (the device went silent, or the time is up); undefined: it may. */
  unsent(request: SentRequest): DeviceError | undefined {
    if (this.timedOut) return afterNoAnswer(request);
    return this.left() <= 0 ? deadlinePassed(this.timeoutMs, request) : undefined;
  }

  /** `work`'s outcome, or NOT_SENT once the deadline comes first (e.g. a slow first version read). */
  async within<T>(work: Promise<T>): Promise<T> {
    let cancel: (() => void) | undefined;
    const expired = new Promise<never>((_, reject) => {
      cancel = this.way.clock.later(() => reject(deadlinePassed(this.timeoutMs)), Math.max(0, this.deadline - this.way.clock.now()));
    });
    try {
      return await Promise.race([work, expired]);
    } catch (error) {
      throw this.noted(error);
    } finally {
      cancel?.();
    }
  }

  private async runAll(requests: DeviceRequest | DeviceRequest[], pending: ApiVersion | Promise<ApiVersion>): Promise<DeviceResult> {
    const version = typeof pending === 'string' ? pending : await this.within(pending);
    if (!Array.isArray(requests)) return this.send(requests, version);
    const results: DeviceResult[] = [];
    for (const req of requests) results.push(await this.send(req, version));
    return { data: results[results.length - 1].data, request: sentRequests(...results.map((r) => r.request)) };
  }

  /**
   * The dialect turns the spec-shaped request into the wire form of the device's version,
   * and judges the answers (whether a POST succeeded included). Most msgs are one wire call
   * passing as it is: sent without an async step of its own, and without a translation.
   */
  private send(req: DeviceRequest, version: ApiVersion): Promise<DeviceResult> {
    const dialect = dialectFor(version);
    const root = this.way.roots[version];
    if (dialect.passesAsIs(req)) return this.call(version, req, wireRequest(root, this.way.slot, req), asIsResult) as Promise<DeviceResult>;
    const translation = dialect.translate(req);
    if (translation.calls.length !== 1 || translation.independent) return this.sendAll(version, translation);
    const call = translation.calls[0];
    const request = wireRequest(root, this.way.slot, call);
    return this.call(version, call, request).then((answer) => ({ data: translation.answer([answer], [request]), request }));
  }

  /** One wire call handed down, unless the msg's time is up or the device went silent. */
  private call(version: ApiVersion, call: DeviceRequest, request: SentRequest, shape?: Shape): Promise<unknown> {
    const unsent = this.unsent(request);
    if (unsent) return Promise.reject(unsent);
    return this.way.exchanger.exchange(request, this.left(), this, shape, undefined, renewsSession(version, call));
  }

  private async sendAll(version: ApiVersion, translation: Translation): Promise<DeviceResult> {
    const { calls } = translation;
    const answers: unknown[] = [];
    const sent: SentRequest[] = [];
    const failures: CallFailure[] = [];
    for (let index = 0; index < calls.length; index++) {
      const call = calls[index];
      const request = wireRequest(this.way.roots[version], this.way.slot, call);
      if (!translation.independent) {
        answers.push(await this.call(version, call, request));
        sent.push(request);
        continue;
      }
      // Closed mid-way (a redeploy), the device silent or the msg's time up: the calls not
      // yet sent stay unsent (never read, so nothing is lost); the round ends in its time.
      const { method, path } = request;
      const unsent = this.way.closed ? new DeviceError(`${method} ${path}: ${CLOSED_UNSENT}`, { code: 'NOT_CONFIGURED', method, path }) : this.unsent(request);
      if (unsent) {
        failures.push({ index, error: unsent });
        answers.push(undefined);
        continue;
      }
      try {
        const answer = await this.call(version, call, request);
        answers.push(translation.arrived ? translation.arrived(index, answer, request) : answer);
        sent.push(request);
      } catch (error) {
        failures.push({ index, error: asDeviceError(error, 'UNREACHABLE') });
        answers.push(undefined);
        sent.push(request);
      }
    }
    return { data: translation.answer(answers, sent, failures), request: sentRequests(sent) };
  }
}

/**
 * The module queue's refusals in the msg's words (RequestQueue's `refusal`): full, or the
 * msg's deadline came before its turn.
 */
export function queueRefusal(timeoutMs: number): (error: QueueFullError | DeadlinePassedError) => DeviceError {
  return (error) =>
    error instanceof QueueFullError
      ? new DeviceError(`${error.message}; this msg was refused (raise "queue limit" or slow the flow down)`, { code: 'QUEUE_FULL' })
      : deadlinePassed(timeoutMs);
}
