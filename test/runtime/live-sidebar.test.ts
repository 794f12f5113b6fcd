/**
 * The live sidebar's runtime side on the real Node-RED runtime against the simulator over
 * loopback: the watch route's guard under real adminAuth, zero device requests while no
 * editor watches (over a window that holds a connection health check), reads and snapshots
 * over comms while one does, the rate bound, and nothing after the watcher leaves.
 *
 * The flow's own nodes never read what the sidebar reads (a notification-poll reads only
 * `notification`), so every read of SIDEBAR_PATH in the simulator's log is the sidebar's.
 */
import should from 'should';
import { LIMITS, LIVE_BOUNDS } from '../../nodes/lib/pure/limits';
import { LIVE_TOPIC, LiveSnapshot, WATCH_ROUTE } from '../../nodes/lib/pure/snapshot';
import sidebarPlugin = require('../../nodes/sidebar/modular-device-sidebar');
import { TEST_API } from '../helpers/api';
import { deviceNode, FlowNode, helper, nodeRedPackage, waitConnected, waitFor } from '../helpers/node-red';
import { adminAuthOff, adminAuthOn, ALL_MODULES, guardedByRealAuth, SLOT, withRealAuth } from '../helpers/reliability';
import { isProbe, LogEntry, SimHarness } from '../helpers/sim-control';
import { runtimeSuite } from '../helpers/runtime-suite';
import { raiseAlert } from '../helpers/io-nodes';
import { READS } from '../../nodes/sidebar/runtime/module-reads';

const { events } = require(nodeRedPackage('@node-red/util')) as { events: NodeJS.EventEmitter };

const SIDEBAR_PATH = /\/(input\/values(\/current)?|watchdog|temperature|voltage|usbhub|stats|protectionlog|fan(\/rpm)?)$/;
const SECRETS = { user: 'live-user-7f3a', password: 'live-pass-91c2', token: 'live-token-5d0e' };

/** Four modules (io 2 with Basic credentials, io 3, bmc, power with a token) and a notification-poll on io 2. */
function liveFlow(url: string): FlowNode[] {
  return [
    { id: 'live-tab', type: 'tab', label: 'live' },
    { ...deviceNode({ id: 'dev-io', url, service: 'io', slot: SLOT.io, auth: 'basic' }), name: 'pins' },
    deviceNode({ id: 'dev-io3', url, service: 'io', slot: SLOT.io2 }),
    deviceNode({ id: 'dev-bmc', url, service: 'bmc', slot: SLOT.bmc }),
    deviceNode({ id: 'dev-power', url, service: 'power', slot: SLOT.power, auth: 'bearer' }),
    {
      id: 'poll',
      type: 'notification-poll',
      z: 'live-tab',
      x: 200,
      y: 60,
      name: '',
      device: 'dev-io',
      interval: '200',
      pins: '',
      alerts: '',
      combined: false,
      wires: [[]],
    },
  ];
}

const CREDENTIALS = { 'dev-io': { username: SECRETS.user, password: SECRETS.password }, 'dev-power': { token: SECRETS.token } };
const MODULES = [...withRealAuth(ALL_MODULES), guardedByRealAuth(sidebarPlugin as (RED: unknown) => void)];

/** Snapshots published over comms (Node-RED's editor comms forwards these events to /comms). */
function listen(): { snapshots: Array<{ data: LiveSnapshot; retain: boolean; at: number }>; stop(): void } {
  const snapshots: Array<{ data: LiveSnapshot; retain: boolean; at: number }> = [];
  const listener = (m: { topic: string; data: LiveSnapshot; retain: boolean }) => {
    if (m.topic === LIVE_TOPIC) snapshots.push({ data: m.data, retain: m.retain, at: Date.now() });
  };
  events.on('comms', listener);
  return { snapshots, stop: () => events.removeListener('comms', listener) };
}

const sidebarReads = (log: LogEntry[]) => log.filter((e) => !isProbe(e) && e.method === 'GET' && SIDEBAR_PATH.test(e.path));
/** A connection health check: a version root read after the first of its module. */
async function nextHealthCheck(ctl: SimHarness, after: number): Promise<void> {
  await waitFor(async () => (await ctl.log()).some((e) => e.time > after && /^\/api\/io\/\d\.\d$/.test(e.path)), 'a connection health check', 20000, 100);
}

const reader = (r: any) => r.set('Authorization', 'Bearer READER-TOKEN');

