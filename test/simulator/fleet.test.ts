import 'should';
import { spawn } from 'child_process';
import path from 'path';
import { startFleet, startSimulator } from '../../simulator';
import type { Fleet } from '../../simulator';
import { request } from '../helpers/http';

const DESCRIPTOR = '/api/io/0.9/2/descriptor';

describe('simulator fleet (startFleet, --devices)', function () {
  let fleet: Fleet;
  before(async function () {
    fleet = await startFleet({ devices: 3, namePrefix: 'cell' });
  });
  after(async function () {
    await fleet?.close();
  });

  it('serves each device on its own port with its own name and serials', async function () {
    fleet.devices.map((d) => d.name).should.eql(['cell-01', 'cell-02', 'cell-03']);
    new Set(fleet.devices.map((d) => d.port)).size.should.equal(3);
    const serials = await Promise.all(fleet.devices.map(async (d) => (await request(d.url, 'GET', DESCRIPTOR)).body.serial_code));
    serials.should.eql(['CELL-01-IO-0002', 'CELL-02-IO-0002', 'CELL-03-IO-0002']);
    (await request(fleet.devices[1].url, 'GET', '/sim/state')).body.name.should.equal('cell-02');
    fleet.device('cell-03')!.should.equal(fleet.devices[2]);
  });

  it('injects a fault into one device through its control API; the others answer as before', async function () {
    const [a, b] = fleet.devices;
    const rule = await request(a.url, 'POST', '/sim/faults', { path: DESCRIPTOR, status: 503 });
    rule.status.should.equal(200, rule.text);
    (await request(a.url, 'GET', DESCRIPTOR)).status.should.equal(503);
    (await request(b.url, 'GET', DESCRIPTOR)).status.should.equal(200);
    b.log
      .entries()
      .every((e) => e.status === 200)
      .should.be.true();
    await request(a.url, 'DELETE', '/sim/faults');
  });

  it('stops one device (unreachable) while the others run, and brings it back on the same port', async function () {
    const [a, b] = fleet.devices;
    await a.pause();
    const down = await request(a.url, 'GET', DESCRIPTOR, undefined, { agent: false }).then(
      () => 'answered',
      (e: NodeJS.ErrnoException) => String(e.code),
    );
    down.should.equal('ECONNREFUSED');
    (await request(b.url, 'GET', DESCRIPTOR)).status.should.equal(200);
    await a.resume();
    (await request(a.url, 'GET', DESCRIPTOR)).status.should.equal(200);
  });

  it('refuses a bad size or name prefix, and a device alone keeps its SIM- serials', async function () {
    await startFleet({ devices: 0 }).should.be.rejectedWith(/devices must be an integer from 1 to 500, got 0/);
    await startFleet({ devices: 2, namePrefix: 'a/b' }).should.be.rejectedWith(/name must be 1 to 64 letters/);
    const one = await startSimulator();
    try {
      (await request(one.url, 'GET', DESCRIPTOR)).body.serial_code.should.equal('SIM-IO-0002');
    } finally {
      await one.close();
    }
  });

  it('the CLI starts a fleet with --devices and names each device with its URL', async function () {
    const cli = spawn(process.execPath, [path.join(__dirname, '../../simulator/cli.js'), '--port', '0', '--devices', '2'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    try {
      await new Promise<void>((resolve, reject) => {
        cli.stdout.on('data', (chunk: Buffer) => {
          out += chunk;
          if (out.split('\n').length > 2) resolve();
        });
        cli.once('exit', (code) => reject(new Error(`CLI exited with ${code}: ${out}`)));
      });
    } finally {
      cli.kill('SIGTERM');
    }
    const lines = out.trim().split('\n');
    lines[0].should.match(/^sim-01 http:\/\/127\.0\.0\.1:\d+ \(API 0\.9\), control http:\/\/127\.0\.0\.1:\d+\/sim$/);
    lines[1].should.match(/^sim-02 /);
  });
});
