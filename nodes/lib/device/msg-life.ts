/**
 * A msg's timeout bounds its whole life, the wait in the module's queue included.
 *
 * In a plant a pin switched 20 s late is a wrong command, not a slow one. So a msg's
 * requests share one deadline (its timeout from its arrival): what has not left by then is
 * never sent, what is on the wire gets only the time left, and a job of several requests
 * stops at its first timeout. When the module does not answer one that had (nearly) its
 * whole timeout, the msgs waiting behind it end at once, unsent: a module that stopped answering is not fed a
 * backlog of old commands when it wakes. Every such end is NOT_SENT (errors.ts).
 */
import { afterNoAnswer, deadlinePassed, DeviceError, notAnswered } from '../base/errors';
import { DeadlinePassedError, QueueFullError, realQueueClock, RequestQueue } from './queue';
import type { DeviceClient, DeviceResult, Lane } from './client';
import type { ApiVersion, Service } from '../pure/limits';
import type { DeviceRequest, SentRequest } from './request';

/**
 * The client as a conversation (several requests chosen as the answers come) sees it: its
 * requests share the deadline of the one msg (or poll round) they answer.
 */
export interface ModuleClient {
  readonly service: Service;
  readonly slot: number;
  readonly apiVersion: ApiVersion | undefined;
  request<T = unknown>(requests: DeviceRequest | DeviceRequest[], lane?: Lane): Promise<DeviceResult<T>>;
}

/**
 * A request that had at least this share of the timeout and got no answer says the module
 * stopped answering. One sent with less (it waited in the queue first) says little: on a
 * busy event loop its answer may just have come too late to be read.
 */
export const WHOLE_TIMEOUT_SHARE = 0.9;

/** The clock deadlines are on (monotonic, the queue's). */
export const lifeNow = (): number => realQueueClock.now();

/** `client` for one msg's conversation: every request of it bounded by `deadline`. */
export function bounded(client: DeviceClient, deadline: number): ModuleClient {
  return new BoundedClient(client, deadline);
}

/** A class, not an object literal with a getter: one is made per poll round of every module. */
class BoundedClient implements ModuleClient {
  readonly service: Service;
  readonly slot: number;

  constructor(
    private readonly client: DeviceClient,
    private readonly deadline: number,
  ) {
    this.service = client.service;
    this.slot = client.slot;
  }

  get apiVersion(): ApiVersion | undefined {
    return this.client.apiVersion;
  }

  request<T = unknown>(requests: DeviceRequest | DeviceRequest[], lane?: Lane): Promise<DeviceResult<T>> {
    return this.client.request<T>(requests, lane, this.deadline);
  }
}

/** One job in the module's queue: its msg's deadline, and the request the device did not answer. */
export class MsgLife {
  /** A request of this job that got no answer in its time: the rest of the job is not sent. */
  timedOut?: DeviceError;
  /** ... after (nearly) the whole timeout: the module stopped answering (the jobs behind end, see `silenced`). */
  silent?: DeviceError;

  constructor(
    /** When the msg must have ended (lifeNow's clock). */
    readonly deadline: number,
    /** The request timeout of the config node, ms. */
    readonly timeoutMs: number,
    /**
     * The module's ordered queue, whose waiting jobs end NOT_SENT the moment this job's
     * request goes unanswered for (nearly) the whole timeout: while this job still runs, so
     * before the next one could start. Undefined for the keep-alive's lane.
     */
    private readonly silenced?: RequestQueue,
  ) {}

  /** The time one exchange may take now: the timeout, or what is left of the msg's. */
  left(): number {
    return Math.min(this.timeoutMs, Math.floor(this.deadline - lifeNow()));
  }

  /** Remembers a TIMEOUT of a request that had `hadMs` to get its answer. */
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
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(deadlinePassed(this.timeoutMs)), Math.max(0, this.deadline - lifeNow()));
    });
    try {
      return await Promise.race([work, expired]);
    } catch (error) {
      throw this.noted(error);
    } finally {
      clearTimeout(timer);
    }
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
