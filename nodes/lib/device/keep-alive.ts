/**
 * The client's keep-alive agents: one warm connection per module instead of a handshake
 * per msg, and an idle socket closed after IDLE_MS, before a Node server's 5 s keep-alive
 * timeout can close it under a request just being sent (a device's nginx keeps 75 s).
 *
 * Node's own `timeout` option would do the closing, but it costs every request: a
 * 'timeout' listener added to the socket and removed again, the socket's timer stopped and
 * re-armed, and the answer's whole header object built to read the server's Keep-Alive
 * hint. Here the idle timer is set once per socket, and the hint is read from the raw
 * header list. The agent's own 'timeout' handler closes only a socket that is idle: one in
 * use is bounded by its exchange's deadline (transport.ts), not by this timer.
 */
import http from 'http';
import https from 'https';
import type { Socket } from 'net';

export const IDLE_MS = 4000;

/** Node's margin under the server's announced keep-alive timeout (HTTP_AGENT_KEEP_ALIVE_TIMEOUT_BUFFER). */
const HINT_MARGIN_MS = 1000;

/** The first TCP keep-alive probe after this much silence (Node's default). */
const TCP_PROBE_MS = 1000;

const OPTIONS = { keepAlive: true, keepAliveMsecs: TCP_PROBE_MS, maxSockets: 4 };

/**
 * How long the socket may idle: IDLE_MS, or less when the server announced a shorter
 * keep-alive (`Keep-Alive: timeout=N`); 0 when it is too short to reuse the socket safely.
 */
function idleFor(socket: Socket): number {
  const raw = (socket as { _httpMessage?: { res?: http.IncomingMessage } })._httpMessage?.res?.rawHeaders;
  if (!raw) return IDLE_MS;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i].length !== 10 || raw[i].toLowerCase() !== 'keep-alive') continue;
    const hint = /^timeout=(\d+)/.exec(raw[i + 1])?.[1];
    if (hint) return Math.min(IDLE_MS, Math.max(0, Number(hint) * 1000 - HINT_MARGIN_MS));
    break;
  }
  return IDLE_MS;
}

function keepSocketAlive(socket: Socket): boolean {
  const idle = idleFor(socket);
  if (idle === 0) return false;
  socket.unref();
  // TCP keep-alive and the idle timer once per socket: the timer restarts on every read
  // and write by itself, and fires in use only to be ignored.
  if (socket.timeout !== idle) {
    socket.setKeepAlive(true, TCP_PROBE_MS);
    socket.setTimeout(idle);
  }
  return true;
}

export function httpAgent(): http.Agent {
  const agent = new http.Agent(OPTIONS);
  agent.keepSocketAlive = keepSocketAlive;
  return agent;
}

export function httpsAgent(tls: https.AgentOptions): https.Agent {
  const agent = new https.Agent({ ...OPTIONS, ...tls });
  agent.keepSocketAlive = keepSocketAlive;
  return agent;
}
