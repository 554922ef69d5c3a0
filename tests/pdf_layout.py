#!/usr/bin/python3
"""pdf_layout.py: the printed book's pages, measured as a reader sees them.

    /usr/bin/python3 tests/pdf_layout.py BOOK.pdf [BOOK.aux]

Reads every word's box from `pdftotext -bbox-layout` and checks the rules
of the printed page (weave-preamble.tex):

  - the measure: a full line of prose holds 60 to 75 characters;
  - Part I, with the pages before it, is at most 250 pages;
  - a chunk of 15 code lines or fewer never breaks across pages, and a
    longer one breaks only with at least 4 of its lines on each side
    (in Part II, set compact, any chunk may break, with at least 2 of
    its lines on each side);
  - a line of code has its number in the outer margin, not by the spine;
  - a page that begins inside a chunk names the chunk in its head
    ("... continued");
  - at least 3 lines follow every section heading on its page;
  - the make-up: no page of a chapter or appendix under two-thirds
    full unless it ends its chapter, and no chapter's last page under a
    quarter full (a chapter of one page aside); no page that begins with a line of code that only closes or
    opens a block (or is blank); an exercise's box on the page where the
    chunk after it begins; a running head that names a chunk
    "continued" only on a page that begins in that chunk's code, and no
    running head in capitals;
  - no widow (a paragraph's last line alone at the top of a page) and no
    orphan (a paragraph's first line alone at the foot of one, or in the
    contents a chapter's entry without the entries of its sections);
  - tables as a book has them (given the .aux file of the last pass):
    every table captioned "Table C.N:" (C a chapter's number or an
    appendix's letter), once, and named in the text only by a number
    that has a caption; a table of fewer than 10 rows begins and ends
    on one page (its caption's page and the page of its end, which
    weave-preamble.tex's \nwtableend writes to the .aux file);
  - references as a book has them: the appendices are lettered, each
    opening with "Appendix X" on its first page; a reference to an
    appendix or a section gives its number and page ("Appendix D
    (p. 167)", "Section M.2 (p. 300)"), and that page is the one on
    which the heading stands; no reference names an appendix by its
    title in quotes.

Prints what it measured and each failure; exits 1 on a failure.
"""
import re
import statistics
import subprocess
import sys
import xml.etree.ElementTree as ET

NS = '{http://www.w3.org/1999/xhtml}'


def pages_of(pdf):
    xml = subprocess.run(['pdftotext', '-bbox-layout', pdf, '-'], check=True,
                         capture_output=True).stdout
    # a glyph with no Unicode name comes out as a control character,
    # which XML does not allow
    root = ET.fromstring(re.sub(rb'[\x00-\x08\x0b\x0c\x0e-\x1f]', b'?', xml))
    for page in root.iter(NS + 'page'):
        words = []
        for w in page.iter(NS + 'word'):
            words.append(dict(text=w.text or '', x0=float(w.get('xMin')),
                              y0=float(w.get('yMin')), x1=float(w.get('xMax')),
                              y1=float(w.get('yMax'))))
        yield float(page.get('width')), float(page.get('height')), words


def rows_of(words):
    """Words on one baseline, left to right; rows top to bottom."""
    # a row: words whose middles lie within 3 pt of the row's first word
    # (a bracket or a subscript sits a little higher or lower than its line)
    rows = []
    mid = lambda w: (w['y0'] + w['y1']) / 2
    for w in sorted(words, key=lambda w: (mid(w), w['x0'])):
        if rows and abs(mid(rows[-1][0]) - mid(w)) < 3:
            rows[-1].append(w)
        else:
            rows.append([w])
    out = []
    for r in rows:
        r.sort(key=lambda w: w['x0'])
        out.append(dict(words=r, x0=r[0]['x0'], x1=max(w['x1'] for w in r),
                        y0=min(w['y0'] for w in r), y1=max(w['y1'] for w in r),
                        height=max(w['y1'] - w['y0'] for w in r),
                        text=' '.join(w['text'] for w in r)))
    return out


def mode(values):
    counts = {}
    for v in values:
        counts[round(v, 1)] = counts.get(round(v, 1), 0) + 1
    return max(counts, key=counts.get)


