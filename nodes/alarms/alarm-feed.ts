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

  /**
   * The feed and the model agree again, after a node (re)started on a kept state or its
   * module can tell again after suppression (conditions were ignored meanwhile). An event's
   * alarm the model holds active is held afresh from now: no event could be read meanwhile,
   * so its end is the device's word (no event for `clearAfter`), never a guess. Otherwise
   * the feed's condition, heard while the model ignored it, is applied.
   */
  resync(id: string, eventFed: boolean): void {
    const view = this.system.get(id);
    if (!view || view.suppressed || this.closed) return;
    const fed = this.of(id);
    const now = this.system.now();
    if (eventFed && view.active && (fed.delay.reported === false || fed.holdUntil === undefined)) {
      fed.delay = { reported: true, raw: true, since: now };
      fed.holdUntil = now + this.clearAfter;
      this.after(id, fed, delayStep(fed.delay, true, now, this.delays));
    } else if (fed.delay.reported !== view.active) this.system.apply(id, { type: 'condition', active: fed.delay.reported, value: fed.value });
  }

  close(): void {
    this.closed = true;
    for (const fed of this.fed.values()) fed.cancel?.();
    this.fed.clear();
  }

  private of(id: string): Fed {
    let fed = this.fed.get(id);
    if (!fed) {
      // A node that starts on a kept state (a redeploy, a restart) takes up its condition: a false input then clears it.
      const view = this.system.get(id);
      const delay: DelayState = view?.active ? { reported: true, raw: true, since: this.system.now() } : INITIAL_DELAY;
      this.fed.set(id, (fed = { delay, value: view?.value ?? null }));
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
