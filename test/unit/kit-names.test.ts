import 'should';
import * as kit from '../../testing';

describe("the kit's exported names (testing/index.ts)", function () {
  it('keeps SimControl, the old name of t.device, as the same class as DeviceControl', function () {
    kit.SimControl.should.equal(kit.DeviceControl);
    new kit.DeviceControl('http://127.0.0.1:1').url.should.equal('http://127.0.0.1:1');
  });
});
