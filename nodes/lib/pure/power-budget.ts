/**
 * What an io power configuration draws from the module's budget, as the released io
 * service adds it up before it asks the budget daemon (real §3.2, "How power-management is
 * decided"), in mW per rail:
 *   5V0 = Σ over 5_volt pins of (I×5 + 200), plus 400 for each 12_volt pin;
 *   12V = Σ over 12_volt pins of I×12   (I in mA).
 * That is what the module asks for; the limits are the daemon's and no answer reports them
 * (the descriptor's max_power_5v0/12v are not they), so the sidebar shows the ask as an
 * information on API 1.0 and judges nothing. API 0.9 documents no such rule (spec rule 7).
 * Pure: the sidebar (editor bundle) uses it.
 */

/** The formula's constants (real §3.2). */
export const POWER_BUDGET = {
  volts5: 5,
  perPin5vMw: 200,
  per12vPinOn5vMw: 400,
  volts12: 12,
  source: 'real §3.2, How power-management is decided',
} as const;

export interface BudgetUse {
  p5v0: number;
  p12v: number;
}

/** mW used per rail by entries of known rail and current (mA); other rails count nothing. */
export function budgetUse(entries: ReadonlyArray<{ rail: string; current: number }>): BudgetUse {
  let p5v0 = 0;
  let p12v = 0;
  for (const { rail, current } of entries) {
    if (rail === '5_volt') p5v0 += current * POWER_BUDGET.volts5 + POWER_BUDGET.perPin5vMw;
    else if (rail === '12_volt') {
      p5v0 += POWER_BUDGET.per12vPinOn5vMw;
      p12v += current * POWER_BUDGET.volts12;
    }
  }
  return { p5v0, p12v };
}
