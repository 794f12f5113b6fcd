#!/usr/bin/env node
/**
 * `npm run bench`: every scenario of the benchmark, each in a fresh process, against a
 * simulator in its own process over loopback. Prints the tables (Markdown, as in the
 * docs/performance.md) and writes bench/results.json. A benchmark, not a test:
 * it exits 0 whatever the figures; non-zero only when a scenario could not run.
 *
 *   node --expose-gc bench/run.js [--quick] [--only load,write,read,notify,scale,scale10,installation,installation10,memory,alarms,sparkplug,footprint] [--pins 1,2]
 *
 * --quick: small counts (a smoke run of a few minutes, figures not comparable).
 * --pins: the pins the scale scenarios' notification-poll nodes watch (default: all six).
 * BENCH_ROOT=<dir>: measure another build of the package (see lib.js).
 */
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { fork } = require('child_process');
const lib = require('./lib');

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const onlyIndex = argv.indexOf('--only');
const only = onlyIndex >= 0 ? argv[onlyIndex + 1].split(',') : null;
const pinsIndex = argv.indexOf('--pins');
const installationArgs = quick ? ['--seconds', '6', '--segments', '1', '--warmup', '1000', '--settle', '2000'] : [];
const scaleArgs = [...(quick ? ['--seconds', '5', '--segments', '1'] : []), ...(pinsIndex >= 0 ? ['--pins', argv[pinsIndex + 1]] : [])];

const TARGETS = {
  throughputToHttpRequest: 3,
  throughputToRawHttp: 0.5,
  /** Ours against the minimal node (issue #28): msgs/s at least, CPU per msg at most. */
  throughputToPlainNode: 0.95,
  cpuToPlainNode: 1.1,
  notificationSlackMs: 10,
  scaleCpuPercent: 25,
  scaleLoopP99Ms: 20,
  heapGrowthMB: 2,
  /** Issue #40: 1,000 alarms at 100 transitions/s; the journal batched (at most one write per its interval, 1 s). */
  alarmLoopP99Ms: 20,
  alarmJournalWritesPerSecond: 1,
  /** Issue #45: where a plant lives. */
  installationCpuPerMsgToPlain: 1.1,
  amongAllToPlainNode: 0.95,
  scale10AlertP99Ms: 200,
  addedStartMs: 200,
  addedRssMB: 15,
};

/**
 * Every target with its figure, met or missed, from the scenarios that ran: printed first
 * and kept in results.json (`targetsMet`), so a reader never has to find them in the tables.
 */
function targetList(results) {
  const list = [];
  const add = (what, figure, target, met) => list.push({ what, figure: figure ?? null, target, met: figure === null || figure === undefined ? null : met });
  for (const key of ['write', 'read']) {
    const q = results[key] && results[key].ratios;
    if (!q) continue;
    add(
      `${key}: ours / minimal node, msgs/s (phase 1)`,
      q.oursToPlainNode,
      `≥ ${TARGETS.throughputToPlainNode}×`,
      q.oursToPlainNode >= TARGETS.throughputToPlainNode,
    );
    add(
      `${key}: ours / minimal node, CPU per msg (phase 1)`,
      q.cpuOursToPlainNode,
      `≤ ${TARGETS.cpuToPlainNode}×`,
      q.cpuOursToPlainNode <= TARGETS.cpuToPlainNode,
    );
    add(
      `${key}: ours / minimal node, msgs/s, among every client (phase 2)`,
      q.oursToPlainNodeAmongAll,
      `≥ ${TARGETS.amongAllToPlainNode}×`,
      q.oursToPlainNodeAmongAll >= TARGETS.amongAllToPlainNode,
    );
  }
  for (const r of [results.installation, results.installation10].filter(Boolean)) {
    const q = r.ratios.cpuPerMsgToPlain;
    add(
      `installation, API ${r.api}: ours / minimal flows, CPU per msg`,
      q,
      `≤ ${TARGETS.installationCpuPerMsgToPlain}×`,
      q <= TARGETS.installationCpuPerMsgToPlain,
    );
  }
  if (results.scale10) {
    const p99 = results.scale10.alertLatencyMs.p99;
    add(`${results.scale10.modules} modules on API 1.0: alert latency p99 (ms)`, p99, `≤ ${TARGETS.scale10AlertP99Ms} ms`, p99 <= TARGETS.scale10AlertP99Ms);
  }
  if (results.footprint) {
    const a = results.footprint.added;
    add('footprint: start-up added by the package and its demos (ms)', a.startMs, `< ${TARGETS.addedStartMs} ms`, a.startMs < TARGETS.addedStartMs);
    add('footprint: RSS added by the package and its demos, running (MB)', a.rssMB, `< ${TARGETS.addedRssMB} MB`, a.rssMB < TARGETS.addedRssMB);
  }
  return list;
}

