#!/bin/sh
# Tests of the literate build, one function per test; run from the top of
# the repository as `sh tests/build_tests.sh NAME`.  Each prints what it
# found and exits non-zero on failure.  tests/test_build.c runs them under
# cmocka.
set -u
NW=attention.nw

# A scratch copy of what a reader checks out, to edit without harm.
scratch_copy() {
    dir=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX") || exit 1
    cp -R $NW Makefile tangled tests book "$dir"/ || exit 1
    rm -f "$dir"/book/attention.html "$dir"/book/attention.pdf
    echo "$dir"
}

# tangled/ is committed: it must be exactly what notangle (plain, without
# #line directives) makes of attention.nw, and it must read as C written by
# hand: no #line, and every function separated from the one before by a
# blank line.
tangle_is_fresh() {
    status=0
    roots=$(noroots $NW | sed 's/^<<\(.*\)>>$/\1/')
    for root in $roots; do
        if ! notangle -R"$root" $NW | cmp -s - "tangled/$root"; then
            echo "tangled/$root differs from a fresh tangle of $NW (run make tangle)"
            status=1
        fi
    done
    for file in tangled/*; do
        name=${file#tangled/}
        echo "$roots" | grep -qx "$name" || { echo "$file is not a root of $NW"; status=1; }
    done
    if grep -l '^#line' tangled/*; then echo "#line directives in tangled/"; status=1; fi
    # a function's opening line at the margin must follow a blank line or a comment
    awk 'FNR == 1 { prev = "" }
         /^[A-Za-z].*\($/ || /^[A-Za-z][^;]*\)$/ {
             if (getline next_line > 0 && next_line == "{" && prev != "" && prev !~ /\*\/$/ && prev !~ /^\/\*/)
                 { print FILENAME ": no blank line before: " $0; bad = 1 }
             prev = next_line; next }
         { prev = $0 } END { exit bad }' tangled/*.c || status=1
    [ $status = 0 ] && echo "tangled/ equals a fresh plain tangle of: $(echo $roots)"
    return $status
}

# Editing a prose paragraph re-tangles (a file is written only when it
# changes): no tangled file, object file or program changes, so nothing is
# recompiled and no experiment reruns (the results directory is
# untouched); the weave remakes the woven Markdown.  Checked by file times,
# on a copy of the built tree (cp -p keeps the times, so the copy starts up
# to date).  After each edit make runs for real everything up to the
# weave: the tangle, the program, the live book's module, the model, the
# experiments' results and figures, and the woven Markdown.  It does not
# weave the books again (the LaTeX document, the HTML and the PDF are made
# from the Markdown by make's plain dependencies, as make itself and the
# tests of the books do): that took 2.4 of this test's 2.6 minutes, to
# show what the Makefile's dependencies say.  The claim tested is that
# nothing before the weave reruns.
prose_edit_recompiles_nothing() {
    B=${B:-build}; san=0; [ "$B" = build-san ] && san=1
    # the student edition's Makefile has the teacher's rules for the tangle,
    # the compiler and the weave (it only reads its results from results/):
    # the teacher's make check runs this test on them, and the course test
    # builds the edition's books
    [ "${EDITION:-teacher}" = student ] &&
        { echo "skipped: the student edition weaves by the teacher's rules (make check runs this test)"; return 77; }
    [ -f $B/attention.md ] || { echo "$B/attention.md not built (run make)"; return 1; }
    dir=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX") || return 1
    cp -Rp $NW Makefile tangled tests book $B "$dir"/ || return 1
    # the copy is no git checkout: it gets the book's date, commit and
    # state from the build ($B/book-date: the date's three words, the
    # commit, "changed" or nothing), so that its first make has nothing to
    # weave again (given the date alone, it wove both books: a minute of
    # one core)
    set -- $(cat $B/book-date 2>/dev/null)
    date="${1:-} ${2:-} ${3:-}" commit=${4:-} changed=${5:-}
    stamp="BOOK_DATE=$date BOOK_COMMIT=$commit BOOK_CHANGED=$changed"
    (cd "$dir" && make -s SANITIZE=$san BOOK_DATE="$date" BOOK_COMMIT="$commit" BOOK_CHANGED="$changed" \
         >/dev/null 2>&1) || { echo "build failed"; rm -rf "$dir"; return 1; }
    cmp -s "$dir/$B/book-date" $B/book-date || { echo "the copy's book-date differs: $stamp"; rm -rf "$dir"; return 1; }
    # everything before the weave, and the weave's first step
    upto="$B/tangle.stamp program $B/results.stamp $B/attention.md"
    [ $san = 1 ] || upto="$upto $B/web.wasm"
    status=0
    # edit_and_check SED-EXPRESSION WHAT EXPECTED-CHANGED-FILES
    edit_and_check() {
        watched="tangled $B/src $B/*.o $B/attention $B/model.ckpt $B/results $B/results/fig $B/fig \
                 $B/attention.md $([ $san = 1 ] || echo $B/web $B/web.wasm)"
        (cd "$dir" && ls -l --time-style=+%s.%N $watched) > "$dir/before.txt"
        sleep 1
        sed "$1" "$dir/$NW" > "$dir/nw.tmp" && mv "$dir/nw.tmp" "$dir/$NW"
        log=$(cd "$dir" && make SANITIZE=$san BOOK_DATE="$date" BOOK_COMMIT="$commit" \
                  BOOK_CHANGED="$changed" $upto 2>&1) || { echo "make failed after $2:"; echo "$log"; status=1; return; }
        (cd "$dir" && ls -l --time-style=+%s.%N $watched) > "$dir/after.txt"
        changed=$(diff "$dir/before.txt" "$dir/after.txt" | sed -n 's/^> .* //p' | sort -u | tr '\n' ' ')
        ran=$(printf '%s\n' "$log" | grep -E "^(cc|gcc|clang|$B/attention) " | cut -c1-100)
        if [ "$changed" != "$3" ] || [ -n "$ran" ]; then
            echo "FAIL: $2 remade [$changed], expected [$3]"; printf '%s\n' "$log"; status=1
        else
            echo "$2: make $upto remade only [$changed]; it ran:"
            printf '%s\n' "$log" | grep -v '^ ' | cut -c1-100 | sed 's/^/    /'
        fi
    }
    # the first prose line after the title block, edited within its line
    edit_and_check '/^This book is a program/s/$/ /' "a space added to the preface" "$B/attention.md "
    edit_and_check 's/^This book is a program\./This book is one program./' \
        "a word changed in the preface" "$B/attention.md "
    rm -rf "$dir"
    return $status
}

# An edit to the code of one topic of the experiments reruns that topic and
# nothing else: not the training of the book's model, not the other topics
# (only the table of claim checks, which joins every topic's).
# The test edits the routing proofs, a topic that runs in a fraction of a
# second, in a copy of the finished build (times kept).  An edit that only
# moves code (a blank line added in a chunk of the core) recompiles the
# program, so that its line numbers stay right, but reruns nothing.  An
# edit to the command line (main.c) trains the book's model again, finds
# it the same, and reruns nothing after it (issue 38, item 6).
experiment_edit_reruns_its_part() {
    [ "${EDITION:-teacher}" = student ] &&
        { echo "skipped: the student edition runs no experiment (its results/ are shipped)"; return 77; }
    B=${B:-build}
    [ "$B" = build-san ] &&
        { echo "skipped: the sanitizer build copies the plain build's results (make check runs this test on them)"; return 77; }
    san=0; [ "$B" = build-san ] && san=1
    dir=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX") || return 1
    cp -Rp $NW Makefile tangled tests book "$B" "$dir"/ || { rm -rf "$dir"; return 1; }
    (cd "$dir" && make -s SANITIZE=$san $B/results.stamp >/dev/null 2>&1) \
        || { echo "the copied build is not complete"; rm -rf "$dir"; return 1; }
    stamps="$B/model.ckpt $(cd "$dir" && ls $B/topic-*.stamp | tr '\n' ' ')"
    status=0
    # edit_and_check AWK-PROGRAM WHAT STAMPS-EXPECTED-TO-CHANGE
    edit_and_check() {
        before=$(cd "$dir" && ls -l --time-style=+%s.%N $stamps $B/attention)
        sleep 1
        awk "$1" "$dir/$NW" > "$dir/nw.tmp" && mv "$dir/nw.tmp" "$dir/$NW"
        log=$(cd "$dir" && make SANITIZE=$san $B/results.stamp 2>&1) \
            || { echo "$log"; status=1; return; }
        after=$(cd "$dir" && ls -l --time-style=+%s.%N $stamps $B/attention)
        echo "after $2, make ran:"
        echo "$log" | grep -E 'attention (train|figures)|-c .*\.c' \
            | sed 's/.* -c \([^ ]*\) .*/compiled \1/; s/^/    /'
        for s in $stamps; do
            old=$(echo "$before" | grep " $s\$"); new=$(echo "$after" | grep " $s\$")
            if echo " $3 " | grep -q " $s "; then
                [ "$old" != "$new" ] || { echo "FAIL: $s was not remade"; status=1; }
            else
                [ "$old" = "$new" ] || { echo "FAIL: $s was remade"; status=1; }
            fi
        done
    }
    # a comment after the first line of code of the routing proofs
    edit_and_check 'done != 1 && prev ~ /^<<the routing proofs>>=$/ {
                        $0 = $0 " /* edited */"; done = 1 } { prev = $0; print }' \
        "an edit to the routing proofs' code" "$B/topic-routing.stamp $B/topic-claims.stamp"
    # a blank line before the first chunk of the core: its code moves down
    edit_and_check 'done != 1 && /^<<the task>>=$/ { print ""; done = 1 } { print }' \
        "a blank line that moves the core's code" ""
    # a comment after the first line of code of the ask command
    edit_and_check 'done != 1 && prev ~ /^<<the \[\[ask\]\] command>>=$/ {
                        $0 = $0 " /* edited */"; done = 1 } { prev = $0; print }' \
        "an edit to the command line's code" ""
    rm -rf "$dir"
    return $status
}

# Every line chart of the book can be read on a page printed in grey:
# series that only hue tells apart are refused (tests/grey.py).  First the
# check itself must refuse two solid lines in the palette's blue and
# vermilion, as the ablation figures once drew them.
# The wiring figure draws every table of the model's table of tables
# with its name and its shape, rows by columns, as often as the table
# lists that shape (the program refuses to draw a list of stages that
# misses a table; this checks what it drew against what it printed).
wiring_draws_every_table() {
    B=${B:-build}
    results=$B/results; [ "${EDITION:-teacher}" = student ] && results=results
    svg=$results/fig/wiring.svg table=$results/gpt_tables.md
    [ -f $svg ] && [ -f $table ] || { echo "no $svg or $table (run make)"; return 1; }
    awk -F'|' -v svg="$svg" '
        BEGIN { while ((getline line < svg) > 0) drawn = drawn line "\n" }
        $3 ~ /`/ { name = $3; gsub(/[ `]/, "", name)
                   shape = ($4 + 0) " \303\227 " ($5 + 0); n++
                   want[shape]++
                   if (index(drawn, ">" name "<") == 0) { print "the wiring figure has no table " name; bad = 1 } }
        END { for (shape in want) {
                  s = drawn; count = 0
                  while ((i = index(s, ">" shape "<")) > 0) { count++; s = substr(s, i + 1) }
                  if (count != want[shape]) { print "the wiring figure draws " count " tables of " shape ", the table lists " want[shape]; bad = 1 } }
              if (n < 2) { print "no tables read from the table of tables"; bad = 1 }
              if (!bad) print "the wiring figure draws all " n " tables, each with its shape"
              exit bad }' $table
}

