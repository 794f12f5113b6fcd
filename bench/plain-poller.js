/**
 * The physical limit of the scale scenario: plain `http.request` pollers (one keep-alive
 * connection per module) making the requests notification-poll makes, at its pace, against
 * the same simulator. Like the Poller of the package, a module's next round is scheduled
 * `intervalMs` after the previous round's answer. A round is one `GET notification` on API
 * 0.9, one `GET notification/<pin>` per watched pin on API 1.0 (in order, as the queue sends
 * them). Every record answered goes to `onRecord(slot, pin, record)`.
 */
'use strict';
const { plainRequest, keepAliveAgent } = require('./plain-http');

function startPlainPoller({ url, api, slots, pins, intervalMs, onRecord }) {
  let stopped = false;
  let failure;
  const loops = slots.map((slot) => {
    const agent = keepAliveAgent();
    const base = `${url}/api/io/${api}/${slot}/notification`;
    const round = async () => {
      if (api === '0.9') {
        for (const record of (await plainRequest(agent, base, 'GET')).notification) onRecord(slot, record.pin, record);
      } else {
        for (const pin of pins) onRecord(slot, pin, await plainRequest(agent, `${base}/${pin}`, 'GET'));
      }
    };
    const idle = (async () => {
      while (!stopped) {
        await round();
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
    })().catch((error) => (failure = failure || error)); // stop() reports it: a failed limit is no limit
    return { agent, idle };
  });
  return {
    /** Stops scheduling; resolves once every round on the wire has been answered. */
    async stop() {
      stopped = true;
      await Promise.all(
        loops.map(async (loop) => {
          await loop.idle;
          loop.agent.destroy();
        }),
      );
      if (failure) throw failure;
    },
  };
}

module.exports = { startPlainPoller };
