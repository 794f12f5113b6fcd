/**
 * Config node `modular-device`: one module (service + slot) of one device, and the
 * connection to it. Action nodes look it up by id and use its client and connection.
 */
import { DeviceClient } from './lib/device/client';
import { Connection, healthInterval } from './lib/config-node/connection';
import { ModuleSessions } from './lib/config-node/sessions';
import { DeviceNode, moduleLabel, readSettings, resolveTls } from './lib/config-node/device-settings';
import { registerAdminRoutes } from './lib/config-node/admin-routes';
import { spoken, t, useRuntimeLanguage } from './lib/base/i18n';
import { LIMITS } from './lib/pure/limits';
import { MetricNode, ModuleHealth } from './lib/config-node/module-health';
import type { NodeAPI, NodeDef } from './lib/base/node-red';

/** settings.js, as far as the config node reads it. */
type Settings = NodeAPI['settings'] & { modularDevice?: { healthIntervalMs?: unknown } };

export = function (RED: NodeAPI) {
  // The modules of this Node-RED: config nodes naming the same module share its own writes (sessions.ts).
  const modules = new ModuleSessions();
  function ModularDeviceNode(this: DeviceNode, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;

    try {
      node.deviceUrl = typeof def.url === 'string' ? def.url.trim() : undefined;
      node.fleetDevice = typeof def.fleetDevice === 'string' ? def.fleetDevice.trim() : '';
      const options = readSettings(def, node.credentials ?? {});
      options.tls = resolveTls(RED, def.tls);
      const client = new DeviceClient(options);
      const pace = healthInterval((RED.settings as Settings)?.modularDevice?.healthIntervalMs);
      if (pace.refused) node.warn(t('modular-device.healthIntervalRefused', { problem: spoken(pace.refused), ms: pace.ms }));
      // Who hears the client (device/client-events.ts): the connection (reachability, settings
      // lost, renewing writes; it listens itself) and the module's health events and metrics
      // (config-node/module-health.ts), each exchange.
      const connection = new Connection(client, moduleLabel(options, client.location), node.id, { modules, healthIntervalMs: pace.ms });
      const health = new ModuleHealth(node as unknown as MetricNode, options.queueLimit ?? LIMITS.queue_limit.default);
      client.listen({ exchange: health.onExchange });
      node.connection = connection;
      health.watch(connection);
      connection.start();
    } catch (error) {
      node.problem = error instanceof Error ? error.message : String(error);
      node.error(t('modular-device.configuration', { problem: node.problem }));
    }

    node.register = (user) => {
      if (node.connection) node.connection.register(user);
      else user.onConnectionState({ state: 'invalid', reason: node.problem ?? t('modular-device.notConfigured') });
    };
    node.deregister = (user, done) => {
      node.connection?.deregister(user);
      done?.();
    };

    node.on('close', (_removed, done) => {
      node.connection?.close();
      // Reads on the wire finish first (bounded by the timeout): see DeviceClient.close.
      const client = node.connection?.client;
      if (client) void client.close().then(done, done);
      else done();
    });
  }

  // Runtime texts (status, errors) and limit messages in the runtime's language
  // (settings.lang, else the system's), from the catalogs.
  useRuntimeLanguage(RED);

  RED.nodes.registerType('modular-device', ModularDeviceNode, {
    credentials: { username: { type: 'text' }, password: { type: 'password' }, token: { type: 'password' } },
  });
  registerAdminRoutes(RED);
};
