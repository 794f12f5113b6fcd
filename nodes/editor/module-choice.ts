/**
 * The `device` default of a node that works with one service: the Module dropdown offers
 * only config nodes of that service (Node-RED's config-node `filter`, 3.1+), and a flow
 * imported or pasted with a module of another service is marked invalid in the editor, with
 * the runtime's own sentence, instead of failing only after deploy.
 */
import * as limits from '../lib/pure/limits';
import { editorRed } from './page';

type ConfigNode = { service?: unknown; valid?: boolean };
type EditorApi = {
  _(key: string, values?: Record<string, string>): string;
  nodes: { node(id: string): ConfigNode | null | undefined };
  editor: { getEditStack?(): Array<{ _def?: { defaults?: { device?: { service?: limits.Service } } } }> };
};

/** A service given as `${VAR}` is known only at runtime: offer it, and let the runtime check it. */
function serves(config: ConfigNode, service: limits.Service): boolean {
  return config.service === service || limits.isEnvReference(config.service);
}

export function moduleOf(service: limits.Service) {
  return {
    value: '',
    type: 'modular-device',
    required: true,
    label: 'module',
    // Read by serviceOfNew; Node-RED ignores what it does not know in a default.
    service,
    filter: function (config: ConfigNode): boolean {
      return serves(config, service);
    },
    // A `validate` replaces Node-RED's own check of a config-node property, so this one
    // also says what that check says: nothing chosen, a node that is gone, an invalid one.
    validate: function (this: { type?: string }, value: unknown, _opt?: unknown): true | string {
      const RED = editorRed<EditorApi>()!;
      if (!value || value === '_ADD_') return RED._('validator.errors.missing-required-prop', { prop: 'module' });
      const config = RED.nodes.node(String(value));
      if (!config) return RED._('validator.errors.missing-config', { prop: 'module' });
      if (!serves(config, service)) {
        return RED._('@modular-device/node-red/modular-device:modular-device.runtime.common.wrongService', {
          type: String(this.type),
          service,
          chosen: String(config.service),
        });
      }
      if (config.valid === false) return RED._('validator.errors.invalid-config', { prop: 'module' });
      return true;
    },
  };
}

/**
 * The service a new module starts with when it is added from a node's Module list: that
 * node's, since the list would not show a module of another. An existing one keeps its own.
 */
export function serviceOfNew(config: { id: string }): limits.Service | undefined {
  const RED = editorRed<EditorApi>()!;
  if (RED.nodes.node(config.id)) return undefined;
  // Node-RED 3.1 has no getEditStack: the module then starts with the default service.
  const stack = RED.editor.getEditStack?.() ?? [];
  // The config node's own dialog is the top of the stack; the node that opened it is below.
  return stack[stack.length - 2]?._def?.defaults?.device?.service;
}

/**
 * A node's `defaults`, written once for every node of one service: its name and its Module
 * (of `service`), then the node's own settings, in that order (the order Node-RED saves them).
 */
export function defaults(service: limits.Service, own: Record<string, unknown>): Record<string, unknown> {
  return { name: { value: '' }, device: moduleOf(service), ...own };
}