def tables_and_references(pdf, aux, pages, fail):
    """The rules of tables and references (see the top of this file)."""
    text = subprocess.run(['pdftotext', '-layout', pdf, '-'], check=True,
                          capture_output=True, text=True).stdout.split('\f')
    # each page's printed number: the running head's, or a chapter
    # opening's at its foot
    printed = {}
    for i, page in enumerate(text, 1):
        lines = [l.strip() for l in page.split('\n') if l.strip()]
        if not lines:
            continue
        m = (re.match(r'^\S.*\s{2,}(\d+)$', lines[0]) or re.match(r'^(\d+)\s{2,}\S', lines[0])
             or re.match(r'^(\d+)$', lines[-1]))
        if m:
            printed[m.group(1)] = i
    flat = re.sub(r'\s+', ' ', ' '.join(text))
    captions = re.findall(r'Table ([0-9A-Z]+\.[0-9]+):', flat)
    repeated = sorted({c for c in captions if captions.count(c) > 1})
    if repeated:
        fail(f'tables captioned twice: {repeated}')
    if not captions:
        fail('no table is captioned "Table C.N:"')
    mentions = set(re.findall(r'Table ([0-9A-Z]+\.[0-9]+)(?![0-9:])', flat))
    for m in sorted(mentions - set(captions)):
        fail(f'the text names Table {m}, which has no caption')
    # the .aux file: \newlabel{ID}{{NUMBER}{PAGE}...} and
    # \nwtablepages{ID}{ROWS}{LAST PAGE}
    labels, tables = {}, []
    for line in open(aux, encoding='utf-8', errors='replace'):
        m = re.match(r'\\newlabel\{([^{}]+)\}\{\{([^{}]*)\}\{([^{}]*)\}', line)
        if m:
            labels[m.group(1)] = (m.group(2), m.group(3))
        m = re.match(r'\\nwtablepages\{([^{}]+)\}\{(\d+)\}\{(\d+)\}', line)
        if m:
            tables.append((m.group(1), int(m.group(2)), m.group(3)))
    short = 0
    for name, rows, last in tables:
        number, first = labels.get(name, ('?', '?'))
        if number not in captions:
            fail(f'table {name} ({number}) has no caption "Table {number}:" in the PDF')
        if rows < 10:
            short += 1
            if first != last:
                fail(f'Table {number} ({rows} rows) breaks: pp. {first} to {last}')
    if len(tables) != len(captions):
        fail(f'{len(tables)} tables in the .aux file, {len(captions)} captions in the PDF')
    print(f'tables: {len(captions)} captioned and numbered ({", ".join(captions)}); '
          f'{short} of fewer than 10 rows, each on one page; the text names {len(mentions)}')
    # appendices: the letters of the contents, each opening its chapter
    letters = []
    first = next((i for i, page in enumerate(text) if re.search(r'^\s*Contents\s*$', page, re.M)), 0)
    contents = [text[first]] + [page for page in text[first + 1:first + 30]
                                if re.search(r'\bContents\b', page.strip().split('\n')[0], re.I)]
    for page in contents:
        letters += re.findall(r'^\s*([A-Z]) {1,8}[A-Z].*?\s(\d+)\s*$', page, re.M)
    letters = sorted({x for x, _ in letters})
    if not letters or letters != [chr(ord('A') + k) for k in range(len(letters))]:
        fail(f'the contents letter the appendices {letters}, not A, B, C ...')
    opened = {m for page in text for m in re.findall(r'^\s*Appendix ([A-Z])\s*$', page, re.M)}
    for x in letters:
        if x not in opened:
            fail(f'no page opens Appendix {x}')
    # references: a number and a page, the page where the heading is
    refs = re.findall(r'(Appendix|Section|Chapter) ([0-9A-Z]+(?:\.[0-9]+)*)(?: \(p\. |, p\. )(\d+)', flat)
    for kind, number, page in refs:
        where = printed.get(page)
        body = text[where - 1] if where else ''
        if kind == 'Appendix':
            ok = re.search(r'^\s*Appendix ' + number + r'\s*$', body, re.M)
        else:
            ok = re.search(r'^\s*' + re.escape(number) + r'\s+\S', body, re.M)
        if not ok:
            fail(f'"{kind} {number} (p. {page})": page {page} has no heading {number}')
    quoted = re.findall(r'(?:[Aa]ppendix|[Aa]ppendix section|[Ss]ection|\(see) [\u201c"][A-Z][^\u201d"]{1,60}[\u201d"]', flat)
    for q in quoted[:5]:
        fail(f'a reference by a title in quotes: {q}')
    print(f'appendices lettered {letters[0] if letters else "?"} to {letters[-1] if letters else "?"}, '
          f'each opening with its letter; {len(refs)} references to an appendix or a section, '
          f'each with its number and the page its heading is on; {len(quoted)} by a title in quotes')


