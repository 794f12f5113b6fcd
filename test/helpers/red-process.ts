/**
 * A real Node-RED in a child process of its own, on a userDir the test gives, driven over
 * stdin/stdout (one JSON line each way): the flows are the userDir's flows.json, loaded by
 * Node-RED itself at start, as after a reboot; `stop()` is the runtime's own stop and the
 * process's end. A second one on the same userDir is Node-RED started again: a restart, not
 * a redeploy. The child reads the alarm system in-process (nodes/alarms, loaded from the
 * same dist/ folder Node-RED loads this package from: the same module instance).
 *
 * Parent: `const red = await startRed(userDir); await red.inject(id, msg); await red.state(); await red.stop();`
 */
import { ChildProcess, spawn } from 'child_process';
import fs from 'fs';
import http from 'http';
import path from 'path';
import readline from 'readline';

const root = path.resolve(__dirname, '..', '..', '..');

/** What the child answers a state request with. */
export interface RedState {
  alarms: Array<Record<string, any>>;
  /** The journal, newest first. */
  journal: Array<Record<string, any>>;
  now: number;
}

export interface RedProcess {
  /** When its flows had started (the child's clock, ms since the epoch). */
  readonly startedAt: number;
  /** Sends a msg into a node of the flows, as a wire would. */
  inject(node: string, msg: Record<string, unknown>): Promise<void>;
  state(): Promise<RedState>;
  /** The runtime's stop (nodes closed, the journal flushed), then the process's end. */
  stop(): Promise<void>;
  /** Ends the process if a test failed before stop(). */
  kill(): void;
}

/** Starts Node-RED (MD_NODE_RED's or the devDependency) on `userDir`; resolves once its flows run. */
export function startRed(userDir: string): Promise<RedProcess> {
  const child: ChildProcess = spawn(process.execPath, [__filename], { env: { ...process.env, MD_USER_DIR: userDir }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  const answers: Array<(answer: any) => void> = [];
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line.startsWith('{')) answers.shift()?.(JSON.parse(line));
  });
  const ended = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
  const next = () =>
    Promise.race([
      new Promise<any>((resolve) => answers.push(resolve)),
      ended.then((code) => Promise.reject(new Error(`Node-RED's process ended (${code}): ${stderr.slice(-2000)}`))),
    ]);
  const ask = (request: Record<string, unknown>) => {
    const answer = next();
    child.stdin!.write(`${JSON.stringify(request)}\n`);
    return answer;
  };
  return next().then((ready: { startedAt: number }) => ({
    startedAt: ready.startedAt,
    inject: async (node, msg) => void (await ask({ op: 'inject', node, msg })),
    state: () => ask({ op: 'state' }),
    stop: async () => {
      await ask({ op: 'stop' });
      const code = await ended;
      if (code !== 0) throw new Error(`Node-RED's process ended with ${code}: ${stderr.slice(-2000)}`);
    },
    kill: () => void child.kill('SIGKILL'),
  }));
}

/** The child: Node-RED started on MD_USER_DIR, answering the parent's requests. */
async function child(): Promise<void> {
  const userDir = process.env.MD_USER_DIR!;
  const main = process.env.MD_NODE_RED ? require.resolve(path.resolve(process.env.MD_NODE_RED)) : require.resolve('node-red');
  const RED = require(main);
  // No admin API, no editor: the flows come from the userDir's flows.json, as on a device.
  RED.init(http.createServer(), {
    userDir,
    flowFile: path.join(userDir, 'flows.json'),
    credentialSecret: 'red-process',
    httpAdminRoot: false,
    httpNodeRoot: false,
    disableEditor: true,
    telemetry: { enabled: false },
    logging: { console: { level: 'error', metrics: false, audit: false } },
    editorTheme: { tours: false, palette: { catalogues: [] } },
  });
  const started = new Promise<void>((resolve) => RED.events.once('flows:started', () => resolve()));
  await RED.start();
  await started;
  const { systemOf } = require(path.join(root, 'dist', 'nodes', 'alarms', 'userdir-system'));
  const system = systemOf(RED).system;
  const say = (answer: unknown) => process.stdout.write(`${JSON.stringify(answer)}\n`);
  say({ startedAt: Date.now() });
  readline.createInterface({ input: process.stdin }).on('line', (line) => {
    const request = JSON.parse(line);
    if (request.op === 'inject') {
      RED.nodes.getNode(request.node).receive(request.msg);
      say({ ok: true });
    } else if (request.op === 'state') say({ alarms: system.list(), journal: system.recent(1000), now: Date.now() });
    else if (request.op === 'stop')
      RED.stop().then(() => {
        say({ stopped: true });
        process.exit(0);
      });
  });
}

if (require.main === module) {
  child().catch((error) => {
    process.stderr.write(`${(error as Error).stack}\n`);
    process.exit(1);
  });
}

/**
 * A userDir as a user's: this package installed in its node_modules (a link to this checkout,
 * as `npm install <folder>` makes), and the flows as its flows.json (what Node-RED loads at start).
 */
export function writeFlows(userDir: string, flows: unknown[]): void {
  const scope = path.join(userDir, 'node_modules', '@modular-device');
  fs.mkdirSync(scope, { recursive: true });
  if (!fs.existsSync(path.join(scope, 'node-red'))) fs.symlinkSync(root, path.join(scope, 'node-red'), 'dir');
  fs.writeFileSync(path.join(userDir, 'flows.json'), JSON.stringify(flows));
}
