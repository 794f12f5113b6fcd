/**
 * The alarms of the flows under test, as an operator acts on them (`t.alarms`): acknowledge,
 * shelve, unshelve, acknowledge all, with who and why, and each alarm's state, waited for
 * like a msg.
 *
 * The one place the kit reaches past the pure layer (ARCHITECTURE.md, testing/): the alarm
 * system lives in this process's Node-RED (nodes/alarms/), one per journal file, and the kit
 * runs that Node-RED in the same process with this package loaded from this very folder
 * (runtime.ts: PACKAGE_ROOT in nodesDir, or the same package Node-RED found by itself, real
 * paths compared), so `systemOf` here is the module instance the nodes use and names the
 * same journal in the runtime's userDir. Nothing is replaced: a command is read by
 * pure/alarm-command.ts readCommand, as a msg to device-alarm-list is, and carried out by the
 * system, whose listeners (the alarm nodes' outputs, device-alarm-list) hear it as they hear
 * any operator's. A refused command changes nothing and throws a KitError in the node's words.
 */
import { systemOf } from '../nodes/alarms/userdir-system';
import type { AlarmSystem } from '../nodes/alarms/alarm-system';
import type { AlarmRecord, AlarmView } from '../nodes/alarms/alarm-record';
import { readCommand } from '../nodes/lib/pure/alarm-command';
import { ALARM_STATES, AlarmState } from '../nodes/lib/pure/alarm-model';
import { LIMITS } from '../nodes/lib/pure/limits';
import { isPhrase, phrase } from '../nodes/lib/pure/phrase';
import { KitError, show } from './errors';
import { runtime } from './runtime';
import { english } from './words';

export type { AlarmRecord, AlarmView, AlarmState };
export { ALARM_STATES };

/** Who acted and why (alarm_user, alarm_comment): both optional, as in a command msg. */
export interface OperatorAct {
  user?: string;
  comment?: string;
}

/** A shelve's length when none is given: the table's default, as device-alarm-list's. */
export const DEFAULT_SHELVE_MS: number = LIMITS.shelve_duration.default;

type Until = (condition: () => boolean | Promise<boolean>, options: { timeoutMs?: number; what?: string | (() => string) }) => Promise<void>;

export class AlarmControl {
  /** @param until the flow test's wait (FlowTest.until): on every msg and every 25 ms. */
  constructor(private readonly until: Until) {}

  /** The system of the running Node-RED: its journal in the runtime's userDir, as the nodes find it. */
  private async system(): Promise<AlarmSystem> {
    return systemOf((await runtime()) as never).system;
  }

  /**
   * Any command device-alarm-list takes in msg.payload ({action, alarm, duration, user,
   * comment, device, area}); resolves with the transitions it made (the journal's entries).
   */
  async command(input: Record<string, unknown>): Promise<AlarmRecord[]> {
    const command = readCommand(input, DEFAULT_SHELVE_MS);
    if (isPhrase(command)) throw new KitError(`alarm command ${show(input, 120)} refused: ${english(command)}`);
    const outcome = (await this.system()).command(command);
    if (outcome.refusal) throw new KitError(`alarm command ${show(input, 120)} refused: ${english(outcome.refusal)}`);
    return [...outcome.records];
  }

  acknowledge(alarm: string, act: OperatorAct = {}): Promise<AlarmRecord[]> {
    return this.command({ action: 'acknowledge', alarm, ...act });
  }

  /** Shelves for `duration` ms (default 1 h, at most a day: shelve_duration). */
  shelve(alarm: string, options: OperatorAct & { duration?: number } = {}): Promise<AlarmRecord[]> {
    return this.command({ action: 'shelve', alarm, ...options });
  }

  unshelve(alarm: string, act: OperatorAct = {}): Promise<AlarmRecord[]> {
    return this.command({ action: 'unshelve', alarm, ...act });
  }

  /** Every unacknowledged alarm, or those of one device (config node id or device name) or area. */
  acknowledgeAll(scope: OperatorAct & { device?: string; area?: string } = {}): Promise<AlarmRecord[]> {
    return this.command({ action: 'acknowledge-all', ...scope });
  }

  /** The alarm with this id as a list shows it (`shown` is its state), or undefined when no node defines it. */
  async get(id: string): Promise<AlarmView | undefined> {
    return (await this.system()).get(id);
  }

  /** Every deployed alarm, in the operator's order (priority, newest first). */
  async list(): Promise<AlarmView[]> {
    return (await this.system()).list();
  }

  /** The journal's newest entries, newest first. */
  async journal(count = 50): Promise<AlarmRecord[]> {
    return (await this.system()).recent(count);
  }

  /** Resolves with the alarm once it shows `state`; fails after timeoutMs saying what it showed. */
  async untilState(id: string, state: AlarmState, options: { timeoutMs?: number } = {}): Promise<AlarmView> {
    if (!(ALARM_STATES as readonly string[]).includes(state))
      throw new KitError(`alarm state must be one of ${ALARM_STATES.join(', ')}, got ${show(state, 60)}`);
    let last: AlarmView | undefined;
    await this.until(async () => (last = await this.get(id))?.shown === state, {
      timeoutMs: options.timeoutMs,
      what: () => `alarm ${id} to be ${state}: ${whyNotState(id, last)}`,
    });
    return last!;
  }
}

/** What the alarm showed instead, as a sentence. */
export function whyNotState(id: string, view: AlarmView | undefined): string {
  return view ? `it is ${view.shown}` : english(phrase('alarm.unknown', { id }));
}
