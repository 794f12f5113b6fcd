/**
 * The flow test kit's own tests (npm test step "kit", a process of its own: the kit runs one
 * Node-RED per process, and the runtime suites run theirs through the test helper).
 *
 * - The three examples' tests and scenarios, on API 0.9 and 1.0, as a user runs them
 *   (node --test flow-tests), from the package's own name (self-reference).
 * - Failing expectations fail with a readable line: a missing msg, a wrong value, a timeout.
 * - Bad input gets a clear error naming the place, and the CLI prints no stack.
 */
import { spawn } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import should from 'should';
import { formatReport, runScenario, startFlows, KitError } from '../../testing';

const root = path.resolve(__dirname, '..', '..', '..');
const fixture = (name: string) => path.join(root, 'test', 'kit', 'fixtures', name);
const example = (name: string) => path.join(root, 'examples', name);
const CLI = path.join(root, 'dist', 'testing', 'cli.js');

/** Runs a command to its end (bounded by mocha's timeout); its exit code and output. */
export function run(args: string[], env: Record<string, string> = {}, cwd = root): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** A stack trace line, as a user must never see one from the kit's CLI. */
const STACK = /^\s+at .+\(.+:\d+:\d+\)$/m;

describe('flow test kit', function () {
  this.timeout(120_000);

  for (const api of ['0.9', '1.0']) {
    it(`runs the three examples' tests and scenarios on API ${api} (node --test)`, async () => {
      const result = await run(['--test', path.join(root, 'flow-tests')], { MD_API: api });
      should(result.code).equal(0, result.stdout + result.stderr);
      should(result.stdout)
        .match(/# pass 14/)
        .and.match(/# fail 0/);
    }).timeout(240_000); // the keep-alive's reset stories wait out real reboots (3 s) and the connection's backoff

    it(`fails a scenario with a readable line for a wrong value, a missing msg and a timeout (API ${api})`, async () => {
      const report = await runScenario({
        flows: example('alarm-on-notification.json'),
        scenario: fixture('alarm-fails.scenario.yaml'),
        api: api as '0.9' | '1.0',
      });
      should(report.ok).be.false();
      const text = formatReport(report);
      const [, , wrong, missing, timeout] = report.steps;
      should(wrong.ok).be.false();
      should(wrong.detail).equal(
        `no such msg in 3000 ms: 1 arrived, none matched: msg.payload was "ALARM pin 3: custom_voltage_alert", expected "ALARM pin 3: high_voltage_alert"`,
      );
      should(missing.detail).equal('no such msg in 300 ms: none arrived');
      should(timeout.detail).match(/^not in 300 ms: pin 3\.mode was "analog", expected "pwm"$/);
      should(text).match(/3 of 5 steps failed/);
    });
  }

  it('the CLI exits 1 on a failed scenario and prints the report', async () => {
    const result = await run([CLI, example('alarm-on-notification.json'), fixture('alarm-fails.scenario.yaml')]);
    should(result.code).equal(1, result.stderr);
    should(result.stdout)
      .match(/FAIL .* steps\[3\]: a msg at "high voltage"/)
      .and.match(/none arrived/);
  });

  it('runs a scenario on the Node-RED the user names (--node-red): 3.1, the oldest supported', async () => {
    const red = require(path.join(root, 'scripts', 'runtimes.js')).nodeRed('3.1');
    const result = await run([CLI, example('io-output.json'), path.join(root, 'flow-tests', 'toggle.scenario.yaml'), '--node-red', red.dir]);
    should(result.code).equal(0, result.stdout + result.stderr);
    should(result.stdout).match(/all 5 steps passed/);
  });

  it('names what is missing when there is no node-red to run', async () => {
    const result = await run([
      CLI,
      example('io-output.json'),
      path.join(root, 'flow-tests', 'toggle.scenario.yaml'),
      '--node-red',
      path.join(root, 'no-node-red-here'),
    ]);
    should(result.code).equal(2);
    should(result.stderr).match(
      /node-red not found at .*no-node-red-here \(the nodeRed option or MD_NODE_RED\): give the folder of an installed node-red package/,
    );
    should(result.stderr).not.match(STACK);
  });

  it("leaves the user's flows.json in the working folder untouched (Node-RED saves only into its own folder)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'md-kit-cwd-'));
    try {
      const original = fs.readFileSync(example('alarm-on-notification.json'));
      fs.writeFileSync(path.join(dir, 'flows.json'), original);
      const result = await run(
        [CLI, 'flows.json', path.join(root, 'flow-tests', 'alarm.scenario.yaml'), '--node-red', path.dirname(require.resolve('node-red/package.json'))],
        {},
        dir,
      );
      should(result.code).equal(0, result.stdout + result.stderr);
      should(fs.readFileSync(path.join(dir, 'flows.json')).equals(original)).be.true();
      should(fs.readdirSync(dir)).eql(['flows.json']); // no backup, no credentials file beside it
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a wait that times out says what it waited for and what came', async () => {
    const t = await startFlows({ flows: example('io-output.json') });
    try {
      await t.nextMsg('sent');
      const error = await t.nextMsg('sent', { where: { payload: 'never' }, timeoutMs: 300 }).then(
        () => null,
        (e: Error) => e,
      );
      should(error).be.instanceOf(KitError);
      should(error!.message).match(
        /^waited 300 ms for a msg at node "sent" \(debug, id d3m0dbg000000002\): (none arrived|\d+ arrived, none matched: msg\.payload was .*, expected "never")/,
      );
      should(() => t.node('nope')).throw(/node: no node with id or name "nope" in the flows; named nodes: /);
    } finally {
      await t.stop();
    }
  });

  describe('bad input: a clear error naming the place, no stack', () => {
    const cases: Array<[string, string[], RegExp]> = [
      [
        "a flows file that is not Node-RED's",
        [fixture('not-flows.json'), path.join(root, 'flow-tests', 'alarm.scenario.yaml')],
        /flows file .*not-flows\.json: not a Node-RED flow: expected a JSON array of nodes/,
      ],
      [
        'a scenario with an unknown event',
        [example('alarm-on-notification.json'), fixture('unknown-event.scenario.yaml')],
        /unknown-event\.scenario\.yaml: steps\[1\]: unknown event "explode"; a step has one of pin, short/,
      ],
      [
        'a node that does not exist',
        [example('alarm-on-notification.json'), fixture('unknown-node.scenario.json')],
        /unknown-node\.scenario\.json: steps\[1\]\.expect\.node: no node with id or name "no such node"/,
      ],
      [
        'a value out of range',
        [example('alarm-on-notification.json'), fixture('bad-value.scenario.yaml')],
        /bad-value\.scenario\.yaml: steps\[0\]\.pin\.pin: must be a whole number from 1 to 6, got 9/,
      ],
      [
        'a node type not installed',
        [fixture('missing-type.json'), fixture('no-nodes.scenario.yaml')],
        /node types this Node-RED does not have: acme-widget \(node "press me", id n1\)/,
      ],
      ['a missing file', [example('nope.json'), path.join(root, 'flow-tests', 'alarm.scenario.yaml')], /flows file .*nope\.json: cannot read it \(ENOENT\)/],
    ];
    for (const [what, args, expected] of cases) {
      it(what, async () => {
        const result = await run([CLI, ...args]);
        should(result.code).equal(2, result.stdout);
        should(result.stderr).match(expected);
        should(result.stderr).not.match(STACK);
        should(result.stderr).not.match(/unexpected error/);
      });
    }
  });
});
