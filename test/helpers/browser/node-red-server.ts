/**
 * A real Node-RED for the browser tests, as a user gets it: this package packed with
 * `npm pack` (so a file missing from package.json "files" fails here) and installed with
 * npm into a fresh userDir, then Node-RED started on a free loopback port as a child
 * process, stopped by its PID at the end: 4.1 (the devDependency) unless a `Runtime` names
 * another installed Node-RED (scripts/runtimes.js) and the node binary it needs.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { ChildProcess, execFileSync, spawn, spawnSync } from 'child_process';
import { freePort, getText as get } from '../http';

const root = path.resolve(__dirname, '..', '..', '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export interface NodeRedServer {
  url: string;
  userDir: string;
  /** What Node-RED printed (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/** npm pack into `dir` without its prepack build (the test step built dist/ already); returns the tarball. */
export function packPackage(dir: string): string {
  const out = execFileSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', dir, '--loglevel=error'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, npm_config_ignore_scripts: 'true' },
  });
  const file = JSON.parse(out)[0].filename as string;
  return path.join(dir, path.basename(file));
}

function settingsJs(port: number): string {
  return `module.exports = {
    uiHost: '127.0.0.1',
    uiPort: ${port},
    flowFile: 'flows.json',
    credentialSecret: 'browser-test',
    telemetry: { enabled: false },
    diagnostics: { enabled: false },
    // No first-run tour or palette catalogue: both would cover the canvas or go online.
    editorTheme: { tours: false, palette: { catalogues: [] }, projects: { enabled: false } },
    logging: { console: { level: 'warn', metrics: false, audit: false } },
};
`;
}

/** Which Node-RED to start: its package folder and the node that runs it (default: the devDependency on this node). */
export interface Runtime {
  /** The node-red package folder (holds red.js). */
  dir?: string;
  /** The node executable (Node-RED 5 needs Node 22). */
  node?: string;
}

/**
 * `links`: modules of this repository's node_modules (devDependencies) Node-RED loads too, e.g.
 * a dashboard a demo needs. `tarball`: an `npm pack` made before, shared by several starts
 * (test/package/); packed anew when not given.
 */
export async function startNodeRed(links: string[] = [], runtime: Runtime = {}, tarball?: string): Promise<NodeRedServer> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'md-browser-'));
  const userDir = path.join(work, 'userDir');
  fs.mkdirSync(userDir);
  const packed = tarball ?? packPackage(work);
  fs.writeFileSync(path.join(userDir, 'package.json'), JSON.stringify({ name: 'md-browser-test', private: true }, null, 2));
  // As the palette manager does it: npm install of the tarball (its few dependencies from the npm cache or registry).
  // npm's warnings stay in the log: a warning about install scripts is a finding (test/package/).
  const install = spawnSync(npm, ['install', packed, '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', '--loglevel=warn'], {
    cwd: userDir,
    encoding: 'utf8',
  });
  let log = `${install.stdout ?? ''}${install.stderr ?? ''}`;
  if (install.status !== 0) throw new Error(`npm install of the tarball failed (${install.status ?? install.error?.message}):\n${log}`);
  // Once each: several demos may need the same module (the dashboard's two pages).
  for (const name of new Set(links)) {
    const link = path.join(userDir, 'node_modules', ...name.split('/'));
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(path.dirname(require.resolve(`${name}/package.json`, { paths: [root] })), link, 'dir');
  }
  const port = await freePort();
  fs.writeFileSync(path.join(userDir, 'settings.js'), settingsJs(port));

  // node red.js directly: the PID is Node-RED's own, so stopping it stops Node-RED.
  const red = runtime.dir ? path.join(runtime.dir, 'red.js') : require.resolve('node-red/red.js', { paths: [root] });
  const child: ChildProcess = spawn(runtime.node ?? process.execPath, [red, '--userDir', userDir, '--settings', path.join(userDir, 'settings.js')], {
    cwd: userDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c) => (log += c));
  child.stderr!.on('data', (c) => (log += c));
  let exited = false;
  child.on('exit', () => (exited = true));

  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 60000;
  for (;;) {
    if (exited) throw new Error(`Node-RED exited during start:\n${log}`);
    try {
      const nodes = await get(`${url}nodes`);
      if (nodes.status === 200 && nodes.body.includes('@modular-device/node-red')) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Node-RED did not serve the package at ${url} within 60 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }

  return {
    url,
    userDir,
    output: () => log,
    async stop() {
      if (!exited) {
        const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGINT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await gone;
        clearTimeout(timer);
      }
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}
