/**
 * device-alarm on a msg's condition (issue #40), in a real Node-RED: a chattering input
 * (on/off every 200 ms) gives one alarm with an off-delay or an on-delay set, and is counted
 * as chattering without (device-alarm-list's payload.health); Hi/HiHi with a deadband, each
 * its own alarm; bad input refused with a clear error at Catch and nothing changed (an
 * unknown alarm, a shelve past its bound, a comment of 1 MB, an unknown command field, a
 * text to a limit alarm, limits out of order in the settings); a journal that cannot be
 * written shown on the node and at Catch while the alarms keep working.
 *
 * No module here: a condition alarm needs none (the simulator suite still gives each test
 * a clean Node-RED). Delays are short and far apart from the input's pace, so a loaded
 * machine does not turn a 200 ms pulse into a held condition.
 */
import fs from 'fs';
import path from 'path';
import should from 'should';
import { expectCode, helper, sleep, waitFor, waitStatus } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { ActionDef, loadActions, Outcomes, send } from '../helpers/io-nodes';
import { ALARM_MODULES, alarmNode, alarmUserDir, command, listNode, listNow, statesOf, transitions, waitTransition } from '../helpers/alarm-nodes';
import type { NodeMessage } from '../../nodes/lib/base/node-red';

/** A condition alarm without a module. */
const condition = (id: string, settings: Record<string, unknown> = {}): ActionDef => alarmNode(id, { device: '', ...settings });

function load(actions: ActionDef[]): Promise<Outcomes> {
  return loadActions('http://127.0.0.1:1', [...actions, listNode()], { modules: ALARM_MODULES, devices: [] });
}

/** Sends `payload` to node `id` and waits until it is handled; fails if it was refused. */
async function feed(outcomes: Outcomes, id: string, payload: unknown): Promise<void> {
  const caught = await send(outcomes, id, { payload } as NodeMessage);
  if (caught) throw new Error(`${id} refused ${JSON.stringify(payload)}: ${caught.error.message}`);
}

