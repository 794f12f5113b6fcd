/**
 * The one rule for a device's base URL, used by the runtime (the client refuses a URL
 * against it), the flow check (which locates a device by it) and the config dialog (which
 * marks the field), so the three never disagree: `http:` or `https:`, a host, an optional
 * path; no user name or password (they belong in the credentials, and any `@` is refused
 * before parsing, so no shape of URL can carry one past here), no `?query`, no `#hash`.
 */

/** The parsed URL, or undefined when the rule refuses it. */
export function baseUrl(url: unknown): URL | undefined {
  if (typeof url !== 'string' || url.includes('@')) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  const http = parsed.protocol === 'http:' || parsed.protocol === 'https:';
  if (!http || parsed.username || parsed.password || parsed.search || parsed.hash) return undefined;
  return parsed;
}

/** Where a device is, for labels, messages and the flow check: host and path, never credentials. */
export function locationOf(url: URL): string {
  return `${url.host}${url.pathname.replace(/\/+$/, '')}`;
}
