/**
 * "Only on change" with a deadband: remembers the last value sent per key and says
 * whether a new one differs by more than the deadband. Used by every node that reads
 * values, so a steady signal does not flood a flow.
 */
export class ChangeFilter {
  private readonly last = new Map<string, unknown>();

  constructor(private readonly deadband: number) {}

  /** True when `value` should be sent (first value, or moved past the deadband); remembers it. */
  changed(key: string, value: unknown, useDeadband = true): boolean {
    const had = this.last.has(key);
    const before = this.last.get(key);
    let differs: boolean;
    if (!had) differs = true;
    else if (typeof value === 'number' && typeof before === 'number' && useDeadband) differs = Math.abs(value - before) > this.deadband;
    else differs = value !== before;
    if (differs) this.last.set(key, value);
    return differs;
  }

  /** Like `changed`, for several values at once: true when any moved; remembers only then. */
  anyChanged(values: Array<[string, unknown, boolean?]>): boolean {
    const moved = values.some(([key, value, useDeadband = true]) => {
      if (!this.last.has(key)) return true;
      const before = this.last.get(key);
      if (typeof value === 'number' && typeof before === 'number' && useDeadband) return Math.abs(value - before) > this.deadband;
      return value !== before;
    });
    if (moved) for (const [key, value] of values) this.last.set(key, value);
    return moved;
  }
}
