/**
 * What the two readings dialogs (bmc-readings, power-readings) share, written once: the check
 * that at least one record is ticked, the label, and the interval / only-on-change / deadband
 * rows' placeholders and the deadband row shown only with "only on change"; `dialog` gives
 * them to a dialog's registerType literal. The rows themselves: readings-rows.ts.
 */
import { LIMITS } from '../lib/pure/limits';
import { current } from './current';
import { editorRed, jquery } from './page';
import { fillTemplate, RecordLayout } from './readings-rows';

type ReadingsType = 'bmc-readings' | 'power-readings';
type Node = Record<string, unknown>;
type Field = {
  attr(name: string, value: string): Field;
  on(event: string, handler: () => void): Field;
  is(sel: string): boolean;
  toggle(show: boolean): Field;
};

/** A record as ticked in the open dialog, or as saved when no dialog is open. */
function ticked(node: Node, record: string): boolean {
  const value = current(node, record);
  return value === true || value === 'true';
}

/** A `validate` for every record's checkbox: a readings node reads at least one record. */
function oneRecord(type: ReadingsType, records: readonly string[]): (this: Node, value?: unknown, opt?: unknown) => true | string {
  return function (this: Node) {
    if (records.some((r) => ticked(this, r))) return true;
    const key = `@modular-device/node-red/${type}:${type}.errors.none`;
    const RED = editorRed<{ _(key: string): string }>();
    return RED ? RED._(key) : key;
  };
}

/** The node's label without a name: the saved records (in the given order) and the interval. */
function label(node: Node, service: string, records: readonly string[]): string {
  const parts = records.filter((r) => node[r] === true || node[r] === 'true');
  let text = `${service} ${parts.join(' + ') || 'readings'}`;
  if (Number(node.interval) > 0) text += ` every ${node.interval} ms`;
  return text;
}

/** oneditprepare's shared part: the bounds as placeholders, the deadband row only with "only on change". */
function prepare(type: ReadingsType): void {
  const $ = jquery<(sel: string) => Field>();
  if (!$) return;
  const interval = LIMITS.poll_interval;
  $('#node-input-interval').attr('placeholder', `${interval.also.join(', ')}, ${interval.min}..${interval.max}`);
  $('#node-input-deadband').attr('placeholder', `${LIMITS.deadband.min}..${LIMITS.deadband.max}`);
  const onlyOnChange = $('#node-input-onlyOnChange');
  const show = (): void => void $(`.${type}-deadband`).toggle(onlyOnChange.is(':checked'));
  onlyOnChange.on('change', show);
  show();
}

/**
 * A readings dialog's parts for its registerType literal, written once: the records' check,
 * the label (the node's name, else its records and interval), oneditprepare; and its
 * template's shared rows put in place. `records` in the order the label names them.
 */
function dialog(type: ReadingsType, service: string, records: readonly string[], layout: RecordLayout) {
  fillTemplate(type, layout);
  return {
    oneRecord: oneRecord(type, records),
    label(this: Node): string {
      return (this.name as string) || label(this, service, records);
    },
    prepare(): void {
      prepare(type);
    },
  };
}

export const readings = { dialog, oneRecord, label, prepare };
