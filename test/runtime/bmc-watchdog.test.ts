/**
 * bmc-watchdog against the simulator: every operation on the wire (chosen by the dialog, or
 * by msg.operation with "from msg.operation"; msg.payload overrides, bare defaults from the
 * settings); a msg.operation the dialog does not allow refused; every operation that arms,
 * saves or shuts down refused without "confirm", from the dialog and from a msg; every
 * validation failure (one error at Catch, nothing sent) and device error statuses. The
 * keep-alive has its own file (bmc-watchdog-keep-alive.test.ts).
 */
import should from 'should';
import {
  apiPath,
  deviceErrorStatus,
  SERVICE_DOWN_STATUS,
  deviceRequests,
  expectFailed,
  expectRefused,
  needsConfirm,
  operationFixed,
  sendOk,
  sendOne,
  simModule,
  WATCHDOG_CONFIRM,
  watchdogNode as watchdog,
  wireSince,
} from '../helpers/bmc-power';
import { loadActions, loadActionsQuiet } from '../helpers/io-nodes';
import { expectCode, waitStatus } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { wirePath, wireRequest } from '../helpers/api';

const WD = apiPath('bmc', 'watchdog');
const OPS = 'read, timeout, alive, save, shutdown, sw_shutdown_timeout';

describe('bmc-watchdog (runtime, simulator)', function () {
  this.timeout(30000);
  const { ctl } = runtimeSuite({ server: true });

  describe('operations', () => {
    it('"from msg.operation" with confirm: msg.operation and msg.payload.timeout choose timeout, read, alive, save, sw_shutdown_timeout, shutdown', async () => {
      const outcomes = await loadActionsQuiet(ctl, [watchdog({ operation: 'msg', confirm: true })], { service: 'bmc' });
      const set = await sendOne(outcomes, 'wd', { operation: 'timeout', payload: { timeout: 5000 }, topic: 't1' });
      set.payload!.should.eql({ status: 'success' });
      should(set.topic).equal('t1');
      set.request!.should.eql(wireRequest({ method: 'POST', path: WD, body: { timeout: 5000 } }));

      const read = await sendOne(outcomes, 'wd', { operation: 'read' });
      const state = read.payload as Record<string, unknown>;
      Object.keys(state).sort().should.eql(['emergency_mode', 'shutdown_timeout', 'timeout', 'timeout_left']);
      state.timeout!.should.equal(5000);
      (state.timeout_left as number).should.be.within(1, 5000);
      state.shutdown_timeout!.should.equal(30000);
      state.emergency_mode!.should.equal(false);
      await waitStatus('wd', 'green', 'dot', /^timeout 5000 ms, left \d+ ms$/);

      await sendOne(outcomes, 'wd', { operation: 'alive' });
      await sendOne(outcomes, 'wd', { operation: 'save' });
      await sendOne(outcomes, 'wd', { operation: 'sw_shutdown_timeout', payload: { timeout: 45000 } });
      await sendOne(outcomes, 'wd', { operation: 'timeout', payload: { timeout: 0 } });
      await waitStatus('wd', 'green', 'dot', 'watchdog off');

      (await wireSince(ctl)).should.eql([
        ['POST', WD, { timeout: 5000 }],
        ['GET', WD, null],
        ['GET', `${WD}/alive`, null],
        ['GET', `${WD}/save`, null],
        ['POST', `${WD}/sw_shutdown_timeout`, { timeout: 45000 }],
        ['POST', WD, { timeout: 0 }],
      ]);
      const bmc = await simModule(ctl, 'bmc');
      bmc.persistent.savedWatchdogMs.should.equal(5000);
      bmc.persistent.swShutdownMs.should.equal(45000);
      bmc.watchdog.timeoutMs.should.equal(0);
      // The shutdown too, with confirm (the device resets once its shutdown timeout runs out).
      await sendOne(outcomes, 'wd', { operation: 'shutdown' });
      (await wireSince(ctl)).pop()!.should.eql(['POST', `${WD}/shutdown`, { shutdown: 'start' }]);
      should((await simModule(ctl, 'bmc')).shutdown.at).be.a.Number();
      outcomes.caught.should.have.length(0);
    });

    it('bare msgs use the settings: timeout, save, sw_shutdown_timeout (default 60000) with confirm; read by default', async () => {
      const outcomes = await loadActionsQuiet(
        ctl,
        [
          watchdog({ id: 'set', operation: 'timeout', timeout: '3000', confirm: true }),
          watchdog({ id: 'save', operation: 'save', confirm: true }),
          watchdog({ id: 'sw', operation: 'sw_shutdown_timeout', confirm: true }),
          watchdog({ id: 'plain', operation: '' }),
        ],
        { service: 'bmc' },
      );
      await sendOk(outcomes, 'set', { payload: 1732170000000 });
      await sendOk(outcomes, 'save', { payload: 1732170000000 });
      await sendOk(outcomes, 'sw', { payload: '' });
      // The dialog's own operation named again in msg.operation is fine.
      await sendOk(outcomes, 'plain', { payload: true, operation: 'read' });
      (await wireSince(ctl)).should.eql([
        ['POST', WD, { timeout: 3000 }],
        ['GET', `${WD}/save`, null],
        ['POST', `${WD}/sw_shutdown_timeout`, { timeout: 60000 }],
        ['GET', WD, null],
      ]);
      (await simModule(ctl, 'bmc')).persistent.savedWatchdogMs.should.equal(3000);
    });

    it('shutdown is refused without "confirm" and sent as {shutdown: "start"} with it', async () => {
      const outcomes = await loadActionsQuiet(
        ctl,
        [watchdog({ id: 'no', operation: 'shutdown' }), watchdog({ id: 'yes', operation: 'shutdown', confirm: true })],
        { service: 'bmc' },
      );
      await expectRefused(ctl, outcomes, 'no', { payload: true }, needsConfirm('bmc-watchdog', 'shutdown', WATCHDOG_CONFIRM));
      await expectRefused(
        ctl,
        outcomes,
        'no',
        { operation: 'shutdown', payload: { shutdown: 'start', confirm: true } },
        needsConfirm('bmc-watchdog', 'shutdown', WATCHDOG_CONFIRM),
      );
      await waitStatus('no', 'red', 'ring', '"start a shutdown" refused: tick');
      should((await simModule(ctl, 'bmc')).shutdown.at).be.null();

      await sendOk(outcomes, 'yes', { payload: true });
      (await wireSince(ctl)).should.eql([['POST', `${WD}/shutdown`, { shutdown: 'start' }]]);
      const bmc = await simModule(ctl, 'bmc');
      should(bmc.shutdown.at).be.a.Number();
      bmc.shutdown.leftMs.should.be.within(1, 30000);
      outcomes.caught.should.have.length(2);
    });
  });

  describe('which operation a msg may choose', () => {
    it('a node set to read refuses timeout 1000 and save by msg: nothing reaches the device, no reset loop', async () => {
      // Even with confirm ticked: the dialog chose read, and a msg does not change that.
      const outcomes = await loadActionsQuiet(ctl, [watchdog({ confirm: true })], { service: 'bmc' });
      await expectRefused(ctl, outcomes, 'wd', { operation: 'timeout', payload: { timeout: 1000 } }, operationFixed('bmc-watchdog', '"timeout"', 'read'));
      await expectRefused(ctl, outcomes, 'wd', { operation: 'save' }, operationFixed('bmc-watchdog', '"save"', 'read'));
      await expectRefused(ctl, outcomes, 'wd', { operation: 'shutdown' }, operationFixed('bmc-watchdog', '"shutdown"', 'read'));
      await expectRefused(ctl, outcomes, 'wd', { operation: 'msg' }, operationFixed('bmc-watchdog', '"msg"', 'read'));
      await expectRefused(ctl, outcomes, 'wd', { operation: null }, operationFixed('bmc-watchdog', 'null', 'read'));
      await expectRefused(ctl, outcomes, 'wd', { operation: 5 }, operationFixed('bmc-watchdog', '5', 'read'));
      await waitStatus('wd', 'red', 'ring', 'msg.operation 5 refused');
      (await wireSince(ctl)).should.eql([]);
      const bmc = await simModule(ctl, 'bmc');
      bmc.watchdog.timeoutMs.should.equal(0);
      bmc.persistent.savedWatchdogMs.should.equal(0);
      should(bmc.shutdown.at).be.null();
      // Its own operation, named or not, still runs.
      await sendOk(outcomes, 'wd', { operation: 'read' });
      await sendOk(outcomes, 'wd', { payload: 1 });
      (await wireSince(ctl)).should.eql([
        ['GET', WD, null],
        ['GET', WD, null],
      ]);
    });

    it('with "from msg.operation", msg.operation is required and must be one of the node\'s operations', async () => {
      const outcomes = await loadActionsQuiet(ctl, [watchdog({ operation: 'msg', confirm: true })], { service: 'bmc' });
      await expectRefused(ctl, outcomes, 'wd', { payload: 1 }, `Operation (msg.operation) must be one of ${OPS}, got nothing`);
      await expectRefused(ctl, outcomes, 'wd', { operation: 'reboot' }, `Operation (msg.operation) must be one of ${OPS}, got "reboot"`);
      await expectRefused(ctl, outcomes, 'wd', { operation: 'msg' }, `Operation (msg.operation) must be one of ${OPS}, got "msg"`);
      await expectRefused(ctl, outcomes, 'wd', { operation: 'READ' }, `Operation (msg.operation) must be one of ${OPS}, got "READ"`);
      await expectRefused(ctl, outcomes, 'wd', { operation: ['read'] }, `Operation (msg.operation) must be one of ${OPS}, got an array`);
      await waitStatus('wd', 'red', 'ring', 'Operation (msg.operation) must be one of');
      outcomes.caught.should.have.length(5);
    });

    it('every operation that arms, saves or shuts down is refused without "confirm", from the dialog and from a msg', async () => {
      const DANGEROUS = ['timeout', 'save', 'shutdown', 'sw_shutdown_timeout'];
      const outcomes = await loadActionsQuiet(
        ctl,
        [watchdog({ id: 'msg', operation: 'msg', timeout: '5000' }), ...DANGEROUS.map((op) => watchdog({ id: op, operation: op, timeout: '5000' }))],
        { service: 'bmc' },
      );
      for (const op of DANGEROUS) {
        await expectRefused(ctl, outcomes, op, { payload: { timeout: 20000 } }, needsConfirm('bmc-watchdog', op, WATCHDOG_CONFIRM));
        await expectRefused(ctl, outcomes, 'msg', { operation: op, payload: { timeout: 20000 } }, needsConfirm('bmc-watchdog', op, WATCHDOG_CONFIRM));
      }
      await waitStatus('save', 'red', 'ring', '"save the timeout persistently" refused: tick');
      (await wireSince(ctl)).should.eql([]);
      const bmc = await simModule(ctl, 'bmc');
      bmc.watchdog.timeoutMs.should.equal(0);
      bmc.persistent.should.containEql({ savedWatchdogMs: 0, swShutdownMs: 30000 });
      should(bmc.shutdown.at).be.null();
      // What neither arms nor saves needs no confirm.
      await sendOk(outcomes, 'msg', { operation: 'read' });
      (await wireSince(ctl)).should.eql([['GET', WD, null]]);
    });
  });

  describe('validation (one error at Catch, nothing sent)', () => {
    it('refuses timeouts outside 0 or 1000..600000, non-integers and strings', async () => {
      const outcomes = await loadActionsQuiet(ctl, [watchdog({ operation: 'msg', timeout: '2000', confirm: true })], { service: 'bmc' });
      const range = 'Timeout (timeout) must be 0 or an integer from 1000 to 600000 ms';
      const timeout = (value: unknown) => ({ operation: 'timeout', payload: { timeout: value } });
      await expectRefused(ctl, outcomes, 'wd', timeout(999), `${range}, got 999`);
      await expectRefused(ctl, outcomes, 'wd', timeout(600001), `${range}, got 600001`);
      await expectRefused(ctl, outcomes, 'wd', timeout(1), `${range}, got 1`);
      await expectRefused(ctl, outcomes, 'wd', timeout(1500.5), `${range}, got 1500.5`);
      await expectRefused(ctl, outcomes, 'wd', timeout('5000'), `${range}, got "5000"`);
      await expectRefused(ctl, outcomes, 'wd', timeout(-1000), `${range}, got -1000`);
      const sw = 'Shutdown timeout (timeout) must be an integer from 10000 to 600000 ms';
      await expectRefused(ctl, outcomes, 'wd', { operation: 'sw_shutdown_timeout', payload: { timeout: 9999 } }, `${sw}, got 9999`);
      await expectRefused(ctl, outcomes, 'wd', { operation: 'sw_shutdown_timeout', payload: { timeout: 600001 } }, `${sw}, got 600001`);
      await waitStatus('wd', 'red', 'ring', sw.slice(0, 50));
      outcomes.caught.should.have.length(8);
      // The bounds themselves pass.
      await sendOk(outcomes, 'wd', timeout(1000));
      await sendOk(outcomes, 'wd', timeout(600000));
      await sendOk(outcomes, 'wd', { operation: 'sw_shutdown_timeout', payload: { timeout: 10000 } });
      (await wireSince(ctl)).map((r) => r[2]).should.eql([{ timeout: 1000 }, { timeout: 600000 }, { timeout: 10000 }]);
    });

    it('a bad timeout in the settings is refused for every msg', async () => {
      const outcomes = await loadActionsQuiet(ctl, [watchdog({ operation: 'timeout', timeout: '500', confirm: true })], { service: 'bmc' });
      await expectRefused(ctl, outcomes, 'wd', { payload: 1 }, 'Timeout (timeout) must be 0 or an integer from 1000 to 600000 ms, got 500');
    });
  });

  describe('device errors', () => {
    it('alive while the watchdog is off: DEVICE_ERROR 500 with the device message, red status', async () => {
      const outcomes = await loadActionsQuiet(ctl, [watchdog({ operation: 'alive' })], { service: 'bmc' });
      const caught = await expectFailed(outcomes, 'wd', { payload: true, topic: 'kick' });
      expectCode(caught.error, 'DEVICE_ERROR');
      caught.error.cause!.should.containEql({
        statusCode: 500,
        deviceMessage: 'Internal driver communication failed: watchdog timeout not enabled',
        method: 'GET',
        path: wirePath(`${WD}/alive`),
      });
      should(caught.topic).equal('kick');
      await waitStatus('wd', 'red', 'ring', deviceErrorStatus(500, 'Internal driver communication failed'));
      (await deviceRequests(ctl)).map((e) => [e.path, e.status]).should.eql([[`${WD}/alive`, 500]]);
    });

    it('a config node for the power module is refused at deploy: nothing reaches the power service', async () => {
      const outcomes = await loadActions(ctl.url, [watchdog({ keepAlive: true, confirm: true, timeout: '2000', interval: '500' })], { service: 'power' });
      await waitStatus('wd', 'red', 'ring', /needs a module of the bmc service/);
      const caught = await expectFailed(outcomes, 'wd', { payload: true });
      caught.error.message.should.match(/needs a module of the bmc service, the chosen config node is for power/);
      (await wireSince(ctl)).should.eql([], 'no keep-alive sent to the power service');
    });

    it('bmc service down (nginx 502): DEVICE_ERROR 502 Bad Gateway', async () => {
      const outcomes = await loadActionsQuiet(ctl, [watchdog()], { service: 'bmc' });
      await ctl.serviceDown('bmc');
      const caught = await expectFailed(outcomes, 'wd', { payload: true });
      expectCode(caught.error, 'DEVICE_ERROR');
      caught.error.cause!.should.containEql({ statusCode: 502, deviceMessage: '502 Bad Gateway', method: 'GET', path: wirePath(WD) });
      await waitStatus('wd', 'red', 'ring', SERVICE_DOWN_STATUS);
      outcomes.caught.should.have.length(1);
    });
  });
});
