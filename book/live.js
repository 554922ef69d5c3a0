// live.js: the plumbing of the live book.  It loads the module that make
// compiles from attention.nw (the core and web.c, appendix "The live
// book"), wires the widgets' inputs and buttons to it, and puts what the
// module returns on the page.  Every number shown comes out of the C code;
// nothing about attention is computed here.
(function () {
  'use strict';

  // ---------------------------------------------------------------- the module
  function decode(id) {
    const text = atob(document.getElementById(id).textContent.trim());
    return Uint8Array.from(text, (c) => c.charCodeAt(0));
  }

  // The module imports what wasi-libc links in (never called: the module
  // does no I/O) and the page's progress callback.
  function imports(module, progress) {
    const wasi = {};
    for (const need of WebAssembly.Module.imports(module))
      if (need.module === 'wasi_snapshot_preview1') wasi[need.name] = () => 52;  // ENOSYS
    return { wasi_snapshot_preview1: wasi, page: { progress: progress } };
  }

  // Text and bytes cross through the module's input and output buffers.
  function wrap(exports) {
    const memory = () => new Uint8Array(exports.memory.buffer);
    return {
      x: exports,
      put(data) {
        const b = typeof data === 'string' ? new TextEncoder().encode(data) : data;
        if (b.length > exports.input_size()) return -1;
        memory().set(b, exports.input());
        return b.length;
      },
      bytes() { return memory().slice(exports.output(), exports.output() + exports.output_length()); },
      text() { return new TextDecoder().decode(this.bytes()); },
    };
  }

  // The training worker: its own instance of the module, which trains and
  // posts each record's chart; started from a Blob, so that it works from file://.
  function worker() {
    onmessage = async (event) => {
      const { module, seed, steps } = event.data;
      let m = null;
      const progress = (step, loss, correct) =>
        postMessage({ step, loss, correct, chart: m.text(), at: performance.now() });
      const instance = await WebAssembly.instantiate(module, imports(module, progress));
      m = wrap(instance.exports);
      m.x._initialize();
      const start = performance.now();
      const status = m.x.train(seed, steps);
      const ms = performance.now() - start;
      const message = status !== 0 ? m.text() : '';
      const length = status === 0 ? m.x.save() : 0;
      postMessage({ done: true, status, message, ms, start, first: m.x.first_perfect(),
                    checkpoint: length > 0 ? m.bytes() : null });
    };
  }

  // ---------------------------------------------------------------- helpers
  function el(tag, attributes, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attributes || {}))
      if (k === 'class') e.className = v; else e.setAttribute(k, v);
    for (const c of children) e.append(c);
    return e;
  }
  const widgets = (name) => document.querySelectorAll('div.live[data-widget="' + name + '"]');

  // The book's small print: the size of its code's line numbers, three
  // quarters of the body's size.  No text of a chart is drawn smaller.
  const smallPrint = () => 0.75 * parseFloat(getComputedStyle(document.body).fontSize);

  // Put the module's drawing into a chart's box: each SVG is an image
  // with a label, and is never so narrow that its smallest text falls
  // under the small print (the box scrolls sideways instead).  Where the
  // module draws two panels apart (the swap, the scree plot), each is at
  // most its own size, side by side where both fit, else one under the
  // other.  Whether the box scrolls is measured, which lays out the whole
  // book, unless a run is drawing (the run measures once, at its end).
  function draw(chart, svgText, label, running) {
    chart.innerHTML = svgText;
    const minimum = smallPrint();
    for (const svg of chart.querySelectorAll('svg')) {
      svg.setAttribute('role', 'img');
      const titles = [...svg.querySelectorAll('text[font-weight="bold"]')].map((t) => t.textContent);
      svg.setAttribute('aria-label', label + (titles.length ? ' (' + titles.join('; ') + ')' : ''));
      const sizes = [...svg.querySelectorAll('text[font-size]')].map((t) => Number(t.getAttribute('font-size')));
      const box = svg.viewBox.baseVal;
      if (sizes.length && box && box.width > 0) {
        const width = box.width * minimum / Math.min(...sizes);
        svg.style.minWidth = width.toFixed(1) + 'px';
        svg.style.flexBasis = width.toFixed(1) + 'px';
        if (chart.querySelectorAll('svg').length > 1)
          svg.style.maxWidth = Math.max(width, box.width).toFixed(1) + 'px';
      }
    }
    if (!running) fitted(chart);
  }
  // a box that scrolls sideways can be scrolled from the keyboard
  function fitted(chart) {
    if (chart.scrollWidth > chart.clientWidth + 1) chart.setAttribute('tabindex', '0');
    else chart.removeAttribute('tabindex');
  }
  window.addEventListener('resize', () => document.querySelectorAll('div.live .live-chart').forEach(fitted));

  // A run's chart and status line come at every record, ten a second or
  // more.  Each change lays out the page again, and the book is long, so
  // both are put on the page at most every quarter second (and the last
  // ones when the run ends): the page's own thread then stays mostly idle
  // and leaves the processor to the training worker.  The box keeps the
  // time the page spent drawing (data-draw-ms, data-draws).
  function painter(chart, box, status) {
    let pending = null, last = -Infinity;
    const paint = () => {
      if (!pending) return;
      const t = performance.now();
      draw(chart, pending[0], pending[1], true);
      status.textContent = pending[2];
      pending = null;
      last = performance.now();
      box.dataset.drawMs = (Number(box.dataset.drawMs || 0) + last - t).toFixed(1);
      box.dataset.draws = String(Number(box.dataset.draws || 0) + 1);
    };
    return {
      start() { pending = null; last = -Infinity; box.dataset.drawMs = '0'; box.dataset.draws = '0'; },
      later(svg, label, line) {
        pending = [svg, label, line];
        if (performance.now() - last >= 250) paint();
      },
      end() { paint(); fitted(chart); },
    };
  }

  // A refusal of the reader's input stays beside the controls until the
  // reader's next action; it does not touch what is running.
  function refusal() {
    const r = el('div', { class: 'live-refusal live-error', role: 'alert' });
    r.clear = () => { r.textContent = ''; };
    return r;
  }
  // a token as the widgets name it: ';' is the sign that ends an answer
  const named = (c) => c === ';' ? "';' (the end of an answer)" : "'" + c + "'";

  let book = null;        // the module instance the widgets share
  let module = null;
  const model = { owner: 'the book\'s model (seed 1)', changed: [] };

  function useModel(bytes, owner) {
    const n = book.put(bytes);
    if (book.x.load(n) !== 0) throw new Error('the module refused a checkpoint: ' + book.text());
    model.owner = owner;
    for (const f of model.changed) f();
  }

  // The seed typed into a widget, checked by the same C as attention train
  // --seed; a bad one is refused, in the refusal beside the controls.
  function checkedSeed(input, refused) {
    const n = book.put(input.value);
    if (book.x.seed_check(n) !== 0) {
      refused.textContent = book.text();
      return null;
    }
    refused.clear();
    return BigInt.asUintN(64, book.x.seed());
  }

  // A seed field runs its widget on Enter, as its button does.
  function onEnter(input, button) {
    input.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); button.click(); } });
  }

  // The status of a run changes at every record; a screen reader hears
  // only its start, each quarter and its end, from a live region of its own.
  function announcer() {
    const a = el('span', { class: 'live-announce', role: 'status' });
    let said = -1;
    a.say = (text) => { a.textContent = text; };
    a.progress = (share, text) => {
      const quarter = Math.floor(share * 4);
      if (quarter > said) { said = quarter; a.textContent = text; }
    };
    a.reset = () => { said = 0; };
    return a;
  }

  // A worker of its own, which instantiates the module and runs body.
  function startWorker(body) {
    const source = [imports, wrap, '(' + body + ')()'].join('\n');
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    const started = new Worker(url);
    URL.revokeObjectURL(url);
    return started;
  }

  // ---------------------------------------------------------------- train it live
  function trainWidget(box) {
    const seed = el('input', { type: 'text', value: '1', size: '6', 'aria-label': 'seed',
                               inputmode: 'numeric', class: 'live-seed' });
    const go = el('button', { type: 'button', class: 'live-train' }, 'Train');
    const back = el('button', { type: 'button', class: 'live-book-model', hidden: '' },
                    'Back to the book\'s model');
    const refused = refusal();
    const status = el('span', { class: 'live-status' }, 'Not trained yet: the widgets use the book\'s model.');
    const said = announcer();
    const chart = el('div', { class: 'live-chart' });
    const paint = painter(chart, box, status);
    const save = el('a', { class: 'live-download', hidden: '' }, 'Download the checkpoint');
    box.append(el('div', { class: 'live-controls' }, el('label', {}, 'seed ', seed), go, save, back),
               refused, status, said, chart);
    let running = null;
    seed.addEventListener('input', refused.clear);
    onEnter(seed, go);
    back.addEventListener('click', () => {
      refused.clear();
      useModel(decode('live-model'), 'the book\'s model (seed 1)');
      back.hidden = true;
      status.textContent = 'The widgets use the book\'s model again.';
      said.say(status.textContent);
    });
    go.addEventListener('click', () => {
      const checked = checkedSeed(seed, refused);
      if (checked === null) return;
      if (running) running.terminate();
      const steps = 1000;
      running = startWorker(worker);
      save.hidden = true;
      status.classList.remove('live-error');
      said.reset();
      paint.start();
      said.say('Training seed ' + checked + ' in your browser.');
      let first = null;
      const run = running;
      run.onmessage = (event) => {
        const r = event.data;
        if (!r.done) {
          const line = 'seed ' + checked + ', step ' + r.step + ': batch loss ' +
            r.loss.toFixed(4) + ', score ' + r.correct + '/100';
          paint.later(r.chart, 'Training seed ' + checked + ', step ' + r.step + ' of ' + steps +
                      ': batch loss ' + r.loss.toFixed(4) + ', ' + r.correct + ' of 100 problems right', line);
          if (r.correct === 100 && first === null) first = r.at;
          said.progress(r.step / steps, line);
          return;
        }
        run.terminate();
        running = null;
        paint.end();
        if (r.status !== 0) {
          status.textContent = r.message;
          status.classList.add('live-error');
          said.say(r.message);
          return;
        }
        const perStep = r.ms / steps;
        status.textContent = 'seed ' + checked + ': first 100/100 at step ' + r.first + ' (' +
          (first === null ? '-' : ((first - r.start) / 1000).toFixed(2) + ' s') + '), ' + steps + ' steps in ' +
          (r.ms / 1000).toFixed(2) + ' s, ' + perStep.toFixed(2) + ' ms a step. ' +
          'The widgets below now use this model.';
        said.say(status.textContent);
        box.dataset.msPerStep = perStep.toFixed(3);
        box.dataset.firstPerfectSeconds = first === null ? '' : ((first - r.start) / 1000).toFixed(3);
        useModel(r.checkpoint, 'your model (seed ' + checked + ')');
        save.href = URL.createObjectURL(new Blob([r.checkpoint], { type: 'application/octet-stream' }));
        save.download = 'seed' + checked + '.ckpt';
        save.hidden = false;
        back.hidden = false;
      };
      run.postMessage({ module, seed: checked, steps });
    });
  }

  // ---------------------------------------------------------------- the single-stepper
  // The module runs the production loops on the reader's sequence and
  // returns one line for every STEP it passed: the line of attention.nw
  // above the STEP, what was computed there, head, t, u, i, the value
  // exactly (%.9g) and as attention trace prints it (%+.3f).
  function stepperWidget(box) {
    const text = el('input', { type: 'text', value: '7*8=', size: '8', 'aria-label': 'sequence', class: 'live-sequence' });
    const pos = el('select', { 'aria-label': 'emitting row', class: 'live-pos' });
    const buttons = {};
    for (const [key, label] of [['rowBack', '« row'], ['back', '‹ step'], ['next', 'step ›'], ['rowNext', 'row »']])
      buttons[key] = el('button', { type: 'button', class: 'live-' + key }, label);
    const where = el('div', { class: 'live-status', role: 'status' });
    // the code scrolls in its box, so the keyboard can reach it (Tab, then the arrows)
    const code = el('div', { class: 'live-code', tabindex: '0', role: 'region',
                             'aria-label': 'the code being stepped, its current line marked' });
    const vars = el('table', { class: 'live-vars' });
    box.append(el('div', { class: 'live-controls' }, el('label', {}, 'sequence ', text),
                  el('label', {}, 'emitting row t ', pos), ...Object.values(buttons)),
               where, el('div', { class: 'live-stepper' }, code, vars));
    let steps = [], at = 0, lines = new Map();

    // a new sequence is stepped at its last row, the one that emits the
    // next token
    function positions() {
      const chars = [...text.value], n = Math.max(1, Math.min(7, chars.length));
      pos.replaceChildren();
      for (let t = 0; t < n; t++)
        pos.append(el('option', { value: String(t) }, t + ' (' + named(chars[t] || '') + ')'));
      pos.value = String(n - 1);
    }

    // The woven chunks that hold the stepped lines, copied from the book.
    function showCode() {
      code.replaceChildren();
      lines = new Map();
      const blocks = [];
      for (const n of new Set(steps.map((s) => s.line))) {
        const line = document.querySelector('div.sourceCode span[id$="-' + n + '"]');
        const block = line && line.closest('div.sourceCode');
        if (block && !blocks.includes(block)) blocks.push(block);
      }
      for (const block of blocks) {
        const copy = block.cloneNode(true);
        // the copy is read, not followed: its links (the line numbers, the
        // names of chunks) keep their look but lead nowhere and take no focus
        for (const a of copy.querySelectorAll('a[href]')) a.removeAttribute('href');
        for (const e of copy.querySelectorAll('[tabindex]')) e.removeAttribute('tabindex');
        for (const span of copy.querySelectorAll('[id]')) {
          const n = span.id.split('-').pop();
          if (span.tagName === 'SPAN') { span.dataset.line = n; lines.set(Number(n), span); }
          span.removeAttribute('id');
        }
        code.append(copy);
      }
      // the function each step is in: the chunk that holds its line
      const chunks = [...code.children];
      for (const s of steps) {
        const span = lines.get(s.line);
        s.chunk = span ? chunks.indexOf(span.closest('div.sourceCode')) : -s.line;
      }
    }

    // keep: stay at the same step (the model changed, not the question)
    function run(keep) {
      const n = book.put(text.value);
      const status = book.x.step(n, Number(pos.value));
      const was = at;
      steps = [];
      at = 0;
      if (status !== 0) {
        where.textContent = book.text();
        where.classList.add('live-error');
        code.replaceChildren();
        vars.replaceChildren();
        return;
      }
      where.classList.remove('live-error');
      for (const row of book.text().split('\n')) {
        if (!row) continue;
        const [line, name, head, t, u, i, exact, shown] = row.split('\t');
        steps.push({ line: Number(line), name, head: Number(head), t: Number(t), u: Number(u),
                     i: Number(i), exact, shown });
      }
      showCode();
      if (keep === true) at = Math.min(was, steps.length - 1);
      show();
    }

    function show() {
      for (const span of code.querySelectorAll('.live-here')) span.classList.remove('live-here');
      for (const note of code.querySelectorAll('.live-note')) note.remove();
      if (steps.length === 0) return;
      const s = steps[at];
      const span = lines.get(s.line);
      if (span) {
        span.classList.add('live-here');
        span.append(el('span', { class: 'live-note' }, '  ' + s.name + ' = ' + s.shown));
        // where the line sits inside the scrolled frame (offsetTop would be
        // measured from pandoc's positioned line spans, not from the frame)
        const frame = span.closest('div.live-code');
        const top = span.getBoundingClientRect().top - frame.getBoundingClientRect().top + frame.scrollTop;
        if (top < frame.scrollTop || top > frame.scrollTop + frame.clientHeight - 30)
          frame.scrollTop = top - frame.clientHeight / 3;
      }
      where.textContent = 'step ' + (at + 1) + ' of ' + steps.length + ', ' + model.owner +
        ': head ' + s.head + ', line ' + s.line + ' of attention.nw';
      // the values defined at this line: the loop indices it has, and the
      // latest value of each variable of this call of this function,
      // for the u (and i) of this step where the variable is one of a row
      const latest = new Map([['head', String(s.head)], ['t', String(s.t)]]);
      if (s.u >= 0) latest.set('u', String(s.u));
      if (s.i >= 0) latest.set('i', String(s.i));
      let begin = at;
      while (begin > 0 && steps[begin - 1].chunk === s.chunk && steps[begin - 1].head === s.head) begin--;
      for (let k = begin; k <= at; k++) {
        const v = steps[k];
        if (v.name.endsWith('[u]') && v.u !== s.u) continue;
        if (v.name.endsWith('[i]') && v.i !== s.i) continue;
        latest.set(v.name, v);
      }
      vars.replaceChildren();
      for (const [name, v] of latest)
        vars.append(el('tr', { 'data-name': name, class: typeof v === 'object' && v === s ? 'live-now' : '' },
                       el('th', {}, name),
                       el('td', typeof v === 'object' ? { title: v.exact, 'data-exact': v.exact } : {},
                          typeof v === 'object' ? v.shown : v)));
      box.dataset.at = String(at);
    }

    function move(to) { at = Math.max(0, Math.min(steps.length - 1, to)); show(); }
    // a row of the loops: to the next (or previous) change of u
    function rowMove(direction) {
      let k = at;
      const u = steps[at] ? steps[at].u : 0, head = steps[at] ? steps[at].head : 0;
      while (k + direction >= 0 && k + direction < steps.length &&
             steps[k + direction].u === u && steps[k + direction].head === head) k += direction;
      move(k + direction);
    }
    buttons.next.addEventListener('click', () => move(at + 1));
    buttons.back.addEventListener('click', () => move(at - 1));
    buttons.rowNext.addEventListener('click', () => rowMove(1));
    buttons.rowBack.addEventListener('click', () => rowMove(-1));
    text.addEventListener('input', () => { positions(); run(); });
    pos.addEventListener('change', () => run());
    model.changed.push(() => run(true));
    positions();
    run();
  }

  // ---------------------------------------------------------------- one character at a time
  // The module traces the sequence typed so far and draws every head's
  // weights, the last row framed; it returns the token it would write next.
  function growWidget(box) {
    const text = el('input', { type: 'text', value: '7*8=56', size: '8', 'aria-label': 'sequence', class: 'live-sequence' });
    const less = el('button', { type: 'button', class: 'live-less' }, '‹ one less');
    const more = el('button', { type: 'button', class: 'live-more' }, 'one more ›');
    const where = el('div', { class: 'live-status', role: 'status' });
    const chart = el('div', { class: 'live-chart live-square' });
    box.append(el('div', { class: 'live-controls' }, el('label', {}, 'sequence ', text), less, more),
               where, chart);
    let n = 4;
    function run() {
      n = Math.max(1, Math.min(n, text.value.length));
      const shown = text.value.slice(0, n);
      const next = book.x.weights(book.put(shown));
      if (next < 0) {
        where.textContent = book.text();
        where.classList.add('live-error');
        chart.replaceChildren();
        return;
      }
      where.classList.remove('live-error');
      draw(chart, book.text(), 'The weights of every head on \'' + shown + '\', a square each, ' +
           'with its numbers: row t reads the rows u up to t; the last row is framed');
      where.textContent = "'" + shown + "' (" + n + ' of ' + text.value.length + ' characters), ' +
        model.owner + ': the last row chooses ' + named(String.fromCharCode(next));
      box.dataset.next = String.fromCharCode(next);
    }
    less.addEventListener('click', () => { n = Math.max(1, n - 1); run(); });
    more.addEventListener('click', () => { n += 1; run(); });
    text.addEventListener('input', () => { n = text.value.length; run(); });
    model.changed.push(run);
    run();
  }

  // ---------------------------------------------------------------- swap the multiplicands
  // The module draws the weights of the row of = for a*b= and b*a=, with
  // the chunk of the book's figure; its first line holds a, b, the measure
  // of the change, the head that follows a digit (-1: none), the pairs
  // visited and the book's pick with its measure.
  function swapWidget(box) {
    const text = el('input', { type: 'text', value: '7*8=', size: '6', 'aria-label': 'question', class: 'live-question' });
    const go = el('button', { type: 'button', class: 'live-swap' }, 'Swap');
    const pick = el('button', { type: 'button', class: 'live-pick' }, 'The book\'s pick');
    const where = el('div', { class: 'live-status', role: 'status' });
    const chart = el('div', { class: 'live-chart live-swap-chart' });
    box.append(el('div', { class: 'live-controls' }, el('label', {}, 'question ', text), go, pick),
               where, chart);
    let best = null;
    function run() {
      if (book.x.swap(book.put(text.value)) !== 0) {
        where.textContent = book.text();
        where.classList.add('live-error');
        chart.replaceChildren();
        return;
      }
      where.classList.remove('live-error');
      const out = book.text(), cut = out.indexOf('\n');
      const [a, b, change, head, visited, pa, pb, pchange] = out.slice(0, cut).split('\t');
      draw(chart, out.slice(cut + 1), 'The weights of the row of = of every head, with their numbers, for ' +
           a + '*' + b + '= and ' + b + '*' + a + '=');
      best = pa + '*' + pb + '=';
      where.textContent = a + '*' + b + '= against ' + b + '*' + a + '=, ' + model.owner +
        ': a share of ' + change + ' of the reading at the = moves to another position; ' +
        (head === '-1' ? 'no head has its largest weight on position 0 in one order and on 2 in the other. '
                       : 'head ' + head + ' has its largest weight on position 0 in one order and on 2 in the other: it follows a digit. ') +
        'Of the ' + visited + ' pairs, the one that changes most is ' + best + ' (' + pchange + ').';
      Object.assign(box.dataset, { change, head, pick: best, pickChange: pchange, visited });
    }
    go.addEventListener('click', run);
    text.addEventListener('keydown', (e) => { if (e.key === 'Enter') run(); });
    pick.addEventListener('click', () => { if (best) { text.value = best; run(); } });
    model.changed.push(run);
    run();
  }

  // ---------------------------------------------------------------- it reads its own output
  // The module appends the model's own first digit to the question and
  // traces row 4; its first line holds the five tokens, the second digit,
  // the head that weighs position 4 most and whether it weighs it more
  // than any other position; then one line of five weights per head.
  function ownWidget(box) {
    const text = el('input', { type: 'text', value: '7*8=', size: '6', 'aria-label': 'question', class: 'live-question' });
    const go = el('button', { type: 'button', class: 'live-own' }, 'Trace row 4');
    const where = el('div', { class: 'live-status', role: 'status' });
    const table = el('table', { class: 'live-weights' });
    box.append(el('div', { class: 'live-controls' }, el('label', {}, 'question ', text), go), where, table);
    function run() {
      table.replaceChildren();
      if (book.x.own_output(book.put(text.value)) !== 0) {
        where.textContent = book.text();
        where.classList.add('live-error');
        return;
      }
      where.classList.remove('live-error');
      const [first, ...rows] = book.text().trim().split('\n');
      const [tokens, next, top, most] = first.split('\t');
      table.append(el('tr', {}, el('th', {}, 'head'),
                      ...[...tokens].map((c, u) => el('th', {}, u + " '" + c + "'"))));
      rows.forEach((row, head) => table.append(el('tr', { class: String(head) === top ? 'live-now' : '' },
        el('th', {}, String(head)), ...row.split('\t').map((w, u) => el('td', u === 4 ? { class: 'live-own-cell' } : {}, w)))));
      where.textContent = model.owner + ' answers ' + tokens.slice(0, 4) + ' with ' + tokens[4] +
        '; with that digit appended, row 4 chooses ' + next + '. There head ' + top + ' puts ' +
        rows[Number(top)].split('\t')[4] + ' of its reading on position 4, the digit the model wrote itself' +
        (most === '1' ? ', more than on any other position.' : ', but more on an earlier position.');
      Object.assign(box.dataset, { tokens, next, top, most });
    }
    go.addEventListener('click', run);
    text.addEventListener('keydown', (e) => { if (e.key === 'Enter') run(); });
    model.changed.push(run);
    run();
  }

  // ---------------------------------------------------------------- looking for a neuron
  // The concepts' names come from the module; for the one picked, the
  // module searches the neurons of the current model and draws the best
  // one's table; its first line holds the number of problems with the
  // concept, the neuron, its separation and the problems one threshold
  // sorts right.
  function neuronWidget(box) {
    const n = book.x.concepts();
    const names = book.text().split('\n').slice(0, n);
    const concept = el('select', { 'aria-label': 'concept', class: 'live-concept' },
                       ...names.map((name, c) => el('option', { value: String(c) }, name)));
    const where = el('div', { class: 'live-status', role: 'status' });
    const chart = el('div', { class: 'live-chart live-neuron-chart' });
    const numbers = el('table', { class: 'live-weights live-neuron-numbers' });
    box.append(el('div', { class: 'live-controls' }, el('label', {}, 'concept ', concept)), where, chart,
               el('details', { class: 'live-numbers' }, el('summary', {}, 'The numbers of the table'), numbers));
    function run() {
      if (book.x.neuron(Number(concept.value)) !== 0) {
        where.textContent = book.text();
        where.classList.add('live-error');
        chart.replaceChildren();
        return;
      }
      where.classList.remove('live-error');
      // the first line: count, neuron, d, right; the second, the neuron's
      // activation on each problem a*b, a row of b for each a
      const out = book.text(), cut = out.indexOf('\n'), cut2 = out.indexOf('\n', cut + 1);
      const [count, neuron, d, right] = out.slice(0, cut).split('\t');
      const values = out.slice(cut + 1, cut2).split('\t');
      draw(chart, out.slice(cut2 + 1), 'The activation of neuron ' + neuron + ' at the = of each problem ' +
           'a*b, a row for each a, a column for each b, in colour; the numbers are in the table below');
      numbers.replaceChildren(
        el('caption', {}, 'Neuron ' + neuron + ' at the = of a*b'),
        el('tr', {}, el('th', {}, 'a \\ b'), ...values.slice(0, 10).map((v, b) => el('th', { scope: 'col' }, String(b)))),
        ...[...Array(10).keys()].map((a) => el('tr', {}, el('th', { scope: 'row' }, String(a)),
          ...values.slice(10 * a, 10 * a + 10).map((v) => el('td', {}, v)))));
      where.textContent = model.owner + ': of the 64 neurons at the =, neuron ' + neuron +
        ' separates the ' + count + ' problems where ' + names[Number(concept.value)] +
        ' from the others best, d = ' + d + '; one threshold on it sorts ' + right + ' of 100 right.';
      Object.assign(box.dataset, { count, neuron, d, right });
    }
    concept.addEventListener('change', run);
    model.changed.push(run);
    run();
  }

  // ---------------------------------------------------------------- principal directions
  function screeWidget(box) {
    const where = el('div', { class: 'live-status', role: 'status' });
    const chart = el('div', { class: 'live-chart' });
    box.append(where, chart);
    function run() {
      if (book.x.scree() !== 0) {
        where.textContent = book.text();
        where.classList.add('live-error');
        chart.replaceChildren();
        return;
      }
      where.classList.remove('live-error');
      const out = book.text(), cut = out.indexOf('\n');
      const [count, countIn, first] = out.slice(0, cut).split('\t');
      draw(chart, out.slice(cut + 1), 'The share of the variance along each principal direction, ' +
           'largest first, and the running total, for the 64 activations and the 32 inputs of the FFN: ' +
           count + ' and ' + countIn + ' directions hold 90 %');
      where.textContent = model.owner + ': ' + count + ' directions hold 90\u00a0% of the variance of the 64 activations, ' +
        countIn + ' that of the 32 inputs; the first direction holds ' + first + '\u00a0%.';
      Object.assign(box.dataset, { count, countIn, first });
    }
    model.changed.push(run);
    run();
  }

  // ---------------------------------------------------------------- run an experiment
  // The experiment's worker: its own instance of the module trains the
  // book's model and the reader's variant from one seed (web_experiment),
  // posting the chart at each record, and at the end the results and the
  // two training logs, as the module writes them.
  function experimentWorker() {
    onmessage = async (event) => {
      const { module, seed, heads, part } = event.data;
      let m = null;
      const progress = (step, loss, correct) =>
        postMessage({ run: m.x.experiment_run(), step, steps: 1000, loss, correct, chart: m.text(),
                      at: performance.now() });
      const instance = await WebAssembly.instantiate(module, imports(module, progress));
      m = wrap(instance.exports);
      m.x._initialize();
      const status = m.x.experiment(seed, heads, part);
      const message = status !== 0 ? m.text() : '';
      m.x.experiment_results();
      const results = m.text();
      const logs = [0, 1].map((k) => { m.x.experiment_log(k); return m.text(); });
      postMessage({ done: true, status, message, results, logs });
    };
  }

  // One widget for chapter 7 (which part is switched off) and one for
  // chapter 8 (how many heads); the rest is the same.  The parts, as the
  // concepts, come from the module (its table of parts), numbered from 1.
  function experimentWidget(box) {
    const heads = box.dataset.widget === 'heads';
    const parts = heads ? 0 : book.x.parts();
    const choices = heads
      ? [[1, 0, 'one head'], [2, 0, 'two heads'], [4, 0, 'four heads'], [8, 0, 'eight heads']]
      : book.text().split('\n').slice(0, parts).map((what, k) => [4, k + 1, `without ${what}`]);
    const which = el('select', { 'aria-label': heads ? 'heads' : 'part switched off',
                                 class: 'live-variant' });
    choices.forEach(([n, part, label], k) => which.append(el('option', { value: String(k) }, label)));
    const seed = el('input', { type: 'text', value: '1', size: '6', 'aria-label': 'seed',
                               inputmode: 'numeric', class: 'live-seed' });
    const go = el('button', { type: 'button', class: 'live-run' }, 'Train both');
    const refused = refusal();
    const status = el('span', { class: 'live-status' },
                      'Not run yet: the figures above are the book\'s.');
    const said = announcer();
    const chart = el('div', { class: 'live-chart' });
    const paint = painter(chart, box, status);
    const table = el('table', { class: 'live-results', hidden: '' });
    const logs = el('span', { class: 'live-logs', hidden: '' });
    box.append(el('div', { class: 'live-controls' }, el('label', {}, 'model ', which),
                  el('label', {}, 'seed ', seed), go),
               refused, status, said, chart, el('div', { class: 'live-table' }, table), logs);
    let running = null;
    seed.addEventListener('input', refused.clear);
    which.addEventListener('change', refused.clear);
    onEnter(seed, go);
    go.addEventListener('click', () => {
      const checked = checkedSeed(seed, refused);
      if (checked === null) return;
      const [n_heads, part, label] = choices[Number(which.value)];
      if (running) running.terminate();
      const run = running = startWorker(experimentWorker);
      table.hidden = true;
      logs.hidden = true;
      status.classList.remove('live-error');
      delete box.dataset.done;
      const names = ['the book\'s model', label];
      const times = [[], []];        // [time, step] of each record, per run
      said.reset();
      paint.start();
      said.say('Training the book\'s model and the model ' + label + ', seed ' + checked + ', in your browser.');
      run.onmessage = (event) => {
        const r = event.data;
        if (!r.done) {
          const line = 'seed ' + checked + ', ' + names[r.run] + ', step ' + r.step +
            ': batch loss ' + r.loss.toFixed(4) + ', score ' + r.correct + '/100';
          paint.later(r.chart, 'Loss and score against the step, seed ' + checked + ': ' + names[r.run] +
                      ' at step ' + r.step + ', ' + r.correct + ' of 100 problems right' +
                      (r.run ? '; the book\'s model, solid, and ' + label + ', dashed' : ''), line);
          times[r.run].push([r.at, r.step]);
          said.progress((r.run + r.step / r.steps) / 2, line);
          return;
        }
        run.terminate();
        running = null;
        paint.end();
        // milliseconds a step of each run, from its first record to its last
        const ms = times.map((t) => t.length < 2 ? NaN
          : (t[t.length - 1][0] - t[0][0]) / (t[t.length - 1][1] - t[0][1]));
        box.dataset.msPerStep = ms.map((x) => x.toFixed(3)).join(' ');
        box.dataset.done = r.status === 0 ? 'ok' : 'failed';
        if (r.status !== 0) {
          status.textContent = r.message;
          status.classList.add('live-error');
          said.say(r.message);
          return;
        }
        status.textContent = 'seed ' + checked + ': both models trained ' +
          'in your browser, ' + ms.map((x, k) => names[k] + ' ' + x.toFixed(2) + ' ms a step').join(', ') + '.';
        said.say(status.textContent);
        table.replaceChildren(el('caption', {}, 'seed ' + checked),
                              el('tr', {}, ...['model', 'first 100/100 at step', 'final score',
                                               'final loss'].map((h) => el('th', { scope: 'col' }, h))));
        r.results.split('\n').filter((row) => row).forEach((row) => {
          const [name, first, score, loss, exact] = row.split('\t');
          table.append(el('tr', { 'data-exact-loss': exact },
                          ...[name, first, score, loss].map((v) => el('td', {}, v))));
        });
        table.hidden = false;
        logs.replaceChildren('The final score is the last one of the log; the final loss is the loss on ' +
                             'all 100 problems after the last step, where the log has each step\'s loss on ' +
                             'its batch. Training logs: ');
        r.logs.forEach((text, k) => {
          const a = el('a', { class: 'live-log', download: 'seed' + checked + '-' +
                              (k ? label.replace(/ /g, '-') : 'book') + '.log' }, names[k]);
          a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
          logs.append(a, k ? '.' : ', ');
        });
        logs.hidden = false;
      };
      run.postMessage({ module, seed: checked, heads: n_heads, part });
    });
  }

  // ---------------------------------------------------------------- start
  // What each widget would let the reader do, said in its place when the
  // module cannot start (a browser without WebAssembly, or with it off).
  const missed = {
    train: 'train the model from a seed of your own, and watch its loss and score',
    stepper: 'step through the loops of attention, value by value, on a sequence of your own',
    grow: 'grow a sequence one character at a time and see every head\'s weights',
    swap: 'swap the two digits of a question of your own and see which head follows a digit',
    own: 'trace how the model reads the digit it wrote itself, on a question of your own',
    neuron: 'search the model\'s neurons for a concept of your choice',
    scree: 'see the principal directions of a model you trained',
    ablations: 'train the model without one of its parts, from a seed of your own',
    heads: 'train the model with another number of heads, from a seed of your own',
  };
  function without(error) {
    document.documentElement.dataset.live = 'failed';
    for (const box of document.querySelectorAll('div.live')) {
      box.replaceChildren(el('p', { class: 'live-missing' },
        'Here the live book would let you ' + (missed[box.dataset.widget] || 'try this yourself') +
        '. It needs WebAssembly, which this browser does not run or has switched off; ' +
        'the text and the figures around carry the argument without it.'));
    }
    console.warn('the live book could not start: ' + error);
  }

  async function start() {
    if (typeof WebAssembly !== 'object' || typeof DecompressionStream !== 'function')
      return without('no WebAssembly');
    // the module is embedded gzipped (a third of its size); the browser unzips it
    const unzipped = new Blob([decode('live-module')]).stream().pipeThrough(new DecompressionStream('gzip'));
    module = await WebAssembly.compile(await new Response(unzipped).arrayBuffer());
    const instance = await WebAssembly.instantiate(module, imports(module, () => {}));
    book = wrap(instance.exports);
    book.x._initialize();
    useModel(decode('live-model'), model.owner);
    widgets('train').forEach(trainWidget);
    widgets('stepper').forEach(stepperWidget);
    widgets('grow').forEach(growWidget);
    widgets('swap').forEach(swapWidget);
    widgets('own').forEach(ownWidget);
    widgets('neuron').forEach(neuronWidget);
    widgets('scree').forEach(screeWidget);
    widgets('ablations').forEach(experimentWidget);
    widgets('heads').forEach(experimentWidget);
    document.documentElement.dataset.live = 'ready';
  }
  start().catch(without);
})();
