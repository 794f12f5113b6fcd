/**
 * GET <admin root>/modular-device/metrics: the Prometheus text format of every module in
 * this Node-RED, behind Node-RED's admin auth with read permission (a Prometheus server
 * scrapes it with a bearer token of a read-only admin user, see docs/metrics.md). Served by
 * the plugin `modular-device-metrics` (nodes/modular-device-metrics.ts) unless settings.js
 * turns it off (`modularDevice: { metrics: false }`). One registry per process: the plugin
 * starts it, and fleet-publish counts the commands it refuses into it (when it runs).
 */
import type { NodeAPI, Request, Response } from '../lib/base/node-red';
import { t, useRuntimeLanguage } from '../lib/base/i18n';
import { ModuleMetrics } from './metrics';

/** What the plugin reads beyond a node's API: its registration and settings.js. */
export interface MetricsAPI extends NodeAPI {
  plugins: { registerPlugin(id: string, definition: { type: string; onadd?(): void }): void };
  settings?: NodeAPI['settings'] & { modularDevice?: { metrics?: unknown } };
  log?: { warn(message: string): void };
}

let metrics: ModuleMetrics | undefined;

/**
 * Whether settings.js turns the metrics off: `modularDevice: { metrics: false }`. Anything
 * but `true`, `false` or no value is said in the log and leaves them on (the default).
 */
export function metricsOn(RED: MetricsAPI): boolean {
  const value = RED.settings?.modularDevice?.metrics;
  if (value === undefined || value === true) return true;
  if (value === false) return false;
  RED.log?.warn(t('modular-device.metricsSettingRefused', { got: JSON.stringify(value)?.slice(0, 80) ?? String(value) }));
  return true;
}

/**
 * Starts the registry (once per process: a test loading the package again counts on in
 * it) and serves it on this RED's admin app; with the setting off, stops it and serves nothing.
 */
export function serveMetrics(RED: MetricsAPI): void {
  useRuntimeLanguage(RED);
  if (!metricsOn(RED)) {
    metrics?.stop();
    metrics = undefined;
    return;
  }
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
}

/** The served metrics, for what a node counts itself (fleet-publish's refused commands); none while they are off. */
export function servedMetrics(): ModuleMetrics | undefined {
  return metrics;
}
