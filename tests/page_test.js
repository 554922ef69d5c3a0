// page_test.js: the woven page as a reader sees it, in Debian's chromium,
// headless, driven by puppeteer-core, without JavaScript (the page must
// show everything without it):
//   node tests/page_test.js PAGE SHOTS
// At 1280 px and at 400 px: the page is no wider than the window; the
// maths was typeset at build time by book/katex.js, every formula of it,
// with no KaTeX error; the aligned display of the transformer's formulas
// has its = signs in one column and its words (Attention, LN, FFN) upright,
// each one word; KaTeX's fonts are embedded and load; there is a way back
// to the contents from deep in the page; at 400 px code blocks keep their
// lines (they scroll in their frame).
// The page as a designer would look at it (issue 23; weave.css):
//   the book face and the code face embedded and loaded; a measure of 60-75
//   characters a line at 1280 px; inline maths at the text's size (within
//   10 %); chunk references labelled with their chunk's number; no figure
//   label shown smaller than the page's small print (the "Used in" lines),
//   at 1280 and 400 px; every figure drawn for a phone too, and at 400 px
//   shown so, no figure scrolling sideways; whatever its frame cuts (a wide display, code
//   block, figure or table) scrolls, with a shadow at the edge (the cue);
//   no word or number broken across lines in a table cell, and numbers in
//   table cells flush right; every colour of text in code, line numbers,
//   chunk labels, captions and contents at 4.5:1 or more against its
//   background; the Contents
//   control clear of the text at 1280, 1000, 700 and 400 px; each chapter
//   and section a part; with JavaScript, the parts drawn only near the
//   window, each where it is in the page drawn whole, clipping nothing; with
//   JavaScript, the section being read marked in the side contents;
//   axe-core's WCAG 2.1 A and AA rules find no violation; and for a reader
//   who asks for a dark page (prefers-color-scheme), a dark ground whose
//   text is again at 4.5:1 or more, by our count and by axe-core's, and
//   figures drawn dark; with JavaScript at 400 px, the contents folded.
// Tables and references as a book has them (issue 36): every table
//   captioned "Table C.N." (C a chapter's number or an appendix's letter),
//   each number once, and at 1280 px no header cell in more than two lines;
//   the appendices lettered A, B, C ... in order, "Appendix A" in the
//   heading; a link that names a table, a chapter, an appendix or a section
//   ("Table 4.2", "Appendix D", "Section M.2") names the number its target
//   carries.
// Chunk links and identifiers (issue 36): a chunk link followed puts its
//   chunk below the window's top edge, marked; identifiers in code link to
//   a chunk that defines them.
// Screenshots of the maths sections, and of the page at 1280 and 400 px,
// go to SHOTS (math-NAME-WIDTH.png, page-WIDTH.png, page-dark-1280.png).  Prints what it
// found; exits non-zero on a failure.
'use strict';
const fs = require('fs');
const path = require('path');
const puppeteer = require('puppeteer-core');
const { shot } = require('./screenshot.js');

const [page_path, shots] = process.argv.slice(2);
const problems = [];
function check(ok, what) {
  if (!ok) problems.push(what);
  console.log((ok ? 'ok    ' : 'FAILED ') + what);
}

// the formulas shown: the aligned display of the transformer, and Adam's step
const displays = { 'fourteen-tables': '#fourteen-tables', adam: '#adam' };

// the first displayed formula after the element ID (in the page's own world)
function first_display(id) {
  const at = document.querySelector(id);
  return at && [...document.querySelectorAll('.katex-display')]
    .find((d) => at.compareDocumentPosition(d) & Node.DOCUMENT_POSITION_FOLLOWING);
}

async function main() {
  fs.mkdirSync(shots, { recursive: true });
  const browser = await puppeteer.launch({
    executablePath: '/usr/bin/chromium', headless: true, protocolTimeout: 900000,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync',
           '--user-data-dir=' + path.join(shots, 'profile')],
  });
  try {
    const page = await browser.newPage();
    await page.setJavaScriptEnabled(false);
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto('file://' + path.resolve(page_path), { waitUntil: 'load' });
    // page.evaluate runs in its own world, with the page's scripts off
    await maths(page);
    await fonts(page);
    await measure(page);
    await maths_size(page);
    await chunk_labels(page);
    await tables_and_references(page);
    await contrast(page);
    for (const width of [1280, 400]) {
      await page.setViewport({ width, height: 900 });
      await layout(page, width);
      await figures(page, width);
      await frames(page, width);
      await table_cells(page, width);
      await parts(page, width);
      for (const [name, id] of Object.entries(displays)) {
        const display = await page.evaluateHandle(first_display, id);
        const file = path.join(shots, 'math-' + name + '-' + width + '.png');
        if (display.asElement()) {
          await display.asElement().scrollIntoView();
          await shot(page, display.asElement(), file);
          console.log('       screenshot ' + file);
        } else check(false, 'the display after ' + id + ' is found');
      }
    }
    for (const width of [1280, 1000, 700, 400]) {
      await page.setViewport({ width, height: 900 });
      await contents_control(page, width);
      if (width === 1280 || width === 400) {
        const file = path.join(shots, 'page-' + width + '.png');
        await page.screenshot({ path: file });
        console.log('       screenshot ' + file);
      }
    }
    for (const width of [1280, 400]) {
      await page.setViewport({ width, height: 900 });
      await chunk_link_target(page, width);
    }
    // the dark page (prefers-color-scheme: dark)
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    await page.setViewport({ width: 1280, height: 900 });
    await dark(page);
    await contrast(page, 'dark');
    await page.evaluate(() => document.getElementById('adam').scrollIntoView());
    await page.screenshot({ path: path.join(shots, 'page-dark-1280.png') });
    console.log('       screenshot ' + path.join(shots, 'page-dark-1280.png'));
    await page.close();
    // with JavaScript: the section being read, and axe-core
    const live = await browser.newPage();
    await live.setViewport({ width: 1280, height: 900 });
    await live.goto('file://' + path.resolve(page_path), { waitUntil: 'load' });
    await current_section(live);
    await parted(live);
    await lazy_figures(browser, 'file://' + path.resolve(page_path));
    await accessibility(live);
    await live.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    await accessibility(live, 'on the dark page', ['color-contrast']);
    await live.emulateMediaFeatures([]);
    await live.setViewport({ width: 400, height: 900 });
    // book/page.html measures the parts again after a new width, and their
    // frames with them
    await new Promise((r) => setTimeout(r, 500));
    await live.waitForFunction(() => document.documentElement.classList.contains('measured'), { timeout: 60000 });
    await accessibility(live, 'at 400 px', ['scrollable-region-focusable']);
    await folded_contents(live);
  } finally {
    await browser.close();
  }
}

