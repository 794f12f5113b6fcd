#!/usr/bin/env node
/**
 * modular-device-sim --port 8080 [--host 127.0.0.1] [--modules bmc:0,power:1,io:2,io:3] [--fan-delay 3000]
 */
import { Service, SERVICES } from '../nodes/lib/limits';
import { DEFAULT_FAN_APPLY_DELAY_MS, DEFAULT_MODULES, startSimulator } from './index';

const USAGE = `Usage: modular-device-sim [options]

A simulated modular device: io, bmc and power services (API 0.9) on one port, as nginx
presents them, plus the control API under /sim (see the README).

Options:
  --port <n>        TCP port (default 8080; 0 = any free port)
  --host <addr>     bind address (default 127.0.0.1)
  --modules <list>  modules by slot, e.g. bmc:0,power:1,io:2,io:3 (the default)
  --fan-delay <ms>  time the fan takes to reach a new mode, 0..10000 (default ${DEFAULT_FAN_APPLY_DELAY_MS})
  --help            show this text
`;

function fail(message: string): never {
  process.stderr.write(`modular-device-sim: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function integer(name: string, text: string | undefined): number {
  if (text === undefined || !/^\d+$/.test(text)) fail(`${name} needs a non-negative integer`);
  return Number(text);
}

function parseModules(text: string | undefined): Array<{ service: Service; slot: number }> {
  if (!text) fail('--modules needs a list like bmc:0,power:1,io:2');
  return text.split(',').map((item) => {
    const [service, slot] = item.split(':');
    if (!SERVICES.includes(service as Service)) fail(`unknown service "${service}" in --modules`);
    return { service: service as Service, slot: integer('--modules slot', slot) };
  });
}

async function main(argv: string[]): Promise<void> {
  let port = 8080;
  let host = '127.0.0.1';
  let modules = DEFAULT_MODULES.map((m) => ({ ...m }));
  let fanApplyDelayMs = DEFAULT_FAN_APPLY_DELAY_MS;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(USAGE);
      return;
    } else if (arg === '--port') port = integer('--port', argv[++i]);
    else if (arg === '--host') host = argv[++i] ?? fail('--host needs an address');
    else if (arg === '--modules') modules = parseModules(argv[++i]);
    else if (arg === '--fan-delay') fanApplyDelayMs = integer('--fan-delay', argv[++i]);
    else fail(`unknown option ${arg}`);
  }
  if (port > 65535) fail('--port must be at most 65535');

  let sim;
  try {
    sim = await startSimulator({ port, host, modules, fanApplyDelayMs });
  } catch (error) {
    fail((error as Error).message);
  }
  process.stdout.write(`modular-device-sim listening on ${sim.url}\n`);
  for (const m of [...modules].sort((a, b) => a.slot - b.slot)) {
    process.stdout.write(`  slot ${m.slot}: ${m.service}  ${sim.url}/api/${m.service}/0.9/${m.slot}/descriptor\n`);
  }
  const stop = (): void => {
    sim.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`modular-device-sim: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