line_charts_survive_grey() {
    B=${B:-build}
    results=$B/results; [ "${EDITION:-teacher}" = student ] && results=results
    ls $results/fig/*.svg > /dev/null 2>&1 || { echo "no figures in $results/fig (run make)"; return 1; }
    work=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX")
    printf '%s\n' '<svg>' \
        '<path fill="none" stroke="#0072B2" stroke-width="2" d="M 0 0 L 1 1"/>' \
        '<path fill="none" stroke="#D55E00" stroke-width="2" d="M 0 1 L 1 0"/>' '</svg>' > $work/hue.svg
    if python3 tests/grey.py $work/hue.svg > /dev/null; then
        echo "tests/grey.py passed two lines that only hue tells apart"; rm -rf $work; return 1
    fi
    printf '%s\n' '<svg>' \
        '<path fill="none" stroke="#0072B2" stroke-width="2" stroke-linejoin="round" d="M 0 0"/>' \
        '<path fill="none" stroke="#80B8D8" stroke-width="2" stroke-linejoin="round" d="M 0 0"/>' \
        '<path fill="none" stroke="#D55E00" stroke-width="2" stroke-linejoin="round" stroke-dasharray="7 4" d="M 0 0"/>' \
        '<path fill="none" stroke="#EAAE80" stroke-width="2" stroke-linejoin="round" stroke-dasharray="7 4" d="M 0 0"/>' \
        '</svg>' > $work/tangle.svg
    if python3 tests/grey.py $work/tangle.svg > /dev/null; then
        echo "tests/grey.py passed two groups of shaded lines told apart by dashes alone"; rm -rf $work; return 1
    fi
    rm -rf $work
    python3 tests/grey.py $results/fig/*.svg $results/fig/narrow/*.svg
}

# Every figure keeps the standard of the figures appendix (tests/figures.py):
# one size of text in all of them, at least 7 pt when 760 px print 115 mm
# wide; the minus sign U+2212, never a hyphen, before a number; a diverging
# map's negative side marked, so that it reads in grey; and each figure
# cited as @fig:NAME in its chapter's prose.  The checker is first shown a
# figure that breaks each rule, and must fail it.  The phone's drawings
# (fig/narrow/) keep the same standard, one for every figure, each at
# most 380 pixels wide (NARROW_WIDTH) so that a phone shows it whole.
figures_keep_the_standard() {
    B=${B:-build}
    results=$B/results; [ "${EDITION:-teacher}" = student ] && results=results
    ls $results/fig/*.svg > /dev/null 2>&1 || { echo "no figures in $results/fig (run make)"; return 1; }
    work=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX")
    printf '%s\n' '# One {-}' '@fig:bad' '![cap](fig/bad.svg){#fig:bad}' > $work/book.nw
    sed -n '/pagella_width\[95\] = {/,/};/p' $NW >> $work/book.nw
    printf '%s\n' '<svg width="760" height="100" font-family="TeX Gyre Pagella, serif">' \
        '<defs><linearGradient id="bar-1-1"><stop stop-color="#2166ac"/><stop stop-color="#f7f7f7"/>' \
        '<stop stop-color="#b2182b"/></linearGradient></defs>' \
        '<rect x="700" y="0" width="14" height="100" fill="url(#bar-1-1)"/>' \
        '<line x1="703.5" y1="90" x2="710.5" y2="90" stroke="#ffffff"/>' \
        > $work/good.svg
    printf '<text x="1" y="1" font-size="17">\342\210\2222</text>\n</svg>\n' >> $work/good.svg
    if ! /usr/bin/python3 tests/figures.py $work/book.nw $work/good.svg > /dev/null; then
        echo "tests/figures.py failed a figure that keeps the standard"; rm -rf $work; return 1
    fi
    for bad in 's/font-size="17"/font-size="13"/' 's/Gyre Pagella/DejaVu Sans/' 's/ 250,/ 251,/' 's/>.*2</>-2</' '/<line /d' 's/@fig:bad/the figure/'; do
        sed "$bad" $work/good.svg > $work/bad.svg; sed "$bad" $work/book.nw > $work/bad.nw
        if /usr/bin/python3 tests/figures.py $work/bad.nw $work/bad.svg > /dev/null; then
            echo "tests/figures.py passed a figure edited by $bad"; rm -rf $work; return 1
        fi
    done
    rm -rf $work
    for f in $results/fig/*.svg; do
        narrow=$results/fig/narrow/${f##*/}
        [ -f $narrow ] || { echo "no phone's drawing of ${f##*/} in $results/fig/narrow"; return 1; }
        width=$(sed -n 's/.*<svg [^>]*width="\([0-9.]*\)".*/\1/p' $narrow | head -1)
        awk -v w="$width" 'BEGIN { exit !(w > 0 && w <= 380) }' \
            || { echo "$narrow is $width pixels wide, more than a phone's 380"; return 1; }
    done
    /usr/bin/python3 tests/figures.py $NW $results/fig/*.svg $results/fig/narrow/*.svg
}

# The PDF book: the teacher's make builds it; the student edition's make
# builds the HTML only and the PDF on request, so there a test of the PDF
# skips until the student asks for it, and says how.  $1: the file the
# test reads (book/attention.pdf, or the weave's files under $B).
pdf_built() {
    [ -f "$1" ] && return 0
    if [ "${EDITION:-teacher}" = student ]; then
        echo "skipped: $1 comes with the PDF book (make book/attention.pdf makes it)"; return 77
    fi
    echo "$1 not built (run make)"; return 1
}

# Figures are numbered by chapter in both books, and the text's "Figure
# C.N" names a caption that exists: in the PDF (pdftotext), captions read
# "Figure C.N:"; in the HTML they start with "Figure C.N." and every
# reference is a link to its figure (checked by checklinks).
figure_references_agree() {
    pdf_built book/attention.pdf || return $?
    [ -f book/attention.html ] || { echo "book/attention.html not built (run make)"; return 1; }
    command -v pdftotext > /dev/null || { echo "pdftotext is not installed"; return 1; }
    text=$(pdftotext book/attention.pdf - | tr "\n\f" "  ")
    captions=$(echo "$text" | grep -ao 'Figure [0-9]*\.[0-9]*:' | tr -d ':' | sort -u)
    mentions=$(echo "$text" | grep -ao 'Figure [0-9][0-9.]*[^:0-9.]' | sed 's/.$//; s/\.*$//' | sort -u)
    [ -n "$captions" ] || { echo "no numbered caption in the PDF"; return 1; }
    status=0
    for m in $(echo "$mentions" | sed 's/Figure //'); do
        echo "$captions" | grep -qx "Figure $m" || { echo "the PDF's text names Figure $m, which has no caption"; status=1; }
    done
    html=$(grep -o '<figcaption[^>]*><strong>Figure [0-9]*\.[0-9]*\.' book/attention.html \
           | sed 's/.*Figure \([0-9.]*\)\./Figure \1/' | sort -u)
    [ "$html" = "$captions" ] || { echo "HTML captions [$(echo $html)] differ from the PDF's [$(echo $captions)]"; status=1; }
    [ $status = 0 ] && echo "$(echo "$captions" | wc -l) figures, numbered alike in both books; the text names $(echo "$mentions" | grep -c .) of them, each an existing caption"
    return $status
}

# Tables and appendices are numbered alike in both books: the PDF's
# captions "Table C.N: ..." and the HTML's "Table C.N. ..." are the same
# numbers with the same captions' first words, and the appendices have the
# same letters and titles in both contents.
tables_and_appendices_agree() {
    pdf_built book/attention.pdf || return $?
    html=${B:-build}/attention.pandoc.html
    [ -f "$html" ] || { echo "$html not built (run make)"; return 1; }
    pdftotext book/attention.pdf - | python3 -c '
import html, re, sys
norm = lambda s: re.sub(r"\s+", " ", s.replace("\u2019", "\x27")).strip()
pdf = norm(sys.stdin.read())
page = open(sys.argv[1], encoding="utf-8").read()
text = lambda s: norm(html.unescape(re.sub(r"<[^>]*>", "", s)))
p_tables = [(n, c[:30]) for n, c in re.findall(r"Table ([0-9A-Z]+\.[0-9]+): (.{30})", pdf)]
h_tables = [(n, text(c)[:30]) for n, c in
            re.findall(r"<caption><strong>Table ([0-9A-Z]+\.[0-9]+)\.</strong>(.*?)</caption>", page, re.S)]
h_tables = [(n, c.strip()[:30]) for n, c in h_tables]
p_tables = [(n, c.strip()[:30]) for n, c in p_tables]
toc = page[page.find("<nav id=\"TOC\""):page.find("</nav>")]
h_apps = [(l, text(t)) for l, t in
          re.findall(r"toc-section-number\">([A-Z])</span>(.*?)</a>", toc, re.S)]
contents = pdf[:pdf.find(h_apps[-1][1]) + 200] if h_apps else ""
bad = []
if not p_tables or [n for n, _ in p_tables] != [n for n, _ in h_tables]:
    bad.append("tables: the PDF has %s, the HTML %s" % ([n for n, _ in p_tables], [n for n, _ in h_tables]))
for (a, x), (b, y) in zip(p_tables, h_tables):
    if x[:20] != y[:20]:
        bad.append("Table %s: the PDF says \"%s\", the HTML \"%s\"" % (a, x, y))
if [l for l, _ in h_apps] != [chr(65 + k) for k in range(len(h_apps))] or not h_apps:
    bad.append("the HTML contents letter the appendices %s" % [l for l, _ in h_apps])
for l, t in h_apps:
    if (l + " " + t) not in pdf:
        bad.append("the PDF has no \"%s %s\"" % (l, t))
for b in bad[:10]:
    print(b)
print("%d tables numbered and captioned alike in both books; appendices %s lettered alike" %
      (len(h_tables), "".join(l for l, _ in h_apps)))
sys.exit(1 if bad else 0)
' "$html"
}

# The apparatus of a book (issue 36, item 2), in both books as built:
#  - every chapter (1-10) ends with "Further reading", citing at least one
#    work, and every citation links to its entry in the References;
#  - the subject index: in the PDF every page an entry gives shows the
#    term (its first word, hyphenation undone, case ignored); in the HTML
#    every entry links to a place that shows it;
#  - the authors (LICENSE's copyright holders) on the title page;
#  - the colophon, last, names the faces the book is set in, each one
#    that the PDF embeds (pdffonts) or the page embeds (@font-face), and
#    the commit it was built from, that of git rev-parse HEAD, saying so
#    if the book's sources differ from it (outside git: no commit).
book_apparatus() {
    pdf_built book/attention.pdf || return $?
    html=${B:-build}/attention.pandoc.html page=${B:-build}/attention.html
    [ -f "$html" ] && [ -f "$page" ] || { echo "$html or $page not built (run make)"; return 1; }
    commit=$(git rev-parse --short=12 HEAD 2>/dev/null)
    changed=""
    if [ -n "$commit" ] && git status --porcelain --untracked-files=no -- $NW book Makefile 2>/dev/null \
         | grep -q .; then changed=yes; fi
    authors=$(sed -n 's/^ *Copyright (c) [0-9]* //p' LICENSE | head -1)
    pdffonts book/attention.pdf > "${TMPDIR:-/tmp}/fonts.$$" || return 1
    pdftotext -layout book/attention.pdf - | python3 -c '
import html, re, sys
pdf_pages = sys.stdin.read().split("\f")
src, page_file, fonts_file, commit, changed, authors = sys.argv[1:7]
doc = open(src, encoding="utf-8").read()
page = open(page_file, encoding="utf-8").read()
fonts = open(fonts_file).read()
bad = []
text = lambda s: re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]*>", " ", s))).strip()
# further reading, chapter by chapter
chapters = re.split(r"<h1 data-number=\"\d+\"", doc)[1:]
read = 0
for k, ch in enumerate(chapters, 1):
    ch = re.split(r"<h1 ", ch)[0]
    m = re.search(r"<h2[^>]*>Further reading</h2>(.*)$", ch, re.S)
    if not m:
        bad.append("chapter %d has no Further reading" % k); continue
    if not re.search(r"href=\"#ref-", m.group(1)):
        bad.append("chapter %d: its Further reading cites nothing" % k); continue
    if re.search(r"<h2", m.group(1)):
        bad.append("chapter %d: Further reading is not its last section" % k)
    read += 1
cited = set(re.findall(r"href=\"#(ref-[^\"]+)\"", doc))
entries = set(re.findall(r"id=\"(ref-[^\"]+)\"", doc))
for c in sorted(cited - entries):
    bad.append("a citation of %s, which the References lack" % c)
# the printed index: entries "term, 12, 45" on the pages after "Index"
printed = {}
for i, t in enumerate(pdf_pages):
    lines = [l.strip() for l in t.split("\n") if l.strip()]
    if not lines: continue
    m = (re.match(r"^\S.*\s{2,}(\d+)$", lines[0]) or re.match(r"^(\d+)\s{2,}\S", lines[0])
         or re.match(r"^(\d+)$", lines[-1]))
    if m: printed[m.group(1)] = t
flat = lambda t: re.sub(r"[^a-z0-9]", "", re.sub(r"-\n\s*", "", t).lower())
start = next((i for i, t in enumerate(pdf_pages) if re.search(r"^\s*Index\s*$", t, re.M)
              and re.search(r"^\s*\S.*, \d+", t, re.M)), None)
entries_pdf, places, missing = 0, 0, []
if start is None:
    bad.append("the PDF has no Index")
else:
    body = " \n".join(pdf_pages[start:start + 6])
    # it ends where the index of chunks, or Part II, begins
    end = re.search(r"Index of chunks|^\s*Part II\s*$", body, re.M)
    body = body[:end.start()] if end else body
    joined = re.sub(r",\s*\n\s*(?=\d)", ", ", body)
    for term, nums in re.findall(r"([A-Za-z][A-Za-z0-9 -]*[A-Za-z0-9]), ((?:\d+, )*\d+)(?!\d)", joined):
        entries_pdf += 1
        word = re.sub(r"[^a-z0-9]", "", term.split()[0].lower())[:4]
        for n in nums.split(", "):
            places += 1
            if word not in flat(printed.get(n, "")):
                missing.append("%s on p. %s" % (term, n))
    if entries_pdf < 30:
        bad.append("the PDF index has %d entries" % entries_pdf)
    for m in missing[:8]:
        bad.append("the PDF index gives " + m + ", which does not show it")
# the index on the page
m = re.search(r"<h1[^>]*id=\"index\"[^>]*>.*?</h1>(.*?)<h1 ", doc, re.S)
entries_html, links = 0, 0
if not m:
    bad.append("the HTML has no Index")
else:
    for item in re.findall(r"<li>(.*?)</li>", m.group(1), re.S):
        entries_html += 1
        term = text(item.split("<a ")[0]).rstrip(",").strip()
        for target in re.findall(r"href=\"#(idx-\d+)\"", item):
            links += 1
            t = re.search(r"<span id=\"" + target + r"\">(.*?)</span>", doc, re.S)
            if not t or re.sub(r"[^a-z0-9]", "", term.split()[0].lower())[:4] \
                    not in re.sub(r"[^a-z0-9]", "", text(t.group(1)).lower()):
                bad.append("the HTML index links %s to %s, which does not show it" % (term, target))
# the authors on the title page
if authors not in pdf_pages[0]:
    bad.append("the PDF title page does not name %s" % authors)
if not re.search(r"<p class=\"author\">" + re.escape(authors) + "</p>", doc):
    bad.append("the HTML title does not name %s" % authors)
# the colophon: last, its faces embedded, its commit
col_pdf = next((t for t in reversed(pdf_pages) if "Colophon" in t), "")
col_pdf = re.sub(r"\s+", " ", re.sub(r"-\n\s*", "", col_pdf))
last_h1 = re.findall(r"<h1[^>]*id=\"([^\"]+)\"", doc)[-1:]
if last_h1 != ["colophon"]:
    bad.append("the HTML book ends with %s, not the colophon" % last_h1)
col_html = text(doc[doc.find("id=\"colophon\""):])
faces_pdf = {"URW Palladio L": "URWPalladioL", "Latin Modern Mono": "LMMono",
             "TeX Gyre Pagella": "TeXGyrePagella", "PX fonts": "Rpx"}
faces_html = {"TeX Gyre Pagella": "\"TeX Gyre Pagella\"", "DejaVu Sans Mono": "\"DejaVu Sans Mono\"",
              "KaTeX": "KaTeX_Main"}
for face, name in faces_pdf.items():
    if face not in col_pdf: bad.append("the PDF colophon does not name %s" % face)
    elif name not in fonts: bad.append("the PDF colophon names %s, which the PDF does not embed" % face)
for face, name in faces_html.items():
    if face not in col_html: bad.append("the HTML colophon does not name %s" % face)
    elif "@font-face{font-family:" + name not in page: bad.append("the HTML colophon names %s, which the page does not embed" % face)
for where, col in (("PDF", col_pdf), ("HTML", col_html)):
    if commit:
        if ("commit " + commit) not in col: bad.append("the %s colophon does not name commit %s" % (where, commit))
        if bool(changed) != ("not yet committed" in col):
            bad.append("the %s colophon says the sources %s the commit" % (where, "match" if changed else "differ from"))
    elif "names no commit" not in col:
        bad.append("the %s colophon names a commit outside git" % where)
for b in bad[:20]:
    print(b)
print("further reading at the end of %d of %d chapters; %d works cited, each in the References; "
      "the PDF index: %d entries, %d pages each showing its term; the HTML index: %d entries, %d links; "
      "authors %s on the title page; the colophon names the faces and %s" %
      (read, len(chapters), len(cited), entries_pdf, places - len(missing), entries_html, links, authors,
       ("commit " + commit + (" (with changes)" if changed else "")) if commit else "no commit"))
sys.exit(1 if bad or read < 10 else 0)
' "$html" "$page" "${TMPDIR:-/tmp}/fonts.$$" "$commit" "$changed" "$authors"
    status=$?; rm -f "${TMPDIR:-/tmp}/fonts.$$"; return $status
}

# C's ^ prints, and copies from the PDF, as ^, not as a lone circumflex
# accent (pandoc writes it \^{}; the preamble and book.lua make it the
# character): the PDF's text holds no U+02C6.
pdf_carets_are_carets() {
    pdf_built book/attention.pdf || return $?
    command -v pdftotext > /dev/null || { echo "pdftotext is not installed"; return 1; }
    accents=$(pdftotext book/attention.pdf - | grep -c "$(printf '\313\206')")
    carets=$(pdftotext book/attention.pdf - | grep -c '\^')
    [ "$accents" = 0 ] || { echo "$accents lines of the PDF hold a circumflex accent for ^"; return 1; }
    echo "the PDF's text has ^ on $carets lines and no lone circumflex"
}

# Code is kept within the printed width at the source: no line of a code
# chunk in attention.nw is wider than 76 columns (tabs at 8, a character
# counted once however many bytes it takes), so that no line wraps in the
# PDF.
code_within_76_columns() {
    python3 - $NW <<'PY'
import re, sys
name, long = None, []
for n, line in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    line = line.rstrip("\n")
    m = re.match(r"^<<(.*)>>=\s*$", line)
    if m:
        name = m.group(1); continue
    if line == "@" or line.startswith("@ ") or line.startswith("@\t"):
        name = None; continue
    width = len(line.expandtabs(8))
    if name is not None and width > 76:
        long.append("%s:%d: <<%s>> %d columns" % (sys.argv[1], n, name, width))
for l in long:
    print(l)
if long:
    print("%d code lines are over 76 columns" % len(long)); sys.exit(1)
print("every code line of %s is at most 76 columns" % sys.argv[1])
PY
}

# The PDF has no overfull box over 1 pt (pdflatex's log of the last pass).
pdf_no_overfull_box() {
    log=${B:-build}/attention.log
    pdf_built "$log" || return $?
    over=$(grep -o 'Overfull \\[hv]box ([0-9.]*pt too [a-z]*) .*' "$log" \
           | awk '{ v = $3; sub(/^\(/, "", v); sub(/pt$/, "", v); if (v + 0 > 1) print }')
    all=$(grep -c 'Overfull \\[hv]box' "$log")
    [ -z "$over" ] || { echo "overfull boxes over 1 pt in $log:"; printf "%s\n" "$over"; return 1; }
    echo "no overfull box over 1 pt in $log ($all overfull boxes in all)"
}

# The printed page as a reader sees it (tests/pdf_layout.py, from
# pdftotext's word boxes): a measure of 60 to 75 characters, chunks that
# break only with 4 lines on each side (never one of 15 lines or fewer),
# a "continued" head on every page that begins inside a chunk, 3 lines
# under every heading, no page under two-thirds full mid-chapter and no
# chapter's last page under a quarter, no widow or orphan;
# one face for the maths (pxfonts), with no symbol falling back to
# Computer Modern; no table column whose cells wrap numbers or header
# words, and no header stacked in more than two lines; curly apostrophes
# in every chunk name.  Tables and references as a book has them (from
# the PDF and the .aux file of its last pass): every table numbered and
# captioned, one of fewer than 10 rows on one page, the appendices
# lettered, a reference to an appendix or a section with its number and
# the page its heading is on.
pdf_page_layout() {
    pdf=book/attention.pdf
    pdf_built "$pdf" || return $?
    aux=${B:-build}/attention.aux
    [ -f "$aux" ] || { echo "$aux not built (run make)"; return 1; }
    /usr/bin/python3 tests/pdf_layout.py "$pdf" "$aux" || return 1
    cm=$(pdffonts "$pdf" | awk 'NR > 2 { sub(/^[A-Z]+\+/, "", $1); print $1 }' | grep '^CM' | sort -u)
    [ -z "$cm" ] || { echo "maths set in Computer Modern too:" $cm; return 1; }
    echo "no Computer Modern font in the PDF: the maths is in one face"
    # code for one-colour print: no highlighting macro sets a colour
    coloured=$(grep -c '^\\newcommand{\\[A-Za-z]*Tok}.*textcolor' ${B:-build}/attention.tex)
    [ "$coloured" = 0 ] || { echo "$coloured kinds of code token set in colour"; return 1; }
    echo "code in black: no kind of code token set in colour"
    # pandoc's own column widths (shares of the line) wrap numbers and
    # header words; book.lua gives none of them
    shares=$(grep -c 'p{(\\columnwidth' ${B:-build}/attention.tex)
    [ "$shares" = 0 ] || { echo "$shares table columns of pandoc's widths, whose cells wrap"; return 1; }
    echo "no table column of pandoc's widths: numbers and header words never wrap"
    stacks=$(grep -o '\\nwstack{[lrc]}{[^}]*\(}[^}&]*\)*}' ${B:-build}/attention.tex |
             awk -F'\\\\\\\\' '{ n++; if (NF > 2) { tall++; print "  " $0 } }
                 END { printf "%d stacked headers, %d in more than two lines\n", n, tall + 0 }')
    echo "$stacks" | tail -1
    echo "$stacks" | tail -1 | grep -q ', 0 in more' || { echo "$stacks" | head -5; return 1; }
    straight=$(pdftotext "$pdf" - | grep -o "⟨[^⟨⟩]*'[^⟨⟩]*⟩" | head -3)
    [ -z "$straight" ] || { echo "chunk names with a straight apostrophe:" $straight; return 1; }
    echo "every chunk name sets its apostrophes curly"
    # paragraphs are spaced to the end of the book: \captionof outside a
    # group set the caption's spacing (none) for every page after it
    loose=$(grep -c '^\\captionof' ${B:-build}/attention.tex)
    [ "$loose" = 0 ] || { echo "$loose captions set by captionof outside a group: paragraphs after them run together"; return 1; }
    echo "every caption set by captionof in a group of its own: paragraphs spaced to the end"
}

# Identifiers in the HTML's code are links to their definitions, as in
# pbrt's web edition: every identifier of noweb's index (an `@ %def` line)
# that a C chunk uses outside a comment or a string, and does not define
# itself, is a link, and the link leads to a chunk whose "Defines" line
# names that identifier.
code_identifiers_linked() {
    html=${B:-build}/attention.html
    [ -f "$html" ] || { echo "$html not built (run make)"; return 1; }
    python3 - "$html" <<'PY'
import html, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
index = page[page.find('id="index-of-identifiers"'):]
idents = set(html.unescape(x) for x in re.findall(r'<span id="ident-[^"]*"><code>([^<]*)</code>', index))
chunks = re.split(r'<div class="nwchunk">', page[:page.find('id="index-of-chunks"')])[1:]
defines, links, bad, unlinked = {}, 0, [], []
for c in chunks:
    m = re.search(r'id="(chunk-[^"]*)"', c)
    uses = c[c.find('class="chunkuses"'):]
    defines[m.group(1) if m else ""] = set(re.findall(r'<a href="#ident-[^"]*"><code>([^<]*)</code></a>', uses))
for c in chunks:
    m = re.search(r'id="(chunk-[^"]*)"', c)
    own = defines.get(m.group(1) if m else "", set())
    code = re.search(r'<code class="sourceCode (\w+)"[^>]*>(.*?)</code></pre>', c, re.S)
    if not code or code.group(1) != "c":
        continue
    body = code.group(2)
    for target, name in re.findall(r'<a href="#(chunk-[^"]*)">([A-Za-z_]\w*)</a>', body):
        links += 1
        if name not in defines.get(target, set()):
            bad.append("%s links to %s, which does not define it" % (name, target))
    # what is left unlinked: the code without its links, comments,
    # strings and chunk references
    rest = re.sub(r'<a [^>]*>.*?</a>', ' ', body)
    rest = re.sub(r'<span class="(co|st|ch)">.*?</span>', ' ', rest)
    rest = html.unescape(re.sub(r'<[^>]*>', ' ', rest))
    for w in re.findall(r'[A-Za-z_]\w*', rest):
        if w in idents and w not in own:
            unlinked.append("%s in %s" % (w, m.group(1) if m else "?"))
for b in bad[:10] + unlinked[:10]:
    print(b)
print("%d identifiers in the index; %d links to a definition in the C chunks' code, "
      "%d to a chunk that does not define it; %d uses left unlinked" % (len(idents), links, len(bad), len(unlinked)))
sys.exit(1 if bad or unlinked or links < 1000 else 0)
PY
}

# One chunk label in both books: a chunk's number, counted through the
# book.  In the PDF (pdftotext) every chunk head "N <name>" carries the
# next number, 1, 2, 3 ... in page order, and every reference
# "<name N>" (uses in code, Used in, Continued in, the index) names a
# head N of that name; the HTML's heads carry the same numbers with the
# same names, and its references name them as the PDF's do.
chunk_labels_agree() {
    pdf_built book/attention.pdf || return $?
    command -v pdftotext > /dev/null || { echo "pdftotext is not installed"; return 1; }
    html=${B:-build}/attention.html
    [ -f "$html" ] || { echo "$html not built (run make)"; return 1; }
    pdftotext -layout book/attention.pdf - | python3 -c '
import html, re, sys
def norm(s):
    return re.sub(r"\s+", " ", s.replace("\u2019", "\x27")).strip()
pdf = sys.stdin.read()
heads, bad = [], []
for m in re.finditer(r"^\s*(\d+) \u27e8([^\u27e9]*?)\u27e9\+?\u2261", pdf, re.M):
    heads.append((int(m.group(1)), norm(m.group(2))))
numbers = [n for n, _ in heads]
if numbers != list(range(1, len(numbers) + 1)):
    gaps = [(a, b) for a, b in zip(numbers, numbers[1:]) if b != a + 1][:5]
    bad.append("the PDF'"'"'s heads are not numbered 1, 2, 3 ... in order: %s" % gaps)
name = dict(heads)
refs = re.findall(r"\u27e8([^\u27e8\u27e9]*?) (\d+)\u27e9", pdf)
for r, n in refs:
    if int(n) not in name:
        bad.append("the PDF names chunk %s, which no head carries" % n)
page = open(sys.argv[1], encoding="utf-8").read()
hheads = []
for m in re.finditer(r"<span class=\"chunknum\">(\d+)</span>(.*?)</span>", page, re.S):
    t = html.unescape(re.sub(r"<[^>]*>", "", m.group(2)))
    hheads.append((int(m.group(1)), norm(re.sub(r"\+?\u2261\s*$", "", t).strip().strip("\u27e8\u27e9"))))
if [n for n, _ in hheads] != numbers:
    bad.append("the HTML has %d chunk heads, the PDF %d, or numbered otherwise" % (len(hheads), len(heads)))
same = sum(1 for (a, x), (b, y) in zip(heads, hheads) if a == b and x[:20] == y[:20])
if same < 0.95 * len(heads):
    bad.append("only %d of %d chunk heads have the same number and name in both books" % (same, len(heads)))
hrefs = re.findall(r"<span class=\"chunklabel\">(?:&#160;|\s|\u00a0)*(\d+)</span>", page)
for n in hrefs:
    if int(n) not in name:
        bad.append("the HTML names chunk %s, which the PDF has no head for" % n)
for b in sorted(set(bad))[:20]:
    print(b)
print("%d chunk heads in the PDF, %d in the HTML, numbered alike, %d with the same name; "
      "%d references in the PDF, %d in the HTML, each to a head" % (len(heads), len(hheads), same, len(refs), len(hrefs)))
sys.exit(1 if bad or len(heads) < 100 or len(refs) < 100 else 0)
' "$html"
}

# A type error put into a chunk makes the compiler name attention.nw and the
# line of the error; a warning put there instead is named the same way, and
# make program goes on to build the program.
compiler_error_names_nw_line() {
    dir=$(scratch_copy)
    line=$(grep -n 'x\[p / 10\] = 1;' "$dir/$NW" | head -1 | cut -d: -f1)
    [ -n "$line" ] || { echo "marker line not found"; rm -rf "$dir"; return 1; }
    cp "$dir/$NW" "$dir/nw.orig"
    sed "${line}s/x\[p \/ 10\] = 1;/x[p \/ 10] = \"one\";/" "$dir/nw.orig" > "$dir/$NW"
    log=$(cd "$dir" && make program 2>&1)
    status=$?
    [ $status != 0 ] || { echo "the broken chunk compiled"; rm -rf "$dir"; return 1; }
    echo "$log" | grep -q "$NW:$line:" || { echo "no error at $NW:$line in:"; echo "$log"; rm -rf "$dir"; return 1; }
    echo "compiler reported: $(echo "$log" | grep "$NW:$line:" | head -1)"
    # a warning is shown at its line, and the build goes on (make check's
    # compile matrix and tests are where warnings are errors)
    sed "${line}s/x\[p \/ 10\] = 1;/{ int unused; x[p \/ 10] = 1; }/" "$dir/nw.orig" > "$dir/$NW"
    log=$(cd "$dir" && make program 2>&1)
    status=$?
    rm -rf "$dir"
    [ $status = 0 ] || { echo "a warning stopped make program:"; echo "$log"; return 1; }
    echo "$log" | grep -q "$NW:$line:.*warning" || { echo "no warning at $NW:$line in:"; echo "$log"; return 1; }
    echo "and a warning, make going on: $(echo "$log" | grep "$NW:$line:" | head -1)"
}

# On a machine without the tools, the dependency step comes first: no rule
# runs cpif, notangle, noroots, pandoc or pdflatex before it, so a fresh
# clone's make prints no "not found".  In a scratch copy, with those
# commands replaced by stand-ins that say they ran, make -k (which goes on
# with every target that does not wait for the failed step) is run with a
# dependency that cannot be met, as a user who is not root: only the
# dependency step's message may appear.
no_tool_before_deps() {
    dir=$(scratch_copy)
    mkdir "$dir/bin"
    for tool in cpif notangle noroots pandoc pdflatex; do
        printf '#!/bin/sh\necho "%s ran before the dependency step"\nexit 1\n' $tool > "$dir/bin/$tool"
    done
    printf '#!/bin/sh\necho 1000\n' > "$dir/bin/id"
    chmod +x "$dir"/bin/*
    log=$(cd "$dir" && PATH="$dir/bin:$PATH" make -k NEEDS=/no/such/file:no-such-package 2>&1)
    rm -rf "$dir"
    ran=$(echo "$log" | grep -e ' ran before the dependency step' -e 'not found')
    [ -z "$ran" ] || { echo "before the dependency step:"; echo "$ran"; return 1; }
    echo "$log" | grep -q 'sudo apt-get install -y no-such-package' ||
        { echo "the dependency step did not say what to install:"; echo "$log"; return 1; }
    echo "with a dependency missing, make -k ran no tool before the dependency step, which said:"
    echo "$log" | grep -A1 '^missing Debian packages' | sed 's/^/    /'
}

# A misspelt chunk name is a new root: the build must refuse it.
stray_root_fails() {
    dir=$(scratch_copy)
    printf '\n<<a chunk nobody uses>>=\nint unused;\n@\n' >> "$dir/$NW"
    log=$(cd "$dir" && make tangle 2>&1)
    status=$?
    rm -rf "$dir"
    [ $status != 0 ] || { echo "a stray root was accepted"; return 1; }
    echo "$log" | grep -q "roots are" || { echo "unexpected message: $log"; return 1; }
    echo "refused: $(echo "$log" | grep 'roots are')"
}

# make tangle checks the source's rules of form (tests/build_tests.sh's
# code_within_76_columns and chunk_names_at_most_12_parts) and names a
# line that breaks one, at its line of attention.nw; it goes on.
tangle_names_long_lines() {
    dir=$(scratch_copy)
    line=$(grep -n '^int  params_alloc(' "$dir/$NW" | head -1 | cut -d: -f1)
    [ -n "$line" ] || { echo "no declaration of params_alloc in $NW"; rm -rf "$dir"; return 1; }
    sed "${line}s|;\$|;   /* lengthened past 76 columns */|" "$dir/$NW" > "$dir/nw.tmp" && mv "$dir/nw.tmp" "$dir/$NW"
    log=$(cd "$dir" && make tangle 2>&1)
    status=$?
    rm -rf "$dir"
    [ $status = 0 ] || { echo "make tangle stopped on a long line: $log"; return 1; }
    echo "$log" | grep -q "^$NW:$line: <<[^>]*>> [0-9]* columns\$" && echo "$log" | grep -q '^(make goes on' ||
        { echo "make tangle did not name the long line $NW:$line: $log"; return 1; }
    echo "make tangle named it and went on: $(echo "$log" | grep "^$NW:$line:")"
}

