/**
 * The bmc watchdog's timeout_left, counted down in the sidebar between snapshots (the
 * runtime reads it at a low rate): each snapshot re-syncs the start, a timer about four
 * times a second redraws the text. Stops when the sidebar is hidden.
 */
import type { LiveSnapshot } from '../../lib/pure/snapshot';
import { seconds } from './format';
import { $ } from './editor-api';

/** Four redraws a second: the tenths move smoothly enough to read, the timer stays cheap. */
const REDRAW_MS = 250;

export class Countdown {
  private readonly left = new Map<string, { ms: number; at: number }>();
  private timer: ReturnType<typeof setInterval> | undefined;
  /** The snapshot counted from: a redraw of the same one (an edit, the tab shown again) keeps counting, not restarting from its reading. */
  private synced: LiveSnapshot | undefined;

  constructor(private readonly panel: unknown) {}

  /** A new snapshot: timeout_left as read, counted from now; the same one again: redrawn as counted. */
  sync(snapshot: LiveSnapshot): void {
    if (snapshot === this.synced) return this.draw();
    this.synced = snapshot;
    this.left.clear();
    const now = Date.now();
    for (const m of snapshot.modules) {
      const w = m.bmc?.watchdog;
      if (w && w.timeout > 0) this.left.set(m.config, { ms: w.timeout_left, at: now });
    }
    this.draw();
  }

  run(on: boolean): void {
    if (on && !this.timer) this.timer = setInterval(() => this.draw(), REDRAW_MS);
    if (!on && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private draw(): void {
    const now = Date.now();
    for (const [config, { ms, at }] of this.left) {
      $(this.panel)
        .find(`.md-live-countdown[data-config="${config}"] .md-live-value`)
        .text(seconds(ms - (now - at)));
    }
  }
}
