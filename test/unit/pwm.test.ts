/**
 * planPwm: from frequency and duty to prescaler/period/time_on. Every plan must be one
 * the device accepts (checkPwm), reach the frequency within 1 %, and the duty cycle
 * within one timer step; above 1 MHz there is no plan.
 */
import should from 'should';
import { checkPwm, pwmFrequencyHz } from '../../nodes/lib/pure/limit-rules';
import { describePwm, planPwm } from '../../nodes/lib/pure/pwm';

describe('planPwm', () => {
  const FREQUENCIES = [1, 50, 1000, 20000, 1_000_000];
  const DUTIES = [0, 1, 25, 50, 99, 100];

  for (const hz of FREQUENCIES) {
    it(`${hz} Hz: within 1 %, accepted by checkPwm, duty as close as the timer allows`, () => {
      for (const duty of DUTIES) {
        const plan = planPwm(hz, duty);
        should.exist(plan, `${hz} Hz ${duty} %`);
        const { prescaler, period, time_on } = plan!;
        checkPwm({ prescaler, period, time_on }).should.equal(true, `${hz} Hz ${duty} %: ${JSON.stringify(plan)}`);
        // The device's own integer arithmetic, not the plan's claim.
        const real = pwmFrequencyHz({ prescaler, period });
        Math.abs(real - hz).should.be.belowOrEqual(hz * 0.01, `${hz} Hz planned as ${real} Hz`);
        plan!.frequencyHz.should.equal(real);
        plan!.dutyPercent.should.equal((time_on / period) * 100);
        // time_on is kept in 1..period-2: 0 % and 100 % come out as close as that allows.
        const wanted = Math.min(period - 2, Math.max(1, Math.round((duty / 100) * period)));
        time_on.should.equal(wanted, `${hz} Hz ${duty} %`);
      }
    });
  }

  it('uses the smallest prescaler that fits the 16-bit period (finest duty steps)', () => {
    planPwm(1000, 50)!.should.containEql({ prescaler: 1, period: 24000, time_on: 12000 });
    planPwm(50, 50)!.should.containEql({ prescaler: 14, period: 64000, time_on: 32000 });
    planPwm(1, 50)!.should.containEql({ prescaler: 732, period: 65484 });
    const oneMhz = planPwm(1_000_000, 50)!;
    oneMhz.should.containEql({ prescaler: 1, period: 24, time_on: 12 });
    pwmFrequencyHz(oneMhz).should.equal(1_000_000);
  });

  it('describePwm reads back what a plan gives', () => {
    const plan = planPwm(20000, 25)!;
    describePwm(plan).should.eql({ frequencyHz: plan.frequencyHz, dutyPercent: plan.dutyPercent });
  });

  it('above 1 MHz, or with nonsense input, there is no plan', () => {
    for (const hz of [1_000_001, 2_000_000, 24_000_000, Infinity, NaN, 0, -50]) should(planPwm(hz, 50)).be.undefined();
    for (const duty of [-1, 101, NaN]) should(planPwm(1000, duty)).be.undefined();
  });
});
