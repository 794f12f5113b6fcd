/**
 * The DCMD writes sent to the action nodes and waiting for their answer (the node's output,
 * or a Catch node's msg with msg.error, wired back into fleet-publish). Sparkplug has no reply
 * topic: a write that failed, or had no answer within FLEET_BOUNDS.replyTimeoutMs, is told as
 * a refusal (the node's status, Catch, the refused count); one that worked shows as the
 * metric's new value.
 */
import { numberText, t } from '../../lib/base/i18n';
import { FLEET_BOUNDS } from '../../lib/pure/limits';

interface Pending {
  device: string;
  metric: string;
  op: string;
  timer: ReturnType<typeof setTimeout>;
}

export class PendingCommands {
  private readonly pending = new Map<string, Pending>();
  private refs = 0;

  constructor(
    private readonly refuse: (reason: string) => void,
    /** FLEET_BOUNDS.replyTimeoutMs; a test gives a shorter one rather than wait a minute. */
    private readonly timeoutMs: number = FLEET_BOUNDS.replyTimeoutMs,
  ) {}

  /** How many more writes may wait (FLEET_BOUNDS.maxPending, as the UNS commands). */
  get room(): number {
    return FLEET_BOUNDS.maxPending - this.pending.size;
  }

  /** A write sent: its ref (msg.fleetCommand.ref). */
  add(device: string, metric: string, op: string): string {
    const ref = `sp${++this.refs}`;
    const timer = setTimeout(() => {
      if (!this.pending.delete(ref)) return;
      this.refuse(`DCMD ${device} ${JSON.stringify(metric)}: ${t('fleet-publish.spNoAnswer', { seconds: numberText(this.timeoutMs / 1000), op })}`);
    }, this.timeoutMs);
    this.pending.set(ref, { device, metric, op, timer });
    return ref;
  }

  /** An answer (msg.error for a failure): told when it failed; one answered already (the output and a Catch both) or timed out is ignored. */
  answer(ref: unknown, error: unknown): void {
    const p = typeof ref === 'string' ? this.pending.get(ref) : undefined;
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(ref as string);
    if (error === undefined) return;
    const message = (error as { message?: unknown } | null)?.message ?? error;
    this.refuse(`DCMD ${p.device} ${JSON.stringify(p.metric)}: ${t('fleet-publish.spWriteFailed', { op: p.op, error: String(message).slice(0, 500) })}`);
  }

  /** The node closes: nothing waits any more. */
  close(): void {
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
  }
}
