// live_test.js: the live book in a real browser.  Debian's chromium,
// headless, driven by puppeteer-core, opens book/attention.html from
// file:// and checks its widgets against the command-line program:
//   node tests/live_test.js PAGE PROGRAM MODEL WORKDIR
// It prints what it found and exits non-zero on the first difference, on
// any console error or uncaught exception of the page.
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync, spawnSync } = require('child_process');
const puppeteer = require('puppeteer-core');

const [page_path, program, model, work] = process.argv.slice(2);
const problems = [];
function check(ok, what) {
  if (!ok) problems.push(what);
  console.log((ok ? 'ok    ' : 'FAILED ') + what);
}
// the message the command line prints for bad input, without its frame
function cli_message(args) {
  const r = spawnSync(program, args, { encoding: 'utf8' });
  return r.stderr.split('\n')[0].replace(/^attention: /, '');
}

async function main() {
  fs.mkdirSync(work, { recursive: true });
  const browser = await puppeteer.launch({
    executablePath: '/usr/bin/chromium', headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync',
           '--user-data-dir=' + path.join(work, 'profile')],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push('console: ' + m.text()); });
    page.on('pageerror', (e) => errors.push('exception: ' + e.message));
    await page.setViewport({ width: 1280, height: 900 });
    const downloads = path.join(work, 'downloads');
    fs.rmSync(downloads, { recursive: true, force: true });
    fs.mkdirSync(downloads);
    const cdp = await page.createCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
    await page.goto('file://' + path.resolve(page_path), { waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.dataset.live !== undefined, { timeout: 30000 });
    check(await page.evaluate(() => document.documentElement.dataset.live) === 'ready', 'the module loads from file://');

    await train(page, downloads);
    await stepper(page);
    await grow(page);
    await experiments(page);
    await screenshots(page);
    for (const e of errors) check(false, e);
    check(errors.length === 0, 'no console error and no uncaught exception');
  } finally {
    await browser.close();
  }
}

// ------------------------------------------------------------------ train it live
async function train(page, downloads) {
  const box = 'div.live[data-widget="train"]';
  // bad input first: the command line's message
  await page.$eval(box + ' input.live-seed', (e) => { e.value = '1x'; });
  await page.click(box + ' button.live-train');
  const refused = await page.$eval(box + ' .live-status', (e) => e.textContent);
  check(refused === cli_message(['train', '--seed', '1x', '-o', '/dev/null']),
        'seed 1x is refused with the command line\'s message: ' + refused);

  await page.$eval(box + ' input.live-seed', (e) => { e.value = '1'; });
  const started = Date.now();
  await page.click(box + ' button.live-train');
  // the page answers while the worker trains
  await page.waitForFunction((b) => /step \d+/.test(document.querySelector(b + ' .live-status').textContent),
                             { timeout: 30000 }, box);
  const answer = await page.evaluate(() => {
    const t = performance.now();
    document.querySelector('div.live[data-widget="stepper"] input.live-sequence').dispatchEvent(new Event('input'));
    return performance.now() - t;
  });
  console.log('       the stepper answered in ' + answer.toFixed(1) + ' ms while training ran');
  await page.waitForSelector(box + ' a.live-download:not([hidden])', { timeout: 60000 });
  const timing = await page.$eval(box, (e) => [e.dataset.msPerStep, e.dataset.firstPerfectSeconds]);
  console.log('       in the browser: ' + timing[0] + ' ms a step, first 100/100 after ' + timing[1] +
              ' s (' + ((Date.now() - started) / 1000).toFixed(1) + ' s for the whole click)');
  const svg = await page.$eval(box + ' .live-chart', (e) => e.querySelectorAll('svg polyline, svg path').length);
  check(svg > 0, 'the training chart is drawn');
  const status = await page.$eval(box + ' .live-status', (e) => e.textContent);
  const native_log = execFileSync(program, ['train', '--seed', '1', '-o', path.join(work, 'seed1.ckpt')],
                                  { encoding: 'utf8' });
  const first = native_log.match(/first 100\/100 at step (\d+)/)[1];
  check(status.includes('first 100/100 at step ' + first + ' '), 'the page reaches 100/100 at step ' + first + ', as attention train does');

  await page.click(box + ' a.live-download');
  const file = path.join(downloads, 'seed1.ckpt');
  for (let i = 0; i < 100 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
  const same = fs.existsSync(file) &&
    Buffer.compare(fs.readFileSync(file), fs.readFileSync(path.join(work, 'seed1.ckpt'))) === 0;
  check(same, 'the downloaded checkpoint is byte for byte the one of attention train --seed 1');
  if (fs.existsSync(file)) {
    const asked = execFileSync(program, ['ask', '-m', file, '7*8='], { encoding: 'utf8' }).trim();
    check(asked === '7*8=56;', 'attention ask -m loads it: ' + asked);
  }
}

// ------------------------------------------------------------------ the single-stepper
// attention trace's numbers of row t: for each head and u, q.k, the score and
// the weight; the heads' mixes of v.
function trace_numbers(text, t) {
  const out = execFileSync(program, ['trace', text, '--pos', String(t), '-m', model], { encoding: 'utf8' });
  const cells = new Map();
  let head = -1, u = -1;
  const lines = out.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const k = lines[n].match(/head (\d+) k\[(\d+)\]/);
    if (k) { head = Number(k[1]); u = Number(k[2]); continue; }
    const s = lines[n].match(/q\.k = (\S+)\s+\/sqrt\(\d+\) = (\S+)\s+weight = (\S+)/);
    if (s) cells.set(head + ',' + u, { dot: s[1], score: s[2], weight: s[3] });
  }
  const mix = [];
  const at = lines.findIndex((l) => l.trim().startsWith('mix[t]'));
  for (let n = at; n < at + 4; n++) mix.push(...lines[n].replace('mix[t]', '').trim().split(/\s+/));
  return { cells, mix };
}

