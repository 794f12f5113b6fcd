/** A node's settings read by one schema (lib/action/setting-values.ts): the editor's text to values. */
import should from 'should';
import { bool, int, readWith, text } from '../../nodes/lib/action/setting-values';

describe('settings read by a schema', () => {
  const read = readWith({ operation: text('read'), port: int(2), pin: int(), state: bool(true), raw: (v: unknown) => v });
  const def = (fields: Record<string, unknown>) => ({ id: 'n', type: 'bmc-usbhub', ...fields });

  it('reads each setting with its reader, text as the editor saves it', () => {
    read(def({ operation: ' port ', port: '3', pin: '5', state: 'false', raw: 'rising' })).should.eql({
      operation: 'port',
      port: 3,
      pin: 5,
      state: false,
      raw: 'rising',
    });
  });

  it('an empty or absent setting takes its fallback; a bad number stays for the check to name', () => {
    const s = read(def({ operation: '', port: '', state: undefined }));
    s.should.eql({ operation: 'read', port: 2, pin: undefined, state: true, raw: undefined });
    should(read(def({ port: 'two' })).port).not.be.a.Number();
  });

  it('reads only the schema: other properties of the node stay out', () => {
    Object.keys(read(def({ extra: 1 }))).should.eql(['operation', 'port', 'pin', 'state', 'raw']);
  });
});
