/**
 * The tab's content: a line of when the device was last read, the findings, then per
 * device (host[:port][/prefix], never a credential) its modules' cards. Before the first
 * snapshot it says it waits for one; with no module in the deployed flows, a sentence and
 * a hint of how to get one.
 */
import { Countdown } from './countdown';
import { Findings } from './findings';
import { editedNodes, followSelection, linkClicks, selectNodes } from './linking';
import { $, JQ, t } from './editor-api';
import { editorLocale } from './format';
import { LiveModule, LiveSnapshot, SNAPSHOT_GLOBAL } from '../../lib/pure/snapshot';
import { moduleCard } from './render-module';
import { usersOf } from './usage';

export class Panel {
  readonly content: JQ = $('<div>', { class: 'md-live' });
  private readonly status: JQ = $('<div>', { class: 'md-live-status' }).appendTo(this.content);
  private readonly findings = new Findings(selectNodes, () => this.visible && this.latest && this.draw(this.latest));
  private readonly devices: JQ;
  private readonly countdown = new Countdown(this.content);
  private readonly remark: () => void;
  /** The latest snapshot, drawn when the tab is seen (other editors' leases bring snapshots here too). */
  private latest: LiveSnapshot | undefined;
  private visible = false;

  constructor() {
    this.findings.box.appendTo(this.content).hide();
    this.devices = $('<div>', { class: 'md-live-devices' }).appendTo(this.content);
    this.status.text(t('waiting'));
    linkClicks(this.content);
    this.remark = followSelection(this.content);
  }

  /** A snapshot from the runtime: drawn now if the tab is seen, else when it is. */
  receive(snapshot: LiveSnapshot): void {
    this.latest = snapshot;
    // The dialogs' conflict warnings read it (nodes/editor/conflicts.ts: which API the device speaks).
    (window as unknown as Record<string, unknown>)[SNAPSHOT_GLOBAL] = snapshot;
    if (this.visible) this.draw(snapshot);
  }

  setVisible(visible: boolean): void {
    this.visible = visible;
    this.countdown.run(visible);
    if (visible && this.latest) this.draw(this.latest);
  }

  private draw(snapshot: LiveSnapshot): void {
    this.status.text(t('readAt', { time: new Date(snapshot.time).toLocaleTimeString(editorLocale()) }));
    this.devices.empty();
    if (!snapshot.modules.length) {
      this.findings.box.hide();
      $('<p>', { class: 'md-live-empty' }).text(t('empty.sentence')).appendTo(this.devices);
      $('<p>', { class: 'md-live-hint' }).text(t('empty.hint')).appendTo(this.devices);
      return;
    }
    this.findings.box.show();
    this.findings.update(snapshot);
    const nodes = editedNodes();
    const byDevice = new Map<string, LiveModule[]>();
    for (const m of snapshot.modules) byDevice.set(m.device, [...(byDevice.get(m.device) ?? []), m]);
    for (const [device, modules] of byDevice) {
      const box = $('<div>', { class: 'md-live-device', 'data-device': device }).appendTo(this.devices);
      $('<div>', { class: 'md-live-device-title' })
        .append($('<i>', { class: 'fa fa-microchip', 'aria-hidden': 'true' }), $('<span>').text(device))
        .appendTo(box);
      const sorted = [...modules].sort((a, b) => a.slot - b.slot || a.service.localeCompare(b.service));
      for (const m of sorted)
        moduleCard(
          m,
          usersOf(nodes, m.config).map((n) => n.id),
          selectNodes,
        ).appendTo(box);
    }
    this.countdown.sync(snapshot);
    this.remark();
  }
}
