/**
 * A device request in the spec's terms, and what went on the wire for it: the types that
 * the nodes, the client and the dialects share, written once.
 */
import type { ApiVersion, Service } from '../pure/limits';

export type Method = 'GET' | 'POST';

/**
 * A request as a node builds it (the spec's paths and names), or a wire call as a dialect
 * translates it: the endpoint below `<slot>/` as fixed words and integers.
 */
export interface DeviceRequest {
  method: Method;
  /** e.g. ['output', 'state'] or ['usbhub', 'port', 3]: words and validated integers only. */
  endpoint: ReadonlyArray<string | number>;
  body?: Record<string, unknown>;
  /** Below the module (`<version>/<slot>/...`, the default) or the service root (`<version>/...`). */
  scope?: 'module' | 'service';
  /**
   * A notification read: the pins it is for. API 1.0 reads each pin on its own, so a pin
   * left out is a request fewer; 0.9 reads all six at once whatever this says.
   */
  pins?: readonly number[];
  /**
   * A notification read on API 1.0 (a request per pin): each pin's record as its answer
   * arrives, before the read's whole answer. notification-poll's rounds hand an alert on at
   * once, not after the last pin's read (a plain poller's latency).
   */
  arrived?: (record: object, sent: SentRequest) => void;
}

/** One wire call as it was sent (no host, no headers, no credentials). */
export interface SentRequest {
  method: Method;
  path: string;
  body?: Record<string, unknown>;
}

/**
 * `msg.request`: every wire call of a msg, in the order sent. One call is the object itself
 * (the common case reads `msg.request.path`); several are a list, so none is hidden behind
 * the last one or a joined path.
 */
export type SentRequests = SentRequest | SentRequest[];

/** The wire calls of several exchanges (each one call or a list) as one `msg.request`. */
export function sentRequests(...parts: SentRequests[]): SentRequests {
  // The common case, one call, as it is: no list made for it.
  if (parts.length === 1 && !Array.isArray(parts[0])) return parts[0];
  const calls = parts.flat();
  return calls.length === 1 ? calls[0] : calls;
}

/** The module's ordered queue; its reserved place ahead of users' msgs for settings put back (desired-state.ts); the keep-alive's own lane. */
export type Lane = 'ordered' | 'settings' | 'keep-alive';

export interface DeviceResult<T = unknown> {
  data: T;
  /** Every wire call the answer took, as `msg.request` shows it. */
  request: SentRequests;
}

/**
 * The client as a conversation (several requests chosen as the answers come) sees it: its
 * requests share the deadline of the one msg (or poll round) they answer (client.ts bounded).
 */
export interface ModuleClient {
  readonly service: Service;
  readonly slot: number;
  readonly apiVersion: ApiVersion | undefined;
  request<T = unknown>(requests: DeviceRequest | DeviceRequest[], lane?: Lane): Promise<DeviceResult<T>>;
}
