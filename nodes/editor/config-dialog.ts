/**
 * The config node's dialog (modular-device.html): the auth rows shown for the auth chosen,
 * Discover and Test with their one line of outcome and the list of modules found, and the
 * rule that a result never outlives the settings it describes. The registerType literal
 * stays in the html (node-red-dev reads it); its oneditprepare calls `prepareConfigDialog`.
 */
import { LIMITS } from '../lib/pure/limits';
import { serviceOfNew } from './module-choice';
import { editorRed, jquery, JQ } from './page';

type Red = { _(key: string, values?: Record<string, unknown>): string };
type Xhr = {
  status: number;
  statusText: string;
  responseJSON?: { error?: string; errors?: Record<string, unknown>; words?: { key: string; vars?: Record<string, unknown> } };
};
type Found = { service: string; slot: number; api: string };

const NS = '@modular-device/node-red/modular-device:modular-device.';
const CONNECTION_FIELDS = ['url', 'auth', 'username', 'password', 'token', 'tls'];
const MODULE_FIELDS = ['service', 'slot', 'apiVersion', 'timeout', 'answerLimit'];

export function prepareConfigDialog(node: { id: string }): void {
  const $ = jquery<JQ>();
  const RED = editorRed<Red>();
  if (!$ || !RED) return;
  const input = (name: string): JQ => $(`#node-config-input-${name}`);
  // Added from a node's Module list, which shows only its service: start with that one.
  if (serviceOfNew(node)) input('service').val(serviceOfNew(node));
  function showAuth(): void {
    const auth = input('auth').val();
    $('.modular-device-basic').toggle(auth === 'basic');
    $('.modular-device-bearer').toggle(auth === 'bearer');
  }
  input('auth').on('change', showAuth);
  showAuth();

  const result = $('#modular-device-result');
  const list = $('#modular-device-modules');
  // What the shown result is about: 'discover' (URL, auth, TLS) or 'test' (those, module,
  // API version); `asked` counts changes, so an answer to settings since changed is dropped.
  let about = '';
  let asked = 0;
  // One line of outcome: running (plain), failed (error colour), or a good answer
  // (success colour and a tick), as Node-RED's own dialogs show them.
  function say(text: string, kind?: 'ok' | 'error'): void {
    result
      .empty()
      .removeClass('modular-device-error modular-device-ok')
      .addClass(kind ? `modular-device-${kind}` : '');
    if (kind === 'ok') $('<i class="fa fa-check-circle"></i> ').appendTo(result);
    if (kind === 'error') $('<i class="fa fa-exclamation-triangle"></i> ').appendTo(result);
    $('<span>').text(text).appendTo(result);
  }
  function failure(xhr: Xhr): string {
    const answer = xhr.responseJSON || {};
    if (xhr.status === 401 || xhr.status === 403) return RED!._(`${NS}errors.permission`);
    // A TLS problem comes as words too: said in the editor's language (values as they are).
    const words = answer.words;
    if (words && /^runtime\.common\.tls\.\w+$/.test(words.key)) {
      const vars = { ...words.vars, interpolation: { escapeValue: false } };
      const sentence = `TLS: ${RED!._(NS + words.key, vars)}`;
      return Object.keys(answer.errors || {}).length
        ? RED!._(`${NS}discover.noneAnswered`, { reason: sentence, interpolation: { escapeValue: false } })
        : sentence;
    }
    return answer.error || `${xhr.status} ${xhr.statusText}`;
  }
  // Results found for another URL, or before a Test, would speak of a device the
  // dialog no longer asks about: they go.
  function clearModules(): void {
    list.empty().hide();
  }
  // The module the form names (service and slot) is the one in use: marked in the list.
  function markInUse(): void {
    const service = input('service').val();
    const slot = String(input('slot').val()).trim();
    list.find('.modular-device-module').each(function (this: unknown) {
      const row = $(this);
      const inUse = row.attr('data-service') === service && row.attr('data-slot') === slot;
      row.toggleClass('modular-device-in-use', inUse).attr('aria-selected', String(inUse));
      row.find('.modular-device-in-use-badge').toggle(inUse);
    });
  }
  function moduleRow(m: Found): JQ {
    const row = $('<li class="modular-device-module" role="option" tabindex="0"></li>')
      .attr('data-service', m.service)
      .attr('data-slot', String(m.slot))
      .attr('aria-label', RED!._(`${NS}discover.pick`, { service: m.service, slot: m.slot }));
    $('<i class="fa fa-cube modular-device-module-icon"></i>').appendTo(row);
    $('<span class="modular-device-module-name"></span>')
      .text(`${m.service} · ${RED!._(`${NS}label.slot`)} ${m.slot}`)
      .appendTo(row);
    $('<span class="modular-device-module-api"></span>')
      .text(RED!._(`${NS}discover.api`, { api: m.api }))
      .appendTo(row);
    $('<span class="modular-device-in-use-badge"></span>')
      .text(RED!._(`${NS}discover.inUse`))
      .hide()
      .appendTo(row);
    function pick(): void {
      input('service').val(m.service).trigger('change');
      input('slot').val(m.slot).trigger('change');
      markInUse();
    }
    row.on('click', pick).on('keydown', (e: KeyboardEvent) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        pick();
      }
    });
    return row;
  }
  $('#node-config-input-service, #node-config-input-slot').on('change keyup', markInUse);
  // A result never outlives the settings it describes: a Test's goes with any setting it
  // used; a Discover's (and its list) with what reaching the device takes (URL, auth,
  // credentials, TLS); a running one is not shown when it ends.
  function forget(what: 'connection' | 'module'): void {
    if (what !== 'connection' && about !== 'test') return;
    asked++;
    about = '';
    result.empty().removeClass('modular-device-error modular-device-ok');
    if (what === 'connection') clearModules();
  }
  const selectors = (names: string[]): string => names.map((n) => `#node-config-input-${n}`).join(', ');
  $(selectors(CONNECTION_FIELDS)).on('change input', () => forget('connection'));
  $(selectors(MODULE_FIELDS)).on('change input', () => forget('module'));
  // A config node saved before the answer limit existed (or imported without it) shows the default it runs with.
  if (input('answerLimit').val() === '') input('answerLimit').val(LIMITS.answer_limit.default);

  // What both buttons send: the dialog as it stands, its TLS configuration and
  // credentials included, so Discover reaches whatever Test reaches.
  function dialogFields(): Record<string, unknown> {
    const tls = input('tls').val();
    return {
      id: node.id,
      url: input('url').val(),
      service: input('service').val(),
      slot: input('slot').val(),
      apiVersion: input('apiVersion').val(),
      timeout: input('timeout').val(),
      queueLimit: input('queueLimit').val(),
      answerLimit: input('answerLimit').val(),
      auth: input('auth').val(),
      tls: tls === '_ADD_' ? '' : tls,
      credentials: { username: input('username').val(), password: input('password').val(), token: input('token').val() },
    };
  }
  function post(route: string, body: Record<string, unknown>): JQ {
    return $.ajax({ url: route, type: 'POST', contentType: 'application/json', data: JSON.stringify(body), dataType: 'json' });
  }

  $('#modular-device-discover').on('click', () => {
    say(RED._(`${NS}discover.running`));
    clearModules();
    about = 'discover';
    const mine = ++asked;
    post('modular-device/discover', dialogFields())
      .done((answer: { modules: Found[] }) => {
        if (mine !== asked) return;
        if (!answer.modules.length) {
          say(RED._(`${NS}discover.none`), 'error');
          return;
        }
        say(RED._(`${NS}discover.found`, { count: answer.modules.length }));
        answer.modules.forEach((m) => moduleRow(m).appendTo(list));
        markInUse();
        list.show();
      })
      .fail((xhr: Xhr) => {
        if (mine === asked) say(failure(xhr), 'error');
      });
  });

  $('#modular-device-test').on('click', () => {
    clearModules();
    say(RED._(`${NS}test.running`));
    about = 'test';
    const mine = ++asked;
    post('modular-device/test', dialogFields())
      .done((answer: Found) => {
        if (mine === asked) say(RED._(`${NS}test.ok`, { api: answer.api, service: answer.service, slot: answer.slot }), 'ok');
      })
      .fail((xhr: Xhr) => {
        if (mine === asked) say(failure(xhr), 'error');
      });
  });
}
