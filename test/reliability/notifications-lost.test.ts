/**
 * Nothing lost: every notification flag the device hands out is delivered in a
 * msg or announced in a `notifications-lost` msg naming its pin and the time window. The
 * simulator processes a read (clearing the flags) and then holds or drops its answer, the
 * very case its older latency fault (delay before processing) hid.
 *
 * Conservation per scenario: each (pin, flag) raised once is delivered, or its pin is in a
 * notifications-lost msg, or it is still on the device (read directly at the end).
 */
import should from 'should';
import { IS_API10, TEST_API, wirePath } from '../helpers/api';
import { raiseAlert } from '../helpers/io-nodes';
import { deviceNode, FlowNode, helper, NodeModule, waitFor } from '../helpers/node-red';
import { httpJson, SimHarness } from '../helpers/sim-control';
import { runtimeSuite } from '../helpers/runtime-suite';
import { ALL_MODULES, deploy, guardProcess } from '../helpers/reliability';
import type { NodeMessage } from '../../nodes/lib/base/node-red';

const FLAGS = ['under_voltage_alert', 'high_voltage_alert', 'high_current_alert', 'custom_voltage_alert'];
const PINS = [1, 2, 3, 4, 5, 6];

function flow(url: string, timeout = 2000): FlowNode[] {
  return [
    { id: 't', type: 'tab', label: 'np' },
    { ...deviceNode({ id: 'dev', url, slot: 2, timeout }) },
    { id: 'np', type: 'notification-poll', z: 't', device: 'dev', interval: '100', pins: '', alerts: '', combined: false, x: 100, y: 100, wires: [['out']] },
    { id: 'out', type: 'helper', z: 't', x: 300, y: 100, wires: [] },
  ];
}

/** What reached `out` across redeploys (each new helper instance is listened to again). */
class Seen {
  readonly msgs: NodeMessage[] = [];
  listen(): void {
    helper.getNode('out').on('input', (m: NodeMessage) => this.msgs.push(m));
  }
  delivered(): Set<string> {
    const got = new Set<string>();
    for (const m of this.msgs) {
      if (!String(m.topic).startsWith('pin/')) continue;
      const r = m.payload as Record<string, unknown> & { pin: number };
      for (const f of FLAGS) if (r[f] === true) got.add(`${r.pin}:${f}`);
    }
    return got;
  }
  announcedPins(): Set<number> {
    return new Set(this.msgs.filter((m) => m.topic === 'notifications-lost').flatMap((m) => (m.payload as { pins: number[] }).pins));
  }
}

/** Flags still pending on the device, read directly (this read clears them: the end). */
async function stillOnDevice(ctl: SimHarness): Promise<Set<string>> {
  const left = new Set<string>();
  for (const pin of PINS) {
    const path = IS_API10 ? `/api/io/1.0/2/notification/${pin}` : '/api/io/0.9/2/notification';
    const answer = await httpJson('GET', `${ctl.url}${path}`);
    const records = IS_API10 ? [{ pin, ...answer.body }] : answer.body.notification;
    for (const r of records) for (const f of FLAGS) if (r[f] === true) left.add(`${r.pin}:${f}`);
    if (!IS_API10) break;
  }
  return left;
}

function conserved(raised: string[], seen: Seen, left: Set<string>): { delivered: number; announced: number; left: number } {
  const delivered = seen.delivered();
  const pins = seen.announcedPins();
  let announced = 0;
  for (const key of raised) {
    const pin = Number(key.split(':')[0]);
    if (delivered.has(key)) continue;
    if (pins.has(pin)) announced++;
    else should(left.has(key)).be.true(`flag ${key} was handed out and neither delivered nor announced`);
  }
  return { delivered: raised.filter((k) => delivered.has(k)).length, announced, left: raised.filter((k) => !delivered.has(k) && left.has(k)).length };
}

