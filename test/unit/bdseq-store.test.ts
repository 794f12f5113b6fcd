/**
 * bdSeq kept in the userDir (nodes/fleet/sparkplug/bdseq-store.ts) on the real filesystem, in
 * a temp folder: counts per edge node from 0, wraps after 255, continues from the file after a
 * new store over it (a restart); a file that cannot be read is put aside (never deleted), said,
 * and the count starts again; an entry out of shape restarts only that edge node; a failed
 * write is said once and the numbers still come; a runtime without userDir uses the temp folder.
 */
import should from 'should';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { BdSeqFile, bdSeqFileIn, bdSeqStore, FORMAT, STORE_FILE, StoreProblem, VERSION } from '../../nodes/fleet/sparkplug/bdseq-store';
import { SPARKPLUG_BOUNDS } from '../../nodes/lib/pure/limits';

describe('Sparkplug bdSeq store', () => {
  let dir: string;
  let file: string;
  let problems: StoreProblem[];
  const store = () => bdSeqStore(new BdSeqFile(file), (p) => problems.push(p));
  const written = () => JSON.parse(fs.readFileSync(file, 'utf8'));

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'md-bdseq-'));
    file = path.join(dir, STORE_FILE);
    problems = [];
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('counts from 0 per edge node, writes each number before handing it out, and a new store continues (a restart)', () => {
    const a = store();
    [a.next('cell-1'), a.next('cell-1'), a.next('cell-2'), a.next('cell-1')].should.eql([0, 1, 0, 2]);
    written().should.eql({ format: FORMAT, version: VERSION, bdSeq: { 'cell-1': 2, 'cell-2': 0 } });
    (fs.statSync(file).mode & 0o777).should.equal(0o600);
    const b = store();
    [b.next('cell-1'), b.next('cell-2')].should.eql([3, 1]);
    problems.should.eql([]);
    fs.existsSync(`${file}.tmp`).should.be.false();
  });

  it('wraps 255 to 0', () => {
    fs.writeFileSync(file, JSON.stringify({ format: FORMAT, version: VERSION, bdSeq: { edge: 254 } }));
    const s = store();
    [s.next('edge'), s.next('edge'), s.next('edge')].should.eql([255, 0, 1]);
  });

  for (const [what, content, reason] of [
    ['not JSON', '{"format":', 'not-json'],
    ['another format', JSON.stringify({ format: 'other', version: 1, bdSeq: {} }), 'bad-shape'],
    ['another version', JSON.stringify({ format: FORMAT, version: 99, bdSeq: { edge: 7 } }), 'bad-shape'],
    ['too large', JSON.stringify({ format: FORMAT, version: VERSION, bdSeq: {}, pad: 'x'.repeat(SPARKPLUG_BOUNDS.storeBytes) }), 'too-large'],
  ] as const) {
    it(`a file ${what}: put aside, said, the count starts at 0`, () => {
      fs.writeFileSync(file, content);
      store().next('edge').should.equal(0);
      problems.should.have.length(1);
      problems[0].should.containEql({ reason, file });
      fs.readFileSync(problems[0].keptAs!, 'utf8').should.equal(content);
      written().bdSeq.should.eql({ edge: 0 });
    });
  }

  it('an entry out of shape restarts that edge node only', () => {
    fs.writeFileSync(file, JSON.stringify({ format: FORMAT, version: VERSION, bdSeq: { good: 9, bad: 300, neg: -1, str: '5', ['x'.repeat(100)]: 1 } }));
    const s = store();
    [s.next('good'), s.next('bad'), s.next('neg'), s.next('str')].should.eql([10, 0, 0, 0]);
    problems.should.eql([]);
  });

  it('a write that fails is said once, the numbers still come; said again after one succeeded', () => {
    const missing = path.join(dir, 'gone');
    file = path.join(missing, STORE_FILE);
    const s = store();
    [s.next('edge'), s.next('edge')].should.eql([0, 1]);
    problems.should.have.length(1);
    problems[0].should.containEql({ reason: 'write-failed', code: 'ENOENT' });
    fs.mkdirSync(missing);
    s.next('edge').should.equal(2);
    JSON.parse(fs.readFileSync(file, 'utf8')).bdSeq.should.eql({ edge: 2 });
    problems.should.have.length(1);
    fs.rmSync(missing, { recursive: true });
    s.next('edge').should.equal(3);
    problems.should.have.length(2);
  });

  it("the runtime's userDir holds the file, one store per file for the process; without userDir the temp folder, and it says so", () => {
    const withDir = bdSeqFileIn(dir);
    withDir.should.containEql({ temporary: false });
    withDir.store.file.should.equal(path.join(dir, STORE_FILE));
    should(bdSeqFileIn(dir).store).equal(withDir.store);
    const without = bdSeqFileIn(undefined);
    without.temporary.should.be.true();
    path.dirname(without.store.file).should.equal(os.tmpdir());
  });
});
