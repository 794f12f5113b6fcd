/**
 * Alarms across a real restart (issue #40): Node-RED stopped (the runtime's stop, the
 * process ended) and started again in a new process on the same userDir, its flows loaded
 * from flows.json as after a reboot; not a redeploy. Every alarm's state and the journal are
 * as before; a shelve started before the stop ends at its clock time after the start, and a
 * shelve whose end passed while Node-RED was down ends at once when it starts.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import should from 'should';
import { RedProcess, RedState, startRed, writeFlows } from '../helpers/red-process';
import { waitFor } from '../helpers/node-red';

const TAB = 'restart-tab';
const alarmNode = (id: string, alarmId: string, extra: Record<string, string> = {}) => ({
  id,
  type: 'device-alarm',
  z: TAB,
  name: alarmId,
  alarmId,
  priority: '2',
  message: alarmId,
  source: 'condition',
  property: 'payload',
  ...extra,
  // Node-RED takes a node without a place on the canvas for a config node.
  x: 100,
  y: 100,
  wires: [[]],
});
const FLOWS = [
  { id: TAB, type: 'tab', label: 'restart' },
  alarmNode('oven', 'oven', { hi: '50', hihi: '90' }),
  alarmNode('door', 'door'),
  alarmNode('fan', 'fan'),
  { id: 'list', type: 'device-alarm-list', z: TAB, name: 'list', journal: '50', shelveFor: '3600000', x: 100, y: 200, wires: [[]] },
];
/**
 * The shelves' lengths follow how long this machine takes to start Node-RED (`start`, ms), so
 * the test holds on a loaded machine and stays short on an idle one: the short one outlasts
 * the commands and the stop (ends while Node-RED is down), the long one outlasts the stop and
 * a second start (still on after the restart).
 */
const shelves = (start: number) => ({ short: Math.max(2000, start), long: 3 * Math.max(2000, start) + 1000 });

const view = (s: RedState, id: string) => s.alarms.find((a) => a.id === id)!;
/** An alarm's own state, without what a list adds. */
const own = (a: Record<string, any>) => ({
  id: a.id,
  state: a.state,
  shown: a.shown,
  active: a.active,
  value: a.value,
  since: a.since,
  shelvedUntil: a.shelvedUntil,
});

describe('alarms across a restart of Node-RED (a new process, the same userDir)', function () {
  this.timeout(60_000);
  let userDir: string;
  let red: RedProcess | undefined;
  beforeEach(() => {
    userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'md-alarm-restart-'));
    writeFlows(userDir, FLOWS);
  });
  afterEach(() => {
    red?.kill();
    red = undefined;
    fs.rmSync(userDir, { recursive: true, force: true });
  });

  async function until(condition: (s: RedState) => boolean, what: string, timeoutMs = 10_000): Promise<RedState> {
    let last: RedState | undefined;
    await waitFor(async () => condition((last = await red!.state())), what, timeoutMs, 25);
    return last!;
  }

  it('keeps states and journal; a shelve ends at its time after the start, one that ended while down ends at once', async () => {
    const starting = Date.now();
    red = await startRed(userDir);
    const shelf = shelves(Date.now() - starting);
    await red.inject('oven', { payload: 95 }); // oven.hi and oven.hihi active, unacknowledged
    await red.inject('door', { payload: true });
    await red.inject('fan', { payload: true });
    await until((s) => ['oven.hi', 'oven.hihi', 'door', 'fan'].every((id) => view(s, id).shown === 'active-unack'), 'four alarms raised');
    await red.inject('list', { payload: { action: 'acknowledge', alarm: 'door', user: 'ann', comment: 'seen' } });
    await red.inject('list', { payload: { action: 'shelve', alarm: 'fan', duration: shelf.long, user: 'ann', comment: 'swap' } });
    await red.inject('list', { payload: { action: 'shelve', alarm: 'oven.hihi', duration: shelf.short, user: 'bob' } });
    const before = await until(
      (s) => view(s, 'door').shown === 'active-ack' && view(s, 'fan').shown === 'shelved' && view(s, 'oven.hihi').shown === 'shelved',
      'acknowledged and shelved',
    );
    await red.stop();
    red = undefined;
    const stoppedAt = Date.now();
    should(fs.existsSync(path.join(userDir, 'modular-device-alarms.json'))).be.true();
    const hihiEnd = view(before, 'oven.hihi').shelvedUntil as number;
    const fanEnd = view(before, 'fan').shelvedUntil as number;
    // Node-RED stays down until the short shelf's end has passed.
    await waitFor(() => Date.now() > hihiEnd, 'the short shelf to end while Node-RED is down', 10_000);

    red = await startRed(userDir);
    const after = await red.state();
    // As before: unacknowledged stays unacknowledged, acknowledged stays acknowledged, since unchanged.
    should(own(view(after, 'oven.hi'))).eql(own(view(before, 'oven.hi')));
    should(own(view(after, 'door'))).eql(own(view(before, 'door')));
    // Shelved, to the same end; on a machine slower than the margin, it ended on start, at its time (below).
    if (after.now < fanEnd) should(own(view(after, 'fan'))).eql(own(view(before, 'fan')));
    else should(view(after, 'fan').shown).equal('active-unack');
    // The shelf that ended while down ended at once on start: back to what its condition is.
    should(view(after, 'oven.hihi')).containDeep({ shown: 'active-unack', active: true });
    should(view(after, 'oven.hihi').shelvedUntil).be.undefined();
    const journalBefore = [...before.journal].reverse();
    const journalAfter = [...after.journal].reverse();
    should(journalAfter.slice(0, journalBefore.length)).eql(journalBefore);
    const hihiEnded = journalAfter.slice(journalBefore.length);
    should(hihiEnded).have.length(1);
    should(hihiEnded[0]).containDeep({ alarm: 'oven.hihi', from: 'shelved', to: 'active-unack', cause: 'shelve-ended' });
    should(hihiEnded[0].time).be.aboveOrEqual(stoppedAt).and.aboveOrEqual(hihiEnd);

    // The long shelf ends by its clock time, not by a duration counted again from the start.
    const ended = await until((s) => view(s, 'fan').shown === 'active-unack', 'the fan shelf to end', shelf.long + 10_000);
    const fanEnded = ended.journal.find((r) => r.alarm === 'fan' && r.cause === 'shelve-ended')!;
    should(fanEnded).containDeep({ from: 'shelved', to: 'active-unack', active: true });
    should(fanEnded.time).be.aboveOrEqual(fanEnd);
    await red.stop();
    red = undefined;
  });
});
