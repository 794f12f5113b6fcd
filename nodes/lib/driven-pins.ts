/**
 * What the deployed flows last drove on each pin of an io module: an output level or a PWM
 * with its frequency and duty. The device cannot tell these apart from an analog input (its
 * pin_type `voltage_mV` covers all three, spec "pin value record"), so the live sidebar
 * says a driven pin's mode from here, naming the flows as the source.
 *
 * Noted after the device took a request (a msg's, or one re-applied on connect); a pin set
 * up as an input again, and every pin once the module lost its settings (a reset, a first
 * connect, an outage, a new device_session the package's own power configuration does not
 * explain: desired-state.ts, connection.ts), is forgotten. A restarted service keeps its
 * modules' state, and a read-back that differs on API 0.9 is what two nodes setting one
 * threshold cause: neither forgets. A module reset from outside the package that only a
 * read-back shows (API 0.9) leaves the word until the next output.
 */
import type { ConversationOperation, RequestsOperation } from './device-operation';
import type { Driven } from '../live/types';
import { describePwm } from './pwm';


const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

export class DrivenPins {
  private readonly pins = new Map<number, Driven>();
  /** A power configuration was taken since the last new device_session: the module re-enumerates after one (real §3.2). */
  private configured = false;

  /** A request the device took: `endpoint` as 'output/state', body in the spec's names. */
  took(endpoint: string, body: Record<string, unknown> | undefined): void {
    if (endpoint === 'power-management') this.configured = true;
    const pin = body?.pin;
    if (!isInt(pin)) return;
    if (endpoint === 'output/state' && (body!.state === 'high' || body!.state === 'low')) this.pins.set(pin, { kind: 'output', level: body!.state });
    else if (endpoint === 'output/pwm' && isInt(body!.prescaler) && isInt(body!.period) && isInt(body!.time_on)) {
      this.pins.set(pin, { kind: 'pwm', ...describePwm({ prescaler: body!.prescaler, period: body!.period, time_on: body!.time_on }) });
    } else if (endpoint === 'input/mode') this.pins.delete(pin);
  }

  /** An operation the device took: each of its requests (a conversation's are not known here). */
  tookAll(op: RequestsOperation | ConversationOperation): void {
    if (op.kind !== 'requests') return;
    for (const r of Array.isArray(op.requests) ? op.requests : [op.requests]) if (r.method === 'POST') this.took(r.endpoint.join('/'), r.body);
  }

  /**
   * A new device_session: true when the package's own power configuration explains it (the
   * module re-enumerates, its pins stay as they were: the simulator's reading of real §3.2).
   */
  reenumerated(): boolean {
    const was = this.configured;
    this.configured = false;
    return was;
  }

  /** The module forgot its settings. */
  clear(): void {
    this.pins.clear();
  }

  get(pin: number): Driven | undefined {
    return this.pins.get(pin);
  }
}