describe(`live sidebar runtime (API ${TEST_API})`, function () {
  this.timeout(60000);
  // The plugin lives as long as its process: stopped here, so later suites see no statuses of it.
  after(() => sidebarPlugin.close());
  const { ctl } = runtimeSuite({ server: true });
  before(() => adminAuthOn());
  after(() => adminAuthOff());

  it('the watch route refuses anonymous and read-less users and answers a reader with its lease and rate', async () => {
    await helper.load(MODULES, liveFlow(ctl.url), CREDENTIALS);
    const statuses: number[] = [];
    for (const auth of [undefined, 'Bearer WRITE-ONLY-TOKEN', 'Bearer not-a-token']) {
      const withAuth = (r: any) => (auth ? r.set('Authorization', auth) : r);
      statuses.push((await withAuth(helper.request().post(WATCH_ROUTE).send({ id: 'w1' }))).status);
      statuses.push((await withAuth(helper.request().delete(WATCH_ROUTE).send({ id: 'w1' }))).status);
    }
    statuses.every((s) => s === 401 || s === 403).should.be.true(`answers ${statuses}`);
    const plugin = (sidebarPlugin as unknown as { liveService(): { leases: { size: number } } }).liveService();
    plugin.leases.size.should.equal(0, 'no refused caller holds a lease');
    (
      await reader(
        helper
          .request()
          .post(WATCH_ROUTE)
          .send({ id: 'x'.repeat(LIVE_BOUNDS.watcherIdChars + 1) }),
      )
    ).status.should.equal(400);
    const ok = await reader(helper.request().post(WATCH_ROUTE).send({ id: 'w1' }));
    ok.status.should.equal(200);
    ok.body.should.eql({ leaseMs: LIVE_BOUNDS.leaseMs, readsPerSecond: 4 });
    (await reader(helper.request().delete(WATCH_ROUTE).send({ id: 'w1' }))).status.should.equal(204);
    plugin.leases.size.should.equal(0);
  });

  it('takes its rate from settings.js (modularDevice.sidebarReadsPerSecond) within its bound, else the default', async () => {
    const answered: number[] = [];
    try {
      for (const rate of [LIMITS.sidebar_reads_per_second.max, LIMITS.sidebar_reads_per_second.max + 1, 'fast']) {
        helper.settings({ modularDevice: { sidebarReadsPerSecond: rate } });
        await helper.load(MODULES, liveFlow(ctl.url), CREDENTIALS);
        answered.push((await reader(helper.request().post(WATCH_ROUTE).send({ id: 'w2' }))).body.readsPerSecond);
        await reader(helper.request().delete(WATCH_ROUTE).send({ id: 'w2' }));
        await helper.unload();
      }
    } finally {
      helper.settings({ modularDevice: undefined });
    }
    answered.should.eql([LIMITS.sidebar_reads_per_second.max, LIMITS.sidebar_reads_per_second.default, LIMITS.sidebar_reads_per_second.default]);
  });

  it('no device request and no snapshot without a lease; reads within the rate and small snapshots with one; nothing after it ends', async () => {
    const comms = listen();
    try {
      await helper.load(MODULES, liveFlow(ctl.url), CREDENTIALS);
      for (const id of ['dev-io', 'dev-io3', 'dev-bmc', 'dev-power']) await waitConnected(id);
      // Connected: the next version root read is a health check, ten seconds on.
      await nextHealthCheck(ctl, Date.now());
      sidebarReads(await ctl.log()).should.eql([], 'no sidebar read while nobody watches');
      comms.snapshots.should.have.length(0);

      const started = Date.now();
      (await reader(helper.request().post(WATCH_ROUTE).send({ id: 'editor-1' }))).status.should.equal(200);
      const full = (s: LiveSnapshot) => s.modules.length === 4 && s.modules.every((m) => m.readAt && !m.readError);
      await waitFor(() => comms.snapshots.some((s) => full(s.data)), 'a snapshot with every module read', 20000, 50);
      const last = comms.snapshots.find((s) => full(s.data))!;
      last.retain.should.be.false();
      const snapshot = last.data;
      const io = snapshot.modules.find((m) => m.config === 'dev-io')!;
      io.should.match({ label: 'pins', service: 'io', slot: SLOT.io, state: 'connected', apiVersion: TEST_API });
      Object.keys(io).should.not.containEql('maxPower');
      io.io!.pins.map((p) => [p.pin, p.type, typeof p.value, typeof p.current_mA]).should.eql(
        [1, 2, 3, 4, 5, 6].map((pin) => [pin, 'voltage_mV', 'number', 'number']),
      );
      snapshot.modules.find((m) => m.config === 'dev-bmc')!.bmc!.should.match({ watchdog: { timeout: 0 }, usbhub: { hub_state: 'enabled' } });
      const power = snapshot.modules.find((m) => m.config === 'dev-power')!.power!;
      power.should.match({ fan: { rpm: 0, fan_current_mode: 60 } });
      should(power.stats?.voltage_12v).be.a.Number();
      snapshot.devices.should.have.length(1);
      snapshot.devices[0].services.should.match({ io: [SLOT.io, SLOT.io2], bmc: [SLOT.bmc], power: [SLOT.power] });
      snapshot.deployed.should.eql([]);
      const json = JSON.stringify(snapshot);
      console.log(`      snapshot of a 4-module flow: ${Buffer.byteLength(json)} bytes`);
      for (const secret of Object.values(SECRETS)) json.should.not.containEql(secret);

      // Published at most snapshotsPerSecond: no two closer than the interval (counted from the end of one publish to the start of the next).
      const gaps = comms.snapshots.slice(1).map((s, i) => s.at - comms.snapshots[i].at);
      gaps.every((g) => g >= 1000 / LIVE_BOUNDS.snapshotsPerSecond).should.be.true(`gaps ${gaps}`);

      const ended = await reader(helper.request().delete(WATCH_ROUTE).send({ id: 'editor-1' }));
      ended.status.should.equal(204);
      const stopped = Date.now();
      const published = comms.snapshots.length;
      const during = sidebarReads(await ctl.log());
      // Every token was taken after the POST and before the read reached the simulator.
      const windowMs = Math.max(...during.map((e) => e.time)) - started;
      during.length.should.be.belowOrEqual((4 * windowMs) / 1000 + LIVE_BOUNDS.bucketTokens, `${during.length} reads in ${windowMs} ms`);

      await nextHealthCheck(ctl, stopped);
      const after = sidebarReads(await ctl.log()).filter((e) => e.time > stopped);
      after.length.should.be.belowOrEqual(1, `reads after the lease ended (one may have been on the wire): ${after.map((e) => e.path)}`);
      comms.snapshots.length.should.equal(published, 'no snapshot after the lease ended');
    } finally {
      comms.stop();
    }
  });
  it("shows the alerts the flow's notification-poll delivered, the power configuration the package applied and the deployed flow check; never reads notifications itself", async () => {
    Object.values(READS)
      .flat()
      .map((r) => r.endpoint[0])
      .should.not.containEql('notification');
    const comms = listen();
    try {
      const pins = [1, 2, 3, 4, 5].map(() => ({ rail: '5_volt', current: '100' })).concat([{ rail: '12_volt', current: '200' }]);
      // And a module in a slot the device does not have: the deployed flow check finds it.
      const flow = [
        ...liveFlow(ctl.url),
        { id: 'power-cfg', type: 'io-power', z: 'live-tab', x: 200, y: 120, name: '', device: 'dev-io', pins, applyOnConnect: true, wires: [[]] },
        deviceNode({ id: 'dev-io9', url: ctl.url, service: 'io', slot: 9 }),
      ];
      await helper.load(MODULES, flow, CREDENTIALS);
      await waitConnected('dev-io');
      await raiseAlert(ctl, SLOT.io, 3, 'high_voltage_alert');
      (await reader(helper.request().post(WATCH_ROUTE).send({ id: 'editor-2' }))).status.should.equal(200);
      const io = () => comms.snapshots.map((s) => s.data.modules.find((m) => m.config === 'dev-io')?.io).filter(Boolean);
      await waitFor(
        () => io().some((m) => m!.pins.find((p) => p.pin === 3)?.alerts?.includes('high_voltage_alert') && m!.powerConfig),
        'the alert and the power configuration in a snapshot',
        20000,
        50,
      );
      const shown = io().find((m) => m!.powerConfig)!;
      shown.powerConfig!.should.eql([1, 2, 3, 4, 5].map((pin) => ({ pin, rail: '5_volt', current: 100 })).concat([{ pin: 6, rail: '12_volt', current: 200 }]));
      await waitFor(
        () => comms.snapshots.some((s) => s.data.deployed.some((f) => f.kind === 'slot-missing' && f.nodes.includes('dev-io9'))),
        'the deployed flow check finding the missing slot',
        20000,
        50,
      );
      const missing = comms.snapshots.map((s) => s.data.modules.find((m) => m.config === 'dev-io9')).find((m) => m?.state === 'incompatible');
      should(missing?.reason).match(/slot 9/);
      (await reader(helper.request().delete(WATCH_ROUTE).send({ id: 'editor-2' }))).status.should.equal(204);
    } finally {
      comms.stop();
    }
  });
});
