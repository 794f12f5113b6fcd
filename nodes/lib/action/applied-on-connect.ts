/**
 * What a node whose settings are state kept on the module (a pin's mode, an interrupt, the
 * power configuration) declares, written once: its settings checked at deploy, applied each
 * time the module connects when "apply on connect" is ticked, and put back after a reset in
 * the spec's order (`phase`, desired-state.ts PHASE), the last msg's values winning.
 */
import type { NodeMessage } from '../base/node-red';
import type { Operation } from './operation';

export function appliedOnConnect<S extends { applyOnConnect: boolean }>(build: (msg: NodeMessage, settings: S) => Operation, phase: number) {
  return {
    checkOnDeploy: true,
    onConnect: (s: S) => (s.applyOnConnect ? build({}, s) : undefined),
    phase,
    remembers: true,
  };
}
