/**
 * What the two readings dialogs (bmc-readings, power-readings) share, written once: the check
 * that at least one record is ticked, the label, and the interval / only-on-change / deadband
 * rows' placeholders and the deadband row shown only with "only on change"; `dialog` gives
 * them to a dialog's registerType literal. The rows themselves: readings-rows.ts.
 */
import { LIMITS, Service } from '../lib/pure/limits';
import { current } from './current';
import { defaults } from './module-choice';
import { validator } from './validator';
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

/** A readings dialog: its records, each ticked or not on a new node, in the order the label names them; how the dialog shows them. */
interface ReadingsDialog extends RecordLayout {
  records: Record<string, boolean>;
}

/**
 * A readings dialog's parts for its registerType literal, written once: its `defaults` (name,
 * Module, the records, then the polling settings both dialogs have), the label (the node's
 * name, else its records and interval), oneditprepare; and its template's shared rows put in place.
 */
function dialog(type: ReadingsType, service: Service, spec: ReadingsDialog) {
  fillTemplate(type, spec);
  const records = Object.keys(spec.records);
  const check = oneRecord(type, records);
  const recordDefaults = Object.fromEntries(records.map((r) => [r, { value: spec.records[r], label: r, validate: check }]));
  return {
    defaults: defaults(service, {
      ...recordDefaults,
      interval: { value: 0, label: 'interval', validate: validator('poll_interval', 'interval') },
      onlyOnChange: { value: false },
      deadband: { value: 0, label: 'deadband', validate: validator('deadband') },
      output: { value: 'record' },
    }),
    label(this: Node): string {
      return (this.name as string) || label(this, service, records);
    },
    prepare(): void {
      prepare(type);
    },
  };
}

export const readings = { dialog };
