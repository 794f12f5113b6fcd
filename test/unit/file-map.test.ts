/**
 * ARCHITECTURE.md's file map is whole: every source file of the layer folders, the feature
 * folders, the sidebar, the editor and the test kit is named in it (by its bare name in
 * backticks, or a path ending in it), so a contributor who reads the map finds every room. The node files
 * (`nodes/<type>.ts`) are one row of their own, named by that pattern. test/unit/cited-paths.test.ts
 * holds the other way round: every path the map names exists.
 */
import * as fs from 'fs';
import * as path from 'path';
import should from 'should';
import { REPO, sourceFiles } from '../helpers/source-files';

const MAPPED = ['nodes/lib', 'nodes/fleet', 'nodes/alarms', 'nodes/sidebar', 'nodes/editor', 'testing'];

/** Whether the page names the file: its bare name or a path ending in it, in backticks. */
function named(page: string, file: string): boolean {
  const base = path.basename(file);
  return page.includes(`\`${base}\``) || page.includes(`/${base}\``);
}

describe('ARCHITECTURE.md names every source file of the folders it maps', () => {
  const page = fs.readFileSync(path.join(REPO, 'ARCHITECTURE.md'), 'utf8');

  it('every .ts file under nodes/lib, fleet, alarms, sidebar, editor and testing', () => {
    const files = MAPPED.flatMap((dir) => sourceFiles(dir)).map((f) => path.relative(REPO, f));
    files.length.should.be.above(150, 'the sources were read');
    should(files.filter((f) => !named(page, f))).eql([], 'files the map does not name: add each to its row');
  });

  it('probe: a file the map does not name is found', () => {
    named(page, 'nodes/lib/device/no-such-room.ts').should.be.false();
    named(page, 'nodes/lib/device/queue.ts').should.be.true();
  });
});
