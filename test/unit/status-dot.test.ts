/**
 * NodeStatusDot on its own: what reaches `node.status` (here a function that records each
 * call) for connection states, the node's own outcomes, failures, the busy dot and close.
 * Its busy watch (busy-watch.ts) runs on a hand clock, so no assertion depends on how fast
 * the machine is.
 */
import should from 'should';
import type { ConnectionState } from '../../nodes/lib/config-node/connection';
import { DeviceError } from '../../nodes/lib/base/errors';
import { BUSY_STATUS_DELAY_MS, connectionStatus, NodeStatusDot, short } from '../../nodes/lib/action/status-dot';
import type { NodeStatus } from '../../nodes/lib/base/node-red';
import { handClock } from '../helpers/hand-clock';
import { BusyWatch } from '../../nodes/lib/action/busy-watch';

function recordedDot(problem?: string) {
  const calls: NodeStatus[] = [];
  const clock = handClock();
  const dot = new NodeStatusDot((status) => calls.push(status), problem, new BusyWatch(clock));
  return { dot, calls, clock };
}

const CONNECTED: ConnectionState = { state: 'connected', apiVersion: '0.9' };
const UNREACHABLE: ConnectionState = { state: 'unreachable', reason: 'connection refused' };
const deviceError = (message: string) => new DeviceError(message, { code: 'UNREACHABLE' });

