// The limit any Node-RED node can reach for a polling node (readings, notifications, a
// keep-alive): every `interval` ms after the previous round's last answer, one plain
// `http.request` GET per URL of `urls`, in order, on one keep-alive connection (as through
// our per-module queue). `output`: 'always' sends msg.payload = the answers (one, or a list)
// every round; 'change' only when they differ from the previous round's (the cheapest
// "report what changed": a string compare); 'none' sends nothing (a keep-alive). A failed
// round goes to Catch and the polling goes on. Nothing else: no settings merged, no checks,
// no status. Loaded through the `nodesDir` setting of the benchmark's embedded Node-RED only.
'use strict';
const { plainRequest, keepAliveAgent } = require('../plain-http');

module.exports = function (RED) {
  function BenchPlainPoll(config) {
    RED.nodes.createNode(this, config);
    const agent = keepAliveAgent();
    const urls = config.urls;
    let stopped = false;
    let timer;
    let wake;
    let last;
    // Once more when the server closed the kept-alive connection as it was reused (a poll
    // every 5 s meets Node's 5 s keep-alive timeout): ours retries that case too.
    const get = (url) =>
      plainRequest(agent, url, 'GET').catch((error) =>
        /socket hang up|ECONNRESET/.test(error.message) ? plainRequest(agent, url, 'GET') : Promise.reject(error),
      );
    const round = async () => {
      const answers = [];
      for (const url of urls) answers.push(await get(url));
      if (config.output === 'none') return;
      const payload = answers.length === 1 ? answers[0] : answers;
      if (config.output === 'change') {
        const text = JSON.stringify(payload);
        if (text === last) return;
        last = text;
      }
      this.send({ payload });
    };
    const running = (async () => {
      while (!stopped) {
        await round().catch((error) => this.error(error, {}));
        if (!stopped) await new Promise((resolve) => ((wake = resolve), (timer = setTimeout(resolve, Number(config.interval)))));
      }
    })();
    this.on('close', (done) => {
      // Ends once the round on the wire has been answered, so the next contestant starts clean.
      stopped = true;
      clearTimeout(timer);
      if (wake) wake();
      running.then(() => {
        agent.destroy();
        done();
      });
    });
  }
  RED.nodes.registerType('bench-plain-poll', BenchPlainPoll);
};
