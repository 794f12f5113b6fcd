/** A list setting, read one way by the runtime, the flow check and the dialogs (pure/list-setting.ts). */
import should from 'should';
import { listSetting } from '../../nodes/lib/pure/list-setting';
import { pollPins } from '../../nodes/lib/pure/flow-nodes';
import { notificationPoll } from '../../nodes/editor/notification-poll';

describe('list setting', () => {
  it('reads the array the dialog saves and text separated by commas alike', () => {
    should(listSetting(['1', ' 3 ', ''])).eql(['1', '3']);
    should(listSetting(' 1, 3,,')).eql(['1', '3']);
    should(listSetting([2, 4])).eql(['2', '4']);
  });

  it('absent is the empty list; anything else is no list (undefined, for the caller to refuse)', () => {
    should(listSetting(undefined)).eql([]);
    should(listSetting(null)).eql([]);
    should(listSetting(5)).be.undefined();
    should(listSetting({ pins: [1] })).be.undefined();
  });

  it("the flow check reads a notification-poll's pins through it: none listed is every pin", () => {
    pollPins({ id: 'n', type: 'notification-poll', pins: '2, 5' }).should.eql([2, 5]);
    pollPins({ id: 'n', type: 'notification-poll', pins: [] }).should.eql([1, 2, 3, 4, 5, 6]);
  });

  it("notification-poll's dialog checks its pins and alerts as lists, each entry against the spec", () => {
    const node = { id: 'n', type: 'notification-poll' };
    const { validPins, validAlerts } = notificationPoll;
    // Node-RED shows a validator's message only when it declares two parameters.
    validPins.length.should.equal(2);
    validAlerts.length.should.equal(2);
    should(validPins.call(node, [])).be.true();
    should(validPins.call(node, '2, 5')).be.true();
    should(validPins.call(node, undefined)).be.true();
    should(validPins.call(node, [1, 7])).be.a.String();
    should(validPins.call(node, 5)).match(/notAList\.pins/);
    should(validAlerts.call(node, ['under_voltage_alert', 'custom_voltage_alert'])).be.true();
    should(validAlerts.call(node, 'high_current_alert')).be.true();
    should(validAlerts.call(node, ['under_voltage_alert', 'loud_alert'])).match(/runtime\.badAlerts/);
    should(validAlerts.call(node, 5)).match(/notAList\.alerts/);
  });
});