# A use of a chunk that is never defined stops the build.
undefined_chunk_fails() {
    dir=$(scratch_copy)
    # a second line in the outline of core.c, using a name defined nowhere
    awk '{ print } /^<<random numbers>>$/ { print "<<random numbres>>" }' "$dir/$NW" \
        > "$dir/nw.tmp" && mv "$dir/nw.tmp" "$dir/$NW"
    log=$(cd "$dir" && make tangle 2>&1)
    status=$?
    rm -rf "$dir"
    [ $status != 0 ] || { echo "an undefined chunk was accepted"; return 1; }
    echo "$log" | grep -q 'undefined chunk name: <<random numbres>>' \
        || { echo "unexpected message: $log"; return 1; }
    echo "refused: $(echo "$log" | grep -i 'undefined' | head -1)"
}

# A placeholder without a value fails the weave and names the placeholder.
missing_number_fails() {
    dir=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX")
    printf 'known 42\n' > "$dir/numbers.txt"
    printf 'It is {{known}} and {{no_such_number}}.\n' > "$dir/in.md"
    log=$(pandoc --lua-filter book/book.lua --metadata numbers="$dir/numbers.txt" \
          -t plain "$dir/in.md" 2>&1)
    status=$?
    printf 'It is {{known}}.\n' > "$dir/ok.md"
    good=$(pandoc --lua-filter book/book.lua --metadata numbers="$dir/numbers.txt" \
          -t plain "$dir/ok.md" 2>&1)
    rm -rf "$dir"
    [ $status != 0 ] || { echo "a missing number was accepted: $log"; return 1; }
    echo "$log" | grep -q no_such_number || { echo "message does not name it: $log"; return 1; }
    [ "$good" = "It is 42." ] || { echo "substitution gave: $good"; return 1; }
    echo "refused: $(echo "$log" | grep no_such_number | head -1)"
}

# Every internal link of the HTML book points at an anchor that exists.
html_links_resolve() {
    [ -f book/attention.html ] || { echo "book/attention.html not built"; return 1; }
    python3 book/checklinks book/attention.html
}

# The page as a reader sees it, in headless chromium with JavaScript off, at
# 1280 and 400 px (tests/page_test.js): maths typeset at build time without
# error, the aligned display's = in one column and its words upright, no
# sideways scroll, a way back to the contents, code and figures readable on
# a phone; the page as a designer would check it (the embedded faces, the
# measure, maths at the text's size, figure labels at the small print,
# scroll cues, whole tokens in table cells, contrast, the Contents control
# clear of the text, the current section marked) and axe-core's WCAG 2.1
# A and AA rules.  It tests the static page, $B/attention.html (the live
# edition adds only the widgets, which tests/live_test.js tests).
# Screenshots land in $B/page/.
page_on_screen() {
    b=${B:-build}
    if [ "${EDITION:-teacher}" = student ]; then
        echo "skipped: the student edition has no browser driver (no package.json)"; exit 77
    fi
    if [ ! -d node_modules/puppeteer-core ]; then
        echo "node_modules/puppeteer-core is missing: run npm ci (make check does)"; return 1
    fi
    [ -f "$b/attention.html" ] || { echo "$b/attention.html not built"; return 1; }
    node tests/page_test.js "$b/attention.html" "$b/page"
}

# A formula KaTeX cannot typeset stops the build, naming the formula.
katex_error_fails() {
    dir=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX") || return 1
    printf '<html><head></head><body><p><span class="math inline">x = \\frac{1}</span></p></body></html>\n' \
        > "$dir/in.html"
    if node book/katex.js "$dir/in.html" "$dir/out.html" > "$dir/log" 2>&1; then
        echo "book/katex.js accepted a broken formula"; rm -rf "$dir"; return 1
    fi
    status=0
    grep -q 'cannot typeset \$x = \\frac{1}\$' "$dir/log" || { echo "the error does not name the formula:"; status=1; }
    [ ! -e "$dir/out.html" ] || { echo "an output page was written"; status=1; }
    cat "$dir/log"; rm -rf "$dir"
    return $status
}

# Every placeholder of attention.nw got a value: none survives into the books.
no_placeholder_survives() {
    status=0
    books=book/attention.html
    # the LaTeX book comes with the PDF (in the student edition, on request)
    if [ -f ${B:-build}/attention.tex ] || [ "${EDITION:-teacher}" != student ]; then
        books="$books ${B:-build}/attention.tex"; fi
    for f in $books; do
        [ -f "$f" ] || { echo "$f not built"; return 1; }
        if grep -o '{{[A-Za-z_][A-Za-z0-9_:|-]*}}' "$f" | head -3 | grep .; then status=1; fi
    done
    [ $status = 0 ] && echo "no {{placeholder}} left in the HTML or LaTeX book"
    return $status
}

