/**
 * One plain `http.request` with a JSON answer: the physical limit of a Node client, shared by
 * every "plain" contestant of the benchmark (the raw loop and the bench-plain-http node of
 * the throughput scenarios, the plain poller of the scale scenario), so they all pay exactly
 * the same per request and the ratios against them compare like with like.
 */
'use strict';
const http = require('http');

/** `data`: the JSON text of the body, or undefined. Resolves the parsed answer; rejects on a non-200. */
function plainRequest(agent, url, method, data) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: data
          ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data), Accept: 'application/json' }
          : { Accept: 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          try {
            const body = JSON.parse(text);
            if (res.statusCode !== 200) throw new Error(`plain http: ${res.statusCode} ${text}`);
            resolve(body);
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** A keep-alive agent with one connection: requests go one at a time, as through our per-module queue. */
function keepAliveAgent() {
  return new http.Agent({ keepAlive: true, maxSockets: 1 });
}

module.exports = { plainRequest, keepAliveAgent };
