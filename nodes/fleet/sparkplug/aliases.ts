/**
 * Metric aliases (Sparkplug 3.0, 6.4.6): one number per metric, unique across the edge node
 * (its own metrics and every device's), so a host and a DCMD may use the alias alone. Stable
 * for the session's life: a device that dies and is born again keeps its aliases, and a
 * rebirth declares the same ones.
 */
export class Aliases {
  private readonly byKey = new Map<string, number>();
  private readonly byAlias = new Map<number, { device: string; name: string }>();
  private last = 0;

  /** The alias of a metric of `device` ('' for the edge node's own), given on first use. */
  of(device: string, name: string): number {
    const key = `${device}\n${name}`;
    let alias = this.byKey.get(key);
    if (alias === undefined) {
      alias = ++this.last;
      this.byKey.set(key, alias);
      this.byAlias.set(alias, { device, name });
    }
    return alias;
  }

  /** The metric an alias stands for, if one of ours. */
  named(alias: number): { device: string; name: string } | undefined {
    return this.byAlias.get(alias);
  }
}
