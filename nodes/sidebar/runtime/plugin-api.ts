/**
 * The slice of Node-RED's API the sidebar plugin uses beyond what nodes use (base/node-red.ts):
 * registering a plugin, walking the deployed flows, comms to the editors, settings.js, the
 * log, and DELETE on the admin app. Types only: no code, nothing imported from Node-RED.
 */
import type { NodeAPI, NodeDef, Request, Response } from '../../lib/base/node-red';

type Handler = (req: Request, res: Response, next?: () => void) => void;

export interface PluginAPI extends NodeAPI {
  plugins: { registerPlugin(id: string, definition: { type: string; onadd?(): void }): void };
  nodes: NodeAPI['nodes'] & {
    /** Every node definition of the deployed flows (config nodes included). */
    eachNode(visit: (def: NodeDef) => void): void;
  };
  httpAdmin: NodeAPI['httpAdmin'] & { delete(path: string, ...handlers: Handler[]): void };
  /** Sends to every connected editor that may read (Node-RED's comms checks status.read). */
  comms: { publish(topic: string, data: unknown, retain: boolean): void };
  settings: { userDir?: string; modularDevice?: { sidebarReadsPerSecond?: unknown } };
  log: { warn(message: string): void };
  /** The runtime's events (`flows:started` after every deploy). */
  events: NonNullable<NodeAPI['events']> & { on(event: string, listener: () => void): void };
}
