/**
 * The slice of the Node-RED runtime API this package uses, typed once here so the node
 * files stay strict without pulling in a large and dated type package. Types only: this
 * file emits no code and imports nothing from Node-RED.
 */
import type { IncomingMessage, ServerResponse } from 'http';

export type NodeMessage = Record<string, unknown> & { _msgid?: string; payload?: unknown; topic?: unknown };

export interface NodeStatus {
  fill?: 'red' | 'green' | 'yellow' | 'blue' | 'grey';
  shape?: 'ring' | 'dot';
  text?: string;
}

export interface NodeDef {
  id: string;
  type: string;
  name?: string;
  z?: string;
  [key: string]: unknown;
}

export type SendFn = (msg: NodeMessage | Array<NodeMessage | NodeMessage[] | null>) => void;
export type DoneFn = (err?: Error) => void;

export interface Node {
  /** The node's id: a redeployed node keeps it. */
  id: string;
  /** The node's type, e.g. `modular-device` (the admin routes check it). */
  type: string;
  credentials?: Record<string, string | undefined>;
  on(event: 'input', listener: (msg: NodeMessage, send: SendFn, done: DoneFn) => void): void;
  on(event: 'close', listener: (removed: boolean, done: () => void) => void): void;
  send: SendFn;
  status(status: NodeStatus | Record<string, never>): void;
  warn(message: unknown): void;
  error(message: unknown, msg?: NodeMessage): void;
}

export interface Request extends IncomingMessage {
  query: Record<string, string | undefined>;
  body: Record<string, unknown>;
}
export interface Response extends ServerResponse {
  json(body: unknown): void;
  status(code: number): Response;
}
type Handler = (req: Request, res: Response, next?: () => void) => void;

export interface NodeAPI {
  nodes: {
    createNode(node: Node, def: NodeDef): void;
    getNode(id: string): Node | null;
    /** Every node definition of the deployed flows (config nodes included). */
    eachNode?(callback: (def: NodeDef) => void): void;
    getCredentials(id: string): Record<string, string | undefined> | undefined;
    registerType<N extends Node>(
      type: string,
      constructor: (this: N, def: NodeDef) => void,
      opts?: { credentials?: Record<string, { type: 'text' | 'password' }> },
    ): void;
  };
  httpAdmin: {
    get(path: string, ...handlers: Handler[]): void;
    post(path: string, ...handlers: Handler[]): void;
  };
  auth: { needsPermission(permission: string): Handler };
  util: { getSetting?(node: Node | null, name: string): unknown; getMessageProperty(msg: NodeMessage, path: string): unknown };
  /** The runtime's settings: userDir is where Node-RED keeps its files (the alarm journal's place). */
  settings?: { userDir?: string };
  events?: { once(event: string, listener: () => void): void; removeListener(event: string, listener: () => void): void };
  _: (key: string, substitutions?: Record<string, unknown>) => string;
}
