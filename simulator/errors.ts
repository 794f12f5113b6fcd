/**
 * Errors and the error envelope the released services answer with (real §2):
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

/** Descriptions of Rocket's default catcher for the statuses the services reach without a catcher of their own. */
const DEFAULT_CATCHER: Readonly<Record<number, string>> = {
  413: 'The request is larger than the server is willing or able to process.',
};

/** true when the Accept header's preferred media type is JSON. */
function prefersJson(accept: string | undefined): boolean {
  let best: { type: string; q: number; specific: number } | undefined;
  for (const part of (accept ?? '').split(',')) {
    const [type, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    if (!type) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2)) || 0;
    const specific = type.split('/').filter((t) => t !== '*').length;
    if (best === undefined || q > best.q || (q === best.q && specific > best.specific)) best = { type, q, specific };
  }
  return best?.type === 'application/json';
}

/**
 * What Rocket's default catcher answers for a status the services register no catcher for
 * (real §2: 413): an HTML page, or JSON `{"error":{code, reason, description}}` when the
 * Accept header prefers JSON (its preferred type: highest q, then the more specific). Not
 * the envelope.
 */
export function defaultCatcher(status: number, accept: string | undefined): { contentType: string; body: string } {
  const description = DEFAULT_CATCHER[status] ?? 'An unknown error has occurred.';
  const why = reason(status);
  if (prefersJson(accept)) {
    const body = JSON.stringify({ error: { code: status, reason: why, description } }, null, 2);
    return { contentType: 'application/json', body };
  }
  // The page's title, heading and text as Rocket's; its layout is not reproduced.
  const html = [
    '<!DOCTYPE html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${status} ${why}</title></head>`,
    `<body><h1>${status}: ${why}</h1><p>${description}</p><hr><small>Rocket</small></body>`,
    '</html>',
  ];
  return { contentType: 'text/html; charset=utf-8', body: html.join('\n') };
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
