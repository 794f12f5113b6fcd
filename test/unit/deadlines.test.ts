/**
 * The one timer over exchange deadlines (nodes/lib/device/deadlines.ts): each watched
 * exchange whose deadline comes is expired once, in deadline order; one that ended first
 * (unwatched) never is; a deadline earlier than the timer's aim re-aims it.
 */
import 'should';
import { Deadlines, Expiring } from '../../nodes/lib/device/deadlines';

/** Logs its name when expired, with `early` when that came before its deadline. */
function expiring(inMs: number, log: string[], name: string): Expiring {
  const deadline = performance.now() + inMs;
  return { deadline, expire: () => log.push(performance.now() >= deadline ? name : `${name} early`) };
}

const until = async (done: () => boolean) => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('Deadlines: one timer over the exchanges on the wire', () => {
  it('expires each watched one once, earliest first; an unwatched one never', async () => {
    const d = new Deadlines();
    const log: string[] = [];
    const late = expiring(60, log, 'late');
    const ended = expiring(20, log, 'ended');
    const first = expiring(10, log, 'first');
    d.watch(late);
    d.watch(ended);
    d.watch(first); // earlier than the aim: the timer is aimed again
    d.unwatch(ended);
    await until(() => log.length === 2);
    log.should.eql(['first', 'late']);
    await new Promise((r) => setTimeout(r, 30));
    log.should.eql(['first', 'late'], 'nothing expires twice');
  });

  it('a watch that comes after the timer is aimed earlier waits for its own deadline', async () => {
    const d = new Deadlines();
    const log: string[] = [];
    d.watch(expiring(5, log, 'a'));
    const b = expiring(40, log, 'b');
    d.watch(b);
    await until(() => log.length === 2);
    log.should.eql(['a', 'b'], 'b at its own deadline, not with a');
  });

  it('takes out the first, a middle and the last alike, twice without harm, and expires the rest', async () => {
    const d = new Deadlines();
    const log: string[] = [];
    const all = ['a', 'b', 'c', 'd', 'e'].map((name, k) => expiring(10 + k, log, name));
    for (const e of all) d.watch(e);
    for (const k of [0, 2, 4, 2]) d.unwatch(all[k]); // first, middle, last, and the middle again
    await until(() => log.length === 2);
    log.should.eql(['b', 'd']);
    d.unwatch(all[1]); // it expired: already out
    const again = expiring(5, log, 'again');
    d.watch(again); // the watch is empty and works on
    await until(() => log.length === 3);
    log.should.eql(['b', 'd', 'again']);
  });
});
