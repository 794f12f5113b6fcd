/**
 * config-node/pin-trips.ts: which flags trip a pin (every protection event, not the custom
 * voltage alert), which pins an operation sets, when a msg gives a pin back, and which failed
 * power-management may still have suspended the module.
 */
import 'should';
import { DeviceError } from '../../nodes/lib/base/errors';
import { maySuspend, PinTrips, pinsOf } from '../../nodes/lib/config-node/pin-trips';

describe('pin trips (config-node/pin-trips.ts)', function () {
  it('a protection flag trips the pin and is told once per read; the custom voltage alert trips nothing', function () {
    const trips = new PinTrips();
    const heard: Array<[number, readonly string[]]> = [];
    const stop = trips.watch((pin, flags) => heard.push([pin, flags]));
    trips.seen(2, ['custom_voltage_alert']);
    (trips.of(2) === undefined).should.be.true();
    trips.seen(5, ['high_current_alert', 'custom_voltage_alert']);
    trips.seen(1, ['under_voltage_alert', 'high_voltage_alert']);
    trips.of(5)!.should.eql(['high_current_alert']);
    trips.of(1)!.should.eql(['under_voltage_alert', 'high_voltage_alert']);
    heard.should.eql([
      [5, ['high_current_alert']],
      [1, ['under_voltage_alert', 'high_voltage_alert']],
    ]);
    stop();
    trips.seen(3, ['high_voltage_alert']);
    heard.should.have.length(2);
  });

  it('a msg that sets the pin gives it back; other pins stay tripped', function () {
    const trips = new PinTrips();
    trips.seen(5, ['high_current_alert']);
    trips.seen(6, ['high_current_alert']);
    trips.release(pinsOf({ kind: 'requests', requests: { method: 'POST', endpoint: ['output', 'state'], body: { pin: 5, state: 'high' } } }));
    (trips.of(5) === undefined).should.be.true();
    trips.of(6)!.should.eql(['high_current_alert']);
  });

  it('the pins of an operation: POST bodies with a pin, once each; none for reads, the power configuration or a conversation', function () {
    const mode = { method: 'POST' as const, endpoint: ['input', 'mode'], body: { pin: 2, mode: 'analog' } };
    const threshold = { method: 'POST' as const, endpoint: ['input', 'analog', 'threshold'], body: { pin: 2, threshold_mV: 1000, trigger: 'rising' } };
    pinsOf({ kind: 'requests', requests: [mode, threshold] }).should.eql([2]);
    pinsOf({ kind: 'requests', requests: { method: 'GET', endpoint: ['notification'] } }).should.eql([]);
    pinsOf({ kind: 'requests', requests: { method: 'POST', endpoint: ['power-management'], body: { config: [{ pin: 1 }] } } }).should.eql([]);
    pinsOf({ kind: 'conversation' }).should.eql([]);
    pinsOf(undefined).should.eql([]);
  });

  it('a failed power-management may have suspended the module unless the driver was never asked', function () {
    const error = (code: 'DEVICE_ERROR' | 'TIMEOUT' | 'UNREACHABLE', more: Record<string, unknown> = {}) => new DeviceError('x', { code, ...more });
    maySuspend(error('DEVICE_ERROR', { statusCode: 200, deviceMessage: 'denied' })).should.be.true();
    maySuspend(error('DEVICE_ERROR', { statusCode: 422, deviceMessage: 'Invalid power config' })).should.be.true();
    maySuspend(error('DEVICE_ERROR', { statusCode: 500 })).should.be.true();
    maySuspend(error('TIMEOUT')).should.be.true();
    maySuspend(error('DEVICE_ERROR', { statusCode: 400, deviceMessage: 'Invalid current limit for pin: 0' })).should.be.false();
    maySuspend(error('DEVICE_ERROR', { statusCode: 404 })).should.be.false();
    maySuspend(error('UNREACHABLE', { neverSent: true })).should.be.false();
    maySuspend(new Error('not ours')).should.be.false();
  });
});
