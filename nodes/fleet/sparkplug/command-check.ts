/**
 * An NCMD's or DCMD's metrics checked before anything is sent (Sparkplug 3.0, 6.4.x; the
 * design of issue #44): each metric named (by name or alias) must be declared, writable,
 * of its declared datatype, its node type on the allow-list, and its value within the limits
 * the node checks (catalogue.ts writeOf). One metric refused refuses the whole command:
 * nothing of it is sent.
 */
import { t } from '../../lib/base/i18n';
import type { Aliases } from './aliases';
import { NODE_METRICS } from './births';
import { writeOf } from './catalogue';
import type { SpDevice } from './edge-device';
import { DecodedMetric, typeName, valueAs } from './payload';
import { DataType, DataTypeCode, MetricDef, MetricValue, WriteCommand } from './types';

const quoted = (text: string) => JSON.stringify(text.slice(0, 80));

/** The metric's name: its own, or its alias's (which must be of `device`); both given must agree. */
function nameOf(m: DecodedMetric, device: string, aliases: Aliases): string | { refused: string } {
  const byAlias = m.alias === undefined ? undefined : aliases.named(m.alias);
  if (m.alias !== undefined && (!byAlias || byAlias.device !== device)) return { refused: t('fleet-publish.spAliasUndeclared', { alias: m.alias }) };
  if (m.name !== undefined && byAlias && byAlias.name !== m.name)
    return { refused: t('fleet-publish.spAliasOther', { alias: m.alias, name: quoted(byAlias.name), other: quoted(m.name) }) };
  const name = m.name ?? byAlias?.name;
  return name === undefined ? { refused: t('fleet-publish.spNoName') } : name;
}

/** The metric's value as its declared datatype. */
function valueOf(m: DecodedMetric, datatype: DataTypeCode, name: string): MetricValue | { refused: string } {
  const said = quoted(name);
  if (m.datatype !== undefined && m.datatype !== datatype)
    return { refused: t('fleet-publish.spTypeDiffers', { metric: said, type: typeName(datatype), said: typeName(m.datatype) }) };
  if (m.isNull) return { refused: t('fleet-publish.spIsNull', { metric: said }) };
  if (m.value !== undefined) return m.value;
  if (!m.raw) return { refused: t('fleet-publish.spNoValue', { metric: said }) };
  const v = valueAs(datatype, m.raw);
  return 'refused' in v ? { refused: `${said}: ${v.refused}` } : v.value;
}

/** An NCMD: true when it asks for a rebirth (the only writable metric of the edge node), or why refused. */
export function checkNcmd(metrics: DecodedMetric[], aliases: Aliases): { rebirth: boolean } | { refused: string } {
  let rebirth = false;
  for (const m of metrics) {
    const name = nameOf(m, '', aliases);
    if (typeof name !== 'string') return name;
    if (name !== NODE_METRICS.rebirth) return { refused: t('fleet-publish.spNcmdOnly', { metric: quoted(name), rebirth: NODE_METRICS.rebirth }) };
    const value = valueOf(m, DataType.Boolean, name);
    if (typeof value === 'object') return value;
    rebirth ||= value === true;
  }
  return { rebirth };
}

export interface Write {
  def: MetricDef;
  command: WriteCommand;
}

/** A DCMD for a device: the writes it becomes, or why it is refused. */
export function checkDcmd(device: SpDevice, metrics: DecodedMetric[], aliases: Aliases, allowed: ReadonlySet<string>): Write[] | { refused: string } {
  if (!metrics.length) return { refused: t('fleet-publish.spNoMetric') };
  const writes: Write[] = [];
  for (const m of metrics) {
    const name = nameOf(m, device.id, aliases);
    if (typeof name !== 'string') return name;
    const def = device.byName.get(name);
    if (!def) return { refused: t('fleet-publish.spUndeclared', { metric: quoted(name), device: device.id }) };
    if (!def.writes) return { refused: t('fleet-publish.spReadOnly', { metric: quoted(name) }) };
    const value = valueOf(m, def.datatype, name);
    if (typeof value === 'object') return value;
    if (!allowed.has(def.writes)) {
      const list = [...allowed].join(', ') || t('fleet-publish.spNoneAllowed');
      return { refused: t('fleet-publish.spNotAllowed', { metric: quoted(name), op: def.writes, allowed: list }) };
    }
    const command = writeOf(device.service, def, value);
    if ('refused' in command) return command;
    writes.push({ def, command });
  }
  return writes;
}
