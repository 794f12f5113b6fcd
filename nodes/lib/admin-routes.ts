/**
 * Admin routes behind the config node's Discover and Test buttons.
 *
 * Both make the Node-RED server send requests to a URL typed in the editor, so both need
 * the permission to change this config node (`modular-device.write`): with adminAuth on, a
 * reader or an anonymous caller cannot turn them into requests to an arbitrary host. The
 * paths they request are built by DeviceClient from fixed words and checked integers only.
 */
import { DeviceClient, VersionRecord } from './client';
import { readSettings, TlsConfigNode } from './device-settings';
import { DeviceError } from './errors';
import { SERVICES } from './limits';
import type { NodeAPI, Request, Response } from './red';

/** The editor shows passwords it does not know as this placeholder. */
const PLACEHOLDER = '__PWRD__';
const PROBE_TIMEOUT_MS = 3000;

function fail(res: Response, status: number, error: unknown): void {
  res.status(status).json({ error: error instanceof Error ? error.message : String(error) });
}

export function registerAdminRoutes(RED: NodeAPI): void {
  const permission = RED.auth.needsPermission('modular-device.write');

  /** Which modules answer at a URL: service and slot of every device in the three version records. */
  RED.httpAdmin.get('/modular-device/discover', permission, (req: Request, res: Response) => {
    const url = typeof req.query.url === 'string' ? req.query.url : '';
    const probes = SERVICES.map(async (service) => {
      let client: DeviceClient | undefined;
      try {
        client = new DeviceClient({ url, service, slot: 0, apiVersion: 'auto', timeout: PROBE_TIMEOUT_MS, queueLimit: 1 });
        const { apiVersion, record } = await client.readVersionRecord();
        const api = record.version.api;
        return {
          service,
          modules: record.devices.map((d: VersionRecord['devices'][number]) => ({
            service,
            slot: d.slot_number,
            apiVersion,
            api: `${api.major}.${api.minor}.${api.patch}`,
          })),
        };
      } catch (error) {
        return { service, error: error instanceof Error ? error.message : String(error) };
      } finally {
        client?.close();
      }
    });
    Promise.all(probes).then(
      (answers) => {
        const modules = answers.flatMap((a) => ('modules' in a ? a.modules ?? [] : []));
        const errors = Object.fromEntries(answers.filter((a) => 'error' in a).map((a) => [a.service, (a as { error: string }).error]));
        if (!modules.length && Object.keys(errors).length === SERVICES.length) {
          res.status(502).json({ error: `no service answered at ${url}`, errors });
        } else {
          res.json({ modules, errors });
        }
      },
      (error) => fail(res, 500, error),
    );
  });

  /** Version record and descriptor of the module as configured in the open dialog. */
  RED.httpAdmin.post('/modular-device/test', permission, (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const stored = typeof body.id === 'string' ? RED.nodes.getCredentials(body.id) ?? {} : {};
    const typed = (typeof body.credentials === 'object' && body.credentials) || {};
    const credentials: Record<string, string | undefined> = {};
    for (const key of ['username', 'password', 'token']) {
      const value = (typed as Record<string, unknown>)[key];
      credentials[key] = typeof value === 'string' && value !== PLACEHOLDER ? value : stored[key];
    }
    let client: DeviceClient;
    try {
      const options = readSettings({ id: 'test', type: 'modular-device', ...body }, credentials);
      options.timeout = Math.min(options.timeout ?? PROBE_TIMEOUT_MS, PROBE_TIMEOUT_MS);
      if (typeof body.tls === 'string' && body.tls) {
        const tlsNode = RED.nodes.getNode(body.tls) as TlsConfigNode | null;
        if (!tlsNode) throw new DeviceError('deploy the TLS configuration first, then test', { code: 'NOT_CONFIGURED' });
        options.tls = tlsNode.addTLSOptions({});
      }
      client = new DeviceClient(options);
    } catch (error) {
      fail(res, 400, error);
      return;
    }
    (async () => {
      const { apiVersion, record } = await client.readVersionRecord();
      const slots = record.devices.map((d) => d.slot_number);
      if (!slots.includes(client.slot)) {
        throw new DeviceError(`no ${client.service} module in slot ${client.slot} (the device lists ${slots.join(', ') || 'none'})`, {
          code: 'INCOMPATIBLE',
        });
      }
      const descriptor = await client.request({ method: 'GET', endpoint: ['descriptor'] });
      return { apiVersion, version: record.version, descriptor: descriptor.data };
    })()
      .then(
        (answer) => res.json(answer),
        (error) => fail(res, error instanceof DeviceError && error.code === 'INCOMPATIBLE' ? 404 : 502, error),
      )
      .finally(() => client.close());
  });
}
