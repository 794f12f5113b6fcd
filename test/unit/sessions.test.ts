/**
 * API 1.0's sessions as a config node judges them (nodes/lib/config-node/sessions.ts), on
 * version records as the device sends them: a new driver_session is the service restarted;
 * a new device_session is the module reset by someone else, unless the package's own
 * renewing write (power-management, reset) explains it, for every config node naming that
 * module; modules of one Node-RED are apart from each other and from another Node-RED's;
 * a config node that closes leaves its module's shared writes, the last one forgets them.
 */
import 'should';
import { ModuleSessions, Sessions } from '../../nodes/lib/config-node/sessions';
import type { VersionRecord } from '../../nodes/lib/device/version-record';
import { t } from '../../nodes/lib/base/i18n';
import { speak } from '../helpers/i18n';

const SLOT = 2;
const KEY = 'sim:8080|io|2';

/** A 1.0 version record with these sessions for the slot. */
function record(driver: string, device: string, slot = SLOT): VersionRecord {
  return { driver_session: driver, version: { api: { major: 1, minor: 0, patch: 0 } }, devices: [{ slot_number: slot, device_session: device }] };
}

/** Judges a record read now: the own writes ended before it left counted as the connection counts them. */
function look(sessions: Sessions, r: VersionRecord, slot = SLOT) {
  return sessions.judge(r, slot, sessions.owned);
}

/** An own renewing write, from going on the wire to its answer. */
function ownWrite(sessions: Sessions): void {
  sessions.renewing('sent');
  sessions.renewing('ended');
}

const none = () => undefined;