describe('device-alarm on a condition (runtime)', function () {
  this.timeout(20000);
  runtimeSuite();
  const userDir = alarmUserDir();

  it('chattering (on/off every 200 ms): one alarm with an off-delay or an on-delay; counted as chattering without', async () => {
    const ids = ['held-off', 'held-on', 'raw'];
    const outcomes = await load([condition('held-off', { offDelay: '1500' }), condition('held-on', { onDelay: '1500' }), condition('raw')]);
    for (let i = 0; i < 4; i++) {
      for (const id of ids) await feed(outcomes, id, true);
      await sleep(200);
      for (const id of ids) await feed(outcomes, id, false);
      await sleep(200);
    }
    // The condition then stays: the on-delay's alarm comes once it held.
    for (const id of ids) await feed(outcomes, id, true);
    await waitTransition(outcomes, 'held-on', 'held-on', 'active-unack');
    statesOf(outcomes, 'held-on', 'held-on').should.eql(['normal', 'active-unack']);
    statesOf(outcomes, 'held-off', 'held-off').should.eql(['normal', 'active-unack']);
    transitions(outcomes, 'raw')
      .filter((r) => r.to === 'active-unack')
      .should.have.length(5);
    const health = (await listNow(outcomes)).health;
    health.chattering.should.eql(['raw']);
    health.top[0].should.eql({ alarm: 'raw', count: 5 });
    health.perWindow.should.equal(7);
    outcomes.caught.should.have.length(0);
  });

  it('Hi and HiHi with a deadband: each its own alarm, raised at its limit, cleared a deadband below it', async () => {
    const outcomes = await load([condition('temp', { hi: '80', hihi: '90', deadband: '2', message: 'Oven' })]);
    for (const value of [70, 85, 79, 95, 89, 87, 79, 77]) await feed(outcomes, 'temp', value);
    transitions(outcomes, 'temp')
      .map((r) => [r.alarm, r.to, r.value])
      .should.eql([
        ['temp.hi', 'active-unack', 85],
        ['temp.hihi', 'active-unack', 95],
        ['temp.hihi', 'rtn-unack', 87],
        ['temp.hi', 'rtn-unack', 77],
      ]);
    const list = await listNow(outcomes);
    // Same priority: the newest change first.
    list.alarms
      .map((a) => [a.id, a.message, a.shown])
      .should.eql([
        ['temp.hi', 'Oven: Hi (80)', 'rtn-unack'],
        ['temp.hihi', 'Oven: HiHi (90)', 'rtn-unack'],
      ]);
    should(await command(outcomes, { action: 'acknowledge', alarm: 'temp.hihi' })).be.undefined();
    (await listNow(outcomes)).alarms
      .map((a) => [a.id, a.shown])
      .should.eql([
        ['temp.hi', 'rtn-unack'],
        ['temp.hihi', 'normal'],
      ]);
    await waitStatus('temp', 'yellow', 'ring', '1 returned, unacknowledged');
  });

  it('bad input: a clear error at Catch, nothing changed', async () => {
    const outcomes = await load([condition('flag'), condition('temp', { hi: '80' })]);
    await feed(outcomes, 'flag', true);
    await waitTransition(outcomes, 'flag', 'flag', 'active-unack');
    const before = (await listNow(outcomes)).alarms;
    const told = outcomes.sent('flag').length + outcomes.sent('temp').length;
    const refusals: Array<[string, unknown, RegExp]> = [
      ['list', { action: 'acknowledge', alarm: 'no-such-alarm' }, /^InvalidInputError: no alarm no-such-alarm is deployed$/],
      [
        'list',
        { action: 'shelve', alarm: 'flag', duration: 86_400_001 },
        /^InvalidInputError: duration must be an integer from 1000 to 86400000 ms, got 86400001$/,
      ],
      ['list', { action: 'acknowledge', alarm: 'flag', comment: 'x'.repeat(1_000_000) }, /^InvalidInputError: comment must be text of 0 to 500 characters/],
      ['list', { action: 'acknowledge', alarm: 'flag', operator: 'me' }, /has no field operator/],
      ['temp', 'hot', /^InvalidInputError: msg\.payload must be a number to compare with the limits, got "hot"$/],
      ['flag', 1, /^InvalidInputError: msg\.payload must be true or false/],
    ];
    for (const [id, payload, message] of refusals) {
      const caught = await send(outcomes, id, { payload } as NodeMessage);
      should(caught).not.be.undefined();
      caught!.error.message.should.match(message);
      caught!.error.message.length.should.be.below(300);
      caught!.error.source.id.should.equal(id);
      expectCode(caught!.error, 'INVALID_INPUT');
    }
    const after = (await listNow(outcomes)).alarms;
    after.should.eql(before);
    (outcomes.sent('flag').length + outcomes.sent('temp').length).should.equal(told);
  });

  it('limits out of order in the settings (HiHi below Hi): a node error naming both, red status, no alarm defined', async () => {
    const outcomes = await load([condition('bad', { hi: '90', hihi: '80' })]);
    await waitStatus('bad', 'red', 'ring', 'invalid settings');
    const errors = (helper.log().args as unknown[][])
      .map((a) => a[0] as { level?: number; id?: string; msg?: unknown })
      .filter((m) => m.level === 20 && m.id === 'bad');
    errors.map((m) => String(m.msg)).should.eql(['HiHi (80) must be above Hi (90)']);
    (await listNow(outcomes)).alarms.should.have.length(0);
  });

  it('a journal that cannot be written: shown on the node and at Catch; the alarms keep working', async () => {
    // A userDir that is a file: the journal's folder cannot hold a file.
    const blocked = path.join(userDir.dir, 'not-a-folder');
    fs.writeFileSync(blocked, 'a file');
    helper.settings({ userDir: blocked });
    const outcomes = await load([condition('flag')]);
    await feed(outcomes, 'flag', true);
    await waitTransition(outcomes, 'flag', 'flag', 'active-unack');
    await waitFor(() => outcomes.caughtFrom('flag').length > 0, 'the journal error at Catch');
    const [caught] = outcomes.caughtFrom('flag');
    caught.error.message.should.equal(
      `InvalidInputError: the alarm journal ${path.join(blocked, 'modular-device-alarms.json')} cannot be kept (write-failed): the alarms keep working in memory`,
    );
    await waitStatus('flag', 'red', 'ring', '1 unacknowledged; journal: write-failed');
    await feed(outcomes, 'flag', false);
    await waitTransition(outcomes, 'flag', 'flag', 'rtn-unack');
    should(await command(outcomes, { action: 'acknowledge', alarm: 'flag', user: 'ops' })).be.undefined();
    await waitTransition(outcomes, 'flag', 'flag', 'normal');
    await waitStatus('flag', 'red', 'ring', 'normal (1); journal: write-failed');
    // Announced once, not at each failed batch.
    outcomes.caughtFrom('flag').should.have.length(1);
    // The folder usable again: the next batch is written and the node says so.
    fs.rmSync(blocked);
    fs.mkdirSync(blocked);
    await waitStatus('flag', 'green', 'dot', 'normal (1)', 5000);
    JSON.parse(fs.readFileSync(path.join(blocked, 'modular-device-alarms.json'), 'utf8')).states.flag.should.containEql({ state: 'normal' });
  });
});
