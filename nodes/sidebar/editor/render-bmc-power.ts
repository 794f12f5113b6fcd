/**
 * The bodies of bmc and power modules. bmc: watchdog timeout and a countdown of timeout_left
 * (countdown.ts counts it down between snapshots), temperatures, voltages, USB hub. power:
 * each rail's voltage, current and limit, protection counters, temperatures and the fan.
 */
import type { LiveBmc, LiveModule, LivePower } from '../../lib/pure/snapshot';
import { row, section } from './dom';
import { fieldLabel, hubWord } from './field-names';
import { entries, num, seconds, withUnit } from './format';
import { $, JQ, t } from './editor-api';

/** A record's readings, each named as a user reads it (field-names.ts); data-field keeps the wire name. */
function readings(title: string, record: Record<string, number | string> | undefined, unit = '', word = (v: string) => v): JQ | undefined {
  if (!record || !Object.keys(record).length) return undefined;
  const box = section(title);
  for (const [name, value] of entries(record, unit))
    row(fieldLabel(name), typeof record[name] === 'string' ? word(value) : value)
      .attr('data-field', name)
      .appendTo(box);
  return box;
}

function watchdog(bmc: LiveBmc, config: string): JQ | undefined {
  const w = bmc.watchdog;
  if (!w) return undefined;
  const box = section(t('bmc.watchdog'));
  if (w.timeout === 0) row(t('bmc.timeout'), t('bmc.disabled')).attr('data-field', 'timeout').appendTo(box);
  else {
    row(t('bmc.timeout'), seconds(w.timeout)).attr('data-field', 'timeout').appendTo(box);
    row(t('bmc.left'), seconds(w.timeout_left), 'md-live-countdown').attr('data-config', config).appendTo(box);
  }
  if (w.emergency_mode) row(t('bmc.emergency'), t('yes'), 'md-live-over').appendTo(box);
  return box;
}

export function bmcBody(m: LiveModule): JQ {
  const body = $('<div>', { class: 'md-live-body' });
  const bmc = m.bmc;
  if (!bmc) return body;
  body.append(
    watchdog(bmc, m.config),
    readings(t('temperatures'), bmc.temperature, '°C'),
    readings(t('bmc.voltages'), bmc.voltage, 'mV'),
    readings(t('bmc.usbhub'), bmc.usbhub, '', hubWord),
  );
  return body;
}

const RAILS = ['3v3', '5v0', '12v'];

function rails(stats: Record<string, number>): JQ {
  const box = section(t('power.rails'));
  for (const rail of RAILS) {
    const v = stats[`voltage_${rail}`];
    const i = stats[`current_${rail}`];
    const limit = stats[`limit_${rail}`];
    if (v === undefined && i === undefined) continue;
    const said = (x: number | undefined) => (x === undefined ? '–' : num(x));
    row(t(`power.rail.${rail}`), t('power.railReading', { v: said(v), i: said(i), limit: said(limit) }))
      .attr('data-rail', rail)
      .appendTo(box);
  }
  return box;
}

function fan(f: NonNullable<LivePower['fan']>): JQ {
  const box = section(t('power.fan'));
  row(t('power.fanMode'), f.fan_forced ? t('power.fanForced', { mode: f.fan_setting_mode ?? '–' }) : t('power.fanAuto')).appendTo(box);
  if (f.fan_current_mode !== undefined) row(t('power.fanNow'), withUnit(f.fan_current_mode, '%')).appendTo(box);
  if (f.rpm !== undefined) row(t('power.rpm'), t('power.rpmValue', { rpm: num(f.rpm) })).appendTo(box);
  return box;
}

export function powerBody(m: LiveModule): JQ {
  const body = $('<div>', { class: 'md-live-body' });
  const p = m.power;
  if (!p) return body;
  body.append(
    p.stats ? rails(p.stats) : undefined,
    readings(t('power.protection'), p.protection),
    readings(t('temperatures'), p.temperature, '°C'),
    p.fan ? fan(p.fan) : undefined,
  );
  return body;
}
