// live_test.js: the live book in a real browser.  Debian's chromium,
// headless, driven by puppeteer-core, opens book/attention.html from
// file:// and checks its widgets against the command-line program:
//   node tests/live_test.js PAGE PROGRAM MODEL WORKDIR
// The numbers and tables of the book's experiments are read from the
// results directory beside MODEL (build/results).
// It prints what it found and exits non-zero on the first difference, on
// any console error or uncaught exception of the page.
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync, spawnSync } = require('child_process');
const puppeteer = require('puppeteer-core');
const { shot } = require('./screenshot.js');

const [page_path, program, model, work] = process.argv.slice(2);
const results = path.join(path.dirname(model), 'results');
// a numbers file of the book: name value, one a line
function numbers(topic) {
  const map = new Map();
  for (const line of fs.readFileSync(path.join(results, 'numbers-' + topic + '.txt'), 'utf8').split('\n'))
    if (line.includes(' ')) map.set(line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1));
  return map;
}
// the rows of a markdown table of the book, cells trimmed, without the head
function table_rows(name) {
  return fs.readFileSync(path.join(results, name), 'utf8').trim().split('\n').slice(2)
    .map((row) => row.split('|').slice(1, -1).map((c) => c.trim().replace(/\*\*/g, '')));
}
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
// the command line's message for a bad seed, in the page's words: the
// seed, not the option
function seed_message(seed) {
  return cli_message(['train', '--seed', seed, '-o', '/dev/null']).replace(/^--seed: /, 'the seed ');
}
// the text of the first element the selector finds, or null
function text_of(page, selector) {
  return page.evaluate((s) => { const e = document.querySelector(s); return e && e.textContent; }, selector);
}
// the workers the page has not terminated
function live_workers(page) {
  return page.workers().length;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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
    await page.waitForFunction(() => ['ready', 'failed'].includes(document.documentElement.dataset.live), { timeout: 30000 });
    check(await page.evaluate(() => document.documentElement.dataset.live) === 'ready', 'the module loads from file://');

    await no_jump(browser, page.url());
    await program_later(browser, page.url());
    await before_runs(page);
    await train(page, downloads);
    await session(page);
    await stepper(page);
    await grow(page);
    await swap(page);
    await text_alternatives(page);
    await own(page);
    await patched(page);
    await neurons(page);
    await neuron_numbers(page);
    await screeplot(page);
    await wiring(page);
    await experiments(page);
    await keyboard_only(page);
    await widgets_accessible(page);
    await label_in_name(page);
    await tab_stops(page, 400);
    await tab_stops(page, 1280);
    await screenshots(page);
    await described(page);
    await without_webassembly(page);
    for (const e of errors) check(false, e);
    check(errors.length === 0, 'no console error and no uncaught exception');
  } finally {
    await browser.close();
  }
}

// axe-core's WCAG 2.1 A and AA rules over the widgets alone (the rest of
// the page is the page test's), after every widget has run and drawn
async function widgets_accessible(page) {
  await page.evaluate(fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const r = await page.evaluate(async () => {
    const out = await window.axe.run({ include: [...document.querySelectorAll('div.live')].map((e) => [e]) }, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return { version: window.axe.version, widgets: document.querySelectorAll('div.live').length,
             violations: out.violations.map((v) => ({ id: v.id, n: v.nodes.length,
               where: v.nodes.slice(0, 3).map((x) => x.target.join(' ')) })) };
  });
  for (const v of r.violations) console.log('       axe: ' + v.id + ' on ' + v.n + ' elements, e.g. ' + v.where.join('; '));
  check(r.violations.length === 0, 'axe-core ' + r.version + ' (WCAG 2.1 A and AA) over the ' + r.widgets +
        ' widgets, after they ran: ' + r.violations.length + ' rules broken on ' +
        r.violations.reduce((a, v) => a + v.n, 0) + ' elements');
}

// The browser's accessibility node of one element: its role and name
// (Accessibility.getPartialAXTree, for that node alone, found by a mark
// set for the moment; puppeteer's accessibility.snapshot builds the tree
// of the whole page first, about a second each time on this page)
const ax_sessions = new WeakMap();
async function ax_node(page, handle) {
  if (!ax_sessions.has(page)) ax_sessions.set(page, await page.createCDPSession());
  const cdp = ax_sessions.get(page);
  await handle.evaluate((e) => e.setAttribute('data-ax-probe', ''));
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '[data-ax-probe]' });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    const n = nodes[0];
    return n ? { role: n.role ? String(n.role.value) : '', name: n.name ? String(n.name.value) : '' } : null;
  } finally {
    await handle.evaluate((e) => e.removeAttribute('data-ax-probe'));
  }
}

// The name a screen reader gives each control of the widgets contains
// the words its label shows (WCAG 2.5.3, label in name; issue 37: the
// menus shown as "model" were named "part switched off" and "heads").
// The names are the browser's own, from its accessibility tree.
async function label_in_name(page) {
  const wrong = [];
  let n = 0;
  for (const h of await page.$$('div.live input, div.live select, div.live button, div.live textarea')) {
    const shown = await h.evaluate((e) => {
      if (e.getClientRects().length === 0) return null;
      const label = e.closest('label') || (e.id ? document.querySelector('label[for="' + e.id + '"]') : null);
      if (!label) return e.tagName === 'BUTTON' ? e.textContent.trim() : null;
      const copy = label.cloneNode(true);
      copy.querySelectorAll('input, select, button, textarea').forEach((c) => c.remove());
      return copy.textContent.trim();
    });
    if (!shown) continue;
    n++;
    const node = await ax_node(page, h);
    const name = node && node.name ? node.name : '';
    if (!name.toLowerCase().includes(shown.toLowerCase()))
      wrong.push('"' + shown + '" named "' + name + '" in ' + await h.evaluate((e) => e.closest('div.live').dataset.widget));
  }
  check(n > 20 && wrong.length === 0, 'the name of each of the ' + n + ' labelled controls contains its visible ' +
        'label (' + (wrong.join('; ') || 'all do') + ')');
}

// Every tab stop in the widgets has a name, at the given width: each
// widget is walked with Tab from its box to its end, the way a reader
// without a mouse goes through it (issue 37: at 400 px the stepper's
// copies of code blocks were three stops without a name).  A stop is
// named when the browser gives it a role (a box without one, role
// "generic", is read out as the whole of its text, if at all) and a
// name.  The stepper copies its code anew at this width first.
async function tab_stops(page, width) {
  await page.setViewport({ width, height: 900 });
  // page.html measures the parts again 200 ms after a new width, and the
  // frames that scroll with them
  await sleep(500);
  await page.waitForFunction(() => document.documentElement.classList.contains('measured'), { timeout: 60000 });
  await page.$eval('div.live[data-widget="stepper"] input.live-sequence',
                   (e) => { e.value = '7*8='; e.dispatchEvent(new Event('input')); });
  await sleep(500);
  const unnamed = [];
  let stops = 0;
  for (const box of await page.$$('div.live')) {
    const widget = await box.evaluate((b) => b.dataset.widget);
    await box.evaluate((b) => { b.setAttribute('tabindex', '-1'); b.focus(); b.removeAttribute('tabindex'); });
    for (let k = 0; k < 60; k++) {
      await page.keyboard.press('Tab');
      const inside = await page.evaluate((b) => b.contains(document.activeElement) && document.activeElement !== b, box);
      if (!inside) break;
      stops++;
      const here = await page.evaluateHandle(() => document.activeElement);
      const node = await ax_node(page, here);
      if (!node || !(node.name || '').trim() || ['generic', 'none', 'presentation', ''].includes(node.role || ''))
        unnamed.push(widget + ' ' + await here.evaluate((e) => e.tagName.toLowerCase() + '.' + e.className) +
                     ' (' + (node ? node.role : 'no node') + ')');
    }
  }
  check(stops > 20 && unnamed.length === 0, 'at ' + width + ' px each of the ' + stops + ' tab stops of the ' +
        'widgets has a name (' + (unnamed.join(', ') || 'none without') + ')');
  await page.setViewport({ width: 1280, height: 900 });
}

