/**
 * The watch lease: while the sidebar's content is visible (its tab active and the sidebar
 * open), this editor POSTs WATCH_ROUTE with its watcher id, renewed at a third of the lease
 * the runtime grants, so one lost renewal does not end it; once hidden, a DELETE ends it at
 * once, and the runtime stops reading the device when no lease is left. Visibility is
 * checked on the tab's onchange, whenever the browser reports the content's visibility
 * changed, and every few seconds (Node-RED tells a tab when it is shown, not when hidden).
 */
import { WATCH_ROUTE } from '../../lib/pure/snapshot';
import { $, ajax, ajaxHeaders } from './editor-api';

/** How often visibility is checked when nothing reports a change. */
const VISIBILITY_CHECK_MS = 2000;
/** Renewal while the runtime's answer has not said the lease (its first answer replaces it). */
const FIRST_RENEW_MS = 5000;

/** Relative to the editor, so a Node-RED under httpAdminRoot or behind a proxy path works. */
const URL = WATCH_ROUTE.replace(/^\//, '');

function randomId(): string {
  const c = crypto;
  if (c?.randomUUID) return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export class Lease {
  readonly watcher = randomId();
  private visible = false;
  private renewMs = FIRST_RENEW_MS;
  private renewal: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly content: unknown,
    private readonly onVisible: (visible: boolean) => void,
  ) {
    setInterval(() => this.check(), VISIBILITY_CHECK_MS);
    const Observer = window.IntersectionObserver;
    if (Observer) new Observer(() => this.check()).observe($(content)[0]);
    // A closing editor tells the runtime at once instead of leaving the lease to expire.
    window.addEventListener('pagehide', () => this.visible && this.end(true));
    document.addEventListener('visibilitychange', () => this.check());
  }

  /** Visibility now; starts or ends the lease when it changed. */
  check(): void {
    const visible = $(this.content).is(':visible') && document.visibilityState !== 'hidden';
    if (visible === this.visible) return;
    this.visible = visible;
    if (visible) this.renew();
    else this.end(false);
    this.onVisible(visible);
  }

  /** POSTs the lease, then schedules the next renewal at a third of what the runtime granted. */
  private renew(): void {
    clearTimeout(this.renewal);
    const next = () => {
      if (this.visible) this.renewal = setTimeout(() => this.renew(), this.renewMs);
    };
    this.send('POST').then((answer: { leaseMs?: unknown } | undefined) => {
      // Hidden while this renewal was on its way: the DELETE sent then may have been handled
      // before it, leaving a fresh lease behind. Now that the POST is handled, end it again.
      if (!this.visible) {
        this.send('DELETE').catch(() => undefined);
        return;
      }
      const lease = Number(answer?.leaseMs);
      if (Number.isFinite(lease) && lease > 0) this.renewMs = lease / 3;
      next();
    }, next);
  }

  private end(unloading: boolean): void {
    clearTimeout(this.renewal);
    this.renewal = undefined;
    if (unloading) {
      this.visible = false;
      // A page going away cancels pending XHRs; a keepalive fetch still goes out, with the
      // admin token Node-RED gave jQuery for every call.
      window
        .fetch(this.url(), { method: 'DELETE', keepalive: true, headers: { ...ajaxHeaders(), 'Content-Type': 'application/json' }, body: this.body() })
        .catch(() => undefined);
    } else this.send('DELETE').catch(() => undefined);
  }

  private url(): string {
    return `${URL}?id=${encodeURIComponent(this.watcher)}`;
  }

  private body(): string {
    return JSON.stringify({ id: this.watcher });
  }

  private send(method: 'POST' | 'DELETE'): Promise<{ leaseMs?: unknown } | undefined> {
    return Promise.resolve(
      ajax({ url: this.url(), method, contentType: 'application/json', data: this.body() }) as PromiseLike<{ leaseMs?: unknown } | undefined>,
    );
  }
}
