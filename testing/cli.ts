#!/usr/bin/env node
/**
 * modular-device-test flows.json scenario.yaml [--api 0.9|1.0] [--credentials flows_cred.json --secret s] [--node-red dir] [--replay session.json]
 * Runs a scenario against a flow on the simulator; prints a report; exit 0 when every step
 * held, 1 when one failed, 2 for bad input (named, no stack).
 */
import { KitError } from './errors';
import { formatReport, runScenario, shutdown } from './run';

const USAGE = `Usage: modular-device-test <flows.json> <scenario.yaml|.json> [options]

Runs your flows in Node-RED (from your project) against the modular device simulator and
walks the scenario's timeline of device events and expectations.

Options:
  --api <version>        0.9 or 1.0 (default: the scenario's api, else 0.9)
  --credentials <file>   flows_cred.json (plain, or encrypted: give --secret)
  --secret <secret>      the credentialSecret of your settings.js
  --node-red <dir>       the node-red package to run (default: the one your project installed)
  --replay <file>        a recording (modular-device-sim record) as the device, not the simulator
  --help                 show this text
`;

async function main(argv: string[]): Promise<number> {
  const files: string[] = [];
  const opts: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') return (process.stdout.write(USAGE), 0);
    if (['--api', '--credentials', '--secret', '--node-red', '--replay'].includes(arg)) {
      const value = argv[++i];
      if (value === undefined || value.startsWith('--')) throw new KitError(`${arg} needs a value`);
      opts[arg.slice(2)] = value;
    } else if (arg.startsWith('--')) throw new KitError(`unknown option ${arg}`);
    else files.push(arg);
  }
  if (files.length !== 2) throw new KitError(`give a flows file and a scenario file (got ${files.length} file${files.length === 1 ? '' : 's'})`);
  if (opts.api !== undefined && opts.api !== '0.9' && opts.api !== '1.0') throw new KitError('--api must be 0.9 or 1.0');
  const report = await runScenario({
    flows: files[0],
    scenario: files[1],
    api: opts.api as '0.9' | '1.0' | undefined,
    credentials: opts.credentials,
    credentialSecret: opts.secret,
    nodeRed: opts['node-red'],
    replay: opts.replay,
  });
  process.stdout.write(`${formatReport(report)}\n`);
  return report.ok ? 0 : 1;
}

main(process.argv.slice(2)).then(
  async (code) => {
    await shutdown();
    process.exit(code);
  },
  (error) => {
    const known = error instanceof KitError;
    process.stderr.write(
      `modular-device-test: ${known ? error.message : `unexpected error: ${(error as Error)?.message ?? error}`}\n${known ? '' : '(a bug: please report it with the files)\n'}`,
    );
    if (known && /give a flows file|needs a value|unknown option|must be 0.9/.test(error.message)) process.stderr.write(`\n${USAGE}`);
    process.exit(2);
  },
);
