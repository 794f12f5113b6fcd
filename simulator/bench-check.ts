/**
 * Measures GET input/values per second over keep-alive against a simulator running in its
 * own process (one core for the server, the client in this process), and prints the figure.
 *   node dist/simulator/bench-check.js [seconds=3] [concurrency=32]
 * No assertion: a figure for humans and CI logs, never a flaky test.
 */
import { spawn } from 'child_process';
import http from 'http';
import path from 'path';

const PATH = '/api/io/0.9/2/input/values';

function getOnce(agent: http.Agent, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: PATH, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 3);
  const concurrency = Number(process.argv[3] ?? 32);
  const child = spawn(process.execPath, [path.join(__dirname, 'cli.js'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c) => {
        out += c.toString();
        const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      child.on('exit', () => reject(new Error('simulator exited')));
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
    let done = 0;
    let failed = 0;
    const warmEnd = Date.now() + 300;
    while (Date.now() < warmEnd) await getOnce(agent, port);
    const start = Date.now();
    const end = start + seconds * 1000;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (Date.now() < end) {
          if ((await getOnce(agent, port)) === 200) done++;
          else failed++;
        }
      }),
    );
    const elapsed = (Date.now() - start) / 1000;
    agent.destroy();
    process.stdout.write(
      `GET ${PATH}: ${Math.round(done / elapsed)} req/s over keep-alive (${done} ok, ${failed} not 200, ${concurrency} concurrent, ${elapsed.toFixed(1)} s)\n`,
    );
  } finally {
    child.kill('SIGTERM');
  }
}

main().catch((error) => {
  process.stderr.write(`bench-check: ${(error as Error).message}\n`);
  process.exit(1);
});
