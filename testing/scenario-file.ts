/**
 * Reading a scenario file: YAML (.yaml, .yml, with the yaml package) or JSON, a syntax error
 * told as one sentence with its line and column, then the schema's check (scenario.ts).
 */
import fs from 'fs';
import { KitError } from './errors';
import { checkScenario, Scenario } from './scenario';

/**
 * Reads and checks a scenario file. With `nodeProblem` (the flows at hand), node references
 * are checked with the rest, so every mistake of the file comes in one report.
 */
export function readScenario(file: string, nodeProblem?: (ref: string) => string | undefined): Scenario {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new KitError(`scenario ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return checkScenario(/\.ya?ml$/i.test(file) ? parseYaml(text, file) : parseJson(text, file), file, nodeProblem);
}

function parseYaml(text: string, file: string): unknown {
  const YAML = require('yaml');
  try {
    // The yaml package bounds alias expansion (maxAliasCount) against "billion laughs".
    return YAML.parse(text, { maxAliasCount: 100 });
  } catch (error) {
    // Its message ends in " at line 4, column 3:" and an excerpt on lines of their own: the
    // place is told from linePos instead, and the reason alone is kept.
    const { message, linePos } = error as Error & { linePos?: Array<{ line: number; col: number }> };
    const reason = message.replace(/ at line \d+, column \d+:[\s\S]*$/, '').trim();
    const at = linePos?.[0] ? `line ${linePos[0].line}, column ${linePos[0].col}: ` : '';
    throw new KitError(`${file}: ${at}not valid YAML: ${reason}`);
  }
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    // V8 tells an offset ("at position 34"), from Node 22 with the line ("(line 3 column 5)").
    const message = (error as Error).message;
    const offset = /at position (\d+)/.exec(message);
    let at = '';
    if (offset) {
      const before = text.slice(0, Number(offset[1])).split('\n');
      at = `line ${before.length}, column ${before[before.length - 1].length + 1}: `;
    }
    throw new KitError(`${file}: ${at}not valid JSON: ${message.replace(/ in JSON at position \d+.*$/, '').trim()}`);
  }
}
