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
  // --seed; on a bad one the status shows the command line's message.
  function checkedSeed(input, status) {
    const n = book.put(input.value);
    if (book.x.seed_check(n) !== 0) {
      status.textContent = book.text();
      status.classList.add('live-error');
      return null;
    }
    status.classList.remove('live-error');
    return BigInt.asUintN(64, book.x.seed());
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
    const status = el('span', { class: 'live-status', role: 'status' }, 'Not trained yet: the widgets use the book\'s model.');
    const chart = el('div', { class: 'live-chart' });
    const save = el('a', { class: 'live-download', hidden: '' }, 'Download the checkpoint');
    box.append(el('div', { class: 'live-controls' }, el('label', {}, 'seed ', seed), go, save),
               status, chart);
    let running = null;
    go.addEventListener('click', () => {
      const checked = checkedSeed(seed, status);
      if (checked === null) return;
      if (running) running.terminate();
      running = startWorker(worker);
      save.hidden = true;
      let first = null;
      running.onmessage = (event) => {
        const r = event.data;
        if (!r.done) {
          chart.innerHTML = r.chart;
          if (r.correct === 100 && first === null) first = r.at;
          status.textContent = 'seed ' + checked + ', step ' + r.step + ': batch loss ' +
            r.loss.toFixed(4) + ', score ' + r.correct + '/100';
          return;
        }
        running = null;
        if (r.status !== 0) { status.textContent = r.message; status.classList.add('live-error'); return; }
        const perStep = r.ms / 1000;
        status.textContent = 'seed ' + checked + ': first 100/100 at step ' + r.first + ' (' +
          (first === null ? '-' : ((first - r.start) / 1000).toFixed(2) + ' s') + '), 1000 steps in ' +
          (r.ms / 1000).toFixed(2) + ' s, ' + perStep.toFixed(2) + ' ms a step. ' +
          'The widgets below now use this model.';
        box.dataset.msPerStep = perStep.toFixed(3);
        box.dataset.firstPerfectSeconds = first === null ? '' : ((first - r.start) / 1000).toFixed(3);
        useModel(r.checkpoint, 'your model (seed ' + checked + ')');
        save.href = URL.createObjectURL(new Blob([r.checkpoint], { type: 'application/octet-stream' }));
        save.download = 'seed' + checked + '.ckpt';
        save.hidden = false;
      };
      running.postMessage({ module, seed: checked, steps: 1000 });
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
    const code = el('div', { class: 'live-code' });
    const vars = el('table', { class: 'live-vars' });
    box.append(el('div', { class: 'live-controls' }, el('label', {}, 'sequence ', text),
                  el('label', {}, 'emitting row t ', pos), ...Object.values(buttons)),
               where, el('div', { class: 'live-stepper' }, code, vars));
    let steps = [], at = 0, lines = new Map();

    function positions() {
      const n = Math.max(1, Math.min(7, text.value.length)), keep = pos.value;
      pos.replaceChildren();
      for (let t = 0; t < n; t++)
        pos.append(el('option', { value: String(t) }, t + " ('" + (text.value[t] || '') + "')"));
      pos.value = keep !== '' && Number(keep) < n ? keep : String(n - 1);
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
        for (const span of copy.querySelectorAll('[id]')) {
          const n = span.id.split('-').pop();
          if (span.tagName === 'SPAN') { span.dataset.line = n; lines.set(Number(n), span); }
          span.removeAttribute('id');
        }
        code.append(copy);
      }
    }

    function run() {
      const n = book.put(text.value);
      const status = book.x.step(n, Number(pos.value));
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
      // the latest value of every variable of this head, up to this step
      const latest = new Map([['head', String(s.head)], ['t', String(s.t)],
                              ['u', s.u < 0 ? '' : String(s.u)], ['i', s.i < 0 ? '' : String(s.i)]]);
      for (let k = 0; k <= at; k++)
        if (steps[k].head === s.head) latest.set(steps[k].name, steps[k]);
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
    pos.addEventListener('change', run);
    model.changed.push(run);
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
      chart.innerHTML = book.text();
      where.textContent = "'" + shown + "' (" + n + ' of ' + text.value.length + ' characters), ' +
        model.owner + ": the last row chooses '" + String.fromCharCode(next) + "'";
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
      chart.innerHTML = out.slice(cut + 1);
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
    box.append(el('div', { class: 'live-controls' }, el('label', {}, 'concept ', concept)), where, chart);
    function run() {
      if (book.x.neuron(Number(concept.value)) !== 0) {
        where.textContent = book.text();
        where.classList.add('live-error');
        chart.replaceChildren();
        return;
      }
      where.classList.remove('live-error');
      const out = book.text(), cut = out.indexOf('\n');
      const [count, neuron, d, right] = out.slice(0, cut).split('\t');
      chart.innerHTML = out.slice(cut + 1);
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
      chart.innerHTML = out.slice(cut + 1);
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
        postMessage({ run: m.x.experiment_run(), step, loss, correct, chart: m.text(),
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
  // chapter 8 (how many heads); the rest is the same.
  function experimentWidget(box) {
    const heads = box.dataset.widget === 'heads';
    const choices = heads
      ? [[1, 0, 'one head'], [2, 0, 'two heads'], [4, 0, 'four heads'], [8, 0, 'eight heads']]
      : [[4, 1, 'without position vectors'], [4, 2, 'without the causal mask'],
         [4, 3, 'without the residual'], [4, 4, 'without LayerNorm']];
    const which = el('select', { 'aria-label': heads ? 'heads' : 'part switched off',
                                 class: 'live-variant' });
    choices.forEach(([n, part, label], k) => which.append(el('option', { value: String(k) }, label)));
    const seed = el('input', { type: 'text', value: '1', size: '6', 'aria-label': 'seed',
                               inputmode: 'numeric', class: 'live-seed' });
    const go = el('button', { type: 'button', class: 'live-run' }, 'Train both');
    const status = el('span', { class: 'live-status', role: 'status' },
                      'Not run yet: the figures above are the book\'s.');
    const chart = el('div', { class: 'live-chart' });
    const table = el('table', { class: 'live-results', hidden: '' });
    const logs = el('span', { class: 'live-logs', hidden: '' });
    box.append(el('div', { class: 'live-controls' }, el('label', {}, 'model ', which),
                  el('label', {}, 'seed ', seed), go),
               status, chart, el('div', { class: 'live-table' }, table), logs);
    let running = null;
    go.addEventListener('click', () => {
      const checked = checkedSeed(seed, status);
      if (checked === null) return;
      const [n_heads, part, label] = choices[Number(which.value)];
      if (running) running.terminate();
      running = startWorker(experimentWorker);
      table.hidden = true;
      logs.hidden = true;
      delete box.dataset.done;
      const names = ['the book\'s model', label];
      const times = [[], []];        // [time, step] of each record, per run
      running.onmessage = (event) => {
        const r = event.data;
        if (!r.done) {
          chart.innerHTML = r.chart;
          times[r.run].push([r.at, r.step]);
          status.textContent = 'seed ' + checked + ', ' + names[r.run] + ', step ' + r.step +
            ': batch loss ' + r.loss.toFixed(4) + ', score ' + r.correct + '/100';
          return;
        }
        running = null;
        // milliseconds a step of each run, from its first record to its last
        const ms = times.map((t) => t.length < 2 ? NaN
          : (t[t.length - 1][0] - t[0][0]) / (t[t.length - 1][1] - t[0][1]));
        box.dataset.msPerStep = ms.map((x) => x.toFixed(3)).join(' ');
        box.dataset.done = r.status === 0 ? 'ok' : 'failed';
        if (r.status !== 0) {
          status.textContent = r.message;
          status.classList.add('live-error');
          return;
        }
        status.textContent = 'seed ' + checked + ': both models trained ' +
          'in your browser, ' + ms.map((x, k) => names[k] + ' ' + x.toFixed(2) + ' ms a step').join(', ') + '.';
        table.replaceChildren(el('caption', {}, 'seed ' + checked),
                              el('tr', {}, ...['model', 'first 100/100 at step', 'final score',
                                               'final loss'].map((h) => el('th', {}, h))));
        r.results.split('\n').filter((row) => row).forEach((row) => {
          const [name, first, score, loss, exact] = row.split('\t');
          table.append(el('tr', { 'data-exact-loss': exact },
                          ...[name, first, score, loss].map((v) => el('td', {}, v))));
        });
        table.hidden = false;
        logs.replaceChildren('Training logs: ');
        r.logs.forEach((text, k) => {
          const a = el('a', { class: 'live-log', download: 'seed' + checked + '-' +
                              (k ? label.replace(/ /g, '-') : 'book') + '.log' }, names[k]);
          a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
          logs.append(a, k ? '.' : ', ');
        });
        logs.hidden = false;
      };
      running.postMessage({ module, seed: checked, heads: n_heads, part });
    });
  }

  // ---------------------------------------------------------------- start
  async function start() {
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
  start().catch((error) => {
    document.documentElement.dataset.live = 'failed';
    console.error(error);
  });
})();
