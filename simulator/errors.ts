/**
 * Errors and the error envelope the released services answer with (real-service.md §2):
 * `{"status":"error","code":N,"message":"…"}`, code equal to the HTTP status.
 */

/** HTTP reason phrases; the released services use them as the message of their catchers. */
export const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function reason(status: number): string {
  return REASONS[status] ?? 'Error';
}

/** An answer other than success; thrown by routes, caught by the router. */
export class SimError extends Error {
  constructor(
    readonly status: number,
    message: string = reason(status),
  ) {
    super(message);
  }
}

/**
 * The envelope as a string. Unlike the real services we escape the message properly
 * (they insert it unescaped, which can produce invalid JSON): a simulator that emits
 * broken JSON by accident would make client tests ambiguous; use a fault for that.
 */
export function envelope(status: number, message: string = reason(status)): string {
  return JSON.stringify({ status: 'error', code: status, message });
}

export const SUCCESS = { status: 'success' } as const;

/** The first refusal among checks made in the device's order, or true. */
export function firstFailure(...checks: Array<true | SimError>): true | SimError {
  for (const c of checks) if (c !== true) return c;
  return true;
}

/**
 * Refusals of the simulated device firmware/driver, in plain terms so the models stay
 * free of HTTP. The mapping to status and message is the one both released dialects share.
 */
export type DeviceRefusal = 'invalid_mode' | 'power_config_missing' | 'watchdog_not_enabled';

export class ModelError extends Error {
  constructor(readonly refusal: DeviceRefusal) {
    super(refusal);
  }
}

const REFUSALS: Readonly<Record<DeviceRefusal, [number, string]>> = {
  // io device status 3 (table B/C of real §3.2)
  invalid_mode: [400, 'Invalid mode'],
  // io device status 6 on output/state and output/pwm
  power_config_missing: [400, 'Power config missing'],
  // bmc alive while the watchdog is disabled (real §3.3)
  watchdog_not_enabled: [500, 'Internal driver communication failed: watchdog timeout not enabled'],
};

export function refusalError(refusal: DeviceRefusal): SimError {
  const [status, message] = REFUSALS[refusal];
  return new SimError(status, message);
}
