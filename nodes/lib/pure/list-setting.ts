/**
 * A list setting (notification-poll's pins and alerts, device-status's kinds), read one way
 * by the runtime, the flow check and the dialogs: the array the dialog saves, or text
 * separated by commas (a hand-edited flow, an env variable); entries trimmed, empty ones
 * dropped. Absent is the empty list (the nodes read it as "all"); any other value is no
 * list, and undefined says so, for the caller to refuse.
 */
export function listSetting(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
  return items?.map((item) => String(item).trim()).filter(Boolean);
}
