/**
 * What feeds a node's alarms: each input through its on-delay and off-delay
 * (pure/alarm-condition.ts) before it becomes a condition of the model, and events (a
 * notification's alert, a health event) held active until none came for `clearAfter`. One
 * timer per alarm at most, at the next deadline; all cancelled when the node closes.
 */
import { Later, realLater } from '../lib/base/clock';
import { Delays, DelayState, delayStep, delayTick, Delayed, INITIAL_DELAY } from '../lib/pure/alarm-condition';
import type { AlarmValue } from '../lib/pure/alarm-model';
import type { AlarmSystem } from './alarm-system';

interface Fed {
  delay: DelayState;
  value: AlarmValue;
  /** When an event's hold ends (an input turns false then). */
  holdUntil?: number;
  cancel?: () => void;
}

export class AlarmFeed {
  private readonly fed = new Map<string, Fed>();
  private closed = false;

  constructor(
    private readonly system: AlarmSystem,
    private readonly delays: Delays,
    private readonly clearAfter: number,
    private readonly later: Later = realLater,
  ) {}

  /** The input of one alarm is now `active` (a boolean condition, a value's limit). */
  input(id: string, active: boolean, value: AlarmValue): void {
    const fed = this.of(id);
    fed.value = value;
    fed.holdUntil = undefined;
    this.after(id, fed, delayStep(fed.delay, active, this.system.now(), this.delays));
  }

  /** An event for one alarm: active now, and until no further event came for `clearAfter`. */
  event(id: string, value: AlarmValue): void {
    const fed = this.of(id);
    fed.value = value;
    const now = this.system.now();
    fed.holdUntil = now + this.clearAfter;
    this.after(id, fed, delayStep(fed.delay, true, now, this.delays));
  }

  close(): void {
    this.closed = true;
    for (const fed of this.fed.values()) fed.cancel?.();
    this.fed.clear();
  }

  private of(id: string): Fed {
    let fed = this.fed.get(id);
    if (!fed) {
      // A feed starts from the condition the system holds (the journal's after a restart, the
      // node's before a redeploy): from "inactive", the input going false would look like no
      // change, and an active alarm whose cause went would stay active.
      const active = this.system.get(id)?.active === true;
      this.fed.set(id, (fed = { delay: active ? { reported: true, raw: true, since: 0 } : INITIAL_DELAY, value: null }));
    }
    return fed;
  }

  private after(id: string, fed: Fed, delayed: Delayed): void {
    fed.delay = delayed.state;
    if (delayed.changed) this.system.apply(id, { type: 'condition', active: delayed.active, value: fed.value });
    fed.cancel?.();
    fed.cancel = undefined;
    const deadlines = [delayed.deadline, fed.holdUntil].filter((d): d is number => d !== undefined);
    if (this.closed || deadlines.length === 0) return;
    const at = Math.min(...deadlines);
    fed.cancel = this.later(() => this.tick(id), Math.max(0, at - this.system.now()));
  }

  private tick(id: string): void {
    const fed = this.fed.get(id);
    if (!fed || this.closed) return;
    fed.cancel = undefined;
    const now = this.system.now();
    if (fed.holdUntil !== undefined && now >= fed.holdUntil) {
      fed.holdUntil = undefined;
      this.after(id, fed, delayStep(fed.delay, false, now, this.delays));
    } else this.after(id, fed, delayTick(fed.delay, now, this.delays));
  }
}
