/**
 * What the config node `modular-device` holds, read and checked: shared by the config
 * node, its admin routes and the action nodes that look it up.
 */
import { ClientOptions, TlsOptions } from '../device/client';
import { Connection, ConnectionUser } from './connection';
import { DeviceError } from '../base/errors';
import { t } from '../base/i18n';
import { check, labelled, LIMITS, parseInteger, Service } from '../pure/limits';
import type { Node, NodeAPI, NodeDef } from '../base/node-red';

/** The config node's type: its dialog's labels name the settings in a refusal. */
const TYPE = 'modular-device';

export interface DeviceNode extends Node {
  /** The URL the node was deployed with (env references expanded): Test sends its credentials only there. */
  deviceUrl?: string;
  /** Set when the configuration is usable; undefined with `problem` set otherwise. */
  connection?: Connection;
  /** Why the configuration cannot be used (names the field, value and range). */
  problem?: string;
  /** The device this module is on, as the fleet's topics name it ('' : the fleet-publish node's Device); checked there. */
  fleetDevice?: string;
  register(user: ConnectionUser): void;
  deregister(user: ConnectionUser, done?: () => void): void;
}

export interface TlsConfigNode extends Node {
  addTLSOptions(options: TlsOptions): TlsOptions;
}

/** Reads and checks the node's settings; throws a DeviceError naming the first bad one. */
export function readSettings(def: NodeDef, credentials: Record<string, string | undefined> = {}): ClientOptions {
  const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');
  const number = (v: unknown, fallback: number): unknown => (v === undefined || v === '' ? fallback : parseInteger(v));
  const fields = {
    service: text(def.service),
    slot: number(def.slot, NaN),
    apiVersion: text(def.apiVersion) || 'auto',
    // The defaults live beside the bounds, where the dialog reads them too.
    timeout: number(def.timeout, LIMITS.request_timeout.default),
    queueLimit: number(def.queueLimit, LIMITS.queue_limit.default),
    answerLimit: number(def.answerLimit, LIMITS.answer_limit.default),
  };
  for (const result of [
    check('service', fields.service, labelled(TYPE, 'service')),
    check('slot', fields.slot, labelled(TYPE, 'slot')),
    check('api_version', fields.apiVersion, labelled(TYPE, 'apiVersion')),
    check('request_timeout', fields.timeout, labelled(TYPE, 'timeout')),
    check('queue_limit', fields.queueLimit, labelled(TYPE, 'queueLimit')),
    check('answer_limit', fields.answerLimit, labelled(TYPE, 'answerLimit')),
  ]) {
    if (result !== true) throw new DeviceError(result, { code: 'NOT_CONFIGURED' });
  }
  const auth = text(def.auth) || 'none';
  if (auth !== 'none' && auth !== 'basic' && auth !== 'bearer') {
    throw new DeviceError(t('common.authChoice', { got: JSON.stringify(auth) }), { code: 'NOT_CONFIGURED' });
  }
  return {
    url: text(def.url),
    service: fields.service as Service,
    slot: fields.slot as number,
    apiVersion: fields.apiVersion as ClientOptions['apiVersion'],
    timeout: fields.timeout as number,
    queueLimit: fields.queueLimit as number,
    answerLimitKiB: fields.answerLimit as number,
    auth,
    credentials: { username: credentials.username, password: credentials.password, token: credentials.token },
  };
}

/** `io slot 2 @ 127.0.0.1:8080`: what the editor and the log call a module. */
export function moduleLabel(options: Pick<ClientOptions, 'service' | 'slot'>, location: string): string {
  return `${options.service} slot ${options.slot} @ ${location}`;
}

/** The TLS options of a tls-config node by id ('' or undefined: none); refuses a missing one. */
export function resolveTls(RED: NodeAPI, id: unknown): TlsOptions | undefined {
  if (typeof id !== 'string' || !id || id === '_ADD_') return undefined;
  const tlsNode = RED.nodes.getNode(id) as TlsConfigNode | null;
  if (!tlsNode || typeof tlsNode.addTLSOptions !== 'function') throw new DeviceError(t('modular-device.tlsMissing'), { code: 'NOT_CONFIGURED' });
  return tlsNode.addTLSOptions({});
}
