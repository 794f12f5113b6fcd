/**
 * The wire form of each API version. Nodes speak one contract, the spec's (API 0.9) paths
 * and field names; a dialect turns such a request into what a device of its version
 * expects, and its answers back into the spec's shape, so a flow works unchanged on 0.9
 * and 1.0 devices. Sources: the released services' behaviour (API 1.0) §0 (every difference) and
 * §3 (the released routes).
 *
 * No Node-RED import here: pure mapping, unit-tested against the table of §0.
 */
import { DeviceError, invalidInput } from '../base/errors';
import { ApiVersion, check, labelled } from '../pure/limits';
import { t } from '../base/i18n';
import { DeviceRequest, SentRequest } from './request';
import { PINS } from '../pure/facts';

export interface Translation {
  /** The wire requests, sent in order (several when one spec call needs more, e.g. notifications on 1.0). */
  calls: DeviceRequest[];
  /**
   * The answers of `calls` (`sent`: those calls as they went out) turned into the spec's
   * answer; throws a DeviceError when they say the request failed.
   */
  answer(answers: unknown[], sent: SentRequest[], failures?: CallFailure[]): unknown;
  /**
   * The calls do not depend on one another (1.0's per-pin notification reads): a failed
   * one does not stop the rest, its answer is `undefined`, and `answer` gets the failures
   * to say in the spec's shape what could not be read. Nothing that arrived is thrown away.
   */
  independent?: boolean;
  /**
   * What to keep of one call's answer of an independent translation, made as it arrives
   * (before the calls after it are sent); `answer` then gets these. Absent: the answer itself.
   */
  arrived?(index: number, answer: unknown, sent: SentRequest): unknown;
}

/** A wire call of an independent translation that failed (or was not sent: the client closed). */
export interface CallFailure {
  index: number;
  error: DeviceError;
}

export interface Dialect {
  readonly version: ApiVersion;
  /**
   * The call goes out as it is, one wire call whose answer `answerAsIs` reads: what
   * `translate` would make of it, told without making it (most msgs are such calls).
   */
  passesAsIs(call: DeviceRequest): boolean;
  translate(call: DeviceRequest): Translation;
}

/**
 * Did the POST succeed? The one place that judges it: both versions answer
 * `"status": "success"`. A version may explain another answer first (`refusal`, e.g. 1.0's
 * power-management `denied`); anything else is not what the interface promises.
 */
function succeeded(answer: unknown, sent: SentRequest, refusal?: (answer: unknown) => DeviceError | undefined): unknown {
  if ((answer as { status?: unknown } | null)?.status === 'success') return answer;
  throw (
    refusal?.(answer) ??
    new DeviceError(`${sent.method} ${sent.path}: the device did not answer "status": "success"`, {
      code: 'BAD_RESPONSE',
      statusCode: 200,
      method: sent.method,
      path: sent.path,
    })
  );
}

/** The answer of a call that passes as it is: a POST's judged (`refusal` explains one first), any other's as it came. */
export function answerAsIs(answer: unknown, sent: SentRequest, refusal?: (answer: unknown) => DeviceError | undefined): unknown {
  return sent.method === 'POST' ? succeeded(answer, sent, refusal) : answer;
}

/** One wire call for one spec call; a POST's answer is judged before `answer` reads it. */
const single = (call: DeviceRequest, answer: (a: unknown) => unknown = (a) => a, refusal?: (a: unknown) => DeviceError | undefined): Translation => ({
  calls: [call],
  answer: ([a], [sent]) => answer(answerAsIs(a, sent, refusal)),
});

const key = (call: DeviceRequest) => `${call.method} ${call.endpoint.map((e) => (typeof e === 'number' ? ':n' : e)).join('/')}`;

/** API 0.9 is the spec: nothing to translate. */
export const API09_DIALECT: Dialect = {
  version: '0.9',
  passesAsIs(call) {
    const first = call.endpoint[0];
    return first !== 'usbhub' && first !== 'reset';
  },
  translate(call) {
    // Only two routes are 1.0's alone; every other call passes as it is (a word compared, no key built).
    const first = call.endpoint[0];
    if (first === 'usbhub' && key(call) === 'GET usbhub/devices') throw invalidInput(t('common.usbDevicesNeedApi10'));
    // The spec's one module reset is io's `GET reset`; bmc and power nodes ask for 1.0's
    // `POST reset`, a route 0.9 does not have (spec, Endpoints).
    if (first === 'reset' && key(call) === 'POST reset') throw invalidInput(t('common.moduleResetNeedsApi10'));
    return single(call);
  },
};

// ---- API 1.0 --------------------------------------------------------------------------

const PIN_TYPES_V1: Readonly<Record<string, string>> = {
  voltage_millivolt: 'voltage_mV',
  current_milliampere: 'current_mA',
  frequency_hertz: 'frequency_hz',
};

/** Renames one field of a body (the rest stays as it is). */
function rename(body: Record<string, unknown> | undefined, from: string, to: string): Record<string, unknown> {
  const { [from]: value, ...rest } = body ?? {};
  return { ...rest, [to]: value };
}

