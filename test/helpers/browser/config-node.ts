/**
 * The `modular-device` config node the browser tests' flows deploy: every property written
 * out, as the admin API deploys it without an editor filling defaults.
 */
export type FlowNode = Record<string, unknown> & { id: string; type: string };

export function configNode(id: string, service: string, slot: number, url: string, name = `${service} slot ${slot}`): FlowNode {
  return {
    id,
    type: 'modular-device',
    name,
    url,
    service,
    slot: String(slot),
    apiVersion: 'auto',
    timeout: '5000',
    queueLimit: '100',
    auth: 'none',
    tls: '',
  };
}
