/**
 * The io-power dialog (io-power.html): the table of six pins, each a rail and a current,
 * marked row by row against its rail's bound with the first problem or the total below, and
 * the table as the node stores it. The registerType literal stays in the html.
 */
import { LIMITS, Check, checkValue, entryField, isEnvReference, parseInteger } from '../lib/pure/limits';
import { checkPowerConfig, currentLimitFor } from '../lib/pure/limit-rules';
import { editorRed, jquery, JQ } from './page';
import { text } from './text';

type Red = { _(key: string, values?: Record<string, unknown>): string };
type Entry = { rail?: string; current?: unknown };

const NS = '@modular-device/node-red/io-power:io-power.';

/** A rail's current bound (an integer range for every rail the spec names). */
const railBound = (rail: string): { min: number; max: number } | undefined => currentLimitFor(rail) as { min: number; max: number } | undefined;

/**
 * The stored table as the spec's config: pin numbers 1..6 by row, currents parsed from
 * the text the dialog stored. `${VAR}` currents are checked at runtime: the editor
 * puts the rail's lowest allowed value in their place.
 */
function asConfig(pins: unknown): unknown {
  if (!Array.isArray(pins)) return pins;
  return pins.map((entry: Entry | null, i) => {
    const e: Entry = entry || {};
    let current = parseInteger(e.current);
    if (isEnvReference(e.current)) {
      const bound = railBound(String(e.rail));
      current = bound ? bound.min : current;
    }
    return { pin: i + 1, rail: e.rail, current };
  });
}

/** The `pins` setting's validate: the table as a whole, as the runtime checks it. */
function validPins(pins: unknown): true | string {
  return text(checkPowerConfig(asConfig(pins), 'io-power'));
}

/** The table's rows as the dialog shows them; `trim` as saved. */
function readTable($: JQ, trim: boolean): Entry[] {
  return $('#io-power-rows .io-power-row')
    .map(function (this: unknown) {
      const shown = $(this).find('.io-power-current').val();
      const current = trim ? String(shown).trim() : shown;
      const parsed = parseInteger(current);
      return { rail: $(this).find('.io-power-rail').val(), current: typeof parsed === 'number' ? parsed : current };
    })
    .get();
}

function prepare(node: { pins?: unknown }): void {
  const $ = jquery<JQ>();
  const RED = editorRed<Red>();
  if (!$ || !RED) return;
  const L = LIMITS;
  const body = $('#io-power-rows');
  const saved: Entry[] = Array.isArray(node.pins) ? node.pins : [];
  const rails = L.rail.values as readonly string[];

  function railText(rail: string): string {
    const bound = railBound(rail);
    return `${RED!._(`${NS}rail.${rail}`)} (${RED!._(`${NS}upTo`, { max: bound?.max })})`;
  }
  for (let p = L.pin.min; p <= L.pin.max; p++) {
    const entry: Entry = saved[p - 1] || {};
    const row = $('<tr class="io-power-row">').attr('data-pin', p).appendTo(body);
    $('<td>').css({ padding: '2px 8px', 'text-align': 'center' }).text(p).appendTo(row);
    const railCell = $('<td>').css('padding', '2px 8px').appendTo(row);
    const select = $('<select class="io-power-rail">').css('width', '190px').attr('id', `io-power-rail-${p}`).appendTo(railCell);
    rails.forEach((rail) => $('<option>').val(rail).text(railText(rail)).appendTo(select));
    select.val(rails.indexOf(String(entry.rail)) >= 0 ? entry.rail : rails[0]);
    const currentCell = $('<td>').css({ padding: '2px 8px', 'white-space': 'nowrap' }).appendTo(row);
    $('<input type="text" class="io-power-current">')
      .css('width', '90px')
      .attr('id', `io-power-current-${p}`)
      .val(entry.current === undefined || entry.current === null ? '' : String(entry.current))
      .appendTo(currentCell);
    $('<span>').text(' mA').appendTo(currentCell);
  }

  // Marks each row against its rail's bound and shows the first problem, or the total.
  function check(): void {
    let total = 0;
    let envCurrents = false;
    let firstProblem: Check | '' = '';
    $('#io-power-rows .io-power-row').each(function (this: unknown) {
      const pin = $(this).attr('data-pin');
      const input = $(this).find('.io-power-current');
      const rail = $(this).find('.io-power-rail').val();
      const shown = input.val();
      let result: Check = true;
      if (isEnvReference(shown)) {
        envCurrents = true;
      } else {
        const value = parseInteger(shown);
        result = checkValue(entryField('io-power', pin - 1, Number(pin), 'current'), currentLimitFor(rail)!, value);
        if (result === true) total += value as number;
      }
      if (result !== true && !firstProblem) firstProblem = result;
      input.toggleClass('input-error', result !== true).attr('title', result === true ? '' : text(result));
    });
    // The first row's own message names the pin; checkPowerConfig covers the rest.
    const all = firstProblem || checkPowerConfig(asConfig(readTable($, false)), 'io-power');
    const summary = $('#io-power-summary');
    if (all !== true) {
      summary.text(text(all)).addClass('io-power-error');
    } else {
      summary.removeClass('io-power-error').text(RED!._(NS + (envCurrents ? 'totalEnv' : 'total'), { total }));
    }
  }
  body.on('change keyup paste', 'select, input', check);
  check();
}

function save(node: { pins?: unknown }): void {
  const $ = jquery<JQ>();
  if ($) node.pins = readTable($, true);
}

export const ioPower = { validPins, prepare, save };
