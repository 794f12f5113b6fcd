/**
 * The kit's alarm steps (issue #40): an operator's acknowledge, shelve, unshelve and
 * acknowledge-all with who and why, and an alarm's state waited for, in a scenario and from
 * a test's own code (`t.alarms`), on the alarm system of the kit's real Node-RED; a bad step
 * refused before anything starts, at its place, in the words a refused msg gets.
 */
import path from 'path';
import should from 'should';
import { checkScenario, formatReport, KitError, runScenario, startFlows } from '../../testing';

const root = path.resolve(__dirname, '..', '..', '..');
const fixture = (name: string) => path.join(root, 'test', 'kit', 'fixtures', name);
const FLOWS = fixture('alarm-operator.json');

/** The mistakes a scenario's check lists, each as "place: sentence". */
function mistakes(steps: unknown[]): string[] {
  try {
    checkScenario({ steps }, 'alarms.yaml');
  } catch (error) {
    should(error).be.instanceOf(KitError);
    return (error as Error).message
      .split('\n')
      .map((line) => line.trim().replace(/^alarms\.yaml: /, ''))
      .filter((line) => !/^\d+ mistakes in/.test(line));
  }
  throw new Error('the scenario was accepted');
}

describe('flow test kit: alarms', function () {
  this.timeout(60_000);

  it('runs an operator scenario: raised, acknowledged with user and comment, shelved and back by time, acknowledged by area and all', async () => {
    const report = await runScenario({ flows: FLOWS, scenario: fixture('alarm-operator.scenario.yaml') });
    should(report.ok).be.true(formatReport(report));
    const text = formatReport(report);
    should(text).match(/steps\[3\]: acknowledge alarm oven\.hi \(by "ann", comment "door left open, closing it"\)/);
    should(text).match(/steps\[6\]: shelve alarm oven\.hi for 1000 ms \(by "ann", comment "sensor swap"\)/);
    should(text).match(/steps\[13\]: acknowledge all alarms in area "hall 2" \(by "bob"\)/);
  });

  it('acts and reads from a test (t.alarms): the records, the state, the journal, and the list node hears it', async () => {
    const t = await startFlows({ flows: FLOWS });
    try {
      await t.inject('oven temperature', { payload: 95 });
      const raised = await t.alarms.untilState('oven.hihi', 'active-unack');
      should(raised).containDeep({
        id: 'oven.hihi',
        active: true,
        value: 95,
        priority: 2,
        message: 'Oven temperature: HiHi (90)',
        area: 'hall 1',
        annunciated: true,
      });
      t.mark();
      const records = await t.alarms.acknowledge('oven.hihi', { user: 'ann', comment: 'seen' });
      should(records).have.length(1);
      should(records[0]).containDeep({ alarm: 'oven.hihi', from: 'active-unack', to: 'active-ack', cause: 'acknowledge', user: 'ann', comment: 'seen' });
      should((await t.alarms.get('oven.hihi'))!.shown).equal('active-ack');
      should((await t.alarms.journal(1))[0]).containDeep({ alarm: 'oven.hihi', to: 'active-ack', user: 'ann' });
      // What the flows see of it: the alarm node's transition msg and the list node's list.
      await t.nextMsg('transitions', { where: { topic: 'oven.hihi', payload: { to: 'active-ack', user: 'ann' } } });
      const list = await t.nextMsg('list');
      should(list.payload.alarms.find((a: { id: string }) => a.id === 'oven.hihi')).containDeep({ shown: 'active-ack' });

      await t.alarms.shelve('oven.hi', { duration: 60_000, user: 'ann', comment: 'sensor swap' });
      const shelved = await t.alarms.untilState('oven.hi', 'shelved');
      should(shelved.shelvedUntil).be.a.Number();
      await t.alarms.unshelve('oven.hi', { user: 'bob' });
      await t.alarms.untilState('oven.hi', 'active-unack');
      const all = await t.alarms.acknowledgeAll({ area: 'hall 1', user: 'bob' });
      should(all.map((r) => r.alarm)).eql(['oven.hi']);
      should((await t.alarms.list()).map((a) => [a.id, a.shown])).containDeep([
        ['oven.hihi', 'active-ack'],
        ['oven.hi', 'active-ack'],
        ['door', 'normal'],
      ]);
    } finally {
      await t.stop();
    }
  });

  it("refuses a bad command in the node's words and changes nothing; a wait that times out says what the alarm shows", async () => {
    const t = await startFlows({ flows: FLOWS });
    try {
      await t.inject('door open', { payload: true });
      await t.alarms.untilState('door', 'active-unack');
      const refused = (promise: Promise<unknown>) =>
        promise.then(
          () => null,
          (e: Error) => e,
        );
      const unknown = await refused(t.alarms.acknowledge('door.typo', { user: 'ann' }));
      should(unknown).be.instanceOf(KitError);
      should(unknown!.message).equal('alarm command {"action":"acknowledge","alarm":"door.typo","user":"ann"} refused: no alarm door.typo is deployed');
      const tooShort = await refused(t.alarms.shelve('door', { duration: 500 }));
      should(tooShort!.message).match(/refused: duration must be an integer from 1000 to 86400000 ?ms, got 500$/);
      const tooLong = await refused(t.alarms.acknowledge('door', { comment: 'x'.repeat(501) }));
      should(tooLong!.message).match(/refused: comment must be text of 0 to 500 characters, got /);
      should((await t.alarms.get('door'))!.shown).equal('active-unack');
      const waited = await refused(t.alarms.untilState('door', 'normal', { timeoutMs: 200 }));
      should(waited!.message).equal('waited 200 ms for alarm door to be normal: it is active-unack');
      const none = await refused(t.alarms.untilState('nope', 'normal', { timeoutMs: 100 }));
      should(none!.message).equal('waited 100 ms for alarm nope to be normal: no alarm nope is deployed');
    } finally {
      await t.stop();
    }
  });

  it('a failing alarm step reads as what went wrong: a state not reached, a command refused at run time', async () => {
    const report = await runScenario({
      flows: FLOWS,
      scenario: checkScenario(
        {
          steps: [
            { inject: { node: 'door open', msg: { payload: true } } },
            { expectAlarm: { alarm: 'door', state: 'active-ack', within: 300 } },
            { acknowledge: { alarm: 'door.typo' } },
          ],
        },
        'failing.yaml',
      ),
    });
    should(report.ok).be.false();
    should(report.steps[1].detail).equal('not in 300 ms: it is active-unack');
    should(report.steps[2].detail).equal('alarm command {"action":"acknowledge","alarm":"door.typo"} refused: no alarm door.typo is deployed');
  });

  it('refuses bad alarm steps before anything starts, every one at its place', () => {
    should(
      mistakes([
        { acknowlege: { alarm: 'oven.hi' } },
        { shelve: { alarm: 'oven.hi', duration: '500 ms' } },
        { shelve: { alarm: 'oven.hi', duration: '2 days' } },
        { expectAlarm: { alarm: 'oven.hi', state: 'acknowledged' } },
        { acknowledge: { alarm: 'oven/hi', user: 'ann', coment: 'typo' } },
        { acknowledgeAll: { area: '' } },
        { expectAlarm: { state: 'normal', within: '3 h' } },
      ]),
    ).eql([
      'steps[0]: unknown event "acknowlege"; a step has one of pin, short, alert, unplug, plug, slow, hang, fault, clearFaults, reboot, watchdogReset, advance, inject, expect, expectNone, expectDevice, acknowledge, shelve, unshelve, acknowledgeAll, removeFromService, returnToService, expectAlarm (and optionally at)',
      'steps[1].shelve.duration: duration must be an integer from 1000 to 86400000 ms, got 500',
      'steps[2].shelve.duration: must be a time (a number of ms, or "10 s", "500 ms"), got "2 days"',
      'steps[3].expectAlarm.state: must be one of normal, active-unack, active-ack, rtn-unack, shelved, suppressed, out-of-service, got "acknowledged"',
      'steps[4].acknowledge: unknown field "coment"; known: alarm, user, comment',
      'steps[4].acknowledge.alarm: alarm must be text of 1 to 64 characters from A-Za-z0-9_.:-, got "oven/hi"',
      'steps[5].acknowledgeAll.area: area must be a text of 1 to 200 characters, got ""',
      'steps[6].expectAlarm.alarm: alarm must be text of 1 to 64 characters from A-Za-z0-9_.:-, got nothing',
      'steps[6].expectAlarm.within: must be a time from 0 to 120000 ms (a number of ms, or "2 s", "500 ms"), got "3 h"',
    ]);
  });
});
