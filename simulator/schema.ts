/**
 * Wire types of request bodies, checked the way the released services' JSON guard does
 * (serde with deny_unknown_fields, real §2): wrong type, missing field, extra
 * field, null for a required field, negative, float for an int, beyond u8/u16/u32 all
 * fail. The control API and the fault rules check their bodies with checkShape (400 with
 * the message); device requests are read by json.ts over the same schemas, serde's way.
 * Ranges beyond the wire type are not checked here: each dialect has its table of bounds.
 */

export type Scalar = 'u8' | 'u16' | 'u32' | 'string' | 'bool' | 'number';

export interface ArrayOf {
  readonly array: ObjectSchema;
}

export interface Field {
  readonly type: Scalar | ArrayOf;
  /** Absent or null is accepted (serde `Option<T>`). */
  readonly optional?: boolean;
}

export type ObjectSchema = Readonly<Record<string, Scalar | ArrayOf | Field>>;

/** The largest value of each unsigned wire type. */
export const SCALAR_MAX: Readonly<Record<string, number>> = { u8: 0xff, u16: 0xffff, u32: 0xffffffff };

function typeName(type: Scalar | ArrayOf): string {
  return typeof type === 'string' ? type : 'array of objects';
}

function checkScalar(type: Scalar, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'bool':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    default:
      return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= SCALAR_MAX[type];
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `true`, or a message saying which field is wrong and why. */
export function checkShape(schema: ObjectSchema, value: unknown, where = 'body'): true | string {
  if (!isPlainObject(value)) return `${where} must be a JSON object`;
  for (const key of Object.keys(value)) {
    if (!Object.prototype.hasOwnProperty.call(schema, key)) return `${where}: unknown field ${key}`;
  }
  for (const name of Object.keys(schema)) {
    const spec = schema[name];
    const field: Field = typeof spec === 'string' || 'array' in spec ? { type: spec as Scalar | ArrayOf } : (spec as Field);
    const v = value[name];
    if (v === undefined || v === null) {
      if (field.optional) continue;
      return `${where}: field ${name} is required`;
    }
    if (typeof field.type === 'string') {
      if (!checkScalar(field.type, v)) return `${where}: field ${name} must be ${typeName(field.type)}`;
      continue;
    }
    if (!Array.isArray(v)) return `${where}: field ${name} must be an array`;
    for (let i = 0; i < v.length; i++) {
      const inner = checkShape(field.type.array, v[i], `${where}.${name}[${i}]`);
      if (inner !== true) return inner;
    }
  }
  return true;
}
