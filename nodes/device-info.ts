/**
 * device-info: the service's version record and the module's descriptor, for any of the
 * three services. The spec shows the descriptor both as `<version>/<slot>/descriptor` and
 * as `<version>/descriptor`; the node asks the first and falls back to the second on 404.
 */
import { registerActionNode } from './lib/action/action-node';
import { DeviceResult, ModuleClient } from './lib/device/client';
import { Operation } from './lib/action/operation';
import { DeviceError } from './lib/base/errors';
import { t } from './lib/base/i18n';
import { SentRequest, sentRequests } from './lib/device/request';
import type { NodeAPI } from './lib/base/node-red';

async function readInfo(client: ModuleClient): Promise<DeviceResult> {
  const version = await client.request({ method: 'GET', scope: 'service', endpoint: [] });
  let descriptor: DeviceResult;
  /** The slot form's request when it answered 404: msg.request names it too. */
  const notFound: SentRequest[] = [];
  try {
    descriptor = await client.request({ method: 'GET', endpoint: ['descriptor'] });
  } catch (error) {
    if (!(error instanceof DeviceError && error.statusCode === 404)) throw error;
    notFound.push({ method: 'GET', path: error.path ?? '' });
    try {
      descriptor = await client.request({ method: 'GET', scope: 'service', endpoint: ['descriptor'] });
    } catch {
      throw error; // the slot form's answer says more (e.g. "Slot not found")
    }
  }
  return {
    data: {
      version: version.data,
      descriptor: descriptor.data,
      apiVersion: client.apiVersion,
      slot: client.slot,
      service: client.service,
      sessions: sessionsOf(version.data, client.slot),
    },
    request: sentRequests(version.request, ...notFound, descriptor.request),
  };
}

/** API 1.0's session ids (undefined on 0.9): the service's, and the module's in its slot. */
function sessionsOf(record: unknown, slot: number): { driver_session?: unknown; device_session?: unknown } {
  const r = (record ?? {}) as { driver_session?: unknown; devices?: Array<{ slot_number?: unknown; device_session?: unknown }> };
  const module = Array.isArray(r.devices) ? r.devices.find((d) => d.slot_number === slot) : undefined;
  return { driver_session: r.driver_session, device_session: module?.device_session };
}

function build(): Operation {
  return { kind: 'conversation', run: readInfo, status: t('common.read') };
}

export = function (RED: NodeAPI) {
  registerActionNode(RED, 'device-info', {
    settings: () => ({}),
    build,
    output: (result, msg) => {
      const data = result.data as { descriptor?: { product_name?: string; serial_code?: string } };
      msg.payload = result.data;
      msg.request = result.request;
      return { msgs: [msg], status: `${data.descriptor?.product_name ?? '?'} ${data.descriptor?.serial_code ?? ''}`.trim() };
    },
  });
};
