/**
 * What the package set on one module, and putting it back when the module forgot.
 *
 * Action nodes that apply a setting (io-power's power configuration, io-input's and
 * io-threshold's pin modes, thresholds, interrupts and counters, io-output's last state,
 * bmc-watchdog's timeout) register it here. When the module shows it lost its settings (a
 * new device_session, the package's own module reset, an answer that proves it, a read-back
 * that differs, on API 0.9 after an outage the read-backs of `verify`), every setting is
 * applied again, one after the other in the spec's order: power management first (outputs
 * need it), then pin modes with their thresholds, interrupts and counters, then outputs, the
 * watchdog last. A witness (a watchdog a msg armed) is only read back, never applied again.
 * When the package's own power-management write re-enumerates the module (API 1.0), only
 * what comes after the power configuration is put back (connection.ts ownRenewal).
 *
 * Each setting stays pending until the device accepted or refused it: one that met an
 * outage is tried again with the connection's backoff, and it goes through the module's
 * reserved place ahead of the users' msgs (client.ts lane 'settings'), so a full queue never
 * refuses it. Signs that arrive while a reconciliation runs mark their settings pending in
 * the same run, which always takes the lowest phase pending next; never two runs at once.
 */
import { DeviceError, isGone, isRefused } from '../base/errors';
import { t } from '../base/i18n';
import { publish, HealthModule } from './health';
import { DrivenPins } from './driven-pins';
import { PinTrips } from './pin-trips';
import { readBack, Readable, ReadBack } from './read-back';

export type { ReadBack } from './read-back';

/** The spec's order of applying (io rule 1: power management before outputs). */
export const PHASE = { power: 1, pins: 2, outputs: 3, watchdog: 4 } as const;

export interface DesiredSetting extends Readable {
  phase: number;
  /**
   * Applies the setting again. Resolves when done, rejects when it failed (the owner has
   * already told its status, and Catch unless `retry` and the failure is retried, see
   * isRetried). `cause`: why, for the node's status; `retry`: how many tries failed before.
   */
  apply(cause: string, retry: number): Promise<void>;
  /**
   * Reads back whether the setting is still in place, where the device lets itself be read
   * (API 0.9 has no session ids): read-back.ts. Absent: cannot be read back.
   */
  inPlace?(): Promise<ReadBack>;
  /**
   * Only read back, as a sign that the module forgot, never applied again: what a msg set
   * that putting back would do harm (a watchdog armed by a msg: after the reset it caused, it
   * would arm the next one). Once found gone it is forgotten (`forget`).
   */
  witness?: true;
  /** The module forgot the witness: nothing to read back any more. */
  forget?(): void;
  /** The body the setting last sent to `endpoint` (e.g. 'power-management'), if it sends one: shown, never sent. */
  body?(endpoint: string): Record<string, unknown> | undefined;
  /** The io pin the setting sets, if one: a pin the module's protection switched off keeps it off (pin-trips.ts). */
  pin?(): number | undefined;
}

export interface RestoreOptions {
  /** A reset the user should hear of: a `reset` health event first (default true). */
  noticed?: boolean;
  /** Only settings of this phase and later (default: all). */
  from?: number;
  /** No `reapplied` event: the first apply on connect is no re-application. */
  quiet?: boolean;
  /** Within a run on its way: only mark the settings pending (its cause and event stay). */
  join?: boolean;
  /** The pins stay as the flows drove them (a read-back differed): the sidebar keeps their modes. */
  pinsKept?: boolean;
}

/**
 * Whether a failed apply is tried again: the device did not decide (no answer, not sent
 * because it stopped answering, its service down, credentials or TLS refused for now, a garbled answer). Every other answer is the device's
 * refusal, shown in its words, and not repeated.
 */
export function isRetried(error: unknown): boolean {
  if (!(error instanceof DeviceError)) return false;
  return ['QUEUE_FULL', 'NOT_SENT', 'BAD_RESPONSE', 'TLS'].includes(error.code) || isGone(error) || isRefused(error);
}

interface Placement {
  pending: boolean;
  placed: boolean;
}

export class DesiredState {
  /** Each setting, whether it waits to be (re)applied, and whether the device took it last time (only then can a read-back prove anything). */
  private readonly settings = new Map<DesiredSetting, Placement>();
  private running?: Promise<void>;
  private cause = '';
  /** The run tells a `reapplied` event at its end. */
  private tell = false;
  /** The run on its way follows a `reset` told: further signs join it without a second one. */
  private resetTold = false;
  private closed = false;
  /** What the flows last drove on each pin (the live sidebar shows it). */
  readonly driven = new DrivenPins();
  /** Pins the module's protection switched off, and the package's own suspends (pin-trips.ts). */
  readonly trips = new PinTrips();
  /** Ends a backoff pause early (the module reconnected, or closed). */
  private wake?: () => void;

  constructor(
    private readonly module: () => HealthModule,
    private readonly backoff: { firstMs: number; maxMs: number },
  ) {
    this.trips.watch((pin) => this.driven.forget(pin));
  }

  /** Registers a setting; returns its removal (the node closed). */
  add(setting: DesiredSetting): () => void {
    this.settings.set(setting, { pending: false, placed: !!setting.witness });
    return () => this.settings.delete(setting);
  }

  /** The body last set on `endpoint` by any registered setting (the live sidebar shows the power configuration so). */
  body(endpoint: string): Record<string, unknown> | undefined {
    let found: Record<string, unknown> | undefined;
    for (const setting of this.settings.keys()) found = setting.body?.(endpoint) ?? found;
    return found;
  }

  /** How many settings are applied again when the module forgot (witnesses are not). */
  get size(): number {
    return [...this.settings.keys()].filter((s) => !s.witness).length;
  }

