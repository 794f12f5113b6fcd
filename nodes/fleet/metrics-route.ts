/**
 * GET <admin root>/modular-device/metrics: the Prometheus text format of every module in
 * this Node-RED, behind Node-RED's admin auth with read permission (a Prometheus server
 * scrapes it with a bearer token of a read-only admin user, see docs/metrics.md). One registry
 * per process, started the first time the package loads.
 */
import type { NodeAPI, Request, Response } from '../lib/base/node-red';
import { ModuleMetrics } from './metrics';

let metrics: ModuleMetrics | undefined;

/** Serves the metrics (once per process) and gives them, for what a node counts itself (refused commands). */
export function registerMetricsRoute(RED: NodeAPI): ModuleMetrics {
  metrics ??= new ModuleMetrics();
  const own = metrics;
  RED.httpAdmin.get('/modular-device/metrics', RED.auth.needsPermission('modular-device.read'), (_req: Request, res: Response) => {
    own.text().then(
      (text) => {
        res.setHeader('Content-Type', own.contentType);
        res.end(text);
      },
      (error: Error) => res.status(500).json({ error: error.message }),
    );
  });
  return own;
}