describe('config-node sessions (API 1.0 driver_session, device_session)', () => {
  before(() => speak());

  it('the first look learns the sessions: no news', () => {
    const news = look(new ModuleSessions().open(KEY, none), record('d1', 'm1'));
    news.should.eql({ session: 'd1', deviceSession: 'm1', restarted: false, resetCause: undefined });
  });

  it('the same sessions again: no news', () => {
    const sessions = new ModuleSessions().open(KEY, none);
    look(sessions, record('d1', 'm1'));
    look(sessions, record('d1', 'm1')).should.eql({ session: 'd1', deviceSession: 'm1', restarted: false, resetCause: undefined });
  });

  it('a new device_session nobody here wrote for: the module reset by someone else', () => {
    const sessions = new ModuleSessions().open(KEY, none);
    look(sessions, record('d1', 'm1'));
    const news = look(sessions, record('d1', 'm2'));
    news.restarted.should.be.false();
    news.resetCause!.should.equal(t('common.cause.moduleReset'));
  });

  it('a new driver_session with it: the service restarted, the module starts anew (even after an own write)', () => {
    const sessions = new ModuleSessions().open(KEY, none);
    look(sessions, record('d1', 'm1'));
    ownWrite(sessions);
    const news = look(sessions, record('d2', 'm2'));
    news.restarted.should.be.true();
    news.resetCause!.should.equal(t('common.cause.restarted'));
  });

  it('a new driver_session alone: restarted, the module kept (no reset)', () => {
    const sessions = new ModuleSessions().open(KEY, none);
    look(sessions, record('d1', 'm1'));
    const news = look(sessions, record('d2', 'm1'));
    news.restarted.should.be.true();
    (news.resetCause === undefined).should.be.true();
  });

  it("the package's own renewing write (power-management, io-reset) explains the next new device_session: adopted, no reset", () => {
    const sessions = new ModuleSessions().open(KEY, none);
    look(sessions, record('d1', 'm1'));
    ownWrite(sessions);
    (look(sessions, record('d1', 'm2')).resetCause === undefined).should.be.true();
    // Only that one: the next new session is someone else's.
    look(sessions, record('d1', 'm3')).resetCause!.should.equal(t('common.cause.moduleReset'));
  });

  it('an own write still on the wire explains a new device_session the device made before answering', () => {
    const sessions = new ModuleSessions().open(KEY, none);
    look(sessions, record('d1', 'm1'));
    sessions.renewing('sent');
    (look(sessions, record('d1', 'm2')).resetCause === undefined).should.be.true();
  });

  it('an own write that renewed nothing is forgotten by the next look: a later new session is a reset', () => {
    const sessions = new ModuleSessions().open(KEY, none);
    look(sessions, record('d1', 'm1'));
    ownWrite(sessions);
    look(sessions, record('d1', 'm1')).should.containEql({ resetCause: undefined });
    look(sessions, record('d1', 'm2')).resetCause!.should.equal(t('common.cause.moduleReset'));
  });

  it("one config node's own write explains the new session to another config node of the same module", () => {
    const modules = new ModuleSessions();
    const a = modules.open(KEY, none);
    const b = modules.open(KEY, none);
    look(a, record('d1', 'm1'));
    look(b, record('d1', 'm1'));
    ownWrite(a);
    (look(b, record('d1', 'm2')).resetCause === undefined).should.be.true();
    (look(a, record('d1', 'm2')).resetCause === undefined).should.be.true();
  });

  it("another module's own write explains nothing here: modules are apart", () => {
    const modules = new ModuleSessions();
    const io = modules.open(KEY, none);
    const other = modules.open('sim:8080|io|3', none);
    look(io, record('d1', 'm1'));
    ownWrite(other);
    look(io, record('d1', 'm2')).resetCause!.should.equal(t('common.cause.moduleReset'));
    modules.size.should.equal(2);
  });

  it("another Node-RED's (another ModuleSessions') write of the same module explains nothing here", () => {
    const here = new ModuleSessions().open(KEY, none);
    const there = new ModuleSessions().open(KEY, none);
    look(here, record('d1', 'm1'));
    ownWrite(there);
    look(here, record('d1', 'm2')).resetCause!.should.equal(t('common.cause.moduleReset'));
  });

  it('an own power-management accepted: every config node of the module puts back what comes after its phase', () => {
    const modules = new ModuleSessions();
    const heard: string[] = [];
    const a = modules.open(KEY, (phase) => heard.push(`a${phase}`));
    modules.open(KEY, (phase) => heard.push(`b${phase}`));
    modules.open('sim:8080|io|3', (phase) => heard.push(`other${phase}`));
    a.accepted(1);
    heard.should.eql(['a1', 'b1']);
  });

  it('a config node that closes is no longer told; the last one to close forgets the module and its writes', () => {
    const modules = new ModuleSessions();
    const heard: string[] = [];
    const a = modules.open(KEY, (phase) => heard.push(`a${phase}`));
    const b = modules.open(KEY, (phase) => heard.push(`b${phase}`));
    ownWrite(a);
    a.close();
    b.accepted(2);
    heard.should.eql(['b2']);
    modules.size.should.equal(1);
    b.close();
    modules.size.should.equal(0);
    // A redeployed config node starts afresh: the writes before it explain nothing.
    const c = modules.open(KEY, none);
    c.owned.should.equal(0);
    look(c, record('d1', 'm1'));
    look(c, record('d1', 'm2')).resetCause!.should.equal(t('common.cause.moduleReset'));
  });

  it("a second close after the module was opened afresh leaves the new config node's writes", () => {
    const modules = new ModuleSessions();
    const a = modules.open(KEY, none);
    a.close();
    const b = modules.open(KEY, none);
    a.close();
    modules.size.should.equal(1);
    ownWrite(b);
    b.owned.should.equal(1);
  });

  it('API 0.9 records (no sessions): never news', () => {
    const sessions = new ModuleSessions().open(KEY, none);
    const old: VersionRecord = { version: { api: { major: 0, minor: 9, patch: 0 } }, devices: [{ slot_number: SLOT }] };
    look(sessions, old).should.eql({ session: undefined, deviceSession: undefined, restarted: false, resetCause: undefined });
    ownWrite(sessions);
    look(sessions, old).should.eql({ session: undefined, deviceSession: undefined, restarted: false, resetCause: undefined });
  });
});
