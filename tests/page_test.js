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
// lines (they scroll in their frame) and no figure is shrunk below three
// quarters of its drawn width.  Screenshots of the maths sections go to
// SHOTS (math-NAME-WIDTH.png).  Prints what it found; exits non-zero on a
// failure.
'use strict';
const fs = require('fs');
const path = require('path');
const puppeteer = require('puppeteer-core');

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
    executablePath: '/usr/bin/chromium', headless: true,
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
    for (const width of [1280, 400]) {
      await page.setViewport({ width, height: 900 });
      await layout(page, width);
      for (const [name, id] of Object.entries(displays)) {
        const display = await page.evaluateHandle(first_display, id);
        const file = path.join(shots, 'math-' + name + '-' + width + '.png');
        if (display.asElement()) {
          await display.asElement().scrollIntoView();
          await display.asElement().screenshot({ path: file });
          console.log('       screenshot ' + file);
        } else check(false, 'the display after ' + id + ' is found');
      }
    }
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
      .filter((s) => /katex/i.test(s.src + s.textContent.slice(0, 2000))).length,
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
    const figures = [...document.querySelectorAll('figure img')].map((img) => {
      const min = parseFloat((img.getAttribute('style') || '').replace(/^min-width:\s*/, ''));
      return { min, shown: img.getBoundingClientRect().width, natural: img.naturalWidth };
    });
    return {
      wide: root.scrollWidth - root.clientWidth,
      toc_links: toc ? toc.querySelectorAll('a').length : 0,
      toc_sections: toc ? toc.querySelectorAll('ul ul a').length : 0,
      way_back: visible(toc) ? 'the contents' : visible(back) && back.getAttribute('href') === '#TOC' ?
        'a link to the contents' : '',
      wrapped: pre.filter((c) => getComputedStyle(c).whiteSpace !== 'pre').length,
      code_blocks: pre.length,
      scrolled: document.querySelectorAll('div.sourceCode').length,
      figures,
    };
  });
  check(l.wide <= 0, 'at ' + width + ' px the page is no wider than the window (' + l.wide + ' px too wide)');
  check(l.toc_sections > 0, 'the contents list the sections: ' + l.toc_links + ' entries, ' +
        l.toc_sections + ' of them sections');
  check(l.way_back !== '', 'at ' + width + ' px, deep in the page, the way back is in view: ' + (l.way_back || 'none'));
  const small = l.figures.filter((f) => !(f.min > 0) || f.shown < f.min - 0.5);
  check(l.figures.length > 0 && small.length === 0,
        'at ' + width + ' px no figure is narrower than three quarters of its drawn width (' +
        l.figures.length + ' figures, narrowest at ' +
        Math.min(...l.figures.map((f) => f.shown / f.natural)).toFixed(2) + ' of it)');
  if (width === 400)
    check(l.wrapped === 0, 'at 400 px no code block wraps its lines (' + l.wrapped + ' of ' +
          l.code_blocks + ' do)');
}

main().then(() => {
  process.exit(problems.length === 0 ? 0 : 1);
}, (error) => {
  console.log('FAILED ' + (error && error.stack || error));
  process.exit(1);
});