  /** Whether a setting waits to be applied (one that met an outage). */
  get pending(): boolean {
    return [...this.settings.values()].some((s) => s.pending);
  }

  /** The module forgot (or may have forgotten) its settings: apply them again, in order. */
  restore(cause: string, options: RestoreOptions = {}): Promise<void> {
    if (this.closed) return Promise.resolve();
    const from = options.from ?? 0;
    // A pin the module's protection switched off stays off: putting it back would undo the
    // protection (drive into the short) without the user asking. It is not on the module.
    const tripped = [...this.settings.entries()].filter(([s]) => this.trips.of(s.pin?.()));
    for (const [, state] of tripped) state.placed = state.pending = false;
    const chosen = [...this.settings.entries()].filter(([s]) => s.phase >= from && !s.witness && !this.trips.of(s.pin?.()));
    if (!options.pinsKept) this.driven.clear();
    // A witness is gone with the module's other settings: it proves nothing more.
    for (const setting of this.settings.keys()) if (setting.witness && setting.phase >= from) setting.forget?.();
    // One reset, one `reset`: signs that arrive while its settings go back (a read-back and
    // an answer, both seeing the same reset) join the run.
    const told = (options.noticed ?? true) && !(this.running && this.resetTold);
    if (told) publish('reset', this.module(), cause);
    if (!chosen.length) return this.running ?? Promise.resolve();
    if (told) this.resetTold = true;
    for (const [, state] of chosen) state.pending = true;
    if (options.join && this.running) return this.running;
    this.cause = cause;
    this.tell ||= !options.quiet;
    this.nudge();
    this.running ??= this.run().finally(() => {
      this.running = undefined;
      this.resetTold = false;
    });
    return this.running;
  }

  /** A msg set the setting anew and the device took it: it is on the module. */
  took(setting: DesiredSetting): void {
    const state = this.settings.get(setting);
    if (state) state.placed = true;
  }

  /** Tries pending settings now instead of waiting out the backoff (the module is back). */
  nudge(): void {
    this.wake?.();
  }

  /**
   * Reads back every setting that can be by a read (API 0.9's cheap periodic check); restores
   * them all when one is gone. A read that fails says nothing: the connection judges outages.
   */
  async check(): Promise<void> {
    if (this.closed || this.running) return;
    const { lost } = await readBack(this.applied(), false);
    if (lost && !this.closed && !this.running) await this.restore(t('common.cause.readBackLost', { proof: lost }), { pinsKept: true });
  }

  /**
   * The module answers again after an outage (API 0.9: no session tells whether it forgot).
   * First the read-backs, then the verdict: a setting gone is a reset, told once, and every
   * setting goes back; a setting in place means the module kept them all (a reset takes
   * everything), so nothing is sent again. When no read-back can tell (only settings the
   * device shows nowhere, such as a threshold on an analog pin or a power configuration with
   * no output to try), everything goes back without a `reset`: a write that was not needed
   * costs one exchange, a module left without its settings is the failure this is for.
   * Settings still pending (they met the outage) are read by no one: their run goes on.
   */
  async verify(): Promise<void> {
    if (this.closed) return;
    const verdict = await readBack(this.applied(), true);
    if (this.closed || verdict.gone) return;
    if (verdict.lost) await this.restore(t('common.cause.forgotDuringOutage', { proof: verdict.lost }));
    else if (!verdict.kept && this.size && !this.running) await this.restore(t('common.cause.reconnectedUnknown'), { noticed: false });
  }

  /**
   * A node's own exchange found its setting gone (a keep-alive's alive refused, the watchdog
   * not enabled): a sign the module forgot, unless the setting never reached the module.
   */
  lost(setting: DesiredSetting, proof: string): void {
    const state = this.settings.get(setting);
    if (this.closed || !state?.placed || state.pending) return;
    void this.restore(t('common.cause.forgot', { proof }));
  }

  close(): void {
    this.closed = true;
    this.settings.clear();
    this.nudge();
  }

  /** The settings on the module (applied, or witnesses), in the spec's order: the ones to read back. */
  private applied(): DesiredSetting[] {
    // A tripped pin reads as an analog input: no sign of a reset, and never sent again.
    return [...this.settings.entries()]
      .filter(([setting, state]) => state.placed && !state.pending && !this.trips.of(setting.pin?.()))
      .map(([setting]) => setting)
      .sort((a, b) => a.phase - b.phase);
  }

  /** The pending setting of the lowest phase (registration order within a phase). */
  private nextPending(): [DesiredSetting, Placement] | undefined {
    let best: [DesiredSetting, Placement] | undefined;
    for (const entry of this.settings.entries()) if (entry[1].pending && (!best || entry[0].phase < best[0].phase)) best = entry;
    return best;
  }

  private async run(): Promise<void> {
    let applied = 0;
    let failed = 0;
    let retry = 0;
    let delay = this.backoff.firstMs;
    // Ends when nothing is pending: each setting leaves that state once the device decided.
    for (let next = this.nextPending(); next && !this.closed; next = this.nextPending()) {
      const [setting, state] = next;
      try {
        await setting.apply(this.cause, retry);
        state.pending = false;
        state.placed = true;
        applied++;
        retry = 0;
        delay = this.backoff.firstMs;
      } catch (error) {
        if (!isRetried(error)) {
          state.pending = false;
          state.placed = false;
          failed++;
          retry = 0;
          continue;
        }
        // Later phases wait: outputs need the power configuration first.
        retry++;
        await this.pause(delay);
        delay = Math.min(this.backoff.maxMs, delay * 2);
      }
    }
    if (this.closed || !this.tell) return;
    this.tell = false;
    publish('reapplied', this.module(), this.cause, { settings: applied + failed, failed });
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }
}
