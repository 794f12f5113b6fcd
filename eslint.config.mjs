// Lint rules, and the layers' import rules (ARCHITECTURE.md): each folder of nodes/lib/
// imports only from the layers below it, the editor (the dialogs' and the sidebar's) only from
// the pure layer and never a Node built-in, the sidebar's runtime never editor code or a node
// file, the simulator nothing of the package. `npm run lint` runs it with zero
// warnings allowed; `npm test` runs that first.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const NODE_BUILTINS = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/** Import patterns (gitignore style, matched against the import path) that reach a layer's folder. */
const LAYER = {
  base: ['**/lib/base/**', '../base/*'],
  device: ['**/lib/device/**', '../device/*'],
  configNode: ['**/lib/config-node/**', '../config-node/*'],
  action: ['**/lib/action/**', '../action/*'],
  // The sidebar's runtime (nodes/sidebar/runtime/; '../runtime/*' from its editor part).
  live: ['**/sidebar/runtime/*', '**/sidebar/runtime/**', '../runtime/*'],
  // The dialogs' editor code (nodes/editor/) and the sidebar's (nodes/sidebar/editor/).
  editor: ['**/editor/*', '**/editor/**'],
  nodeFiles: ['../../*', '!../../lib', '!../../editor'],
};

/** A rule that refuses the given layers, saying which way the arrows run. */
function only(message, ...layers) {
  return {
    'no-restricted-imports': ['error', { patterns: [{ group: layers.flatMap((l) => (Array.isArray(l) ? l : LAYER[l])), message }] }],
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'dist.building-*/**', 'resources/**', 'node_modules/**', '.cache/**', '.node-red/**', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Node-RED's own convention: a node constructor names its `this` `node` for its closures.
      '@typescript-eslint/no-this-alias': ['error', { allowedNames: ['node'] }],
      // A variable declared before the closures that read it and assigned once after them.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ['nodes/lib/pure/**/*.ts'],
    rules: only(
      'the pure layer imports nothing but itself (runtime and editor both use it)',
      'base',
      'device',
      'configNode',
      'action',
      'live',
      'editor',
      'nodeFiles',
      NODE_BUILTINS,
    ),
  },
  {
    files: ['nodes/lib/base/**/*.ts'],
    rules: only('the runtime base imports only the pure layer', 'device', 'configNode', 'action', 'live', 'editor', 'nodeFiles'),
  },
  { files: ['nodes/lib/device/**/*.ts'], rules: only('the device layer imports only pure and base', 'configNode', 'action', 'live', 'editor', 'nodeFiles') },
  {
    files: ['nodes/lib/config-node/**/*.ts'],
    rules: only('the config-node layer imports only pure, base and device', 'action', 'live', 'editor', 'nodeFiles'),
  },
  { files: ['nodes/lib/action/**/*.ts'], rules: only('the action layer imports only the layers below it', 'live', 'editor', 'nodeFiles') },
  {
    files: ['nodes/sidebar/runtime/**/*.ts'],
    rules: only('the sidebar runtime never imports editor code or a node file', 'editor', 'nodeFiles', ['../modular-device-sidebar']),
  },
  {
    files: ['nodes/fleet/**/*.ts'],
    rules: only('fleet features sit beside the nodes: built on the layers, never on a node file, the sidebar runtime or editor code', 'live', 'editor', [
      '../io-*',
      '../bmc-*',
      '../power-*',
      '../device-*',
      '../notification-*',
      '../modular-device*',
      '../fleet-publish',
      '../sidebar/*',
    ]),
  },
  {
    files: ['nodes/alarms/**/*.ts'],
    rules: only(
      'alarm features sit beside the nodes: built on the layers, never on a node file, the sidebar runtime, fleet features or editor code',
      'live',
      'editor',
      ['../io-*', '../bmc-*', '../power-*', '../device-*', '../notification-*', '../modular-device*', '../fleet-publish', '../fleet/*', '../sidebar/*'],
    ),
  },
  {
    files: ['nodes/editor/**/*.ts', 'nodes/sidebar/editor/**/*.ts'],
    rules: only(
      'editor code runs in the browser: it imports only the pure layer and no Node built-in',
      'base',
      'device',
      'configNode',
      'action',
      'live',
      ['../modular-device-sidebar'],
      NODE_BUILTINS,
    ),
  },
  {
    files: ['simulator/**/*.ts'],
    rules: only('the simulator stands for the device: it imports nothing of the package', [
      '**/nodes/**',
      '**/nodes',
      '@modular-device/node-red',
      '@modular-device/node-red/**',
    ]),
  },
  {
    // Tests load Node-RED, the simulator and optional runtimes by path at run time.
    files: ['test/**/*.ts'],
    // Tests look for control characters in what the package sends (no-control-regex).
    rules: { '@typescript-eslint/no-require-imports': 'off', '@typescript-eslint/no-explicit-any': 'off', 'no-control-regex': 'off' },
  },
  {
    // The flow test kit handles users' flows and msgs (arbitrary JSON) and loads the user's
    // own Node-RED by path at run time.
    files: ['testing/**/*.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        exports: 'writable',
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
        __filename: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        URL: 'readonly',
        performance: 'readonly',
        global: 'readonly',
        AbortController: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
