/**
 * Admin routes behind the config node's Discover and Test buttons.
 *
 * Both make the Node-RED server send a request to a URL typed in the editor, so both need
 * the permission to change this config node (`modular-device.write`), and both speak only
 * the device protocol: one GET of the service's version root under the given base (no
 * redirects, the answer bounded like every device answer), answered with the parsed version
 * record or a short, printable error. Both read the open dialog the same way (probeOptions):
 * its URL, timeout, authentication and TLS configuration, so what Test reaches Discover
 * reaches too. Stored credentials go only to the URL they were saved for: those of a
 * deployed `modular-device` node, and only when the dialog's URL is that node's URL.
 * Anything else (another node's id, another URL) gets the credentials typed into the
 * dialog, or none.
 */
import { ClientOptions, DeviceClient } from '../device/client';
import { printable } from '../device/answer';
import { readSettings, resolveTls } from './device-settings';
import { DeviceError } from '../base/errors';
import { envReferenceName, SERVICES } from '../pure/limits';
import { apiText, slotProblem } from '../device/version-record';
import type { Node, NodeAPI, Request, Response } from '../base/node-red';

/** The editor shows passwords it does not know as this placeholder. */
const PLACEHOLDER = '__PWRD__';
const PROBE_TIMEOUT_MS = 3000;
/** An admin answer's error text: enough for a sentence, never a page. */
const ERROR_CHARS = 300;
/** Modules listed per service at most (a device has a handful of slots). */
const LISTED_MODULES = 64;

function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // A TLS sentence is long: the wire path (the same version root for every button) gives way to it.
  return printable(error instanceof DeviceError && error.code === 'TLS' ? message.replace(/^GET \S+: /, '') : message, ERROR_CHARS);
}

/** The error's text, and its words for the editor to say in its own language (TLS sentences). */
function answerOf(error: unknown): { error: string; words?: DeviceError['words'] } {
  return error instanceof DeviceError && error.words ? { error: errorText(error), words: error.words } : { error: errorText(error) };
}

function fail(res: Response, status: number, error: unknown): void {
  res.status(status).json(answerOf(error));
}

/** `${VAR}` / `$(VAR)` as the runtime expands a whole-string env reference in a node's property. */
function expandEnv(RED: NodeAPI, text: string, node: Node | null): string {
  const name = envReferenceName(text);
  if (name === undefined) return text.trim();
  const value = RED.util.getSetting?.(node, name) ?? process.env[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** Two base URLs are the same device when they parse to the same origin and path. */
function sameUrl(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    const path = (u: URL) => u.pathname.replace(/\/+$/, '');
    return x.origin === y.origin && path(x) === path(y) && !x.username && !x.password;
  } catch {
    return false;
  }
}

/** The credentials Test may use: typed ones, else stored ones of the same device node at its own URL. */
function testCredentials(RED: NodeAPI, body: Record<string, unknown>, url: string): Record<string, string | undefined> {
  const saved = typeof body.id === 'string' ? (RED.nodes.getNode(body.id) as (Node & { deviceUrl?: string }) | null) : null;
  const own = saved && saved.type === 'modular-device' && typeof saved.deviceUrl === 'string' && sameUrl(url, saved.deviceUrl);
  const stored = own ? (saved.credentials ?? {}) : {};
  const typed = (typeof body.credentials === 'object' && body.credentials) || {};
  const credentials: Record<string, string | undefined> = {};
  for (const key of ['username', 'password', 'token']) {
    const value = (typed as Record<string, unknown>)[key];
    credentials[key] = typeof value === 'string' && value !== PLACEHOLDER ? value : stored[key];
  }
  return credentials;
}

/**
 * The client options of the open dialog (`body`: its fields, as both buttons send them),
 * with `fixed` over them (Discover asks each service at slot 0). Throws the refusal of a bad field.
 */
function probeOptions(RED: NodeAPI, body: Record<string, unknown>, fixed: Record<string, unknown> = {}): ClientOptions {
  const url = expandEnv(RED, typeof body.url === 'string' ? body.url : '', typeof body.id === 'string' ? RED.nodes.getNode(body.id) : null);
  const options = readSettings({ id: 'probe', type: 'modular-device', ...body, ...fixed, url }, testCredentials(RED, body, url));
  options.timeout = Math.min(options.timeout ?? PROBE_TIMEOUT_MS, PROBE_TIMEOUT_MS);
  options.tls = resolveTls(RED, body.tls);
  return options;
}

/** When no service answered: why, when all three failed alike (a TLS problem does), else just that. */
function noneAnswered(failures: unknown[]): { error: string; words?: DeviceError['words'] } {
  const reasons = new Set(failures.map((error) => errorText(error).replace(/^GET \S+: /, '')));
  if (reasons.size !== 1) return { error: 'no service answered at this URL' };
  return { ...answerOf(failures[0]), error: printable(`no service answered at this URL: ${[...reasons][0]}`, ERROR_CHARS) };
}

export function registerAdminRoutes(RED: NodeAPI): void {
  const permission = RED.auth.needsPermission('modular-device.write');

  /** Which modules answer at a URL: service and slot of every device in the three version records. */
  RED.httpAdmin.post('/modular-device/discover', permission, (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    let options: Record<string, ClientOptions>;
    try {
      options = Object.fromEntries(SERVICES.map((service) => [service, probeOptions(RED, body, { service, slot: 0, apiVersion: 'auto', queueLimit: 1 })]));
    } catch (error) {
      fail(res, 400, error);
      return;
    }
    const probes = SERVICES.map(async (service) => {
      let client: DeviceClient | undefined;
      try {
        client = new DeviceClient(options[service]);
        const { apiVersion, record } = await client.readVersionRecord();
        const slots = [...new Set(record.devices.map((d) => d.slot_number))].slice(0, LISTED_MODULES);
        return { service, modules: slots.map((slot) => ({ service, slot, apiVersion, api: apiText(record) })) };
      } catch (error) {
        return { service, failure: error, error: errorText(error) };
      } finally {
        void client?.close();
      }
    });
    Promise.all(probes).then(
      (answers) => {
        const modules = answers.flatMap((a) => ('modules' in a ? (a.modules ?? []) : []));
        const failed = answers.filter((a): a is { service: typeof a.service; failure: unknown; error: string } => 'error' in a);
        const errors = Object.fromEntries(failed.map((a) => [a.service, a.error]));
        if (!modules.length && failed.length === SERVICES.length) {
          res.status(502).json({ ...noneAnswered(failed.map((a) => a.failure)), errors });
        } else {
          res.json({ modules, errors });
        }
      },
      (error) => fail(res, 500, error),
    );
  });

  /** The version record of the module's service as configured in the open dialog, and whether its slot is there. */
  RED.httpAdmin.post('/modular-device/test', permission, (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    let client: DeviceClient;
    try {
      client = new DeviceClient(probeOptions(RED, body));
    } catch (error) {
      fail(res, 400, error);
      return;
    }
    client
      .readVersionRecord()
      .then(({ apiVersion, record }) => {
        const missing = slotProblem(record, client.service, client.slot);
        if (missing) throw new DeviceError(missing, { code: 'INCOMPATIBLE' });
        return { apiVersion, api: apiText(record), service: client.service, slot: client.slot };
      })
      .then(
        (answer) => res.json(answer),
        (error) => fail(res, error instanceof DeviceError && error.code === 'INCOMPATIBLE' ? 404 : 502, error),
      )
      .finally(() => client.close());
  });
}