// ------------------------------------------------------------------ keyboard alone
// Every widget is run with the keys a reader without a mouse has: Tab (and
// Shift+Tab) to reach a control, typing, Enter, Space and the arrows.  The
// walk starts at the widget's box (focused as a starting point, the way a
// reader arrives from the text before it); a control counts as reached only
// if Tab lands on it within a few presses, and each control reached must
// show where the focus is (an outline or a box shadow).
async function keyboard_only(page) {
  const active = () => page.evaluate(() => {
    const e = document.activeElement, box = e && e.closest('div.live');
    const style = e ? getComputedStyle(e) : null;
    return { widget: box ? box.dataset.widget : null, tag: e ? e.tagName.toLowerCase() : '',
             cls: e ? e.className : '', text: e ? (e.textContent || '').trim().slice(0, 30) : '',
             ring: !!style && ((style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) ||
                               style.boxShadow !== 'none') };
  });
  // Tab from where the focus is until it lands on the widget's control that
  // matches; at most `most` presses
  async function tab_to(widget, selector, what, most = 12) {
    for (let k = 1; k <= most; k++) {
      await page.keyboard.press('Tab');
      const here = await page.evaluate((w, s) => {
        const e = document.activeElement;
        return !!e && e.matches('div.live[data-widget="' + w + '"] ' + s);
      }, widget, selector);
      if (here) {
        const a = await active();
        check(a.ring, 'keyboard: the focus on ' + what + ' in the ' + widget + ' widget is visible');
        return true;
      }
    }
    const a = await active();
    check(false, 'keyboard: ' + what + ' in the ' + widget + ' widget is reached by Tab within ' + most +
          ' presses (the focus is on ' + a.tag + '.' + a.cls + ' "' + a.text + '" of ' + a.widget + ')');
    return false;
  }
  async function start_at(widget) {
    await page.$eval('div.live[data-widget="' + widget + '"]', (b) => {
      b.setAttribute('tabindex', '-1'); b.focus(); b.removeAttribute('tabindex');
    });
  }
  const data = (widget, key) => page.$eval('div.live[data-widget="' + widget + '"]', (b, k) => b.dataset[k], key);
  const status = (widget) => text_of(page, 'div.live[data-widget="' + widget + '"] .live-status');
  async function retype(text) {
    await page.keyboard.down('Control'); await page.keyboard.press('KeyA'); await page.keyboard.up('Control');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(text);
  }

  // train: seed, Enter; the download link and the way back by Tab
  await start_at('train');
  if (await tab_to('train', 'input.live-seed', 'the seed field')) {
    await retype('5');
    await page.keyboard.press('Enter');
    const done = await page.waitForFunction(() => {
      const s = document.querySelector('div.live[data-widget="train"] .live-status').textContent;
      return /^seed 5: first 100\/100/.test(s) || /^seed 5: .* ms a step/.test(s);
    }, { timeout: 120000 }).then(() => true, () => false);
    check(done, 'keyboard: Enter in the seed field trains seed 5 to the end (' + await status('train') + ')');
    if (await tab_to('train', 'a.live-download', 'the download link', 4))
      check(await page.evaluate(() => !!document.activeElement.getAttribute('href')),
            'keyboard: the focused download link has its checkpoint');
    if (await tab_to('train', 'button.live-book-model', 'the button back to the book\'s model', 4)) {
      await page.keyboard.press('Space');
      check(/again/.test(await status('train')), 'keyboard: Space on the button brings the book\'s model back (' +
            await status('train') + ')');
      // the focus stays on a control that does the same the other way
      // (issue 37: the button hid itself and the focus fell to the page)
      const focused = () => page.evaluate(() => {
        const e = document.activeElement;
        return { here: !!e.closest('div.live[data-widget="train"]') && e.getClientRects().length > 0,
                 tag: e.tagName.toLowerCase(), text: e.textContent.trim().slice(0, 60) };
      });
      const owner = () => page.$eval('div.live[data-widget="stepper"] .live-status', (e) => e.textContent);
      const f1 = await focused();
      check(f1.here && f1.tag === 'button' && /your model \(seed 5\)/.test(f1.text),
            'keyboard: after Space the focus stays on a button of the train widget, which offers the model back (' +
            f1.tag + ' "' + f1.text + '")');
      await page.keyboard.press('Space');
      const f2 = await focused(), mine = await owner();
      await page.keyboard.press('Enter');
      const f3 = await focused(), book = await owner();
      check(f2.here && f3.here && /your model \(seed 5\)/.test(mine) && /the book's model \(seed 1\)/.test(book),
            'keyboard: Space and Enter on it switch to the reader\'s model and back, the focus kept (' + f2.text +
            '; ' + f3.text + ')');
    }
  }

  // stepper: a sequence typed, a row chosen with the arrows, steps with Enter and Space
  await start_at('stepper');
  if (await tab_to('stepper', 'input.live-sequence', 'the sequence field')) {
    await retype('3*4=');
    const row = await page.$eval('div.live[data-widget="stepper"] select.live-pos', (e) => e.value);
    check(row === '3', 'keyboard: typing 3*4= puts the stepper on row 3, the one that emits (row ' + row + ')');
    if (await tab_to('stepper', 'select.live-pos', 'the row menu', 2)) {
      await page.keyboard.press('ArrowUp');
      const up = await page.$eval('div.live[data-widget="stepper"] select.live-pos', (e) => e.value);
      check(up === '2', 'keyboard: ArrowUp on the row menu chooses row 2 (' + up + ')');
    }
    if (await tab_to('stepper', 'button.live-next', 'the button step ›', 4)) {
      const before = Number(await data('stepper', 'at'));
      await page.keyboard.press('Enter');
      await page.keyboard.press('Space');
      const after = Number(await data('stepper', 'at'));
      check(after === before + 2, 'keyboard: Enter and Space on step › take two steps (' + before + ' to ' + after + ')');
    }
    if (await tab_to('stepper', 'div.live-code', 'the code box', 3)) {
      const top = () => page.$eval('div.live[data-widget="stepper"] div.live-code', (e) => e.scrollTop);
      await page.$eval('div.live[data-widget="stepper"] div.live-code', (e) => { e.scrollTop = 0; });
      const t0 = await top();
      await page.keyboard.press('PageDown');
      await sleep(500);            // the scroll may be animated
      const t1 = await top();
      check(t1 !== t0, 'keyboard: PageDown scrolls the focused code box (' + t0 + ' to ' + t1 + ')');
    }
  }

  // grow: the field, then one less with Enter
  await start_at('grow');
  if (await tab_to('grow', 'input.live-sequence', 'the sequence field')) {
    await retype('7*8=5');
    const grown = await status('grow');
    check(/^'7\*8=5' \(5 of 5/.test(grown), 'keyboard: typing in the grow widget traces what was typed (' + grown + ')');
    if (await tab_to('grow', 'button.live-less', 'the button one less', 2)) {
      await page.keyboard.press('Enter');
      check(/^'7\*8=' \(4 of 5/.test(await status('grow')), 'keyboard: Enter on one less takes a character off (' +
            await status('grow') + ')');
    }
  }

  // wiring: the menu by the arrow keys, then Next by Space up to the last
  // stage, where the focus stays on the button
  await start_at('wiring');
  if (await tab_to('wiring', 'select.live-stage', 'the menu of stages')) {
    const was = Number(await data('wiring', 'lit'));
    await page.keyboard.press('ArrowDown');
    const stepped = await data('wiring', 'lit');
    if (await tab_to('wiring', 'button.live-next', 'the Next stage button', 3)) {
      for (let k = 0; k < 14; k++) await page.keyboard.press('Space');
      const a = await active();
      check(Number(stepped) === Math.min(was + 1, 12) && await data('wiring', 'lit') === '12' &&
            a.widget === 'wiring' && /live-next/.test(a.cls),
            'keyboard: the arrow key lights stage ' + (Number(stepped) + 1) + ', Space on Next steps to the last stage, ' +
            (Number(await data('wiring', 'lit')) + 1) + ', and the focus stays on the button');
    }
  }
  // swap: a question and Enter; the book's pick with Space
  await start_at('swap');
  if (await tab_to('swap', 'input.live-question', 'the question field')) {
    await retype('2*9=');
    await page.keyboard.press('Enter');
    check(/^2\*9= against 9\*2=/.test(await status('swap')), 'keyboard: Enter in the swap widget swaps 2*9= (' +
          await status('swap') + ')');
    if (await tab_to('swap', 'button.live-pick', 'the button of the book\'s pick', 3)) {
      await page.keyboard.press('Space');
      const pick = await data('swap', 'pick');
      check(!!pick && (await page.$eval('div.live[data-widget="swap"] input.live-question', (e) => e.value)) === pick,
            'keyboard: Space on the book\'s pick puts ' + pick + ' in the field');
    }
  }

  // own: a question and Enter, then the button with Space
  await start_at('own');
  if (await tab_to('own', 'input.live-question', 'the question field')) {
    await retype('6*7=');
    await page.keyboard.press('Enter');
    const own = await status('own');
    check(/6\*7=/.test(own), 'keyboard: Enter in the own-output widget traces 6*7= (' + own + ')');
    if (await tab_to('own', 'button.live-own', 'the button Trace row 4', 2)) {
      await page.$eval('div.live[data-widget="own"] .live-status', (e) => { e.textContent = ''; });
      await page.keyboard.press('Space');
      check(/6\*7=/.test(await status('own')), 'keyboard: Space on Trace row 4 traces again');
    }
  }

  // patch: a question and Enter, a head chosen with the arrows, Patch with Space
  await start_at('patch');
  if (await tab_to('patch', 'input.live-question', 'the question field')) {
    await retype('6*7=');
    await page.keyboard.press('Enter');
    check(/6\*7=/.test(await status('patch')), 'keyboard: Enter in the patch widget patches 6*7= (' +
          await status('patch') + ')');
    if (await tab_to('patch', 'select.live-head', 'the head menu', 2)) {
      const before = await page.$eval('div.live[data-widget="patch"] select.live-head', (e) => e.value);
      await page.keyboard.press('ArrowDown');
      const after = await page.$eval('div.live[data-widget="patch"] select.live-head', (e) => e.value);
      check(after !== before, 'keyboard: ArrowDown on the head menu chooses another head (' + before + ' to ' + after + ')');
    }
    if (await tab_to('patch', 'button.live-patch', 'the button Patch', 6)) {
      await page.$eval('div.live[data-widget="patch"] .live-status', (e) => { e.textContent = ''; });
      await page.keyboard.press('Space');
      check(/6\*7=/.test(await status('patch')), 'keyboard: Space on Patch patches again');
    }
  }

  // neuron: the concept menu with the arrows, the numbers with Enter
  await start_at('neuron');
  if (await tab_to('neuron', 'select.live-concept', 'the concept menu')) {
    const before = await status('neuron');
    await page.keyboard.press(await page.$eval('div.live[data-widget="neuron"] select',
      (e) => e.selectedIndex === e.options.length - 1 ? 'ArrowUp' : 'ArrowDown'));
    const after = await status('neuron');
    check(after !== before, 'keyboard: an arrow key on the concept menu shows another concept (' + after + ')');
    if (await tab_to('neuron', 'details.live-numbers > summary', 'the numbers\' summary', 3)) {
      await page.keyboard.press('Enter');
      check(await page.$eval('div.live[data-widget="neuron"] details.live-numbers', (e) => e.open),
            'keyboard: Enter on the summary opens the table of numbers');
    }
  }

  // scree: no control; a chart that scrolls sideways is reached and scrolled
  const wide = await page.$$eval('div.live[data-widget="scree"] .live-chart',
                                 (all) => all.filter((c) => c.scrollWidth > c.clientWidth + 1).length);
  if (wide) {
    await start_at('scree');
    if (await tab_to('scree', '.live-chart', 'the chart that scrolls sideways', 3)) {
      const left = () => page.$eval('div.live[data-widget="scree"] .live-chart', (e) => e.scrollLeft);
      const l0 = await left();
      await page.keyboard.press('ArrowRight');
      await sleep(500);            // the scroll may be animated
      check(await left() > l0, 'keyboard: ArrowRight scrolls the scree chart');
    }
  }

  // the two experiments: the menu with the arrows, then the seed and Enter
  // start a run (it is not waited for: the page test runs them to the end)
  for (const widget of ['ablations', 'heads']) {
    await start_at(widget);
    if (!await tab_to(widget, 'select', 'the menu')) continue;
    const before = await page.$eval('div.live[data-widget="' + widget + '"] select', (e) => e.value);
    await page.keyboard.press(await page.$eval('div.live[data-widget="' + widget + '"] select',
      (e) => e.selectedIndex === e.options.length - 1 ? 'ArrowUp' : 'ArrowDown'));
    const after = await page.$eval('div.live[data-widget="' + widget + '"] select', (e) => e.value);
    check(after !== before, 'keyboard: an arrow key on the ' + widget + ' menu chooses another (' + before + ' to ' + after + ')');
    if (!await tab_to(widget, 'input.live-seed', 'the seed field', 2)) continue;
    await retype('2');
    await page.keyboard.press('Enter');
    const began = await page.waitForFunction((w) => /step \d+/.test(
      document.querySelector('div.live[data-widget="' + w + '"] .live-status').textContent),
      { timeout: 60000 }, widget).then(() => true, () => false);
    check(began, 'keyboard: Enter in the ' + widget + ' seed field starts the run');
    await page.waitForFunction((w) => document.querySelector('div.live[data-widget="' + w + '"]').dataset.done,
                               { timeout: 240000 }, widget).catch(() => {});
  }
}

// ------------------------------------------------------------------ train it live
async function train(page, downloads) {
  const box = 'div.live[data-widget="train"]';
  // bad input first: the command line's message
  await page.$eval(box + ' input.live-seed', (e) => { e.value = '1x'; });
  await page.click(box + ' button.live-train');
  const refused = await text_of(page, box + ' .live-refusal');
  check(refused === seed_message('1x'),
        'seed 1x is refused with the command line\'s message, in the page\'s words: ' + refused);

  // Enter in the seed field trains, as the button does
  await page.$eval(box + ' input.live-seed', (e) => { e.value = ''; });
  await page.focus(box + ' input.live-seed');
  await page.keyboard.type('1');
  const started = Date.now();
  await page.keyboard.press('Enter');
  const began = await page.waitForFunction((b) => /^seed 1, step \d+/.test(document.querySelector(b + ' .live-status').textContent),
                                           { timeout: 20000 }, box).then(() => true, () => false);
  check(began, 'Enter in the train widget\'s seed field starts a run');
  if (!began) await page.click(box + ' button.live-train');
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
  await sleep(200);
  check(live_workers(page) === 0, 'the training worker is terminated when its run is done (' +
        live_workers(page) + ' left)');
  const timing = await page.$eval(box, (e) => [e.dataset.msPerStep, e.dataset.firstPerfectSeconds,
                                                e.dataset.drawMs, e.dataset.draws]);
  console.log('       in the browser: ' + timing[0] + ' ms a step, first 100/100 after ' + timing[1] +
              ' s (' + ((Date.now() - started) / 1000).toFixed(1) + ' s for the whole click); the page drew ' +
              timing[3] + ' charts in ' + timing[2] + ' ms');
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
// attention trace --exact of row t: every value of the loops of attention,
// keyed as the stepper names them: name,head,u,i (i only where there is one)
function exact_trace(text, t) {
  const out = execFileSync(program, ['trace', text, '--pos', String(t), '--exact', '-m', model],
                           { encoding: 'utf8' });
  const want = new Map();
  const vectors = [];                     // [label, values], continuation lines joined
  let head = -1, u = -1;
  for (const line of out.split('\n')) {
    const cut = line.match(/^ {17}(-?[\d.]\S*(?: \S+)*)$/);
    if (cut && vectors.length) { vectors[vectors.length - 1][1].push(...cut[1].split(' ')); continue; }
    // print_vector: two spaces, the label in 14 columns, the numbers
    if (/^  \S/.test(line) && line.length > 17)
      vectors.push([line.slice(2, 16).trim(), line.slice(16).trim().split(/ +/)]);
    const sw = line.match(/\/sqrt\(\d+\) = (\S+)\s+weight = (\S+)/);
    if (sw) vectors.push(['/sqrt', [sw[1], sw[2]]]);
  }
  for (const [label, values] of vectors) {
    let m;
    if ((m = label.match(/^head (\d+) k\[(\d+)\]$/))) { head = Number(m[1]); u = Number(m[2]); }
    else if (label === 'q.k by terms') values.forEach((v, i) => want.set(['dot', head, u, i].join(), v));
    else if (label === '/sqrt') { want.set(['score[u]', head, u].join(), values[0]); want.set(['weight[u]', head, u].join(), values[1]); }
    else if ((m = label.match(/^head (\d+) (max|exp|sum)$/)))
      values.forEach((v, k) => want.set([m[2] === 'exp' ? 'exp' : m[2], m[1], k].join(), v));
    else if ((m = label.match(/^head (\d+) mix u=(\d+)$/)))
      values.forEach((v, i) => want.set(['o_t[i]', m[1], m[2], i].join(), v));
  }
  return want;
}

// walk the stepper to its end with the step button, reading at every step
// the current value exactly (in the page, in one go: a round trip per step
// would take minutes)
async function walk(page, box) {
  return page.$eval(box, (b) => {
    const seen = [];
    for (let k = 0; k < 5000; k++) {
      const v = {}, shown = {};
      for (const tr of b.querySelectorAll('table.live-vars tr')) {
        v[tr.dataset.name] = tr.querySelector('td').textContent;
        if (tr.querySelector('td').dataset.exact !== undefined) shown[tr.dataset.name] = tr.querySelector('td').dataset.exact;
      }
      const now = b.querySelector('table.live-vars tr.live-now'), here = b.querySelector('.live-here');
      const s = { v, shown, name: now && now.dataset.name, exact: now && now.querySelector('td').dataset.exact,
                  at: Number(b.dataset.at), line: here && here.dataset.line };
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
}

// every value the stepper shows for the emitting row t of text, against
// attention trace --exact: the same string of nine digits, step by step
async function compare_row(page, box, text, t) {
  await page.$eval(box + ' input.live-sequence', (e, x) => { e.value = x; e.dispatchEvent(new Event('input')); }, text);
  await page.$eval(box + ' select.live-pos', (e, x) => { e.value = x; e.dispatchEvent(new Event('change')); }, String(t));
  const steps = await walk(page, box);
  const want = exact_trace(text, t);
  const d_head = 8, heads = 4;
  const expected = heads * ((t + 1) * d_head * 2 + (t + 1) * 5);
  const weighed = new Set();
  let wrong = 0, lines = 0, hidden = 0;
  for (const s of steps) {
    const head = s.v.head, u = s.v.u, i = s.v.i;
    let key;
    if (s.name === 'dot' || s.name === 'o_t[i]') key = [s.name, head, u, i].join();
    else if (s.name === 'weight[u]' && !weighed.has(head + ',' + u)) { key = ['exp', head, u].join(); weighed.add(head + ',' + u); }
    else key = [s.name, head, u].join();
    if (s.v.t !== String(t) || want.get(key) === undefined || want.get(key) !== s.exact) {
      if (wrong++ < 5) console.log('       step ' + s.at + ' ' + key + ': page ' + s.exact + ', attention trace --exact ' + want.get(key));
    }
    if (!s.line) lines++;
    if (s.line && !s.in_view) hidden++;
  }
  // the table shows only what is defined at the highlighted line: the
  // variables of the function it is in, and of a row u (or column i) the
  // value for this step's u (or i), as some step computed it
  const group = (name) => ['dot', 'score[u]'].includes(name) ? 'scores'
    : ['max', 'weight[u]', 'sum'].includes(name) ? 'softmax' : 'mix';
  const computed = new Set(steps.map((s) => [s.name, s.v.head, s.v.u, s.v.i, s.exact].join()));
  let stale = 0;
  for (const s of steps) {
    for (const [name, exact] of Object.entries(s.shown)) {
      const u = name === 'dot' || name.endsWith('[u]') || name.endsWith('[i]') ? s.v.u : null;
      const i = name.endsWith('[i]') ? s.v.i : null;
      const ok = group(name) === group(s.name) && (u === null ||
        [...computed].some((c) => { const [n, h, cu, ci, x] = c.split(',');
          return n === name && h === s.v.head && cu === u && (i === null || ci === i) && x === exact; }));
      if (!ok && stale++ < 3)
        console.log('       step ' + s.at + ' (' + s.name + ', u ' + s.v.u + '): ' + name + ' ' + exact + ' is not defined there');
    }
  }
  check(stale === 0, text + ' row ' + t + ': the table shows only values defined at the highlighted line (' +
        stale + ' shown that are not)');
  console.log('       ' + text + ' row ' + t + ': ' + steps.length + ' steps walked');
  check(lines === 0, text + ' row ' + t + ': every step highlights a line of the woven code');
  check(hidden === 0, text + ' row ' + t + ': the highlighted line is in view at every step (' + hidden + ' out of view)');
  check(steps.length === expected && want.size === expected && wrong === 0,
        text + ' row ' + t + ': all ' + steps.length + ' values of the stepper (' + expected +
        ' expected) equal attention trace --exact, digit for digit (' + wrong + ' differ)');
  return steps;
}

async function stepper(page) {
  const box = 'div.live[data-widget="stepper"]';
  await page.$eval(box + ' input.live-sequence', (e) => { e.value = '7x8='; e.dispatchEvent(new Event('input')); });
  const refused = await page.$eval(box + ' .live-status', (e) => e.textContent);
  check(refused === cli_message(['trace', '7x8=']), 'sequence 7x8= is refused with attention trace\'s message: ' + refused);
  await page.$eval(box + ' input.live-sequence', (e) => { e.value = '12345678'; e.dispatchEvent(new Event('input')); });
  const long = await page.$eval(box + ' .live-status', (e) => e.textContent);
  check(long === cli_message(['trace', '12345678']), 'a sequence of 8 is refused with attention trace\'s message: ' + long);
  // a character that is not a token is named, in the page as on the
  // command line, also where its bytes would be more than 7
  const wide = '\uff17*\uff18=';
  await page.$eval(box + ' input.live-sequence', (e, x) => { e.value = x; e.dispatchEvent(new Event('input')); }, wide);
  const named = await page.$eval(box + ' .live-status', (e) => e.textContent);
  const cli = cli_message(['trace', wide]);
  check(cli.includes('the character U+FF17 at position 0 is not a token') &&
        named === "'" + wide + "'" + cli.slice(cli.indexOf("':") + 1),
        'the full-width ' + wide + ' is refused for the character that is not a token: ' + named + ' (attention trace: ' + cli + ')');
  // long input is cut with an ellipsis, as the command line cuts it
  for (const [widget, field] of [['stepper', 'input.live-sequence'], ['grow', 'input.live-sequence']]) {
    const w = 'div.live[data-widget="' + widget + '"]';
    const many = '7'.repeat(50);
    await page.$eval(w + ' ' + field, (e, x) => { e.value = x; e.dispatchEvent(new Event('input')); }, many);
    const cut = await page.$eval(w + ' .live-status', (e) => e.textContent);
    check(cut === cli_message(['trace', many]) && cut.includes('7\u2026\''),
          widget + ': a sequence of 50 is quoted cut, with an ellipsis, as attention trace quotes it: ' + cut);
  }
  await page.$eval('div.live[data-widget="grow"] input.live-sequence', (e) => { e.value = '7*8=56'; e.dispatchEvent(new Event('input')); });

  // the row follows the problem: typed anew, the stepper is at its last
  // position, the one that emits the next token
  await page.click(box + ' input.live-sequence', { clickCount: 3 });
  await page.keyboard.down('Control'); await page.keyboard.press('a'); await page.keyboard.up('Control');
  await page.keyboard.type('3*4=');
  const typed = await page.$eval(box, (b) => [b.querySelector('select.live-pos').value,
                                              b.querySelector('.live-status').textContent]);
  const want_steps = 4 * (4 * 8 * 2 + 4 * 5);
  check(typed[0] === '3' && typed[1].startsWith('step 1 of ' + want_steps + ','),
        'typing 3*4= over the sequence steps its last row, t = 3, ' + want_steps + ' steps: row ' + typed[0] + ', ' + typed[1]);
  // the copied code is read, not followed: nothing in it takes the focus
  const focusable = await page.$$eval(box + ' .live-code a[href], ' + box + ' .live-code [tabindex]:not([tabindex="-1"]), ' +
                                      box + ' .live-code button, ' + box + ' .live-code input', (all) => all.length);
  const numbered = await page.$$eval(box + ' .live-code pre.numberSource code > span > a:first-child', (all) => all.length);
  check(numbered > 0, 'the stepper\'s copy of the code keeps its line numbers (' + numbered + ' lines)');
  check(focusable === 0, 'the stepper\'s copy of the code holds no link or other stop of the Tab key (' + focusable + ')');

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
  // the row that emits the first answer digit, and the one that emits the
  // second, after the model's own first digit
  const answer = execFileSync(program, ['ask', '-m', model, '7*8='], { encoding: 'utf8' }).trim();
  await compare_row(page, box, '7*8=' + answer[4], 4);
  const steps = await compare_row(page, box, '7*8=', 3);
  // back one step, and a row back
  await page.click(box + ' button.live-back');
  const back = await read();
  check(back.at === steps.length - 2, 'the step back goes back one step');
  await page.click(box + ' button.live-rowBack');
  const row = await read();
  check(row.at < back.at && row.v.u !== back.v.u, 'the row back goes to the previous u');
  // a screen reader hears the step's value, not only where it is (issue 37)
  await page.click(box + ' button.live-next');
  const heard = await page.$eval(box, (b) => ({
    said: [...b.querySelectorAll('[role="status"], [role="alert"], [aria-live]:not([aria-live="off"])')]
      .map((r) => r.textContent).join(' | '),
    name: b.querySelector('tr.live-now').dataset.name, value: b.querySelector('tr.live-now td').textContent }));
  check(heard.said.includes(heard.name + ' = ' + heard.value), 'a step announces its value, ' + heard.name + ' = ' +
        heard.value + ' (the live region says: ' + heard.said + ')');
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
  const end = await page.$eval(box + ' .live-status', (e) => e.textContent);
  check(written[written.length - 1] !== ';' || /';' \(the end of an answer\)/.test(end),
        'where the model chooses \';\', the page says what it is: ' + end);
  await page.$eval(box + ' input.live-sequence', (e) => { e.value = '7*8=;;;;'; e.dispatchEvent(new Event('input')); });
  const long = await page.$eval(box + ' .live-status', (e) => e.textContent);
  check(long === cli_message(['trace', '7*8=;;;;']), 'a sequence of 8 is refused with attention trace\'s message');
  await page.$eval(box + ' input.live-sequence', (e) => { e.value = '7*8=5'; e.dispatchEvent(new Event('input')); });
}

// ------------------------------------------------------------------ change the reading by hand
// Each patch of the widget against attention patch on the book's model:
// both answers and both logit differences; a bad other problem refused.
async function patched(page) {
  const box = 'div.live[data-widget="patch"]';
  const cases = [
    { site: '0', source: '2', head: '4', pos: '0', other: '3*6=', args: ['--head', '2', '--from', '3*6='] },
    { site: '1', source: '1', head: '255', pos: '0', other: '', args: ['--head', 'all', '--weights', '--mean'] },
    { site: '3', source: '2', head: '1', pos: '0', other: '3*8=', args: ['--head', '0', '--value', '0', '--from', '3*8='] },
    { site: '2', source: '0', head: '2', pos: '2', other: '', args: ['--head', '1', '--key', '2', '--zero'] },
  ];
  for (const c of cases) {
    await page.$eval(box + ' input.live-other', (e, x) => { e.value = x || '3*6='; }, c.other);
    for (const [menu, value] of [['select.live-site', c.site], ['select.live-patch-pos', c.pos],
                                 ['select.live-source', c.source], ['select.live-head', c.head]])
      await page.select(box + ' ' + menu, value);
    await page.click(box + ' button.live-patch');
    const got = await page.$eval(box, (b) => ({ ...b.dataset, status: b.querySelector('.live-status').textContent }));
    const lines = execFileSync(program, ['patch', '-m', model, '7*8=', ...c.args], { encoding: 'utf8' }).split('\n');
    const written = (line) => line.split('  ')[0].slice('7*8='.length);
    const diffs = lines[2].match(/-?\d+\.\d+/g) || [];
    check(got.status.startsWith('the book\'s model') && got.clean === written(lines[0]) &&
          got.patched === written(lines[1]) && got.diffClean === diffs[0] && got.diffPatched === diffs[1],
          'patch ' + c.args.join(' ') + ': the page writes ' + got.clean + ' and ' + got.patched + ' (' +
          got.diffClean + ', ' + got.diffPatched + '), attention patch ' + written(lines[0]) + ' and ' +
          written(lines[1]) + ' (' + diffs.join(', ') + ')');
  }
  await page.select(box + ' select.live-source', '2');
  await page.$eval(box + ' input.live-other', (e) => { e.value = '3*18='; });
  await page.click(box + ' button.live-patch');
  const refused = await page.$eval(box + ' .live-status', (e) => e.textContent);
  check(/as long as the question/.test(refused), 'a longer other problem is refused: ' + refused);
  await page.$eval(box + ' input.live-other', (e) => { e.value = '3*6='; });
  await page.click(box + ' button.live-patch');
}

// ------------------------------------------------------------------ swap the multiplicands
async function swap(page) {
  const box = 'div.live[data-widget="swap"]';
  const book = numbers('routing');
  for (const bad of ['7x8=', '7*8', '7*8=5', '1234567890123456789012345678901234567890123'])
    {
      await page.$eval(box + ' input.live-question', (e, x) => { e.value = x; }, bad);
      await page.click(box + ' button.live-swap');
      const refused = await page.$eval(box + ' .live-status', (e) => e.textContent);
      check(refused === cli_message(['ask', bad]), 'question ' + bad + ' is refused with attention ask\'s message: ' + refused);
    }
  await page.click(box + ' button.live-pick');
  // the titles and the weights, in order (the page draws the two orders
  // apart, each with its colour bar; the book's figure is one drawing)
  const cells = (svgs) => svgs.flatMap((svg) => [...svg.querySelectorAll('text')].map((t) => t.textContent))
    .filter((t) => /^\d\*\d=$|^\d\.\d\d$/.test(t)).join(' ');
  await page.evaluate('window.swapCells = ' + cells);
  const got = await page.$eval(box, (b) => ({ ...b.dataset, question: b.querySelector('input').value,
                                              drawn: window.swapCells([...b.querySelectorAll('.live-chart svg')]) }));
  const pick = book.get('swap_a') + '*' + book.get('swap_b') + '=';
  check(got.visited === book.get('swap_pairs') && got.pick === pick && got.pickChange === book.get('swap_change'),
        'the book\'s pick among the ' + got.visited + ' pairs is ' + got.pick + ' (' + got.pickChange +
        '), as in numbers-routing.txt: ' + pick + ' (' + book.get('swap_change') + ')');
  check(got.question === pick && got.change === book.get('swap_change') && Number(got.head) >= 0,
        'swapping the pick moves ' + got.change + ' of the reading, and head ' + got.head + ' follows a digit');
  const figure = fs.readFileSync(path.join(results, 'fig', 'swap_weights.svg'), 'utf8');
  const drawn = await page.evaluate((text) =>
    window.swapCells([new DOMParser().parseFromString(text, 'image/svg+xml').documentElement]), figure);
  check(got.drawn.length > 0 && drawn === got.drawn, 'the page draws the pick with the titles and weights of the ' +
        'book\'s figure swap_weights.svg (' + got.drawn.split(' ').length + ' texts)');
  await page.$eval(box + ' input.live-question', (e) => { e.value = '3*7='; });
  await page.click(box + ' button.live-swap');
  const other = await page.$eval(box, (b) => ({ ...b.dataset, titles: [...b.querySelectorAll('.live-chart svg text')].map((t) => t.textContent) }));
  check(other.titles.includes('3*7=') && other.titles.includes('7*3=') && Number(other.change) > 0,
        'the reader\'s pair 3*7= is drawn in both orders, change ' + other.change);
}

// The grow and swap widgets give the numbers their colours stand for in
// tables too (issue 37: they had no text alternative): the cells of the
// tables, in order, are the numbers the drawings print, a drawing per
// head (grow) or per order (swap), row by row.  (The grow widget is
// given a question, whose squares are large enough to print their
// numbers; with an answer digit they print none.)
async function text_alternatives(page) {
  await page.$eval('div.live[data-widget="grow"] input.live-sequence',
                   (e) => { e.value = '7*8='; e.dispatchEvent(new Event('input')); });
  for (const widget of ['grow', 'swap']) {
    const got = await page.$eval('div.live[data-widget="' + widget + '"]', (b) => {
      const frame = b.querySelector('details.live-numbers .live-numbers-frame');
      return {
        tables: frame ? frame.querySelectorAll('table').length : 0,
        named: !!frame && frame.getAttribute('role') === 'region' && (frame.getAttribute('aria-label') || '').length > 5,
        cells: frame ? [...frame.querySelectorAll('td')].map((td) => td.textContent).join(' ') : '',
        drawn: [...b.querySelectorAll('.live-chart svg text')].map((t) => t.textContent)
          .filter((t) => /^-?\d\.\d\d$/.test(t)).join(' '),
        svgs: b.querySelectorAll('.live-chart svg').length };
    });
    check(got.tables === got.svgs && got.named && got.drawn.length > 0 && got.cells === got.drawn,
          widget + ': the numbers of its ' + got.svgs + ' drawings are also in ' + got.tables + ' tables, in a named ' +
          'box (' + got.cells.split(' ').length + ' cells; drawn: ' + got.drawn.split(' ').length + ')');
  }
}

// ------------------------------------------------------------------ the wiring, one stage lit
// The widget lights the stage the reader picks from the menu, steps to
// with the buttons, or clicks in the drawing: the band of the page's
// highlight (#ffe9a8) stands behind that stage alone, and the status
// names the tables the stage reads, with their shapes from the book's
// table of tables (gpt_tables.md, which make wrote from the same list).
async function wiring(page) {
  const box = 'div.live[data-widget="wiring"]';
  const state = () => page.$eval(box, (b) => {
    const svg = b.querySelector('.live-chart svg');
    const lit = svg ? [...svg.querySelectorAll('rect')].filter((r) => r.getAttribute('fill') === '#ffe9a8') : [];
    return { ...b.dataset, status: b.querySelector('.live-status').textContent, bands: lit.length,
             litY: lit.length ? Number(lit[0].getAttribute('y')) : NaN,
             options: [...b.querySelectorAll('select.live-stage option')].map((o) => o.textContent) };
  });
  const first = await state();
  check(first.lit === '0' && first.what === 'embedding' && first.tables === 'tok_emb pos_emb' && first.bands === 1,
        'the wiring opens on its first stage, the embedding, lit, which reads ' + first.tables);
  check(first.options.length === 13 && first.options[3] === '4 attention',
        'its menu lists the block\'s ' + first.options.length + ' stages, in the order the forward pass reads them');
  const shapes = fs.readFileSync(path.join(results, 'gpt_tables.md'), 'utf8');
  const row = (name) => (shapes.split('\n').find((l) => l.includes('`' + name + '`')) || '').split('|').map((c) => c.trim());
  await page.select(box + ' select.live-stage', '2');
  const qkv = await state();
  const shown = /Wq \((\d+) × (\d+)/.exec(qkv.status), wq = row('Wq');
  check(qkv.what === 'q, k, v' && qkv.tables === 'Wq Wk Wv' && qkv.bands === 1 && qkv.litY > first.litY &&
        !!shown && shown[1] === wq[3] && shown[2] === wq[4],
        'stage 3 from the menu lights q, k, v lower down, and says Wq is ' + (shown ? shown[1] + ' × ' + shown[2] : '?') +
        ', as the table of tables does: ' + qkv.status);
  await page.click(box + ' button.live-next');
  const fourth = await state();
  check(fourth.lit === '3' && fourth.what === 'attention' && fourth.tables === '' && /no table/.test(fourth.status),
        'Next lights stage 4, attention, which reads no table: ' + fourth.status);
  // a click on the name of W1 in the drawing, in the band of stage 7
  await page.$eval(box + ' .live-chart svg', (svg) =>
    [...svg.querySelectorAll('text')].find((t) => t.textContent === 'W1').scrollIntoView({ block: 'center' }));
  const widen = await page.$eval(box, (b) => {
    const svg = b.querySelector('.live-chart svg'), r = svg.getBoundingClientRect();
    const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent === 'W1');
    const t = texts[0].getBoundingClientRect();
    return { x: t.left + t.width / 2, y: t.top + t.height / 2, inside: r.top <= t.top && t.bottom <= r.bottom };
  });
  await page.mouse.click(widen.x, widen.y);
  const clicked = await state();
  check(widen.inside && clicked.what === 'widen' && clicked.tables === 'W1' && clicked.bands === 1,
        'a click on W1 in the drawing lights its stage, widen: ' + clicked.status);
}

// ------------------------------------------------------------------ it reads its own output
async function own(page) {
  const box = 'div.live[data-widget="own"]';
  const book = numbers('routing');
  for (const bad of ['7*8=5', 'x'])
    {
      await page.$eval(box + ' input.live-question', (e, x) => { e.value = x; }, bad);
      await page.click(box + ' button.live-own');
      const refused = await page.$eval(box + ' .live-status', (e) => e.textContent);
      check(refused === cli_message(['ask', bad]), 'question ' + bad + ' is refused with attention ask\'s message: ' + refused);
    }
  await page.$eval(box + ' input.live-question', (e) => { e.value = '7*8='; });
  await page.click(box + ' button.live-own');
  const got = await page.$eval(box, (b) => ({ ...b.dataset,
    rows: [...b.querySelectorAll('table.live-weights tr')].slice(1).map((r) => [...r.children].map((c) => c.textContent)) }));
  const want = table_rows('own_output.md');
  check(got.tokens === '7*8=' + book.get('own_digit') && got.next === book.get('own_next'),
        'the page\'s model writes ' + got.tokens + ' then ' + got.next + ', as numbers-routing.txt says');
  check(got.top === book.get('own_top_head') && got.most === '1',
        'head ' + got.top + ' weighs position 4 most, more than any other position (the book: head ' + book.get('own_top_head') + ')');
  check(JSON.stringify(got.rows) === JSON.stringify(want),
        'the page\'s weights of row 4 are the book\'s table own_output.md, cell for cell');
  const answer = execFileSync(program, ['ask', '-m', model, '3*9='], { encoding: 'utf8' }).trim();
  await page.$eval(box + ' input.live-question', (e) => { e.value = '3*9='; });
  await page.click(box + ' button.live-own');
  const other = await page.$eval(box, (b) => b.dataset.tokens + b.dataset.next);
  check(other === answer.slice(0, 6), 'on 3*9= the page traces ' + other + ', as attention ask answers ' + answer);
}

// ------------------------------------------------------------------ looking for a neuron
async function neurons(page) {
  const box = 'div.live[data-widget="neuron"]';
  const want = table_rows('neurons.md');
  const names = await page.$$eval(box + ' select.live-concept option', (o) => o.map((e) => e.textContent));
  check(JSON.stringify(names) === JSON.stringify(want.map((r) => r[0])), 'the concepts are the book\'s: ' + names.join(', '));
  for (let c = 0; c < names.length; c++) {
    await page.$eval(box + ' select.live-concept', (e, x) => { e.value = x; e.dispatchEvent(new Event('change')); }, String(c));
    const got = await page.$eval(box, (b) => [b.dataset.count, b.dataset.neuron, b.dataset.d, b.dataset.right,
                                              b.querySelectorAll('.live-chart svg rect').length]);
    check(JSON.stringify(got.slice(0, 4)) === JSON.stringify(want[c].slice(1)) && got[4] >= 100,
          'concept "' + names[c] + '": neuron ' + got[1] + ', d = ' + got[2] + ', ' + got[3] +
          ' right, drawn, as the book\'s table neurons.md says');
  }
}

// The neuron's table of numbers, opened: at 1280 px its eleven columns
// are all in view; where they cannot be (400 px), the box that holds them
// scrolls, and the keyboard reaches it (Tab from the summary), hears its
// name and scrolls it to the last column with the arrow keys.
async function neuron_numbers(page) {
  const box = 'div.live[data-widget="neuron"]';
  await page.$eval(box + ' details.live-numbers', (d) => { d.open = true; });
  for (const width of [1280, 400]) {
    await page.setViewport({ width, height: 900 });
    const seen = () => page.$eval(box + ' table.live-neuron-numbers', (t) => {
      let frame = t.parentElement;       // the box that clips the table sideways
      while (frame && !/auto|scroll|hidden|clip/.test(getComputedStyle(frame).overflowX)) frame = frame.parentElement;
      const f = frame.getBoundingClientRect();
      const out = (c) => { const r = c.getBoundingClientRect(); return r.left < f.left - 0.5 || r.right > f.right + 0.5; };
      const last = [...t.querySelectorAll('tr')].map((tr) => tr.lastElementChild);
      return { hidden: [...t.querySelectorAll('th, td')].filter(out).length, lastHidden: last.filter(out).length,
               scrolls: frame.scrollWidth > frame.clientWidth + 1, tab: frame.getAttribute('tabindex'),
               role: frame.getAttribute('role'), label: frame.getAttribute('aria-label') || '' };
    });
    const at = await seen();
    if (width === 1280) {
      check(at.hidden === 0, 'at 1280 px every column of the neuron\'s numbers is in view (' + at.hidden +
            ' cells hidden)');
      continue;
    }
    check(at.hidden === 0 || (at.scrolls && at.tab === '0' && at.role === 'region' && at.label.length > 5),
          'at 400 px the neuron\'s numbers fit or scroll in a box the keyboard reaches, named (' +
          at.hidden + ' cells out of view; tabindex ' + at.tab + ', role ' + at.role + ', "' + at.label + '")');
    if (at.hidden === 0) continue;
    await page.focus(box + ' details.live-numbers > summary');
    await page.keyboard.press('Tab');
    const reached = await page.evaluate((b) => {
      const e = document.activeElement;
      return !!e && e.contains(document.querySelector(b + ' table.live-neuron-numbers'));
    }, box);
    let presses = 0;
    while (reached && presses < 40 && (await seen()).lastHidden > 0) {
      await page.keyboard.press('ArrowRight');
      presses++;
      await sleep(50);
    }
    const end = await seen();
    check(reached && end.lastHidden === 0, 'at 400 px Tab from the summary reaches the neuron\'s numbers, and ' +
          presses + ' presses of ArrowRight bring the last column into view (' + end.lastHidden + ' cells still hidden)');
  }
  await page.setViewport({ width: 1280, height: 900 });
  await page.$eval(box + ' details.live-numbers', (d) => { d.open = false; });
}

// ------------------------------------------------------------------ principal directions
async function screeplot(page) {
  const box = 'div.live[data-widget="scree"]';
  const book = numbers('ffn');
  const got = await page.$eval(box, (b) => [b.dataset.count, b.dataset.countIn, b.dataset.first,
                                            b.querySelectorAll('.live-chart svg polyline, .live-chart svg path').length]);
  check(got[0] === book.get('pca_90') && got[1] === book.get('pca_90_input') && got[2] === book.get('pca_first_share') && got[3] > 0,
        'the scree plot: ' + got[0] + ' and ' + got[1] + ' directions for 90 %, the first ' + got[2] +
        ' %, as numbers-ffn.txt says');
}

// ------------------------------------------------------------------ run an experiment
// The rows of chapter 7's and chapter 8's tables, as the native
// experiments wrote them: model name and seed to [first, score, loss].
function run_rows(file) {
  const rows = new Map();
  let name = '';
  const md = fs.readFileSync(path.join(path.dirname(model), 'results', file), 'utf8');
  for (const line of md.split('\n').slice(2)) {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length !== 5) continue;
    name = cells[0] || name;
    rows.set(name + ',' + cells[1], cells.slice(2));
  }
  return rows;
}
function ablation_rows() { return run_rows('ablations.md'); }
function heads_rows() { return run_rows('heads_runs.md'); }

// Run one experiment in the page; while it trains, another widget must
// answer.  Returns the rows of the page's table and the box's data.
async function run_experiment(page, widget, option, seed) {
  const box = 'div.live[data-widget="' + widget + '"]';
  await page.$eval(box + ' select.live-variant', (e, v) => { e.value = v; }, option);
  await page.$eval(box + ' input.live-seed', (e, v) => { e.value = v; }, seed);
  // Enter in the seed field runs, as the button does
  await page.focus(box + ' input.live-seed');
  await page.keyboard.press('Enter');
  // the run starts at once, and says so; its first record comes when the
  // worker has loaded, which a busy machine delays (it took over 20 s
  // while four test processes shared two cores)
  // (the announcement waited for: on a busy machine the key's handler
  // ran after the first look, once, with four test processes on two cores)
  const began = await page.waitForFunction((b) =>
    [...document.querySelectorAll(b + ' .live-announce')].some((a) => a.textContent.startsWith('Training ')),
    { timeout: 10000 }, box).then(() => true, () => false);
  check(began, widget + ': Enter in the seed field starts the experiment');
  if (!began) await page.click(box + ' button.live-run');
  await page.waitForFunction((b) => / step \d+:/.test(document.querySelector(b + ' .live-status').textContent),
                             { timeout: 120000 }, box);
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
  // a bad seed typed while it runs, and Enter: the command line's message
  // beside the controls, the run untouched (issue 37)
  await page.$eval(box + ' input.live-seed', (e) => { e.value = ''; });
  await page.focus(box + ' input.live-seed');
  await page.keyboard.type('abc');
  await page.keyboard.press('Enter');
  const bad = await page.$eval(box, (b) => ({ refused: b.querySelector('.live-refusal').textContent,
    shown: b.querySelector('.live-refusal').getBoundingClientRect().height > 0, going: b.dataset.done === undefined }));
  check(bad.refused === seed_message('abc') && bad.shown && bad.going, widget + ': a bad seed typed while the ' +
        'experiment runs is refused in sight, with the command line\'s message, and the run goes on: ' + bad.refused);
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
    floor: (b.querySelector('.live-chart svg').textContent.match(/floor [0-9.]+/) || [null])[0],
  }));
  check(after.done === 'ok', widget + ': the experiment ends: ' + after.status);
  // a screen reader hears the result, each model's row of the table, and
  // each model by the table's name (issue 37: it heard the ms a step)
  const heard = await page.$eval(box, (b) => [...b.querySelectorAll('[role="status"], [role="alert"], ' +
    '[aria-live]:not([aria-live="off"])')].map((r) => r.textContent).join(' | '));
  const cells = after.rows.map((r) => [r[0], r[1] === 'never' ? 'never' : 'step ' + r[1], 'score ' + r[2], 'loss ' + r[3]]);
  check(cells.every((c) => c.every((x) => heard.includes(x))), widget + ': the end of the run announces its result (' +
        heard + '; the table: ' + JSON.stringify(after.rows.map((r) => r.slice(0, 4))) + ')');
  const chosen = await page.$eval(box + ' select.live-variant', (e) => e.options[e.selectedIndex].textContent);
  check(after.rows.length === 2 && after.rows[1][0] === chosen && after.rows[0][0] === 'book\'s model',
        widget + ': the model chosen in the menu, "' + chosen + '", has that name in the table: ' +
        after.rows.map((r) => r[0]).join(', '));
  await sleep(200);
  check(live_workers(page) === 0, widget + ': the worker is terminated when the experiment is done (' +
        live_workers(page) + ' left)');
  const said = await page.$eval(box + ' .live-logs', (e) => e.textContent);
  check(/final loss is the loss on all 100 problems/.test(said) && /final score is the last one of the log/.test(said),
        widget + ': the page says what its final score and final loss are: ' + said.split('. Training')[0]);
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
  // each model of the menus has the name of the book's tables (issue 37:
  // "without the residual" in the menu, "no residual" in the table;
  // "eight heads" and "8 heads")
  for (const [widget, rows] of [['ablations', ablation_rows()], ['heads', heads_rows()]]) {
    const named = new Set([...rows.keys()].map((k) => k.split(',')[0]));
    const options = await page.$$eval('div.live[data-widget="' + widget + '"] select.live-variant option',
                                      (all) => all.map((o) => o.textContent));
    const other = options.filter((o) => !named.has(o));
    check(options.length >= 4 && other.length === 0, 'the ' + widget + ' menu names its models as the book\'s table does (' +
          options.join(', ') + (other.length ? '; not in the table: ' + other.join(', ') : '') + ')');
  }
  // bad input: the command line's message
  const box = 'div.live[data-widget="ablations"]';
  await page.$eval(box + ' input.live-seed', (e) => { e.value = '-3'; });
  await page.click(box + ' button.live-run');
  const refused = await text_of(page, box + ' .live-refusal');
  check(refused === seed_message('-3'),
        'experiment: seed -3 is refused with the command line\'s message, in the page\'s words: ' + refused);

  // chapter 7: without LayerNorm, seed 2, against exp_ablations.c's runs
  const table = ablation_rows();
  const off = await run_experiment(page, 'ablations', '3', '2');
  const want = [['book\'s model', ...table.get('book\'s model,2')],
                ['no LayerNorm', ...table.get('no LayerNorm,2')]];
  const got = off.rows.map((r) => r.slice(0, 4));
  check(JSON.stringify(got) === JSON.stringify(want) && off.seed === 'seed 2',
        'without LayerNorm, seed 2: the page\'s runs are the book\'s (' +
        JSON.stringify(got) + ', ablations.md ' + JSON.stringify(want) + ')');

  // chapter 7 again: without the mask the loss falls through the floor,
  // which the page draws as the book's figure does; no other chart has it
  const nomask = await run_experiment(page, 'ablations', '1', '1');
  const drawn = fs.readFileSync(path.join(path.dirname(model), 'results', 'fig', 'no_mask.svg'),
                                'utf8').match(/floor [0-9.]+/);
  check(drawn !== null && nomask.floor === drawn[0] && off.floor === null,
        'without the mask the page draws the floor as no_mask.svg does (' + nomask.floor +
        '; without LayerNorm: ' + off.floor + ')');

  // chapter 8: eight heads, seed 1, against exp_heads.c's runs and the
  // book's model's training log
  const heads = heads_rows();
  const eight = await run_experiment(page, 'heads', '3', '1');
  const got8 = eight.rows.map((r) => [r[1], r[2], Number(r[4]).toFixed(4)]);
  const want8 = [heads.get('4 heads,1'), heads.get('8 heads,1')];
  check(JSON.stringify(got8) === JSON.stringify(want8),
        'eight heads, seed 1: the page\'s runs are the book\'s (' + JSON.stringify(got8) +
        ', heads_runs.md ' + JSON.stringify(want8) + ')');
  check(eight.log === fs.readFileSync(model + '.log', 'utf8'),
        'the page\'s log of the book\'s model at seed 1 is byte for byte ' + path.basename(model) + '.log');

  // Every drawing on the page names its own ids (issue 37): no two
  // elements share one, and each clip or pattern a chart refers to is
  // found inside that chart's own drawing, after the train widget, the
  // experiments and the other widgets have all drawn.
  const ids = await page.evaluate(() => {
    const seen = new Map();
    for (const e of document.querySelectorAll('[id]')) seen.set(e.id, (seen.get(e.id) || 0) + 1);
    const twice = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
    let refs = 0, foreign = 0;
    for (const svg of document.querySelectorAll('div.live svg'))
      for (const e of svg.querySelectorAll('[clip-path], [fill^="url("]')) {
        const m = /url\(#([^)]+)\)/.exec(e.getAttribute('clip-path') || e.getAttribute('fill'));
        if (!m) continue;
        refs++;
        const target = document.getElementById(m[1]);    // what the browser draws
        if (!target || !svg.contains(target)) foreign++;
      }
    return { twice, refs, foreign };
  });
  check(ids.twice.length === 0, 'no two elements of the page share an id' +
        (ids.twice.length ? ' (' + ids.twice.length + ' do: ' + ids.twice.slice(0, 4).join(', ') + ')' : ''));
  check(ids.refs > 0 && ids.foreign === 0, 'each of the ' + ids.refs + ' clips and patterns the charts ' +
        'refer to is in the chart\'s own drawing (' + ids.foreign + ' elsewhere)');
  // No text of a chart runs past its drawing's edge (issue 37: legends
  // laid out for the book's widest figure were cut at a panel's).
  const cut_text = await page.evaluate(() => {
    const out = [];
    for (const svg of document.querySelectorAll('div.live svg')) {
      const s = svg.getBoundingClientRect();
      if (s.width === 0) continue;
      for (const e of svg.querySelectorAll('text')) {
        const r = e.getBoundingClientRect();   // after any rotation
        if (r.width > 0 && (r.left < s.left - 0.5 || r.right > s.right + 0.5)) out.push(e.textContent);
      }
    }
    return out;
  });
  check(cut_text.length === 0, 'no text of a chart runs past its edge' +
        (cut_text.length ? ' (' + cut_text.length + ' do: ' + cut_text.slice(0, 4).join('; ') + ')' : ''));

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
      await shot(page, el, file);
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
// the value the stepper writes at the end of the highlighted line is inside
// the visible part of its chunk, also where the chunk scrolls sideways
async function stepped_value_in_view(page, width) {
  const box = 'div.live[data-widget="stepper"]';
  await page.click(box + ' button.live-back');
  await page.click(box + ' button.live-next');
  const seen = await page.evaluate((box) => {
    const note = document.querySelector(box + ' .live-here .live-note');
    const block = note && note.closest('div.sourceCode');
    if (!block) return null;
    const n = note.getBoundingClientRect(), b = block.getBoundingClientRect();
    return { left: n.left - b.left, right: n.right - b.left, width: block.clientWidth,
             scrolled: block.scrollLeft };
  }, box);
  check(seen !== null && seen.left >= 0 && seen.right <= seen.width + 1,
        'at ' + width + ' px the stepped value is in view in its chunk (' + JSON.stringify(seen) + ')');
}

async function screenshots(page) {
  for (const width of [1280, 400]) {
    await page.setViewport({ width, height: 900 });
    // the page settled at this width: page.html measures the parts again
    // 200 ms after a new width, one chapter a frame
    await sleep(500);
    await page.waitForFunction(() => document.documentElement.classList.contains('measured'), { timeout: 60000 });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    check(wide <= 0, 'at ' + width + ' px the page does not scroll sideways (' + wide + ' px too wide)');
    await stepped_value_in_view(page, width);
    // no text of a chart is smaller than the book's small print, three
    // quarters of the body's size (its code's line numbers)
    const sizes = await page.$$eval('div.live svg text', (all) => {
      const body = parseFloat(getComputedStyle(document.body).fontSize);
      return { body, least: all.map((t) => {
        const svg = t.ownerSVGElement, box = svg.viewBox.baseVal;
        const px = Number(t.getAttribute('font-size')) * svg.getBoundingClientRect().width / box.width;
        return [px, svg.closest('div.live').dataset.widget];
      }).sort((a, b) => a[0] - b[0]) };
    });
    const small = sizes.least.filter(([px]) => px < 0.75 * sizes.body - 0.01);
    check(sizes.least.length > 0 && small.length === 0,
          'at ' + width + ' px no chart text is under the small print (' + (0.75 * sizes.body).toFixed(2) +
          ' px): the smallest is ' + sizes.least[0][0].toFixed(2) + ' px (' + sizes.least[0][1] + '), ' +
          small.length + ' texts under, in ' + [...new Set(small.map((x) => x[1]))].join(', '));
    const scrolled = await page.$$eval('div.live .live-chart', (all) => all.filter((c) => c.scrollWidth > c.clientWidth + 1)
      .map((c) => c.closest('div.live').dataset.widget + (c.getAttribute('tabindex') === '0' ? '' : ' (no tabindex)')));
    check(scrolled.length === 0, 'at ' + width + ' px no chart scrolls sideways in its box (' +
          (scrolled.join(', ') || 'none') + ')');
    check(scrolled.every((w) => !w.includes('no tabindex')), 'at ' + width + ' px a chart that scrolls sideways can be scrolled from the keyboard');
    for (const name of ['train', 'stepper', 'grow', 'swap', 'own', 'neuron', 'scree', 'wiring']) {
      const el = await page.$('div.live[data-widget="' + name + '"]');
      await el.scrollIntoView();
      const file = path.join(work, 'live-' + name + '-' + width + '.png');
      await shot(page, el, file);
      console.log('       screenshot ' + file);
    }
  }
}

// ------------------------------------------------------------------ the page does not jump
// When the module starts, the widgets appear in boxes already as tall as
// they will be, so that a reader who reloads the page keeps the place
// (issue 37).  A fresh page at each width is held before the module is
// compiled; the top of chapter 10's heading, below every widget, is taken
// there and again once the widgets have drawn.  Every part of the book
// is laid out for both (weave.css would otherwise leave the parts far
// from the window at a height they were drawn at before, or a window's).
async function no_jump(browser, url) {
  for (const width of [1280, 400]) {
    const fresh = await browser.newPage();
    await fresh.setViewport({ width, height: 900 });
    await fresh.evaluateOnNewDocument(() => {
      const compile = WebAssembly.compile;
      WebAssembly.compile = (bytes) => new Promise((resolve) => {
        window.liveGo = () => resolve(compile(bytes));
      });
    });
    await fresh.goto(url, { waitUntil: 'load' });
    // (page.html measures the parts once the widgets are built; here
    // every part is drawn, by the style below, instead)
    await fresh.waitForFunction(() => window.liveGo && document.readyState === 'complete', { timeout: 60000 });
    await fresh.evaluate(() => document.fonts.ready.then(() => true));
    await fresh.addStyleTag({ content: 'div.part { content-visibility: visible !important; }' });
    const where = () => fresh.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => {
      const head = document.getElementById('what-changed');
      resolve({ top: head.getBoundingClientRect().top + window.scrollY, live: document.documentElement.dataset.live,
                drawn: document.querySelectorAll('div.live svg, div.live table.live-weights tr').length });
    })));
    const before = await where();
    await fresh.evaluate(() => window.liveGo());
    await fresh.waitForFunction(() => document.documentElement.dataset.live === 'ready', { timeout: 60000 });
    const after = await where();
    const moved = after.top - before.top;
    check(before.drawn === 0 && after.drawn > 0 && Math.abs(moved) <= 3,
          'at ' + width + ' px chapter 10\'s heading stays where it was when the widgets appear (moved ' +
          moved.toFixed(1) + ' px, from ' + before.top.toFixed(1) + '; before: ' + before.live + ', ' +
          before.drawn + ' drawings; after: ' + after.drawn + ')');
    await fresh.close();
  }
}

// ------------------------------------------------------------------ Part II, read when opened
// The live page leaves Part II unparsed (book/program-later.awk) until the
// reader opens it: by its button (from the keyboard too, which then stands
// on Part II's heading), or by a link to something in it, which then
// lands on its target; a reload keeps it open, and keeps the place.
async function program_later(browser, url) {
  const source = fs.readFileSync(page_path, 'utf8');
  const chunks = (source.match(/<div class="nwchunk/g) || []).length;
  const count = (p) => p.evaluate(() => ({
    chunks: document.querySelectorAll('div.nwchunk').length,
    part2: document.getElementById('part-program') !== null,
    waiting: document.querySelector('noscript#program-unread') !== null,
    opener: (() => { const o = document.getElementById('program-later'); return o !== null && !o.hidden; })(),
  }));
  const fresh = await browser.newPage();
  await fresh.setViewport({ width: 1280, height: 900 });
  await fresh.goto(url, { waitUntil: 'load' });
  const before = await count(fresh);
  check(!before.part2 && before.waiting && before.opener && before.chunks > 0 && before.chunks < chunks,
        'the live page opens with Part II unread: ' + before.chunks + ' of ' + chunks +
        ' chunks in the page, and a button to open the rest');
  // a link in Part I's text to a chunk of Part II
  const link = await fresh.evaluateHandle(() => [...document.querySelectorAll('div.part a[href^="#chunk-"]')]
    .find((a) => !document.getElementById(decodeURIComponent(a.getAttribute('href').slice(1)))));
  const href = await fresh.evaluate((a) => a ? a.getAttribute('href') : null, link);
  check(href !== null, 'Part I links to a chunk of Part II (' + href + ')');
  if (href === null) { await fresh.close(); return; }
  await fresh.evaluate((a) => a.scrollIntoView({ block: 'center' }), link);
  await link.click();
  await sleep(300);
  const landed = await fresh.evaluate((id) => {
    const t = document.getElementById(id);
    return t ? t.getBoundingClientRect().top : null;
  }, decodeURIComponent(href.slice(1)));
  const after = await count(fresh);
  check(after.part2 && !after.waiting && !after.opener && after.chunks === chunks && landed !== null
        && landed >= 0 && landed < 450,
        'following it opens Part II (' + after.chunks + ' chunks) and lands on ' + href + ' (' +
        (landed === null ? 'not in the page' : landed.toFixed(0) + ' px from the top') + ')');
  // (the parts far from the window reach their true heights as the page
  // measures them, while the place stays in the window: the distance from
  // the page's top is compared once all are measured)
  const measured = (p) => p.waitForFunction(() => document.documentElement.classList.contains('measured'),
                                            { timeout: 60000 }).catch(() => {});
  await measured(fresh);
  const y = await fresh.evaluate(() => window.scrollY);
  await fresh.reload({ waitUntil: 'load' });
  await sleep(500);
  await measured(fresh);
  const again = await count(fresh);
  const y2 = await fresh.evaluate(() => window.scrollY);
  check(again.part2 && again.chunks === chunks && Math.abs(y2 - y) <= 3,
        'a reload keeps Part II open and the place (scrolled to ' + y2.toFixed(0) + ' px, was ' + y.toFixed(0) + ')');
  await fresh.close();
  // from the contents: the first appendix of Part II
  const toc = await browser.newPage();
  await toc.setViewport({ width: 1280, height: 900 });
  await toc.goto(url, { waitUntil: 'load' });
  await toc.click('nav#TOC a[href="#program"]');
  await sleep(300);
  await measured(toc);
  const m = await toc.evaluate(() => {
    const t = document.getElementById('program');
    return t && t.tagName === 'H1' ? t.getBoundingClientRect().top : null;
  });
  // (a heading lies at a fraction of a pixel, the window at a whole one:
  // at the top means within a pixel of it)
  check(m !== null && m > -1 && m < 450, 'the contents\' entry of Part II\'s first appendix opens it and lands on its heading (' +
        (m === null ? 'not in the page' : m.toFixed(0) + ' px from the top') + ')');
  await toc.close();
  // from the keyboard: the button, then Part II's heading
  const keys = await browser.newPage();
  await keys.setViewport({ width: 400, height: 900 });
  await keys.goto(url, { waitUntil: 'load' });
  await keys.focus('#program-later button');
  await keys.keyboard.press('Enter');
  await sleep(300);
  const focus = await keys.evaluate(() => ({ id: document.activeElement.id,
    top: document.activeElement.getBoundingClientRect().top,
    chunks: document.querySelectorAll('div.nwchunk').length }));
  check(focus.id === 'part-program' && focus.top >= 0 && focus.top < 450 && focus.chunks === chunks,
        'at 400 px Enter on the button opens Part II and puts the focus on its heading, in view (' +
        focus.id + ', ' + focus.top.toFixed(0) + ' px)');
  await keys.close();
  // without JavaScript the noscript is the book as it is: Part II in full
  const plain = await browser.newPage();
  await plain.setJavaScriptEnabled(false);
  await plain.goto(url, { waitUntil: 'load' });
  const off = await count(plain);
  check(off.part2 && off.chunks === chunks && !off.opener,
        'without JavaScript the page shows Part II whole (' + off.chunks + ' chunks), and no button');
  await plain.close();
}

// ------------------------------------------------------------------ before any run
// The results tables of the experiments are empty and hidden: they take
// no room at any width (the book's table{display:block} must not show them).
async function before_runs(page) {
  for (const width of [1280, 400]) {
    await page.setViewport({ width, height: 900 });
    const shown = await page.$$eval('div.live table.live-results', (all) =>
      all.map((t) => t.getBoundingClientRect().height));
    check(shown.length === 2 && shown.every((h) => h === 0),
          'at ' + width + ' px the empty results tables take no room (heights ' + shown.join(', ') + ' px)');
  }
  await page.setViewport({ width: 1280, height: 900 });
}

// ------------------------------------------------------------------ a reader's session
// A run under way, and what the reader does meanwhile: a bad seed is
// refused without touching the run and its message stays; the stepper
// keeps its place when the run ends; the train widget offers the book's
// model back; a screen reader hears the run's start, quarters and end.
async function session(page) {
  const box = 'div.live[data-widget="train"]', stepper = 'div.live[data-widget="stepper"]';
  await page.$eval(stepper + ' input.live-sequence', (e) => { e.value = '7*8='; e.dispatchEvent(new Event('input')); });
  for (let k = 0; k < 50; k++) await page.$eval(stepper + ' button.live-next', (b) => b.click());
  const place = await page.$eval(stepper, (b) => [b.dataset.at, b.querySelector('tr.live-now td').dataset.exact]);
  // count what the live regions of the train widget announce
  await page.$eval(box, (b) => {
    for (const r of b.querySelectorAll('[role="status"], [aria-live]'))
      new MutationObserver(() => { window.__announced = (window.__announced || 0) + 1; })
        .observe(r, { subtree: true, childList: true, characterData: true });
  });
  // and what every live region of the page announces, by widget: the
  // other widgets follow the new model quietly (issue 37: six of them
  // spoke when a run ended)
  await page.evaluate(() => {
    window.__heard = {};
    const live = '[role="status"], [role="alert"], [role="log"], [aria-live]:not([aria-live="off"])';
    for (const r of document.querySelectorAll('div.live ' + live.split(', ').join(', div.live '))) {
      const widget = r.closest('div.live').dataset.widget;
      new MutationObserver(() => { window.__heard[widget] = (window.__heard[widget] || 0) + 1; })
        .observe(r, { subtree: true, childList: true, characterData: true });
    }
  });
  await page.$eval(box + ' input.live-seed', (e) => { e.value = '3'; });
  await page.click(box + ' button.live-train');
  await page.waitForFunction((b) => /step [1-9]\d*:/.test(document.querySelector(b + ' .live-status').textContent),
                             { timeout: 30000 }, box);
  // a bad seed while it runs
  await page.$eval(box + ' input.live-seed', (e) => { e.value = ''; });
  await page.focus(box + ' input.live-seed');
  await page.keyboard.type('abc');
  await page.click(box + ' button.live-train');
  const refused = await text_of(page, box + ' .live-refusal');
  await sleep(400);
  const kept = await text_of(page, box + ' .live-refusal');
  const going = await text_of(page, box + ' .live-status');
  check(refused === seed_message('abc') && kept === refused,
        'a bad seed during a run is refused in the page\'s words, and the message stays while the run goes on: ' + kept);
  check(/^seed 3[,:] /.test(going), 'the run of seed 3 goes on: ' + going);
  await page.waitForSelector(box + ' a.live-download:not([hidden])', { timeout: 60000 });
  const end = await page.$eval(box, (b) => ({ status: b.querySelector('.live-status').textContent,
    red: b.querySelector('.live-status').classList.contains('live-error') ||
         getComputedStyle(b.querySelector('.live-status')).color === 'rgb(170, 0, 0)',
    kept: (b.querySelector('.live-refusal') || {}).textContent }));
  check(end.status.startsWith('seed 3: first 100/100') && !end.red,
        'the run of seed 3 ends as it began, its success line not in red: ' + end.status);
  check(end.kept === refused, 'the refusal stays until the reader\'s next action: ' + end.kept);
  await page.focus(box + ' input.live-seed');
  await page.keyboard.press('Backspace');
  const cleared = await text_of(page, box + ' .live-refusal');
  check(!cleared, 'the reader\'s next action in the field clears the refusal');
  const announced = await page.evaluate(() => window.__announced || 0);
  check(announced >= 3 && announced <= 8, 'a screen reader hears the run ' + announced +
        ' times (its start, each quarter and its end), not at every record');
  const heard = await page.evaluate(() => window.__heard);
  const others = Object.entries(heard).filter(([w]) => w !== 'train');
  check(others.length === 0, 'during the run and when it ends, no other widget announces anything (' +
        (others.map(([w, n]) => w + ' ' + n).join(', ') || 'none') + '; the train widget ' + (heard.train || 0) + ')');
  await sleep(200);
  check(live_workers(page) === 0, 'after two runs no worker is left (' + live_workers(page) + ')');

  // the stepper kept its place, on the new model
  const after = await page.$eval(stepper, (b) => [b.dataset.at, b.querySelector('tr.live-now td').dataset.exact,
                                                  b.querySelector('.live-status').textContent]);
  check(after[0] === place[0] && after[2].includes('your model (seed 3)'),
        'the stepper keeps its place, step ' + (Number(place[0]) + 1) + ', when a run ends: step ' +
        (Number(after[0]) + 1) + ', ' + after[2]);
  // and the way back to the book's model
  const back = await page.$(box + ' button.live-book-model');
  check(back !== null, 'the train widget offers the book\'s model back');
  if (back) {
    await page.focus(box + ' button.live-book-model');
    await page.keyboard.press('Enter');
    const again = await page.$eval(stepper, (b) => [b.dataset.at, b.querySelector('tr.live-now td').dataset.exact,
                                                    b.querySelector('.live-status').textContent]);
    check(again[0] === place[0] && again[1] === place[1] && again[2].includes('the book\'s model'),
          'back to the book\'s model, the stepper shows the book\'s value again at the same step: ' + again[1] +
          ' (before the run ' + place[1] + ')');
  }
  // The button switches models, and a switch made during a run holds
  // when the run ends (issue 37: the run's end undid it): the reader's
  // model of seed 3 is taken again, a run of seed 4 started, and during
  // it the book's model chosen, from the keyboard.
  const owner = () => page.$eval(stepper + ' .live-status', (e) => e.textContent.split(': ')[0]);
  const button = () => page.$eval(box + ' button.live-book-model', (b) => (b.hidden ? '(hidden) ' : '') + b.textContent);
  await page.focus(box + ' button.live-book-model');
  await page.keyboard.press('Enter');
  const mine = await owner();
  await page.$eval(box + ' input.live-seed', (e) => { e.value = '4'; });
  await page.click(box + ' button.live-train');
  await page.waitForFunction((b) => /^seed 4, step [1-9]\d*:/.test(document.querySelector(b + ' .live-status').textContent),
                             { timeout: 30000 }, box);
  await page.focus(box + ' button.live-book-model');
  await page.keyboard.press('Enter');
  const during = await owner();
  await page.waitForFunction((b) => /^seed 4: /.test(document.querySelector(b + ' .live-status').textContent),
                             { timeout: 60000 }, box);
  const kept_model = await owner(), offered = await button();
  check(/your model \(seed 3\)/.test(mine) && /the book's model \(seed 1\)/.test(during) &&
        /the book's model \(seed 1\)/.test(kept_model) && /your model \(seed 4\)/.test(offered),
        'the book\'s model chosen during a run is kept when the run ends, and the button offers the new model ' +
        '(before the run: ' + mine + '; during it: ' + during + '; after it: ' + kept_model + '; the button: ' +
        offered + ')');
  await sleep(200);
  check(live_workers(page) === 0, 'after three runs no worker is left (' + live_workers(page) + ')');
}

// ------------------------------------------------------------------ what a screen reader gets
// Every chart is an image with a label that says what it shows; the
// neuron's colours are also numbers, in a table.
async function described(page) {
  // One name for each model (issue 37): after every widget has run, the
  // words of the widgets (their drawings and tables aside, which are the
  // book's) call a model "the book's model" only with its seed, and the
  // pair that changes most is not "the book's pick" when the model is
  // the reader's
  const words = await page.evaluate(() => {
    const out = [];
    for (const box of document.querySelectorAll('div.live')) {
      const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      let text = '';
      for (let n = walk.nextNode(); n; n = walk.nextNode())
        if (!n.parentElement.closest('svg, td')) text += n.textContent + ' ';
      for (const e of box.querySelectorAll('[aria-label]')) text += e.getAttribute('aria-label') + ' ';
      for (const m of text.matchAll(/book's (model|pick)(.{0,10})/g))
        if (m[1] === 'pick' || !/^ \(seed \d+\)/.test(m[2])) out.push(box.dataset.widget + ': ' + m[0]);
    }
    return out;
  });
  check(words.length === 0, 'the widgets name the book\'s model with its seed and have no "book\'s pick" (' +
        (words.slice(0, 6).join('; ') || 'none other') + ')');
  const svgs = await page.$$eval('div.live svg', (all) => all.map((s) => ({
    widget: s.closest('div.live').dataset.widget, role: s.getAttribute('role'),
    label: s.getAttribute('aria-label') || (s.querySelector('title') || {}).textContent || '' })));
  const bare = svgs.filter((s) => s.role !== 'img' || s.label.length < 20);
  check(svgs.length >= 9 && bare.length === 0, 'every one of the ' + svgs.length + ' charts of the widgets ' +
        'is an image with a label (' + bare.length + ' without, in ' + [...new Set(bare.map((s) => s.widget))].join(', ') + ')');
  const box = 'div.live[data-widget="neuron"]';
  const cells = await page.$$eval(box + ' table td', (all) => all.map((td) => td.textContent));
  const neuron = await page.$eval(box, (b) => b.dataset.neuron);
  const label = await page.$eval(box + ' svg', (s) => s.getAttribute('aria-label') || '');
  check(cells.length === 100 && cells.every((c) => /^-?\d+\.\d\d$/.test(c)) && label.includes('neuron ' + neuron),
        'the neuron\'s table is also given as its 100 numbers (' + cells.length + ' cells: ' + cells.slice(0, 3).join(' ') + ' ...)');
}

// ------------------------------------------------------------------ without WebAssembly
async function without_webassembly(page) {
  const bare = await page.browser().newPage();
  await bare.evaluateOnNewDocument(() => { delete globalThis.WebAssembly; });
  await bare.goto(page.url(), { waitUntil: 'load' });
  await sleep(500);
  const boxes = await bare.$$eval('div.live', (all) =>
    all.map((d) => [d.dataset.widget, d.getBoundingClientRect().height, d.textContent]));
  const said = boxes.filter(([, h, t]) => h > 0 && /WebAssembly/.test(t) && /figures/.test(t));
  // the widgets of the book: one div of class live each in attention.nw
  const placed = (fs.readFileSync('attention.nw', 'utf8').match(/^::: \{\.live widget="/gm) || []).length;
  check(boxes.length === placed && said.length === boxes.length,
        'without WebAssembly each of the ' + boxes.length + ' widgets says so in its place (' + said.length +
        ' do): ' + (boxes[0] ? boxes[0][2] : ''));
  await bare.close();
}

main().then(() => {
  process.exit(problems.length === 0 ? 0 : 1);
}, (error) => {
  console.log('FAILED ' + (error && error.stack || error));
  process.exit(1);
});
