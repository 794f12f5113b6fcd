// A do-nothing end of a benchmark flow: hands every msg it receives to the benchmark
// (global.__modularDeviceBenchSink) and completes it. Loaded through the `nodesDir` setting
// of the benchmark's embedded Node-RED only; not part of the package.
'use strict';
module.exports = function (RED) {
  function BenchSink(config) {
    RED.nodes.createNode(this, config);
    this.on('input', (msg, _send, done) => {
      const sink = global.__modularDeviceBenchSink;
      if (sink) sink(this.id, msg);
      done();
    });
  }
  RED.nodes.registerType('bench-sink', BenchSink);
};
