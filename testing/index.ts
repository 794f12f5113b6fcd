/**
 * @modular-device/node-red/testing: test your own flows against the device simulator.
 *
 *   const { startFlows, shutdown } = require('@modular-device/node-red/testing');
 *   const t = await startFlows({ flows: 'flows.json', api: '1.0' });
 *   await t.device.pin(2, 3, { voltage_mV: 4000 });
 *   await t.nextMsg('ALARM', { where: { payload: 'ALARM pin 3: ...' } });
 *   await t.alarms.acknowledge('oven.hi', { user: 'ann', comment: 'seen' }); // device-alarm's alarms
 *   await t.alarms.untilState('oven.hi', 'active-ack');
 *   await t.stop();   // each test
 *   await shutdown(); // once, after the last test
 */
export { startFlows, FlowTest, StartOptions, WaitOptions, DEFAULT_TIMEOUT_MS } from './kit';
export { DeviceControl, SimControl, PinStimulus, FaultRule, Service, AlertFlag, HANG_MS } from './device';
export { KitError } from './errors';
export { AlarmControl, AlarmRecord, AlarmView, AlarmState, ALARM_STATES, OperatorAct, DEFAULT_SHELVE_MS } from './alarms';
export { FlowNode, Credentials } from './flows';
export { Expected, Where, difference } from './match';
export { shutdown, resolveNodeRed } from './runtime';
export { runScenario, formatReport, Report, StepResult, RunOptions } from './run';
export { checkScenario, Scenario, SCENARIO_LIMITS } from './scenario';
export { readScenario } from './scenario-file';