# The numbers filled into the book's sentences read as prose (book.lua's
# forms): no exponent such as "3.8e-06" in a sentence, no "0 pairs" or
# "1 seeds" (of the nouns the book counts), no "100 of the hundred" or "60 of the 60", no range from a
# number to itself.  And they read as numbers (book.lua's number_form):
# no decimal below 0.001 written out, such as "0.0000002" (a power of ten
# instead), and no run of five digits or more without its commas, such as
# "17600" (17,600).  Checked on the text of the HTML book outside code,
# the references (whose page numbers and arXiv numbers are names, not counts),
# mathematics and scripts; the last two outside tables as well, whose
# columns keep the program's decimals.  A negative number, in a sentence or
# a table, has the minus sign U+2212, not a hyphen: "-21" fails.
numbers_read_as_prose() {
    f=${B:-build}/attention.pandoc.html
    [ -f "$f" ] || { echo "$f not built"; return 1; }
    strip='s{<(pre|code|math|script|style)\b.*?</\1>}{ }gs;
           s{<span class="math[^"]*">.*?</span>}{ }gs;
           s{<div [^>]*class="csl-entry"[^>]*>.*?</div>}{ }gs;'
    text=$(perl -0777 -pe "$strip"'
                          s{<[^>]*>}{ }g; s/&nbsp;|\s+/ /g' "$f")
    prose=$(perl -0777 -pe "$strip"'
                          s{<table\b.*?</table>}{ }gs;
                          s{<[^>]*>}{ }g; s/&nbsp;|\s+/ /g' "$f")
    bad=$(printf '%s\n' "$text" | perl -ne '
        while (/(\b\d+(?:\.\d+)?[eE][-+]?\d+\b
                |(?<![\d.,])\b[01]\s+(?:pair|seed|problem|head|row|step|time|run
                  |neuron|direction|table|number|token|digit|column|layer|answer)s\b
                |(?<!to\s)\b(\d+)\s+of\s+the\s+(?:\2\b|hundred\b(?(?{$2 == 100})|(*FAIL)))
                |\b(\d+)\s+to\s+\3\b(?!\.\d))/xg) { print "  ...$1...\n" }')
    more=$(printf '%s\n' "$prose" | perl -ne '
        while (/((?<![\d.,])\b0\.000\d*[1-9]\d*
                |(?<![\d.,])\b\d{5,}(?:\.\d+)?)/xg) { print "  ...$1...\n" }')
    minus=$(printf '%s\n' "$text" | perl -ne '
        while (/((?<![\w-])-\d[\d.,]*)/g) { print "  ...$1... (a hyphen for a minus sign)\n" }')
    bad=$(printf '%s\n%s\n%s\n' "$bad" "$more" "$minus" | grep .)
    words=$(printf '%s\n' "$text" | wc -w)
    if [ -n "$bad" ]; then
        echo "numbers that do not read as prose in $f:"; printf '%s\n' "$bad"; return 1
    fi
    echo "the filled-in numbers of $words words of prose read as prose and as numbers"
}

# The book's model, saved by `make`, answers all 100 problems through the
# command line; the expected answers come from the shell's own arithmetic.
ask_answers_all_100() {
    B=${B:-build}
    [ -f $B/model.ckpt ] || { echo "$B/model.ckpt not built"; return 1; }
    problems="" expected=""
    for a in 0 1 2 3 4 5 6 7 8 9; do for b in 0 1 2 3 4 5 6 7 8 9; do
        problems="$problems $a*$b="
        expected="$expected$a*$b=$((a * b));
"
    done; done
    got=$($B/attention ask -m $B/model.ckpt $problems) || { echo "ask failed"; return 1; }
    if [ "$got
" != "$expected" ]; then
        echo "wrong answers:"; printf '%s\n' "$got" | grep -vxF "$(printf '%s' "$expected")" | head
        return 1
    fi
    echo "ask answered all 100 problems: $(echo "$got" | head -3 | tr '\n' ' ')..."
}

# The table of bad inputs (README, "Bad input"): each line is the expected
# exit status, words the message must contain, and the command.  Exit 2 is
# bad usage, 1 a failure while running; no input may crash (status > 2).
cli_errors() {
    B=${B:-build}
    A=$B/attention M=$B/model.ckpt
    [ -f $M ] || { echo "$M not built"; return 1; }
    work=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX")
    long=$(head -c 10000 /dev/zero | tr '\0' 7)
    head -c 1000 $M > $work/truncated.ckpt
    cp $M $work/extra.ckpt; printf 'x' >> $work/extra.ckpt
    { printf 'XXXXXXXX'; tail -c +9 $M; } > $work/magic.ckpt
    { head -c 8 $M; printf '\003'; tail -c +10 $M; } > $work/version.ckpt
    { head -c 20000 $M; printf '\377'; tail -c +20002 $M; } > $work/flipped.ckpt
    : > $work/empty.ckpt
    # a checkpoint whose position table has 9 rows: no model of the program
    { head -c 32 $M; printf '\011\000\000\000'; tail -c +37 $M; } > $work/positions.ckpt
    mkdir $work/dir.ckpt
    status=0
    check() {   # expected-status words-in-message command...
        want=$1 words=$2; shift 2
        out=$("$@" 2>&1 < /dev/null); got=$?
        if [ $got != "$want" ] || ! printf '%s' "$out" | grep -q -- "$words"; then
            echo "FAIL: $* -> status $got, message: $(printf '%s' "$out" | head -3)"; status=1
        else
            printf 'ok %s  %-40.40s -> %s\n' "$got" "$(echo "$*" | cut -c1-60)" "$(printf '%s' "$out" | head -1 | cut -c1-110)"
        fi
    }
    check 2 "missing command" $A
    check 2 "unknown command 'frobnicate'" $A frobnicate
    check 2 "unknown option '--seed'" $A ask --seed 3 7*8=
    check 2 "unknown option '-x'" $A train -x
    check 2 "option --seed needs a value" $A train --seed
    check 2 "option -o needs a value" $A train -o
    check 2 "needs a non-empty value" $A train -o ''
    check 2 "'-1' is not a whole number from 0" $A train --seed -1
    check 2 "'0' is not a whole number from 1 to 1000000" $A train --steps 0
    check 2 "'99999999999999' is not a whole number" $A train --steps 99999999999999
    check 2 "'12x' is not a whole number" $A train --steps 12x
    check 2 "'7x8=' is not a problem" $A ask -m $M 7x8=
    check 2 "'78=' is not a problem" $A ask -m $M 78=
    check 2 "'\*8=' is not a problem" $A ask -m $M '*8='
    check 2 "'7\*8' is not a problem" $A ask -m $M '7*8'
    check 2 "'7\*\*8=' is not a problem" $A ask -m $M '7**8='
    check 2 "'' is not a problem" $A ask -m $M ''
    check 2 "7777777…' is not a problem" $A ask -m $M "$long"
    check 2 "'7\\\\xff8=' is not a problem" $A ask -m $M "$(printf '7\3778=')"
    check 2 "give at least one problem" $A ask -m $M
    check 2 "'7x8=': the character 'x' at position 1 is not a token" $A trace -m $M 7x8=
    check 2 "the character U+FF17 at position 0 is not a token" $A trace -m $M '７*８='
    check 2 "the character U+FF18 at position 2 is not a token" $A trace -m $M '7*８='
    check 2 "the byte \\\\xFF at position 1 is not a token" $A trace -m $M "$(printf '7\3778=')"
    check 2 "is empty" $A trace -m $M ''
    check 2 "is longer than the model's positions: this model reads 1 to 7 tokens" $A trace -m $M "$long"
    check 2 "';;;7\*;8=' is longer than the model's positions: this model reads 1 to 7 tokens" $A trace -m $M ';;;7*;8=' 
    check 2 "--pos 5 is past the end" $A trace -m $M 7*8= --pos 5
    check 2 "--pos 7 is past the end of '7\*8=' (positions 0 to 3)" $A trace -m $M 7*8= --pos 7
    check 2 "'16' is not a whole number from 0 to 15" $A trace -m $M 7*8= --pos 16
    check 2 "exactly one sequence" $A trace -m $M 7*8= 3*2=
    check 2 "exactly one sequence" $A trace -m $M --exact
    check 2 "ask: unknown option '--exact'" $A ask -m $M --exact 7*8=
    check 0 "head 3 mix u=3" $A trace -m $M 7*8= --exact
    check 2 "unexpected argument '6' (--layouts takes no value)" $A train --layouts 6
    check 2 "unexpected argument 'x'" $A train x
    check 2 "unknown option '--layouts'" $A ask --layouts -m $M 7*8=
    check 2 "unknown option '--layouts'" $A trace --layouts -m $M 7*8=
    check 2 "';;7\*8=' is in a layout of chapter 2; only a model trained with train --layouts" $A ask -m $M ';;7*8='
    check 2 "';;7\*8;=' is not a problem" $A ask -m $M ';;7*8;='
    check 1 "table 1 (pos_emb) is 9x32, expected 7x32" $A ask -m $work/positions.ckpt 7*8=
    $A train --layouts --steps 10 -o $work/layouts.ckpt > /dev/null 2>&1
    check 0 ";;;7\*;8=" $A ask -m $work/layouts.ckpt ';;;7*;8='
    check 2 "';;;7\*;8;=' is not a problem" $A ask -m $work/layouts.ckpt ';;;7*;8;='
    check 0 "trace of \";;;7\*;8=\" at position t = 7" $A trace -m $work/layouts.ckpt ';;;7*;8='
    check 0 "head 3 mix u=7" $A trace -m $work/layouts.ckpt ';;;7*;8=' --exact
    check 2 "this model reads 1 to 11 tokens" $A trace -m $work/layouts.ckpt ';;;7*;8=56;;;;'
    check 2 "3 heads cannot share the 32 numbers of a row" $A train --heads 3
    check 2 "--heads: '16' is not a whole number from 1 to 8" $A train --heads 16
    check 2 "--layouts trains the book's 4 heads; leave out --heads" $A train --layouts --heads 2
    check 2 "ask: unknown option '--heads'" $A ask --heads 8 -m $M 7*8=
    $A train --heads 8 --steps 10 -o $work/heads8.ckpt > /dev/null 2>&1
    check 0 "7\*8=" $A ask -m $work/heads8.ckpt 7*8=
    check 0 "head 7" $A trace -m $work/heads8.ckpt 7*8=
    # the parts, as the table of parts lists them: "positions, mask, ... or gelu"
    parts=$(sed -n '/^const Part part_table\[N_PARTS\] = {$/,/^};$/ s/^ *{"\([a-z-]*\)".*/\1/p' tangled/core.c |
            awk '{ w[NR] = $0 } END { for (i = 1; i <= NR; i++) printf "%s%s", w[i], i == NR ? "" : i == NR - 1 ? " or " : ", " }')
    check 2 "--without: 'heads' is not a part; use $parts" $A train --without heads
    check 2 "--without: '' is not a part" $A train --without ''
    check 2 "option --without needs a value" $A train --without
    check 2 "ask: unknown option '--without'" $A ask --without mask -m $M 7*8=
    check 2 "trace: unknown option '--without'" $A trace --without mask -m $M 7*8=
    $A train --without mask --without gelu --steps 10 -o $work/nomask.ckpt > /dev/null 2>&1
    check 0 "7\*8=" $A ask -m $work/nomask.ckpt 7*8=
    check 0 "the model was trained without: gelu" $A trace -m $work/nomask.ckpt 7*8=
    check 0 "keys of every row (no causal mask)" $A trace -m $work/nomask.ckpt 7*8= --pos 1
    check 0 "head 3 mix u=3" $A trace -m $work/nomask.ckpt 7*8= --pos 1 --exact
    check 0 "7\*8=" $A ask -m tests/corpus/checkpoint/version-1.ckpt 7*8=
    check 2 "patch: give exactly one problem" $A patch -m $M --head 0 --zero
    check 2 "patch: give one of --zero, --mean or --from PROMPT" $A patch -m $M 7*8= --head 0
    check 2 "patch: give one of --zero, --mean or --from PROMPT" $A patch -m $M 7*8= --head 0 --zero --mean
    check 2 "patch: give at most one of --weights, --key POS, --value POS, --direct and --via-ffn" $A patch -m $M 7*8= --head 0 --zero --weights --key 1
    check 2 "patch: give at most one of --weights" $A patch -m $M 7*8= --head 0 --zero --direct --via-ffn
    check 2 "patch: name the heads to change" $A patch -m $M 7*8= --zero
    check 2 "--head: 'x' is not a head: give 0 to 7, or all" $A patch -m $M 7*8= --head x --zero
    check 2 "--head: '8' is not a head" $A patch -m $M 7*8= --head 8 --zero
    check 2 "--head: this model has 4 heads, 0 to 3" $A patch -m $M 7*8= --head 5 --zero
    check 2 "--key: '16' is not a whole number from 0 to 15" $A patch -m $M 7*8= --head 0 --zero --key 16
    check 2 "patch: position 4 is past the end of '7\*8=' (positions 0 to 3)" $A patch -m $M 7*8= --head 0 --zero --value 4
    check 2 "--from: '3\*18=' has 5 tokens and 7\*8= 4" $A patch -m $M 7*8= --head 1 --from 3*18=
    check 2 "'3x8=': the character 'x' at position 1 is not a token" $A patch -m $M 7*8= --head 1 --from 3x8=
    check 2 "'7\*8' is not a problem" $A patch -m $M 7*8 --head 1 --zero
    check 2 "';;7\*8=' is in a layout of chapter 2; only a model trained with train --layouts" $A patch -m $M ';;7*8=' --head 1 --zero
    check 2 "patch: unknown option '--pos'" $A patch -m $M 7*8= --head 1 --zero --pos 2
    check 0 "7\*8=56;  as the model writes it" $A patch -m $M 7*8= --head all --weights --mean
    check 0 "with the value of heads 0 and 2 at position 0 ('7') taken from 3\*8=" $A patch -m $M 7*8= --head 0 --head 2 --value 0 --from 3*8=
    check 0 "with the key of head 3 at position 2 ('7') taken from ;;3\*9=" $A patch -m $work/layouts.ckpt ';;7*8=' --head 3 --key 2 --from ';;3*9='
    check 0 "with the output of heads 0, 1, 2 and 3 at row 3 ('='), on the direct path only, replaced by its mean" $A patch -m $M 7*8= --head all --direct --mean
    check 0 "with the output of head 1 at row 3 ('='), on the path through the FFN only, set to zero" $A patch -m $M 7*8= --head 1 --via-ffn --zero
    check 2 "missing -o DIR" $A figures -m $M
    check 2 "no topic named 'nine'" $A figures -m $M -o $work/out --part nine
    check 1 "cannot read no/such/file: No such file" $A ask -m no/such/file 7*8=
    check 1 "cannot read $work/dir.ckpt: Is a directory" $A ask -m $work/dir.ckpt 7*8=
    check 1 "too short to be a checkpoint (0 bytes)" $A ask -m $work/empty.ckpt 7*8=
    check 1 "truncated: 1000 bytes" $A ask -m $work/truncated.ckpt 7*8=
    check 1 "extra bytes at the end" $A ask -m $work/extra.ckpt 7*8=
    check 1 "not a checkpoint (it does not start with ATTNCKPT)" $A ask -m $work/magic.ckpt 7*8=
    check 1 "checkpoint format version 3, but this program reads versions 1 and 2" $A ask -m $work/version.ckpt 7*8=
    check 1 "checksum mismatch" $A ask -m $work/flipped.ckpt 7*8=
    check 1 "cannot write $work/dir.ckpt" $A train --steps 1 -o $work/dir.ckpt
    check 1 "cannot write $work/no/such/dir/m.ckpt.tmp" $A train --steps 1 -o $work/no/such/dir/m.ckpt
    check 0 "usage: attention" $A --help
    check 0 "usage: attention" $A trace --help
    rm -rf $work
    return $status
}

# train --without runs the ablation experiment of chapter 7 from the
# command line: no position vectors, seed 1, gives the row of the book's
# table (ablations.md of the results), the step of the first 100/100 and
# the final score.
without_reproduces_ablation() {
    B=${B:-build}
    results=$B/results; [ "${EDITION:-teacher}" = student ] && results=results
    row=$(grep '^| no position vectors | 1 |' $results/ablations.md) ||
        { echo "no row for seed 1 without positions in ablations.md"; return 1; }
    first=$(echo "$row" | cut -d'|' -f4 | tr -d ' ')
    final=$(echo "$row" | cut -d'|' -f5 | tr -d ' ')
    work=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX")
    out=$($B/attention train --without positions --seed 1 -o $work/m.ckpt 2>/dev/null) ||
        { echo "train --without positions failed"; rm -rf $work; return 1; }
    rm -rf $work
    echo "$out"
    echo "table: first 100/100 at step $first, final $final/100"
    echo "$out" | grep -qx "first 100/100 at step $first" &&
        echo "$out" | tail -1 | grep -qx "$final/100"
}

# A full disk, simulated by the test hook: the write fails cleanly, the
# previous file is unchanged and no temporary file is left behind.
full_disk_keeps_old_file() {
    B=${B:-build}
    work=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX")
    $B/attention train --steps 5 -o $work/m.ckpt > /dev/null || { echo "training failed"; return 1; }
    before=$(cksum < $work/m.ckpt)
    out=$(ATTENTION_TEST_DISK_BYTES=1000 $B/attention train --steps 7 -o $work/m.ckpt 2>&1); got=$?
    after=$(cksum < $work/m.ckpt); left=$(ls $work)
    rm -rf $work
    [ $got = 1 ] || { echo "status $got, expected 1: $out"; return 1; }
    echo "$out" | grep -q "No space left on device" || { echo "message: $out"; return 1; }
    [ "$before" = "$after" ] || { echo "the previous checkpoint changed"; return 1; }
    [ "$left" = "$(printf 'm.ckpt\nm.ckpt.log')" ] || { echo "files left: $left"; return 1; }
    echo "refused: $out; old checkpoint intact, no temporary file"
}

# A NaN forced into a table (the test hook) stops training, naming the step
# and the table, and nothing is saved.
nan_stops_training() {
    B=${B:-build}
    work=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX")
    out=$(ATTENTION_TEST_NAN=30:Wv $B/attention train --steps 100 -o $work/m.ckpt 2>&1); got=$?
    left=$(ls $work)
    rm -rf $work
    [ $got = 1 ] || { echo "status $got, expected 1: $out"; return 1; }
    echo "$out" | grep -q "training stopped at step 31: table Wv holds a NaN" \
        || { echo "message: $out"; return 1; }
    [ -z "$left" ] || { echo "files written: $left"; return 1; }
    echo "stopped: $out"
}

# The book's claims belong to the book's build: on a reader's own model
# (here seed 7, trained for only 50 steps, so that many claims fail) every
# topic writes its numbers, tables and figures, each claim that does not
# hold is printed as a finding, and the command succeeds.  (Its relatives
# train as long as it does: at 200 steps the topics took 127 s of one core,
# at 50 steps 42 s, through the same code.)  The same model
# with --book, as the book's build runs it, is refused.  Under the
# sanitizers (make check SANITIZE=1, whose build copies the sweep's results
# from the plain build) this is where the topics run: those that
# deterministic_outputs does not run, on a model of 30 steps, whose
# relatives train for 30 steps too: the code is the same at any length
# (at 100 steps the topics took 3.3 minutes, at 30 under 1.5).  The
# held-out layouts are left out there: their 180 trainings took 1.6
# minutes under the sanitizers even at 30 steps, and the models they
# train are checked under the sanitizers by test_layouts.
figures_on_a_readers_model() {
    B=${B:-build}
    work=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX")
    topics=$(ls tangled/exp_*.c | sed 's|tangled/exp_||; s|\.c$||')
    steps=50 parts=""
    if [ "$B" = build-san ]; then
        steps=30 topics=$(echo $topics | tr ' ' '\n' | grep -vx 'specimen\|layouts\|heldout')
        parts="$topics"
    fi
    $B/attention train --seed 7 --steps $steps -o $work/m.ckpt > /dev/null \
        || { echo "training failed"; rm -rf $work; return 1; }
    status=0 out=""
    for part in ${parts:-all}; do
        option=""; [ $part = all ] || option="--part $part"
        got=$($B/attention figures -m $work/m.ckpt -o $work/results $option 2>&1) \
            || { echo "figures $option failed:"; echo "$got"; status=1; }
        out="$out
$got"
    done
    for topic in $topics; do
        [ -s $work/results/numbers-$topic.txt ] || [ $topic = speed ] && \
        [ -f $work/results/claims-$topic.md ] \
            || { echo "no numbers or claims of topic $topic"; status=1; }
    done
    [ -n "$parts" ] || { [ -s $work/results/claims.md ] &&
        grep -q '^claim_checks [1-9]' $work/results/numbers-claims.txt; } \
        || { echo "no table of claims"; status=1; }
    findings=$(echo "$out" | grep -c '^for this model: ')
    [ "$findings" -gt 0 ] || { echo "no claim reported as a finding:"; echo "$out"; status=1; }
    $B/attention figures -m $work/m.ckpt -o $work/book --part routing --book \
        > /dev/null 2>&1 && { echo "--book accepted a false claim"; status=1; }
    rm -rf $work
    [ $status = 0 ] && echo "seed 7, $steps steps: topics $(echo $topics) written, exit 0, $findings claims reported as findings; --book refuses"
    return $status
}

# The sweep (attention sweep) trains each relative once and the topics
# load it (figures --sweep): on a short model (30 steps, so that the whole
# sweep takes seconds), every topic that compares relatives writes the
# same bytes from the sweep as when it trains them itself.  A sweep that
# is out of date (a relative's file trained for another model) or
# incomplete is refused, naming the file, not measured.  Under the
# sanitizers the topics run from the sweep only, which reads every kind
# of relative; training in place is what the other tests run there.
sweep_loads_what_it_trains() {
    B=${B:-build}
    A=$B/attention
    work=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX")
    status=0 here=1 said="give the same bytes from the sweep as trained in place"
    [ "$B" = build-san ] && here=0 said="run from the sweep"
    $A train --steps 30 -o $work/m.ckpt > /dev/null &&
    $A sweep -m $work/m.ckpt -o $work/sweep > $work/sweep.out \
        || { echo "sweep failed"; rm -rf $work; return 1; }
    n=$(ls $work/sweep/*.ckpt | wc -l)
    for topic in specimen routing ablations heads ffn layouts; do
        { [ $here = 0 ] || $A figures -m $work/m.ckpt -o $work/here --part $topic > /dev/null; } &&
        $A figures -m $work/m.ckpt --sweep $work/sweep -o $work/swept \
            --part $topic > /dev/null \
            || { echo "figures --part $topic failed"; status=1; }
    done
    [ $here = 0 ] || diff -r $work/here $work/swept > /dev/null \
        || { echo "the sweep's models give other results:"; diff -rq $work/here $work/swept; status=1; }
    cp $work/sweep/heads8-seed3.ckpt $work/sweep/heads2-seed3.ckpt
    out=$($A figures -m $work/m.ckpt --sweep $work/sweep -o $work/stale --part heads 2>&1)
    [ $? = 1 ] && echo "$out" | grep -q "heads2-seed3.ckpt was trained for another model than this one: run attention sweep again" \
        || { echo "a stale sweep was not refused: $out"; status=1; }
    rm $work/sweep/layouts-seed2.ckpt
    out=$($A figures -m $work/m.ckpt --sweep $work/sweep -o $work/stale --part layouts 2>&1)
    [ $? = 1 ] && echo "$out" | grep -q "the sweep has no usable $work/sweep/layouts-seed2.ckpt" \
        || { echo "an incomplete sweep was not refused: $out"; status=1; }
    echo garbage > $work/sweep/heads1-seed2.ckpt
    out=$($A figures -m $work/m.ckpt --sweep $work/sweep -o $work/stale --part heads 2>&1)
    [ $? = 1 ] && echo "$out" | grep -q "too short to be a checkpoint" &&
        echo "$out" | grep -q "the sweep has no usable $work/sweep/heads1-seed2.ckpt" \
        || { echo "a broken file of the sweep was not refused: $out"; status=1; }
    out=$($A sweep -m $work/m.ckpt 2>&1)
    [ $? = 2 ] && echo "$out" | grep -q "sweep: missing -o DIR" \
        || { echo "sweep without -o: $out"; status=1; }
    rm -rf $work
    [ $status = 0 ] && echo "30 steps: $n relatives swept; 6 topics $said; a stale, an incomplete and a broken sweep refused"
    return $status
}

# The same seed gives the same bytes: checkpoints, logs, figures, numbers.
# The plain build trains seed 1 again, and its layouts model, and runs the
# topics specimen and layouts, whose relatives it trains in place, and
# compares every file with what make made: the book's model, the sweep's
# layouts model of seed 1, the results (made from the sweep's checkpoints,
# in other processes, earlier).  In the student edition the results it
# compares with are the teacher's, shipped in results/: a solved edition
# computes the teacher's numbers.  (Two runs of the test compared with each
# other took twice as long, and checked nothing this does not.)  Under the
# sanitizers (make check SANITIZE=1) there is one run, short, 30 steps,
# through the same code (the topics' own runs are as long as the model's):
# it looks for memory errors and undefined behaviour.  (A second sanitized
# run, compared, took 2.2 minutes and checked again what the plain build
# checks.)
deterministic_outputs() {
    B=${B:-build}
    work=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX")
    steps=""; [ "$B" = build-san ] && steps="--steps 30"
    { $B/attention train $steps -o $work/m.ckpt > /dev/null &&
      $B/attention train --layouts $steps -o $work/layouts.ckpt > /dev/null &&
      $B/attention figures -m $work/m.ckpt -o $work/results --part specimen &&
      $B/attention figures -m $work/m.ckpt -o $work/results --part layouts; } \
        || { echo "a run failed"; rm -rf $work; return 1; }
    n=$(find $work -type f | wc -l)
    if [ -n "$steps" ]; then
        rm -rf $work; echo "one run from seed 1, $steps, under the sanitizers: $n files, exit 0"; return 0; fi
    results=$B/results; [ "${EDITION:-teacher}" = student ] && results=results
    status=0 same=0
    # made by make: the model, and the sweep's layouts model (not in the
    # student edition, which has the results and no sweep)
    for pair in m.ckpt:$B/model.ckpt layouts.ckpt:$B/sweep/layouts-seed1.ckpt; do
        mine=$work/${pair%%:*} made=${pair#*:}
        [ -f $made ] || [ "${EDITION:-teacher}" = student ] || { echo "$made not made (run make)"; status=1; continue; }
        [ -f $made ] || continue
        for f in "" .log; do
            if cmp -s $mine$f $made$f; then same=$((same + 1))
            else echo "seed 1 trained again: $(basename $mine$f) differs from $made$f"; status=1; fi
        done
    done
    # the results, file by file: every file of make's results that the two
    # topics write (the student edition has no numbers-*.txt)
    wrote=$(cd $work/results && find . -type f -printf '%P\n' | sort)
    compared=0
    for f in $wrote; do
        [ -f $results/$f ] || continue
        compared=$((compared + 1))
        cmp -s $work/results/$f $results/$f || { echo "seed 1 run again: $f differs from $results/$f"; status=1; }
    done
    [ $compared -ge 8 ] || { echo "only $compared of the files written are in $results: $(echo $wrote)"; status=1; }
    rm -rf $work
    [ $status = 0 ] && echo "seed 1 trained again, with the topics specimen and layouts: $same checkpoints and logs and $compared files of the results byte-identical to make's"
    return $status
}

# In the student edition, while an exercise is still a stub, the program
# refuses to run and names the stubs (make check counts the group whole's
# failures as needing them).  A test of the whole program that first
# compiles copies of it (-O0, clang and musl, for valgrind) then fails at
# once, with the refusal, as it would after the compiles.
program_refuses() {
    [ "${EDITION:-teacher}" = student ] || return 1
    refusal=$(${B:-build}/attention ask '1*1=' 2>&1 >/dev/null) && return 1
    echo "$refusal" | grep -q 'refusing to run' || return 1
    echo "$refusal"
}

# The compiler's optimisations and the machine's vector width change the
# speed, never the bits: the program built with -O0, which vectorises
# nothing, trains to the same checkpoint as the one make built (-O3, and
# -march=native where the compiler knows it).
# compile_copy PROGRAM COMPILER FLAGS...: the program, compiled from tangled/
# with the command given, its objects next to PROGRAM.
compile_copy() {
    program=$1; shift
    objects=""
    for f in tangled/*.c; do
        o=${program%/*}/$(basename $f .c).o
        "$@" -c $f -o $o || return 1
        objects="$objects $o"
    done
    cc -o $program $objects -lm
}

optimisation_changes_no_bit() {
    B=${B:-build}
    program_refuses && return 1
    work=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX")
    compile_copy $work/plain cc -std=c11 -ffp-contract=off -O0 \
        || { echo "-O0 build failed"; rm -rf $work; return 1; }
    $work/plain train --steps 300 -o $work/plain.ckpt > /dev/null &&
    $B/attention train --steps 300 -o $work/made.ckpt > /dev/null \
        || { echo "training failed"; rm -rf $work; return 1; }
    if ! cmp $work/plain.ckpt $work/made.ckpt; then rm -rf $work; return 1; fi
    rm -rf $work
    echo "300 steps from seed 1: -O0 and $B/attention (built by make) write the same checkpoint"
}

# Nor do the compiler and the C library, for the seeds tried: the program
# built by the other compiler (clang when make used gcc, gcc when it used
# clang), and built by gcc against musl instead of glibc (musl-gcc, static),
# trains seeds 1, 7 and 13 to the checkpoints and logs of $B/attention; so
# does the live book's module (clang for WebAssembly, wasi-libc, whose
# mathematics is musl's), run by node.  The libraries' exp, log and cos may
# differ in the last bit (the appendix on random numbers says where), so a
# failure here means that one of those bits reached training.
libc_changes_no_bit() {
    B=${B:-build}
    if [ "$B" = build-san ]; then
        # the sanitized program (clang) against make check's (cc): the
        # book's model each trained; the other builds are make check's
        [ -f build/model.ckpt ] || { echo "build/model.ckpt not built"; return 1; }
        cmp $B/model.ckpt build/model.ckpt && cmp $B/model.ckpt.log build/model.ckpt.log || return 1
        echo "$B/model.ckpt (the sanitized program, $(cut -d' ' -f1 $B/cflags)) equals build/model.ckpt ($(cut -d' ' -f1 build/cflags)); make check compares gcc, clang, musl and the live book's module"
        return 0
    fi
    program_refuses && return 1
    command -v musl-gcc > /dev/null || { echo "musl-gcc is not installed (musl-tools)"; return 1; }
    work=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX")
    other=clang; case $(cat $B/cflags) in clang*) other=gcc ;; esac
    flags="-std=c11 -Wall -Wextra -Wpedantic -Werror -ffp-contract=off -O2 -fno-math-errno -fno-trapping-math"
    sources=$(ls tangled/*.c | grep -v '/web\.c$')
    $other $flags -o $work/$other $sources -lm 2> $work/$other.err &
    musl-gcc $flags -static -o $work/musl $sources -lm 2> $work/musl.err
    musl=$?; wait $!; got=$?
    [ $got = 0 ] || { cat $work/$other.err; echo "$other build failed"; rm -rf $work; return 1; }
    [ $musl = 0 ] || { cat $work/musl.err; echo "musl build failed"; rm -rf $work; return 1; }
    builds="$other musl"
    wasm=""
    if [ "${EDITION:-teacher}" != student ]; then
        [ -f $B/web.wasm ] || { echo "$B/web.wasm not built (run make)"; rm -rf $work; return 1; }
        wasm=" and the live book's module"
    fi
    status=0
    for seed in 1 7 13; do
        # seed 1 is the book's model, which make trained: not trained again
        if [ $seed = 1 ] && [ -f $B/model.ckpt ] && [ -f $B/model.ckpt.log ]; then
            cp $B/model.ckpt $work/made-1.ckpt && cp $B/model.ckpt.log $work/made-1.ckpt.log
        else
            $B/attention train --seed $seed -o $work/made-$seed.ckpt > /dev/null
        fi || { echo "$B/attention: training seed $seed failed"; status=1; continue; }
        for build in $builds; do
            $work/$build train --seed $seed -o $work/$build-$seed.ckpt > /dev/null \
                || { echo "$build: training seed $seed failed"; status=1; continue; }
            cmp $work/made-$seed.ckpt $work/$build-$seed.ckpt || status=1
            cmp $work/made-$seed.ckpt.log $work/$build-$seed.ckpt.log || status=1
        done
        [ -n "$wasm" ] || continue
        # the page's train and save, as book/live.js calls them
        node -e '
            const fs = require("fs");
            const mod = new WebAssembly.Module(fs.readFileSync(process.argv[1]));
            const wasi = {};
            for (const need of WebAssembly.Module.imports(mod))
              if (need.module === "wasi_snapshot_preview1") wasi[need.name] = () => 52;
            const e = new WebAssembly.Instance(mod, { wasi_snapshot_preview1: wasi,
                                                      page: { progress: () => {} } }).exports;
            if (e._initialize) e._initialize();
            if (e.train(BigInt(process.argv[2]), 1000) !== 0) process.exit(1);
            const n = e.save();
            fs.writeFileSync(process.argv[3], new Uint8Array(e.memory.buffer, e.output(), n));
        ' $B/web.wasm $seed $work/wasm-$seed.ckpt \
            || { echo "the live book's module: training seed $seed failed"; status=1; continue; }
        cmp $work/made-$seed.ckpt $work/wasm-$seed.ckpt || status=1
    done
    rm -rf $work
    [ $status = 0 ] || return 1
    echo "seeds 1, 7, 13: the same checkpoints from $B/attention (made by $(cut -d' ' -f1 $B/cflags), glibc), $other (glibc), gcc with musl$wasm"
}

# Every C file of the program compiles without a warning (warnings are
# errors here) under each command line of the compile matrix, which the
# Makefile writes to $B/matrix, one a line: "COMMAND : FILES".  Compiled
# only, from $B/src/, so that a diagnostic names a line of attention.nw;
# a cell fails on any output at all, warning, note or compiler crash.
compile_matrix() {
    B=${B:-build}
    [ "${EDITION:-teacher}" = student ] &&
        { echo "skipped: the teacher's make check compiles the matrix"; return 77; }
    [ -s $B/matrix ] || { echo "$B/matrix not made (run make check)"; return 1; }
    work=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX")
    n=0
    while IFS= read -r cell; do
        n=$((n + 1)); mkdir $work/$n
        echo "${cell% : *}" > $work/$n/command
        for f in ${cell#* : }; do echo "$n $f"; done
    done < $B/matrix > $work/jobs
    start=$(date +%s)
    # one compile a job, as many at once as there are cores
    xargs -n 2 -P "$(nproc 2>/dev/null || echo 1)" sh -c '
        work=$1 src=$2 n=$3 f=$4
        $(cat $work/$n/command) -c $src/$f -o $work/$n/${f%.c}.o > $work/$n/$f.out 2>&1
        status=$?
        [ $status = 0 ] && [ ! -s $work/$n/$f.out ] || echo "$n $f $status" >> $work/failed
    ' sh $work $B/src < $work/jobs
    status=0
    if [ -s $work/failed ]; then
        sort -n $work/failed | while read -r n f got; do
            echo "FAIL (exit status $got): $(cat $work/$n/command) -c $B/src/$f"
            head -n 12 $work/$n/$f.out | sed 's/^/    /'
        done
        status=1
    fi
    cells=$(wc -l < $B/matrix) compiles=$(wc -l < $work/jobs)
    rm -rf $work
    [ $status = 0 ] || return 1
    echo "$cells command lines, $compiles compiles, no warning ($(($(date +%s) - start)) s):"
    sed 's/ -std=c11 -Wall -Wextra -Wpedantic//; s/ : .*//; s/^/  /' $B/matrix
}

# The same bytes on 64-bit ARM: the program cross-compiled by gcc for
# aarch64 (static, with the matrix's -O3 command line: what make would use
# there, less -march=native) and run under qemu-user trains seeds 1, 7 and
# 13 for 200 steps to the checkpoints and logs of $B/attention.
arm_trains_the_same_bytes() {
    B=${B:-build}
    program_refuses && return 1
    [ -s $B/matrix ] || { echo "$B/matrix not made (run make check)"; return 1; }
    arm=$(grep '^aarch64-linux-gnu-gcc -O3 ' $B/matrix)
    [ -n "$arm" ] || { echo "no aarch64 -O3 line in $B/matrix"; return 1; }
    command -v qemu-aarch64 > /dev/null || { echo "qemu-aarch64 is not installed (qemu-user)"; return 1; }
    work=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX")
    sources=""
    for f in ${arm#* : }; do [ "$f" = web.c ] || sources="$sources tangled/$f"; done
    ${arm% : *} -static -o $work/attention-arm64 $sources -lm 2> $work/err \
        || { cat $work/err; echo "aarch64 build failed"; rm -rf $work; return 1; }
    status=0
    for seed in 1 7 13; do
        $B/attention train --seed $seed --steps 200 -o $work/native-$seed.ckpt > /dev/null \
            || { echo "$B/attention: training seed $seed failed"; status=1; continue; }
        qemu-aarch64 $work/attention-arm64 train --seed $seed --steps 200 \
            -o $work/arm-$seed.ckpt > /dev/null \
            || { echo "aarch64 under qemu: training seed $seed failed"; status=1; continue; }
        cmp $work/native-$seed.ckpt $work/arm-$seed.ckpt || status=1
        cmp $work/native-$seed.ckpt.log $work/arm-$seed.ckpt.log || status=1
    done
    rm -rf $work
    [ $status = 0 ] || return 1
    echo "seeds 1, 7, 13, 200 steps: aarch64 (gcc $(aarch64-linux-gnu-gcc -dumpversion), glibc, static, under qemu-aarch64) writes the checkpoints and logs of $B/attention ($(cut -d' ' -f1 $B/cflags), $(uname -m))"
}

# A short training run under valgrind's memcheck: no errors, no leaks.
valgrind_clean() {
    B=${B:-build}
    program_refuses && return 1
    if [ "$B" = build-san ]; then
        echo "skipped: valgrind cannot run a program built with AddressSanitizer"; return 77
    fi
    command -v valgrind > /dev/null || { echo "valgrind is not installed"; return 1; }
    work=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX")
    # valgrind cannot decode AVX-512, which -march=native may choose: the
    # program is compiled again with make's command line ($B/cflags), less
    # AVX-512 where the compiler knows the flag.
    compile=$(cat $B/cflags)
    cc -mno-avx512f -x c -c -o /dev/null /dev/null 2>/dev/null && compile="$compile -mno-avx512f"
    compile_copy $work/attention $compile || { echo "compile failed"; rm -rf $work; return 1; }
    out=$(valgrind --error-exitcode=3 --leak-check=full --errors-for-leak-kinds=all \
          $work/attention train --steps 10 -o $work/m.ckpt 2>&1); got=$?
    out2=$(valgrind --error-exitcode=3 --leak-check=full --errors-for-leak-kinds=all \
          $work/attention ask -m $work/m.ckpt 7*8= 2>&1); got2=$?
    rm -rf $work
    if [ $got != 0 ] || [ $got2 != 0 ]; then echo "$out"; echo "$out2"; return 1; fi
    echo "$out" | grep -E "ERROR SUMMARY|in use at exit" | sed 's/^==[0-9]*== /  train: /'
    echo "$out2" | grep -E "ERROR SUMMARY|in use at exit" | sed 's/^==[0-9]*== /  ask: /'
}

# The chapters and their topics come from one map, tests/chapters.awk: a
# chapter is a numbered "# " heading and its topic the heading's {#id}.
# make check (tests/check.sh) takes a chapter by number or by topic, or a
# group, refuses anything else with exit status 2 and a list of the valid
# ones, and refuses a test tagged with no topic or group.  A test of a
# chapter's code tagged "+whole" runs with that chapter's tests when it
# runs alone, and in the group whole otherwise.  Checked with a stand-in
# for a test binary: a script that lists four tests, one in the first
# chapter (failing), two in the group "whole" (one passes, one is skipped)
# and one of the second chapter's with "+whole" (passing).
chapters_by_topic() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    awk -f tests/chapters.awk $NW > $work/map || return 1
    status=0
    fail() { echo "FAIL: $*"; status=1; }
    # lines numbered 1, 2, ..., each a heading "# title {#topic}" of $NW, in order
    awk -F'\t' 'NF != 3 || $1 != NR || $2 !~ /^[a-z][a-z0-9-]*$/ || $3 == "" { exit 1 }' $work/map ||
        fail "a line of the map is not number, topic, title: $(cat $work/map)"
    awk -F'\t' '{ print "# " $3 " {#" $2 "}" }' $work/map > $work/headings
    grep -xFf $work/headings $NW | cmp -s - $work/headings ||
        fail "the map's chapters are not headings of $NW, in order: $(cat $work/map)"
    [ "$(wc -l < $work/map)" -ge 2 ] || fail "fewer than two chapters: $(cat $work/map)"
    first=1 past=$(($(wc -l < $work/map) + 1))
    topic=$(awk -F'\t' 'NR == 1 { print $2 }' $work/map)
    second=$(awk -F'\t' 'NR == 2 { print $2 }' $work/map)
    title=$(awk -F'\t' 'NR == 1 { print $3 }' $work/map)
    # a heading without a topic, or a topic given twice, is refused
    retopic() {     # the first chapter's heading with {#topic} replaced by $1
        awk -v h="# $title {#$topic}" -v new="# $title$1" '$0 == h { $0 = new } { print }' $NW
    }
    retopic "" > $work/no-topic.nw
    out=$(awk -f tests/chapters.awk $work/no-topic.nw 2>&1) && fail "a chapter without a topic was accepted"
    echo "$out" | grep -q "chapter 1 ($title) has no topic" || fail "message: $out"
    retopic " {#$second}" > $work/twice.nw
    out=$(awk -f tests/chapters.awk $work/twice.nw 2>&1) && fail "a topic given twice was accepted"
    echo "$out" | grep -q "topic '$second' is also chapter 1's" || fail "message: $out"
    echo "refused: a chapter without a topic, a topic given twice"
    # the stand-in: with --list, its tests; with CHAPTER set, what tests/chapters.c prints
    echo "$topic" > $work/topic
    echo "$second" > $work/second; echo "$second+whole" > $work/four    # test_four's tag
    cat > $work/fake <<'FAKE'
#!/bin/sh
topic=$(cat "${0%/*}/topic") second=$(cat "${0%/*}/second") four=$(cat "${0%/*}/four")
t=$(printf '\t')
case "$1:$CHAPTER" in
--list:*) echo "$topic${t}some_function${t}test_one"; echo "whole${t}main${t}test_two"
          echo "whole${t}main${t}test_three"; echo "$four${t}main${t}test_four" ;;
*:$second) [ -z "$WHOLE_APART" ] || exit 3     # check.sh runs it with the group whole
          echo "[ RUN      ] test_four"; echo "[       OK ] test_four"
          echo "chapter-result$t$second${t}fake${t}1${t}0${t}0" ;;
*:$topic) echo "[ RUN      ] test_one"; echo "FAILED attention.nw:12: a line of 77 columns"
          echo "ok    a check after it, which passed"
          echo "[  ERROR   ] --- 0x1 != 0"; echo "[   LINE   ] --- tests/fake.c:5: error: Failure!"
          echo "[  FAILED  ] test_one"
          echo "chapter-failure$t$topic${t}fake${t}test_one$t<<a chunk>>, some_function"
          echo "chapter-result$t$topic${t}fake${t}1${t}1${t}0"; exit 1 ;;
*:whole)  echo "[ RUN      ] test_two"; echo "halfway through test_two"
          # it goes on once the line is seen (or after 20 s)
          i=0; while [ ! -e "${0%/*}/seen" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
          echo "[       OK ] test_two"
          echo "[ RUN      ] test_four"; echo "[       OK ] test_four"
          echo "chapter-result${t}whole${t}fake${t}3${t}0${t}1" ;;
esac
FAKE
    chmod +x $work/fake
    for c in $first $topic; do
        out=$(CHAPTER=$c CHECK_TIMES=$work/times sh tests/check.sh $work/fake 2>&1); got=$?
        line=$(echo "$out" | grep "^chapter $first  *$topic  *$title  *FAILED (1 of 1 test)$")
        # the summary gives its reason: the line that says it failed, not the last
        said=$(echo "$out" | sed -n '/^=* by chapter$/,$p' | grep -A1 "^      test_one (fake): checks <<a chunk>>" |
               grep -xF "        it said: FAILED attention.nw:12: a line of 77 columns")
        [ $got = 1 ] && [ -n "$line" ] && [ -n "$said" ] ||
            fail "CHAPTER=$c: status $got, output: $out"
    done
    echo "CHAPTER=$first and CHAPTER=$topic: the stand-in's one test fails, as it should, named in the line for chapter $first with what it said"
    # a test's output comes out as it runs, not when its binary is done:
    # the stand-in's test_two waits until its first line has been seen
    # (in the teacher's edition: the student's log is cut to what a
    # student acts on, once a binary is done)
    EDITION=teacher CHAPTER=whole CHECK_TIMES=$work/times sh tests/check.sh $work/fake > $work/streamed 2>&1 &
    i=0; while ! grep -q '^halfway through test_two$' $work/streamed && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    if grep -q '^halfway through test_two$' $work/streamed && ! grep -q '^\[       OK \] test_two' $work/streamed; then
        echo "a test's output comes out while it runs"
    else fail "the output of a running test was held back: $(cat $work/streamed)"; fi
    touch $work/seen; wait $!
    # a skipped test is counted as skipped, not as passed
    out=$(CHAPTER=whole CHECK_TIMES=$work/times sh tests/check.sh $work/fake 2>&1) || fail "CHAPTER=whole: $out"
    echo "$out" | grep -q "^group  *whole .* passed (2 tests), skipped (1)$" || fail "CHAPTER=whole: $out"
    echo "$out" | grep -qx "      by chapter: 2: 1 (make check CHAPTER=k runs them with k's)" ||
        fail "CHAPTER=whole does not count chapter 2's test: $out"
    echo "CHAPTER=whole: $(echo "$out" | grep '^group' | sed 's/.*\(passed\)/\1/'), chapter 2's counted"
    # the second chapter alone runs its test tagged "+whole"
    out=$(CHAPTER=2 CHECK_TIMES=$work/times sh tests/check.sh $work/fake 2>&1) || fail "CHAPTER=2: $out"
    echo "$out" | grep -q "^chapter 2  *$second .* passed (1 test)$" || fail "CHAPTER=2: $out"
    echo "CHAPTER=2: $(echo "$out" | grep '^chapter 2' | sed 's/.*\(passed\)/\1/'), its test tagged $second+whole"
    for c in $past no-such-topic 0 "$first $topic"; do
        out=$(CHAPTER=$c CHECK_TIMES=$work/times sh tests/check.sh $work/fake 2>&1); got=$?
        listed=$(echo "$out" | grep -c "^  CHAPTER=[0-9]* *or CHAPTER=")
        if [ $got != 2 ] || [ "$listed" != $((past - 1)) ] ||
           ! echo "$out" | grep -q "CHAPTER=build, CHAPTER=whole, CHAPTER=course"; then
            fail "CHAPTER='$c': status $got, output: $out"
        fi
    done
    echo "CHAPTER=$past, no-such-topic, 0, '$first $topic': exit 2, listing the $((past - 1)) chapters and 3 groups"
    # all: one line per chapter, then the group, each within 100 columns
    out=$(CHAPTER= CHECK_TIMES=$work/times sh tests/check.sh $work/fake 2>&1)
    summary=$(echo "$out" | sed -n '/^=* by chapter$/,$p')
    [ "$(echo "$summary" | grep -c '^chapter [0-9]')" = $((past - 1)) ] || fail "not one line per chapter: $out"
    wide=$(echo "$summary" | awk 'length > 100')
    [ -z "$wide" ] || fail "lines over 100 columns: $wide"
    echo "$summary" | grep -q "^chapter 2  *$second .* its 1 test is in group whole$" ||
        fail "chapter 2's line does not send its reader to the group whole: $summary"
    # the stand-in's table is no result of this run: it goes to a file
    echo "$summary" > ${B:-build}/chapters_by_topic.txt
    echo "one line per chapter, within 100 columns: the stand-in's table is in ${B:-build}/chapters_by_topic.txt"
    # a test tagged with no chapter's topic is refused
    echo "no-such-topic" > $work/topic
    out=$(CHECK_TIMES=$work/times sh tests/check.sh $work/fake 2>&1) && fail "a test tagged no-such-topic was accepted: $out"
    echo "$out" | grep -q "test_one is tagged 'no-such-topic'" || fail "message: $out"
    echo "refused: $(echo "$out" | head -1)"
    echo "$topic" > $work/topic; echo "$topic+fast" > $work/four
    out=$(CHECK_TIMES=$work/times sh tests/check.sh $work/fake 2>&1) && fail "a test tagged $topic+fast was accepted: $out"
    echo "$out" | grep -q "test_four is tagged '$topic+fast'" || fail "message: $out"
    echo "refused: $(echo "$out" | head -1)"
    return $status
}

# Course mode.  `make student` writes the student edition, which tangles,
# compiles (warnings are errors) and weaves with the shipped numbers; each
# exercise's own tests (tests/test_exercises.c) fail on its stub; an edition
# with exactly one exercise solved passes exactly that exercise's tests; a
# type error in a stub is reported at the student's attention.nw line.
# The fresh edition's make check fails exactly in the chapters with
# exercises and the group whole, its log naming each chapter as the book
# does and holding no deliberate failure of the build tests.  The edition
# with every exercise solved tangles to the teacher's tangled/ byte for
# byte, and its make check passes, without the PDF (all but the group
# whole, whose tests run the teacher's code: make check runs them).  With
# SANITIZE=1 the edition is compiled by clang with the sanitizers and its
# exercise tests run on the stubs; the rest, which runs no sanitized code
# of its own, is make check's.  Each step says how long it took.
course_mode() {
    B=${B:-build}
    [ "${EDITION:-teacher}" = student ] && { echo "skipped: this is the student edition"; return 77; }
    work=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    t0=$(date +%s)
    took() { echo "    ($(( $(date +%s) - t0 )) s)"; t0=$(date +%s); }
    edition=$work/student
    make -s student STUDENT_DIR=$edition > $work/log 2>&1 || { cat $work/log; return 1; }
    awk -f course/student.awk -v list=1 $NW > $work/exercises
    n=$(wc -l < $work/exercises)
    [ "$n" -ge 8 ] || { echo "only $n exercises"; return 1; }
    echo "make student: $n exercises stubbed in $edition"; took
    # every exercise solved (checked at the end): its edition builds and
    # runs its make check in the background, beside the steps below,
    # which use the edition with stubs (run one after the other, the
    # course's tests ran 6 minutes after the other groups had ended)
    solved=$work/solved
    [ "$B" = build-san ] || {
        make -s student STUDENT_DIR=$solved SOLVED=$(seq -s, 1 $n) > $work/solved-make 2>&1 ||
            { cat $work/solved-make; return 1; }
        (cd $solved && make > $work/solved-make 2>&1 &&
             make check CHAPTER= EXERCISE= > $work/solved-check 2>&1
         echo $? > $work/solved-status) &
        solved_job=$!
    }
    # the README's table names where each exercise is by words that do not
    # go stale as the student writes: its function, its chunk's name and
    # the words its stub starts with, found once in the edition
    # (and its chapter as the book names it, number and title: one name
    # for a chapter, as make's last line, the tests' banners and the
    # summary's lists of exercises give it)
    awk -f tests/chapters.awk $NW > $work/chapters || return 1    # number, topic, title
    named() { awk -F'\t' -v c="$1" '$1 == c { print "chapter " $1 ", " $3 }' $work/chapters; }
    for e in $(seq 1 $n); do
        row=$(grep "^| $e | " $edition/README.md)
        chunk=$(awk -F'|' -v e=$e '$1 == e { print $5 }' $work/exercises)
        f=$(awk -F'|' -v e=$e '$1 == e { print $4 }' $work/exercises | cut -d' ' -f1)
        c=$(awk -F'|' -v e=$e '$1 == e { print $2 }' $work/exercises)
        echo "$row" | grep -qF "| $e | $(named $c | sed 's/^chapter //') |" &&
        echo "$row" | grep -qF "| \`$f\` | \`<<$chunk>>\` | \`TODO, exercise $e\` |" &&
        [ "$(grep -c "TODO, exercise $e (" $edition/$NW)" = 1 ] && grep -qF "<<$chunk>>=" $edition/$NW ||
            { echo "the README's row of exercise $e does not name its chapter, function, chunk and stub: $row"; return 1; }
    done
    echo "the README names each exercise's function, chunk and stub words: $(grep '^| 1 | ' $edition/README.md)"
    # the edition builds: its own Makefile tangles, compiles and weaves the
    # HTML book (make), and the PDF book on request; make ends by saying
    # where the book is and what to run next
    what=all
    [ "$B" = build-san ] && what=program
    (cd $edition && make -s $what > $work/log 2>&1) || { echo "the student edition does not build:"; cat $work/log; return 1; }
    [ "$B" = build-san ] || { [ -f $edition/book/attention.html ] && [ ! -e $edition/book/attention.pdf ] &&
        grep -qxF "Next: read $(named 1), then run: make check EXERCISE=1" $work/log; } ||
        { echo "the edition's make made no book, or did not say what comes next:"; cat $work/log; return 1; }
    grep -q 'TODO, exercise 1 ' $edition/tangled/core.c || { echo "no stub in the edition's core.c"; return 1; }
    echo "the student edition builds: make $what"; took
    # the exercises' tests, and which exercise each belongs to
    (cd $edition && make -s $B/test_exercises > $work/log 2>&1) || { cat $work/log; return 1; }
    $edition/$B/test_exercises --list > $work/tests
    status=0
    tests_of() {    # exercise number -> its tests, one per line
        functions=$(awk -F'|' -v e="$1" '$1 == e { print $4 }' $work/exercises)
        for f in $functions; do awk -F'\t' -v f="$f" '$2 == f { print $3 }' $work/tests; done | sort
    }
    failing() {     # run a test binary (its output to $3); its failing tests, one per line
        (cd "$1" && CHAPTER= "$2") > "${3:-$work/run}" 2>&1
        grep '^chapter-failure' "${3:-$work/run}" | cut -f4 | sort
    }
    all_tests=$(for e in $(seq 1 $n); do tests_of $e; done | sort)
    [ "$(cut -f3 $work/tests | sort)" = "$all_tests" ] ||
        { echo "tests/test_exercises.c has tests that belong to no exercise"; status=1; }
    got=$(failing $edition $B/test_exercises)
    if [ "$got" != "$all_tests" ]; then
        echo "with every exercise stubbed, failing: $(echo $got); expected: $(echo $all_tests)"; status=1
    else
        echo "every exercise stubbed: all $(echo "$all_tests" | wc -l) exercise tests fail"
    fi
    took
    # one exercise solved at a time: exactly its tests pass (not rerun with
    # the sanitizers: the teacher's tests run every solution under them).
    # In the background, beside the steps below, in copies of their own
    # (one after the other, these steps ran alone for the last 2 minutes
    # of make check, on one core of two); what they say is printed at the
    # end
    each_exercise_alone() {
    status=0
    for e in $(seq 1 $n); do
        mine=$(tests_of $e)
        [ -n "$mine" ] || { echo "exercise $e has no test of its own"; status=1; continue; }
        one=$work/one-$e    # the edition's Makefile and tests, exercise e solved
        mkdir -p $one
        cp $edition/Makefile $one/ && ln -s $edition/tests $one/tests && ln -s $edition/course $one/course
        awk -f course/student.awk -v solved=$e $NW > $one/$NW
        # make check EXERCISE=e, as the student types it: it passes, prints no
        # build command and weaves no book
        (cd $one && make check EXERCISE=$e > $one/log 2>&1) ||
            { echo "exercise $e solved alone: make check EXERCISE=$e failed:"; cat $one/log; status=1; continue; }
        grep -q "^exercise $e .* passed (" $one/log || { echo "make check EXERCISE=$e:"; cat $one/log; status=1; }
        if grep -E "^(cc|gcc|clang|awk|notangle|pandoc) " $one/log; then
            echo "make check EXERCISE=$e printed build commands"; status=1; fi
        [ ! -e $one/book/attention.html ] && [ ! -e $one/$B/attention.md ] ||
            { echo "make check EXERCISE=$e wove the book"; status=1; }
        got=$(failing $one $B/test_exercises $one/run)
        want=$(echo "$all_tests" | grep -vxF "$mine")
        if [ "$got" != "$want" ]; then
            echo "exercise $e solved alone: failing $(echo $got); expected $(echo $want)"; status=1
        else
            printf 'exercise %s solved alone (%s): passes %s; the other %s exercise tests still fail\n' \
                $e "$(awk -F'|' -v e=$e '$1 == e { print $3 }' $work/exercises)" \
                "$(echo $mine)" "$(echo "$want" | wc -l)"
        fi
    done
    # the exercises still to solve follow the source: with exercise 1
    # solved alone, make check CHAPTER=c (the quick loop, which builds no
    # program) ends with the other ones
    c1=$(awk -F'|' '$1 == 1 { print $2 }' $work/exercises)
    (cd $work/one-1 && make check CHAPTER=$c1 > $work/one-1/log 2>&1)
    listed=$(sed -n 's/^    make check EXERCISE=\([0-9]*\) .*/\1/p' $work/one-1/log | tr '\n' ' ')
    if grep -q "^still to solve, $((n - 1)) of $n exercises" $work/one-1/log && [ "$listed" = "$(seq -s' ' 2 $n) " ]; then
        echo "exercise 1 solved alone: make check CHAPTER=$c1 ends: $(grep '^still to solve' $work/one-1/log)"
    else
        echo "exercise 1 solved alone: make check CHAPTER=$c1 lists as still to solve: '$listed'"; status=1
    fi
    return $status
    }
    alone_job=""
    [ "$B" = build-san ] || {
        (t=$(date +%s); each_exercise_alone > $work/alone 2>&1; echo $? > $work/alone-status
         echo "    ($(( $(date +%s) - t )) s, beside the steps above)" >> $work/alone) &
        alone_job=$!
    }
    [ "$B" = build-san ] || {
    # the whole make check of the fresh edition, after make: the chapters
    # with exercises fail and the group whole, nothing else; every test that
    # fails needs an exercise (a stub ran in it, or the program refuses to
    # run), and is counted so: "needs exercises 6, 7 and 8 (3 of 3 tests)",
    # none "FAILED" on its own
    # (CHAPTER= on the command line: make check CHAPTER=course passes its
    # own to sub-makes in MAKEFLAGS, which the environment cannot undo)
    topic_of() { awk -F'\t' -v c="$1" '$1 == c { print $2 }' $work/chapters; }
    want=$(cut -d'|' -f2 $work/exercises | sort -n -u | while read c; do topic_of $c; done | tr '\n' ' ')
    (cd $edition && make check CHAPTER= EXERCISE= > $work/check 2>&1)
    verdicts=$(sed -n '/^=* by chapter$/,$p' $work/check | grep -E '^(chapter|group) ')
    wrong=$(echo "$verdicts" | awk -v want="$want" '
        BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) fails[w[i]] = 1; fails["whole"] = 1 }
        { topic = $1 == "group" ? $2 : $3; failed = / needs (exercises? [0-9]+|[0-9]+ exercises)[ ,]/
          if (failed != (topic in fails) + 0 || / FAILED \(/) print }')
    chapters_seen=$(echo "$verdicts" | grep -c '^chapter ')
    if [ "$chapters_seen" != "$(wc -l < $work/chapters)" ] || [ -n "$wrong" ]; then
        echo "a fresh edition's make check: wrong verdicts:"; echo "${wrong:-$(tail -20 $work/check)}"; status=1
    else
        echo "a fresh edition's make check: $want(the chapters with exercises) and whole need exercises, no test fails on its own:"
        echo "$verdicts" | cut -c1-100 | sed 's/^/    /'
    fi
    # and ends with the exercises still to solve, each with its command
    listed=$(sed -n 's/^    make check EXERCISE=\([0-9]*\) .*/\1/p' $work/check | tr '\n' ' ')
    if grep -q "^still to solve, $n of $n exercises" $work/check && [ "$listed" = "$(seq -s' ' 1 $n) " ]; then
        echo "it ends: $(grep '^still to solve' $work/check)"
    else
        echo "a fresh edition's make check does not end with the $n exercises to solve: $listed"; status=1
    fi
    # one name for a chapter, the book's: each exercise still to solve
    # with its chapter's number and title, and every banner of the tests
    # so, none by its topic ("[ training: ...", "[ ffn: ...")
    for e in $(seq 1 $n); do
        c=$(awk -F'|' -v e=$e '$1 == e { print $2 }' $work/exercises)
        under=$(awk -v e=$e '/^  chapter / { sub(/^  /, ""); chapter = $0 }
                             $0 ~ "^    make check EXERCISE=" e " " { print chapter }' $work/check)
        [ "$under" = "$(named $c)" ] ||
            { echo "still to solve: exercise $e is under '$under', not $(named $c)"; status=1; }
    done
    banners=$(grep -E '^\[ [^]=]*: .* \]$' $work/check)
    odd=$(echo "$banners" | grep -vE '^\[ (chapter [0-9]+|group [a-z]+), ')
    [ -n "$banners" ] && [ -z "$odd" ] ||
        { echo "banners that name no chapter as the book does:"; echo "${odd:-(no banner)}" | sort -u; status=1; }
    # what the student reads: no deliberate failure of the build tests (a
    # package that does not exist, a misspelt chunk, a stray root, a type
    # error planted to see where it is reported, maths KaTeX refuses)
    noise=$(grep -e 'no-such-package' -e 'numbres' -e 'a chunk nobody uses' -e 'int unused' \
                 -e 'KaTeX cannot typeset' $work/check)
    [ -z "$noise" ] || { echo "the build tests' deliberate failures, in the student's log:"; echo "$noise"; status=1; }
    echo "its log: $(wc -l < $work/check) lines, no deliberate failure of the build tests; chapters named as the book names them"
    # it made no PDF, and its tests of the PDF skipped, saying how to make
    # it; on request, the edition makes it
    skipped=$(grep -c '^skipped: .* (make book/attention.pdf makes it)$' $work/check)
    [ "$skipped" -gt 0 ] && [ ! -e $edition/book/attention.pdf ] ||
        { echo "a fresh edition's make check made the PDF, or no test of the PDF skipped"; status=1; }
    (cd $edition && make -s book/attention.pdf > $work/log 2>&1) && [ -f $edition/book/attention.pdf ] ||
        { echo "the edition's make book/attention.pdf made no PDF:"; cat $work/log; status=1; }
    echo "without the PDF, $skipped tests of it skipped, saying how to make it; make book/attention.pdf made it"
    took
    # as a student types it, by number (make check CHAPTER=n): a chapter
    # with exercises fails, and runs the tests of the exercises whose stubs
    # name it; the first chapter without one passes (make check above ran
    # every chapter; the chapters are compared by topic, tests/chapters.awk)
    plain=$(cut -f1 $work/chapters | grep -vxF "$(cut -d'|' -f2 $work/exercises)" | head -1)
    for c in $(cut -d'|' -f2 $work/exercises | sort -n -u) $plain; do
        (cd $edition && make check CHAPTER=$c > $work/log-$c 2>&1); got=$?
        grep -q "^chapter $c  *$(topic_of $c) " $work/log-$c ||
            { echo "CHAPTER=$c printed no line for chapter $c, $(topic_of $c):"; tail -3 $work/log-$c; status=1; }
        if [ "$c" = "$plain" ]; then [ $got = 0 ] || { echo "CHAPTER=$c, which has no exercise, failed"; status=1; }
        else [ $got != 0 ] || { echo "CHAPTER=$c, which has exercises, passed"; status=1; }; fi
    done
    stubs=ok
    for e in $(seq 1 $n); do
        c=$(sed -n "s/^ *\/\* TODO, exercise $e (make check EXERCISE=$e; its chapter: CHAPTER=\([0-9]*\))\.\$/\1/p" $edition/$NW)
        [ -n "$c" ] && [ -f $work/log-$c ] || { echo "exercise $e: its stub names no chapter ('$c')"; stubs=; continue; }
        for t in $(tests_of $e); do
            grep -q "^      $t (exercises): needs exercise $e; checks" $work/log-$c ||
                { echo "exercise $e's stub says CHAPTER=$c, which does not fail its test $t"; stubs=; }
        done
    done
    if [ -n "$stubs" ]; then echo "each stub's make check CHAPTER=n runs its exercise's tests, failing; CHAPTER=$plain passes"
    else status=1; fi
    took
    # each stub fails make check EXERCISE=e with the case it tried and the
    # line of the check that failed: a line of tests/test_exercises.c that
    # calls expect_close or expect_that, not the helpers' own lines
    cases=ok
    for e in $(seq 1 $n); do
        (cd $edition && make check EXERCISE=$e > $work/log 2>&1) &&
            { echo "make check EXERCISE=$e passed on a stub"; cases=; continue; }
        at=$(sed -n 's/.*LINE.*tests\/test_exercises\.c:\([0-9]*\):.*/\1/p' $work/log | head -1)
        grep -q '^the smallest case that fails:$' $work/log && [ -n "$at" ] &&
        sed -n "${at}p" tests/test_exercises.c | grep -q 'expect_\(close\|that\)(' || {
            echo "make check EXERCISE=$e names no case, or no check's line ($at):"; cat $work/log; cases=; }
        # the exercise's own stub: 'still a stub', not 'needs exercise e'
        grep -q "^exercise $e .* still a stub (1 of 1 test)$" $work/log && ! grep -q "needs exercise $e" $work/log ||
            { echo "make check EXERCISE=$e on its stub:"; sed -n '/the exercise$/,$p' $work/log; cases=; }
    done
    [ -n "$cases" ] && echo "each stub's make check EXERCISE=e names the smallest failing case and its check's line: $(
        grep -A3 '^the smallest case that fails:$' $work/log | tail -3 | tr -s ' ' | tr '\n' ' ')"
    [ -n "$cases" ] || status=1
    took
    # the exercises solved one at a time (in the background, above)
    wait $alone_job
    cat $work/alone
    [ "$(cat $work/alone-status 2>/dev/null)" = 0 ] || status=1
    # every exercise solved: the teacher's C, byte for byte; its whole make
    # check passes
    for root in $(ls tangled); do
        cmp -s $solved/tangled/$root tangled/$root ||
            { echo "every exercise solved: the edition's tangled/$root is not the teacher's"; status=1; }
    done
    # its make check, after its make, passes: every chapter and the groups
    # build and whole, without the PDF, which its make does not make;
    # nothing fails, nothing needs an exercise.  The group whole runs here
    # though the teacher's make check runs it on the same C: in the student
    # edition some of its tests take other ways (the results they compare
    # with are the teacher's, shipped in results/; there is no live book's
    # module), which no other run takes with every exercise solved.  (It
    # takes about 3.5 minutes of one core.)
    wait $solved_job
    [ "$(cat $work/solved-status 2>/dev/null)" = 0 ] ||
        { echo "every exercise solved: make, or make check, fails:"; tail -40 $work/solved-make $work/solved-check; status=1; }
    verdicts=$(sed -n '/^=* by chapter$/,$p' $work/solved-check | grep -E '^(chapter|group) ')
    wrong=$(echo "$verdicts" | grep -v -e ' passed (' -e ' skipped (' -e ' no tests of its own$' -e ' in group whole$')
    [ -n "$verdicts" ] && [ -z "$wrong" ] && [ ! -e $solved/book/attention.pdf ] &&
        echo "$verdicts" | grep -q '^group  *build ' && echo "$verdicts" | grep -q '^group  *whole  *.* passed (' ||
        { echo "every exercise solved: make check's verdicts, or a PDF made:"; echo "$verdicts"; status=1; }
    echo "every exercise solved: tangled/ is the teacher's; make check passes without the PDF, its log $(wc -l < $work/solved-check) lines:"
    echo "$verdicts" | sed 's/^/    /'
    grep -q '^still to solve' $work/solved-check && { echo "every exercise solved: make check lists exercises to solve"; status=1; }
    # and make ends saying so, not with exercise 1 (the program and the
    # book taken as made: only the last lines run)
    next=$(cd $solved && make -s -o program -o book/attention.html all 2>&1 | grep '^Next:')
    [ "$next" = "Next: every exercise is solved; make check runs every test" ] ||
        { echo "every exercise solved: make ends '$next'"; status=1; }
    echo "every exercise solved: make ends '$next'"
    took
    }
    # a type error in a stub names the student's attention.nw and its line
    line=$(grep -n '^    /\* TODO, exercise 1 ' $edition/$NW | head -1 | cut -d: -f1)
    [ -n "$line" ] || { echo "no TODO line in the student's $NW"; return 1; }
    sed "${line}s|^|    int broken = \"one\" * 2; |" $edition/$NW > $edition/nw.tmp && mv $edition/nw.tmp $edition/$NW
    log=$(cd $edition && make program 2>&1) && { echo "the broken stub compiled"; return 1; }
    echo "$log" | grep -q "^$NW:$line:[0-9]*: error: " || { echo "no error at $NW:$line in:"; echo "$log"; return 1; }
    echo "student's compiler error: $(echo "$log" | grep "^$NW:$line:[0-9]*: error: " | head -1)"
    return $status
}

# Mistakes a student makes, written into the teacher's attention.nw (every
# exercise solved) one at a time: mistake NAME FILE changes FILE and
# prints the exercise it breaks; it fails if the solution it changes is
# not found.  course_mistakes and exercise_guard use them.
mistake() {
    case $1 in
        max-over-T)     e=7     # the largest score over all T, masked ones too
            edit='s/(    for \(int u = 0; )u <= t(; u\+\+\) \{\n        max = score\[u\])/$1u < T$2/' ;;
        past-the-end)   e=6     # a score written at score[T], past the end
            edit='s/for \(int u = t \+ 1; u < T; u\+\+\)(\n\s+score\[u\] = -INFINITY;)/for (int u = t + 1; u <= T; u++)$1/' ;;
        marking-left)   e=6     # the stub's marking line left in the solution
            edit='s/(    real root = sqrt\(\(real\)d_head\);\n)(    for \(int u = 0; u <= t; u\+\+\) \{\n        real dot)/$1    exercise_stubs_ran |= 1u << 6;   \/* delete with the stub *\/\n$2/' ;;
        inexact-scores) e=6     # times 1/sqrt(d_head): not the classic form's bits
            edit='s/score\[u\] = dot \/ root;/score[u] = dot * (1 \/ root);/' ;;
        term-left-out)  e=5     # LayerNorm's backward without its last term
            edit='s/s \* \(d_norm - d_norm_mean - norm \* d_norm_norm_mean\)/s * (d_norm - d_norm_mean)/' ;;
        *) echo "no mistake $1" >&2; return 1 ;;
    esac
    cp "$2" "$2.before" && perl -0pi -e "$edit" "$2" || return 1
    if cmp -s "$2" "$2.before"; then rm -f "$2.before"; echo "mistake $1: its solution is not in $2" >&2; return 1; fi
    rm -f "$2.before"
    echo $e
}

