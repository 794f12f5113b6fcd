/** The API 0.9 dialect (the spec of record): version 0.9 and the spec's paths and field names. */
import { Dialect } from '../router';
import { BMC_ROUTES } from './bmc';
import { error, render, versionRecord } from './common';
import { IO_ROUTES } from './io';
import { POWER_ROUTES } from './power';

export const API09: Dialect = {
  major: 0,
  minor: 9,
  versionRecord,
  routes: { io: IO_ROUTES, bmc: BMC_ROUTES, power: POWER_ROUTES },
  // A JSON array in place of the body object is refused (422): the spec shows objects only.
  arrayBodies: false,
  render,
  error,
};
