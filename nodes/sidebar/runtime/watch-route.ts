/**
 * The watch route (WATCH_ROUTE): an editor whose device sidebar is open POSTs its watcher id
 * every so often to hold a lease, and DELETEs it when the sidebar closes. Only users who may
 * read (`modular-device.read`, which Node-RED's `read` scope covers) are let in; the ids are
 * short words and the watchers bounded, so nobody can make the runtime hold much for them.
 */
import { LIVE_BOUNDS } from '../../lib/pure/limits';
import type { Request, Response } from '../../lib/base/node-red';
import type { LiveService } from './live-service';
import type { PluginAPI } from './plugin-api';
import { WATCH_ROUTE } from '../../lib/pure/snapshot';

const ID = new RegExp(`^[A-Za-z0-9_-]{1,${LIVE_BOUNDS.watcherIdChars}}$`);

/** The watcher id of a request (body, else query), or undefined when it is not a short word. */
function watcherId(req: Request): string | undefined {
  const id = (req.body as Record<string, unknown> | undefined)?.id ?? req.query?.id;
  return typeof id === 'string' && ID.test(id) ? id : undefined;
}

export function registerWatchRoute(RED: PluginAPI, live: () => LiveService): void {
  const permission = RED.auth.needsPermission('modular-device.read');
  const badId = (res: Response) => res.status(400).json({ error: `id must be 1 to ${LIVE_BOUNDS.watcherIdChars} letters, digits, - or _` });

  RED.httpAdmin.post(WATCH_ROUTE, permission, (req: Request, res: Response) => {
    const id = watcherId(req);
    if (!id) return badId(res);
    const service = live();
    if (!service.leases.renew(id)) {
      res.status(429).json({ error: `at most ${LIVE_BOUNDS.maxWatchers} editors may watch at once` });
      return;
    }
    res.json({ leaseMs: LIVE_BOUNDS.leaseMs, readsPerSecond: service.readsPerSecond });
  });

  RED.httpAdmin.delete(WATCH_ROUTE, permission, (req: Request, res: Response) => {
    const id = watcherId(req);
    if (!id) return badId(res);
    live().leases.end(id);
    res.status(204).end();
  });
}