async function stepper(page) {
  const box = 'div.live[data-widget="stepper"]';
  await page.$eval(box + ' input.live-sequence', (e) => { e.value = '7x8='; e.dispatchEvent(new Event('input')); });
  const refused = await page.$eval(box + ' .live-status', (e) => e.textContent);
  check(refused === cli_message(['trace', '7x8=']), 'sequence 7x8= is refused with attention trace\'s message: ' + refused);
  await page.$eval(box + ' input.live-sequence', (e) => { e.value = '12345678'; e.dispatchEvent(new Event('input')); });
  const long = await page.$eval(box + ' .live-status', (e) => e.textContent);
  check(long === cli_message(['trace', '12345678']), 'a sequence of 8 is refused with attention trace\'s message: ' + long);

  await page.$eval(box + ' input.live-sequence', (e) => { e.value = '7*8='; e.dispatchEvent(new Event('input')); });
  const t = Number(await page.$eval(box + ' select.live-pos', (e) => e.value));
  check(t === 3, 'the stepper starts at the emitting row t = 3');
  const read = () => page.$eval(box, (b) => {
    const v = {};
    for (const tr of b.querySelectorAll('table.live-vars tr')) v[tr.dataset.name] = tr.querySelector('td').textContent;
    const now = b.querySelector('table.live-vars tr.live-now');
    const here = b.querySelector('.live-here');
    return { v, name: now && now.dataset.name, exact: now && now.querySelector('td').dataset.exact,
             at: Number(b.dataset.at), line: here && here.dataset.line };
  });
  // walk to the end with the step button, reading the table at every step
  // (in the page, in one go: a round trip per step would take minutes)
  const steps = await page.$eval(box, (b) => {
    const seen = [];
    for (let k = 0; k < 5000; k++) {
      const v = {};
      for (const tr of b.querySelectorAll('table.live-vars tr')) v[tr.dataset.name] = tr.querySelector('td').textContent;
      const now = b.querySelector('table.live-vars tr.live-now'), here = b.querySelector('.live-here');
      const s = { v, name: now && now.dataset.name, at: Number(b.dataset.at), line: here && here.dataset.line };
      if (here) {     // the highlighted line is scrolled into the code's frame
        const f = here.closest('div.live-code').getBoundingClientRect(), r = here.getBoundingClientRect();
        s.in_view = r.top >= f.top - 1 && r.bottom <= f.bottom + 1;
      }
      if (seen.length && s.at === seen[seen.length - 1].at) break;
      seen.push(s);
      b.querySelector('button.live-next').click();
    }
    return seen;
  });
  console.log('       ' + steps.length + ' steps walked');
  const { cells, mix } = trace_numbers('7*8=', t);
  let compared = 0, wrong = 0;
  const last = new Map();
  for (const s of steps) {
    const key = s.v.head + ',' + s.v.u;
    if (s.name === 'dot' && s.v.i === '7') last.set(key + ',dot', s.v.dot);
    if (s.name === 'score[u]') last.set(key + ',score', s.v['score[u]']);
    if (s.name === 'weight[u]') last.set(key + ',weight', s.v['weight[u]']);
    if (s.name === 'o_t[i]' && s.v.u === String(t)) last.set('mix,' + (Number(s.v.head) * 8 + Number(s.v.i)), s.v['o_t[i]']);
    if (!s.line) wrong++;
  }
  check(wrong === 0, 'every step highlights a line of the woven code');
  const hidden = steps.filter((s) => s.line && !s.in_view).length;
  check(hidden === 0, 'the highlighted line is in view at every step (' + hidden + ' out of view)');
  for (const [key, want] of cells)
    for (const what of ['dot', 'score', 'weight']) {
      const got = last.get(key + ',' + what);
      const expect = what === 'weight' ? want[what] : want[what];
      compared++;
      // the trace prints weights with %.3f and the rest with %+.3f
      if (got === undefined || Number(got) !== Number(expect) || (what !== 'weight' && got !== expect)) {
        wrong++;
        console.log('       head,u ' + key + ' ' + what + ': page ' + got + ', attention trace ' + expect);
      }
    }
  mix.forEach((want, n) => {
    compared++;
    if (last.get('mix,' + n) !== want) {
      wrong++;
      console.log('       mix[' + n + ']: page ' + last.get('mix,' + n) + ', attention trace ' + want);
    }
  });
  check(compared === 16 * 3 + 32 && wrong === 0,
        'the stepper on 7*8= agrees with attention trace in all ' + compared + ' numbers it prints');
  // back one step, and a row back
  await page.click(box + ' button.live-back');
  const back = await read();
  check(back.at === steps.length - 2, 'the step back goes back one step');
  await page.click(box + ' button.live-rowBack');
  const row = await read();
  check(row.at < back.at && row.v.u !== back.v.u, 'the row back goes to the previous u');
}