describe(`reliability: notifications conserved (API ${TEST_API})`, function () {
  this.timeout(30000);
  const { ctl } = runtimeSuite();
  guardProcess();
  const modules: NodeModule[] = ALL_MODULES;

  async function raiseAll(): Promise<string[]> {
    const raised: string[] = [];
    for (const pin of PINS) {
      const flag = FLAGS[pin % FLAGS.length];
      await raiseAlert(ctl, 2, pin, flag);
      raised.push(`${pin}:${flag}`);
    }
    return raised;
  }

  /** Each kind of redeploy Node-RED does: all nodes; only the config node changed (its users restart with it). */
  const REDEPLOYS: Array<[string, 'full' | 'nodes', (f: FlowNode[]) => FlowNode[]]> = [
    ['a full redeploy', 'full', (f) => f],
    ['a redeploy of the modified config node', 'nodes', (f) => f.map((n) => (n.id === 'dev' ? { ...n, name: 'renamed' } : n))],
    ['a redeploy of the modified notification-poll', 'nodes', (f) => f.map((n) => (n.id === 'np' ? { ...n, name: 'renamed' } : n))],
  ];
  for (const [what, type, change] of REDEPLOYS) {
    it(`${what} while a read is on the wire (processed, answer held): its flags reach the new flow`, async () => {
      const seen = new Seen();
      await helper.load(modules, flow(ctl.url));
      seen.listen();
      // The next read is processed at once and its answer held 800 ms; meanwhile: redeploy.
      await ctl.fault({ path: wirePath(IS_API10 ? '/api/io/0.9/2/notification/1' : '/api/io/0.9/2/notification'), answer_delay_ms: 800, count: 1 });
      const raised = await raiseAll();
      await waitFor(async () => (await ctl.state()).faults.length === 0, 'the read on the wire');
      await deploy(change(flow(ctl.url)), type);
      seen.listen();
      await waitFor(() => seen.delivered().size === raised.length || seen.announcedPins().size > 0, 'every flag delivered or announced', 10000);
      await new Promise((r) => setTimeout(r, 300));
      await helper.unload();
      const figures = conserved(raised, seen, await stillOnDevice(ctl));
      console.log(
        `      [lost] ${what} mid-read: ${raised.length} handed out = ${figures.delivered} delivered + ${figures.announced} announced + ${figures.left} left on the device`,
      );
      figures.delivered.should.equal(raised.length, 'all delivered: the held answer was handed to the new node');
    });
  }

  it('a read processed but never answered (dropped, then timed out): its pins are announced with a time window', async () => {
    const seen = new Seen();
    await helper.load(modules, flow(ctl.url, 500));
    seen.listen();
    // Polling paused, the flags raised, then one read asked for: it is processed (on 1.0
    // pin 4's request) and its answer held past the 500 ms timeout.
    const np = helper.getNode('np');
    np.receive({ payload: 'stop' });
    const raised = await raiseAll();
    await ctl.fault({ path: wirePath(IS_API10 ? '/api/io/0.9/2/notification/4' : '/api/io/0.9/2/notification'), answer_delay_ms: 1500, count: 1 });
    np.receive({ payload: 'read now' });
    await waitFor(() => seen.announcedPins().size > 0, 'a notifications-lost msg', 10000);
    // On 1.0 the round stopped at pin 4's timeout: pins 5 and 6 were not asked,
    // so their flags are still on the device, and the next read delivers them.
    np.receive({ payload: 'read again' });
    await waitFor(
      () => raised.every((k) => seen.delivered().has(k) || seen.announcedPins().has(Number(k.split(':')[0]))),
      'every flag delivered or announced',
      10000,
    );
    const lost = seen.msgs.find((m) => m.topic === 'notifications-lost')!;
    const payload = lost.payload as { pins: number[]; from: string; to: string; reason: string };
    payload.pins.should.eql(IS_API10 ? [4] : PINS);
    (Date.parse(payload.to) >= Date.parse(payload.from)).should.be.true();
    payload.reason.should.match(/may have cleared these flags/);
    await helper.unload();
    const figures = conserved(raised, seen, await stillOnDevice(ctl));
    console.log(
      `      [lost] answer lost after processing: ${raised.length} handed out = ${figures.delivered} delivered + ${figures.announced} announced + ${figures.left} left on the device`,
    );
    // On 1.0 the other five pins were delivered (1 to 3 in the round, 5 and 6 in the next), not thrown away.
    figures.should.eql(IS_API10 ? { delivered: 5, announced: 1, left: 0 } : { delivered: 0, announced: 6, left: 0 });
  });
});
