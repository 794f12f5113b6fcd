/**
 * The device sidebar's editor code, bundled by the build into resources/sidebar.js as the
 * global `ModularDeviceSidebar`; modular-device-sidebar.html calls `start()` when Node-RED
 * adds the plugin. It adds the "Device" tab, follows the runtime's snapshots (LIVE_TOPIC)
 * and holds the watch lease while the tab is seen.
 */
import { LIVE_TOPIC, LiveSnapshot } from '../../lib/pure/snapshot';
import { Lease } from './lease';
import { Panel } from './panel';
import { placeTab } from './place';
import { RED, t } from './editor-api';

export const TAB_ID = 'modular-device';

export function start(): void {
  const panel = new Panel();
  let lease: Lease | undefined;
  // One name wherever Node-RED shows the tab: its label (3.1, 4.1: the open tab), its name
  // (the tooltip, the menus, 5.0's panel heading).
  const name = t('tab.name');
  RED().sidebar.addTab({
    id: TAB_ID,
    label: name,
    name,
    iconClass: 'fa fa-microchip',
    // 5.0: the right-hand sidebar (its default, said so), top panel beside info and help.
    target: 'primary',
    content: panel.content,
    enableOnEdit: true,
    // Node-RED calls onchange just before it shows the tab's content: look once it is shown.
    onchange: () => setTimeout(() => lease?.check(), 0),
  });
  placeTab(TAB_ID);
  lease = new Lease(panel.content, (visible) => panel.setVisible(visible));
  RED().comms.subscribe(LIVE_TOPIC, (_topic: string, snapshot: LiveSnapshot) => panel.receive(snapshot));
}