def main(pdf, aux=None):
    pages = [(w, h, rows_of(ws)) for w, h, ws in pages_of(pdf)]
    failures = []

    def fail(msg):
        failures.append(msg)
        print('FAILED ' + msg)

    # the text block, from the rows themselves: the commonest left and
    # right edges of long rows, on odd and on even pages
    # (not the rows of code, whose line numbers stand in the margin at
    # one place or another as they have 3, 4 or 5 digits)
    edges = {}
    # a line number is set in 6-point mono, each digit 3.15 pt wide (the
    # code's own digits are 4.2 pt wide or more, the text's wider still);
    # its box's height is no guide: pdftotext takes it from the font's
    # box, which is the font of Part II's code too, at another size
    small_number = lambda w: (re.match(r'^\d+$', w['text']) is not None
                              and (w['x1'] - w['x0']) / len(w['text']) < 3.6)
    numbered = lambda r: small_number(r['words'][0]) or small_number(r['words'][-1])
    for parity in (0, 1):
        long_rows = [r for n, (w, h, rows) in enumerate(pages, 1) if n % 2 == parity
                     for r in rows if r['x1'] - r['x0'] > 0.6 * w * 0.65 and not numbered(r)]
        edges[parity] = (mode(r['x0'] for r in long_rows), mode(r['x1'] for r in long_rows))
    width = edges[1][1] - edges[1][0]
    body_rows = [r for _, _, rows in pages for r in rows]
    top = mode(r['y0'] for r in body_rows if r['height'] < 14)  # the running heads' line
    print(f'text block: {width:.1f} pt wide; left edge {edges[1][0]:.1f} pt (odd pages), '
          f'{edges[0][0]:.1f} pt (even)')

    # each page: head, body rows, foot; rows classified
    chunk_head = re.compile(r'^\d+$')
    number = re.compile(r'^\d+$')
    parsed = []
    for n, (w, h, rows) in enumerate(pages, 1):
        left, right = edges[n % 2]
        head = [r for r in rows if r['y1'] < top + 14]
        foot = [r for r in rows if r['y0'] > h * 0.93]
        body = [r for r in rows if r not in head and r not in foot]
        for r in body:
            first = r['words'][0]
            # a heading's number and its first word are set large; a line
            # of prose that opens with a decimal (0.440 ...) is not a
            # heading, however tall a sign in it makes the row, nor one
            # that opens with a number in the maths' taller face (0.0001)
            tall = lambda w: w['y1'] - w['y0'] > 13
            big = tall(first) and (len(r['words']) < 2 or tall(r['words'][1]))
            r['heading'] = (big and r['height'] < 24 and abs(r['x0'] - left) < 1.5
                            and re.match(r'^(\d+|[A-Z])\.\d+(\.\d+)? +\S', r['text']) is not None)
            # a line of code: its number in the outer margin, at the left
            # of a left-hand page, at the right of a right-hand one
            last = r['words'][-1]
            on_left = small_number(first) and first['x1'] < left - 5
            on_right = small_number(last) and last['x0'] > right + 5
            r['code'] = on_left or on_right
            r['codewords'] = r['words'][1:] if on_left else r['words'][:-1] if on_right else []
            r['number_left'] = on_left
            r['chunkhead'] = (not r['code'] and chunk_head.match(first['text']) is not None and len(r['words']) > 1
                              and r['words'][1]['text'].startswith('⟨'))   # its name may wrap
            r['chunkend'] = re.match(r'^(Used in|Continued in|Root chunk|Defines)', r['text']) is not None
            r['prose'] = (not r['code'] and not r['chunkhead'] and abs(r['x0'] - left) < 1.5
                          and r['height'] < 16)
            r['full'] = r['prose'] and abs(r['x1'] - right) < 1.5
            r['prose'] = r['prose'] and not r['heading'] and not r['chunkend']
            r['full'] = r['full'] and not r['chunkend']
            r['chapter'] = r['height'] >= 24
        parsed.append(dict(n=n, height=h, head=' '.join(r['text'] for r in head),
                           foot=' '.join(r['text'] for r in foot),
                           body=body, left=left, right=right))

    # 1. the measure
    lengths = [len(r['text']) for p in parsed for r in p['body'] if r['full']]
    med = statistics.median(lengths)
    print(f'measure: {len(lengths)} full lines of prose, median {med} characters '
          f'(quartiles {statistics.quantiles(lengths, n=4)})')
    if not 60 <= med <= 75:
        fail(f'the measure is {med} characters a line, not 60 to 75')

    # 2. chunks across pages, and 3. the "continued" head
    chunk = None   # [label, {page: lines}]
    chunks = []
    for p in parsed:
        first_body = next((r for r in p['body'] if r['text'].strip()), None)
        if chunk and first_body is not None and first_body['code'] \
                and 'continued' not in p['head']:
            fail(f'p{p["n"]}: the page begins inside chunk {chunk[0]} and its head does not say so')
        for r in p['body']:
            if r['chunkhead']:
                chunk = [r['words'][0]['text'], {}]
                chunks.append(chunk)
            elif r['code'] and chunk:
                chunk[1][p['n']] = chunk[1].get(p['n'], 0) + 1
            elif r['chunkend']:
                chunk = None
    # Part II, the program, is set compact: any chunk there may break,
    # where 2 of its lines stay on each side
    part2 = next((p['n'] for p in parsed
                  if p['body'] and re.match(r'^Part II\b', p['body'][0]['text'])), len(parsed) + 1)
    split = 0
    for label, per_page in chunks:
        if len(per_page) < 2:
            continue
        split += 1
        total = sum(per_page.values())
        parts = [per_page[k] for k in sorted(per_page)]
        if min(per_page) > part2:
            if min(parts) < 2:
                fail(f'chunk {label} breaks with {parts} lines on its pages {sorted(per_page)}')
        elif total <= 15:
            fail(f'chunk {label} ({total} lines) breaks across pages {sorted(per_page)}: {parts}')
        elif min(parts) < 4:
            fail(f'chunk {label} breaks with {parts} lines on its pages {sorted(per_page)}')
    print(f'chunks: {len(chunks)}, of which {split} break across pages')
    # the reader's book, Part I with the pages before it, is at most 250
    # pages: the program is Part II
    if part2 > len(parsed):
        fail('no page opens Part II')
    elif part2 - 1 > 250:
        fail(f'Part I ends on p{part2 - 1}, over 250 pages')
    print(f'Part I and the pages before it: {part2 - 1} pages; Part II: {len(parsed) - part2 + 1}')

    # 2a. a line of code's number stands in the outer margin, never beside
    # the spine (the left of a right-hand, odd, page; the right of a
    # left-hand one)
    lines = spine = 0
    for p in parsed:
        for r in p['body']:
            if r['code']:
                lines += 1
                if r['number_left'] == (p['n'] % 2 == 1):
                    spine += 1
                    if spine <= 5:
                        fail(f'p{p["n"]}: line {r["text"][:30]!r} has its number beside the spine')
    if spine > 5:
        fail(f'{spine} lines of code in all have their number beside the spine')
    print(f'lines of code: {lines}, {spine} numbered beside the spine')

    # 4. headings at the foot of a page
    for p in parsed:
        body = [r for r in p['body'] if not r['chapter']]
        for i, r in enumerate(body):
            if r['heading'] and len(body) - i - 1 < 3:
                fail(f'p{p["n"]}: heading "{r["text"][:40]}" has {len(body) - i - 1} lines under it')

    # 5. the make-up: how full each page is, measured from the top of the
    # text block to the foot of its last row
    text_top = min(r['y0'] for p in parsed for r in p['body'])
    text_bottom = statistics.quantiles([p['body'][-1]['y1'] for p in parsed if p['body']], n=10)[-1]
    fill = lambda p: (p['body'][-1]['y1'] - text_top) / (text_bottom - text_top)
    def starts_chapter(p):
        return any(r['chapter'] for r in p['body'][:3]) or p['head'].strip() == ''
    front = next((p['n'] for p in parsed
                  if any(r['chapter'] and r['text'].strip() == '1' for r in p['body'])), 1)
    # the main matter: the pages after the last one numbered in roman
    roman = re.compile(r'^[ivxl]+$')
    def folio(p):
        words = p['head'].split()
        return (words[0] if p['n'] % 2 == 0 else words[-1]) if words else p['foot'].strip()
    main_start = 1 + max((p['n'] for p in parsed if roman.match(folio(p))), default=0)
    blank = [p['n'] for p in parsed if not p['body'] and not p['head'].strip()]

    def ends_chapter(i):
        """Page i (0-based) is its chapter's last: a chapter or the end follows."""
        nxt = next((q for q in parsed[i + 1:] if q['body']), None)
        return nxt is None or starts_chapter(nxt)

    # 5a. no page of a chapter or appendix under two-thirds full, unless
    # it ends its chapter
    short_pages = []
    for i, p in enumerate(parsed):
        if p['n'] < main_start or not p['body'] or ends_chapter(i):
            continue
        if fill(p) < 2 / 3:
            short_pages.append(p['n'])
            fail(f'p{p["n"]}: the page is {fill(p):.0%} full, under two-thirds, '
                 'in the middle of its chapter')
    # 5b. no chapter tail under a quarter of a page (a chapter of one page
    # is not a tail)
    short_tails = []
    for i, p in enumerate(parsed):
        if p['n'] < main_start or not p['body'] or not ends_chapter(i) or starts_chapter(p):
            continue
        if fill(p) < 1 / 4:
            short_tails.append(p['n'])
            fail(f'p{p["n"]}: the last page of its chapter is {fill(p):.0%} full, '
                 'under a quarter')
    # 5c. no lone brace: a page does not begin with a line of code that
    # only closes a block
    braces = []
    for p in parsed:
        first = p['body'][0] if p['body'] else None
        if first and first['code'] and re.match(r'^[\s}{)\];,]*$', ' '.join(
                w['text'] for w in first['codewords'])):
            braces.append(p['n'])
            fail(f'p{p["n"]}: a lone "{first["text"]}" at the top of the page'
                 + ('' if first['codewords'] else ' (a blank line of code)'))
    print(f'pages: {len(parsed)}, {len(blank)} blank; main matter from p{main_start}; '
          f'{len(short_pages)} pages under two-thirds full mid-chapter, '
          f'{len(short_tails)} chapter tails under a quarter page, {len(braces)} lone braces')

    # 5d. an exercise's box is kept with the chunk after it: the next chunk
    # head is on the box's page
    boxes = 0
    for i, p in enumerate(parsed):
        for j, r in enumerate(p['body']):
            if not re.match(r'^Exercise \d+\. ', r['text']):
                continue
            boxes += 1
            later = [(q['n'], s) for q in parsed[i:] for s in q['body']][j + 1:]
            head = next((n for n, s in later if s['chunkhead']), None)
            if head != p['n']:
                fail(f'p{p["n"]}: "{r["text"][:20]}" stands on p{p["n"]}, '
                     f'the chunk after its box on p{head}')
    print(f'exercise boxes: {boxes}, each on the page of the chunk after it')

    # 5e. running heads: a head that names a chunk "continued" only on a
    # page that begins inside that chunk's code, and no head in capitals
    # (a table or figure may float to the top, above the chunk's code:
    # the page begins inside a chunk if a line of code comes before any
    # chunk's head)
    for p in parsed:
        first = next((r for r in p['body'] if r['code'] or r['chunkhead']), None)
        if 'continued' in p['head'] and not (first and first['code']):
            fail(f'p{p["n"]}: the head says "{p["head"]}" on a page that begins outside code')
        words = [w for w in p['head'].split() if not re.match(r'^(\d+|[ivxl]+)$', w)]
        letters = re.sub(r'[^A-Za-z]', '', ' '.join(words))
        if len(letters) >= 5 and letters == letters.upper():
            fail(f'p{p["n"]}: a head in capitals: "{p["head"]}"')

    # 6. widows and orphans: a paragraph's lines are full-width prose rows
    # a line apart; a paragraph starts after a larger gap
    for p in parsed:
        body = p['body']
        if len(body) < 2:
            continue
        a, b = body[0], body[1]
        if a['prose'] and not a['full'] and not a['heading'] and b['y1'] - a['y1'] > 16 \
                and p['n'] > 1:
            prev = parsed[p['n'] - 2]['body']
            if prev and prev[-1]['full']:
                fail(f'p{p["n"]}: a widow at the top: "{a["text"][:40]}"')
        y, z = body[-2], body[-1]
        if z['full'] and z['y1'] - y['y1'] > 16 and p['n'] < len(parsed):
            nxt = parsed[p['n']]['body']
            # in the contents, an entry at the foot is alone only if the
            # next page begins with its sections, set further in than the
            # page's entries (the front matter's pages have margins of
            # their own: measured on the page, not from the body's)
            if p['n'] < front:
                alone = nxt and nxt[0]['x0'] - min(r['x0'] for r in nxt) > 4
            else:
                alone = nxt and nxt[0]['prose']
            if alone:
                fail(f'p{p["n"]}: an orphan at the foot: "{z["text"][:40]}"')

    if aux:
        tables_and_references(pdf, aux, pages, fail)

    print(f'{len(failures)} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(*sys.argv[1:3]))
