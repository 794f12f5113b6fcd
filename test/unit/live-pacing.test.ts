/**
 * The live sidebar's pacing, on a hand-driven clock: the token bucket never grants more
 * than rate × T + capacity reads over T, the leases hold a timer only while one is alive
 * and end the view when the last runs out, and the throttle publishes at most once per
 * interval, on the trailing edge.
 */
import should from 'should';
import { LIVE_BOUNDS } from '../../nodes/lib/pure/limits';
import { Leases } from '../../nodes/sidebar/runtime/leases';
import { Throttle } from '../../nodes/sidebar/runtime/throttle';
import { TokenBucket } from '../../nodes/sidebar/runtime/token-bucket';
import { handClock } from '../helpers/hand-clock';

describe('live sidebar pacing (hand clock)', function () {
  it('the token bucket grants at most rate × T + capacity over any T, and keeps the rate', function () {
    for (const rate of [1, 4, 20]) {
      let now = 0;
      const bucket = new TokenBucket(rate, LIVE_BOUNDS.bucketTokens, () => now);
      const taken: number[] = [];
      // A greedy reader: asks every millisecond of 60 s.
      for (; now <= 60_000; now += 1) if (bucket.take()) taken.push(now);
      for (const windowMs of [0, 250, 1000, 7000, 60_000]) {
        let most = 0;
        for (let i = 0, j = 0; i < taken.length; i++) {
          while (taken[i] - taken[j] > windowMs) j++;
          most = Math.max(most, i - j + 1);
        }
        should(most).be.belowOrEqual((rate * windowMs) / 1000 + LIVE_BOUNDS.bucketTokens, `rate ${rate}, window ${windowMs} ms`);
      }
      // Not slower than asked either: the full minute gets its reads.
      should(taken.length).be.aboveOrEqual(rate * 60);
    }
  });

  it('waitMs says when the next token is there', function () {
    let now = 0;
    const bucket = new TokenBucket(4, 1, () => now);
    bucket.take().should.be.true();
    bucket.take().should.be.false();
    bucket.waitMs().should.equal(250);
    now += 250;
    bucket.waitMs().should.equal(0);
    bucket.take().should.be.true();
  });

  it('a lease starts the view, holds one timer, and its expiry ends it with no timer left', function () {
    const clock = handClock();
    let now = 0;
    const changes: boolean[] = [];
    const leases = new Leases(
      { maxWatchers: 2, leaseMs: 1000 },
      (active) => changes.push(active),
      clock.later,
      () => now,
    );
    clock.pending().should.have.length(0);
    leases.renew('a').should.be.true();
    changes.should.eql([true]);
    clock.pending().should.have.length(1);
    // Renewed in time: still one timer, still on.
    now = 900;
    leases.renew('a').should.be.true();
    clock.pending().should.have.length(1);
    clock.fire();
    changes.should.eql([true]);
    // Not renewed: it runs out.
    now = 1900;
    clock.fire();
    changes.should.eql([true, false]);
    leases.size.should.equal(0);
    clock.pending().should.have.length(0);
  });

  it('watchers are bounded; ending the last lease stops the view at once', function () {
    const clock = handClock();
    const changes: boolean[] = [];
    const leases = new Leases(
      { maxWatchers: 2, leaseMs: 1000 },
      (active) => changes.push(active),
      clock.later,
      () => 0,
    );
    leases.renew('a').should.be.true();
    leases.renew('b').should.be.true();
    leases.renew('c').should.be.false();
    leases.renew('a').should.be.true('a watcher already in renews');
    leases.end('a');
    changes.should.eql([true]);
    leases.end('b');
    changes.should.eql([true, false]);
    clock.pending().should.have.length(0);
  });

  it('the throttle calls at most once per interval, with what came last', function () {
    const clock = handClock();
    let now = 0;
    let calls = 0;
    const throttle = new Throttle(
      500,
      () => calls++,
      clock.later,
      () => now,
    );
    throttle.poke();
    throttle.poke();
    throttle.poke();
    clock.pending().should.have.length(1);
    clock.fire();
    calls.should.equal(1);
    now = 100;
    throttle.poke();
    clock
      .pending()
      .map((p) => p.ms)
      .should.eql([400]);
    throttle.stop();
    clock.pending().should.have.length(0);
    clock.fire();
    calls.should.equal(1);
  });
});
