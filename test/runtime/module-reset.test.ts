/**
 * The module reset of bmc and power modules (operation `module_reset` of bmc-system and
 * power-limits) against the simulator, on the API under test: on 1.0 `POST reset
 * {"reset":"yes"}` (real §3.1) puts the module's settings back to their defaults; on 0.9,
 * whose spec has a module reset for io only, it is refused before sending. Without the
 * node's confirm it is refused (nothing sent) whether the dialog or a msg chooses it, and it
 * never runs on deploy.
 */
import should from 'should';
import { apiPath, BmcPowerService, expectRefused, needsConfirm, operationWords, sendOne, simModule, SLOTS, wireSince } from '../helpers/bmc-power';
import { waitStatus } from '../helpers/node-red';
import { deviceCall, loadActions, loadActionsQuiet } from '../helpers/io-nodes';
import { IS_API10, wireRequest } from '../helpers/api';
import { SimHarness } from '../helpers/sim-control';
import { runtimeSuite } from '../helpers/runtime-suite';

interface Case {
  service: BmcPowerService;
  type: string;
  /** The dialog's label of the confirm checkbox, as the refusal quotes it. */
  confirm: string;
  status: string;
  /** Another node of the same module, with a msg that succeeds on both APIs. */
  other: { settings: Record<string, unknown>; request: [string, string, unknown] };
  /** Changes a setting the module reset puts back, straight on the device. */
  change(ctl: SimHarness): Promise<void>;
  /** Whether the module shows that change (from /sim/state). */
  changed(module: any): boolean;
}

const CASES: Case[] = [
  {
    service: 'bmc',
    type: 'bmc-system',
    confirm: 'Allow this node to hard reset the device, to reset the bmc module and to switch the USB bootloader',
    status: 'bmc module reset',
    other: { settings: { operation: 'buzzer', mode: '2', duration: '50' }, request: ['POST', apiPath('bmc', 'buzzer'), { mode: 2, duration: 50 }] },
    change: (ctl) => deviceCall(ctl, 'POST', apiPath('bmc', 'watchdog'), { timeout: 600000 }),
    changed: (m) => m.watchdog.timeoutMs === 600000,
  },
  {
    service: 'power',
    type: 'power-limits',
    confirm: 'Allow this node to reset the power module',
    status: 'power module reset',
    other: { settings: { operation: 'read' }, request: ['GET', apiPath('power', 'stats'), null] },
    change: (ctl) => deviceCall(ctl, 'POST', apiPath('power', 'limits'), { limit_3v3: 2000, limit_5v0: 2000, limit_12v: 200 }),
    changed: (m) => m.limitMa['3v3'] === 2000,
  },
];

describe('module reset of bmc and power modules (runtime, simulator)', function () {
  this.timeout(20000);
  const { ctl } = runtimeSuite({ server: true });

  for (const c of CASES) {
    const RESET = apiPath(c.service, 'reset');
    const node = (settings: Record<string, unknown>) => ({ id: 'rs', type: c.type, operation: 'module_reset', confirm: false, ...settings });

    describe(`${c.type} module_reset`, () => {
      beforeEach(async () => {
        await ctl.reset();
        await c.change(ctl);
        await ctl.clearLog();
      });

      it('without confirm: refused from the dialog and from a msg, nothing sent, the module untouched', async () => {
        const outcomes = await loadActionsQuiet(ctl, [node({}), node({ id: 'msg', operation: 'msg' })], { service: c.service });
        await expectRefused(ctl, outcomes, 'rs', { payload: { reset: 'yes', confirm: true } }, needsConfirm(c.type, 'module_reset', c.confirm));
        await expectRefused(ctl, outcomes, 'msg', { operation: 'module_reset' }, needsConfirm(c.type, 'module_reset', c.confirm));
        await waitStatus('rs', 'red', 'ring', `"${operationWords(c.type, 'module_reset')}" refused: tick`);
        c.changed(await simModule(ctl, c.service)).should.be.true();
      });

      it('never runs on deploy, even with confirm on', async () => {
        const outcomes = await loadActions(ctl.url, [node({ confirm: true }), { id: 'other', type: c.type, ...c.other.settings }], { service: c.service });
        // Had the reset been sent on deploy, it would be in the log before this msg's request.
        await sendOne(outcomes, 'other', {});
        (await wireSince(ctl)).should.eql([c.other.request]);
        c.changed(await simModule(ctl, c.service)).should.be.true();
        outcomes.sent('rs').should.have.length(0);
      });

      if (IS_API10) {
        it('API 1.0, with confirm: POST reset {"reset":"yes"}, the module back at its defaults, a new device_session', async () => {
          const outcomes = await loadActionsQuiet(ctl, [node({ confirm: true })], { service: c.service });
          const before = (await simModule(ctl, c.service)).session;
          const out = await sendOne(outcomes, 'rs', { payload: 'go', topic: 'maintenance' });
          out.should.containEql({ payload: { status: 'success' }, topic: 'maintenance' });
          should(out.request).eql(wireRequest({ method: 'GET', path: RESET }));
          (await ctl.wireLog())
            .filter((e) => e.path.endsWith('/reset'))
            .map((e) => [e.method, e.path, e.body])
            .should.eql([['POST', `/api/${c.service}/1.0/${SLOTS[c.service]}/reset`, { reset: 'yes' }]]);
          const module = await simModule(ctl, c.service);
          c.changed(module).should.be.false();
          module.session.should.not.equal(before);
          module.resets.should.equal(0, 'the module alone, not the device');
          await waitStatus('rs', 'green', 'dot', c.status);
        });
      } else {
        it('API 0.9, with confirm: refused before sending (the spec has a module reset for io only)', async () => {
          const outcomes = await loadActionsQuiet(ctl, [node({ confirm: true }), node({ id: 'msg', operation: 'msg', confirm: true })], { service: c.service });
          const refusal = 'the module reset of bmc and power modules needs a device with API 1.0 (this one speaks 0.9, where only io modules have a reset)';
          await expectRefused(ctl, outcomes, 'rs', {}, refusal);
          await expectRefused(ctl, outcomes, 'msg', { operation: 'module_reset' }, refusal);
          c.changed(await simModule(ctl, c.service)).should.be.true();
        });
      }
    });
  }
});
