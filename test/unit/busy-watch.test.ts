/**
 * The process's one watch over busy dots (busy-watch.ts): one timer for every node, armed
 * only while some node has a msg in flight, so msgs that end in time cost no wakeup each.
 * On a hand clock: no assertion depends on how fast the machine is.
 */
import { BUSY_STATUS_DELAY_MS, BusyWatch } from '../../nodes/lib/action/busy-watch';
import { NodeStatusDot } from '../../nodes/lib/action/status-dot';
import type { NodeStatus } from '../../nodes/lib/base/node-red';
import { handClock } from '../helpers/hand-clock';

function dots(n: number) {
  const clock = handClock();
  const watch = new BusyWatch(clock);
  const calls: NodeStatus[][] = [];
  const list = Array.from({ length: n }, (_, i) => {
    calls.push([]);
    const dot = new NodeStatusDot((status) => calls[i].push(status), undefined, watch);
    dot.connectionIs({ state: 'connected', apiVersion: '1.0' });
    calls[i].length = 0;
    return dot;
  });
  return { clock, list, calls };
}

describe('BusyWatch', () => {
  it('ten nodes with a msg each in flight share one timer', () => {
    const { clock, list } = dots(10);
    for (const dot of list) dot.started('x...');
    clock.pending().should.have.length(1);
  });

  it('msgs of ten nodes at 10 Hz that end in time: one look per delay at most, none once all ended, no blue dot', () => {
    const { clock, list, calls } = dots(10);
    // 1 s of msgs: each node one every 100 ms, 10 ms apart from the next node's, 2 ms long.
    for (let ms = 0; ms < 1000; ms += 10) {
      const dot = list[(ms / 10) % 10];
      dot.started('x...');
      clock.advance(2);
      dot.finished();
      clock.advance(8);
    }
    const before = clock.pending().length;
    clock.advance(2 * BUSY_STATUS_DELAY_MS);
    clock.pending().should.have.length(0, 'the watch stops when nothing is in flight');
    before.should.be.belowOrEqual(1);
    for (const c of calls) c.should.eql([], 'no blue dot for msgs that ended in time');
  });

  it('counts its looks: a look per delay while msgs keep coming, not one per msg', () => {
    const clock = handClock();
    let armed = 0;
    const watch = new BusyWatch({ now: clock.now, later: (job, ms) => (armed++, clock.later(job, ms)) });
    const dot = new NodeStatusDot(() => {}, undefined, watch);
    dot.connectionIs({ state: 'connected', apiVersion: '1.0' });
    for (let i = 0; i < 100; i++) {
      dot.started('x...');
      clock.advance(1);
      dot.finished();
      clock.advance(9);
    }
    // 100 msgs in 1 s, 10 ms apart: a look per delay at most (ten), not 100.
    armed.should.be.belowOrEqual(1000 / BUSY_STATUS_DELAY_MS);
  });

  it('a slow msg of one node shows its blue dot; the others, ended in time, show none', () => {
    const { clock, list, calls } = dots(3);
    list[0].started('slow...');
    list[1].started('fast...');
    list[2].started('fast...');
    clock.advance(5);
    list[1].finished();
    list[2].finished();
    clock.advance(BUSY_STATUS_DELAY_MS);
    calls[0].should.eql([{ fill: 'blue', shape: 'dot', text: 'slow...' }]);
    calls[1].should.eql([]);
    calls[2].should.eql([]);
    clock.pending().should.have.length(0);
  });
});
