/**
 * The layers' import rules (eslint.config.mjs, ARCHITECTURE.md) refuse what they promise
 * to: code is linted as if it stood at a path of each layer, with ESLint's own API, and the
 * import that crosses a layer upwards is the one reported.
 */
import path from 'path';
import should from 'should';

const root = path.resolve(__dirname, '..', '..', '..');

interface Lint {
  lintText(code: string, options: { filePath: string }): Promise<Array<{ messages: Array<{ ruleId: string | null; message: string }> }>>;
}

async function restricted(file: string, code: string): Promise<string[]> {
  // ESLint is an ES module project with a CommonJS entry; loaded lazily (it takes a second).
  const { ESLint } = require('eslint') as { ESLint: new (options: { cwd: string }) => Lint };
  const [result] = await new ESLint({ cwd: root }).lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layers: the import rules', function () {
  this.timeout(60000);

  const cases: Array<{ file: string; code: string; says: RegExp }> = [
    { file: 'nodes/lib/pure/probe.ts', code: "import { DeviceClient } from '../device/client';\nexport const x = DeviceClient;\n", says: /pure layer/ },
    { file: 'nodes/lib/pure/probe.ts', code: "import * as fs from 'fs';\nexport const x = fs;\n", says: /pure layer/ },
    { file: 'nodes/lib/base/probe.ts', code: "import { Connection } from '../config-node/connection';\nexport const x = Connection;\n", says: /runtime base/ },
    {
      file: 'nodes/lib/device/probe.ts',
      code: "import { NodeStatusDot } from '../action/status-dot';\nexport const x = NodeStatusDot;\n",
      says: /device layer/,
    },
    {
      file: 'nodes/lib/config-node/probe.ts',
      code: "import { registerActionNode } from '../action/action-node';\nexport const x = registerActionNode;\n",
      says: /config-node layer/,
    },
    {
      file: 'nodes/lib/action/probe.ts',
      code: "import { Throttle } from '../../sidebar/runtime/throttle';\nexport const x = Throttle;\n",
      says: /action layer/,
    },
    { file: 'nodes/alarms/probe.ts', code: "import { publish } from '../fleet/publisher';\nexport const x = publish;\n", says: /alarm features/ },
    { file: 'nodes/alarms/probe.ts', code: "import { Throttle } from '../sidebar/runtime/throttle';\nexport const x = Throttle;\n", says: /alarm features/ },
    {
      file: 'nodes/fleet/probe.ts',
      code: "import plugin = require('../sidebar/modular-device-sidebar');\nexport const x = plugin;\n",
      says: /fleet features/,
    },
    { file: 'nodes/editor/probe.ts', code: "import { t } from '../lib/base/i18n';\nexport const x = t;\n", says: /editor code/ },
    { file: 'nodes/sidebar/editor/probe.ts', code: "import * as http from 'node:http';\nexport const x = http;\n", says: /editor code/ },
    { file: 'nodes/sidebar/editor/probe.ts', code: "import { Throttle } from '../runtime/throttle';\nexport const x = Throttle;\n", says: /editor code/ },
    { file: 'nodes/sidebar/editor/probe.ts', code: "import { t } from '../../lib/base/i18n';\nexport const x = t;\n", says: /editor code/ },
    { file: 'nodes/sidebar/runtime/probe.ts', code: "import { Panel } from '../editor/panel';\nexport const x = Panel;\n", says: /sidebar runtime/ },
    {
      file: 'nodes/sidebar/runtime/probe.ts',
      code: "import { pinNumber } from '../../editor/pin-picker';\nexport const x = pinNumber;\n",
      says: /sidebar runtime/,
    },
    { file: 'nodes/sidebar/runtime/probe.ts', code: "import poll = require('../../notification-poll');\nexport const x = poll;\n", says: /sidebar runtime/ },
    {
      file: 'nodes/sidebar/runtime/probe.ts',
      code: "import plugin = require('../modular-device-sidebar');\nexport const x = plugin;\n",
      says: /sidebar runtime/,
    },
    { file: 'simulator/probe.ts', code: "import { LIMITS } from '../nodes/lib/pure/limits';\nexport const x = LIMITS;\n", says: /simulator/ },
  ];
  for (const { file, code, says } of cases) {
    it(`${file}: ${code.split('\n')[0]} is refused`, async () => {
      const messages = await restricted(file, code);
      messages.length.should.equal(1, `no refusal for ${file}`);
      should(messages[0]).match(says);
    });
  }

  it('the arrows downwards pass', async () => {
    (
      await restricted(
        'nodes/lib/action/probe.ts',
        "import { LIMITS } from '../pure/limits';\nimport { DeviceClient } from '../device/client';\nexport const x = [LIMITS, DeviceClient];\n",
      )
    ).should.eql([]);
    (await restricted('nodes/editor/probe.ts', "import { LIMITS } from '../lib/pure/limits';\nexport const x = LIMITS;\n")).should.eql([]);
    (
      await restricted(
        'nodes/sidebar/editor/probe.ts',
        "import { LIMITS } from '../../lib/pure/limits';\nimport { pinNumber } from '../../editor/pin-picker';\nexport const x = [LIMITS, pinNumber];\n",
      )
    ).should.eql([]);
    (
      await restricted(
        'nodes/sidebar/runtime/probe.ts',
        "import { LIMITS } from '../../lib/pure/limits';\nimport { subscribe } from '../../lib/config-node/health';\nexport const x = [LIMITS, subscribe];\n",
      )
    ).should.eql([]);
  });
});
