/**
 * What the package set on one module, and putting it back when the module forgot.
 *
 * Action nodes that apply a setting (io-power's power configuration, io-input's and
 * io-threshold's pin modes, thresholds, interrupts and counters, bmc-watchdog's timeout)
 * register it here. When the module shows it lost its settings (reconnected after an
 * outage, a new driver_session or device_session, the package's own module reset, an answer
 * that proves it, a read-back that differs), every setting is applied again, one after the
 * other in the spec's order: power management first (outputs need it), then pin modes with
 * their thresholds, interrupts and counters, then outputs, the watchdog last.
 *
 * Signs that arrive while a reconciliation runs make it run once more after it, never two at
 * once; each setting says itself how it went (its node's status, Catch).
 */
import { DrivenPins } from './driven-pins';
import { publish, HealthModule } from './health';

/** The spec's order of applying (io rule 1: power management before outputs). */
export const PHASE = { power: 1, pins: 2, outputs: 3, watchdog: 4 } as const;

export interface DesiredSetting {
  phase: number;
  /**
   * Applies the setting again. Resolves when done, rejects when it failed (the owner has
   * already told its status and Catch). `cause`: why, for the node's status.
   */
  apply(cause: string): Promise<void>;
  /**
   * Reads back whether the setting is still in place, where the device lets itself be read
   * (API 0.9 has no session ids): false = lost. Absent: cannot be read back.
   */
  inPlace?(): Promise<boolean>;
  /** The body the setting last sent to `endpoint` (e.g. 'power-management'), if it sends one: shown, never sent. */
  body?(endpoint: string): Record<string, unknown> | undefined;
}

export class DesiredState {
  private readonly settings = new Set<DesiredSetting>();
  private running?: Promise<void>;
  private again?: string;
  private closed = false;
  /** What the flows last drove on each pin (the live sidebar shows it). */
  readonly driven = new DrivenPins();

  constructor(private readonly module: () => HealthModule) {}

  /** Registers a setting; returns its removal (the node closed). */
  add(setting: DesiredSetting): () => void {
    this.settings.add(setting);
    return () => this.settings.delete(setting);
  }

  /** The body last set on `endpoint` by any registered setting (the live sidebar shows the power configuration so). */
  body(endpoint: string): Record<string, unknown> | undefined {
    let found: Record<string, unknown> | undefined;
    for (const setting of this.settings) found = setting.body?.(endpoint) ?? found;
    return found;
  }

  get size(): number {
    return this.settings.size;
  }

  /**
   * The module lost (or may have lost) its settings: apply them all again, in order.
   * `noticed`: the sign was a reset the user should hear of (not just the first connect).
   * `pinsLost`: false when only a read-back differed (two nodes setting one threshold differ
   * so; the outputs stay): else the pins are as the device says until outputs are sent again.
   */
  restore(cause: string, noticed = true, pinsLost = true): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (pinsLost) this.driven.clear();
    if (noticed) publish('reset', this.module(), cause);
    if (this.running) {
      this.again = cause;
      return this.running;
    }
    this.running = this.run(cause).finally(() => {
      this.running = undefined;
      const next = this.again;
      this.again = undefined;
      // Pins lost were forgotten when the sign came (above).
      if (next !== undefined) void this.restore(next, false, false);
    });
    return this.running;
  }

  /**
   * Reads back every setting that can be (API 0.9's cheap periodic check); restores them
   * all when one is gone. A read that fails says nothing: the connection judges outages.
   */
  async check(): Promise<void> {
    if (this.closed || this.running) return;
    for (const setting of this.settings) {
      if (!setting.inPlace) continue;
      let kept = true;
      try {
        kept = await setting.inPlace();
      } catch {
        continue;
      }
      if (!kept) {
        await this.restore('a setting read back differs from what was set', true, false);
        return;
      }
    }
  }

  close(): void {
    this.closed = true;
    this.settings.clear();
  }

  private async run(cause: string): Promise<void> {
    const ordered = [...this.settings].sort((a, b) => a.phase - b.phase);
    let failed = 0;
    for (const setting of ordered) {
      if (this.closed) return;
      await setting.apply(cause).catch(() => failed++);
    }
    if (ordered.length) publish('reapplied', this.module(), cause, { settings: ordered.length, failed });
  }
}
