#!/usr/bin/env node
/**
 * modular-device-sim --port 8080 [--host 127.0.0.1] [--api 0.9|1.0] [--modules bmc:0,power:1,io:2,io:3] [--fan-delay 3000] [--reboot-ms 3000]
 *   [--tls-key key.pem --tls-cert cert.pem] [--user name --password pw | --token t]
 *   [--nginx] [--keepalive-timeout ms] [--keepalive-requests n] [--keepalive-header s]
 *   [--devices n [--name-prefix sim]]
 */
import fs from 'fs';
import { Service, SERVICES } from './facts';
import { recordMain, replayMain, SESSION_USAGE } from './cli-session';
import { DEFAULT_FAN_APPLY_DELAY_MS, DEFAULT_MODULES, DEFAULT_REBOOT_MS, NGINX_DEFAULTS, NginxOptions, startSimulator } from './';
import { FLEET_MAX_DEVICES, startFleet } from './fleet';

const USAGE = `Usage: modular-device-sim [options]

A simulated modular device: io, bmc and power services (API 0.9 or 1.0) on one port, as nginx
presents them, plus the control API under /sim (see the README).

Options:
  --port <n>        TCP port (default 8080; 0 = any free port)
  --host <addr>     bind address (default 127.0.0.1)
  --api <version>   0.9 (the spec, default) or 1.0 (the released services)
  --modules <list>  modules by slot, e.g. bmc:0,power:1,io:2,io:3 (the default)
  --fan-delay <ms>  time the fan takes to reach a new mode, 0..10000 (default ${DEFAULT_FAN_APPLY_DELAY_MS})
  --reboot-ms <ms>  how long a hard reset or an expired watchdog keeps the device down,
                    refusing connections, 0..600000 (default ${DEFAULT_REBOOT_MS}; 0 = back at once)
  --tls-key <file>  serve HTTPS with this PEM private key (needs --tls-cert)
  --tls-cert <file> ... and this PEM certificate (needs --tls-key)
  --user <name>     require Basic auth with this user name (needs --password)
  --password <pw>   ... and this password (needs --user)
  --token <token>   require 'Authorization: Bearer <token>' instead
                    (auth applies to every /api request but the version roots)
  --nginx           behave like the device's nginx: its keep-alive handling below, and
                    with auth only /api/<svc>/<ver> public and nginx's 401 page
  --keepalive-timeout <ms>   close idle kept-alive connections after this (default
                    ${NGINX_DEFAULTS.keepAliveTimeoutMs}; 0 = no keep-alive); implies --nginx
  --keepalive-requests <n>   the nth answer on a connection closes it (default
                    ${NGINX_DEFAULTS.keepAliveRequests}); implies --nginx
  --keepalive-header <s>     announce 'Keep-Alive: timeout=<s>' (default: none); implies --nginx
  --devices <n>     a fleet: n devices, 1..${FLEET_MAX_DEVICES}, device i on port <port>+i (each with
                    its own name, serials and /sim control API; --port 0 = any free ports)
  --name-prefix <s> fleet devices are named <s>-01, <s>-02, ... (default sim)
  --help            show this text

Also: modular-device-sim record --target <url> --out <file>   (record a session)
      modular-device-sim replay <file>                        (serve a recording)
      modular-device-sim record --help                        (their options)
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
  if (argv[0] === 'record' || argv[0] === 'replay') {
    if (argv.includes('--help')) return void process.stdout.write(SESSION_USAGE);
    return argv[0] === 'record' ? recordMain(argv.slice(1)) : replayMain(argv.slice(1));
  }
  let port = 8080;
  let host = '127.0.0.1';
  let modules = DEFAULT_MODULES.map((m) => ({ ...m }));
  let fanApplyDelayMs = DEFAULT_FAN_APPLY_DELAY_MS;
  // A real board takes seconds to boot; startSimulator's default (0) is the tests'.
  let rebootMs = DEFAULT_REBOOT_MS;
  let api: '0.9' | '1.0' = '0.9';
  let nginx: NginxOptions | undefined;
  let devices = 0;
  let namePrefix = 'sim';
  const secure: Record<'tlsKey' | 'tlsCert' | 'user' | 'password' | 'token', string | undefined> = {
    tlsKey: undefined,
    tlsCert: undefined,
    user: undefined,
    password: undefined,
    token: undefined,
  };
  const value = (name: string, text: string | undefined): string => (text === undefined || text === '' ? fail(`${name} needs a value`) : text);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(USAGE);
      return;
    } else if (arg === '--port') port = integer('--port', argv[++i]);
    else if (arg === '--host') host = argv[++i] ?? fail('--host needs an address');
    else if (arg === '--modules') modules = parseModules(argv[++i]);
    else if (arg === '--api') {
      const value = argv[++i];
      if (value !== '0.9' && value !== '1.0') fail('--api must be 0.9 or 1.0');
      api = value;
    } else if (arg === '--fan-delay') fanApplyDelayMs = integer('--fan-delay', argv[++i]);
    else if (arg === '--reboot-ms') rebootMs = integer('--reboot-ms', argv[++i]);
    else if (arg === '--tls-key') secure.tlsKey = value(arg, argv[++i]);
    else if (arg === '--tls-cert') secure.tlsCert = value(arg, argv[++i]);
    else if (arg === '--user') secure.user = value(arg, argv[++i]);
    else if (arg === '--password') secure.password = value(arg, argv[++i]);
    else if (arg === '--token') secure.token = value(arg, argv[++i]);
    else if (arg === '--nginx') nginx ??= {};
    else if (arg === '--keepalive-timeout') nginx = { ...nginx, keepAliveTimeoutMs: integer(arg, argv[++i]) };
    else if (arg === '--keepalive-requests') nginx = { ...nginx, keepAliveRequests: integer(arg, argv[++i]) };
    else if (arg === '--keepalive-header') nginx = { ...nginx, keepAliveHeaderS: integer(arg, argv[++i]) };
    else if (arg === '--devices') devices = integer(arg, argv[++i]);
    else if (arg === '--name-prefix') namePrefix = value(arg, argv[++i]);
    else fail(`unknown option ${arg}`);
  }
  if (port > 65535) fail('--port must be at most 65535');
  if (!secure.tlsKey !== !secure.tlsCert) fail('--tls-key and --tls-cert go together');
  if (!secure.user !== !secure.password) fail('--user and --password go together');
  if (secure.token && secure.user) fail('give --token or --user/--password, not both');
  let tls: { key: Buffer; cert: Buffer } | undefined;
  try {
    if (secure.tlsKey && secure.tlsCert) tls = { key: fs.readFileSync(secure.tlsKey), cert: fs.readFileSync(secure.tlsCert) };
  } catch (error) {
    fail(`cannot read the TLS files: ${(error as Error).message}`);
  }
  const auth = secure.token ? { token: secure.token } : secure.user && secure.password ? { username: secure.user, password: secure.password } : undefined;

  const common = { host, modules, fanApplyDelayMs, rebootMs, api, tls, auth, nginx };
  let sim: { close(): Promise<void> };
  try {
    if (devices) {
      const fleet = await startFleet({ ...common, devices, basePort: port, namePrefix });
      for (const d of fleet.devices) process.stdout.write(`${d.name} ${d.url} (API ${api}${nginx ? ', behind nginx' : ''}), control ${d.url}/sim\n`);
      sim = fleet;
    } else {
      const one = await startSimulator({ ...common, port });
      process.stdout.write(`modular-device-sim listening on ${one.url} (API ${api}${nginx ? ', behind nginx' : ''})\n`);
      for (const m of [...modules].sort((a, b) => a.slot - b.slot)) {
        process.stdout.write(`  slot ${m.slot}: ${m.service}  ${one.url}/api/${m.service}/${api}/${m.slot}/descriptor\n`);
      }
      sim = one;
    }
  } catch (error) {
    fail((error as Error).message);
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