// ------------------------------------------------------------------ one character at a time
async function grow(page) {
  const box = 'div.live[data-widget="grow"]';
  const answer = execFileSync(program, ['ask', '-m', model, '7*8='], { encoding: 'utf8' }).trim();
  await page.$eval(box + ' input.live-sequence', (e) => { e.value = '7*8=56'; e.dispatchEvent(new Event('input')); });
  const written = [];
  for (let n = 0; n < 2; n++) await page.$eval(box + ' button.live-less', (b) => b.click());
  for (let n = 0; n < 3; n++) {
    const now = await page.$eval(box, (b) => [b.dataset.next, b.querySelectorAll('.live-chart svg').length]);
    written.push(now[0]);
    await page.$eval(box + ' button.live-more', (b) => b.click());
  }
  check('7*8=' + written.join('') === answer, 'growing 7*8= one character at a time, the last rows choose ' +
        written.join('') + ', as attention ask answers ' + answer);
  await page.$eval(box + ' input.live-sequence', (e) => { e.value = '7*8=;;;;'; e.dispatchEvent(new Event('input')); });
  const long = await page.$eval(box + ' .live-status', (e) => e.textContent);
  check(long === cli_message(['trace', '7*8=;;;;']), 'a sequence of 8 is refused with attention trace\'s message');
  await page.$eval(box + ' input.live-sequence', (e) => { e.value = '7*8=5'; e.dispatchEvent(new Event('input')); });
}

