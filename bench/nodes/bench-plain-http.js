// The limit any Node-RED node can reach for the throughput scenarios: a minimal node that
// does one plain `http.request` per msg (keep-alive, JSON answer parsed into msg.payload)
// and sends the msg on. It pays Node-RED's delivery like ours and the http request node,
// which the raw loop does not, and nothing else: no settings merged, no checks, no status.
// Loaded through the `nodesDir` setting of the benchmark's embedded Node-RED only.
'use strict';
const { plainRequest, keepAliveAgent } = require('../plain-http');

module.exports = function (RED) {
  function BenchPlainHttp(config) {
    RED.nodes.createNode(this, config);
    const agent = keepAliveAgent();
    this.on('input', (msg, send, done) => {
      const data = config.method === 'GET' ? undefined : JSON.stringify(msg.payload);
      plainRequest(agent, config.url, config.method, data).then((body) => {
        msg.payload = body;
        send(msg);
        done();
      }, done);
    });
    this.on('close', () => agent.destroy());
  }
  RED.nodes.registerType('bench-plain-http', BenchPlainHttp);
};
