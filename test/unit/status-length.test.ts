/**
 * Every status a node shows fits the workspace: Node-RED's editor cuts a status at about 60
 * characters, and the package's own `short()` cuts there too, so a longer one loses its end.
 * Each status template is said with the longest values it realistically gets (the limits'
 * maxima, six pins, all four alerts, an IPv4 address with a port), in English and German,
 * through Node-RED's real i18n.
 */
import 'should';
import { LIMITS } from '../../nodes/lib/pure/limits';
import { catalogsReady, inLanguage } from '../helpers/i18n';

const MAX = 60;
const L = LIMITS;

/** A template: its catalog (a node type, or the shared one) and key, with the longest values. */
type Template = [catalog: string, key: string, values?: Record<string, string | number | Template>];

/** A status said in `language`, nested templates first (a cause said in the same language). */
function said(language: string, [catalog, key, values = {}]: Template): string {
  const translate = inLanguage(language);
  const filled: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) filled[name] = Array.isArray(value) ? said(language, value) : String(value);
  return translate(`@modular-device/node-red/${catalog}:${catalog}.${key}`, filled);
}

const SHARED = 'modular-device';
const reason = 'connect ECONNREFUSED 192.168.100.200:8080';
const clock = '12:59:59 PM';

const TEMPLATES: Template[] = [
  [SHARED, 'status.connecting'],
  [SHARED, 'status.connected', { api: '1.0' }],
  [SHARED, 'status.unreachable', { reason }],
  [SHARED, 'status.down', { reason: '503 Service Temporarily Unavailable' }],
  [SHARED, 'status.refused', { reason: '401 Unauthorized' }],
  // TLS: the short words of each problem, with the longest values they get (an IPv4 host).
  ...['untrusted', 'selfSigned', 'expired', 'notYetValid', 'hostName', 'clientCertRequired', 'clientCertRefused', 'clientCertClosed', 'notTls', 'plainHttp', 'handshake'].map(
    (problem): Template => [SHARED, 'status.tls', { reason: [SHARED, `runtime.common.tlsBrief.${problem}`, { day: '2026-11-24', name: '192.168.100.200' }] }],
  ),
  [SHARED, 'status.noDevice'],
  [SHARED, 'runtime.common.resetBy', { type: 'notification-poll' }],
  // A conflict names the other node by its type (a name, when it has one, is cut by short()).
  [SHARED, 'runtime.common.conflict.twoPolls', { other: 'notification-poll' }],
  [SHARED, 'runtime.common.conflict.twoKeepAlives', { other: 'bmc-watchdog' }],
  [SHARED, 'runtime.common.conflict.pin', { other: 'io-threshold', pin: 6 }],
  [SHARED, 'runtime.common.conflict.outputAsInput', { other: 'io-threshold', pin: 6 }],
  [SHARED, 'runtime.common.conflict.noPower'],
  [SHARED, 'runtime.common.reapplying', { cause: [SHARED, 'runtime.common.resetBy', { type: 'notification-poll' }] }],
  [SHARED, 'runtime.common.restored', { status: 'pin 6 digital, falling 1000 ms, counter' }],
  ['bmc-system', 'runtime.bootloaderOn', { timeout: L.bootloader_timeout.max }],
  ['bmc-system', 'runtime.buzzer', { mode: L.buzzer_mode.max, duration: L.buzzer_duration.max }],
  ['bmc-usbhub', 'runtime.portOff', { port: L.usb_port.max }],
  ['bmc-usbhub', 'status.resetDone'],
  ['bmc-watchdog', 'runtime.timeout', { timeout: L.watchdog_timeout.max }],
  ['bmc-watchdog', 'runtime.shutdownTimeout', { timeout: L.sw_shutdown_timeout.max }],
  ['bmc-watchdog', 'runtime.keepAlive', { interval: L.keepalive_interval.max, timeout: L.watchdog_timeout.max }],
  ['bmc-watchdog', 'runtime.keepAliveRearmed', { interval: L.keepalive_interval.max, timeout: L.watchdog_timeout.max }],
  ['bmc-watchdog', 'runtime.state', { timeout: L.watchdog_timeout.max, left: L.watchdog_timeout.max }],
  ['bmc-watchdog', 'runtime.keepAliveLate', { since: L.watchdog_timeout.max, left: L.watchdog_timeout.max }],
  ['io-input', 'runtime.pinMode', { pin: 6, mode: 'digital' }],
  ['io-output', 'runtime.pinState', { pin: 6, state: 'high' }],
  ['io-output', 'runtime.pinPwm', { pin: 6, duty: 100 }],
  ['io-power', 'runtime.done', { pins: 6, total: 6 * L.current_12_volt.max }],
  ['io-threshold', 'runtime.armed', { pin: 6, trigger: 'falling', threshold: L.threshold_mV.max }],
  ['io-threshold', 'runtime.off', { pin: 6 }],
  ['notification-poll', 'runtime.polling', { interval: L.notification_interval.max }],
  ['notification-poll', 'runtime.alert', { pin: 6, alerts: 'threshold or interrupt +3', time: clock }],
  ['power-fan', 'runtime.notReached', { mode: 100, wait: L.fan_wait.max, now: 100 }],
  ['power-fan', 'runtime.at', { mode: 100 }],
  ['power-fan', 'runtime.setting', { mode: 100 }],
  ['power-readings', 'runtime.protections', { n: 99999 }],
];

describe('statuses fit the workspace (at most 60 characters, en and de)', () => {
  before(() => catalogsReady);
  for (const language of ['en-US', 'de']) {
    for (const template of TEMPLATES) {
      it(`${language} ${template[0]} ${template[1]}`, () => {
        const text = said(language, template);
        text.should.not.endWith(template[1], 'a missing key');
        text.length.should.be.belowOrEqual(MAX, text);
      });
    }
  }
});
