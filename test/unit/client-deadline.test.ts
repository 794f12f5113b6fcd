/**
 * A msg's timeout bounds its whole life, DeviceClient against the simulator over
 * loopback (0.9 and 1.0). Causal checks only, read from the simulator's request log: what
 * reached the device, and what each request ended with; no time is asserted.
 */
import should from 'should';
import { DeviceClient } from '../../nodes/lib/device/client';
import { DeviceError, mayHaveReachedDevice } from '../../nodes/lib/base/errors';
import { perform } from '../../nodes/lib/action/operation';
import { readOperation } from '../../nodes/lib/action/readings';
import { ChangeFilter } from '../../nodes/lib/action/change';
import { SimHarness, Simulator, startSimulator } from '../helpers/sim-control';
import { inLanguage, speak } from '../helpers/i18n';

const TIMEOUT_MS = 300;

async function failure(p: Promise<unknown>): Promise<DeviceError> {
  const outcome = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  should(outcome).be.instanceOf(DeviceError, 'it should have failed');
  return outcome as DeviceError;
}

for (const api of ['0.9', '1.0'] as const) {
  describe(`DeviceClient deadlines against a ${api} simulator (loopback)`, function () {
    let sim: Simulator;
    let ctl: SimHarness;
    let client: DeviceClient;
    const root = `/api/io/${api}/2`;
    before(async () => {
      await speak();
      sim = await startSimulator({ port: 0, api });
      ctl = new SimHarness(sim);
    });
    after(async () => {
      await sim.close();
    });
    beforeEach(async () => {
      client = new DeviceClient({ url: sim.url, service: 'io', slot: 2, apiVersion: api, timeout: TIMEOUT_MS });
      // The version is fixed; one read first so that nothing below waits for the descriptor.
      await client.request({ method: 'GET', endpoint: ['input', 'values'] });
      await ctl.clearFaults();
      await ctl.clearLog();
    });
    afterEach(async () => {
      await client.close();
      await ctl.clearFaults();
    });

    const sentTo = async (fragment: string) => (await ctl.wireLog()).filter((e) => e.path.includes(fragment));

    it('a module that does not answer: the request times out, the msgs waiting behind it end at once, unsent', async () => {
      await ctl.fault({ path: `${root}/input/values`, hang: true });
      const first = client.request({ method: 'GET', endpoint: ['input', 'values'] });
      // Msgs that came later than the first (their deadlines after its own).
      const later = client.deadline(TIMEOUT_MS);
      const behind = [1, 2, 3].map((pin) => client.request({ method: 'POST', endpoint: ['input', 'mode'], body: { pin, mode: 'digital' } }, 'ordered', later));
      const timedOut = await failure(first);
      timedOut.code.should.equal('TIMEOUT');
      for (const p of behind) {
        const error = await failure(p);
        error.code.should.equal('NOT_SENT');
        error.name.should.equal('NotSentError');
        error.message.should.equal(`the device did not answer: 3 msgs not sent (GET ${root}/input/values got no answer in time)`);
        mayHaveReachedDevice(error).should.be.false();
      }
      (await sentTo('/input/mode')).should.have.length(0, 'nothing of the msgs behind reached the device');
      // Said in the runtime's language too.
      await speak(inLanguage('de'));
      // A msg whose time is already up (deadline 0) is refused before anything is sent.
      const german = await failure(client.request({ method: 'POST', endpoint: ['input', 'mode'], body: { pin: 1, mode: 'analog' } }, 'ordered', 0));
      await speak();
      german.code.should.equal('NOT_SENT');
      german.message.should.equal(`nicht gesendet: das Timeout der msg von ${TIMEOUT_MS} ms war verstrichen, bevor die Anfrage an der Reihe war`);
      (await sentTo('/input/mode')).should.have.length(0);
      // The queue goes on: the next msg is sent (and answered once the device is back).
      await ctl.clearFaults();
      should((await client.request({ method: 'POST', endpoint: ['input', 'mode'], body: { pin: 1, mode: 'analog' } })).data).have.property('status', 'success');
    });

    it('a request that had only the rest of its time (it waited) and got no answer does not end the msgs behind it: it says little of the module', async () => {
      const patient = new DeviceClient({ url: sim.url, service: 'io', slot: 2, apiVersion: api, timeout: 1000 });
      try {
        // The first answers after 60 % of the timeout; the second, which arrived with it, has the rest and meets a hang.
        await ctl.fault({ path: `${root}/input/values`, latency_ms: 600, count: 1 });
        await ctl.fault({ path: `${root}/input/mode`, hang: true, count: 1 });
        const first = patient.request({ method: 'GET', endpoint: ['input', 'values'] });
        const second = patient.request({ method: 'POST', endpoint: ['input', 'mode'], body: { pin: 1, mode: 'digital' } });
        const third = patient.request<{ pins: unknown[] }>({ method: 'GET', endpoint: ['input', 'values'] }, 'ordered', patient.deadline(1000));
        await first;
        const timedOut = await failure(second);
        timedOut.code.should.equal('TIMEOUT');
        timedOut.message.should.match(/within 1000 ms \(the msg's timeout; \d+ ms of it were left for this request\)/);
        (await third).data.pins.should.have.length(6, 'the msg behind was sent and answered');
      } finally {
        await patient.close();
      }
    });

    it('a conversation of several requests shares one deadline: it stops at its first timeout, the rest is never sent', async () => {
      // Each record takes 60 % of the timeout: the second cannot finish within the msg's time.
      const endpoints = [
        ['input', 'values'],
        ['input', 'values', 'current'],
        ['input', 'mode'],
      ];
      await ctl.fault({ path: `${root}/input/values`, latency_ms: Math.round(TIMEOUT_MS * 0.6) });
      const op = readOperation({ endpoints, interval: 0, onlyOnChange: false, perValue: false, filter: new ChangeFilter(0) });
      const error = await failure(perform(client, op));
      error.code.should.equal('TIMEOUT');
      error.message.should.match(new RegExp(`within ${TIMEOUT_MS} ms`));
      (await sentTo('/input/mode')).should.have.length(0, 'the third record was never asked for');
    });

    if (api === '1.0') {
      it('a notification round (one request per pin) stops at its first timeout: later pins unsent, so nothing of theirs is lost', async () => {
        await ctl.fault({ path: `${root}/notification/3`, hang: true });
        const { data } = await client.request<{ notification: Array<{ pin: number }>; unread: Array<{ pin: number; error: DeviceError }> }>({
          method: 'GET',
          endpoint: ['notification'],
        });
        data.notification.map((r) => r.pin).should.eql([1, 2]);
        data.unread
          .map((u) => [u.pin, u.error.code])
          .should.eql([
            [3, 'TIMEOUT'],
            [4, 'NOT_SENT'],
            [5, 'NOT_SENT'],
            [6, 'NOT_SENT'],
          ]);
        // Only pin 3's read may have cleared flags unseen: it alone is announced as lost.
        data.unread
          .filter((u) => mayHaveReachedDevice(u.error))
          .map((u) => u.pin)
          .should.eql([3]);
        (await sentTo('/notification/')).map((e) => e.path.split('/').pop()).should.eql(['1', '2', '3']);
      });
    }
  });
}
