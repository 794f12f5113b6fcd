/**
 * The fields of the device's state an expectDevice may name: those GET /sim/state shows of
 * an io pin and of a module of each service. Each list is checked by the compiler against
 * the simulator's own snapshot type (a field missing here, or one the simulator has not,
 * fails the build), so a scenario's typo ("treshold") is refused at load, not waited for.
 */
import type { BmcModuleState, IoModuleState, IoPinState, PowerModuleState } from '../simulator';
import type { Service } from './scenario';

/** Every key of T, none more: `satisfies` makes the compiler hold a list to the type. */
type Keys<T> = { [K in keyof Required<T>]: true };

const PIN = {
  pin: true,
  mode: true,
  threshold: true,
  interrupt: true,
  counter: true,
  output: true,
  pwm: true,
  alerts: true,
  pwmFrequencyHz: true,
  stimulus: true,
  reading: true,
  currentMa: true,
} satisfies Keys<IoPinState>;

const MODULE: Record<Service, Record<string, true>> = {
  io: { slot: true, service: true, session: true, powerConfig: true, pins: true, alertFlags: true } satisfies Keys<IoModuleState>,
  bmc: {
    slot: true,
    service: true,
    session: true,
    world: true,
    persistent: true,
    watchdog: true,
    shutdown: true,
    usbhub: true,
    bootloader: true,
    buzzer: true,
  } satisfies Keys<BmcModuleState>,
  power: {
    slot: true,
    service: true,
    session: true,
    world: true,
    counters: true,
    limitMa: true,
    stats: true,
    fan: true,
    rpm: true,
  } satisfies Keys<PowerModuleState>,
};

/**
 * The fields of an io pin's state, of a module of a service, or of any module (a slot whose
 * service the scenario does not say: the flows' config nodes decide it later).
 */
export function stateKeys(of: 'pin' | Service | 'module'): string[] {
  if (of === 'pin') return Object.keys(PIN);
  if (of === 'module') return [...new Set(Object.values(MODULE).flatMap((keys) => Object.keys(keys)))];
  return Object.keys(MODULE[of]);
}
