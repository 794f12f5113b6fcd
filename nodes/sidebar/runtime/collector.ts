/**
 * The collector: while the live view runs, it reads the deployed modules in turn, one
 * module's reads per turn, each read through that module's own DeviceClient (its queue,
 * bounds and answer checks apply; there is no other way to the device), each read paid with
 * a token of the shared bucket (token-bucket.ts), so all modules together never get
 * more than the settable rate. A module whose connection is not `connected` is not read:
 * the sidebar shows its state instead.
 *
 * Stopped, it holds no timer and sends nothing; a read already on the wire ends by itself
 * (bounded by the module's timeout) and its answer is dropped.
 */
import { printable } from '../../lib/device/answer';
import { LIVE_BOUNDS } from '../../lib/pure/limits';
import type { Later } from '../../lib/base/clock';
import { READS, Reading } from './module-reads';
import type { Deployed } from './modules';
import type { TokenBucket } from './token-bucket';

export class Collector {
  /** The last reading per config node id (only of modules deployed now). */
  readonly readings = new Map<string, Reading>();
  /** Each start is a new run; a run that was stopped ends at its next step. */
  private run = 0;
  private running = false;
  private turn = 0;
  private cancel?: () => void;
  private wake?: () => void;

  constructor(
    private readonly modules: () => Deployed[],
    private readonly bucket: TokenBucket,
    /** A turn ended: something to publish. */
    private readonly changed: () => void,
    private readonly later: Later,
  ) {}

  get active(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.loop(++this.run);
  }

  stop(): void {
    this.running = false;
    this.run++;
    this.cancel?.();
    this.cancel = undefined;
    this.wake?.();
    this.readings.clear();
  }

  private async loop(run: number): Promise<void> {
    while (run === this.run) {
      const deployed = this.modules();
      const ids = new Set(deployed.map((m) => m.def.id));
      for (const id of this.readings.keys()) if (!ids.has(id)) this.readings.delete(id);
      const readable = deployed.filter((m) => m.node?.connection?.state.state === 'connected');
      if (!readable.length) {
        this.changed();
        await this.pause(LIVE_BOUNDS.idleMs);
        continue;
      }
      const module = readable[this.turn++ % readable.length];
      await this.read(module, run);
      if (run === this.run) this.changed();
    }
  }

  /** One module's reads, one token each; a failed read ends the turn (the module is likely away). */
  private async read(m: Deployed, run: number): Promise<void> {
    const reading: Reading = {};
    for (const read of READS[m.service]) {
      while (run === this.run && !this.bucket.take()) await this.pause(this.bucket.waitMs());
      const connection = m.node?.connection;
      if (run !== this.run || connection?.state.state !== 'connected') return;
      try {
        const answer = await connection.client.request({ method: 'GET', endpoint: read.endpoint });
        read.fold(reading, answer.data);
      } catch (error) {
        reading.readError = printable(error instanceof Error ? error.message : String(error));
        break;
      }
    }
    if (run !== this.run) return;
    reading.readAt = new Date().toISOString();
    // A failed turn keeps the values of the last good one, with the error beside them.
    this.readings.set(m.def.id, reading.readError ? { ...this.readings.get(m.def.id), ...reading } : reading);
  }

  /** Waits `ms`, or less when stopped. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.cancel = this.later(() => {
        this.cancel = undefined;
        resolve();
      }, ms);
    });
  }
}