# The exercises' tests catch the mistakes that passed them before: in an
# edition with every exercise solved, each mistake in turn, and make check
# EXERCISE=k, as the student types it, fails naming it: the largest score
# taken over all T (a masked score above the visible ones: the case
# t = 1 of exercise 7's test), a score written past the end (the quick
# loop runs the tests under the sanitizers too: a stack-buffer-overflow
# in attention_scores), a stub's marking line left in a solved function
# (named, with its line).
course_mistakes() {
    B=${B:-build}
    [ "${EDITION:-teacher}" = student ] && { echo "skipped: this is the student edition"; return 77; }
    [ "$B" = build-san ] &&
        { echo "skipped: make check EXERCISE=k builds its sanitized tests itself (make check runs this test)"; return 77; }
    work=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    n=$(awk -f course/student.awk -v list=1 $NW | wc -l)
    edition=$work/edition
    make -s student STUDENT_DIR=$edition SOLVED=$(seq -s, 1 $n) > $work/log 2>&1 || { cat $work/log; return 1; }
    status=0
    for m in max-over-T past-the-end marking-left; do
        cp $NW $edition/$NW
        e=$(mistake $m $edition/$NW) || return 1
        (cd $edition && make check EXERCISE=$e > $work/log 2>&1) &&
            { echo "mistake $m: make check EXERCISE=$e passed:"; cat $work/log; status=1; continue; }
        case $m in
            max-over-T) grep -q '^  attention_softmax(weight, score, t = 1, T = 5)$' $work/log ;;
            past-the-end) grep -q 'stopped, under the sanitizers: stack-buffer-overflow at attention.nw:[0-9]* in attention_scores' $work/log ;;
            marking-left) line=$(grep -n 'exercise_stubs_ran |= 1u << 6;' $edition/$NW | cut -d: -f1)
                grep -q "exercise_stubs_ran |= 1u << 6; (attention.nw:$line): delete it" $work/log ;;
        esac || { echo "mistake $m: make check EXERCISE=$e failed, but did not say why:"; cat $work/log; status=1; continue; }
        echo "mistake $m, in exercise $e: make check EXERCISE=$e fails: $(
            grep -e '^  attention_softmax(' -e 'stopped, under' -e 'delete it' $work/log | head -1 | sed 's/^ *//')"
    done
    return $status
}

