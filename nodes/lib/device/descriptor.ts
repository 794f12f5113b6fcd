/**
 * The one fact of a module's descriptor (spec: descriptor record; real §4) the package keeps:
 * its power budget per rail in mW, which API 1.0's power-management judges a configuration
 * against (real §3.2). Read from an untrusted answer: only non-negative integers pass.
 */

export interface PowerBudget {
  p3v3?: number;
  p5v0?: number;
  p12v?: number;
}

const FIELDS = { p3v3: 'max_power_3v3', p5v0: 'max_power_5v0', p12v: 'max_power_12v' } as const;

/** The descriptor's max_power_* (u16 in the spec), or undefined when it lists none. */
export function powerBudget(descriptor: unknown): PowerBudget | undefined {
  if (!descriptor || typeof descriptor !== 'object') return undefined;
  const budget: PowerBudget = {};
  for (const [key, field] of Object.entries(FIELDS) as Array<[keyof PowerBudget, string]>) {
    const value = (descriptor as Record<string, unknown>)[field];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= 0xffff) budget[key] = value;
  }
  return Object.keys(budget).length ? budget : undefined;
}
