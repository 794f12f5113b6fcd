/** The API 1.0 dialect (the released services): version 1.0 and their paths, fields and refusals. */
import { Dialect } from '../router';
import { BMC_ROUTES } from './bmc';
import { error, render, versionRecord } from './common';
import { IO_ROUTES } from './io';
import { POWER_ROUTES } from './power';

export const API10: Dialect = {
  major: 1,
  minor: 0,
  versionRecord,
  routes: { io: IO_ROUTES, bmc: BMC_ROUTES, power: POWER_ROUTES },
  // serde also reads a struct from a JSON array of its fields in order (real §2).
  arrayBodies: true,
  render,
  error,
};
