/**
 * A setting the runtime refuses is invalid in the editor too, in the same words:
 * every dangerous operation of every guarded node (pure/dangerous.ts) chosen in the dialog
 * without the confirm box, and bmc-watchdog's keep-alive without it. For each, the confirm
 * box's `validate` (nodes/editor/confirm.ts, what the dialog calls; Node-RED's real i18n as
 * the editor's `RED._`) says a sentence, and the real runtime, the node deployed with those
 * settings against the simulator, refuses a msg at Catch with that very sentence. With the
 * box ticked the editor takes the node. No browser: the functions both sides call.
 */
import { DANGEROUS_OPERATIONS, GuardedType, KEEP_ALIVE_OPERATION } from '../../nodes/lib/pure/dangerous';
import { confirmed } from '../../nodes/editor/confirm';
import { runtimeWordsInEditor } from '../helpers/i18n';
import { expectRefused } from '../helpers/bmc-power';
import { kindDevices, KINDS, loadCollect, reliabilityFlow } from '../helpers/reliability';
import { runtimeSuite } from '../helpers/runtime-suite';

/** Each guarded type's refused settings: its dangerous operations, and the watchdog's keep-alive. */
const CASES = (Object.keys(DANGEROUS_OPERATIONS) as GuardedType[]).flatMap((type) => [
  ...DANGEROUS_OPERATIONS[type].map((operation) => ({ type, operation, settings: type === 'io-reset' ? {} : { operation, keepAlive: false } })),
  ...(type === 'bmc-watchdog'
    ? [{ type, operation: KEEP_ALIVE_OPERATION, settings: { operation: 'read', keepAlive: true, timeout: '60000', interval: '3000' } }]
    : []),
]);

function editorSays(node: Record<string, unknown>): true | string {
  return confirmed(node.type as string).call(node, node.confirm, {});
}

describe('a setting the runtime refuses is invalid in the editor, in the same words (runtime, simulator)', function () {
  this.timeout(15000);
  const { ctl } = runtimeSuite();
  runtimeWordsInEditor();

  it('covers every dangerous operation and the keep-alive, with a validator Node-RED takes a message from (two parameters)', () => {
    for (const type of Object.keys(DANGEROUS_OPERATIONS)) confirmed(type).length.should.equal(2);
    CASES.length.should.equal(Object.values(DANGEROUS_OPERATIONS).flat().length + 1);
  });

  for (const c of CASES) {
    it(`${c.type} ${c.operation} without confirm: the dialog's words are the refusal at Catch; ticked, the dialog takes it`, async () => {
      const kind = KINDS.find((k) => k.type === c.type)!;
      const node = { id: 'n', type: c.type, device: kind.device, ...kind.settings, ...c.settings, confirm: false };
      const said = editorSays(node);
      if (said === true) throw new Error(`the editor takes ${c.type} ${c.operation} without confirm`);
      said.should.match(/refused/);
      editorSays({ ...node, confirm: true }).should.be.true();
      const outcomes = await loadCollect(reliabilityFlow([node], kindDevices(ctl.url)));
      await expectRefused(ctl, outcomes, 'n', { payload: {} }, said);
    });
  }
});
