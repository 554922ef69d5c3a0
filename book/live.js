// live.js: the plumbing of the live book.  It loads the module that make
// compiles from attention.nw (the core and web.c, appendix "The live
// book"), wires the widgets' inputs and buttons to it, and puts what the
// module returns on the page.  Every number shown comes out of the C code;
// nothing about attention is computed here.
(function () {
  'use strict';
  // the widgets' boxes show from now on, at their size (live.css)
  document.documentElement.dataset.live = 'starting';

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
  // call(name, ...args) calls an export, a text or bytes argument put into
  // the input buffer and passed as its length, and reads its answer:
  // fields 'name=value', one a line, a name ending in [] one item of a
  // list, then an empty line and the drawing (appendix "The live book").
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
      call(name, ...args) {
        const status = exports[name](...args.map((a) =>
          typeof a === 'number' || typeof a === 'bigint' ? a : this.put(a)));
        return this.answer(status);
      },
      answer(status = 0) {
        const text = this.text(), fields = {};
        let at = 0;
        while (at < text.length && text[at] !== '\n') {
          const end = text.indexOf('\n', at) < 0 ? text.length : text.indexOf('\n', at);
          const line = text.slice(at, end), is = line.indexOf('=');
          const name = line.slice(0, is), value = line.slice(is + 1);
          if (name.endsWith('[]')) (fields[name.slice(0, -2)] = fields[name.slice(0, -2)] || []).push(value);
          else fields[name] = value;
          at = end + 1;
        }
        return { ok: status === 0, error: fields.error || '', fields, svg: text.slice(at + 1) };
      },
    };
  }

  // The training worker: its own instance of the module, which trains and
  // posts each record's chart; started from a Blob, so that it works from file://.
  function worker() {
    onmessage = async (event) => {
      const { module, seed, steps } = event.data;
      let m = null;
      const progress = (step, loss, correct) =>
        postMessage({ step, loss, correct, chart: m.answer().svg, at: performance.now() });
      const instance = await WebAssembly.instantiate(module, imports(module, progress));
      m = wrap(instance.exports);
      m.x._initialize();
      const start = performance.now();
      const trained = m.call('train', seed, steps);
      const ms = performance.now() - start;
      const length = trained.ok ? m.x.save() : 0;
      postMessage({ done: true, ok: trained.ok, message: trained.error, ms, start,
                    first: trained.fields.first_perfect, checkpoint: length > 0 ? m.bytes() : null });
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
  // It is read once (reading a style makes the browser compute the
  // styles of the page, which the widgets being built have just changed).
  let small = 0;
  const smallPrint = () => small || (small = 0.75 * parseFloat(getComputedStyle(document.body).fontSize));

  // Put the module's drawing into a chart's box: each SVG is an image
  // with a label, and is never so narrow that its smallest text falls
  // under the small print (the box scrolls sideways instead).  Where the
  // module draws panels apart (the swap, the scree plot), each is at
  // most its own size, side by side where they fit, else one under the
  // other.  Whether the box scrolls is measured, which lays out the whole
  // book, unless a run is drawing (the run measures once, at its end).
  // A drawing's ids (a plot's clip, the hatch, a colour bar's gradient)
  // are its own, but the page has one space of ids: each drawing put on
  // the page gets a prefix no other has, or a chart would clip its curves
  // to another chart's plot.
  let drawings = 0;
  const ownIds = (svgText) => svgText.split(/(?=<svg[\s>])/).map((part) => {
    const prefix = 'drawing' + (++drawings) + '-';
    return part.replace(/(\s)id="/g, '$1id="' + prefix).replace(/url\(#/g, 'url(#' + prefix);
  }).join('');

  // A drawing's style sheet, which darkens it as an image on a dark page
  // (svg.c's DARK_PAGE, rules for svg:root), is left out: in the page it
  // would match nothing, as the page is the root, and each one put in or
  // taken out would make the browser check every rule against the book.
  const unstyled = (svgText) => svgText.replace(/<style>[^<]*<\/style>\n?/g, '');

  function draw(chart, svgText, label, running) {
    chart.innerHTML = ownIds(unstyled(svgText));
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
  // a box that scrolls sideways can be scrolled from the keyboard, and
  // is named where the focus stops on it.  Each measure lays out the book
  // again if anything changed since the last, so the charts drawn while
  // the widgets are first built wait in unmeasured and are measured
  // together when all are built (start), and fit reads every box before
  // it changes any.
  let unmeasured = [];
  function fitted(chart) {
    if (unmeasured) unmeasured.push(chart);
    else fit([chart]);
  }
  function fit(charts) {
    const scrolls = charts.map((chart) => chart.scrollWidth > chart.clientWidth + 1);
    charts.forEach((chart, k) => {
      if (scrolls[k]) {
        chart.setAttribute('tabindex', '0');
        chart.setAttribute('role', 'region');
        chart.setAttribute('aria-label', 'the chart, which scrolls sideways');
      } else {
        for (const a of ['tabindex', 'role', 'aria-label']) chart.removeAttribute(a);
      }
    });
  }
  window.addEventListener('resize', () => {
    small = 0;
    fit([...document.querySelectorAll('div.live .live-chart')]);
  });

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
  // the model's numbers and menus, as the module gives them (web_about)
  let about = null;
  const model = { owner: '', changed: [] };
  const bookOwner = () => 'the book\'s model (seed ' + about.seed + ')';

  function useModel(bytes, owner) {
    const loaded = book.call('load', bytes);
    if (!loaded.ok) throw new Error('the module refused a checkpoint: ' + loaded.error);
    model.owner = owner;
    const was = quiet;
    quiet = true;
    try { for (const f of model.changed) f(); } finally { quiet = was; }
  }

  // The seed typed into a widget, checked by the same C as attention train
  // --seed; a bad one is refused, in the refusal beside the controls.
  function checkedSeed(input, refused) {
    const checked = book.call('seed_check', input.value);
    if (!checked.ok) {
      refused.textContent = checked.error;
      return null;
    }
    refused.clear();
    return BigInt(checked.fields.seed);
  }

  // A seed field runs its widget on Enter, as its button does.
  function onEnter(input, button) {
    input.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); button.click(); } });
  }

  // What a screen reader hears comes from a live region of each widget's
  // own, which speaks for the reader's actions in that widget only: while
  // the page starts and while the widgets follow a new model (useModel),
  // it is quiet, and the widget whose run made the model says so once.
  // The status of a run changes at every record; a screen reader hears
  // only its start, each quarter and its end.
  let quiet = true;
  function announcer() {
    const a = el('span', { class: 'live-announce', role: 'status' });
    let said = -1;
    a.say = (text) => { if (!quiet) a.textContent = text; };
    a.progress = (share, text) => {
      const quarter = Math.floor(share * 4);
      if (quarter > said) { said = quarter; a.textContent = text; }
    };
    a.reset = () => { said = 0; };
    return a;
  }
  // A widget's status line, shown, and said by its announcer: tell(text,
  // error) puts the text in the line (red for an error) and says it.
  function statusLine() {
    const where = el('div', { class: 'live-status' }), said = announcer();
    where.said = said;
    where.tell = (text, error) => {
      where.textContent = text;
      where.classList.toggle('live-error', !!error);
      said.say(text);
    };
    return where;
  }

  // The numbers a drawing's colours stand for, for a reader who does not
  // see them: tables under a summary, in a box that scrolls sideways
  // where the screen is too narrow for them, which the keyboard reaches.
  // numbers.show(tables) puts tables in it: each [caption, head, rows],
  // head the columns' names, each row [its name, ...cells]; or the box
  // holds from the start what it is given after its label.
  function numbersBox(summary, label, ...inside) {
    const frame = el('div', { class: 'live-numbers-frame', tabindex: '0', role: 'region', 'aria-label': label },
                     ...inside);
    const box = el('details', { class: 'live-numbers' }, el('summary', {}, summary), frame);
    box.show = (tables) => frame.replaceChildren(...tables.map(([caption, head, rows]) =>
      el('table', { class: 'live-weights' }, el('caption', {}, caption),
         el('tr', {}, ...head.map((h) => el('th', { scope: 'col' }, h))),
         ...rows.map(([name, ...cells]) => el('tr', {}, el('th', { scope: 'row' }, name),
                                              ...cells.map((c) => el('td', {}, c)))))));
    return box;
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
    const seed = el('input', { type: 'text', value: about.seed, size: '6', 'aria-label': 'seed',
                               inputmode: 'numeric', class: 'live-seed' });
    const go = el('button', { type: 'button', class: 'live-train' }, 'Train');
    // one button switches between the book's model and the reader's last
    // one, named for the model it switches to; it stays where it is, so
    // the focus stays on it
    const back = el('button', { type: 'button', class: 'live-book-model', hidden: '' });
    const refused = refusal();
    const status = el('span', { class: 'live-status' },
                      'Not trained yet: the widgets use ' + bookOwner() + '.');
    const said = announcer();
    const chart = el('div', { class: 'live-chart' });
    const paint = painter(chart, box, status);
    const save = el('a', { class: 'live-download', hidden: '' }, 'Download the checkpoint');
    box.append(el('div', { class: 'live-controls' }, el('label', {}, 'seed ', seed), go, save, back),
               refused, status, said, chart);
    let running = null;
    let yours = null;             // the reader's last model: { bytes, owner }
    let chosen = false;           // the reader switched models during this run
    const offer = () => {
      back.hidden = yours === null;
      if (yours) back.textContent = model.owner === yours.owner ? 'Back to ' + bookOwner() : 'Use ' + yours.owner;
    };
    seed.addEventListener('input', refused.clear);
    onEnter(seed, go);
    back.addEventListener('click', () => {
      refused.clear();
      const toBook = model.owner === yours.owner;
      useModel(toBook ? decode('live-model') : yours.bytes, toBook ? bookOwner() : yours.owner);
      if (running) chosen = true;
      offer();
      const line = 'The widgets use ' + model.owner + (toBook ? ' again.' : '.') +
        (running ? ' They keep it when the run ends.' : '');
      if (!running) status.textContent = line;
      said.say(line);
    });
    go.addEventListener('click', () => {
      const checked = checkedSeed(seed, refused);
      if (checked === null) return;
      if (running) running.terminate();
      const steps = about.steps;
      running = startWorker(worker);
      save.hidden = true;
      chosen = false;
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
            r.loss.toFixed(4) + ', score ' + r.correct + '/' + about.problems;
          paint.later(r.chart, 'Training seed ' + checked + ', step ' + r.step + ' of ' + steps +
                      ': batch loss ' + r.loss.toFixed(4) + ', ' + r.correct + ' of ' + about.problems +
                      ' problems right', line);
          if (r.correct === about.problems && first === null) first = r.at;
          said.progress(r.step / steps, line);
          return;
        }
        run.terminate();
        running = null;
        paint.end();
        if (!r.ok) {
          status.textContent = r.message;
          status.classList.add('live-error');
          said.say(r.message);
          return;
        }
        const perStep = r.ms / steps;
        status.textContent = 'seed ' + checked + ': first ' + about.problems + '/' + about.problems +
          ' at step ' + r.first + ' (' +
          (first === null ? '-' : ((first - r.start) / 1000).toFixed(2) + ' s') + '), ' + steps + ' steps in ' +
          (r.ms / 1000).toFixed(2) + ' s, ' + perStep.toFixed(2) + ' ms a step. ' +
          (chosen ? 'The widgets keep ' + model.owner + ', as you chose during the run.'
                  : 'The widgets below now use this model.');
        said.say(status.textContent);
        box.dataset.msPerStep = perStep.toFixed(3);
        box.dataset.firstPerfectSeconds = first === null ? '' : ((first - r.start) / 1000).toFixed(3);
        yours = { bytes: r.checkpoint, owner: 'your model (seed ' + checked + ')' };
        if (!chosen) useModel(yours.bytes, yours.owner);
        save.href = URL.createObjectURL(new Blob([r.checkpoint], { type: 'application/octet-stream' }));
        save.download = 'seed' + checked + '.ckpt';
        save.hidden = false;
        offer();
      };
      run.postMessage({ module, seed: checked, steps });
    });
  }

  // ---------------------------------------------------------------- the single-stepper
  // The module runs the production loops on the reader's sequence and
  // returns, for every STEP it passed, one item of each list: the line of
  // attention.nw above the STEP, what was computed there (name), head, t,
  // u, i, the value exactly (%.9g) and as attention trace prints it (%+.3f).
  function stepperWidget(box) {
    const text = el('input', { type: 'text', value: '7*8=', size: '8', 'aria-label': 'sequence', class: 'live-sequence' });
    const pos = el('select', { class: 'live-pos' });      // named by its label
    const buttons = {};
    for (const [key, label] of [['rowBack', '« row'], ['back', '‹ step'], ['next', 'step ›'], ['rowNext', 'row »']])
      buttons[key] = el('button', { type: 'button', class: 'live-' + key }, label);
    const where = statusLine();
    // the code scrolls in its box, so the keyboard can reach it (Tab, then the arrows)
    const code = el('div', { class: 'live-code', tabindex: '0', role: 'region',
                             'aria-label': 'the code being stepped, its current line marked' });
    const vars = el('table', { class: 'live-vars' });
    box.append(el('div', { class: 'live-controls' }, el('label', {}, 'sequence ', text),
                  el('label', {}, 'emitting row t ', pos), ...Object.values(buttons)),
               where, where.said, el('div', { class: 'live-stepper' }, code, vars));
    let steps = [], at = 0, lines = new Map();

    // a new sequence is stepped at its last row, the one that emits the
    // next token
    function positions() {
      const chars = [...text.value], n = Math.max(1, Math.min(about.positions, chars.length));
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
        copy.removeAttribute('id');             // the book's block keeps it
        copy.removeAttribute('tabindex');       // the code box scrolls, not the copy
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
      const stepped = book.call('step', text.value, Number(pos.value));
      const was = at;
      steps = [];
      at = 0;
      if (!stepped.ok) {
        where.tell(stepped.error, true);
        code.replaceChildren();
        vars.replaceChildren();
        return;
      }
      const f = stepped.fields;
      (f.line || []).forEach((line, k) =>
        steps.push({ line: Number(line), name: f.name[k], head: Number(f.head[k]), t: Number(f.t[k]),
                     u: Number(f.u[k]), i: Number(f.i[k]), exact: f.exact[k], shown: f.shown[k] }));
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
      where.tell('step ' + (at + 1) + ' of ' + steps.length + ', ' + model.owner +
        ': head ' + s.head + ', line ' + s.line + ' of attention.nw, ' + s.name + ' = ' + s.shown);
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
  // weights, the last row framed; its field next is the token it would
  // write next.
  function growWidget(box) {
    const text = el('input', { type: 'text', value: '7*8=56', size: '8', 'aria-label': 'sequence', class: 'live-sequence' });
    const less = el('button', { type: 'button', class: 'live-less' }, '‹ one less');
    const more = el('button', { type: 'button', class: 'live-more' }, 'one more ›');
    const where = statusLine();
    const chart = el('div', { class: 'live-chart live-square' });
    const numbers = numbersBox('The numbers of the drawing', 'the weights of every head, a row for each t');
    box.append(el('div', { class: 'live-controls' }, el('label', {}, 'sequence ', text), less, more),
               where, where.said, chart, numbers);
    let n = about.equals + 1;     // the question, 7*8=
    function run() {
      n = Math.max(1, Math.min(n, text.value.length));
      const shown = text.value.slice(0, n);
      const traced = book.call('weights', shown);
      if (!traced.ok) {
        where.tell(traced.error, true);
        chart.replaceChildren();
        return;
      }
      const next = traced.fields.next, rows = traced.fields.weights, chars = [...shown];
      draw(chart, traced.svg, 'The weights of every head on \'' + shown + '\', a square each, ' +
           'with its numbers: row t reads the rows u up to t; the last row is framed; the numbers are ' +
           'also in the tables below');
      // the module's rows: for each head, row t's weights on u = 0 to t
      numbers.show([...Array(rows.length / chars.length).keys()].map((head) => [
        'head ' + head, ['t \\ u', ...chars.map((c, u) => u + ' ' + named(c))],
        chars.map((c, t) => [t + ' ' + named(c), ...rows[head * chars.length + t].split(' ')])]));
      where.tell("'" + shown + "' (" + n + ' of ' + text.value.length + ' characters), ' +
        model.owner + ': the last row chooses ' + named(next));
      box.dataset.next = next;
    }
    less.addEventListener('click', () => { n = Math.max(1, n - 1); run(); });
    more.addEventListener('click', () => { n += 1; run(); });
    text.addEventListener('input', () => { n = text.value.length; run(); });
    model.changed.push(run);
    run();
  }

  // ---------------------------------------------------------------- swap the multiplicands
  // The module draws the weights of the row of = for a*b= and b*a=, with
  // the book's view_swap; its fields are a, b, the measure of the change,
  // the head that follows a digit (-1: none), the pairs visited and the
  // pair that changes most with its measure.
  function swapWidget(box) {
    const text = el('input', { type: 'text', value: '7*8=', size: '6', 'aria-label': 'question', class: 'live-question' });
    const go = el('button', { type: 'button', class: 'live-swap' }, 'Swap');
    // the pair that changes most for the model in use (the book's or the reader's)
    const pick = el('button', { type: 'button', class: 'live-pick' }, 'The pair that changes most');
    const where = statusLine();
    const chart = el('div', { class: 'live-chart live-swap-chart' });
    const numbers = numbersBox('The numbers of the drawing', 'the weights of the row of = of each head, ' +
                               'a row for each order');
    box.append(el('div', { class: 'live-controls' }, el('label', {}, 'question ', text), go, pick),
               where, where.said, chart, numbers);
    let best = null;
    function run() {
      const swapped = book.call('swap', text.value);
      if (!swapped.ok) {
        where.tell(swapped.error, true);
        chart.replaceChildren();
        return;
      }
      const { a, b, change, head, visited } = swapped.fields;
      const [pa, pb, pchange] = [swapped.fields.pick_a, swapped.fields.pick_b, swapped.fields.pick_change];
      draw(chart, swapped.svg, 'The weights of the row of = of every head, with their numbers, for ' +
           a + '*' + b + '= and ' + b + '*' + a + '=; the numbers are also in the tables below');
      // the module's rows: a*b='s heads, then b*a='s; a table for each
      // head, as the drawings are, with a row for each order
      const rows = swapped.fields.weights, heads = rows.length / 2;
      numbers.show([...Array(heads).keys()].map((h) => ['head ' + h, ['order', ...[0, 1, 2, 3].map((u) => 'position ' + u)],
        [[a, b], [b, a]].map(([x, y], order) => [x + '*' + y + '=', ...rows[order * heads + h].split(' ')])]));
      best = pa + '*' + pb + '=';
      where.tell(a + '*' + b + '= against ' + b + '*' + a + '=, ' + model.owner +
        ': a share of ' + change + ' of the reading at the = moves to another position; ' +
        (head === '-1' ? 'no head has its largest weight on position ' + about.a_at + ' in one order and on ' +
                         about.b_at + ' in the other. '
                       : 'head ' + head + ' has its largest weight on position ' + about.a_at + ' in one order and on ' +
                         about.b_at + ' in the other: it follows a digit. ') +
        'Of the ' + visited + ' pairs, the one that changes most is ' + best + ' (' + pchange + ').');
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
  // traces its row, the one after the =; its fields are the tokens, the
  // second digit, the row, the head that weighs the row's own position
  // most and whether it weighs it more than any other position, and for
  // each head its weights on the row, apart by spaces.
  function ownWidget(box) {
    const text = el('input', { type: 'text', value: '7*8=', size: '6', 'aria-label': 'question', class: 'live-question' });
    const go = el('button', { type: 'button', class: 'live-own' }, 'Trace row ' + (about.equals + 1));
    const where = statusLine();
    const table = el('table', { class: 'live-weights' });
    box.append(el('div', { class: 'live-controls' }, el('label', {}, 'question ', text), go), where, where.said, table);
    function run() {
      table.replaceChildren();
      const traced = book.call('own_output', text.value);
      if (!traced.ok) {
        where.tell(traced.error, true);
        return;
      }
      const { tokens, next, row, top, most } = traced.fields, r = Number(row);
      const weights = traced.fields.weights.map((list) => list.split(' '));
      table.append(el('tr', {}, el('th', {}, 'head'),
                      ...[...tokens].map((c, u) => el('th', {}, u + " '" + c + "'"))));
      weights.forEach((w, head) => table.append(el('tr', { class: String(head) === top ? 'live-now' : '' },
        el('th', {}, String(head)), ...w.map((x, u) => el('td', u === r ? { class: 'live-own-cell' } : {}, x)))));
      where.tell(model.owner + ' answers ' + tokens.slice(0, r) + ' with ' + tokens[r] +
        '; with that digit appended, row ' + row + ' chooses ' + next + '. There head ' + top + ' puts ' +
        weights[Number(top)][r] + ' of its reading on position ' + row + ', the digit the model wrote itself' +
        (most === '1' ? ', more than on any other position.' : ', but more on an earlier position.'));
      Object.assign(box.dataset, { tokens, next, top, most });
    }
    go.addEventListener('click', run);
    text.addEventListener('keydown', (e) => { if (e.key === 'Enter') run(); });
    model.changed.push(run);
    run();
  }

  // ---------------------------------------------------------------- change the reading by hand
  // The module runs the question as the model computes it and with one
  // patch at its =: the site, the source, the heads (bits) and the
  // position are numbers of the C enums; for a patch from another problem
  // that problem follows the question after a space.  Its fields are
  // both answers, both logit differences and the right answer; it draws
  // the weights of the row of =, each head computed and patched.
  function patchWidget(box) {
    const option = (value, text) => el('option', { value: String(value) }, text);
    const text = el('input', { type: 'text', value: '7*8=', size: '6', 'aria-label': 'question', class: 'live-question' });
    const head = el('select', { 'aria-label': 'head', class: 'live-head' },
      ...[0, 1, 2, 3, 4, 5, 6, 7].map((h) => option(1 << h, 'head ' + h)), option(255, 'every head'));
    const site = el('select', { 'aria-label': 'what is changed', class: 'live-site' },
      option(0, 'its output at the ='), option(1, 'its weights at the ='),
      option(2, 'its key at a position'), option(3, 'its value at a position'));
    const pos = el('select', { 'aria-label': 'position', class: 'live-patch-pos' },
      ...[0, 1, 2, 3].map((u) => option(u, 'position ' + u)));
    const source = el('select', { 'aria-label': 'replaced by', class: 'live-source' },
      option(1, 'its mean over the problems'), option(0, 'zeros'), option(2, 'those of another problem'));
    const other = el('input', { type: 'text', value: '3*6=', size: '6', 'aria-label': 'other problem', class: 'live-other' });
    const go = el('button', { type: 'button', class: 'live-patch' }, 'Patch');
    const where = statusLine();
    const chart = el('div', { class: 'live-chart' });
    head.value = '4';
    box.append(el('div', { class: 'live-controls' }, el('label', {}, 'question ', text), head, site, pos,
                  el('label', {}, 'replaced by ', source), other, go), where, where.said, chart);
    function shown() {
      pos.hidden = Number(site.value) < 2;
      other.hidden = source.value !== '2';
    }
    function run() {
      shown();
      const input = source.value === '2' ? text.value + ' ' + other.value : text.value;
      const patched = book.call('patch', input, Number(site.value), Number(source.value),
                                Number(head.value), Number(pos.value));
      if (!patched.ok) {
        where.tell(patched.error, true);
        chart.replaceChildren();
        return;
      }
      const f = patched.fields, q = text.value;
      draw(chart, patched.svg, 'The weights of the row of = of every head, as the model computes them ' +
           'and patched, with their numbers');
      where.tell(model.owner + ' writes ' + q + f.clean + ' as it computes it, ' + q + f.patched +
        ' patched (the right answer is ' + f.right + '); the logit difference of the right first token is ' +
        f.diff_clean + ' as computed, ' + f.diff_patched + ' patched.');
      Object.assign(box.dataset, { clean: f.clean, patched: f.patched, diffClean: f.diff_clean,
                                   diffPatched: f.diff_patched });
    }
    go.addEventListener('click', run);
    text.addEventListener('keydown', (e) => { if (e.key === 'Enter') run(); });
    other.addEventListener('keydown', (e) => { if (e.key === 'Enter') run(); });
    for (const menu of [head, site, pos, source]) menu.addEventListener('change', run);
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
    const names = about.concept;
    const concept = el('select', { 'aria-label': 'concept', class: 'live-concept' },
                       ...names.map((name, c) => el('option', { value: String(c) }, name)));
    const where = statusLine();
    const chart = el('div', { class: 'live-chart live-neuron-chart' });
    const numbers = el('table', { class: 'live-weights live-neuron-numbers' });
    // the table scrolls sideways in its own box where the screen is too
    // narrow for its ten columns; the keyboard reaches the box and scrolls it
    box.append(el('div', { class: 'live-controls' }, el('label', {}, 'concept ', concept)), where, where.said, chart,
               numbersBox('The numbers of the table', 'the numbers of the table, a row for each a', numbers));
    function run() {
      const found = book.call('neuron', Number(concept.value));
      if (!found.ok) {
        where.tell(found.error, true);
        chart.replaceChildren();
        return;
      }
      // count, neuron, d, right; and the list value, the neuron's
      // activation on each problem a*b, a row of b for each a
      const { count, neuron, d, right } = found.fields, values = found.fields.value, digits = about.digits;
      draw(chart, found.svg, 'The activation of neuron ' + neuron + ' at the = of each problem ' +
           'a*b, a row for each a, a column for each b, in colour; the numbers are in the table below');
      numbers.replaceChildren(
        el('caption', {}, 'Neuron ' + neuron + ' at the = of a*b'),
        el('tr', {}, el('th', {}, 'a \\ b'),
           ...values.slice(0, digits).map((v, b) => el('th', { scope: 'col' }, String(b)))),
        ...[...Array(digits).keys()].map((a) => el('tr', {}, el('th', { scope: 'row' }, String(a)),
          ...values.slice(digits * a, digits * a + digits).map((v) => el('td', {}, v)))));
      where.tell(model.owner + ': of the ' + about.neurons + ' neurons at the =, neuron ' + neuron +
        ' separates the ' + count + ' problems where ' + names[Number(concept.value)] +
        ' from the others best, d = ' + d + '; one threshold on it sorts ' + right + ' of ' + about.problems +
        ' right.');
      Object.assign(box.dataset, { count, neuron, d, right });
    }
    concept.addEventListener('change', run);
    model.changed.push(run);
    run();
  }

  // ---------------------------------------------------------------- the wiring
  // The module draws the block's wiring with one stage lit, and says what
  // every stage does, what the lit one reads, and where each stage's band
  // lies in the drawing (its top and bottom, in the drawing's pixels).
  // The reader picks the stage from the menu, steps with the buttons
  // (which stay enabled at either end, so that the focus stays on them),
  // or clicks the drawing.
  function wiringWidget(box) {
    const stage = el('select', { 'aria-label': 'stage', class: 'live-stage' });
    const back = el('button', { type: 'button', class: 'live-previous' }, 'Previous stage');
    const next = el('button', { type: 'button', class: 'live-next' }, 'Next stage');
    const where = statusLine();
    const chart = el('div', { class: 'live-chart live-wiring-chart' });
    box.append(el('div', { class: 'live-controls' }, el('label', {}, 'stage ', stage), back, next),
               where, where.said, chart);
    let bands = [];
    function run() {
      const lit = Number(stage.value || 0);
      const drawn = book.call('wiring', lit);
      if (!drawn.ok) {
        where.tell(drawn.error, true);
        chart.replaceChildren();
        return;
      }
      const { what, branch } = drawn.fields, names = drawn.fields.stage;
      const tables = (drawn.fields.table || []).map((t) => t.split(' '));
      if (stage.options.length !== names.length)
        stage.replaceChildren(...names.map((name, k) => el('option', { value: String(k) }, (k + 1) + ' ' + name)));
      stage.value = String(lit);
      bands = drawn.fields.band.map((b) => b.split(' ').map(Number));
      draw(chart, drawn.svg, 'The wiring of the block, its stages from the top down, with stage ' + (lit + 1) +
           ', ' + what + ', lit');
      const reads = tables.length
        ? 'It reads ' + tables.map(([name, rows, cols]) => name + ' (' + rows + ' \u00d7 ' + cols + ', ' +
                                   rows * cols + ' numbers)').join(', ')
        : 'It reads no table: it computes from the rows it is given';
      where.tell('Stage ' + (lit + 1) + ' of ' + names.length + ', ' + what + ', ' +
                 (branch === '0' ? 'on the stream' : branch === '1' ? 'in a branch off the stream'
                                                   : 'in a branch, whose result it adds back to the stream') +
                 '. ' + reads + '.');
      Object.assign(box.dataset, { lit: String(lit), what, tables: tables.map(([name]) => name).join(' ') });
    }
    const go = (k) => { stage.value = String(k); run(); };
    stage.addEventListener('change', run);
    back.addEventListener('click', () => go(Math.max(0, Number(stage.value) - 1)));
    next.addEventListener('click', () => go(Math.min(bands.length - 1, Number(stage.value) + 1)));
    chart.addEventListener('click', (event) => {
      const svg = chart.querySelector('svg');
      if (!svg) return;
      const r = svg.getBoundingClientRect();
      const y = (event.clientY - r.top) * svg.viewBox.baseVal.height / r.height;
      const k = bands.findIndex(([top, bottom]) => y >= top && y <= bottom);
      if (k >= 0) go(k);
    });
    model.changed.push(run);
    run();
  }

  // ---------------------------------------------------------------- principal directions
  function screeWidget(box) {
    const where = statusLine();
    const chart = el('div', { class: 'live-chart' });
    box.append(where, where.said, chart);
    function run() {
      const found = book.call('scree');
      if (!found.ok) {
        where.tell(found.error, true);
        chart.replaceChildren();
        return;
      }
      const { count, first } = found.fields, countIn = found.fields.count_in;
      draw(chart, found.svg, 'The share of the variance along each principal direction, ' +
           'largest first, and the running total, for the ' + about.neurons + ' activations and the ' +
           about.inputs + ' inputs of the FFN: ' + count + ' and ' + countIn + ' directions hold 90 %');
      where.tell(model.owner + ': ' + count + ' directions hold 90\u00a0% of the variance of the ' +
        about.neurons + ' activations, ' + countIn + ' that of the ' + about.inputs +
        ' inputs; the first direction holds ' + first + '\u00a0%.');
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
      const { module, seed, heads, part, steps } = event.data;
      let m = null;
      const progress = (step, loss, correct) => {
        const record = m.answer();
        postMessage({ run: Number(record.fields.run), step, steps, loss, correct, chart: record.svg,
                      at: performance.now() });
      };
      const instance = await WebAssembly.instantiate(module, imports(module, progress));
      m = wrap(instance.exports);
      m.x._initialize();
      const trained = m.call('experiment', seed, heads, part);
      const results = m.call('experiment_results').fields;
      // each run's training log, in the place of a drawing
      const logs = [0, 1].map((k) => m.call('experiment_log', k).svg);
      postMessage({ done: true, ok: trained.ok, message: trained.error, results, logs });
    };
  }

  // One widget for chapter 7 (which part is switched off) and one for
  // chapter 8 (how many heads); the rest is the same.  The numbers of
  // heads and the parts, as the concepts, come from the module (the parts
  // from its table of parts, numbered from 1).  Each model has one name,
  // the one of the book's tables and the module's results: a part's label
  // from the table of parts ('no residual'), a number of heads as the
  // module names it ('8 heads'), and "book's model"; in sentences with its seed, as the
  // other widgets name the book's model and the reader's.
  function experimentWidget(box) {
    const heads = box.dataset.widget === 'heads';
    const choices = heads
      ? about.heads.map((n, k) => [n, 0, about.heads_name[k]])
      : about.part_label.map((label, k) => [about.book_heads, k + 1, label]);
    const which = el('select', { class: 'live-variant' });     // named by its label
    choices.forEach(([n, part, label], k) => which.append(el('option', { value: String(k) }, label)));
    const seed = el('input', { type: 'text', value: about.seed, size: '6', 'aria-label': 'seed',
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
      const names = ['book\'s model', label].map((name) => name + ' (seed ' + checked + ')');
      const times = [[], []];        // [time, step] of each record, per run
      said.reset();
      paint.start();
      said.say('Training ' + names.join(' and ') + ' in your browser.');
      run.onmessage = (event) => {
        const r = event.data;
        if (!r.done) {
          const line = names[r.run] + ', step ' + r.step +
            ': batch loss ' + r.loss.toFixed(4) + ', score ' + r.correct + '/' + about.problems;
          paint.later(r.chart, 'Loss and score against the step: ' + names[r.run] +
                      ' at step ' + r.step + ', ' + r.correct + ' of ' + about.problems + ' problems right' +
                      (r.run ? '; ' + names[0] + ', solid, and ' + names[1] + ', dashed' : ''), line);
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
        box.dataset.done = r.ok ? 'ok' : 'failed';
        if (!r.ok) {
          status.textContent = r.message;
          status.classList.add('live-error');
          said.say(r.message);
          return;
        }
        // the result first, as the table below has it; then the time
        const f = r.results;
        const perfect = about.problems + '/' + about.problems;
        const result = f.name.map((name, k) => names[k] + ': ' +
          (f.first[k] === 'never' ? 'never ' + perfect : 'first ' + perfect + ' at step ' + f.first[k]) +
          ', final score ' + f.score[k] + ', final loss ' + f.loss[k]).join('; ') + '.';
        status.textContent = result + ' Trained in your browser, ' +
          ms.map((x, k) => x.toFixed(2)).join(' and ') + ' ms a step.';
        said.say(result);
        table.replaceChildren(el('caption', {}, 'seed ' + checked),
                              el('tr', {}, ...['model', 'first ' + about.problems + '/' + about.problems +
                                               ' at step', 'final score',
                                               'final loss'].map((h) => el('th', { scope: 'col' }, h))));
        f.name.forEach((name, k) =>
          table.append(el('tr', { 'data-exact-loss': f.exact[k] },
                          ...[name, f.first[k], f.score[k], f.loss[k]].map((v) => el('td', {}, v)))));
        table.hidden = false;
        logs.replaceChildren('The final score is the last one of the log; the final loss is the loss on ' +
                             'all ' + about.problems + ' problems after the last step, where the log has each step\'s loss on ' +
                             'its batch. Training logs: ');
        r.logs.forEach((text, k) => {
          const a = el('a', { class: 'live-log', download: 'seed' + checked + '-' +
                              (k ? label.replace(/ /g, '-') : 'book') + '.log' }, names[k]);
          a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
          logs.append(a, k ? '.' : ', ');
        });
        logs.hidden = false;
      };
      run.postMessage({ module, seed: checked, heads: n_heads, part, steps: about.steps });
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
    patch: 'change what a head reads at the = of a question of your own, and see the answer change',
    neuron: 'search the model\'s neurons for a concept of your choice',
    scree: 'see the principal directions of a model you trained',
    wiring: 'light each stage of the block\'s wiring and see the tables it reads',
    ablations: 'train the model without one of its parts, from a seed of your own',
    heads: 'train the model with another number of heads, from a seed of your own',
  };
  function without(error) {
    unmeasured = null;
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
    // the model's numbers and menus: each a number, a list, or words
    const told = book.call('about').fields;
    about = { ...told, heads: told.heads.map(Number) };
    for (const name of ['positions', 'problems', 'digits', 'neurons', 'inputs', 'steps', 'equals',
                        'a_at', 'b_at', 'book_heads'])
      about[name] = Number(told[name]);
    useModel(decode('live-model'), bookOwner());
    widgets('train').forEach(trainWidget);
    widgets('stepper').forEach(stepperWidget);
    widgets('grow').forEach(growWidget);
    widgets('swap').forEach(swapWidget);
    widgets('own').forEach(ownWidget);
    widgets('patch').forEach(patchWidget);
    widgets('neuron').forEach(neuronWidget);
    widgets('scree').forEach(screeWidget);
    widgets('wiring').forEach(wiringWidget);
    widgets('ablations').forEach(experimentWidget);
    widgets('heads').forEach(experimentWidget);
    fit(unmeasured);
    unmeasured = null;
    quiet = false;
    document.documentElement.dataset.live = 'ready';
  }
  start().catch(without);
})();