// ------------------------------------------------------------------ run an experiment
// The rows of chapter 7's and chapter 8's tables, as the native
// experiments wrote them: model name and seed to [first, score, loss].
function ablation_rows() {
  const rows = new Map();
  let name = '';
  const md = fs.readFileSync(path.join(path.dirname(model), 'results', 'ablations.md'), 'utf8');
  for (const line of md.split('\n').slice(2)) {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length !== 5) continue;
    name = cells[0] || name;
    rows.set(name + ',' + cells[1], cells.slice(2));
  }
  return rows;
}
function heads_rows(seed_index) {
  const rows = new Map();
  const md = fs.readFileSync(path.join(path.dirname(model), 'results', 'heads.md'), 'utf8');
  for (const line of md.split('\n').slice(2)) {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length !== 6) continue;
    const [first, score, loss] = [cells[2], cells[4], cells[5]].map((c) => c.split(', ')[seed_index]);
    rows.set(cells[0], [first === 'none' ? 'never' : first, score, loss]);
  }
  return rows;
}

// Run one experiment in the page; while it trains, another widget must
// answer.  Returns the rows of the page's table and the box's data.
async function run_experiment(page, widget, option, seed) {
  const box = 'div.live[data-widget="' + widget + '"]';
  await page.$eval(box + ' select.live-variant', (e, v) => { e.value = v; }, option);
  await page.$eval(box + ' input.live-seed', (e, v) => { e.value = v; }, seed);
  await page.click(box + ' button.live-run');
  await page.waitForFunction((b) => / step \d+:/.test(document.querySelector(b + ' .live-status').textContent),
                             { timeout: 30000 }, box);
  const before = await page.$eval(box + ' .live-status', (e) => e.textContent);
  const answer = await page.evaluate(() => {
    const t = performance.now();
    const grow = document.querySelector('div.live[data-widget="grow"]');
    grow.querySelector('button.live-less').click();
    grow.querySelector('button.live-more').click();
    return performance.now() - t;
  });
  const running = await page.$eval(box, (b) => b.dataset.done === undefined);
  check(running, widget + ': the page answered another widget (in ' + answer.toFixed(1) +
        ' ms) while the worker trained');
  await page.waitForFunction((b) => document.querySelector(b).dataset.done, { timeout: 120000 }, box);
  const after = await page.$eval(box, (b) => ({
    done: b.dataset.done, ms: b.dataset.msPerStep,
    status: b.querySelector('.live-status').textContent,
    seed: b.querySelector('table.live-results caption').textContent,
    rows: [...b.querySelectorAll('table.live-results tr')].slice(1)
      .map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent).concat(tr.dataset.exactLoss)),
    lines: [...b.querySelectorAll('.live-chart svg path[stroke-width="2"]')]
      .map((p) => p.getAttribute('stroke') + ' ' + (p.getAttribute('stroke-dasharray') || 'solid')),
    logs: [...b.querySelectorAll('a.live-log')].map((a) => a.href),
  }));
  check(after.done === 'ok', widget + ': the experiment ends: ' + after.status);
  check(before !== after.status, widget + ': the status moved on while training ran');
  console.log('       in the browser, ms a step (the book\'s model, the other): ' + after.ms);
  // two panels, two curves each: one solid, one dashed, in two colours
  const kinds = [...new Set(after.lines)];
  check(after.lines.length === 4 && kinds.length === 2 && kinds[0].endsWith(' solid') &&
        !kinds[1].endsWith(' solid') && kinds[0].split(' ')[0] !== kinds[1].split(' ')[0],
        widget + ': the chart draws both models, as the book\'s figures do (' + kinds.join('; ') + ')');
  after.log = await page.evaluate((url) => fetch(url).then((r) => r.text()), after.logs[0]);
  return after;
}

