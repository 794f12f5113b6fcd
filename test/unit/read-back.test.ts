/**
 * config-node/read-back.ts: what the read-backs after an outage (and the health check) conclude,
 * and which of them run: plain reads first, a read-back that sends only when none told.
 */
import 'should';
import { readBack, Readable, ReadBack } from '../../nodes/lib/config-node/read-back';
import { DeviceError } from '../../nodes/lib/base/errors';

/** A read-back that answers `shown` (or throws it) and counts its calls in `asked`. */
function setting(name: string, shown: ReadBack | DeviceError, asked: string[], sends = false): Readable {
  return {
    ...(sends ? { sends: true as const } : {}),
    inPlace: async () => {
      asked.push(name);
      if (shown instanceof DeviceError) throw shown;
      return shown;
    },
  };
}

describe('read-backs (config-node/read-back.ts)', () => {
  it('a read in place: kept, and nothing is sent', async () => {
    const asked: string[] = [];
    const verdict = await readBack([setting('out', true, asked, true), setting('pin', undefined, asked), setting('wd', true, asked)], true);
    verdict.should.eql({ kept: true, gone: false });
    asked.should.eql(['pin', 'wd']);
  });

  it('the first setting gone is the proof; later ones are not read', async () => {
    const asked: string[] = [];
    const verdict = await readBack([setting('pin', 'pin 3 reads as analog', asked), setting('wd', 'timeout 0', asked)], true);
    verdict.should.eql({ kept: false, gone: false, lost: 'pin 3 reads as analog' });
    asked.should.eql(['pin']);
  });

  it('when no read tells, one that sends does; not at all without writes', async () => {
    const asked: string[] = [];
    (await readBack([setting('thr', undefined, asked), setting('out', 'Power config missing', asked, true)], true)).should.eql({
      kept: false,
      gone: false,
      lost: 'Power config missing',
    });
    asked.should.eql(['thr', 'out']);
    const quiet: string[] = [];
    (await readBack([setting('out', 'Power config missing', quiet, true)], false)).should.eql({ kept: false, gone: false });
    quiet.should.eql([]);
  });

  it('a refused read tells nothing; one that meets an outage ends the reading', async () => {
    const asked: string[] = [];
    const refused = new DeviceError('refused', { code: 'DEVICE_ERROR', statusCode: 400 });
    const away = new DeviceError('unreachable', { code: 'UNREACHABLE' });
    (await readBack([setting('a', refused, asked), setting('b', away, asked), setting('c', 'gone', asked)], true)).should.eql({ kept: false, gone: true });
    asked.should.eql(['a', 'b']);
  });
});