# The exercises' statements give what a student needs to write the code.
# A statement names a struct's members as the code reaches them, through
# the parameter that holds the struct (p->m[i], not m[i]), and names the
# struct itself; the rotation's statement says which entry of J holds +s
# and which -s, as rotate's code has them; and a chunk that an exercise's
# function uses inside its loop, written before its use is moved there,
# brings no compiler error about names undeclared at the top of the
# function: the edition's make check EXERCISE=k says the exercise is
# still a stub.
exercise_statements() {
    B=${B:-build}
    [ "${EDITION:-teacher}" = student ] && { echo "skipped: this is the student edition"; return 77; }
    [ "$B" = build-san ] &&
        { echo "skipped: no sanitized code of its own (make check runs it on the plain build)"; return 77; }
    work=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    status=0
    awk -f course/student.awk -v list=1 $NW > $work/exercises || return 1
    python3 - $NW $work/exercises > $work/out <<'PY' || status=1
import re, sys
nw = open(sys.argv[1]).read()
structs = {}
for body, name in re.findall(r"typedef struct \{\n(.*?)\n\} (\w+);", nw, re.S):
    members = set()
    for line in body.split("\n"):
        line = re.sub(r"/\*.*?\*/", "", line).split(";")[0]
        for piece in line.split(","):
            words = re.findall(r"\w+", re.sub(r"\[.*?\]", "", piece))
            if words: members.add(words[-1])
    structs[name] = members
statements = re.findall(r"^::: \{\.exercise[^}]*\}\n(.*?)^:::$", nw, re.S | re.M)
bad = 0
for line, statement in zip(open(sys.argv[2]), statements):
    number, _, title, functions = line.split("|")[:4]
    text = " ".join(statement.split())
    for f in functions.split():
        header = re.search(r"^[\w ]*\b" + f + r"\((.*?)\)\n\{", nw, re.S | re.M).group(1)
        for struct, param in re.findall(r"(\w+) \*(\w+)", header):
            if struct not in structs: continue
            if "[[" + struct + "]]" not in text:
                print(f"exercise {number} ({title}): {param} is a {struct}, which the statement does not name"); bad = 1
            for quote in re.findall(r"\[\[(.*?)\]\](?!\])", text):
                first = re.match(r"\w+", quote)
                if first and first.group(0) in structs[struct] and first.group(0) != param:
                    print(f"exercise {number} ({title}): [[{quote}]] is a member of {struct}: write {param}->{quote}"); bad = 1
        if f == "rotate":
            code = re.search(r"a\[k \* n \+ p\] = c \* akp ([-+]) s \* akq;", nw).group(1)
            want = "$J_{qp} = " + code + "s$"
            other = "$J_{pq} = " + ("+" if code == "-" else "-") + "s$"
            if want not in text or other not in text:
                print(f"exercise {number} ({title}): the statement does not say {want} and {other}, as rotate has them"); bad = 1
    print(f"exercise {number}: {title}: checked")
sys.exit(bad)
PY
    cat $work/out
    # exercise 5: its chunk of averages written first, its use not yet moved
    edition=$work/edition
    make -s student STUDENT_DIR=$edition > $work/log 2>&1 || { cat $work/log; return 1; }
    chunk=$(awk -F'|' '$1 == 5' $work/exercises | cut -d'|' -f5)
    averages=$(awk '/^<<the row.s averages of / && />>=$/ { on = 1; next } on && /^@/ { exit } on' $NW)
    [ -n "$averages" ] || { echo "no chunk of averages in $NW"; return 1; }
    printf '%s\n' "$averages" > $work/averages
    awk -v file=$work/averages '/^<<the row.s averages of / && />>=$/ { print; while ((getline l < file) > 0) print l; skip = 1; next }
        skip && /^@/ { skip = 0 } !skip' $edition/$NW > $work/nw && mv $work/nw $edition/$NW
    (cd $edition && make check EXERCISE=5 > $work/log 2>&1)
    if grep -Eq '^attention\.nw:[0-9]+:[0-9]+: error:' $work/log || ! grep -q '^exercise 5 .* still a stub' $work/log; then
        echo "exercise 5, its averages written before their use is moved:"; cat $work/log; status=1
    else
        echo "exercise 5, its averages written before their use is moved: no compiler error; $(grep '^exercise 5' $work/log | tr -s ' ')"
    fi
    return $status
}

