/**
 * Plugin `modular-device-sidebar`: the runtime side of the editor's "Device" sidebar tab. It
 * serves the watch route and, while an editor watches, reads the deployed modules at a low
 * rate and publishes snapshots over comms (runtime/ beside this file). The editor side is
 * modular-device-sidebar.html beside this file, with its code in editor/ (bundled into
 * resources/sidebar.js). Node-RED reads the .html and the catalogue
 * (locales/<lang>/modular-device-sidebar.json, which the build copies) beside the .js.
 */
import { useRuntimeLanguage } from '../lib/base/i18n';
import { ConflictStatus } from './runtime/conflict-status';
import { LiveService } from './runtime/live-service';
import type { PluginAPI } from './runtime/plugin-api';
import { registerWatchRoute } from './runtime/watch-route';

/**
 * The one live view of the process. Loaded again (a test helper loads the package per
 * test), the new one replaces the old, which stops first: never two collectors at once.
 */
let current: LiveService | undefined;
let conflicts: ConflictStatus | undefined;

/** The running live view (tests look at its leases and collector). */
function liveService(): LiveService | undefined {
  return current;
}

function plugin(RED: PluginAPI): void {
  useRuntimeLanguage(RED);
  RED.plugins.registerPlugin('modular-device-sidebar', { type: 'modular-device-sidebar', onadd() {} });
  current?.close();
  conflicts?.close();
  // Conflicts between deployed nodes show as their yellow status after every deploy.
  conflicts = new ConflictStatus(RED);
  const live = new LiveService(RED);
  current = live;
  registerWatchRoute(RED, () => live);
}

/** Stops the live view and the conflict statuses (a test that loaded the plugin, when it ends). */
function close(): void {
  current?.close();
  conflicts?.close();
  current = undefined;
  conflicts = undefined;
}

export = Object.assign(plugin, { liveService, close });
