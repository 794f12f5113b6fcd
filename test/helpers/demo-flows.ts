/**
 * npm start's demo flows, as scripts/start.js builds them (the same functions, so a test
 * deploys what a user gets), and a full deploy through Node-RED's admin API.
 */
import http from 'http';
import path from 'path';

export type FlowNode = Record<string, any> & { id: string; type: string };

const root = path.resolve(__dirname, '..', '..', '..');

export const start = require(path.join(root, 'scripts', 'start.js')) as {
  DEMO_FLOWS: string[];
  OPTIONAL_DEMOS: Array<{ file: string; module: string }>;
  optionalDemos: Array<{ file: string; module: string; dir?: string }>;
  readExample(file: string, where: { simUrl: string; redPort: number; lang: string }): FlowNode[];
  demoNodes(simUrl: string, port: number, lang: string): FlowNode[];
};

/** The demo tabs as npm start deploys them (start.js): in `lang`, with its ports; config nodes shared by several demos once. */
export function demoFlows(simUrl: string, redPort = 1880, lang = 'en'): FlowNode[] {
  const files = [...start.DEMO_FLOWS, ...start.OPTIONAL_DEMOS.map((d) => d.file)];
  const nodes = files.flatMap((f) => start.readExample(f, { simUrl, redPort, lang }));
  return [...new Map(nodes.map((n) => [n.id, n])).values()];
}

/** A full deploy through the admin API, as npm start's flows.json does on start. */
export function deployFlows(url: string, flows: FlowNode[]): Promise<void> {
  const body = JSON.stringify(flows);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}flows`,
      { method: 'POST', headers: { 'Content-Type': 'application/json', 'Node-RED-Deployment-Type': 'full', 'Content-Length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 204 || res.statusCode === 200 ? resolve() : reject(new Error(`POST /flows: ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
