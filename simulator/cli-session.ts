/**
 * modular-device-sim record --target <url> --out <file> [--port 8081] [--host 127.0.0.1] [--insecure]
 * modular-device-sim replay <file> [--port 8080] [--host 127.0.0.1]
 * The session subcommands of the simulator's CLI (see record.ts, replay.ts).
 */
import fs from 'fs';
import { Recording, startRecorder } from './record';
import { checkRecording, startReplay } from './replay';

export const SESSION_USAGE = `Usage: modular-device-sim record --target <url> --out <file> [options]
       modular-device-sim replay <file> [--port <n>] [--host <addr>]

record: a proxy between Node-RED and a device that writes every exchange, with its timing,
to <file> (on Ctrl-C, and every 5 s). Point the flow's config node at the proxy's URL.
No request header is written (Authorization, cookies), nor the target's user:password.
  --target <url>    the device, e.g. https://192.168.1.10 (required)
  --out <file>      where the recording goes (required)
  --port <n>        the proxy's port (default 8081; 0 = any free port)
  --host <addr>     the proxy's address (default 127.0.0.1)
  --insecure        accept the device's self-signed TLS certificate

replay: serve a recording as the device: each request gets the next recorded answer for
its method and path, as late as the device answered.
`;

function fail(message: string): never {
  process.stderr.write(`modular-device-sim: ${message}\n\n${SESSION_USAGE}`);
  process.exit(2);
}

function options(argv: string[], flags: string[], switches: string[] = []): { values: Record<string, string>; rest: string[] } {
  const values: Record<string, string> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (switches.includes(arg)) values[arg] = 'yes';
    else if (flags.includes(arg)) values[arg] = argv[++i] ?? fail(`${arg} needs a value`);
    else if (arg.startsWith('--')) fail(`unknown option ${arg}`);
    else rest.push(arg);
  }
  return { values, rest };
}

function port(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) fail('--port must be 0 to 65535');
  return Number(text);
}

export async function recordMain(argv: string[]): Promise<void> {
  const { values, rest } = options(argv, ['--target', '--out', '--port', '--host'], ['--insecure']);
  if (rest.length) fail(`unexpected ${rest.join(' ')}`);
  if (!values['--target'] || !values['--out']) fail('record needs --target and --out');
  let recorder;
  try {
    recorder = await startRecorder({
      target: values['--target'],
      port: port(values['--port'], 8081),
      host: values['--host'],
      insecure: !!values['--insecure'],
    });
  } catch (error) {
    fail((error as Error).message);
  }
  const out = values['--out'];
  const save = (recording: Recording) => fs.writeFileSync(out, `${JSON.stringify(recording, null, 1)}\n`);
  save(recorder.recording());
  process.stdout.write(`modular-device-sim recording on ${recorder.url} -> ${new URL(values['--target']).origin}, into ${out}\n`);
  const timer = setInterval(() => save(recorder.recording()), 5000);
  const stop = () => {
    clearInterval(timer);
    recorder.close().then((recording) => {
      save(recording);
      process.stdout.write(`modular-device-sim: ${recording.exchanges.length} exchanges written to ${out}${recording.truncated ? ' (truncated)' : ''}\n`);
      process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

export async function replayMain(argv: string[]): Promise<void> {
  const { values, rest } = options(argv, ['--port', '--host']);
  if (rest.length !== 1) fail('replay needs one recording file');
  let recording;
  try {
    recording = checkRecording(JSON.parse(fs.readFileSync(rest[0], 'utf8')), rest[0]);
  } catch (error) {
    fail((error as Error).message);
  }
  const replay = await startReplay(recording, { port: port(values['--port'], 8080), host: values['--host'] });
  process.stdout.write(`modular-device-sim replaying ${rest[0]} (API ${recording.api}, ${recording.exchanges.length} exchanges) on ${replay.url}\n`);
  const stop = () => void replay.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
