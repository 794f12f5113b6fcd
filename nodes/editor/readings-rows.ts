/**
 * The form rows the two readings dialogs share, written once: the records to read, then
 * interval, only on change, deadband and output. Each dialog's template keeps its Module and
 * Name rows and marks the place of these with ROWS_MARK; `fillTemplate` puts them there when
 * the dialog's script runs. Node-RED reads a template from the page each time a dialog
 * opens, and the script runs once its node's html is in the page, so every dialog has them.
 */
import { jquery } from './page';

/** Where a readings template takes the shared rows. */
export const ROWS_MARK = '<!-- readings rows: nodes/editor/readings-rows.ts -->';

/** How a dialog shows its records: side by side in one row, or a row each. */
export interface RecordLayout {
  /** The records in the order the dialog shows them. */
  shown: readonly string[];
  stacked: boolean;
}

const CHECKBOX = 'style="display: inline-block; width: auto; vertical-align: top;"';
const INDENT = '    ';

/** A form row of `lines`, indented as the templates are. */
function row(lines: string[], cls = 'form-row'): string {
  return [`<div class="${cls}">`, ...lines.map((l) => INDENT + l), '</div>'].map((l) => INDENT + l).join('\n');
}

function checkbox(type: string, prop: string, labelStyle: string): string[] {
  return [
    `<input type="checkbox" id="node-input-${prop}" ${CHECKBOX}>`,
    `<label for="node-input-${prop}" style="${labelStyle}" data-i18n="${type}.label.${prop}"></label>`,
  ];
}

function recordRows(type: string, layout: RecordLayout): string[] {
  const head = `<label><i class="fa fa-list"></i> <span data-i18n="${type}.label.read"></span></label>`;
  if (!layout.stacked) {
    const last = layout.shown.length - 1;
    return [row([head, ...layout.shown.flatMap((r, i) => checkbox(type, r, i < last ? 'width: auto; margin-right: 16px;' : 'width: auto;'))])];
  }
  return layout.shown.map((r, i) => row([i === 0 ? head : '<label>&nbsp;</label>', ...checkbox(type, r, 'width: 70%;')]));
}

function pollingRows(type: string): string[] {
  const label = (prop: string, icon: string) =>
    `<label for="node-input-${prop}"><i class="fa ${icon}"></i> <span data-i18n="${type}.label.${prop}"></span></label>`;
  return [
    row([label('interval', 'fa-repeat'), '<input type="text" id="node-input-interval" style="width: 120px;"> ms']),
    row(['<label>&nbsp;</label>', `<span class="form-tips" style="display: inline-block; width: 70%;" data-i18n="${type}.tips.interval"></span>`]),
    row(['<label>&nbsp;</label>', ...checkbox(type, 'onlyOnChange', 'width: 70%;')]),
    row(
      [
        label('deadband', 'fa-arrows-h'),
        '<input type="text" id="node-input-deadband" style="width: 120px;">',
        `<span class="form-tips" style="margin-left: 8px;" data-i18n="${type}.tips.deadband"></span>`,
      ],
      `form-row ${type}-deadband`,
    ),
    row([
      label('output', 'fa-sign-out'),
      '<select id="node-input-output" style="width: 70%;">',
      `${INDENT}<option value="record" data-i18n="${type}.output.record"></option>`,
      `${INDENT}<option value="per-field" data-i18n="${type}.output.per-field"></option>`,
      '</select>',
    ]),
  ];
}

/** The shared rows of a readings dialog, as its template's text. */
export function readingsRows(type: string, layout: RecordLayout): string {
  return [...recordRows(type, layout), ...pollingRows(type)].join('\n');
}

type Template = { length: number; text(): string; text(value: string): Template };

/** Puts the shared rows in place of ROWS_MARK in the template of `type`; once only, the mark goes. */
export function fillTemplate(type: string, layout: RecordLayout): void {
  const $ = jquery<(sel: string) => Template>();
  const template = $?.(`script[data-template-name="${type}"]`);
  if (!template || !template.length || !template.text().includes(ROWS_MARK)) return;
  template.text(template.text().replace(ROWS_MARK, readingsRows(type, layout)));
}
