/**
 * PollingLifecycle on its own: when the poller is started, nudged and stopped. The poller
 * is a small object recording those calls (the lifecycle's own `Pollable` interface), and
 * once the real Poller; an on-connect setting is a promise the test settles.
 */
import should from 'should';
import { Poller } from '../../nodes/lib/action/poller';
import { Pollable, PollingLifecycle } from '../../nodes/lib/action/polling-lifecycle';

class RecordingPoller implements Pollable {
  readonly calls: string[] = [];
  active = false;
  start(): void {
    this.calls.push('start');
    this.active = true;
  }
  stop(): void {
    this.calls.push('stop');
    this.active = false;
  }
  nudge(): void {
    this.calls.push('nudge');
  }
}

/** A promise the test settles, standing for an on-connect setting on its way. */
function applying(): { promise: Promise<void>; settle: () => Promise<void> } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return {
    promise,
    // The lifecycle's reaction to the promise runs before the test's own await resumes.
    settle: async () => {
      resolve();
      await promise;
      await new Promise((r) => setImmediate(r));
    },
  };
}

/** A lifecycle over a recording poller, deploy done. */
function begun(waitsForConnect: boolean): { poller: RecordingPoller; polling: PollingLifecycle } {
  const poller = new RecordingPoller();
  const polling = new PollingLifecycle(poller, waitsForConnect);
  polling.begin();
  return { poller, polling };
}

describe('PollingLifecycle', () => {
  it('without an on-connect setting: starts at deploy; a reconnection polls now', () => {
    const poller = new RecordingPoller();
    const polling = new PollingLifecycle(poller, false);
    poller.calls.should.eql([]);
    polling.begin();
    polling.reconnected();
    poller.calls.should.eql(['start', 'nudge']);
  });

  it('with an on-connect setting: starts only once it was applied, later reconnections nudge', async () => {
    const { poller, polling } = begun(true);
    const first = applying();
    polling.reconnected(first.promise);
    poller.calls.should.eql([], 'not before the setting is applied');
    await first.settle();
    poller.calls.should.eql(['start']);
    const second = applying();
    polling.reconnected(second.promise);
    await second.settle();
    poller.calls.should.eql(['start', 'nudge']);
  });

  it('stop and start msgs pause and resume, and say so', () => {
    const { poller, polling } = begun(false);
    should(polling.command('stop')).have.properties({ fill: 'grey', shape: 'ring' });
    polling.active.should.be.false();
    should(polling.command('start')).have.properties({ fill: 'green', shape: 'ring' });
    polling.active.should.be.true();
    poller.calls.should.eql(['start', 'stop', 'start']);
  });

  it('a pause holds across the on-connect setting: applied while paused does not start', async () => {
    const { poller, polling } = begun(true);
    polling.command('stop');
    const setting = applying();
    polling.reconnected(setting.promise);
    await setting.settle();
    poller.calls.should.eql(['stop']);
    polling.command('start');
    poller.calls.should.eql(['stop', 'start']);
  });

  it('"start" before the on-connect setting was applied does not start early', () => {
    const { poller, polling } = begun(true);
    should(polling.command('start')).have.properties({ fill: 'green' });
    poller.calls.should.eql([]);
  });

  it('closed while the on-connect setting was on its way: never starts', async () => {
    const { poller, polling } = begun(true);
    const setting = applying();
    polling.reconnected(setting.promise);
    polling.close();
    await setting.settle();
    poller.calls.should.eql(['stop']);
  });

  it('other msgs, and every msg of a node that does not poll, are no command', () => {
    const polling = new PollingLifecycle(new RecordingPoller(), false);
    should(polling.command('read')).be.undefined();
    should(polling.command({ payload: 'stop' })).be.undefined();
    const none = new PollingLifecycle(undefined, false);
    should(none.command('stop')).be.undefined();
    none.begin();
    none.reconnected();
    none.active.should.be.false();
    none.close();
  });

  it('drives the real Poller: rounds run once begun, and it is stopped on close', async () => {
    let rounds = 0;
    let firstRound!: () => void;
    const ran = new Promise<void>((resolve) => (firstRound = resolve));
    const poller = new Poller(5, {
      round: async () => {
        rounds++;
        firstRound();
      },
      failed: () => undefined,
    });
    const polling = new PollingLifecycle(poller, false);
    polling.begin();
    polling.active.should.be.true();
    await ran;
    rounds.should.be.above(0);
    polling.close();
    polling.active.should.be.false();
  });
});
