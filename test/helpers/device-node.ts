/**
 * The `modular-device` config node that test flows deploy, every property written out as the
 * editor saves it (numbers as text): the admin API deploys it without an editor filling
 * defaults. Free of side effects, so the browser tests' flows share it with the runtime
 * tests (node-red.ts starts the Node-RED test helper when imported).
 */
export type FlowNode = Record<string, unknown> & { id: string; type: string };

export interface DeviceOptions {
  id?: string;
  name?: string;
  url: string;
  service?: string;
  slot?: string | number;
  apiVersion?: string;
  timeout?: string | number;
  queueLimit?: string | number;
  auth?: 'none' | 'basic' | 'bearer' | string;
}

export function deviceNode(options: DeviceOptions): FlowNode {
  return {
    id: options.id ?? 'dev',
    type: 'modular-device',
    name: options.name ?? 'test device',
    url: options.url,
    service: options.service ?? 'io',
    slot: String(options.slot ?? 2),
    apiVersion: options.apiVersion ?? 'auto',
    timeout: String(options.timeout ?? 5000),
    queueLimit: String(options.queueLimit ?? 100),
    auth: options.auth ?? 'none',
    tls: '',
  };
}