async function experiments(page) {
  // bad input: the command line's message
  const box = 'div.live[data-widget="ablations"]';
  await page.$eval(box + ' input.live-seed', (e) => { e.value = '-3'; });
  await page.click(box + ' button.live-run');
  const refused = await page.$eval(box + ' .live-status', (e) => e.textContent);
  check(refused === cli_message(['train', '--seed', '-3', '-o', '/dev/null']),
        'experiment: seed -3 is refused with the command line\'s message: ' + refused);

  // chapter 7: without LayerNorm, seed 2, against exp_ablations.c's runs
  const table = ablation_rows();
  const off = await run_experiment(page, 'ablations', '3', '2');
  const want = [['book\'s model', ...table.get('book\'s model,2')],
                ['no LayerNorm', ...table.get('no LayerNorm,2')]];
  const got = off.rows.map((r) => r.slice(0, 4));
  check(JSON.stringify(got) === JSON.stringify(want) && off.seed === 'seed 2',
        'without LayerNorm, seed 2: the page\'s runs are the book\'s (' +
        JSON.stringify(got) + ', ablations.md ' + JSON.stringify(want) + ')');

  // chapter 8: eight heads, seed 1, against exp_heads.c's runs and the
  // book's model's training log
  const heads = heads_rows(0);
  const eight = await run_experiment(page, 'heads', '3', '1');
  const got8 = eight.rows.map((r) => [r[1], r[2], Number(r[4]).toFixed(3)]);
  const want8 = [heads.get('4'), heads.get('8')];
  check(JSON.stringify(got8) === JSON.stringify(want8),
        'eight heads, seed 1: the page\'s runs are the book\'s (' + JSON.stringify(got8) +
        ', heads.md ' + JSON.stringify(want8) + ')');
  check(eight.log === fs.readFileSync(model + '.log', 'utf8'),
        'the page\'s log of the book\'s model at seed 1 is byte for byte ' + path.basename(model) + '.log');

  for (const width of [1280, 400]) {
    await page.setViewport({ width, height: 900 });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth -
                                           document.documentElement.clientWidth);
    check(wide <= 0, 'at ' + width + ' px, with the experiments\' results, the page does not ' +
          'scroll sideways (' + wide + ' px too wide)');
    const cut = await page.$$eval('div.live-table', (all) =>
      all.map((e) => e.scrollWidth - e.clientWidth).filter((x) => x > 0).length);
    check(cut === 0, 'at ' + width + ' px the experiments\' tables fit their boxes');
    for (const name of ['ablations', 'heads']) {
      const el = await page.$('div.live[data-widget="' + name + '"]');
      await el.scrollIntoView();
      const file = path.join(work, 'live-' + name + '-' + width + '.png');
      await el.screenshot({ path: file });
      console.log('       screenshot ' + file);
    }
  }
  await page.setViewport({ width: 1280, height: 900 });

  // without JavaScript the page is the static book: no widget box shows
  const bare = await page.browser().newPage();
  await bare.setJavaScriptEnabled(false);
  await bare.goto(page.url(), { waitUntil: 'load' });
  const boxes = await bare.$$eval('div.live', (all) =>
    all.map((d) => d.getBoundingClientRect().height));
  check(boxes.length >= 5 && boxes.every((h) => h === 0),
        'without JavaScript none of the ' + boxes.length + ' widget boxes shows');
  await bare.close();
}

// ------------------------------------------------------------------ look at it
async function screenshots(page) {
  for (const width of [1280, 400]) {
    await page.setViewport({ width, height: 900 });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    check(wide <= 0, 'at ' + width + ' px the page does not scroll sideways (' + wide + ' px too wide)');
    for (const name of ['train', 'stepper', 'grow']) {
      const el = await page.$('div.live[data-widget="' + name + '"]');
      await el.scrollIntoView();
      const file = path.join(work, 'live-' + name + '-' + width + '.png');
      await el.screenshot({ path: file });
      console.log('       screenshot ' + file);
    }
  }
}

main().then(() => {
  process.exit(problems.length === 0 ? 0 : 1);
}, (error) => {
  console.log('FAILED ' + (error && error.stack || error));
  process.exit(1);
});
