/**
 * What a Sparkplug DCMD write becomes (catalogue.ts writeOf) is a msg the real action node
 * runs: every write the catalogue lets pass, at the edges of its limits, sent into io-output
 * and io-threshold on the test runtime against the simulator (API 0.9, or 1.0 with MD_API),
 * reaches the device as the write it says, with nothing at Catch; and the node's answer, back
 * in fleet-publish, says the value written.
 */
import should from 'should';
import { changesOfReading, metricNamed, writeOf } from '../../nodes/fleet/sparkplug/catalogue';
import { moduleOfRequest } from '../../nodes/fleet/scheme';
import type { MetricValue } from '../../nodes/fleet/sparkplug/types';
import { runtimeSuite } from '../helpers/runtime-suite';
import { MODULES } from '../helpers/node-red';
import { IO_NODE_MODULES, loadActionsQuiet, send, wire } from '../helpers/io-nodes';

const OUTPUT = {
  id: 'out',
  type: 'io-output',
  pin: '1',
  mode: 'state',
  state: 'low',
  pwmInput: 'raw',
  frequency: '1000',
  duty: '50',
  prescaler: '47',
  period: '1000',
  time_on: '500',
};
const THRESHOLD = { id: 'thr', type: 'io-threshold', pin: '1', threshold_mV: '3000', trigger: 'rising', analogFirst: true, applyOnConnect: false };

/** [metric, value, the node's id, the wire calls (spec form) it must make]. */
const WRITES: Array<[string, MetricValue, string, Array<[string, Record<string, unknown>]>]> = [
  ['Pin 2/Output', true, 'out', [['output/state', { pin: 2, state: 'high' }]]],
  ['Pin 6/Output', false, 'out', [['output/state', { pin: 6, state: 'low' }]]],
  ['Pin 4/PWM/Setting', '1000 Hz 25 %', 'out', [['output/pwm', { pin: 4, prescaler: 1, period: 24000, time_on: 6000 }]]],
  ['Pin 3/PWM/Setting', '1 Hz 0 %', 'out', []],
  ['Pin 3/PWM/Setting', '1000000 Hz 100 %', 'out', []],
  [
    'Pin 3/Threshold/Voltage',
    50,
    'thr',
    [
      ['input/mode', { pin: 3, mode: 'analog' }],
      ['input/analog/threshold', { pin: 3, threshold_mV: 50, trigger: 'rising' }],
    ],
  ],
  [
    'Pin 3/Threshold/Voltage',
    25000,
    'thr',
    [
      ['input/mode', { pin: 3, mode: 'analog' }],
      ['input/analog/threshold', { pin: 3, threshold_mV: 25000, trigger: 'rising' }],
    ],
  ],
  [
    'Pin 5/Threshold/Trigger',
    'disabled',
    'thr',
    [
      ['input/mode', { pin: 5, mode: 'analog' }],
      ['input/analog/threshold', { pin: 5, threshold_mV: 3000, trigger: 'disabled' }],
    ],
  ],
  [
    'Pin 5/Threshold/Trigger',
    'falling',
    'thr',
    [
      ['input/mode', { pin: 5, mode: 'analog' }],
      ['input/analog/threshold', { pin: 5, threshold_mV: 3000, trigger: 'falling' }],
    ],
  ],
];

describe('Sparkplug writes reach the device through the real action nodes (runtime, simulator)', function () {
  this.timeout(20000);
  const { ctl } = runtimeSuite({ powered: true });

  for (const [name, value, node, calls] of WRITES)
    it(`${name} = ${JSON.stringify(value)}`, async () => {
      const command = writeOf('io', metricNamed('io', name)!, value);
      if ('refused' in command) throw new Error(`refused: ${command.refused}`);
      command.op.should.equal(node === 'out' ? 'io-output' : 'io-threshold');
      const outcomes = await loadActionsQuiet(ctl, [OUTPUT, THRESHOLD], { modules: [...IO_NODE_MODULES, MODULES.ioOutput] });
      // As fleet-publish's command output sends it (publisher.ts): topic <svc>/<slot>/<op>, the payload, fleetCommand.
      const msg = { topic: `io/2/${command.op}`, payload: command.payload, fleetCommand: { ref: '1', id: 'sp', op: command.op, via: 'sparkplug' } };
      should(await send(outcomes, node, msg as never)).be.undefined();
      const sent = await wire(ctl);
      // The simulator's log in the spec's terms (sim-control.ts): the same rows on 0.9 and 1.0.
      if (calls.length) sent.should.eql(calls.map(([leaf, body]) => ['POST', `/api/io/0.9/2/${leaf}`, body]));
      else sent.map(([method, path]) => `${method} ${path}`).should.eql(['POST /api/io/0.9/2/output/pwm']);
      // The node's answer back into fleet-publish says the value written: the metric the host wrote.
      const [answer] = outcomes.sent(node);
      const module = moduleOfRequest(answer.request)!;
      const said = changesOfReading('io', module.what, answer.payload, answer.request).find((c) => c.name === name);
      if (calls.length) should(said).eql({ name, value });
      else should(said).have.property('value').which.is.a.String();
    });
});
