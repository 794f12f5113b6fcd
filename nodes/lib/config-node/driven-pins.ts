/**
 * What the deployed flows last drove on each pin of an io module: an output level or a PWM
 * with its frequency and duty. The device cannot tell these apart from an analog input (its
 * pin_type `voltage_mV` covers all three, spec "pin value record"), so the live sidebar
 * says a driven pin's mode from here, naming the flows as the source.
 *
 * Noted after the device took a request (a msg's, or one re-applied on connect); a pin set
 * up as an input again, and every pin whenever settings are put back (a reset, a first
 * connect, an outage on API 0.9, the re-enumeration after the package's own power
 * configuration, which starts the pins anew: desired-state.ts), is forgotten; what is put
 * back is noted again as the device takes it. A restarted service (API 1.0) keeps its
 * modules' state and puts nothing back, and a read-back that differs on API 0.9 is what two
 * nodes setting one threshold cause: neither forgets. A module reset from outside the package that only a
 * read-back shows (API 0.9) leaves the word until the next output.
 */
import type { DeviceRequest } from '../device/request';
import type { Driven } from '../pure/snapshot';
import { describePwm } from '../pure/pwm';

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

export class DrivenPins {
  private readonly pins = new Map<number, Driven>();

  /** A request the device took: its endpoint (['output', 'state']...), body in the spec's names. */
  took(endpoint: DeviceRequest['endpoint'], body: Record<string, unknown> | undefined): void {
    const pin = body?.pin;
    if (!isInt(pin) || endpoint.length !== 2) return;
    const [area, what] = endpoint;
    if (area === 'output' && what === 'state' && (body!.state === 'high' || body!.state === 'low')) {
      // The same level again (an output driven at a steady rate) is kept as it was.
      const was = this.pins.get(pin);
      if (was?.kind !== 'output' || was.level !== body!.state) this.pins.set(pin, { kind: 'output', level: body!.state });
    } else if (area === 'output' && what === 'pwm' && isInt(body!.prescaler) && isInt(body!.period) && isInt(body!.time_on)) {
      this.pins.set(pin, { kind: 'pwm', ...describePwm({ prescaler: body!.prescaler, period: body!.period, time_on: body!.time_on }) });
    } else if (area === 'input' && what === 'mode') this.pins.delete(pin);
  }

  /** An operation the device took: each of its requests (a conversation's are not known here). */
  tookAll(op: { kind: string; requests?: DeviceRequest | DeviceRequest[] }): void {
    if (op.kind !== 'requests' || !op.requests) return;
    if (!Array.isArray(op.requests)) {
      if (op.requests.method === 'POST') this.took(op.requests.endpoint, op.requests.body);
      return;
    }
    for (const r of op.requests) if (r.method === 'POST') this.took(r.endpoint, r.body);
  }

  /** The module's protection switched the pin off (pin-trips.ts): nothing drives it now. */
  forget(pin: number): void {
    this.pins.delete(pin);
  }

  /** The module forgot its settings. */
  clear(): void {
    this.pins.clear();
  }

  get(pin: number): Driven | undefined {
    return this.pins.get(pin);
  }
}
