/**
 * Reading back what the package set on a module, to know whether the module forgot it where
 * the device tells no session (API 0.9). A read-back is one of three answers: the setting is
 * still there (the module kept it: a reset would have taken everything), it is gone (the
 * device shows something else, said in words: the proof), or the read tells nothing (a pin set
 * analog reads as after a reset; nothing set yet).
 */
import { DeviceError, isGone } from '../base/errors';

/** true: still in place; a string: gone, what the device shows instead; undefined: the read tells nothing. */
export type ReadBack = true | string | undefined;

export interface Readable {
  inPlace?(): Promise<ReadBack>;
  /**
   * The read-back sends the setting again and judges the answer (an output, refused when the
   * power configuration is gone): a write, so only after an outage and only when no read told.
   */
  sends?: true;
}

export interface ReadBackVerdict {
  /** What proves the module forgot, in words (the first read-back that found its setting gone). */
  lost?: string;
  /** A read-back found its setting in place. */
  kept: boolean;
  /** The device went away while reading: nothing is known (the connection reads again when it is back). */
  gone: boolean;
}

/**
 * Reads `settings` back in the order given, up to the first that is gone. Those that send
 * (`sends`) only when `writes` and no plain read told anything, and then up to the first answer.
 * A read the device refuses tells nothing; one that meets an outage ends the reading.
 */
export async function readBack(settings: Iterable<Readable>, writes: boolean): Promise<ReadBackVerdict> {
  const reads: Readable[] = [];
  const sends: Readable[] = [];
  for (const setting of settings) if (setting.inPlace) (setting.sends ? sends : reads).push(setting);
  const verdict: ReadBackVerdict = { kept: false, gone: false };
  for (const tier of writes ? [reads, sends] : [reads]) {
    if (verdict.kept) break;
    for (const setting of tier) {
      let shown: ReadBack;
      try {
        shown = await setting.inPlace!();
      } catch (error) {
        if (!isGone(error) && !(error instanceof DeviceError && error.code === 'NOT_SENT')) continue;
        verdict.gone = true;
        return verdict;
      }
      if (typeof shown === 'string') {
        verdict.lost = shown;
        return verdict;
      }
      if (shown === true) {
        verdict.kept = true;
        // One write that found its setting in place is enough: the module kept it.
        if (tier === sends) break;
      }
    }
  }
  return verdict;
}
