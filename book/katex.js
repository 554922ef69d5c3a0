// katex.js -- the woven page's maths, typeset once, when the book is built:
//   node book/katex.js IN.html OUT.html
// book.lua leaves each formula of the HTML page as its TeX, in
// <span class="math inline"> or <span class="math display">; this script
// replaces each by KaTeX's rendering (Debian's libjs-katex), HTML to look
// at and MathML for screen readers, and puts KaTeX's style sheet in the
// page's head, with the fonts it uses embedded (base64 WOFF2; Debian's
// fonts-katex).  The page shows its maths without JavaScript and stays one
// file that works from file://.  A formula KaTeX cannot typeset, or warns
// about, stops the build, naming it.
'use strict';
const fs = require('fs');
const path = require('path');

const KATEX = '/usr/share/javascript/katex';
const katex = require(path.join(KATEX, 'katex.js'));

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: node book/katex.js IN.html OUT.html');
  process.exit(2);
}
const page = fs.readFileSync(input, 'utf8');

const entities = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&#39;': "'" };
const unescape = (s) => s.replace(/&(lt|gt|amp|quot|#39);/g, (e) => entities[e]);

let formulas = 0;
const body = page.replace(/<span class="math (inline|display)">([^<]*)<\/span>/g, (all, kind, tex) => {
  formulas++;
  tex = unescape(tex);
  try {
    return katex.renderToString(tex, { displayMode: kind === 'display', throwOnError: true,
                                       strict: 'error', output: 'htmlAndMathml' });
  } catch (e) {
    console.error(input + ': KaTeX cannot typeset $' + tex + '$: ' + e.message);
    process.exit(1);
  }
});
if (/<span class="math (inline|display)">/.test(body)) {
  console.error(input + ': a formula holds markup; book.lua should have left TeX only');
  process.exit(1);
}

// The style sheet, with only the font faces that the page's formulas use:
// a rule applies when every class its selector names occurs in the page.
// KaTeX_Main upright is the faces' default (class katex sets it).
const used = new Set();
for (const m of body.matchAll(/class="([^"]*)"/g)) for (const c of m[1].split(/\s+/)) used.add(c);
let css = fs.readFileSync(path.join(KATEX, 'katex.min.css'), 'utf8');
const normal_weight = (w) => ({ 400: 'normal', 700: 'bold' })[w] || w;
const faces = new Set(['KaTeX_Main/normal/normal']);
for (const m of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
  const [selectors, decls] = [m[1], m[2]];
  if (selectors.includes('@font-face') || !/font-(family|weight|style)/.test(decls)) continue;
  const applies = selectors.split(',').some((s) =>
    [...s.matchAll(/\.([\w-]+)/g)].every((c) => used.has(c[1])));
  if (!applies) continue;
  const get = (prop, dflt) => ((decls.match(new RegExp(prop + ':\\s*([^;]+)')) || [])[1] || dflt).trim();
  const weight = normal_weight(get('font-weight', 'normal'));
  const style = get('font-style', 'normal');
  for (const family of get('font-family', 'KaTeX_Main').split(',')) {
    if (/^KaTeX_/.test(family.trim())) faces.add(family.trim() + '/' + weight + '/' + style);
  }
}
let embedded = 0;
css = css.replace(/@font-face\{([^{}]*)\}/g, (all, decls) => {
  const get = (prop) => decls.match(new RegExp(prop + ':\\s*([^;}]+)'))[1].trim().replace(/['"]/g, '');
  const weight = normal_weight(get('font-weight'));
  const face = get('font-family') + '/' + weight + '/' + get('font-style');
  if (!faces.has(face)) return '';
  const woff2 = decls.match(/url\((fonts\/[^)]+\.woff2)\)/)[1];
  const data = fs.readFileSync(path.join(KATEX, woff2)).toString('base64');
  embedded++;
  return '@font-face{' + decls.replace(/src:[^;]+/, 'src:url(data:font/woff2;base64,' + data + ') format("woff2")') + '}';
});
if (/url\(fonts\//.test(css)) {
  console.error('book/katex.js: KaTeX\'s style sheet names a font file that was not embedded');
  process.exit(1);
}
if (!body.includes('</head>')) {
  console.error(input + ': no </head>');
  process.exit(1);
}
const out = body.replace('</head>', () => '<style>\n' + css + '\n</style>\n</head>');
fs.writeFileSync(output + '.tmp', out);
fs.renameSync(output + '.tmp', output);
console.log(input + ': ' + formulas + ' formulas typeset by KaTeX ' + katex.version + ', ' +
            embedded + ' font faces embedded');