async function maths(page) {
  const m = await page.evaluate(() => ({
    spans: document.querySelectorAll('span.math').length,
    katex: document.querySelectorAll('span.katex').length,
    displays: document.querySelectorAll('span.katex-display').length,
    errors: document.querySelectorAll('.katex-error').length,
    scripts: [...document.querySelectorAll('script')].filter((s) => !s.type || /javascript/.test(s.type))
      .filter((s) => /katex(\.min)?\.js|katex\.render|renderMathInElement/i.test(s.src + s.textContent)).length,
  }));
  check(m.katex > 0 && m.spans === 0, m.katex + ' formulas typeset by KaTeX, ' + m.spans + ' left as TeX');
  check(m.errors === 0, 'no KaTeX error in the page (' + m.errors + ')');
  check(m.scripts === 0, 'the maths needs no script');
  const fonts = await page.evaluate(async () => {
    await document.fonts.ready;
    const faces = [...document.fonts].filter((f) => f.family.replace(/"/g, '').startsWith('KaTeX_'));
    return faces.map((f) => f.family.replace(/"/g, '') + ' ' + f.style + ' ' + f.status);
  });
  const broken = fonts.filter((f) => !/ (loaded|unloaded)$/.test(f));
  check(fonts.length > 0 && broken.length === 0,
        fonts.length + ' KaTeX font faces embedded, ' + fonts.filter((f) => / loaded$/.test(f)).length +
        ' used and loaded' + (broken.length ? ': ' + broken.join(', ') : ''));

  // the aligned display after #fourteen-tables: one column of = signs, and
  // each word of the formula one upright piece of text
  const a = await page.evaluate((find) => {
    const display = eval('(' + find + ')')('#fourteen-tables');
    if (!display) return null;
    const d = display.querySelector('.katex-html');
    const eq = [...d.querySelectorAll('.mrel')].filter((r) => r.textContent === '=')
      .map((r) => Math.round(r.getBoundingClientRect().left * 10) / 10);
    const words = {};
    for (const w of ['Attention', 'LN', 'FFN', 'out', 'token']) {
      const el = [...d.querySelectorAll('span')].find((s) => s.children.length === 0 && s.textContent === w);
      words[w] = el ? getComputedStyle(el).fontStyle : 'not one piece of text';
    }
    const upright = document.querySelector('.katex-html .mord.mathrm');
    return { eq, words, upright_font: upright && getComputedStyle(upright).fontFamily };
  }, first_display.toString());
  check(a !== null, 'the aligned display after #fourteen-tables is found');
  if (a === null) return;
  check(a.eq.length === 4 && a.eq.every((x) => Math.abs(x - a.eq[0]) < 0.5),
        'its ' + a.eq.length + ' = signs stand in one column: x = ' + a.eq.join(', '));
  for (const [w, style] of Object.entries(a.words))
    check(style === 'normal', w + ' is one upright word (' + style + ')');
  const adam = await page.evaluate((find) => {
    const display = eval('(' + find + ')')('#adam');
    return display ? display.querySelectorAll('.mfrac, .sqrt').length : 0;
  }, first_display.toString());
  check(adam >= 2, "Adam's step is typeset with its fraction and square root");
}

// the book face and the code face: embedded (a data: URL in an
// @font-face rule), loaded, and the first choice of the text and the code
const BOOK_FACE = 'TeX Gyre Pagella', CODE_FACE = 'DejaVu Sans Mono';
async function fonts(page) {
  const f = await page.evaluate(async (book, code) => {
    await document.fonts.ready;
    const unquote = (s) => s.replace(/["']/g, '').trim();
    const embedded = new Set();
    for (const sheet of document.styleSheets)
      for (const rule of sheet.cssRules)
        if (rule instanceof CSSFontFaceRule && /url\("?data:/.test(rule.style.getPropertyValue('src')))
          embedded.add(unquote(rule.style.getPropertyValue('font-family')));
    const faces = [...document.fonts].filter((x) => [book, code].includes(unquote(x.family)))
      .map((x) => unquote(x.family) + ' ' + x.weight + ' ' + x.style + ' ' + x.status);
    const first = (sel) => {
      const e = document.querySelector(sel);
      return e ? unquote(getComputedStyle(e).fontFamily.split(',')[0]) : 'none';
    };
    return { embedded: [...embedded], faces, text: first(':is(body, div.part) > p'), code: first('pre code') };
  }, BOOK_FACE, CODE_FACE);
  const loaded = (family, weight, style) => f.faces.includes(family + ' ' + weight + ' ' + style + ' loaded');
  check(f.embedded.includes(BOOK_FACE) && f.text === BOOK_FACE &&
        loaded(BOOK_FACE, '400', 'normal') && loaded(BOOK_FACE, '400', 'italic') && loaded(BOOK_FACE, '700', 'normal'),
        'the text is set in ' + BOOK_FACE + ', embedded, its upright, italic and bold loaded (text in ' +
        f.text + '; ' + (f.faces.filter((x) => x.startsWith(BOOK_FACE)).join(', ') || 'no such face') + ')');
  check(f.embedded.includes(CODE_FACE) && f.code === CODE_FACE && loaded(CODE_FACE, '400', 'normal'),
        'the code is set in ' + CODE_FACE + ', embedded and loaded (code in ' + f.code + '; ' +
        (f.faces.filter((x) => x.startsWith(CODE_FACE)).join(', ') || 'no such face embedded') + ')');
}

// the measure at 1280 px: characters a line in paragraphs of prose (no
// maths), the last line of each left out; the median over the lines
async function measure(page) {
  await page.setViewport({ width: 1280, height: 900 });
  const m = await page.evaluate(() => {
    const paras = [...document.querySelectorAll(':is(body, div.part) > p')]
      .filter((p) => !p.querySelector('.katex, img') && p.textContent.length > 400).slice(0, 40);
    const lines = [];
    for (const p of paras) {
      const tops = [];
      const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        for (let i = 0; i < n.data.length; i++) {
          range.setStart(n, i); range.setEnd(n, i + 1);
          const r = range.getClientRects()[0];
          if (r) tops.push(r.top);
        }
      }
      const per = [];
      let top = null;
      for (const t of tops) {
        if (top === null || Math.abs(t - top) > 4) { per.push(0); top = t; }
        per[per.length - 1]++;
      }
      lines.push(...per.slice(0, -1));
    }
    lines.sort((a, b) => a - b);
    return { paras: paras.length, lines: lines.length, median: lines[Math.floor(lines.length / 2)] };
  });
  check(m.lines > 20 && m.median >= 60 && m.median <= 75,
        'at 1280 px a line of text holds ' + m.median + ' characters (median of ' + m.lines +
        ' lines in ' + m.paras + ' paragraphs; a book sets 60-75)');
}

// inline maths at the size of the text around it
async function maths_size(page) {
  const r = await page.evaluate(() => {
    const ratios = [...document.querySelectorAll('.katex')].filter((k) => !k.closest('.katex-display'))
      .map((k) => parseFloat(getComputedStyle(k).fontSize) / parseFloat(getComputedStyle(k.parentElement).fontSize));
    return { n: ratios.length, lo: Math.min(...ratios), hi: Math.max(...ratios) };
  });
  check(r.n > 0 && r.lo >= 0.9 && r.hi <= 1.1,
        'inline maths at the size of the text: ' + r.n + ' formulas at ' + r.lo.toFixed(2) + '-' +
        r.hi.toFixed(2) + ' of it (within 10 %)');
}

// a reference to a chunk, in code or in prose, carries the number its
// heading shows ("⟨name 87⟩" for the chunk headed "87 ⟨name⟩≡", or the
// number alone where the name is the chunk's own: "Continued in chunk 87")
async function chunk_labels(page) {
  const c = await page.evaluate(() => {
    let refs = 0, wrong = [];
    for (const a of document.querySelectorAll('a.chunkref, .chunkuses a[href^="#chunk-"]')) {
      refs++;
      const head = document.getElementById(a.getAttribute('href').slice(1));
      const num = head && head.querySelector('.chunknum');
      const label = a.querySelector('.chunklabel') || (/^\d+$/.test(a.textContent.trim()) ? a : null);
      if (!num || !label || label.textContent.trim() !== num.textContent.trim())
        wrong.push(a.textContent.trim().slice(0, 60));
    }
    return { refs, wrong: wrong.length, example: wrong[0] };
  });
  check(c.refs > 0 && c.wrong === 0, 'chunk references carry the number of the chunk\'s heading: ' + c.refs +
        ' references' + (c.wrong ? ', ' + c.wrong + ' without it, such as ' + c.example : ''));
}

// A chunk link followed (issue 36): the chunk's head it leads to stands
// below the window's top edge, with at least a line of the page above it,
// and is marked (shaded: a background the head has when it is not the
// target); and an identifier in the code is a link to a chunk that
// defines it.
async function chunk_link_target(page, width) {
  const link = await page.evaluateHandle(() => {
    const links = [...document.querySelectorAll('pre.sourceCode a.chunkref')];
    return links[Math.floor(links.length / 3)];
  });
  const href = await page.evaluate((a) => a.getAttribute('href'), link);
  await link.asElement().click();
  await new Promise((r) => setTimeout(r, 300));
  const t = await page.evaluate((href) => {
    const head = document.querySelector(':target');
    if (!head) return null;
    const other = [...document.querySelectorAll('.chunkhead')].find((h) => h !== head);
    const r = head.getBoundingClientRect();
    return { id: '#' + head.id, top: r.top, line: parseFloat(getComputedStyle(document.body).lineHeight) || 24,
             bg: getComputedStyle(head).backgroundColor, plain: getComputedStyle(other).backgroundColor };
  }, href);
  check(t && t.id === href, 'at ' + width + ' px a chunk link in code leads to its chunk (' + href + ')');
  if (!t) return;
  check(t.top >= t.line && t.top < 450, 'at ' + width + ' px the chunk a link leads to stands ' +
        Math.round(t.top) + ' px below the window\'s top edge (at least a line, ' + Math.round(t.line) + ' px)');
  check(t.bg !== t.plain && !/rgba\(0, 0, 0, 0\)|transparent/.test(t.bg),
        'at ' + width + ' px the chunk a link leads to is marked (' + t.bg + ', others ' + t.plain + ')');
  const ids = await page.evaluate(() => {
    const a = [...document.querySelectorAll('pre.sourceCode code a[href^="#chunk-"]:not(.chunkref)')];
    const wrong = a.filter((x) => {
      const head = document.getElementById(x.getAttribute('href').slice(1));
      const chunk = head && head.closest('div.nwchunk');
      const uses = chunk && chunk.querySelector('.chunkuses');
      return !uses || ![...uses.querySelectorAll('a[href^="#ident-"]')].some((d) => d.textContent === x.textContent);
    });
    return { n: a.length, wrong: wrong.length };
  });
  if (width === 1280)
    check(ids.n > 1000 && ids.wrong === 0, ids.n + ' identifiers in code link to a chunk that defines them' +
          (ids.wrong ? ', ' + ids.wrong + ' to one that does not' : ''));
}

async function tables_and_references(page) {
  const r = await page.evaluate(() => {
    const lines = (el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].filter((x) => x.width > 0)
                     .map((x) => Math.round(x.bottom / 4))).size;
    };
    const tables = [...document.querySelectorAll('table:not([class])')];
    const numbers = {}, bad = [], tall = [];
    for (const t of tables) {
      const c = t.querySelector(':scope > caption');
      const m = c && c.textContent.match(/^Table ([0-9A-Z]+\.[0-9]+)\. \S/);
      if (!m) { bad.push('a table without a caption "Table C.N. ..." (' + (t.id || t.textContent.slice(0, 40)) + ')'); continue; }
      if (numbers[m[1]]) bad.push('Table ' + m[1] + ' twice');
      numbers[m[1]] = t.id || '?';
      for (const th of t.querySelectorAll('th'))
        if (th.textContent.trim() && lines(th) > 2) tall.push(th.textContent.trim() + ' (' + lines(th) + ' lines)');
    }
    const letters = [...document.querySelectorAll('h1.appendix')].map((h) => h.getAttribute('data-number'));
    const shown = [...document.querySelectorAll('h1.appendix')].map((h) => {
      const n = h.querySelector('.header-section-number');      // "Appendix " is weave.css's
      return n ? getComputedStyle(n, '::before').content.replace(/^"|"$/g, '') + n.textContent : h.textContent;
    });
    letters.forEach((x, k) => {
      if (x !== String.fromCharCode(65 + k)) bad.push('appendix ' + (k + 1) + ' lettered ' + x);
      if (shown[k] !== 'Appendix ' + x) bad.push('appendix ' + x + "'s heading reads " + shown[k]);
    });
    let refs = 0;
    for (const a of document.querySelectorAll('a[href^="#"]')) {
      const m = a.textContent.match(/^(Table|Chapter|Appendix|Section)\s([0-9A-Z]+(?:\.[0-9]+)*)$/);
      if (!m) continue;
      refs++;
      const target = document.getElementById(decodeURIComponent(a.getAttribute('href').slice(1)));
      let number = null;
      if (target && m[1] === 'Table') {
        const c = target.querySelector(':scope > caption');
        number = c && (c.textContent.match(/^Table ([0-9A-Z.]+)\./) || [])[1];
      } else if (target) {
        if (m[1] === 'Appendix' && !target.matches('h1.appendix')) number = null;
        else number = target.getAttribute('data-number');
      }
      if (number !== m[2]) bad.push('"' + a.textContent + '" links to ' + a.getAttribute('href') + ', numbered ' + number);
    }
    return { tables: tables.length, numbered: Object.keys(numbers).length, bad, tall, letters, refs };
  });
  check(r.tables > 0 && r.numbered === r.tables && r.bad.length === 0,
        r.tables + ' tables, ' + r.numbered + ' captioned with their numbers; appendices lettered ' +
        (r.letters[0] || '?') + ' to ' + (r.letters[r.letters.length - 1] || '?') + '; ' + r.refs +
        ' links that name a table, chapter, appendix or section, each its target\'s number' +
        (r.bad.length ? '; wrong: ' + r.bad.slice(0, 6).join('; ') : ''));
  check(r.tall.length === 0, 'at 1280 px no table header cell in more than two lines' +
        (r.tall.length ? ' (' + r.tall.length + ': ' + r.tall.slice(0, 6).join('; ') + ')' : ''));
}

// contrast (WCAG 2.1): the computed colour of each kind of text against
// the first background behind it that is not transparent
async function contrast(page, scheme) {
  const c = await page.evaluate(() => {
    const rgb = (s) => (s.match(/[\d.]+/g) || []).map(Number);
    const lum = ([r, g, b]) => {
      const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const background = (e) => {
      for (; e; e = e.parentElement) {
        const b = rgb(getComputedStyle(e).backgroundColor);
        if (b.length === 3 || (b.length === 4 && b[3] > 0)) return b.slice(0, 3);
      }
      return [255, 255, 255];
    };
    const ratio = (fg, bg) => {
      const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      return (a + 0.05) / (b + 0.05);
    };
    const kinds = {};
    const note = (kind, e, pseudo) => {
      const r = ratio(rgb(getComputedStyle(e, pseudo).color), background(e));
      if (!(kind in kinds) || r < kinds[kind]) kinds[kind] = r;
    };
    for (const e of document.querySelectorAll('pre code span[class]'))
      if (e.textContent.trim()) note('code .' + e.className, e);
    for (const e of [...document.querySelectorAll('pre.numberSource code > span > a:first-child')].slice(0, 500))
      note('line numbers', e, '::before');
    const kinds_of = { '.chunknum': 'chunk numbers', '.chunklabel': 'chunk labels', '.chunkuses': 'Used in lines',
                       'figcaption': 'captions', 'nav#TOC a': 'contents', ':is(body, div.part) > p': 'text', 'a': 'links' };
    for (const [sel, kind] of Object.entries(kinds_of))
      for (const e of [...document.querySelectorAll(sel)].slice(0, 300)) note(kind, e);
    return kinds;
  });
  const low = Object.entries(c).filter(([, r]) => r < 4.5);
  check(Object.keys(c).length > 0 && low.length === 0,
        (scheme ? 'on the ' + scheme + ' page, ' : '') +
        Object.keys(c).length + ' kinds of text at 4.5:1 or more against their background' +
        (low.length ? ': ' + low.map(([k, r]) => k + ' ' + r.toFixed(2) + ':1').join(', ') :
         ' (lowest ' + Math.min(...Object.values(c)).toFixed(2) + ':1)'));
}

async function layout(page, width) {
  const l = await page.evaluate(() => {
    const root = document.documentElement;
    const toc = document.getElementById('TOC'), back = document.querySelector('a.to-contents');
    const deep = document.getElementById('adam');
    deep.scrollIntoView();
    const visible = (e) => {
      if (!e) return false;
      const r = e.getBoundingClientRect();
      return getComputedStyle(e).display !== 'none' && r.width > 0 && r.bottom > 0 && r.top < innerHeight &&
        r.left >= 0 && r.right <= root.clientWidth;
    };
    const pre = [...document.querySelectorAll('pre.sourceCode > code')];
    return {
      wide: root.scrollWidth - root.clientWidth,
      toc_links: toc ? toc.querySelectorAll('a').length : 0,
      toc_sections: toc ? toc.querySelectorAll('ul ul a').length : 0,
      way_back: visible(toc) ? 'the contents' : visible(back) && back.getAttribute('href') === '#TOC' ?
        'a link to the contents' : '',
      wrapped: pre.filter((c) => getComputedStyle(c).whiteSpace !== 'pre').length,
      code_blocks: pre.length,
    };
  });
  check(l.wide <= 0, 'at ' + width + ' px the page is no wider than the window (' + l.wide + ' px too wide)');
  check(l.toc_sections > 0, 'the contents list the sections: ' + l.toc_links + ' entries, ' +
        l.toc_sections + ' of them sections');
  check(l.way_back !== '', 'at ' + width + ' px, deep in the page, the way back is in view: ' + (l.way_back || 'none'));
  if (width === 400)
    check(l.wrapped === 0, 'at 400 px no code block wraps its lines (' + l.wrapped + ' of ' +
          l.code_blocks + ' do)');
}

// figures: each label shown at least at the page's small print (the size
// of the "Used in" lines), the SVG's smallest font-size scaled as shown
// (the drawing the browser chose, where a figure has a phone's too); at
// 400 px every figure is one the program drew for a phone, and none is
// wider than its frame (issue 36: no figure scrolls sideways)
async function figures(page, width) {
  await images_read(page);
  const f = await page.evaluate(() => {
    const small = parseFloat(getComputedStyle(document.querySelector('.chunkuses')).fontSize);
    const frames = [...document.querySelectorAll('figure')];
    const scrolling = frames.filter((fig) => fig.scrollWidth > fig.clientWidth + 1)
      .map((fig) => (fig.querySelector('img') || {}).id || '?');
    const pictures = frames.filter((fig) => fig.querySelector('picture > source[media]')).length;
    const narrow = frames.filter((fig) => {
      const img = fig.querySelector('picture img'), source = fig.querySelector('picture > source');
      return img && source && img.currentSrc === source.getAttribute('srcset');
    }).length;
    const figs = [...document.querySelectorAll('figure img')].map((img) => {
      const src = img.currentSrc || img.getAttribute('src') || '';
      const svg = src.startsWith('data:image/svg+xml;base64,') ?
        new TextDecoder().decode(Uint8Array.from(atob(src.slice(26)), (c) => c.charCodeAt(0))) : '';
      const sizes = [...svg.matchAll(/font-size[=:]\s*"?([\d.]+)/g)].map((m) => parseFloat(m[1]));
      const scale = img.getBoundingClientRect().width / img.naturalWidth;
      return { text: sizes.length ? Math.min(...sizes) * scale : NaN, scale,
               name: (img.closest('figure').id || img.getAttribute('alt') || '?').slice(0, 30) +
                 ' (' + img.getBoundingClientRect().width + '/' + img.naturalWidth + ')' };
    });
    return { small, figs, frames: frames.length, scrolling, pictures, narrow };
  });
  const shown = f.figs.map((x) => x.text);
  const low = shown.filter((t) => !(t >= f.small - 0.05));
  check(f.figs.length > 0 && low.length === 0,
        'at ' + width + ' px every figure label is at least the small print (' + f.small.toFixed(1) +
        ' px): ' + f.figs.length + ' figures, smallest label ' + Math.min(...shown).toFixed(1) + ' px' +
        (low.length ? ', ' + low.length + ' below: ' + f.figs.filter((x) => !(x.text >= f.small - 0.05))
          .map((x) => x.name).join(', ') : ''));
  check(f.pictures === f.frames, 'every figure has a phone\'s drawing too: ' + f.pictures + ' of ' +
        f.frames + ' figures');
  if (width === 400)
    check(f.frames > 0 && f.narrow === f.frames && f.scrolling.length === 0,
          'at 400 px every figure shows its phone\'s drawing (' + f.narrow + ' of ' + f.frames +
          ') and none scrolls sideways' + (f.scrolling.length ? ': ' + f.scrolling.join(', ') + ' do' : ''));
  else
    check(f.narrow === 0, 'at ' + width + ' px every figure shows the book\'s drawing (' + f.narrow +
          ' show the phone\'s)');
}

// frames: an element whose content is wider than its box (a display,
// code block, figure or table) scrolls, and shows that it does: a shadow
// at its edges, drawn by gradients that stay put over a background that
// scrolls with the content (weave.css)
async function frames(page, width) {
  const f = await page.evaluate(() => {
    const cut = [];
    for (const e of document.querySelectorAll('body *')) {
      if (e.closest('nav#TOC, .katex-mathml')) continue;
      const s = getComputedStyle(e);
      if (s.overflowX === 'visible' || e.scrollWidth <= e.clientWidth + 1 || e.clientWidth === 0) continue;
      const scrolls = s.overflowX === 'auto' || s.overflowX === 'scroll';
      const cue = (s.backgroundImage.match(/gradient\(/g) || []).length >= 2 &&
        /local/.test(s.backgroundAttachment) && /scroll/.test(s.backgroundAttachment);
      cut.push({ kind: e.classList.contains('katex-display') ? 'display' : e.tagName.toLowerCase() +
                 (e.className ? '.' + String(e.className).split(' ')[0] : ''), ok: scrolls && cue });
    }
    return cut;
  });
  const bad = f.filter((x) => !x.ok);
  const kinds = (list) => Object.entries(list.reduce((a, x) => ((a[x.kind] = (a[x.kind] || 0) + 1), a), {}))
    .map(([k, n]) => n + ' ' + k).join(', ');
  check(bad.length === 0,
        'at ' + width + ' px every frame that cuts its content scrolls with a cue at its edge: ' + f.length +
        ' cut' + (f.length ? ' (' + kinds(f) + ')' : '') + (bad.length ? '; ' + bad.length + ' without a cue (' + kinds(bad) + ')' : ''));
}

// with JavaScript (book/parted.html) every part is drawn only near the
// window from the start (content-visibility: auto, weave.css), but for a
// part that holds a live widget, and its chapter, always drawn;
// page.html draws each part once after the page has loaded and then
// marks the page measured: each part keeps its true height, so that
// every heading is where the page drawn whole puts it and nothing moves;
// a new width measures the parts again
async function parted(page) {
  const state = () => page.evaluate(() => {
    // a part that holds a live widget, and its chapter, are always drawn
    const live = (p) => p.querySelector(':scope > div.live, :scope > div.part > div.live') !== null;
    const parts = [...document.querySelectorAll('div.part')];
    const wrong = parts.filter((p) => getComputedStyle(p).contentVisibility !== (live(p) ? 'visible' : 'auto'));
    return { measured: document.documentElement.classList.contains('measured'), wrong: wrong.length,
             live: parts.filter(live).length, parts: parts.length };
  });
  // (where each heading is, unrounded: a part kept at its remembered
  // height may differ from its drawn height by a fraction of a pixel, which
  // moves nothing on the screen; a move is a pixel or more)
  const tops = () => page.evaluate(() => [...document.querySelectorAll('h1[id], h2[id]')].map((h) =>
    [h.id, h.getBoundingClientRect().top + scrollY]));
  const near = (a, b) => Math.abs(a - b) < 1;
  const same = (x, y) => x.length === y.length && x.every((t, i) => near(t[1], y[i][1]));
  // the live widgets built first (a busy machine delays the module): a
  // widget that takes its final form between the two measures below
  // moves the headings after it (seen once, 1 of 159, with four test
  // processes on two cores)
  // (a page without the live module, as make check tests it, has no
  // data-live: live.js sets it first thing)
  await page.waitForFunction(() => ['ready', 'failed', undefined].includes(document.documentElement.dataset.live),
                             { timeout: 120000 }).catch(() => {});
  await page.waitForFunction(() => document.documentElement.classList.contains('measured'), { timeout: 60000 }).catch(() => {});
  await page.evaluate(() => document.fonts.ready.then(() => true));
  const a = await state();
  check(a.measured && a.parts > 0 && a.wrong === 0,
        'with JavaScript the page is marked measured and its ' + a.parts + ' parts are drawn only near the window, but for ' +
        a.live + ' that hold a live widget or its section (' + a.wrong + ' are not)');
  // the measured page as it settles: its headings where they were half a
  // second before (a busy machine draws late; up to 10 s)
  let before = await tops();
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const again = await tops();
    if (same(again, before)) break;
    before = again;
  }
  const whole_style = await page.addStyleTag({ content: 'div.part { content-visibility: visible !important; }' });
  const whole = await tops();
  await whole_style.evaluate((e) => e.remove());
  const moved = whole.filter((t, i) => !before[i] || !near(t[1], before[i][1]));
  const apart = Math.max(0, ...whole.map((t, i) => before[i] ? Math.abs(t[1] - before[i][1]) : 0));
  check(whole.length > 0 && moved.length === 0, 'the measured page puts each of its ' + whole.length +
        ' headings where the page drawn whole does (' + moved.length + ' moved by a pixel or more; ' +
        'the most apart ' + apart.toFixed(3) + ' px' +
        moved.slice(0, 3).map((t) => '; #' + t[0] + ' at ' + t[1] + ' px drawn whole, ' +
          (before.find((b) => b[0] === t[0]) || [0, '?'])[1] + ' px measured').join('') + ')');
  await page.setViewport({ width: 700, height: 900 });
  await page.waitForFunction(() => !document.documentElement.classList.contains('measured'), { timeout: 5000 }).catch(() => {});
  await page.waitForFunction(() => document.documentElement.classList.contains('measured'), { timeout: 60000 }).catch(() => {});
  const b = await state();
  check(b.measured, 'after the window narrows the parts are measured again and the page marked measured again');
  await page.setViewport({ width: 1280, height: 900 });
}

// parts: every chapter and section is a div.part, which the browser draws
// only near the window where scripting is on (content-visibility: auto,
// weave.css); a part then clips what it holds,
// so each block in one, with 3 px for its focus ring, lies within it from
// side to side
async function parts(page, width) {
  const p = await page.evaluate(() => {
    const heads = [...document.querySelectorAll('h1, h2')].filter((h) => !h.closest('header, nav'));
    const outside = heads.filter((h) => {
      const part = h.parentElement;
      return !part.matches('div.part') || part.firstElementChild !== h;
    });
    const cut = [];
    for (const e of document.querySelectorAll('div.part figure, div.part table, div.part div.sourceCode, ' +
                                              'div.part .katex-display, div.part div.live')) {
      const r = e.getBoundingClientRect(), q = e.closest('div.part').getBoundingClientRect();
      if (r.width > 0 && (r.left - 3 < q.left || r.right + 3 > q.right))
        cut.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' ' + Math.round(r.left) + '-' +
                 Math.round(r.right) + ' in ' + Math.round(q.left) + '-' + Math.round(q.right));
    }
    return { heads: heads.length, outside: outside.map((h) => h.id), cut };
  });
  check(p.heads > 0 && p.outside.length === 0,
        'at ' + width + ' px each of the ' + p.heads + ' chapters and sections starts a part' +
        (p.outside.length ? ' (not: ' + p.outside.slice(0, 5).join(', ') + ')' : ''));
  check(p.cut.length === 0, 'at ' + width + ' px no block reaches out of its part, which would clip it' +
        (p.cut.length ? ' (' + p.cut.length + ': ' + p.cut.slice(0, 3).join('; ') + ')' : ''));
}

// table cells: no word or number broken across two lines (a break after
// the hyphen of a compound word, "Multi-|head", is a break between words)
async function table_cells(page, width) {
  const t = await page.evaluate(() => {
    const broken = [];
    let tokens = 0;
    const range = document.createRange();
    for (const cell of document.querySelectorAll('td, th')) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (n.parentElement.closest('.katex')) continue;
        for (const m of n.data.matchAll(/[^\s-]+-?|-/g)) {   // a line may end after a word's hyphen
          tokens++;
          range.setStart(n, m.index); range.setEnd(n, m.index + m[0].length);
          const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top / 3)));
          if (tops.size > 1) broken.push(m[0]);
        }
      }
    }
    // a number (not code, such as the token 5) is set flush right
    const number = /^[-+\u2212]?(\d[\d,]*\.?\d*|\.\d+)([eE][-+\u2212]?\d+)?[%x\u00d7]?$/;
    const cells = [...document.querySelectorAll('td')].filter((c) => number.test(c.textContent.trim()) && !c.querySelector('code'));
    const left = cells.filter((c) => !['right', 'end'].includes(getComputedStyle(c).textAlign)).map((c) => c.textContent.trim());
    return { tokens, broken, numbers: cells.length, left };
  });
  if (width === 1280)
    check(t.numbers > 0 && t.left.length === 0, 'every number in a table cell is set flush right (' + t.numbers +
          ' numbers' + (t.left.length ? '; not: ' + t.left.slice(0, 8).join(' ') : '') + ')');
  check(t.tokens > 0 && t.broken.length === 0,
        'at ' + width + ' px no word or number is broken in a table cell (' + t.tokens + ' tokens' +
        (t.broken.length ? '; broken: ' + t.broken.slice(0, 8).join(' ') : '') + ')');
}

// the Contents control, deep in the page: the side contents left of every
// block of text, or a bar along the foot of the window (as wide as it,
// opaque), which the end of the page clears; a control over the text fails
// the blocks of text the Contents control must not cover
const text_blocks = ':is(body, div.part) > :is(p, h1, h2, h3), li, div.sourceCode, figure, table, .katex-display, div.nwchunk > p';

async function contents_control(page, width) {
  const c = await page.evaluate((blocks) => {
    const text = () => [...document.querySelectorAll(blocks)].filter((e) => !e.closest('nav#TOC, a.to-contents'))
      .map((e) => e.getBoundingClientRect()).filter((r) => r.bottom > 0 && r.top < innerHeight && r.width > 0);
    const shown = (e) => e && getComputedStyle(e).display !== 'none' && getComputedStyle(e).position === 'fixed' &&
      e.getBoundingClientRect().width > 0;
    const toc = document.getElementById('TOC'), back = document.querySelector('a.to-contents');
    document.getElementById('adam').scrollIntoView();
    window.scrollBy(0, 200);
    const control = shown(toc) ? toc : shown(back) ? back : null;
    if (!control) return { what: 'none' };
    const r = control.getBoundingClientRect();
    const over = text().filter((t) => t.left < r.right && t.right > r.left && t.top < r.bottom && t.bottom > r.top);
    const s = getComputedStyle(control);
    const opaque = /^rgb\(/.test(s.backgroundColor) && parseFloat(s.opacity) === 1;
    const bar = r.left <= 0 && r.right >= document.documentElement.clientWidth && r.bottom >= innerHeight - 1 && opaque;
    return { what: control === toc ? 'the side contents' : bar ? 'a bar at the foot' : 'a button',
             over: over.length, bar };
  }, text_blocks);
  // the end of the page: the parts near it are drawn, and the page's height
  // settles, a frame or two after a reader gets there
  if (c.bar) {
    for (let tries = 0, height = -1; tries < 10; tries++) {
      const now = await page.evaluate(() => {
        window.scrollTo(0, document.documentElement.scrollHeight);
        return document.documentElement.scrollHeight;
      });
      if (now === height) break;
      height = now;
      await new Promise((r) => setTimeout(r, 100));
    }
    c.cleared = await page.evaluate((blocks) => {
      const last = [...document.querySelectorAll(blocks)].filter((e) => !e.closest('nav#TOC, a.to-contents'))
        .map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0).reduce((m, r) => Math.max(m, r.bottom), 0);
      return last <= document.querySelector('a.to-contents').getBoundingClientRect().top + 0.5;
    }, text_blocks);
  }
  check(c.what !== 'none' && (c.over === 0 || (c.bar && c.cleared)),
        'at ' + width + ' px the Contents control is clear of the text: ' + c.what +
        (c.what === 'none' ? '' : c.bar ? (c.cleared ? ', which the end of the page clears' : ', over the end of the page') :
         ' over ' + c.over + ' blocks of text'));
}

// with JavaScript: the section being read is marked in the side contents
// (bold), and the mark follows the reader
async function current_section(page) {
  const marked = async (id) => page.evaluate(async (id) => {
    const head = document.getElementById(id);
    head.scrollIntoView();
    window.scrollBy(0, 150);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    await new Promise((r) => setTimeout(r, 100));
    const a = document.querySelector('nav#TOC a[aria-current]');
    const toc = document.getElementById('TOC').getBoundingClientRect();
    if (!a) return { href: 'nothing' };
    const r = a.getBoundingClientRect();
    const other = document.querySelector('nav#TOC a:not([aria-current])');
    return { href: a.getAttribute('href'), bold: parseInt(getComputedStyle(a).fontWeight) >
             parseInt(getComputedStyle(other).fontWeight), in_view: r.top >= toc.top && r.bottom <= toc.bottom };
  }, id);
  for (const id of ['adam', 'fourteen-tables']) {
    const m = await marked(id);
    check(m.href === '#' + id && m.bold && m.in_view,
          'with JavaScript, in section #' + id + ' the side contents mark ' + m.href +
          (m.href === 'nothing' ? '' : (m.bold ? ', in bold' : ', not set apart') + (m.in_view ? ', in view' : ', out of view')));
  }
}

// with JavaScript, where the contents stand above the text (400 px), each
// entry's sections are folded under a button, which the keyboard opens;
// at the side (1280 px) every entry shows and no button does
async function folded_contents(page) {
  const seen = () => page.evaluate(() => {
    const shown = (e) => e.getClientRects().length > 0;
    const toc = document.getElementById('TOC');
    return { entries: toc.querySelectorAll('a').length, shown: [...toc.querySelectorAll('a')].filter(shown).length,
             buttons: [...toc.querySelectorAll('button.toc-fold')].filter(shown).length,
             screens: toc.getBoundingClientRect().height / window.innerHeight };
  });
  await page.setViewport({ width: 400, height: 900 });
  await new Promise((r) => setTimeout(r, 300));
  const folded = await seen();
  check(folded.buttons > 0 && folded.shown <= 50 && folded.screens < 1.5,
        'at 400 px the contents show ' + folded.shown + ' of their ' + folded.entries + ' entries, ' +
        folded.screens.toFixed(1) + ' screens tall, each entry\'s sections folded under a button (' + folded.buttons + ')');
  const fold = await page.$('nav#TOC > ul > li > a[href="#perceptron"] ~ button.toc-fold');
  const name = fold ? await page.evaluate((b) => b.getAttribute('aria-label'), fold) : '';
  if (fold) { await fold.focus(); await page.keyboard.press('Enter'); }
  const opened = await page.evaluate(() => {
    const b = document.querySelector('nav#TOC > ul > li > a[href="#perceptron"] ~ button.toc-fold');
    const ul = b && document.getElementById(b.getAttribute('aria-controls'));
    return { expanded: b && b.getAttribute('aria-expanded'), shown: ul ? ul.getClientRects().length > 0 : false };
  });
  check(fold !== null && opened.expanded === 'true' && opened.shown && /sections of 1 The welded wiring/.test(name),
        'Enter on the button "' + name + '" shows chapter 1\'s sections');
  await page.setViewport({ width: 1280, height: 900 });
  await new Promise((r) => setTimeout(r, 300));
  const side = await seen();
  check(side.buttons === 0 && side.shown === side.entries,
        'at 1280 px the side contents show all ' + side.entries + ' entries and no button (' + side.shown + ', ' + side.buttons + ')');
}

// a reader whose system asks for a dark page gets one: light ink on a
// dark ground, and figures drawn dark
async function dark(page) {
  const d = await page.evaluate(() => {
    const lum = (s) => {
      const [r, g, b] = (s.match(/[\d.]+/g) || []).map(Number);
      const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    return { ground: lum(getComputedStyle(document.documentElement).backgroundColor),
             ink: lum(getComputedStyle(document.body).color),
             frame: Math.max(...[...document.querySelectorAll('figure')].map((f) => lum(getComputedStyle(f).backgroundColor))) };
  });
  // each figure's own paper, as drawn: the pixel 3 px inside its image's
  // top left corner (the figures turn dark by their own style sheet)
  const papers = [];
  await images_read(page);
  for (const img of await page.$$('figure img')) {
    await img.evaluate((e) => e.scrollIntoView({ block: 'start' }));   // its top corner in view
    const box = await img.boundingBox();
    papers.push(await pixel_luminance(page, box.x + 3, box.y + 3));
  }
  const paper = Math.max(...papers);
  check(d.ground < 0.05 && d.ink > 0.5 && d.frame < 0.05 && papers.length > 0 && paper < 0.05,
        'with prefers-color-scheme: dark, the ground is dark (luminance ' + d.ground.toFixed(2) + '), the ink light (' +
        d.ink.toFixed(2) + '), every figure dark: its frame (' + d.frame.toFixed(2) + ') and the paper of its image as drawn (' +
        papers.length + ' figures, the lightest ' + paper.toFixed(3) + ')');
}

// with JavaScript, the figures' images are read only as they near the
// window (loading="lazy", book.lua; a browser reads them all when
// scripting is off), each in a box already as large as its drawing will
// be: at each width, on a page opened afresh, each figure's box is taken
// before and after all are read, and none may change
async function lazy_figures(browser, url) {
  for (const width of [1280, 400]) {
    const fresh = await browser.newPage();
    await fresh.setViewport({ width, height: 900 });
    await fresh.goto(url, { waitUntil: 'load' });
    const boxes = () => fresh.evaluate(() => [...document.querySelectorAll('figure img')].map((img) => {
      const r = img.getBoundingClientRect();
      return [r.width, r.height];
    }));
    const unread = await fresh.evaluate(() => [...document.querySelectorAll('figure img')]
      .filter((img) => img.loading === 'lazy' && !img.complete).length);
    const before = await boxes();
    await images_read(fresh);
    const after = await boxes();
    const changed = after.filter((b, k) => Math.abs(b[0] - before[k][0]) > 0.5 || Math.abs(b[1] - before[k][1]) > 0.5);
    check(unread > 0 && after.length === before.length && changed.length === 0,
          'at ' + width + ' px ' + unread + ' of ' + after.length + ' figures are not read when the page has loaded, ' +
          'and no figure\'s box changes when they are (' + changed.length + ' do)');
    await fresh.close();
  }
}

// every figure's image read and decoded, near the window or not
async function images_read(page) {
  await page.evaluate(() => Promise.all([...document.querySelectorAll('figure img')].map((img) => {
    img.loading = 'eager';
    return img.decode().catch(() => null);
  })));
}

// The luminance of one pixel of the window (x, y from the window's top
// left), from a PNG screenshot of it: the first pixel of a PNG's first
// row is its raw bytes, whatever the row's filter (each filter adds what
// lies above or to the left: nothing).  A clip is given in the page's
// coordinates; captureBeyondViewport off, Chromium draws the window only
// (on, it draws the whole page for every shot).
async function pixel_luminance(page, x, y) {
  const at = await page.evaluate(() => ({ x: window.scrollX, y: window.scrollY }));
  const png = await page.screenshot({ clip: { x: x + at.x, y: y + at.y, width: 1, height: 1 },
                                      captureBeyondViewport: false });
  let chunk = 8;
  const data = [];
  while (chunk < png.length) {
    const length = png.readUInt32BE(chunk), type = png.toString('ascii', chunk + 4, chunk + 8);
    if (type === 'IDAT') data.push(png.subarray(chunk + 8, chunk + 8 + length));
    chunk += 12 + length;
  }
  const row = require('zlib').inflateSync(Buffer.concat(data));
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(row[1]) + 0.7152 * f(row[2]) + 0.0722 * f(row[3]);
}

// axe-core, WCAG 2.1 A and AA, over the whole page at 1280 px; then, as
// the page changes, the rules that look at what changed: on the dark page
// the contrast rule, at 400 px the rule that a frame that scrolls can be
// reached by the keyboard
async function accessibility(page, where, rules) {
  if (!where) await page.evaluate(fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const r = await page.evaluate(async (rules) => {
    const out = await window.axe.run(document, {
      runOnly: rules ? { type: 'rule', values: rules } :
        { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return { version: window.axe.version,
             violations: out.violations.map((v) => ({ id: v.id, n: v.nodes.length,
               where: v.nodes.slice(0, 3).map((x) => x.target.join(' ')) })) };
  }, rules || null);
  for (const v of r.violations) console.log('       axe: ' + v.id + ' on ' + v.n + ' elements, e.g. ' + v.where.join('; '));
  check(r.violations.length === 0,
        'axe-core ' + r.version + (rules ? ' (' + rules.join(', ') + ', ' + where + ')' : ' (WCAG 2.1 A and AA)') +
        ' finds no violation: ' + r.violations.length + ' rules broken on ' +
        r.violations.reduce((a, v) => a + v.n, 0) + ' elements');
}

main().then(() => {
  process.exit(problems.length === 0 ? 0 : 1);
}, (error) => {
  console.log('FAILED ' + (error && error.stack || error));
  process.exit(1);
});
