/**
 * The network side of a reboot: while the device is down (Device.outage) nothing listens on
 * its port, so a client's connection is refused, and every open connection is gone, as on a
 * board that is booting. When the boot time has passed the same port is opened again.
 *
 * The only timer of the simulator's own: a port that refuses connections receives no
 * request on which the lazy clock could notice that the device is up again.
 */
import type { ServerResponse } from 'http';
import type { Socket } from 'net';
import type { Device } from './device';

/** What the gate needs of the server. */
export interface Listener {
  /** Stops accepting connections and destroys every open one but `keep`. */
  shut(keep?: Socket): void;
  /** Accepts connections again on the same port. */
  reopen(): Promise<void>;
}

/** Listening again failed (the port taken meanwhile): try again this much later, ms. */
const REOPEN_RETRY_MS = 100;

export class OutageGate {
  private shut = false;
  private reopening = false;
  private timer: NodeJS.Timeout | null = null;
  private waiters: Array<() => void> = [];

  constructor(
    private readonly device: Device,
    private readonly listener: Listener,
  ) {}

  /** True while the port is closed for an outage. */
  get down(): boolean {
    return this.shut;
  }

  /**
   * Brings the port in line with the device: shut when an outage began (keeping `keep`, the
   * connection still answering the request that reset the device), open when it ended.
   */
  sync(keep?: Socket): void {
    const outage = this.device.outage;
    if (outage !== null && !this.shut) {
      this.shut = true;
      this.listener.shut(keep);
      this.wake(Math.max(1, outage.until - this.device.now()));
    } else if (outage === null && this.shut) {
      this.reopen();
    }
  }

  /**
   * True (and the connection destroyed) when the device is down at this moment: a request
   * that reached a board as it went down (the lazy clock noticed it just now), or one held
   * by a latency fault.
   */
  refused(socket: Socket): boolean {
    this.device.tick(this.device.now());
    if (this.device.outage === null) return false;
    socket.destroy();
    this.sync();
    return true;
  }

  /** After a request that may have reset the device: its answer closes the connection, the port shuts. */
  closeIfDown(socket: Socket, res: ServerResponse): void {
    if (this.device.outage === null) return;
    if (!res.headersSent) res.setHeader('Connection', 'close');
    this.sync(socket);
  }

  /** Resolves once the port accepts connections again (at once when it does). */
  whenUp(): Promise<void> {
    return this.shut ? new Promise((resolve) => this.waiters.push(resolve)) : Promise.resolve();
  }

  /** The server stops: no timer left behind, nobody left waiting. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.shut = false;
    this.release();
  }

  private wake(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      // The lazy clock boots the device when its time has come; timers may run a little early.
      this.device.tick(this.device.now());
      const outage = this.device.outage;
      if (outage !== null) this.wake(Math.max(1, outage.until - this.device.now()));
      else this.reopen();
    }, ms);
  }

  private reopen(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.reopening) return;
    this.reopening = true;
    this.listener.reopen().then(
      () => {
        this.reopening = false;
        this.shut = false;
        this.release();
      },
      () => {
        this.reopening = false;
        if (this.shut) this.timer = setTimeout(() => this.reopen(), REOPEN_RETRY_MS);
      },
    );
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