function pinValuesV1(answer: unknown): unknown {
  const pins = (answer as { pins?: unknown })?.pins;
  if (!Array.isArray(pins)) return answer;
  return { pins: pins.map((p: Record<string, unknown>) => ({ ...p, pin_type: PIN_TYPES_V1[p.pin_type as string] ?? p.pin_type })) };
}

interface TooMuchPower {
  rail_3v3_milliwatt?: number;
  rail_5v0_milliwatt?: number;
  rail_12v_milliwatt?: number;
}

/** 1.0 answers power-management `denied` with the milliwatts over budget (else `success`). */
function powerDeniedV1(answer: unknown): DeviceError | undefined {
  const a = (answer ?? {}) as { status?: unknown; too_much_power?: TooMuchPower };
  if (a.status !== 'denied') return undefined;
  const over = a.too_much_power ?? {};
  const parts = [`3V3 ${over.rail_3v3_milliwatt ?? 0} mW`, `5V0 ${over.rail_5v0_milliwatt ?? 0} mW`, `12V ${over.rail_12v_milliwatt ?? 0} mW`];
  return new DeviceError(t('common.powerDenied', { over: parts.join(', ') }), {
    code: 'DEVICE_ERROR',
    statusCode: 200,
    deviceMessage: 'denied',
    detail: { too_much_power: over },
  });
}

/**
 * The 1.0 hub record numbers ports 0..7; the spec's record has port_slot_2..8. Answer the
 * spec's shape: ports 0 and 1 (no port path reaches them) are left out, and port 8 of the
 * spec has no counterpart on 1.0 devices.
 */
function usbhubV1(answer: unknown): unknown {
  const { port_slot_0: _0, port_slot_1: _1, ...record } = { ...(answer as Record<string, unknown>) };
  if (record.port_slot_8 === undefined) record.port_slot_8 = 'not available';
  return record;
}

/** 1.0 notification reads by the request asked (a poll's, the same every round); gone with it. */
const notificationRounds = new WeakMap<DeviceRequest, Translation>();

/** The first words of every path 1.0 translates (the cases below); any other passes as it is. */
const TRANSLATED_V1: ReadonlySet<unknown> = new Set(['reset', 'notification', 'input', 'power-management', 'usbhub']);

export const API10_DIALECT: Dialect = {
  version: '1.0',
  passesAsIs(call) {
    return !TRANSLATED_V1.has(call.endpoint[0]);
  },
  translate(call) {
    // A poll asks with the same request every round: no key built for it again.
    const kept = notificationRounds.get(call);
    if (kept) return kept;
    switch (key(call)) {
      case 'GET reset':
        return single({ method: 'POST', endpoint: ['reset'], body: { reset: 'yes' } });
      case 'GET notification': {
        // A poll asks with the same request every round (action-node builds a round once):
        // its translation is kept with it. One record per pin; reading a pin clears only that pin on the device (real §5).
        // Only the pins asked for: a pin not watched is a request fewer per round.
        const pins = PINS.filter((pin) => !call.pins || call.pins.includes(pin));
        const made: Translation = {
          calls: pins.map((pin) => ({ method: 'GET' as const, endpoint: ['notification', pin] })),
          independent: true,
          // Each pin's record as its answer comes: the request's reader may act on it at once.
          arrived: (index, answer, sent) => {
            const record = { pin: pins[index], ...(answer as object) };
            call.arrived?.(record, sent);
            return record;
          },
          answer: (records, _sent, failures = []) => ({
            notification: records.filter((r) => r !== undefined),
            unread: failures.map((f) => ({ pin: pins[f.index], error: f.error })),
          }),
        };
        notificationRounds.set(call, made);
        return made;
      }
      case 'POST input/analog/threshold':
        return single({ ...call, body: rename(call.body, 'threshold_mV', 'threshold_millivolt') });
      case 'POST input/digital/interrupt':
        return single({ ...call, body: rename(call.body, 'debounce_time_ms', 'debounce_time_milliseconds') });
      case 'POST power-management': {
        // No pin field on 1.0 (an extra field gives 422): the array position is the pin.
        const config = ((call.body?.config ?? []) as Array<{ pin: number; rail: string; current: number }>)
          .slice()
          .sort((a, b) => a.pin - b.pin)
          .map((e) => ({ rail: e.rail, current_milliampere: e.current }));
        return single({ ...call, body: { config } }, undefined, powerDeniedV1);
      }
      case 'GET input/values':
      case 'GET input/values/current':
        return single(call, pinValuesV1);
      case 'POST usbhub/port/:n': {
        const port = call.endpoint[2];
        // Named as bmc-usbhub's dialog labels it, as its own check of the 0.9 range does.
        const ok = check('usb_slot_v1', port, labelled('bmc-usbhub', 'port'));
        if (ok !== true) throw invalidInput(t('common.usbPortsApi10', { problem: ok }));
        return single({ ...call, endpoint: ['usbhub', 'slot', port] });
      }
      case 'GET usbhub':
        return single(call, usbhubV1);
      default:
        return single(call);
    }
  },
};

export function dialectFor(version: ApiVersion): Dialect {
  return version === '1.0' ? API10_DIALECT : API09_DIALECT;
}
