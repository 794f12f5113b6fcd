/**
 * What a client tells whoever listens (its config node), in one type: who listens to what
 * is read here, not from callbacks spread over the client's options. As the MQTT client types
 * its events (`TypedEventEmitter<...Callbacks>`), but as listener objects: one event
 * has an answer (settingsLost), and every exchange passes here, so a call, not an emit.
 */
import type { DeviceError } from '../base/errors';
import type { ExchangeInfo } from './exchange-info';

export interface ClientEvents {
  /** After each exchange: the device was reachable (no error) or not (for the connection's state). */
  reachability(error?: DeviceError): void;
  /**
   * An answer proved the module lost its settings (`cause`: the device's words). True when
   * they are being applied again (then the refused msg's error says so).
   */
  settingsLost(cause: string): boolean;
  /**
   * A write that makes the driver re-read the module (API 1.0: power-management and reset,
   * real §3.1, §3.2, §4) went on the wire ('sent') and has ended ('ended'), however: the
   * connection adopts the device_session that follows (config-node/sessions.ts).
   */
  renewing(step: 'sent' | 'ended'): void;
  /** After each HTTP exchange, for health and metrics; must not throw (it is on the answer's way). */
  exchange(info: ExchangeInfo): void;
}

/** One listener: the events it hears. */
export type ClientListener = Partial<ClientEvents>;

/** The client's listeners, each event told to them in the order they came. */
export class ClientReport implements ClientEvents {
  private listeners: ClientListener[] = [];
  /** Someone hears exchanges: an exchange's info is made only then (every request passes here). */
  hearsExchanges = false;

  /** Adds `listener`; returns what removes it. */
  listen(listener: ClientListener): () => void {
    this.listeners = [...this.listeners, listener];
    this.hearsExchanges = this.listeners.some((l) => l.exchange);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
      this.hearsExchanges = this.listeners.some((l) => l.exchange);
    };
  }

  reachability(error?: DeviceError): void {
    for (const l of this.listeners) l.reachability?.(error);
  }

  settingsLost(cause: string): boolean {
    let restoring = false;
    for (const l of this.listeners) if (l.settingsLost?.(cause)) restoring = true;
    return restoring;
  }

  renewing(step: 'sent' | 'ended'): void {
    for (const l of this.listeners) l.renewing?.(step);
  }

  exchange(info: ExchangeInfo): void {
    for (const l of this.listeners) l.exchange?.(info);
  }
}
