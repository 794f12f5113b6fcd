/**
 * What the deployed flows last drove on each pin of an io module: an output level or a PWM
 * with its frequency and duty. The device cannot tell these apart from an analog input (its
 * pin_type `voltage_mV` covers all three, spec "pin value record"), so the live sidebar
 * says a driven pin's mode from here, naming the flows as the source.
 *
 * Noted after the device took a request (a msg's, or one re-applied on connect); a pin set
 * up as an input again, and every pin once the module lost its settings (a reset, a first
 * connect: desired-state.ts), is forgotten.
 */
import type { ConversationOperation, RequestsOperation } from './device-operation';
import type { Driven } from '../live/types';
import { describePwm } from './pwm';


const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

export class DrivenPins {
  private readonly pins = new Map<number, Driven>();

  /** A request the device took: `endpoint` as 'output/state', body in the spec's names. */
  took(endpoint: string, body: Record<string, unknown> | undefined): void {
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

  /** The module forgot its settings. */
  clear(): void {
    this.pins.clear();
  }

  get(pin: number): Driven | undefined {
    return this.pins.get(pin);
  }
}
