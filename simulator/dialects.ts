/**
 * The API dialects the simulated device speaks: each its `MAJOR.MINOR`, a route table per
 * service (its folder's io.ts, bmc.ts, power.ts) and how it writes answers (its common.ts).
 */
import { BMC_ROUTES as BMC_09 } from './api09/bmc';
import * as answers09 from './api09/common';
import { IO_ROUTES as IO_09 } from './api09/io';
import { POWER_ROUTES as POWER_09 } from './api09/power';
import { BMC_ROUTES as BMC_10 } from './api10/bmc';
import * as answers10 from './api10/common';
import { IO_ROUTES as IO_10 } from './api10/io';
import { POWER_ROUTES as POWER_10 } from './api10/power';
import { Dialect } from './router';

type Traits = Pick<Dialect, 'major' | 'minor' | 'arrayBodies'>;
type Answers = Pick<Dialect, 'versionRecord' | 'render' | 'error'>;

/** A dialect; only the answer functions are taken from its common.ts, which exports more. */
function dialect(traits: Traits, answers: Answers, routes: Dialect['routes']): Dialect {
  const { versionRecord, render, error } = answers;
  return { ...traits, versionRecord, routes, render, error };
}

/**
 * API 0.9, the spec of record: its paths and field names. A JSON array in place of the body
 * object is refused (422): the spec shows objects only.
 */
export const API09 = dialect({ major: 0, minor: 9, arrayBodies: false }, answers09, { io: IO_09, bmc: BMC_09, power: POWER_09 });

/**
 * API 1.0, the released services: their paths, fields and refusals. serde also reads a
 * struct from a JSON array of its fields in order (real §2).
 */
export const API10 = dialect({ major: 1, minor: 0, arrayBodies: true }, answers10, { io: IO_10, bmc: BMC_10, power: POWER_10 });
