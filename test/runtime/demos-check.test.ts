/**
 * The flow check cries no wolf on the package's own flows: `npm start`'s demo
 * tabs deployed together as it deploys them, and every examples/*.json on its own, pointed
 * at this suite's simulator (API 0.9, and 1.0 under MD_API=1.0). Once every module is
 * connected and the live view has read each one (the real collector, through each module's
 * own client), the runtime's check of the deployed flows (LiveService.snapshot().deployed,
 * what the sidebar lists as "Deployed") is empty.
 *
 * Dashboard nodes (@flowfuse/node-red-dashboard, not installed here) are deployed as
 * comments of the same id: the check never reads them, and Node-RED would otherwise wait
 * for their types and start nothing.
 */
import fs from 'fs';
import path from 'path';
import { TEST_API } from '../helpers/api';
import { FlowNode, helper, NodeModule, nodeRedPackage, waitConnected, waitFor } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { ALL_MODULES } from '../helpers/reliability';
import sidebarPlugin = require('../../nodes/sidebar/modular-device-sidebar');
import deviceStatus = require('../../nodes/device-status');
import fleetPublish = require('../../nodes/fleet-publish');

/** The node types of this package (package.json), plugin excluded. */
const OURS = new Set(Object.keys(JSON.parse(fs.readFileSync(path.join(path.resolve(__dirname, '..', '..', '..'), 'package.json'), 'utf8'))['node-red'].nodes));

const root = path.resolve(__dirname, '..', '..', '..');
const CORE = [
  'common/25-catch.js',
  'common/25-status.js',
  'common/90-comment.js',
  'network/21-httprequest.js',
  'network/10-mqtt.js',
  'common/20-inject.js',
  'common/21-debug.js',
  'function/10-switch.js',
  'function/15-change.js',
  'function/10-function.js',
];
/** What scripts/start.js deploys, read from it so that the two never part. */
const START_DEMOS = JSON.parse(
  /DEMO_FLOWS = (\[[^\]]*\])/.exec(fs.readFileSync(path.join(root, 'scripts', 'start.js'), 'utf8'))![1].replace(/'/g, '"'),
) as string[];
const EXAMPLES = fs
  .readdirSync(path.join(root, 'examples'))
  .filter((f) => f.endsWith('.json'))
  .sort();
/** The fleet example's environment (its info text says how it is run). */
const FLEET_ENV = { IO_SLOT: '2', BMC_SLOT: '0', POWER_SLOT: '1', DEVICE_NAME: 'sim-1', MQTT_BROKER: '127.0.0.1' };

function flowOf(files: string[], url: string): FlowNode[] {
  const nodes = files.flatMap(
    (file) =>
      JSON.parse(
        fs
          .readFileSync(path.join(root, 'examples', file), 'utf8')
          .split('http://127.0.0.1:8080')
          .join(url),
      ) as FlowNode[],
  );
  // A module's config node shared by demos (as npm start deploys it): once.
  const unique = [...new Map(nodes.map((n) => [n.id, n])).values()];
  return unique.map((n) => (/^ui-/.test(n.type) ? { id: n.id, type: 'comment', z: n.z, name: `stand-in for ${n.type}` } : n));
}

async function load(flow: FlowNode[]): Promise<void> {
  const core = CORE.map((file) => require(path.join(nodeRedPackage('@node-red/nodes'), 'core', file)) as NodeModule);
  // The test helper loads a core module once per node of its type otherwise (see demos-recover).
  const own = helper as unknown as { _nodeModules: Record<string, unknown> };
  const preloaded = own._nodeModules;
  own._nodeModules = {};
  try {
    await helper.load([...ALL_MODULES, deviceStatus as NodeModule, fleetPublish as NodeModule, sidebarPlugin as unknown as NodeModule, ...core], flow);
  } finally {
    own._nodeModules = preloaded;
  }
}

describe(`the flow check finds nothing on the shipped demos and examples (runtime, simulator, API ${TEST_API})`, function () {
  this.timeout(60000);
  // The plugin lives as long as its process: stopped here, so later suites see no statuses of it.
  after(() => sidebarPlugin.close());
  const { ctl } = runtimeSuite();
  const saved = { ...process.env };
  before(() => Object.assign(process.env, FLEET_ENV));
  after(() => {
    for (const key of Object.keys(FLEET_ENV)) if (!(key in saved)) delete process.env[key];
  });

  it('reads the demo list of npm start and finds every example', () => {
    START_DEMOS.length.should.be.above(2);
    for (const file of START_DEMOS) EXAMPLES.should.containEql(file);
    EXAMPLES.length.should.be.above(15);
  });

  const cases = [
    { title: `npm start's demos together (${START_DEMOS.join(', ')})`, files: START_DEMOS },
    ...EXAMPLES.map((file) => ({ title: `examples/${file}`, files: [file] })),
  ];
  for (const { title, files } of cases) {
    it(`${title}: deployed, connected and read, the deployed check is empty`, async () => {
      process.env.DEVICE_URL = ctl.url;
      const flow = flowOf(files, ctl.url);
      await load(flow);
      const configs = flow.filter((n) => n.type === 'modular-device').map((n) => n.id);
      // An example without a config node of ours (the fleet's central overview, MQTT only; the
      // alarm page, whose list reads the alarms of every device-alarm node) has nothing for the
      // check to judge: it must then hold no node of ours that talks to a module.
      if (!configs.length) {
        flow
          .filter((n) => OURS.has(n.type) && n.type !== 'device-alarm-list')
          .map((n) => n.type)
          .should.eql([]);
        return;
      }
      for (const id of configs) await waitConnected(id, 15000);
      const live = sidebarPlugin.liveService()!;
      live.collector.start();
      try {
        // Every module the live view knows read once: what a watching sidebar's check sees. (A
        // slot from an env var, as in the fleet example, is only known to its config node.)
        const known = live.snapshot().modules.map((m) => m.config);
        await waitFor(() => known.every((id) => live.collector.readings.get(id)?.readAt !== undefined), 'a live reading of every module', 30000, 50);
        const snapshot = live.snapshot();
        snapshot.modules.map((m) => m.state).should.eql(known.map(() => 'connected'));
        snapshot.deployed.should.eql([]);
      } finally {
        live.collector.stop();
      }
    });
  }
});
