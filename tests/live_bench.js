// live_bench.js: where the live book's training time goes, measured in
// node on the page's module (no browser):
//   node tests/live_bench.js WASM [WASM_WITHOUT_CHART]
// It trains seed 1 for 1000 steps with web_train, as the page's worker
// does, three ways: the module alone (progress ignored), the module with
// the output read at every record (what the worker does to post the
// chart), and, given a second module built without the chart drawing,
// the module's training alone.  It prints milliseconds a step.
'use strict';
const fs = require('fs');

function instance(file, progress) {
  const module = new WebAssembly.Module(fs.readFileSync(file));
  const wasi = {};
  for (const need of WebAssembly.Module.imports(module))
    if (need.module === 'wasi_snapshot_preview1') wasi[need.name] = () => 52;
  const x = new WebAssembly.Instance(module, { wasi_snapshot_preview1: wasi, page: { progress } }).exports;
  x._initialize();
  return x;
}

function run(file, read) {
  let x = null, bytes = 0, records = 0;
  const progress = () => {
    records++;
    if (!read) return;
    const out = new Uint8Array(x.memory.buffer, x.output(), x.output_length());
    bytes += new TextDecoder().decode(out).length;
  };
  x = instance(file, progress);
  const start = process.hrtime.bigint();
  if (x.train(1n, 1000) !== 0) throw new Error('training failed');
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return { perStep: ms / 1000, records, chart: records ? bytes / records : 0 };
}

const [file, bare] = process.argv.slice(2);
for (let round = 0; round < 3; round++) {
  const alone = run(file, false), read = run(file, true);
  let line = 'round ' + round + ': module ' + alone.perStep.toFixed(3) + ' ms a step, with the chart read ' +
    read.perStep.toFixed(3) + ' (' + read.records + ' records, ' + Math.round(read.chart) + ' characters a chart)';
  if (bare) line += ', without drawing the chart ' + run(bare, false).perStep.toFixed(3);
  console.log(line);
}
