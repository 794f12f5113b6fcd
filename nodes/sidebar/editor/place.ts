/**
 * Where the tab's button sits in Node-RED 3.1 and 4.1, so the tab is one click away at 1280 px.
 *
 * Their sidebar shows a row of tab buttons and moves the last ones into a drop-down menu when
 * the sidebar is narrow (313 px at 1280: four buttons). The row follows the order of the tabs'
 * headers, reordered after every added tab by `editor.sidebar.order` (info, help, version
 * control, debug unless the user dragged another order), the other tabs after those in the order
 * they were added: config and context first (added at start), then plugins' tabs, last. The
 * API has no position, and `pinned` is undone by that reordering; so the tab's header and button
 * are moved before the config tab's, once, right after adding it: the row then reads info, help,
 * debug, this tab, and config, context and later tabs go to the menu first. An order the user
 * dragged that names this tab is left as it is. Node-RED 5 has a tab bar of its own
 * (`target` places the tab there) and no such row: nothing to do.
 */
import { $, RED } from './editor-api';

export function placeTab(id: string): void {
  const saved = RED().settings.get('editor.sidebar.order');
  if (Array.isArray(saved) && saved.includes(id)) return;
  const header = $(`#red-ui-tab-${id}`);
  const button = $(`#red-ui-tab-${id}-link-button`);
  const configHeader = $('#red-ui-tab-config');
  const configButton = $('#red-ui-tab-config-link-button');
  if (!header.length || !button.length || !configHeader.length || !configButton.length) return;
  if (header.parent()[0] !== configHeader.parent()[0] || button.parent()[0] !== configButton.parent()[0]) return;
  header.insertBefore(configHeader);
  button.insertBefore(configButton);
  // The row hides buttons from its end, one per resize: ours, added last, may be hidden
  // already while config's is shown; they swap, as if ours had been there all along.
  if (button.css('display') === 'none' && configButton.css('display') !== 'none') {
    button.show();
    configButton.hide();
  }
}
