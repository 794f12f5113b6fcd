/**
 * Every HTTP exchange of one client: sent within the time it has, judged (verdict.ts), and
 * told to the config node however it ends: reachability to the connection, each exchange
 * to health and metrics (onExchange), an answer that proves a reset to onSettingsLost.
 */
import { concernsModule, DeviceError, isServiceDown } from '../base/errors';
import { lostSettings, settingsGone } from './settings-lost';
import type { MsgLife } from './msg-life';
import { ClientOptions, requestHeaders } from './client-options';
import { exchangeInfo } from './exchange-info';
import { exchange as httpExchange } from './transport';
import type { Channel, Target } from './channel';
import { TransportError } from './transport-error';
import { judgeAnswer, transportFailure, Where } from './verdict';
import type { SentRequest } from './request';
import { LIMITS } from '../pure/limits';

export class Exchanger {
  /** Target, headers and the answer's cap: the same for every exchange of the client. */
  private readonly channel: Channel;

  constructor(
    private readonly options: ClientOptions,
    private readonly base: URL,
    /** Where every exchange goes (origin, agent, TLS), worked out once. */
    target: Target,
    private readonly timeout: number,
    /** Requests waiting in the module's ordered queue, for onExchange. */
    private readonly queued: () => number,
  ) {
    this.channel = { target, headers: requestHeaders(options), maxBytes: (options.answerLimitKiB ?? LIMITS.answer_limit.default) * 1024 };
  }

  /**
   * One HTTP exchange, told to the onExchange hook (health, metrics) however it ends, every
   * outcome mapped to the answer's data or a DeviceError (verdict.ts). Within a queued
   * job (`life`) it has what is left of the msg's time, and is not sent when nothing is;
   * outside the queue (version record, descriptor) the whole timeout. `shape`, when given,
   * makes the result from the judged answer (a throw there rejects it, the exchange told as
   * answered). `asked`, when given, says which refusals are the answer the caller asked for
   * (the version probe's "not spoken here"): still thrown, but told as answered, not failed.
   */
  exchange(
    request: SentRequest,
    life?: MsgLife,
    shape?: (value: unknown, request: SentRequest) => unknown,
    asked?: (error: unknown) => boolean,
  ): Promise<unknown> {
    const unsent = life?.unsent(request);
    if (unsent) return Promise.reject(unsent);
    const started = performance.now();
    const timeoutMs = life?.left() ?? this.timeout;
    // Two reactions on the transport's promise, not an async function: every request of
    // every msg passes here. The request goes as it is (no object made for the transport).
    return httpExchange(this.channel, request, timeoutMs).then(
      (answer) => {
        let value: unknown;
        try {
          this.options.onReachability?.();
          value = judgeAnswer(answer, () => this.where(request, timeoutMs));
        } catch (error) {
          // Refused credentials (or TLS) concern every node of the module, not just this msg;
          // nginx's 502-504 say its service is down now, before the next health check would.
          if (concernsModule(error) || isServiceDown(error)) this.options.onReachability?.(error);
          const failure = settingsGone(error) ? lostSettings(error, this.options.onSettingsLost) : error;
          throw this.ended(request, started, timeoutMs, life, failure, asked?.(failure));
        }
        this.ended(request, started, timeoutMs, life);
        // The caller's result made here: one promise step fewer per request.
        return shape ? shape(value, request) : value;
      },
      (error: unknown) => {
        const mapped =
          error instanceof TransportError
            ? transportFailure(error, this.where(request, timeoutMs))
            : new DeviceError(`${request.method} ${request.path}: ${String(error)}`, { code: 'UNREACHABLE', method: request.method, path: request.path });
        // A device that answered badly was there all the same.
        this.options.onReachability?.(mapped.code === 'BAD_RESPONSE' ? undefined : mapped);
        throw this.ended(request, started, timeoutMs, life, mapped);
      },
    );
  }

  /**
   * An exchange ended: told to the onExchange hook (health, metrics) however it ended (a
   * refusal the caller `asked` for as answered); a failure is noted in the msg's life and
   * returned, for the caller to throw.
   */
  private ended(request: SentRequest, started: number, timeoutMs: number, life: MsgLife | undefined, error?: unknown, asked = false): unknown {
    const failure = error === undefined || !life ? error : life.noted(error, timeoutMs);
    this.options.onExchange?.(exchangeInfo(request, started, asked ? undefined : failure, this.queued()));
    return failure;
  }

  private where({ method, path }: SentRequest, timeoutMs: number): Where {
    return { method, path, host: this.base.host, timeoutMs, msgTimeoutMs: this.timeout, maxBytes: this.channel.maxBytes, auth: this.options.auth };
  }
}