# The guard is a promise: a program built with any exercise still a stub
# never gives a wrong answer with exit status 0.  Editions with exercises
# {none}, {7}, {1, 4, 7}, all but 8 and all solved (course/student.awk
# solved=...) are tangled and compiled (the program only, -O1, no book);
# each asks 7*8= of the book's model and trains one of its own, then asks
# that, and traces and draws one topic: every command either answers right
# (7*8=56;) or refuses with exit status 1, naming exactly the exercises
# still stubs and `make check EXERCISE=k` for each.  The edition with every
# exercise solved tangles to the teacher's tangled/ byte for byte, so it is
# the program make built, whose answers the group whole checks.  Then every
# exercise solved but one written wrong (the mistakes above: LayerNorm's
# backward without its last term, scores times 1/sqrt(d_head), a marking
# line left): ask and train refuse, naming it and what is wrong.
exercise_guard() {
    B=${B:-build}
    [ "${EDITION:-teacher}" = student ] && { echo "skipped: this is the student edition"; return 77; }
    [ "$B" = build-san ] &&
        { echo "skipped: no sanitized code of its own (make check runs it on the plain build)"; return 77; }
    [ -x $B/attention ] && [ -f $B/model.ckpt ] || { echo "$B/attention or $B/model.ckpt not built (run make)"; return 1; }
    work=$(mktemp -d "${TMPDIR:-/tmp}/attention-test.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    n=$(awk -f course/student.awk -v list=1 $NW | wc -l)
    [ "$n" -ge 9 ] || { echo "only $n exercises"; return 1; }
    all=$(seq -s, 1 $n)
    but8=$(seq 1 $n | grep -vx 8 | tr '\n' , | sed 's/,$//')
    roots=$(ls tangled | grep -v '^web\.c$')
    status=0
    for solved in none 7 1,4,7 $but8 $all; do
        e=$work/$solved; mkdir -p $e/src
        awk -f course/student.awk -v solved=$solved $NW > $e/$NW || return 1
        for root in $roots; do notangle -R"$root" $e/$NW > $e/src/$root || return 1; done
        unsolved=$(seq 1 $n | tr ',' '\n' | grep -vxF "$(echo $solved | tr ',' '\n')" | tr '\n' ' ')
        if [ -z "$unsolved" ]; then
            for root in $roots; do cmp -s $e/src/$root tangled/$root ||
                { echo "every exercise solved: $root differs from tangled/$root"; status=1; }; done
            echo "every exercise solved: the edition's C is tangled/ byte for byte, the program make built"
            continue
        fi
        (cd $e/src && cc -std=c11 -O1 -ffp-contract=off -o ../attention *.c -lm) > $e/log 2>&1 ||
            { cat $e/log; echo "exercises $solved solved: the program does not compile"; status=1; continue; }
        # the words the refusal must hold: the exercises, and a command for each
        list=$(echo $unsolved | awk '{ for (i = 1; i <= NF; i++)
                   printf "%s%s", $i, i == NF ? "" : i == NF - 1 ? " and " : ", " }')
        verdicts=""
        judge() {   # what, status, output
            if [ "$2" = 0 ] && [ "$3" = "7*8=56;" ]; then verdicts="$verdicts $1: 56;"; return; fi
            if [ "$2" = 0 ] && [ "$1" != ask ] && [ "$1" != "ask (fresh)" ]; then
                echo "exercises $solved solved: $1 ran with exit 0 while $unsolved are stubs:"; echo "$3" | head -5
                status=1; return; fi
            if [ "$2" = 1 ] && echo "$3" | grep -q "refusing to run: exercises\{0,1\} $list \(is\|are\) still" &&
               [ "$(echo "$3" | sed -n 's/^  make check EXERCISE=\([0-9]*\)$/\1/p' | tr '\n' ' ')" = "$unsolved" ]; then
                verdicts="$verdicts $1: refused;"; return; fi
            echo "exercises $solved solved (stubs: $unsolved): $1 gave exit $2 and:"; echo "$3" | head -12; status=1
        }
        out=$($e/attention ask -m $B/model.ckpt '7*8=' 2>&1); judge ask $? "$out"
        out=$($e/attention train -o $e/fresh.ckpt 2>&1); got=$?
        if [ $got = 0 ]; then
            out=$($e/attention ask -m $e/fresh.ckpt '7*8=' 2>&1); judge "ask (fresh)" $? "$out"
        else judge train $got "$out"; fi
        out=$($e/attention trace -m $B/model.ckpt '7*8=' 2>&1); judge trace $? "$out"
        out=$($e/attention figures -m $B/model.ckpt -o $e/results --part routing 2>&1); judge figures $? "$out"
        echo "exercises $solved solved, stubs $list:$verdicts"
    done
    # every exercise solved but one, written wrong (not a stub): the
    # program refuses, naming it, and what is wrong with it
    for m in term-left-out inexact-scores marking-left; do
        e=$work/$m; mkdir -p $e/src
        cp $NW $e/$NW
        k=$(mistake $m $e/$NW) || return 1
        for root in $roots; do notangle -R"$root" $e/$NW > $e/src/$root || return 1; done
        (cd $e/src && cc -std=c11 -O1 -ffp-contract=off -o ../attention *.c -lm) > $e/log 2>&1 ||
            { cat $e/log; echo "mistake $m: the program does not compile"; status=1; continue; }
        case $m in marking-left) says="exercise $k still holds its stub's marking line" ;;
                   *) says="exercise $k gives a wrong answer on a small case" ;; esac
        verdicts=""
        for what in ask train; do
            case $what in
                ask)   out=$($e/attention ask -m $B/model.ckpt '7*8=' 2>&1); got=$? ;;
                train) out=$($e/attention train --steps 10 -o $e/fresh.ckpt 2>&1); got=$? ;;
            esac
            if [ $got = 1 ] && echo "$out" | grep -q "^attention: refusing to run: $says" &&
               [ "$(echo "$out" | sed -n 's/^  make check EXERCISE=\([0-9]*\)$/\1/p')" = "$k" ]; then
                verdicts="$verdicts $what: refused;"
            else
                echo "mistake $m in exercise $k: $what gave exit $got and:"; echo "$out" | head -5; status=1
            fi
        done
        echo "mistake $m in exercise $k: '$says';$verdicts"
    done
    [ $status = 0 ] && echo "no edition gave a wrong answer with exit status 0"
    return $status
}

