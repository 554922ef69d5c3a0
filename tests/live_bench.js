// live_bench.js: where the live book's training time goes (make bench-live).
//   node tests/live_bench.js PAGE WASM NATIVE PORTABLE [ROUNDS]
// Trains seed 1 for 1000 steps five ways, one after the other in each
// round, so that a change in the machine's load falls on all five:
//   native    the program as make builds it (-march=native where known)
//   portable  the same C at -O3 for the baseline x86-64, whose vectors are
//             as wide as WebAssembly's (128 bits)
//   node      the page's module, run by node
//   worker    the page's module in a Web Worker of Chromium, on a blank page
//   page      the train widget of PAGE, clicked, in Chromium
// Every way evaluates the 100 problems every 10 steps; the module also
// draws the training chart at each record, and the page puts it on the
// page.  It prints milliseconds a step, the medians and their ratios to
// the two native builds.  It measures; it never fails on a number.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const puppeteer = require('puppeteer-core');

const [pagePath, wasmPath, native, portable, rounds = '5'] = process.argv.slice(2);
const STEPS = 1000;
const wasm = fs.readFileSync(wasmPath);

function imports(module, progress) {
  const wasi = {};
  for (const need of WebAssembly.Module.imports(module))
    if (need.module === 'wasi_snapshot_preview1') wasi[need.name] = () => 52;
  return { wasi_snapshot_preview1: wasi, page: { progress } };
}

function program(file) {
  const out = path.join(os.tmpdir(), 'live-bench-' + process.pid + '.ckpt');
  const start = process.hrtime.bigint();
  execFileSync(file, ['train', '--seed', '1', '--steps', String(STEPS), '-o', out], { stdio: 'ignore' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  for (const f of [out, out + '.log']) fs.rmSync(f, { force: true });
  return ms / STEPS;
}

function inNode() {
  const module = new WebAssembly.Module(wasm);
  const x = new WebAssembly.Instance(module, imports(module, () => {})).exports;
  x._initialize();
  const start = process.hrtime.bigint();
  if (x.train(1n, STEPS) !== 0) throw new Error('the module did not train');
  return Number(process.hrtime.bigint() - start) / 1e6 / STEPS;
}

// in the blank page: the module in a worker of its own, progress ignored
const workerCode = `
  const imports = ${imports};
  onmessage = async (e) => {
    const module = await WebAssembly.compile(e.data);
    const instance = await WebAssembly.instantiate(module, imports(module, () => {}));
    instance.exports._initialize();
    const start = performance.now();
    instance.exports.train(1n, ${STEPS});
    postMessage(performance.now() - start);
  };`;

async function main() {
  const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    const blank = await browser.newPage();
    await blank.goto('about:blank');
    const book = await browser.newPage();
    await book.setViewport({ width: 1280, height: 900 });
    await book.goto('file://' + path.resolve(pagePath), { waitUntil: 'load' });
    await book.waitForFunction(() => document.documentElement.dataset.live === 'ready', { timeout: 60000 });
    const box = 'div.live[data-widget="train"]';
    const base64 = wasm.toString('base64');
    const ways = {
      native: async () => program(native),
      portable: async () => program(portable),
      node: async () => inNode(),
      worker: async () => {
        await blank.bringToFront();
        return await blank.evaluate((code, b64) => new Promise((done) => {
          const w = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
          w.onmessage = (e) => { w.terminate(); done(e.data); };
          w.postMessage(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
        }), workerCode, base64) / STEPS;
      },
      page: async () => {
        // the reader's click: the mouse stays over the page, as it would
        await book.bringToFront();
        await book.$eval(box, (e) => { delete e.dataset.msPerStep; });
        await book.click(box + ' button.live-train');
        await book.waitForFunction((b) => document.querySelector(b).dataset.msPerStep,
                                   { timeout: 300000, polling: 200 }, box);
        return Number(await book.$eval(box, (e) => e.dataset.msPerStep));
      },
    };
    const times = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
    for (let round = 1; round <= Number(rounds); round++) {
      const line = [];
      for (const [name, run] of Object.entries(ways)) {
        const ms = await run();
        times[name].push(ms);
        line.push(name + ' ' + ms.toFixed(3));
      }
      console.log('round ' + round + ' (ms a step): ' + line.join(', ') + '; load ' + os.loadavg()[0].toFixed(1));
    }
    const median = (xs) => { const s = xs.slice().sort((a, b) => a - b), n = s.length;
                             return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
    const m = Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, median(xs)]));
    console.log('median ms a step: ' + Object.entries(m).map(([k, v]) => k + ' ' + v.toFixed(3)).join(', '));
    for (const k of ['node', 'worker', 'page'])
      console.log(k + ': ' + (m[k] / m.portable).toFixed(2) + ' x the portable build, ' +
                  (m[k] / m.native).toFixed(2) + ' x the native build');
  } finally {
    await browser.close();
  }
}
main().catch((e) => { console.error('live_bench: ' + e.message); process.exit(1); });