describe('NodeStatusDot', () => {
  it('shows each connection state once: a repeated state does not call node.status again', () => {
    const { dot, calls } = recordedDot();
    dot.connectionIs({ state: 'connecting' });
    dot.connectionIs({ state: 'connecting' });
    dot.connectionIs(CONNECTED);
    dot.connectionIs(CONNECTED);
    calls.should.eql([connectionStatus({ state: 'connecting' }), connectionStatus(CONNECTED)]);
    calls[1].should.have.properties({ fill: 'green', shape: 'ring' });
  });

  it('says when the module (re)connected: after another state, or after a service restart', () => {
    const { dot } = recordedDot();
    dot.connectionIs({ state: 'connecting' }).should.be.false();
    dot.connectionIs(CONNECTED).should.be.true();
    dot.connectionIs(CONNECTED).should.be.false();
    dot.connectionIs({ ...CONNECTED, restarted: true }).should.be.true();
    dot.connectionIs(UNREACHABLE).should.be.false();
    dot.connectionIs(CONNECTED).should.be.true();
  });

  it("shows the node's own outcome while connected, the connection while not, and the outcome again after", () => {
    const { dot, calls } = recordedDot();
    dot.connectionIs(CONNECTED);
    dot.succeeded('pin 3 high');
    dot.connectionIs(UNREACHABLE);
    dot.connectionIs(CONNECTED);
    calls
      .slice(1)
      .should.eql([{ fill: 'green', shape: 'dot', text: 'pin 3 high' }, connectionStatus(UNREACHABLE), { fill: 'green', shape: 'dot', text: 'pin 3 high' }]);
  });

  it('an outcome reported before the connection is up waits for it', () => {
    const { dot, calls } = recordedDot();
    dot.connectionIs({ state: 'connecting' });
    dot.succeeded('applied');
    calls.should.eql([connectionStatus({ state: 'connecting' })]);
    dot.connectionIs(CONNECTED);
    calls[1].should.eql({ fill: 'green', shape: 'dot', text: 'applied' });
  });

  it('a reconnection clears an old failure, but never a bad setting found at deploy', () => {
    const failed = recordedDot();
    failed.dot.connectionIs(CONNECTED);
    failed.dot.failed(deviceError('GET /api/io/0.9/2/input/values failed: connection refused'));
    failed.calls[1].should.eql({ fill: 'red', shape: 'ring', text: 'connection refused' });
    failed.dot.connectionIs(UNREACHABLE);
    failed.dot.connectionIs(CONNECTED);
    failed.calls[failed.calls.length - 1].should.eql(connectionStatus(CONNECTED));

    const bad = recordedDot('pin must be 1 to 6, got 9');
    bad.dot.connectionIs(CONNECTED);
    bad.dot.connectionIs(UNREACHABLE);
    bad.dot.connectionIs(CONNECTED);
    bad.calls.should.eql([
      { fill: 'red', shape: 'ring', text: 'pin must be 1 to 6, got 9' },
      connectionStatus(UNREACHABLE),
      { fill: 'red', shape: 'ring', text: 'pin must be 1 to 6, got 9' },
    ]);
  });

  it('a report waits while a msg is in flight; a failure shows at once', () => {
    const { dot, calls } = recordedDot();
    dot.connectionIs(CONNECTED);
    dot.started('pin 3 high...');
    dot.report({ fill: 'grey', shape: 'ring', text: 'paused' });
    calls.should.have.length(1);
    dot.failed(deviceError('timeout'));
    calls[1].should.eql({ fill: 'red', shape: 'ring', text: 'timeout' });
  });

  it('the blue dot only for an operation still running after the delay, with its busy text', () => {
    const { dot, calls, clock } = recordedDot();
    dot.connectionIs(CONNECTED);
    dot.started('fan to 60 %...');
    calls.should.have.length(1, 'nothing at once');
    clock
      .pending()
      .map((j) => j.ms)
      .should.eql([BUSY_STATUS_DELAY_MS]);
    clock.advance(BUSY_STATUS_DELAY_MS);
    calls[1].should.eql({ fill: 'blue', shape: 'dot', text: 'fan to 60 %...' });
  });

  it('one busy timer for several msgs in flight; when it comes after the last one ended it shows nothing and stops', () => {
    const { dot, calls, clock } = recordedDot();
    dot.connectionIs(CONNECTED);
    dot.started('a...');
    dot.started('b...');
    clock.pending().should.have.length(1);
    dot.finished();
    dot.finished();
    clock.advance(BUSY_STATUS_DELAY_MS);
    calls.should.have.length(1, 'no blue dot for operations that ended in time');
    clock.pending().should.have.length(0);
  });

  it("msgs one after another arm no timer each: a msg that began late in the watch's wait is shown at a later look", () => {
    const { dot, calls, clock } = recordedDot();
    dot.connectionIs(CONNECTED);
    for (let i = 0; i < 5; i++) {
      dot.started('a...');
      clock.advance(1);
      dot.finished();
    }
    clock.pending().should.have.length(1, 'one timer for five msgs');
    clock.advance(BUSY_STATUS_DELAY_MS - 10);
    dot.started('slow...');
    clock.advance(10);
    calls.should.have.length(1, 'the slow msg has been in flight 10 ms only');
    clock.pending().should.have.length(1, 'the watch looks again after its delay');
    // The watch looked after one delay (the slow msg 5 ms in flight) and looks again after two.
    clock.advance(BUSY_STATUS_DELAY_MS - 6);
    calls.should.have.length(1, 'not before the next look');
    clock.advance(1);
    calls[1].should.eql({ fill: 'blue', shape: 'dot', text: 'slow...' });
    clock.pending().should.have.length(0, 'nothing left to watch');
  });

  it('after the blue dot the same outcome as before is shown again (it replaced it)', () => {
    const { dot, calls, clock } = recordedDot();
    dot.connectionIs(CONNECTED);
    dot.succeeded('pin 3 high');
    dot.started('pin 3 high...');
    clock.advance(BUSY_STATUS_DELAY_MS);
    dot.finished();
    dot.succeeded('pin 3 high');
    calls.slice(1).should.eql([
      { fill: 'green', shape: 'dot', text: 'pin 3 high' },
      { fill: 'blue', shape: 'dot', text: 'pin 3 high...' },
      { fill: 'green', shape: 'dot', text: 'pin 3 high' },
    ]);
  });

  it('texts longer than a status has room for are cut with an ellipsis', () => {
    const { dot, calls } = recordedDot();
    dot.connectionIs(CONNECTED);
    const long = 'x'.repeat(100);
    dot.succeeded(long);
    should(calls[1].text).equal(short(long));
    should(calls[1].text).have.length(60);
    should(calls[1].text?.endsWith('...')).be.true();
    short('short').should.equal('short');
  });

  it('close clears the status; the watch drops the dot without a blue dot or another look', () => {
    const { dot, calls, clock } = recordedDot();
    dot.connectionIs(CONNECTED);
    dot.started('a...');
    dot.close();
    calls[calls.length - 1].should.eql({});
    clock.advance(BUSY_STATUS_DELAY_MS);
    calls[calls.length - 1].should.eql({}, 'no blue dot after close');
    clock.pending().should.have.length(0);
    dot.started('b...');
    clock.pending().should.have.length(0, 'a closed dot is not watched again');
  });
});
