/**
 * The device's field names (ntc_0, voltage_1v8, port_slot_3, ovp_cnt_5v0, ...) as a user
 * reads them, from the sidebar's catalogue: the spec says what each one measures, the wire
 * name stays beside the words where it is what a flow's msg carries (ntc_0). A name the
 * catalogue does not know (a newer service's field) is shown as the device sent it.
 */
import { t } from './editor-api';

/** Fields the spec names one by one (bmc board readings, power temperature and protection log): key `field.<name>`. */
export const NAMED_FIELDS = [
  'ntc_0',
  'ntc_1',
  'voltage_1v8',
  'voltage_rtc',
  'hub_state',
  'on_board_temp',
  'pmc_temp',
  'opp_protection_cnt',
  'pmc_temperature',
  'total_power_overload',
] as const;

/** port_slot_<n> (the USB hub's ports, named for the slot they feed). */
const PORT = /^port_slot_(\d{1,2})$/;
/** ovp/uvp/ocp_cnt_<rail> (the protection log's counters per rail). */
const COUNTER = /^(ovp|uvp|ocp)_cnt_(3v3|5v0|12v)$/;

/** The USB hub's port and hub states (spec: enabled, disabled, not available) → their keys. */
const HUB_WORDS: Record<string, string> = { enabled: 'usb.enabled', disabled: 'usb.disabled', 'not available': 'usb.notAvailable' };

export function fieldLabel(name: string): string {
  if ((NAMED_FIELDS as readonly string[]).includes(name)) return t(`field.${name}`);
  const port = PORT.exec(name);
  if (port) return t('field.port_slot', { n: port[1] });
  const counter = COUNTER.exec(name);
  if (counter) return t(`field.${counter[1]}`, { rail: t(`power.rail.${counter[2]}`) });
  return name;
}

/** A hub word in the editor's language; another word as the device sent it. */
export function hubWord(word: string): string {
  const key = HUB_WORDS[word];
  return key ? t(key) : word;
}
