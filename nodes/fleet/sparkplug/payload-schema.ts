/**
 * The Sparkplug B Payload message (Sparkplug 3.0, chapter 6.4), written from the
 * specification's field numbers and types as a protobufjs JSON descriptor, and built on first
 * use: protobufjs is required here only, so a Node-RED that never turns Sparkplug on never
 * loads it.
 *
 * Why protobufjs/light with a JSON descriptor, not a parsed .proto: light has no .proto parser
 * (smaller, nothing to read from disk), and the descriptor is code the compiler and the linter
 * see like any other.
 *
 * The values we never send nor accept (DataSet, Template, extensions, nested property sets,
 * metadata) are declared as `bytes`: a payload that carries them is read without recursing
 * into them (the decode stays flat and bounded), and a command with one is refused.
 */
import type { Type } from 'protobufjs';

const opt = (id: number, type: string) => ({ id, type });
const rep = (id: number, type: string) => ({ id, type, rule: 'repeated' });

const SCHEMA = {
  nested: {
    Payload: {
      // The specification's syntax: explicit presence (a seq of 0 is on the wire), repeated scalars unpacked.
      // Without it protobufjs reads a JSON descriptor as proto3 and leaves zeros out.
      edition: 'proto2',
      fields: { timestamp: opt(1, 'uint64'), metrics: rep(2, 'Metric'), seq: opt(3, 'uint64'), uuid: opt(4, 'string'), body: opt(5, 'bytes') },
      nested: {
        Metric: {
          oneofs: {
            value: {
              oneof: [
                'intValue',
                'longValue',
                'floatValue',
                'doubleValue',
                'booleanValue',
                'stringValue',
                'bytesValue',
                'datasetValue',
                'templateValue',
                'extensionValue',
              ],
            },
          },
          fields: {
            name: opt(1, 'string'),
            alias: opt(2, 'uint64'),
            timestamp: opt(3, 'uint64'),
            datatype: opt(4, 'uint32'),
            isHistorical: opt(5, 'bool'),
            isTransient: opt(6, 'bool'),
            isNull: opt(7, 'bool'),
            metadata: opt(8, 'bytes'),
            properties: opt(9, 'PropertySet'),
            intValue: opt(10, 'uint32'),
            longValue: opt(11, 'uint64'),
            floatValue: opt(12, 'float'),
            doubleValue: opt(13, 'double'),
            booleanValue: opt(14, 'bool'),
            stringValue: opt(15, 'string'),
            bytesValue: opt(16, 'bytes'),
            datasetValue: opt(17, 'bytes'),
            templateValue: opt(18, 'bytes'),
            extensionValue: opt(19, 'bytes'),
          },
        },
        PropertySet: { fields: { keys: rep(1, 'string'), values: rep(2, 'PropertyValue') } },
        PropertyValue: {
          oneofs: {
            value: {
              oneof: [
                'intValue',
                'longValue',
                'floatValue',
                'doubleValue',
                'booleanValue',
                'stringValue',
                'propertysetValue',
                'propertysetsValue',
                'extensionValue',
              ],
            },
          },
          fields: {
            type: opt(1, 'uint32'),
            isNull: opt(2, 'bool'),
            intValue: opt(3, 'uint32'),
            longValue: opt(4, 'uint64'),
            floatValue: opt(5, 'float'),
            doubleValue: opt(6, 'double'),
            booleanValue: opt(7, 'bool'),
            stringValue: opt(8, 'string'),
            propertysetValue: opt(9, 'bytes'),
            propertysetsValue: opt(10, 'bytes'),
            extensionValue: opt(11, 'bytes'),
          },
        },
      },
    },
  },
};

let payloadType: Type | undefined;
/** The schema, built on first use (protobufjs is required here only). */
export function schema(): Type {
  if (!payloadType) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pb = require('protobufjs/light') as typeof import('protobufjs');
    payloadType = pb.Root.fromJSON(SCHEMA).lookupType('Payload');
  }
  return payloadType;
}
