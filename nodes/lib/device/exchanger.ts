/**
 * Every HTTP exchange of one client, the last layer above the wire (ARCHITECTURE.md, "A
 * request's way"): sent within the time the layer above gave it, judged (verdict.ts), and,
 * on the answer's way up, told however it ended: to the msg's life that handed it down (a
 * failure noted), then to the client's listeners (client-events.ts): reachability to the
 * connection, each exchange to health and metrics, an answer that proves a reset.
 */
import { concernsModule, DeviceError, isServiceDown } from '../base/errors';
import { lostSettings, settingsGone } from './settings-lost';
import { ClientOptions, requestHeaders } from './client-options';
import { exchangeInfo } from './exchange-info';
import { exchange as httpExchange } from './transport';
import type { Channel, Target } from './channel';
import type { ClientReport } from './client-events';
import { TransportError } from './transport-error';
import { judgeAnswer, transportFailure, Where } from './verdict';
import type { SentRequest } from './request';
import type { RequestQueue } from './queue';
import { LIMITS } from '../pure/limits';

/** Makes the caller's result from the judged answer (a throw there rejects it, the exchange told as answered). */
export type Shape = (value: unknown, request: SentRequest) => unknown;

/**
 * Who handed the exchange down and hears its failure first, on the way up (the msg's life,
 * msg-life.ts): it may put the failure in its own words, and returns the one to throw.
 */
export interface Failures {
  noted(error: unknown, hadMs: number): unknown;
}

export class Exchanger {
  /** Target, headers and the answer's cap: the same for every exchange of the client. */
  private readonly channel: Channel;

  constructor(
    private readonly options: ClientOptions,
    private readonly base: URL,
    /** Where every exchange goes (origin, agent, TLS), worked out once. */
    target: Target,
    private readonly timeout: number,
    private readonly report: ClientReport,
    /** The module's ordered queue: how many wait, for the exchange's info. */
    private readonly queue: Pick<RequestQueue, 'size'>,
  ) {
    this.channel = { target, headers: requestHeaders(options), maxBytes: (options.answerLimitKiB ?? LIMITS.answer_limit.default) * 1024 };
  }

  /**
   * One HTTP exchange within `timeoutMs`, told to the listeners however it ends, every
   * outcome mapped to the answer's data or a DeviceError (verdict.ts). `failures` (the
   * msg's life) hears a failure first. `shape`, when given, makes the result from the judged
   * answer. `asked`, when given, says which refusals are the answer the caller asked for
   * (the version probe's "not spoken here"): still thrown, but told as answered, not failed.
   * `renews`: a write after which the driver re-reads the module (renewing.ts), told
   * before it leaves and once it has ended.
   */
  exchange(request: SentRequest, timeoutMs: number, failures?: Failures, shape?: Shape, asked?: (error: unknown) => boolean, renews = false): Promise<unknown> {
    if (renews) this.report.renewing('sent');
    const started = performance.now();
    // Two reactions on the transport's promise, not an async function: every request of
    // every msg passes here. The request goes as it is (no object made for the transport).
    const exchanged = httpExchange(this.channel, request, timeoutMs).then(
      (answer) => {
        let value: unknown;
        try {
          this.report.reachability();
          value = judgeAnswer(answer, () => this.where(request, timeoutMs));
        } catch (error) {
          // Refused credentials (or TLS) concern every node of the module, not just this msg;
          // nginx's 502-504 say its service is down now, before the next health check would.
          if (concernsModule(error) || isServiceDown(error)) this.report.reachability(error);
          const failure = settingsGone(error) ? lostSettings(error, this.report) : error;
          throw this.ended(request, started, timeoutMs, failures, failure, asked?.(failure));
        }
        this.ended(request, started, timeoutMs, failures);
        // The caller's result made here: one promise step fewer per request.
        return shape ? shape(value, request) : value;
      },
      (error: unknown) => {
        const mapped =
          error instanceof TransportError
            ? transportFailure(error, this.where(request, timeoutMs))
            : new DeviceError(`${request.method} ${request.path}: ${String(error)}`, { code: 'UNREACHABLE', method: request.method, path: request.path });
        // A device that answered badly was there all the same.
        this.report.reachability(mapped.code === 'BAD_RESPONSE' ? undefined : mapped);
        throw this.ended(request, started, timeoutMs, failures, mapped);
      },
    );
    return renews ? exchanged.finally(this.renewed) : exchanged;
  }

  private readonly renewed = (): void => this.report.renewing('ended');

  /**
   * An exchange ended: a failure noted by who handed it down (`failures`), then told to
   * the listeners however it ended (a refusal the caller `asked` for as answered); the
   * failure is returned, for the caller to throw.
   */
  private ended(request: SentRequest, started: number, timeoutMs: number, failures: Failures | undefined, error?: unknown, asked = false): unknown {
    const failure = error === undefined || !failures ? error : failures.noted(error, timeoutMs);
    if (this.report.hearsExchanges) this.report.exchange(exchangeInfo(request, started, asked ? undefined : failure, this.queue.size));
    return failure;
  }

  private where({ method, path }: SentRequest, timeoutMs: number): Where {
    return { method, path, host: this.base.host, timeoutMs, msgTimeoutMs: this.timeout, maxBytes: this.channel.maxBytes, auth: this.options.auth };
  }
}
