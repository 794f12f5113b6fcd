import http from 'http';
import net from 'net';
import { spawn } from 'child_process';
import path from 'path';
import { startSimulator } from '../../simulator';
import { httpClient, request } from '../helpers/http';
import assert from 'assert';
import { shouldFail, useSimulator } from './setup';

const VALUES = '/api/io/0.9/2/input/values';

function rawExchange(port: number, data: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(data));
    let text = '';
    socket.on('data', (c) => (text += c.toString()));
    socket.on('close', () => resolve(text));
    socket.on('error', () => resolve(text));
  });
}

describe('simulator server', function () {
  const f = useSimulator();

  describe('version record and descriptor (all services)', function () {
    it("lists only that service's slots, api 0.9.0", async function () {
      const res = await f.api.get('/api/io/0.9');
      res.status.should.equal(200);
      String(res.headers['content-type']).should.match(/^application\/json/);
      res.body.should.have.only.keys('version', 'devices');
      res.body.version.should.have.only.keys('api', 'service', 'module_driver', 'kernel_driver');
      res.body.version.api.should.eql({ major: 0, minor: 9, patch: 0 });
      res.body.devices.map((d: { slot_number: number }) => d.slot_number).should.eql([2, 3]);
      res.body.devices[0].sdbp_version.should.have.only.keys('major', 'minor', 'patch');
      shouldFail(await f.api.get('/api/io/1.0'), 400, 'Version not compatible');
      shouldFail(await f.api.get('/api/io/0.9.0'), 404, 'Not Found');
      shouldFail(await f.api.post('/api/io/0.9', {}), 404);
    });
    it('descriptor has every spec field, only at <ver>/<slot>/descriptor', async function () {
      const d = (await f.api.get('/api/io/0.9/3/descriptor')).body;
      d.should.have.only.keys(
        'slot_number',
        'vendor_product_id',
        'product_name',
        'vendor_name',
        'serial_code',
        'fw_version',
        'hw_version',
        'protocol_version',
        'bootloader_state',
        'max_frame_size',
        'max_power_12v',
        'max_power_5v0',
        'max_power_3v3',
        'max_sclk_speed',
      );
      d.slot_number.should.equal(3);
      d.serial_code.should.equal('SIM-IO-0003');
      d.fw_version.should.have.only.keys('stability', 'version');
      d.max_power_12v.should.be.above(0);
      shouldFail(await f.api.get('/api/io/0.9/descriptor'), 404, 'Not Found');
      shouldFail(await f.api.get('/api/io/0.9/0/descriptor'), 404, 'Could not find device on this slot');
      shouldFail(await f.api.get('/api/io/1.1/3/descriptor'), 400, 'Version not compatible');
      (await f.api.get('/api/bmc/0.9/0/descriptor')).body.product_name.should.equal('Base Management Controller');
    });
  });

  describe('paths', function () {
    it('ignores empty segments and query strings; accepts leading zeros in the version', async function () {
      (await f.api.get('/api/io/0.9/2/input/values/')).status.should.equal(200);
      (await f.api.get('/api//io/0.9/2//input/values?pin=1')).status.should.equal(200);
      (await f.api.get('/api/io/00.09/2/input/values')).status.should.equal(200);
    });
    it('404 for unknown paths, services, methods and bad segments', async function () {
      shouldFail(await f.api.get('/'), 404, 'Not Found');
      shouldFail(await f.api.get('/api/disk/0.9'), 404);
      shouldFail(await f.api.get('/api/io/v0.9/2/input/values'), 404);
      shouldFail(await f.api.get('/api/io/0.9/abc/input/values'), 404);
      shouldFail(await f.api.get('/api/io/0.9/65536/input/values'), 404);
      shouldFail(await f.api.request('PUT', VALUES, {}), 404);
      shouldFail(await f.api.request('DELETE', VALUES), 404);
      shouldFail(await f.api.post(VALUES, {}), 404);
      shouldFail(await f.api.get('/api/io/0.9/65535/input/values'), 404, 'Slot not found');
    });
    it('HEAD on a GET route answers the headers only', async function () {
      const res = await f.api.request('HEAD', VALUES);
      res.status.should.equal(200);
      res.text.should.equal('');
    });
    it('checks in order: body before version, version before range, range before slot', async function () {
      shouldFail(await f.api.post('/api/io/1.0/9/input/mode', undefined, { raw: '{' }), 400, 'Bad Request');
      shouldFail(await f.api.post('/api/io/1.0/9/input/mode', { pin: '1', mode: 'x' }), 422);
      shouldFail(await f.api.post('/api/io/1.0/9/input/mode', { pin: 9, mode: 'x' }), 400, 'Version not compatible');
      shouldFail(await f.api.post('/api/io/0.9/9/input/mode', { pin: 9, mode: 'analog' }), 400, 'Invalid pin: 9 (allowed: 1..6)');
      shouldFail(await f.api.post('/api/io/0.9/9/input/mode', { pin: 1, mode: 'analog' }), 404, 'Slot not found');
    });
  });

  describe('bad input never crashes it', function () {
    it('a body over 1 MiB gets 413, and the server keeps serving on the same connection', async function () {
      const big = JSON.stringify({ pin: 1, mode: 'x'.repeat(1024 * 1024 + 10) });
      shouldFail(await f.api.post('/api/io/0.9/2/input/mode', undefined, { raw: big }), 413, 'Payload Too Large');
      (await f.api.get(VALUES)).status.should.equal(200);
    });
    it('garbage bodies, wrong content types, JSON that is not an object', async function () {
      shouldFail(await f.api.post('/api/io/0.9/2/input/mode', undefined, { raw: Buffer.from([0xff, 0xfe, 0x00, 0x01]) }), 400);
      shouldFail(await f.api.post('/api/io/0.9/2/input/mode', undefined, { raw: 'null' }), 422);
      shouldFail(await f.api.post('/api/io/0.9/2/input/mode', undefined, { raw: '"text"' }), 422);
      shouldFail(await f.api.post('/api/io/0.9/2/input/mode', undefined, { raw: '{"pin":1,"mode":"analog"} trailing' }), 400);
      const res = await f.api.post('/api/io/0.9/2/input/mode', undefined, {
        raw: '{"pin":1,"mode":"digital"}',
        headers: { 'Content-Type': 'text/plain' },
      });
      res.status.should.equal(200); // like the released services, Content-Type is not checked
    });
    it('garbage that is not HTTP, and a chunked body', async function () {
      const answer = await rawExchange(f.sim.port, 'GARBAGE \x00\x01\r\n\r\n');
      answer.should.match(/^HTTP\/1\.1 400/);
      const chunked = await rawExchange(
        f.sim.port,
        'POST /api/io/0.9/2/input/mode HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n' +
          '1a\r\n{"pin":2,"mode":"digital"}\r\n0\r\n\r\n',
      );
      chunked.should.match(/^HTTP\/1\.1 200/);
      (await f.api.get(VALUES)).body.pins[1].pin_type.should.equal('digital_input');
    });
  });

  describe('lifecycle', function () {
    it('close() resolves promptly with keep-alive clients connected', async function () {
      const sim = await startSimulator();
      const agent = new http.Agent({ keepAlive: true });
      const api = httpClient(sim.url);
      await Promise.all([1, 2, 3].map(() => api.get(VALUES, { agent })));
      const start = Date.now();
      await sim.close();
      (Date.now() - start).should.be.below(2000);
      await api.get(VALUES, { agent: false }).should.be.rejected();
      agent.destroy();
    });
    it('pause() makes the device unreachable with state kept; resume() listens again on the same port', async function () {
      (await f.api.post('/sim/io/2/pins/4', { voltage_mV: 4321 })).status.should.equal(200);
      const port = f.sim.port;
      await f.sim.pause();
      await request(f.sim.url, 'GET', VALUES, undefined, { agent: false }).should.be.rejectedWith({ code: 'ECONNREFUSED' });
      await f.sim.resume();
      f.sim.port.should.equal(port);
      // A fresh connection: pooled keep-alive sockets were dropped by pause(), as a real outage would.
      (await f.api.get(VALUES, { agent: false })).body.pins[3].value.should.equal(4321);
    });
    it('startSimulator refuses bad options', async function () {
      await startSimulator({
        modules: [
          { service: 'io', slot: 1 },
          { service: 'bmc', slot: 1 },
        ],
      }).should.be.rejectedWith(/slot 1 holds two modules/);
      await startSimulator({ fanApplyDelayMs: 20000 }).should.be.rejectedWith(/fan apply delay/);
      await startSimulator({ rebootMs: -1 }).should.be.rejectedWith(/reboot time must be an integer from 0 to 600000 ms, got -1/);
    });
    it('custom modules: the version record follows them', async function () {
      const sim = await startSimulator({ modules: [{ service: 'io', slot: 5 }] });
      try {
        const api = httpClient(sim.url);
        (await api.get('/api/io/0.9')).body.devices.should.eql([{ slot_number: 5, sdbp_version: { major: 1, minor: 0, patch: 0 } }]);
        (await api.get('/api/bmc/0.9')).body.devices.should.eql([]);
        shouldFail(await api.get('/api/io/0.9/2/input/values'), 404, 'Slot not found');
      } finally {
        await sim.close();
      }
    });
  });

  describe('CLI', function () {
    it('prints the URL and modules, serves, and exits 0 on SIGTERM', async function () {
      const cli = path.join(__dirname, '..', '..', 'simulator', 'cli.js');
      const child = spawn(process.execPath, [cli, '--port', '0', '--modules', 'bmc:0,io:4', '--fan-delay', '100']);
      let out = '';
      child.stdout.on('data', (c) => (out += c.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      try {
        for (let i = 0; i < 100 && !/slot 4/.test(out); i++) await new Promise((r) => setTimeout(r, 50));
        const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
        assert.ok(url, `no URL in: ${out}`);
        out.should.match(/slot 0: bmc/);
        (await request(url!, 'GET', '/api/io/0.9', undefined, { agent: false })).body.devices[0].slot_number.should.equal(4);
        // A real board takes seconds to boot: the CLI's default, unlike startSimulator's 0.
        (await request(url!, 'GET', '/sim/config', undefined, { agent: false })).body.reboot_ms.should.equal(3000);
      } finally {
        child.kill('SIGTERM');
      }
      assert.strictEqual(await exited, 0);
    });
    it('--help prints usage; a bad option exits 2', async function () {
      const cli = path.join(__dirname, '..', '..', 'simulator', 'cli.js');
      const run = (args: string[]) =>
        new Promise<{ code: number | null; out: string }>((resolve) => {
          const child = spawn(process.execPath, [cli, ...args]);
          let out = '';
          child.stdout.on('data', (c) => (out += c.toString()));
          child.stderr.on('data', (c) => (out += c.toString()));
          child.on('exit', (code) => resolve({ code, out }));
        });
      const help = await run(['--help']);
      help.code!.should.equal(0);
      help.out.should.match(/Usage: modular-device-sim/);
      (await run(['--bogus'])).code!.should.equal(2);
      (await run(['--modules', 'disk:1'])).code!.should.equal(2);
      (await run(['--reboot-ms', '600001'])).code!.should.equal(2);
    });
  });
});
