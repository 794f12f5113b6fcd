/**
 * Small rooms (ARCHITECTURE.md, "Properties to keep"): no source file of the package's
 * runtime, editor or flow test kit past the house's 300 lines, the nodes' .html included.
 * A file that grows past it is split by what it holds. (simulator/ has its own check, in
 * test/simulator/independence.test.ts.)
 */
import 'should';
import fs from 'fs';
import path from 'path';
import { REPO } from '../helpers/source-files';

const MAX_LINES = 300;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|js|html)$/.test(entry.name) ? [full] : [];
  });
}

describe('small rooms: source files of nodes/ and testing/', function () {
  for (const dir of ['nodes', 'testing']) {
    it(`no source file in ${dir}/ is over ${MAX_LINES} lines`, function () {
      const files = sources(path.join(REPO, dir));
      files.length.should.be.above(5);
      const long = files
        .map((file) => ({ file: path.relative(REPO, file), lines: fs.readFileSync(file, 'utf8').split('\n').length }))
        .filter(({ lines }) => lines > MAX_LINES + 1); // a final newline is not a line
      long.should.eql([]);
    });
  }
});