/** Runs one scenario script in a fresh process; resolves its result. */
function scenario(file, args = []) {
  return new Promise((resolve, reject) => {
    const load = os.loadavg()[0];
    const started = Date.now();
    const child = fork(path.join(__dirname, file), args, { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let outcome;
    child.on('message', (m) => (outcome = m));
    child.on('exit', (code) => {
      if (outcome && outcome.result) {
        resolve({
          ...outcome.result,
          loadAverage1m: { start: lib.round(load, 2), end: lib.round(os.loadavg()[0], 2) },
          wallSeconds: lib.round((Date.now() - started) / 1000, 1),
        });
      } else reject(new Error(`${file} ${args.join(' ')}: ${outcome && outcome.error ? outcome.error : `exited with ${code}`}`));
    });
  });
}

function progress(text) {
  process.stderr.write(`bench: ${text}\n`);
}

// ---- tables -------------------------------------------------------------------------------

function table(head, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

const yes = (ok) => (ok ? 'met' : '**missed**');
const fmt = (v, digits = 2) => (v === null || v === undefined || Number.isNaN(v) ? '–' : typeof v === 'number' ? String(lib.round(v, digits)) : String(v));

function throughputTable(r) {
  const f = r.figures;
  const rows = [
    ['ours (' + (r.scenario === 'write' ? 'io-output' : 'io-read') + ')', f.ours],
    ['ours, 32 msgs in flight', f['ours (pipelined)']],
    ['ours: the client alone (no Node-RED)', f['ours (client only)']],
    ['core http request node (keep-alive, JSON)', f['http request']],
    ['minimal node: one plain `http.request` per msg (keep-alive, JSON)', f['plain node']],
    ['ours, in rounds with the minimal node alone (phase 1)', r.limit && r.limit.ours],
    ['minimal node, in those rounds (phase 1)', r.limit && r.limit['plain node']],
    ['axios loop (keep-alive, maxRedirects 0)', f.axios],
    ['axios loop (keep-alive, defaults)', f['axios default']],
    ['raw `http.request` loop (keep-alive)', f['raw http']],
  ].filter(([, v]) => v);
  return table(
    ['client', 'msgs/s', 'p50 ms', 'p99 ms', 'CPU µs/msg', 'simulator CPU µs/msg'],
    rows.map(([name, v]) => [name, fmt(v.perSecond, 0), fmt(v.p50ms, 3), fmt(v.p99ms, 3), fmt(v.cpuUsPerMsg, 0), fmt(v.simCpuUsPerMsg, 0)]),
  );
}

function ratioLine(r) {
  const q = r.ratios;
  return (
    `ours / http request node = **${fmt(q.oursToHttpRequest)}×** (target ≥ ${TARGETS.throughputToHttpRequest}×: ${yes(q.oursToHttpRequest >= TARGETS.throughputToHttpRequest)}); ` +
    `ours / raw http = **${fmt(q.oursToRawHttp)}×** (target ≥ ${TARGETS.throughputToRawHttp}×: ${yes(q.oursToRawHttp >= TARGETS.throughputToRawHttp)}); ` +
    `ours / minimal node (the limit of a Node-RED node, phase 1) = **${fmt(q.oursToPlainNode)}×** msgs/s (target ≥ ${TARGETS.throughputToPlainNode}×: ${yes(q.oursToPlainNode >= TARGETS.throughputToPlainNode)}), ` +
    `**${fmt(q.cpuOursToPlainNode)}×** CPU per msg (target ≤ ${TARGETS.cpuToPlainNode}×: ${yes(q.cpuOursToPlainNode <= TARGETS.cpuToPlainNode)}); ` +
    `among every client (phase 2) **${fmt(q.oursToPlainNodeAmongAll)}×** msgs/s (target ≥ ${TARGETS.amongAllToPlainNode}×: ${yes(q.oursToPlainNodeAmongAll >= TARGETS.amongAllToPlainNode)}), ${fmt(q.cpuOursToPlainNodeAmongAll)}× CPU per msg; that limit is ${fmt(q.plainNodeToHttpRequest)}× the http request node, the raw loop ${fmt(q.rawHttpToHttpRequest)}×; ` +
    `ours / axios = ${fmt(q.oursToAxios)}×; 32 in flight: ${fmt(q.pipelinedToHttpRequest)}× http request, ${fmt(q.pipelinedToRawHttp)}× raw http. ` +
    `${r.n} msgs per client and phase in ${r.rounds} interleaved rounds; out of order: ${r.outOfOrder}; errors: ${r.errors}.`
  );
}

function report(results, facts) {
  const out = [];
  out.push(
    `Machine: ${facts.cores} × ${facts.cpu}, ${facts.memoryGiB} GiB, ${facts.platform}; Node ${facts.node}, Node-RED ${facts.nodeRed}, axios ${facts.axios}; ` +
      `${facts.date}; load average at start ${facts.loadAverage.join(' / ')}.`,
  );
  const targets = targetList(results);
  if (targets.length) {
    out.push('\n### Targets\n');
    out.push(
      table(
        ['figure', 'this run', 'target', ''],
        targets.map((x) => [x.what, fmt(x.figure), x.target, x.met === null ? '–' : yes(x.met)]),
      ),
    );
  }
  for (const key of ['write', 'read']) {
    const r = results[key];
    if (!r) continue;
    out.push(`\n### ${key === 'write' ? '1. Write: `POST output/state`, sequential' : '2. Read: `GET input/values`, sequential'}\n`);
    out.push(throughputTable(r));
    out.push(`\n${ratioLine(r)}`);
  }
  if (results.notify) {
    out.push('\n### 3. Notification latency (alert raised → msg out of notification-poll)\n');
    out.push(
      table(
        [
          'poll interval',
          'alerts',
          'missed',
          'p50 ms',
          'p99 ms',
          'max ms',
          'p99 from the control answer',
          'target p99',
          '',
          'event-loop delay p99: Node-RED / idle process',
        ],
        results.notify.results.map((x) => [
          `${x.intervalMs} ms`,
          x.alerts,
          x.missed + (x.unexpected ? ` (+${x.unexpected} unexpected)` : ''),
          fmt(x.fromSendMs.p50, 1),
          fmt(x.fromSendMs.p99, 1),
          fmt(x.fromSendMs.max, 1),
          fmt(x.fromAnswerMs.p99, 1),
          `≤ ${x.targetP99Ms} ms, none missed`,
          yes(x.met),
          `${fmt(x.eventLoopDelayMs && x.eventLoopDelayMs.p99, 1)} / ${fmt(x.idleProcessEventLoopDelayMs && x.idleProcessEventLoopDelayMs.p99, 1)} ms`,
        ]),
      ),
    );
  }
  const scales = [results.scale, results.scale10].filter(Boolean);
  if (scales.length) {
    const s0 = scales[0];
    out.push(
      `\n### 4. Scale: ${s0.modules} modules, notification-poll every ${s0.intervalMs} ms on each (pins: ${s0.pins}), ${lib.round(s0.seconds, 0)} s in ${s0.segments} turns\n`,
    );
    out.push(
      table(
        [
          'device API',
          'Node-RED process CPU (target < 25 % of one core)',
          'event-loop delay p99 (max) (target < 20 ms)',
          'idle process alongside: p99 (max)',
          'device requests/s',
          'CPU µs/request',
          'alerts',
          'missed',
          'alert latency p50 / p99',
          'plain `http.request` poller: CPU, requests/s',
          'ours / plain: CPU (per request)',
        ],
        scales.map((s) => [
          s.api,
          `${fmt(s.cpuPercentOfOneCore, 1)} % (${yes(s.cpuPercentOfOneCore < TARGETS.scaleCpuPercent)})`,
          `${fmt(s.eventLoopDelayMs.p99)} ms (${fmt(s.eventLoopDelayMs.max)}) (${yes(s.eventLoopDelayMs.p99 < TARGETS.scaleLoopP99Ms)})`,
          s.idleProcessEventLoopDelayMs ? `${fmt(s.idleProcessEventLoopDelayMs.p99)} ms (${fmt(s.idleProcessEventLoopDelayMs.max)})` : '–',
          s.requestsPerSecond,
          fmt(s.cpuUsPerRequest, 0),
          s.alerts,
          s.missed,
          `${fmt(s.alertLatencyMs.p50, 1)} / ${fmt(s.alertLatencyMs.p99, 1)} ms` +
            (s.api === '1.0' ? ` (p99 ≤ ${TARGETS.scale10AlertP99Ms} ms: ${yes(s.alertLatencyMs.p99 <= TARGETS.scale10AlertP99Ms)})` : ''),
          s.plain ? `${fmt(s.plain.cpuPercentOfOneCore, 1)} %, ${s.plain.requestsPerSecond}` : '–',
          s.ratios ? `**${fmt(s.ratios.cpuToPlain)}×** (${fmt(s.ratios.cpuPerRequestToPlain)}×)` : '–',
        ]),
      ),
    );
    if (results.scale10) out.push('\nAPI 1.0 (the released services) reads notifications pin by pin: one request per watched pin per round instead of one.');
    out.push(
      '\nThe plain poller (one plain `http.request` per device request, keep-alive) makes the same requests at the same pace against the same simulator, ' +
        'taking turns with ours in the same run: ours / plain is the figure a busy machine does not distort.',
    );
  }
  if (results.memory) {
    const m = results.memory;
    out.push(`\n### 5. Memory: ${m.msgs} msgs (half io-output, half io-read), after a full GC\n`);
    out.push(
      table(
        ['', 'heap used MB', 'RSS MB'],
        [
          ['before', fmt(m.before.heapUsedMB), fmt(m.before.rssMB, 1)],
          ['after', fmt(m.after.heapUsedMB), fmt(m.after.rssMB, 1)],
          ['growth', `**${fmt(m.heapGrowthMB)}** (target < ${TARGETS.heapGrowthMB} MB: ${yes(m.met)})`, fmt(m.rssGrowthMB, 1)],
        ],
      ),
    );
  }
  if (results.load) {
    const l = results.load;
    out.push('\n### 6. Package load time (fresh process each)\n');
    out.push(
      table(
        ['first require → all node types registered', 'of which inside require()', 'node types', "Node-RED's whole start"],
        [[`${fmt(l.requireToRegisteredMs, 1)} ms`, `${fmt(l.insideRequireMs, 1)} ms`, l.types, `${fmt(l.nodeRedStartMs, 0)} ms`]],
      ),
    );
    out.push(`\nMedian of ${l.samples.length} fresh processes: ${l.samples.map((s) => s.requireToRegisteredMs).join(', ')} ms.`);
  }
  const installations = [results.installation, results.installation10].filter(Boolean);
  if (installations.length) out.push(installationReport(installations));
  if (results.footprint) out.push(footprintReport(results.footprint));
  if (results.alarms) out.push(alarmsReport(results.alarms));
  if (results.sparkplug) out.push(sparkplugReport(results.sparkplug));
  return out.join('\n');
}

/** "METHOD /path × count, ..." of a request mix, or "none". */
const requestList = (mix) =>
  Object.entries(mix)
    .map(([request, count]) => `\`${request}\` × ${count}`)
    .join(', ') || 'none';

/** Scenario 7, one or both device APIs: a row per API and contestant, the ratio in the row of ours. */
function installationReport(runs) {
  const r = runs[0];
  const i = r.intervalsMs;
  const row = (api, name, f, ratios) => [
    api,
    name,
    `${fmt(f.cpuPercentOfOneCore, 1)} %`,
    fmt(f.requestsPerSecond, 0),
    fmt(f.msgsPerSecond, 0),
    fmt(f.cpuUsPerRequest, 0),
    fmt(f.cpuUsPerMsg, 0),
    `${fmt(f.eventLoopDelayMs.p99)} ms (${fmt(f.eventLoopDelayMs.max)})`,
    f.errors,
    `${fmt(f.simulatorCpuPercent, 1)} %`,
    ratios
      ? `**${fmt(ratios.cpuPerMsgToPlain)}×** (${fmt(ratios.cpuPerRequestToPlain)}×) (≤ ${TARGETS.installationCpuPerMsgToPlain}×: ${yes(ratios.cpuPerMsgToPlain <= TARGETS.installationCpuPerMsgToPlain)})`
      : '',
  ];
  return [
    `\n### 7. An installation: ${r.devices} devices × 3 modules (bmc, power, io), ${lib.round(r.ours.seconds, 0)} s each in ${r.segments} turns\n`,
    `Per device: bmc-readings every ${i.bmc / 1000} s, power-readings every ${i.power / 1000} s, notification-poll every ${i.notify} ms, ` +
      `the bmc-watchdog keep-alive every ${i.keepAlive / 1000} s, io-output driven at ${r.outputHz} Hz. ` +
      'The same flows built from minimal nodes (`bench-plain-poll`, `bench-plain-http`) make the same requests at the same pace, taking turns with ours.\n',
    table(
      [
        'device API',
        'flows of',
        'Node-RED CPU (% of one core)',
        'device requests/s',
        'msgs/s',
        'CPU µs/request',
        'CPU µs/msg',
        'event-loop delay p99 (max)',
        'errors',
        'simulator CPU',
        'ours / minimal: CPU per msg (per request)',
      ],
      runs.flatMap((x) => [row(x.api, 'ours', x.ours, x.ratios), row(x.api, 'minimal nodes', x.plain)]),
    ),
    `\nRatios: median of the ${r.segments} segments. ` +
      runs
        .map((x) => `API ${x.api}: requests only ours made: ${requestList(x.onlyIn.ours)}; only the minimal nodes: ${requestList(x.onlyIn.plain)}.`)
        .join(' ') +
      ' (All counts in bench/results.json.)',
  ].join('\n');
}

/** Scenario 10: the footprint, Node-RED with the package and its demos against the same without. */
function footprintReport(f) {
  return [
    `\n### 10. Footprint: Node-RED ${f.nodeRed} with and without the package (${f.samples} fresh processes each, taking turns; start-up of ${f.starts || f.samples})\n`,
    `With: the package installed and \`npm start\`'s demo flows (${f.demos.join(', ')}) running against a simulator for ${f.settleSeconds} s; without: the same Node-RED, no package, no flows.\n`,
    f.young
      ? `The RSS it keeps: once V8 gave back the young generation it grew during the start (bench/footprint-probe.js says why), then after two full collections. Held at ${f.settleSeconds} s with / without: ${f.young.with.grownAtSettle} / ${f.young.without.grownAtSettle} of ${f.samples}; given back a median ${fmt(f.young.with.waitedMedianMs / 1000, 1)} / ${fmt(f.young.without.waitedMedianMs / 1000, 1)} s later; not within ${f.youngWaitSeconds} s: ${f.young.with.notBack} / ${f.young.without.notBack}.\n`
      : '',
    table(
      ['', 'start-up (spawn → "Started flows")', 'its CPU time', 'RSS it keeps', 'RSS as it was', 'heap used'],
      [
        [
          'without the package',
          `${fmt(f.without.startMs, 0)} ms`,
          `${fmt(f.without.startCpuMs, 0)} ms`,
          `${fmt(f.without.rssAfterGcMB, 1)} MB`,
          `${fmt(f.without.rssMB, 1)} MB`,
          `${fmt(f.without.heapUsedMB, 1)} MB`,
        ],
        [
          'with the package and its demos',
          `${fmt(f.with.startMs, 0)} ms`,
          `${fmt(f.with.startCpuMs, 0)} ms`,
          `${fmt(f.with.rssAfterGcMB, 1)} MB`,
          `${fmt(f.with.rssMB, 1)} MB`,
          `${fmt(f.with.heapUsedMB, 1)} MB`,
        ],
        [
          'added',
          `**${fmt(f.added.startMs, 0)} ms** (< ${f.targets.addedStartMs} ms: ${yes(f.met.startMs)})`,
          `${fmt(f.added.startCpuMs, 0)} ms`,
          `**${fmt(f.added.rssMB, 1)} MB** (< ${f.targets.addedRssMB} MB: ${yes(f.met.rssMB)})`,
          `${fmt(f.added.rssAsItIsMB, 1)} MB`,
          `${fmt(f.added.heapUsedMB, 1)} MB`,
        ],
      ],
    ),
    f.heapSpaces
      ? `\nWhere the memory is (V8's heap spaces, physical, with / without): ${Object.keys(f.heapSpaces.with)
          .map(
            (space) =>
              `${space} ${fmt(f.heapSpaces.with[space].physicalMB, 1)} / ${fmt(f.heapSpaces.without[space] ? f.heapSpaces.without[space].physicalMB : 0, 1)} MB`,
          )
          .join(', ')}.`
      : '',
    '\nMedians of the samples; every sample is in bench/results.json.',
  ].join('\n');
}

/** Scenario 8: the alarms, with the list node listening and without it. */
function alarmsReport(r) {
  const row = (name, p) => [
    name,
    `${fmt(p.transitionsPerSecond, 1)} (${p.transitionMsgs} msgs)`,
    `${fmt(p.eventLoopDelayMs.p99)} ms (${fmt(p.eventLoopDelayMs.max)}) (< ${TARGETS.alarmLoopP99Ms} ms: ${yes(p.eventLoopDelayMs.p99 < TARGETS.alarmLoopP99Ms)})`,
    `${fmt(p.cpuPercentOfOneCore, 1)} %`,
    fmt(p.cpuUsPerTransition, 0),
    `${p.journal.writes} (${fmt(p.journal.writesPerSecond)}/s, ${fmt(p.journal.transitionsPerWrite, 0)} transitions each) (≤ ${TARGETS.alarmJournalWritesPerSecond}/s: ${yes(p.journal.writesPerSecond <= TARGETS.alarmJournalWritesPerSecond)})`,
    `${fmt(p.journal.bytesWritten / 2 ** 20)} MiB, ${fmt(p.journal.bytesPerSecond / 1024, 0)} KiB/s, ${fmt(p.journal.bytesPerWrite / 1024, 0)} KiB a write`,
    p.lists,
  ];
  return [
    `\n### 8. Alarms: ${r.alarms} device-alarm nodes (a boolean condition each), ${r.rate} transitions per second for ${r.seconds} s, the journal's ring full\n`,
    table(
      [
        'flow',
        'transitions/s',
        'event-loop delay p99 (max)',
        'Node-RED CPU (% of one core)',
        'CPU µs/transition',
        'journal writes',
        'journal bytes',
        'lists sent',
      ],
      [row('with device-alarm-list listening', r.withList), row('alarm nodes alone', r.alone)],
    ),
    `\nThe journal's own pace: at most one write per ${r.journalBounds.intervalMs / 1000} s, and ${r.journalBounds.writeBytesPerSecond / 1024} KiB/s on average (a 1 MB file every 4 s). Idle process alongside (the machine's noise): ` +
      `${[r.withList, r.alone].map((p) => (p.idleProcessEventLoopDelayMs ? `p99 ${fmt(p.idleProcessEventLoopDelayMs.p99)} ms (${fmt(p.idleProcessEventLoopDelayMs.max)})` : '–')).join(' / ')}.`,
    `\nThe list node: ${r.list.sent} lists (${fmt(r.list.perSecond, 1)}/s), each ${fmt(r.list.bytes / 1024, 0)} KiB as JSON and ${fmt(r.list.buildMs)} ms to build (${r.alarms} alarms, 50 journal entries); ` +
      `its cost ${fmt(r.list.cpuUsPerTransition, 0)} µs of CPU per transition. ` +
      `Deploy of the ${r.alarms} nodes: ${fmt(r.deployMs, 0)} ms.`,
  ].join('\n');
}

/** Scenario 9: Sparkplug B, with UNS mode on the same flows as the baseline of the same run. */
function sparkplugReport(r) {
  const row = (name, m) =>
    m
      ? [
          name,
          `${fmt(m.cpuPercentPerInstance.mean, 1)} % (max ${fmt(m.cpuPercentPerInstance.max, 1)} %)`,
          fmt(m.brokerMsgsPerSecond, 1),
          fmt(m.brokerKiBPerSecond, 1),
          `${fmt(m.startSeconds, 1)} s`,
        ]
      : [name, '–', '–', '–', '–'];
  const q = r.ratios;
  const b = r.sparkplug && r.sparkplug.birth;
  return [
    `\n### 9. Sparkplug B: ${r.devices} devices × 3 modules on ${r.instances} Node-RED instance${r.instances > 1 ? 's' : ''} per mode, ${r.seconds} s in ${r.segments} turns\n`,
    'Per device: bmc-readings every 5 s, power-readings and io-read every 2 s, notification-poll every 1 s, into fleet-publish; ' +
      `${r.alertsPerSecond} alerts/s raised on random io pins. Sparkplug: each instance an edge node, each module a device, on the embedded broker (aedes); ` +
      'UNS: the same flows, fleet-publish wired to the core mqtt out node. The two modes run side by side, each on a simulated fleet of its own with the same alerts; figures and ratios are medians of the turns.\n',
    table(
      ['mode', 'Node-RED CPU per instance (% of one core)', 'broker msgs/s', 'broker KiB/s', 'start → every module announced'],
      [row('UNS (JSON topics)', r.uns), row('Sparkplug B', r.sparkplug)],
    ),
    q && q.cpu !== null
      ? `\nSparkplug / UNS: CPU **${fmt(q.cpu)}×**, broker msgs/s **${fmt(q.brokerMsgsPerSecond)}×**, bytes/s **${fmt(q.brokerBytesPerSecond)}×**, start ${fmt(q.start)}×.`
      : '',
    b
      ? `\nBirths of one edge node: NBIRTH ${b.nbirthBytes} bytes (${b.nbirthMetrics} metrics) + ${b.dbirths} DBIRTHs ${b.dbirthBytes} bytes (${b.dbirthMetrics} metrics) = **${b.bytesPerEdgeNode} bytes**; ` +
        `a rebirth (NCMD \`Node Control/Rebirth\` → the last DBIRTH at the host): **${fmt(b.rebirthMs.median, 0)} ms** (median of ${b.rebirthMs.samples.length}).`
      : '',
  ].join('\n');
}

/** Whether the simulator of this build has --api (API 1.0 arrived after 0.9). */
function simulatorSpeaks(api) {
  const help = require('child_process').spawnSync(process.execPath, [path.join(lib.DIST, 'simulator', 'cli.js'), '--help'], { encoding: 'utf8' });
  return (help.stdout || '').includes('--api') && (help.stdout || '').includes(api);
}

// ---- main ---------------------------------------------------------------------------------

async function main() {
  lib.checkBuilt();
  const facts = lib.machine();
  const started = Date.now();
  const want = (name) => !only || only.includes(name);
  const results = {};
  const n = quick ? ['--n', '2000', '--rounds', '2'] : [];
  if (want('load')) {
    progress('package load time (3 fresh processes)');
    const samples = [];
    for (let i = 0; i < 3; i++) samples.push(await scenario('loadtime.js'));
    const mid = [...samples].sort((a, b) => a.requireToRegisteredMs - b.requireToRegisteredMs)[1];
    results.load = { ...mid, samples };
  }
  if (want('write')) {
    progress('1. write throughput');
    results.write = await scenario('throughput.js', ['--scenario', 'write', ...n]);
  }
  if (want('read')) {
    progress('2. read throughput');
    results.read = await scenario('throughput.js', ['--scenario', 'read', ...n]);
  }
  if (want('notify')) {
    progress('3. notification latency');
    results.notify = await scenario('notify.js', quick ? ['--alerts', '50'] : []);
  }
  if (want('scale')) {
    progress('4. scale (30 s)');
    results.scale = await scenario('scale.js', scaleArgs);
  }
  if (want('scale10') && simulatorSpeaks('1.0')) {
    progress('4b. scale against API 1.0 (30 s)');
    results.scale10 = await scenario('scale.js', ['--api', '1.0', ...scaleArgs]);
  }
  if (want('installation')) {
    progress('7. installation: 10 devices × 3 modules, ours and minimal nodes taking turns (about 6 minutes)');
    results.installation = await scenario('installation.js', installationArgs);
  }
  if (want('installation10') && simulatorSpeaks('1.0')) {
    progress('7b. installation against API 1.0 (about 6 minutes)');
    results.installation10 = await scenario('installation.js', ['--api', '1.0', ...installationArgs]);
  }
  if (want('alarms')) {
    progress('8. alarms: 1,000 alarms at 100 transitions/s, with the list node and without (about 70 s)');
    results.alarms = await scenario('alarms.js', quick ? ['--seconds', '5'] : []);
  }
  if (want('sparkplug')) {
    progress('9. Sparkplug B: 50 devices × 3 modules, UNS then Sparkplug (about 2 minutes)');
    results.sparkplug = await scenario('sparkplug.js', quick ? ['--devices', '10', '--seconds', '5', '--rebirths', '1'] : []);
  }
  if (want('footprint')) {
    progress('10. footprint: Node-RED with and without the package, fresh processes taking turns (about 10 minutes)');
    results.footprint = await scenario('footprint.js', quick ? ['--samples', '1', '--starts', '1', '--settle', '3'] : []);
  }
  if (want('memory')) {
    progress('5. memory');
    results.memory = await scenario('memory.js', quick ? ['--n', '20000'] : []);
  }
  const text = report(results, facts);
  process.stdout.write(`\n${text}\n\nTotal: ${lib.round((Date.now() - started) / 1000, 0)} s. Written to bench/results.json.\n`);
  const file = path.join(__dirname, 'results.json');
  fs.writeFileSync(
    file,
    `${JSON.stringify({ machine: facts, quick, targets: TARGETS, targetsMet: targetList(results), results, markdown: text, seconds: lib.round((Date.now() - started) / 1000, 0) }, null, 2)}\n`,
  );
}

main().catch((error) => {
  process.stderr.write(`bench: ${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});
