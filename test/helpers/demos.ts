/**
 * The shipped example flows (examples/*.json, which npm start's demo tabs are) deployed as
 * they ship in the test helper's Node-RED, pointed at a test's simulator. Core nodes they
 * use are loaded from Node-RED itself; nodes of other packages (the dashboard's ui-*, MQTT)
 * are left out, with the wires to them: they send nothing to the device.
 */
import fs from 'fs';
import path from 'path';
import { FlowNode, helper, NodeModule, nodeRedPackage } from './node-red';
import { ALL_MODULES } from './reliability';
import deviceStatus = require('../../nodes/device-status');
import fleetPublish = require('../../nodes/fleet-publish');

const CORE = [
  'common/25-catch.js',
  'common/25-status.js',
  'common/90-comment.js',
  'network/21-httprequest.js',
  'function/rbe.js',
  'common/20-inject.js',
  'common/21-debug.js',
  'function/10-switch.js',
  'function/15-change.js',
  'function/10-function.js',
];
const EXAMPLES = path.resolve(__dirname, '..', '..', '..', 'examples');
/** Every example file. */
export const EXAMPLE_FILES: string[] = fs
  .readdirSync(EXAMPLES)
  .filter((f) => f.endsWith('.json'))
  .sort();
/** Types of other packages: not deployed here. */
const FOREIGN = /^(ui-|mqtt)/;

/** The examples' nodes, retargeted at `url`; a config node shared by several files once. */
export function exampleFlow(url: string, files: readonly string[]): FlowNode[] {
  const nodes = files.flatMap((file) => JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8').split('http://127.0.0.1:8080').join(url)) as FlowNode[]);
  return [...new Map(nodes.filter((n) => !FOREIGN.test(n.type)).map((n) => [n.id, n])).values()];
}

/** Loads the examples with this package's nodes, device-status and the core nodes they use. */
export async function loadExamples(url: string, files: readonly string[]): Promise<FlowNode[]> {
  const core = CORE.map((file) => require(path.join(nodeRedPackage('@node-red/nodes'), 'core', file)) as NodeModule);
  // node-red-node-test-helper loads its own copy of the catch module once per catch node
  // in the flow, and the examples have one each: hand it the core module once instead.
  const own = helper as unknown as { _nodeModules: Record<string, unknown> };
  const preloaded = own._nodeModules;
  own._nodeModules = {};
  const flow = exampleFlow(url, files);
  try {
    await helper.load([...ALL_MODULES, deviceStatus as NodeModule, fleetPublish as NodeModule, ...core], flow);
  } finally {
    own._nodeModules = preloaded;
  }
  return flow;
}
