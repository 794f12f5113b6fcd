/**
 * Each thing that happens to a module is told once, as what it is: a reset by
 * someone else, a re-plug, a restart of the device's service, and the package's own
 * power-management msg. The health interval is shortened (modularDevice.healthIntervalMs) so that
 * "once" is checked over many health checks after the settings are back.
 *  - reset, re-plug, the package's own io-reset: one `reset`, one `reapplied`, every setting
 *    back (pins, the output's last state); one `notifications-lost` where the package can
 *    know (API 1.0's sessions, its own reset): the slot's flags went with the module.
 *  - service restart: one `connection` msg saying so, no `reset`, the module kept its
 *    settings: nothing POSTed again (API 1.0 by its sessions, API 0.9 by the read-backs after
 *    the outage); API 1.0: the service's notification cache is gone (one `notifications-lost`).
 *  - own power-management: no reset, no reapplied; API 1.0 puts the pins back once (the
 *    module re-enumerated), API 0.9 sends nothing else. The driver suspended the module and
 *    dropped the notification it held unread: one `notifications-lost` (issue #43).
 */
import should from 'should';
import { IS_API10, TEST_API } from '../helpers/api';
import { ActionDef, deviceCall, lastSeq, loadActions, Outcomes, send, SETTING_ACTIONS, settingsInPlace } from '../helpers/io-nodes';
import { waitFor, withHealthInterval } from '../helpers/node-red';
import { httpJson, isProbe } from '../helpers/sim-control';
import { runtimeSuite } from '../helpers/runtime-suite';
import { HealthEvent, subscribe, HealthKind, ofKind } from '../../nodes/lib/config-node/health';
import { ALL_MODULES } from '../helpers/reliability';

const ACTIONS: ActionDef[] = [
  ...SETTING_ACTIONS,
  { id: 'np', type: 'notification-poll', interval: '100', pins: '', alerts: '', combined: false },
  { id: 'rst', type: 'io-reset', confirm: true },
];
const INTERVAL_MS = 150;
/** Health checks waited for after the settings are back, before counting. */
const ROUNDS = 12;
const SETTINGS = /\/(power-management|input\/mode|input\/digital\/interrupt|input\/analog\/threshold|output\/state)$/;

describe(`each event told once, as what it is (runtime, simulator, API ${TEST_API})`, function () {
  this.timeout(40000);
  const { ctl } = runtimeSuite();
  withHealthInterval(INTERVAL_MS);
  /** Health events since the settings were first in place. */
  let events: HealthEvent[] = [];
  let stop: () => void = () => undefined;
  afterEach(() => stop());

  const inPlace = () => settingsInPlace(ctl);
  async function settled(since: number): Promise<void> {
    await waitFor(inPlace, 'every setting on the module', 10000);
    const probes = async () => (await ctl.log(since)).filter((e) => isProbe(e) && /^\/api\/io\/[\d.]+$/.test(e.path)).length;
    await waitFor(async () => (await probes()) >= ROUNDS, `${ROUNDS} health checks`, 20000);
  }
  async function start(): Promise<{ since: number; outcomes: Outcomes }> {
    const outcomes = await loadActions(ctl.url, ACTIONS, { modules: ALL_MODULES });
    should(await send(outcomes, 'out', { payload: { pin: 1, state: 'high' } })).be.undefined();
    await settled(0);
    events = [];
    stop = subscribe((e) => events.push(e));
    return { since: await lastSeq(ctl), outcomes };
  }
  const told = <K extends HealthKind>(kind: K) => events.filter(ofKind(kind));
  const writes = async (since: number) =>
    (await ctl.log(since))
      .filter((e) => e.method === 'POST' && SETTINGS.test(e.path) && e.status === 200)
      .map((e) => e.path.replace(/^\/api\/io\/[\d.]+\/2\//, ''));

  for (const [what, act, lost] of [
    ['a module reset by another client', () => deviceCall(ctl, 'GET', `/api/io/0.9/2/reset`), IS_API10],
    ['a re-plug of the module', () => httpJson('POST', `${ctl.url}/sim/modules/2/replug`, {}), IS_API10],
    ["the package's own reset (io-reset)", (outcomes: Outcomes) => send(outcomes, 'rst', { payload: {} }), true],
  ] as Array<[string, (outcomes: Outcomes) => Promise<unknown>, boolean]>) {
    it(`${what}: one reset, one reapplied, every setting back in the spec's order${lost ? ', one notifications-lost' : ''}`, async () => {
      const { since, outcomes } = await start();
      await act(outcomes);
      await waitFor(() => told('reapplied').length > 0, 'the settings re-applied', 10000);
      await settled(since);
      told('reset').should.have.length(1);
      told('reapplied').should.have.length(1);
      told('reapplied')[0].detail!.should.eql({ settings: 4, failed: 0 });
      told('notifications-lost').should.have.length(lost ? 1 : 0);
      const sent = await writes(since);
      sent[0].should.equal('power-management');
      sent.filter((w) => w === 'power-management').should.have.length(1);
      sent[sent.length - 1].should.equal('output/state');
    });
  }

  it(`a restart of the device's service: one connection msg, no reset, the settings kept${IS_API10 ? ', one notifications-lost' : ' (read back, not sent again)'}`, async () => {
    const { since } = await start();
    await ctl.serviceDown('io');
    await waitFor(() => told('connection').some((e) => e.detail?.state === 'down'), 'the service down', 10000);
    await ctl.serviceUp('io');
    await waitFor(() => told('connection').some((e) => e.detail?.state === 'connected'), 'connected again', 10000);
    await settled(since);
    const connected = told('connection').filter((e) => e.detail?.state === 'connected');
    connected.should.have.length(1);
    told('reset').should.have.length(0);
    told('reapplied').should.have.length(0);
    (await writes(since)).should.eql([]);
    if (IS_API10) {
      connected[0].cause.should.equal('connected (API 1.0), service restarted');
      told('notifications-lost').should.have.length(1);
      told('notifications-lost')[0].cause.should.match(/service restarted/);
    } else {
      told('notifications-lost').should.have.length(0);
      // The read-back that told: the digital pin (io-input) still digital, no output sent again.
      (await ctl.log(since)).filter((e) => e.method === 'GET' && e.path.endsWith('/input/values')).length.should.be.above(0);
    }
  });

  it(`the package's own power-management msg: no reset, one notifications-lost (the suspend)${IS_API10 ? ', the pins put back once' : ', nothing else sent'}`, async () => {
    const { since, outcomes } = await start();
    should(await send(outcomes, 'pwr', { payload: {} })).be.undefined();
    await settled(since);
    events
      .filter((e) => e.kind !== 'queue')
      .map((e) => e.kind)
      .should.eql(['notifications-lost']);
    told('notifications-lost')[0].cause.should.match(/power-management suspended the module/);
    const sent = await writes(since);
    sent.filter((w) => w === 'power-management').should.have.length(1);
    if (IS_API10) sent.slice(1).sort().should.eql(['input/analog/threshold', 'input/digital/interrupt', 'input/mode', 'input/mode', 'output/state']);
    else sent.should.eql(['power-management']);
    (await inPlace()).should.be.true();
  });
});