# The live edition of the book in Debian's chromium, headless, from file://
# (tests/live_test.js, driven by puppeteer-core, which make check installs
# with npm ci): it trains seed 1 in the page and compares the downloaded
# checkpoint with attention train's, byte for byte; walks the stepper
# through 7*8= and compares its numbers with attention trace; checks the
# messages for bad input, the console, and the width at 1280 and 400 px.
# It runs one experiment of chapter 7 and one of chapter 8 in the page
# and compares them with the native runs (ablations.md, heads.md and the
# book's model's training log), while another widget answers.
# The screenshots are left in $B/live/.
live_book() {
    b=${B:-build}
    if [ "${EDITION:-teacher}" = student ]; then
        echo "skipped: the student edition's book is the static page"; exit 77
    fi
    if [ ! -d node_modules/puppeteer-core ]; then
        echo "node_modules/puppeteer-core is missing: run npm ci (make check does)"; return 1
    fi
    grep -q 'id="live-module"' book/attention.html || { echo "book/attention.html is not the live edition"; return 1; }
    node tests/live_test.js book/attention.html "$b/attention" "$b/model.ckpt" "$b/live"
}

# No chunk name is defined in more than 12 parts (issue 25): a name that
# gathers more is a catch-all, to be split into named pieces listed in its
# root's outline.  Counted with noweb's own markup.
chunk_names_at_most_12_parts() {
    counts=$(/usr/lib/noweb/markup $NW | sed -n 's/^@defn //p' | sort | uniq -c | sort -rn) ||
        return 1
    over=$(echo "$counts" | awk '$1 > 12')
    [ -z "$over" ] || { echo "chunk names defined in more than 12 parts:"; echo "$over"; return 1; }
    echo "every chunk name has at most 12 parts; the most: $(echo "$counts" | head -1 | sed 's/^ *//')"
}

# No function of the program is longer than 60 lines, from its opening
# brace to its closing one (issue 38): a longer one is split into
# functions a reader takes in whole.  Each function of tangled/ is found
# by its braces in column 0; the longest are printed.
functions_at_most_60_lines() {
    awk '/^[A-Za-z].*\(/ && !/;$/ { sig = $0 }
         /^\{/ { start = FNR; name = sig; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name) }
         /^\}/ && start { n = FNR - start + 1; print n "\t" FILENAME "\t" name; start = 0 }' \
        tangled/*.c | sort -rn > "${TMPDIR:-/tmp}/functions.$$"
    long=$(awk -F'\t' '$1 > 60 { printf "%s: %s, %d lines\n", $2, $3, $1 }' "${TMPDIR:-/tmp}/functions.$$")
    count=$(wc -l < "${TMPDIR:-/tmp}/functions.$$")
    top=$(head -3 "${TMPDIR:-/tmp}/functions.$$" | awk -F'\t' '{ printf "%s%s %d", (NR > 1 ? ", " : ""), $3, $1 }')
    rm -f "${TMPDIR:-/tmp}/functions.$$"
    [ "$count" -gt 400 ] || { echo "only $count functions found in tangled/*.c"; return 1; }
    [ -z "$long" ] || { echo "functions over 60 lines:"; echo "$long"; return 1; }
    echo "$count functions, none over 60 lines; the longest: $top"
}

# The story's chapters hold at most 1,250 lines of code (issue 25): the
# machinery lives in appendices named by topic.  A code line is a line
# that is not blank inside a code chunk of a numbered chapter (a level-1
# heading without "-", as tests/chapters.awk reads them); each chapter's
# code and prose lines are printed.
story_code_at_most_1250_lines() {
    # chapters 1-10 hold at most 1,250 code lines, and none more code lines
    # than prose lines (non-blank lines; code is the lines inside chunks)
    # the count is the teacher's book's: an edition's stubs are other lines
    [ "${EDITION:-teacher}" = student ] &&
        { echo "skipped: the student edition's stubs are not the book's code (make check counts the book)"; return 77; }
    awk '
        /^<<.*>>=[ \t]*$/ { code = 1; next }
        /^@( |$)/         { code = 0; next }
        !code && /^# / {
            chapter = 1; attributes = ""
            if (match($0, /\{[^{}]*\}[ \t]*$/)) attributes = substr($0, RSTART + 1, RLENGTH - 2)
            k = split(attributes, attribute, " ")
            for (i = 1; i <= k; i++)
                if (attribute[i] == "-" || attribute[i] ~ /^\.unnumbered/) chapter = 0
            if (chapter) { n++; title[n] = substr($0, 3); sub(/ *\{.*/, "", title[n]) }
            next
        }
        chapter && /[^ \t]/ { if (code) lines[n]++; else prose[n]++ }
        END {
            for (i = 1; i <= n; i++) {
                printf "chapter %d: %d code lines, %d prose lines (%s)\n", i, lines[i], prose[i], title[i]
                total += lines[i]
                if (lines[i] > prose[i]) { more = more " " i }
            }
            printf "chapters 1-%d: %d code lines (at most 1250)\n", n, total
            if (more != "") printf "more code lines than prose lines (each chapter at most as many): chapter%s\n", more
            exit total > 1250 || more != ""
        }' $NW
}

# Under the sanitizers (make check SANITIZE=1) the tests of the books, the
# figures and the browser are skipped, and those of other builds of the
# program (the compile matrix, ARM): they run no sanitized code, make
# check runs them on the same sources, and make check SANITIZE=1 weaves no
# book.  This is the one list of them.
if [ "${B:-build}" = build-san ]; then
    case " compile_matrix arm_trains_the_same_bytes
           prose_edit_recompiles_nothing html_links_resolve line_charts_survive_grey
           figures_keep_the_standard figure_references_agree tables_and_appendices_agree book_apparatus pdf_carets_are_carets
           pdf_no_overfull_box pdf_page_layout chunk_labels_agree code_identifiers_linked
           no_placeholder_survives numbers_read_as_prose page_on_screen
           katex_error_fails live_book " in
        *[[:space:]]$1[[:space:]]*)
            echo "skipped under the sanitizers: it runs no sanitized code (make check runs it)"
            exit 77 ;;
    esac
fi
"$@"
