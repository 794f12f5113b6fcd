/**
 * Plugin `modular-device-metrics`: the Prometheus endpoint of every module in this Node-RED
 * (nodes/fleet/metrics-route.ts), on whether or not any fleet-publish node is deployed, off
 * with settings.js `modularDevice: { metrics: false }` (docs/metrics.md). A plugin rather than
 * a side effect of loading a node type: the admin route is the package's, not a node's.
 */
import { MetricsAPI, serveMetrics } from './fleet/metrics-route';

function plugin(RED: MetricsAPI): void {
  RED.plugins.registerPlugin('modular-device-metrics', { type: 'modular-device-metrics' });
  serveMetrics(RED);
}

export = plugin;
