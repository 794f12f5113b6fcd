/**
 * The bmc-watchdog dialog (bmc-watchdog.html): the bounds as placeholders, the rows shown for
 * the operation and keep-alive chosen, and the keep-alive interval the timeout allows. The
 * registerType literal, with its validators and label, stays in the html.
 */
import { DANGEROUS_OPERATIONS, FROM_MSG } from '../lib/pure/dangerous';
import { LIMITS, isEnvReference, parseInteger } from '../lib/pure/limits';
import { checkKeepAliveTimeout } from '../lib/pure/limit-rules';
import { conflictWarning } from './conflicts';
import { editorRed, jquery, JQ } from './page';

type Red = { _(key: string, values?: Record<string, unknown>): string };

const NS = '@modular-device/node-red/bmc-watchdog:bmc-watchdog.keepAlive.';

export function prepareBmcWatchdog(node: { id: string }): void {
  const $ = jquery<JQ>();
  const RED = editorRed<Red>();
  if (!$ || !RED) return;
  // What arms, saves or resets needs the confirm box (the runtime refuses it otherwise).
  const dangerous: string[] = [...DANGEROUS_OPERATIONS['bmc-watchdog'], FROM_MSG];
  // Conflicts with other nodes (two polls, two keep-alives, a pin set up twice, an output without power), named.
  conflictWarning(node);
  const L = LIMITS;
  const wd = L.watchdog_timeout;
  $('#node-input-timeout').attr('placeholder', `${wd.also.join(', ')}, ${wd.min}..${wd.max}`);
  $('#node-input-swShutdownTimeout').attr('placeholder', `${L.sw_shutdown_timeout.min}..${L.sw_shutdown_timeout.max}`);
  $('#node-input-interval').attr('placeholder', `${L.keepalive_interval.min}..`);
  function show(): void {
    const op = $('#node-input-operation').val();
    const keepAlive = $('#node-input-keepAlive').is(':checked');
    $('.bmc-watchdog-timeout').toggle(op === 'timeout' || op === 'msg' || keepAlive);
    $('.bmc-watchdog-sw').toggle(op === 'sw_shutdown_timeout' || op === 'msg');
    $('.bmc-watchdog-shutdown').toggle(op === 'shutdown' || op === 'msg');
    $('.bmc-watchdog-confirm').toggle(dangerous.indexOf(op) >= 0 || keepAlive);
    $('.bmc-watchdog-keepalive').toggle(keepAlive);
    hint();
  }
  // The intervals the timeout allows (min(limit, timeout / 2)); while the timeout cannot carry
  // a keep-alive (0 = off, or out of range: the Timeout field says why), the timeouts that can.
  function hint(): void {
    const value = $('#node-input-timeout').val();
    const timeout = parseInteger(value);
    const k = L.keepalive_interval;
    let text = ''; // a ${VAR} timeout is known only at run time
    if (checkKeepAliveTimeout(timeout) === true) {
      text = RED!._(`${NS}range`, { min: k.min, max: Math.min(k.max, Math.floor((timeout as number) / 2)) });
    } else if (!isEnvReference(value)) {
      text = RED!._(`${NS}needsTimeout`, { min: Math.max(wd.min, 2 * k.min), max: wd.max });
    }
    $('#bmc-watchdog-interval-hint')
      .text(text)
      .toggle(text !== '');
  }
  $('#node-input-operation, #node-input-keepAlive').on('change', show);
  $('#node-input-timeout').on('change keyup paste', hint);
  show();
}
