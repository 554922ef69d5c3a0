# Makefile for attention.nw
#
#   make          tangle, compile, run the experiments, weave the HTML and PDF book
#   make check    run the tests (cmocka)
#   make tangle   extract every root of attention.nw into tangled/ and build/src/
#
# Everything generated goes to build/ (build-san/ with SANITIZE=1) except
# tangled/ (committed) and the two books in book/.  Each root of attention.nw
# is tangled twice, each file written only when it changes (an unchanged
# file keeps its time):
#   tangled/    plain notangle: C that reads as if written by hand, committed;
#               the experiments rerun only when these files change
#   build/src/  notangle -L: with #line directives, so that the compiler and
#               gdb name lines of attention.nw; this is what make compiles
# So a prose edit recompiles nothing unless it moves code to other lines,
# and reruns no experiment even then.

NW      := attention.nw
# teacher: this repository, the exercises solved; student: the edition that
# `make student` writes, the exercises stubbed (see "For teachers" in README.md)
EDITION ?= teacher
export EDITION
# make check SANITIZE=1: the program and the tests built by clang with the
# address and undefined-behaviour sanitizers, in a build directory of their
# own, with sweeps of 5 seeds, not 20 (the same code, a quarter of the runs).
SANITIZE ?= 0
ifeq ($(SANITIZE),1)
CC      := clang
B       := build-san
SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g \
           -DATTENTION_SEEDS=5
else
B       := build
SAN     :=
endif
export B
CC      ?= cc
# Speed without changing a bit of the results (a test builds the program
# with -O0 and compares the checkpoint it trains):
#   -O3                 vectorises the matrix loops (about three times faster)
#   -march=native       the machine's widest vector instructions, where known
#   -fno-math-errno     errno is never read: square roots in one instruction
#   -fno-trapping-math  the exception flags are never read: GELU's loops vectorise
# ISO C fixes the order of every sum; vectorising only computes independent
# sums side by side.  Never -ffast-math: it reorders sums, and the two forms
# of attention must agree bit for bit.
NATIVE  := $(shell $(CC) -march=native -x c -c -o /dev/null /dev/null 2>/dev/null && echo -march=native)
CFLAGS  ?= -O3 -fno-math-errno -fno-trapping-math $(NATIVE)
# Warnings: make shows them and goes on, since a newer compiler than ours
# may warn about code that ours passed; make check, and so CI, makes every
# one an error: it compiles the tests with -Werror, and every C file of the
# program in the compile matrix below.  make WERROR=1 makes them errors in
# make's own build too.
WARNINGS := -std=c11 -Wall -Wextra -Wpedantic
WERROR  ?= 0
WARN    := $(WARNINGS) $(if $(filter 1,$(WERROR)),-Werror)
# ISO C forbids contracting a*b+c into one rounding; say so for every compiler,
# so that results do not depend on whether the machine has FMA.
STRICT  := -ffp-contract=off
LDLIBS  := -lm

# The roots of attention.nw: C files, headers.  `noroots` must list exactly
# these.  The core (core, typed, checkpoint, dissect) does no I/O; around it the
# growable text everything writes to (text), the figures (svg; views,
# those the live book draws too, also no I/O), files,
# the experiments (one file per topic of the book, exp_TOPIC.c, and what
# they share) and the command line (main).
TOPICS  := perceptron specimen routing ablations heads ffn speed layouts heldout longer
CORE    := core.c typed.c checkpoint.c dissect.c
C_ROOTS := $(CORE) text.c svg.c views.c files.c claims.c experiments.c sweep.c $(TOPICS:%=exp_%.c) trace.c main.c
H_ROOTS := core.h exercises.h typed.h checkpoint.h dissect.h text.h svg.h views.h files.h claims.h experiments.h trace.h
# web.c: the live book's module (section "the live book" below)
WEB_ROOTS := web.c
ROOTS   := $(H_ROOTS) $(C_ROOTS) $(WEB_ROOTS)
TANGLED := $(addprefix tangled/,$(ROOTS))
SRC     := $(B)/src
MAPPED  := $(addprefix $(SRC)/,$(ROOTS))

PROGRAM := $(B)/attention
OBJECTS := $(patsubst %.c,$(B)/%.o,$(C_ROOTS))

NOWEB_LIB := /usr/lib/noweb
# The weave's tools (the student edition gets a copy).
BOOK_TOOLS := book/nwpandoc.awk book/book.lua book/nwpost.awk book/checklinks \
  book/katex.js book/weave.css book/weave-preamble.tex book/webfonts.py book/parted.html \
  book/page.html book/references.bib book/print.theme

.PHONY: all tangle program book check clean deps bench bench-live reference fuzz student tests list-tests FORCE

# Use every core: the experiments' topics, and the HTML and PDF books, are
# independent and run side by side.
MAKEFLAGS += --jobs=$(shell nproc 2>/dev/null || echo 1) --output-sync=target
.DELETE_ON_ERROR:

# The student edition's make builds what a student reads and runs: the
# program and the HTML book; the PDF, which takes longer than both, is
# made on request (make book/attention.pdf).  It ends with the first
# exercise still stubbed in attention.nw (course/student.awk's list).
ifeq ($(EDITION),student)
all: program book/attention.html
	@echo "The book is book/attention.html (open it in a browser); make book/attention.pdf makes the PDF."
	@awk -f course/student.awk -v list=1 $(NW) | awk -F'|' -v map="$$(awk -f tests/chapters.awk $(NW))" \
	  'BEGIN { n = split(map, line, "\n"); for (i = 1; i <= n; i++) { split(line[i], f, "\t"); named[f[1]] = f[3] } } \
	  $$6 == 1 { print "Next: read chapter " $$2 ", " named[$$2] ", then run: make check EXERCISE=" $$1; found = 1; exit } \
	  END { if (!found) print "Next: every exercise is solved; make check runs every test" }'
else
all: program book
	@echo "The books are book/attention.html (open it in a browser; the live book) and book/attention.pdf;"
	@echo "the program is build/attention, the book's model build/model.ckpt."
	@echo "Next: build/attention ask '7*8='   (then make check: the tests)"
endif

# ---------------------------------------------------------------- dependencies
# Each entry is "command-or-file:debian-package".  Missing ones are installed
# with apt-get when we are root; otherwise make stops with the one command to run.
NEEDS := notangle:noweb pandoc:pandoc pdflatex:texlive-latex-base \
  /usr/share/texlive/texmf-dist/tex/latex/fvextra/fvextra.sty:texlive-latex-extra \
  /usr/share/texlive/texmf-dist/tex/latex/upquote/upquote.sty:texlive-latex-recommended \
  /usr/share/texlive/texmf-dist/fonts/type1/urw/palatino/uplr8a.pfb:texlive-fonts-recommended \
  /usr/share/texmf/tex/latex/lm/lmodern.sty:lmodern \
  rsvg-convert:librsvg2-bin pdftotext:poppler-utils /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf:fonts-dejavu-core \
  /usr/include/cmocka.h:libcmocka-dev cc:gcc awk:mawk python3:python3 \
  clang:clang valgrind:valgrind musl-gcc:musl-tools \
  /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.asan-x86_64.a:libclang-rt-14-dev
deps:
	@missing=""; for need in $(NEEDS); do what=$${need%%:*}; pkg=$${need##*:}; \
	  case $$what in /*) test -e $$what ;; *) command -v $$what >/dev/null 2>&1 ;; esac \
	  || missing="$$missing $$pkg"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "missing Debian packages. Run:"; echo "  sudo apt-get install -y$$missing"; exit 1; \
	  fi; fi

# ---------------------------------------------------------------- tangle
# One stamp for the whole tangle: it fails on a stray root (a misspelt chunk
# name) and on an undefined chunk (notangle's own error).
tangle: $(B)/tangle.stamp
$(TANGLED) $(MAPPED): $(B)/tangle.stamp ;
$(B)/tangle.stamp: $(NW) | deps
	@mkdir -p $(SRC) tangled
	@roots=$$(noroots $(NW) | sed 's/^<<\(.*\)>>$$/\1/' | sort | tr '\n' ' '); \
	 want=$$(printf '%s\n' $(ROOTS) | sort | tr '\n' ' '); \
	 if [ "$$roots" != "$$want" ]; then \
	   echo "$(NW): roots are [$$roots], expected [$$want]" >&2; \
	   echo "(a misspelt chunk name is a new root)" >&2; exit 1; fi
	@$(TANGLE_ALL)
	@$(STYLE_CHECKS)
	@touch $@
# The tangle also checks the source's two rules of form, so that an edit
# that breaks one is named at once, at its line: code lines of at most 76
# columns, chunk names of at most 12 parts.  It says so and goes on; make
# check's group build fails on them.
STYLE_CHECKS = { sh tests/build_tests.sh code_within_76_columns && \
	  sh tests/build_tests.sh chunk_names_at_most_12_parts; } > $(B)/style.out 2>&1 || \
	{ grep -v '^every' $(B)/style.out >&2; \
	  echo "(make goes on; make check fails on these)" >&2; }
# notangle is noweb's markup piped into nt; the book is marked up once (and
# once keeping tabs, as notangle -L does) and nt run per root: the same
# files, in a quarter of the time, which is most of the edit-to-verdict
# loop of make check EXERCISE=k.  A file is written only when it changes
# (what cpif does, without its four processes per file).
TANGLE_ALL = m=$(B)/tangle.markup; \
	$(NOWEB_LIB)/markup $(NW) > $$m.plain && $(NOWEB_LIB)/markup -t $(NW) > $$m.tabs || exit 1; \
	for root in $(ROOTS); do \
	  $(NOWEB_LIB)/nt -R"$$root" < $$m.plain > $$m.out || exit 1; \
	  cmp -s $$m.out tangled/$$root || cp $$m.out tangled/$$root || exit 1; \
	  $(NOWEB_LIB)/nt -t -L -R"$$root" < $$m.tabs > $$m.out || exit 1; \
	  cmp -s $$m.out $(SRC)/$$root || cp $$m.out $(SRC)/$$root || exit 1; \
	done; rm -f $$m.plain $$m.tabs $$m.out

# ---------------------------------------------------------------- compile
program: $(PROGRAM)
# The objects depend on the compiler and its flags as well as on the code:
# $(B)/cflags holds the command line, rewritten only when it changes.
COMPILE := $(CC) $(WARN) $(STRICT) $(CFLAGS) $(SAN)
# (the temporary file is the shell's own: make check runs make check
# SANITIZE=1 beside its own tests, and that remakes build/'s results)
$(B)/cflags: FORCE | deps
	@mkdir -p $(B)
	@echo '$(COMPILE)' > $@.$$$$.tmp; cmp -s $@.$$$$.tmp $@ || cp $@.$$$$.tmp $@; rm -f $@.$$$$.tmp
FORCE:
$(B)/%.o: $(SRC)/%.c $(addprefix $(SRC)/,$(H_ROOTS)) $(B)/cflags
	$(COMPILE) -c $< -o $@
$(PROGRAM): $(OBJECTS)
	$(CC) $(CFLAGS) $(SAN) -o $@ $(OBJECTS) $(LDLIBS)

# ---------------------------------------------------------------- experiments
# The book's model is trained once, by the program, and saved; the figures
# and numbers are computed from it, one topic of the book at a time.
# Figures are converted to PDF for LaTeX, dated 1 January 1970 so that
# the same figure gives the same bytes.
MODEL   := $(B)/model.ckpt
# The model depends on the plain tangled code outside the experiments; a
# topic's results on that code and the topic's own file.  An edit that
# only moves code changes the #line directives of build/src/ (so the
# program is recompiled: its debug lines must be right) but no file of
# tangled/, so nothing reruns; an edit to one topic reruns that topic.
# The trace's printing (trace.c) and the live book's entry (web.c) run
# in no training and no experiment: an edit of them reruns nothing.
# The command line (main.c) runs no experiment either (they are run by
# experiments.c), but its train command trains the book's model: an
# edit of it trains the model again, beside the saved one, and replaces
# that (and its log) only if the bytes differ, so that an edit that
# leaves the model as it was reruns nothing after the training.
COMMON := $(filter-out tangled/exp_%.c $(WEB_ROOTS:%=tangled/%) tangled/trace.c tangled/trace.h tangled/main.c,$(TANGLED))
$(B)/model.stamp: $(COMMON) tangled/main.c | $(PROGRAM)
	$(PROGRAM) train -o $(B)/model.new.ckpt > $(B)/train.out
	@for f in ckpt ckpt.log; do cmp -s $(B)/model.new.$$f $(B)/model.$$f \
	   || mv $(B)/model.new.$$f $(B)/model.$$f; rm -f $(B)/model.new.$$f; done
	@touch $@
$(MODEL): $(B)/model.stamp
	@test -f $@ || { rm -f $<; $(MAKE) --no-print-directory $@; }
# Each topic is a target of its own, so that make -j runs them side by
# side; their numbers files are joined into one.  The student edition
# cannot compute them while its exercises are stubs: it ships the
# teacher's results in results/.
ifeq ($(EDITION),student)
RESULTS := results
$(B)/results.stamp: $(wildcard results/*.* results/fig/*.svg)
else ifeq ($(SANITIZE),1)
# Under the sanitizers the program runs several times slower.  The sweep
# of seeds behind the book's numbers runs once, by the plain build, and is
# copied here; the sanitized program runs every topic on a small model
# instead (the test figures_on_a_readers_model).
RESULTS := $(B)/results
$(B)/results.stamp: $(TANGLED)
	+$(MAKE) SANITIZE=0 build/results.stamp
	rm -rf $(RESULTS) && cp -pR build/results $(RESULTS)
else
RESULTS := $(B)/results
$(B)/results.stamp: $(B)/topic-claims.stamp
	cat $(TOPICS:%=$(RESULTS)/numbers-%.txt) $(RESULTS)/numbers-claims.txt \
	  > $(RESULTS)/numbers.txt.tmp
	mv $(RESULTS)/numbers.txt.tmp $(RESULTS)/numbers.txt
	@cmp -s $(RESULTS)/fig/gpt_training.svg book/readme-figure.svg \
	   || cp $(RESULTS)/fig/gpt_training.svg book/readme-figure.svg
endif
	@mkdir -p $(B)/fig
	@for f in $(RESULTS)/fig/*.svg; do \
	   SOURCE_DATE_EPOCH=0 rsvg-convert -f pdf -o "$(B)/fig/$$(basename "$${f%.svg}").pdf" "$$f" || exit 1; done
	@touch $@
# The sweep trains every relative of the book's model that a topic
# compares it with (other seeds, other heads, a part switched off, the
# layouts) once; the topics that compare load them from $(SWEEP), and
# the others (SWEEPLESS) run beside it.
SWEEP     := $(B)/sweep
SWEEPLESS := perceptron speed heldout longer
$(B)/sweep.stamp: $(COMMON) $(MODEL) | $(PROGRAM)
	$(PROGRAM) sweep -m $(MODEL) -o $(SWEEP)
	@touch $@
$(patsubst %,$(B)/topic-%.stamp,$(filter-out $(SWEEPLESS),$(TOPICS))): $(B)/sweep.stamp
# A claim of the book that does not hold stops the build (--book); the
# pseudo-topic claims joins the topics' claim checks into one table.
$(B)/topic-%.stamp: tangled/exp_%.c $(COMMON) $(MODEL) | $(PROGRAM)
	@mkdir -p $(RESULTS)
	$(PROGRAM) figures -m $(MODEL) --sweep $(SWEEP) -o $(RESULTS) --part $* --book
	@touch $@
# The longer experiment, the longest topic by far (about 4 1/2 minutes on
# one core), is named first, so that make -j starts it as soon as the
# model is trained and runs the sweep and the other topics beside it on
# the other core; named last, it started after them and ran alone.
$(B)/topic-claims.stamp: $(B)/topic-longer.stamp $(TOPICS:%=$(B)/topic-%.stamp)
	$(PROGRAM) figures -o $(RESULTS) --part claims
	@touch $@

# ---------------------------------------------------------------- weave
# noweb's front end, cross-referencer and index, then our back end, which
# writes pandoc Markdown.  sh has no pipefail, so a failing stage says
# @fatal and the back end fails.  The back end reads bytes (LC_ALL=C), as
# mawk always does; gawk, where it is the awk, is then twice as fast.
$(B)/attention.md: $(NW) book/nwpandoc.awk | deps
	@mkdir -p $(B)
	{ $(NOWEB_LIB)/markup $(NW) || echo '@fatal markup'; } \
	| { $(NOWEB_LIB)/finduses || echo '@fatal finduses'; } \
	| { $(NOWEB_LIB)/noidx || echo '@fatal noidx'; } \
	| LC_ALL=C awk -f book/nwpandoc.awk > $@.tmp && mv $@.tmp $@

# pandoc reads the whole book once per format (a warning of pandoc's is an
# error, a citation of a work book/references.bib lacks among them).  book/book.lua puts in the numbers and tables the experiments
# computed (and fails, naming it, on a placeholder without one);
# book/nwpost.awk then turns the markers left in the code for chunk uses
# into links to their definitions.
#
# The title page's date is that of the last commit to $(NW), so that the
# same source gives the same book; outside a git checkout (the student
# edition) the book is undated.  $(B)/book-date holds it, rewritten only
# when it changes, so that a commit re-weaves the books.
#
# The colophon names the commit the book is built from (12 digits of its
# hash) and says whether the book's sources ($(NW), book/, the Makefile)
# differ from it; outside a git checkout it names none.  $(B)/book-date holds these too.
BOOK_DATE := $(shell LC_ALL=C git log -1 --format=%cd --date=format:'%-d %B %Y' -- $(NW) 2>/dev/null)
BOOK_COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null)
BOOK_CHANGED := $(if $(BOOK_COMMIT),$(shell git status --porcelain --untracked-files=no -- \
  $(NW) book Makefile 2>/dev/null | grep -q . && echo changed))
WEAVE := pandoc -f markdown --fail-if-warnings --lua-filter=book/book.lua \
  --citeproc --bibliography=book/references.bib -M link-citations=true \
  -M numbers=$(RESULTS)/numbers.txt --number-sections --toc \
  $(if $(BOOK_DATE),-M 'date=$(BOOK_DATE)') $(if $(BOOK_COMMIT),-M commit=$(BOOK_COMMIT)) \
  $(if $(BOOK_CHANGED),-M changed=true)
WEAVE_DEPS := $(B)/attention.md $(B)/results.stamp book/book.lua book/nwpost.awk $(B)/book-date \
  book/references.bib
$(B)/book-date: FORCE | deps
	@mkdir -p $(B)
	@echo '$(BOOK_DATE) $(BOOK_COMMIT) $(BOOK_CHANGED)' > $@.$$$$.tmp; cmp -s $@.$$$$.tmp $@ || cp $@.$$$$.tmp $@; rm -f $@.$$$$.tmp

# HTML: one self-contained page (figures embedded as SVG), every in-page
# link checked by book/checklinks.  Its maths is typeset here, by
# book/katex.js with Debian's KaTeX, so that the page needs no script to
# show it.  This is the static page; book/attention.html is its live
# edition (section "the live book").
NEEDS += /usr/share/javascript/katex/katex.js:libjs-katex \
  /usr/share/fonts/truetype/katex/KaTeX_Main-Regular.woff2:fonts-katex
# The page's text and code faces (TeX Gyre Pagella, DejaVu Sans Mono) are
# cut down to the characters it uses and embedded by book/webfonts.py,
# which Debian's python3 runs with its fontTools and brotli.
# book/page.html, a script, marks the section being read in the side contents,
# lets the keyboard reach a frame that scrolls, and measures the parts that
# book/parted.html, at the top of the page, lets the browser leave undrawn.
NEEDS += /usr/share/texmf/fonts/opentype/public/tex-gyre/texgyrepagella-regular.otf:fonts-texgyre \
  /usr/lib/python3/dist-packages/fontTools/subset/__init__.py:python3-fonttools \
  /usr/lib/python3/dist-packages/brotli.py:python3-brotli
$(B)/attention.html: $(WEAVE_DEPS) book/weave.css book/checklinks book/katex.js \
  book/webfonts.py book/parted.html book/page.html
	$(WEAVE) $< -t html5 --standalone --self-contained --toc-depth=2 \
	  --highlight-style=pygments --css=book/weave.css --resource-path=$(RESULTS) \
	  --include-before-body=book/parted.html --include-after-body=book/page.html \
	  -o $(B)/attention.pandoc.html
	node book/katex.js $(B)/attention.pandoc.html $(B)/attention.katex.html
	awk -v fmt=html -f book/nwpost.awk $< $(B)/attention.katex.html > $(B)/attention.post.html
	/usr/bin/python3 book/webfonts.py $(B)/attention.post.html $(B)/attention.html
	python3 book/checklinks $(B)/attention.html

# LaTeX: pandoc's own template, with the styles of
# book/weave-preamble.tex; the figures are the PDFs in $(B)/fig.  The code
# is set for one-colour print, in black and two weights, not in colours
# that turn to muddy greys: book/print.theme is pandoc's monochrome style
# (keywords bold, comments italic) without its underlined type names, on
# the grey of the code's background.
$(B)/attention.tex: $(WEAVE_DEPS) book/weave-preamble.tex book/print.theme
	$(WEAVE) $< -t latex --standalone --toc-depth=2 --top-level-division=chapter \
	  --highlight-style=book/print.theme -H book/weave-preamble.tex \
	  -V documentclass=book -V classoption=twoside -V classoption=openright \
	  -V fontsize=11pt -V geometry=paperwidth=176mm -V geometry=paperheight=250mm \
	  -V geometry=textwidth=114mm -V geometry=inner=24mm \
	  -V geometry=marginparwidth=26mm -V geometry=marginparsep=5mm \
	  -V geometry=top=24mm -V geometry=textheight=192mm -V geometry=headsep=7mm \
	  -V fontfamily=pxfonts -V colorlinks=true \
	  -V 'linkcolor=[rgb]{0.12,0.31,0.56}' -V 'urlcolor=[rgb]{0.12,0.31,0.56}' \
	  -V toccolor=black -o $(B)/attention.pandoc.tex
	awk -v fmt=latex -f book/nwpost.awk $< $(B)/attention.pandoc.tex > $@

# PDF: pdflatex until the cross-references, the contents, longtable's
# column widths and the pages each chunk spans (written to the .aux file,
# read by the running heads), the page of each line of code (its number
# stands in that page's outer margin), the chapters' tails (a short
# one takes lines from the page before) and the subject index (makeindex
# after each pass) settle: until LaTeX asks for no rerun and a
# pass leaves the .aux and .ind files as it found them (three passes from scratch;
# after an edit one or two); still unsettled after five passes is an error.
book/attention.pdf: $(B)/attention.tex
	cd $(B) && for pass in 1 2 3 4 5; do \
	  { cp attention.aux attention.aux.before 2>/dev/null || : > attention.aux.before; }; \
	  { cp attention.ind attention.ind.before 2>/dev/null || : > attention.ind.before; }; \
	  pdflatex -interaction=nonstopmode -halt-on-error attention.tex > /dev/null \
	    || { tail -n 30 attention.log >&2; exit 1; }; \
	  makeindex -q attention.idx || exit 1; \
	  grep -q 'Rerun to get\|Rerun LaTeX\|No file attention\.' attention.log \
	    || ! cmp -s attention.aux attention.aux.before \
	    || ! cmp -s attention.ind attention.ind.before || break; \
	  [ $$pass != 5 ] || { echo "$@: cross-references still change after 5 passes" >&2; exit 1; }; \
	done
	cp $(B)/attention.pdf $@

book: book/attention.html book/attention.pdf

# ---------------------------------------------------------------- the live book
# book/attention.html is $(B)/attention.html with Part II read only when
# the reader opens it (book/program-later.awk) and, before </body>, the
# module compiled from the core and web.c (gzipped: the page unzips it with
# the browser's DecompressionStream), the book's model (both in base64: a
# page opened from file:// may not fetch them), book/live.css and
# book/live.js: still one file.  The module is compiled by Debian's clang
# for wasm32-wasi against wasi-libc, with the program's warnings and
# strictness, the stepper's hook on (ATTENTION_STEPPER) and SIMD; it is
# linked as a reactor (no main) without -O: with binaryen installed, clang
# would run wasm-opt at link time, and that fails on SIMD.  The browser
# test (tests/live_test.js) drives Debian's chromium with puppeteer-core,
# installed by npm ci from the committed package-lock.json.
NEEDS += /usr/lib/wasm32-wasi/libc.a:wasi-libc wasm-ld:lld wasm-ld-14:lld-14 \
  /usr/lib/llvm-14/lib/clang/14.0.6/lib/wasi/libclang_rt.builtins-wasm32.a:libclang-rt-14-dev-wasm32 \
  chromium:chromium node:nodejs npm:npm
WASM_CC    := clang --target=wasm32-wasi
WASM_FLAGS := $(WARN) $(STRICT) -O3 -msimd128 -DATTENTION_STEPPER
WASM_ROOTS := core.c typed.c checkpoint.c dissect.c text.c svg.c views.c web.c
$(B)/web/%.o: $(SRC)/%.c $(addprefix $(SRC)/,$(H_ROOTS)) | deps
	@mkdir -p $(B)/web
	$(WASM_CC) $(WASM_FLAGS) -c $< -o $@
$(B)/web.wasm: $(WASM_ROOTS:%.c=$(B)/web/%.o)
	$(WASM_CC) -mexec-model=reactor -Wl,--strip-all -o $@ $^ -lm
ifeq ($(EDITION),student)
book/attention.html: $(B)/attention.html
	cp $< $@
else
book/attention.html: $(B)/attention.html $(B)/web.wasm $(MODEL) book/live.js book/live.css \
  book/program-later.awk
	awk -f book/program-later.awk $< > $(B)/attention.live.html
	{ sed '/^<\/body>/,$$d' $(B)/attention.live.html; \
	  printf '<style>\n'; cat book/live.css; printf '</style>\n'; \
	  printf '<script type="application/octet-stream" id="live-module">'; \
	  gzip -9n -c $(B)/web.wasm | base64 -w0; \
	  printf '</script>\n<script type="application/octet-stream" id="live-model">'; base64 -w0 $(MODEL); \
	  printf '</script>\n<script>\n'; cat book/live.js; printf '</script>\n'; \
	  sed -n '/^<\/body>/,$$p' $(B)/attention.live.html; } > $@.tmp
	grep -q 'id="live-module"' $@.tmp && mv $@.tmp $@
endif
# the browser test's driver (the student edition has no live book and no
# browser test)
ifneq ($(EDITION),student)
node_modules/.package-lock.json: package.json package-lock.json | deps
	npm ci --no-audit --no-fund --loglevel=error
check: node_modules/.package-lock.json
endif

# ---------------------------------------------------------------- the compile matrix
# make check (the test compile_matrix) compiles every C file of the program,
# without linking, with warnings as errors, under each command line that
# $(B)/matrix lists, one a line ("COMMAND : FILES"): gcc at each level of
# x86-64 (v4 is AVX-512) at -O2 and -O3, and for 64-bit ARM, clang at each
# level, the live book's module, and make's own command line.  gcc warns
# from its optimiser too (-Wmaybe-uninitialized, -Warray-bounds ...), so
# it compiles in full; clang's warnings all come from its front end, so
# -fsyntax-only gives every one of them, at a fifth of the time, with each
# level's macros (__AVX512F__ ...).  The same C must compile clean, and
# train the same bytes (the test arm_trains_the_same_bytes), wherever a
# reader builds it.
MATRIX_FLAGS  := $(WARNINGS) -Werror $(STRICT) -fno-math-errno -fno-trapping-math
MATRIX_LEVELS := x86-64 x86-64-v2 x86-64-v3 x86-64-v4
ARM_CC        := aarch64-linux-gnu-gcc
NEEDS += $(ARM_CC):gcc-aarch64-linux-gnu /usr/aarch64-linux-gnu/lib/libc.a:libc6-dev-arm64-cross \
  qemu-aarch64:qemu-user
$(B)/matrix: FORCE | deps
	@mkdir -p $(B)
	@{ for level in $(MATRIX_LEVELS); do for o in -O2 -O3; do \
	     echo "gcc -march=$$level $$o $(MATRIX_FLAGS) : $(C_ROOTS) $(WEB_ROOTS)"; done; done; \
	   for level in $(MATRIX_LEVELS); do \
	     echo "clang -march=$$level -O3 -fsyntax-only $(MATRIX_FLAGS) : $(C_ROOTS) $(WEB_ROOTS)"; done; \
	   for o in -O2 -O3; do echo "$(ARM_CC) $$o $(MATRIX_FLAGS) : $(C_ROOTS) $(WEB_ROOTS)"; done; \
	   echo "$(WASM_CC) $(WASM_FLAGS) -Werror : $(WASM_ROOTS)"; \
	   echo "$(COMPILE) -Werror : $(C_ROOTS)"; } > $@.$$$$.tmp && mv $@.$$$$.tmp $@

# ---------------------------------------------------------------- tests
# Every test binary runs its tests chapter by chapter (tests/chapters.c).
# The tests compile the core from build/src/, as the program does, so that
# their diagnostics name lines of attention.nw too.
TEST_CFLAGS := $(WARNINGS) -Werror $(STRICT) -O1 -g -I$(SRC) -Itests $(SAN)
CORE_SRC := $(CORE:%=$(SRC)/%)
CORE_H   := $(addprefix $(SRC)/,core.h exercises.h typed.h checkpoint.h dissect.h)
TEST_DEPS := tests/checks.c tests/checks.h tests/chapters.c tests/chapters.h $(CORE_SRC) $(CORE_H)
# tests/test_NAME.c, each built twice: with the program's float, and with
# double (-DATTENTION_DOUBLE), in which the gradient checks are exact enough
$(B)/test_%: tests/test_%.c $(TEST_DEPS)
	$(CC) $(TEST_CFLAGS) -o $@ $< tests/checks.c tests/chapters.c $(CORE_SRC) -lcmocka $(LDLIBS)
$(B)/test_%_double: tests/test_%.c $(TEST_DEPS)
	$(CC) $(TEST_CFLAGS) -O2 -DATTENTION_DOUBLE -o $@ $< tests/checks.c tests/chapters.c \
	  $(CORE_SRC) -lcmocka $(LDLIBS)
# The literate build's tests run tests/build_tests.sh and need no core
# (but cmocka, from the dependency step, as every test binary does).
$(B)/test_build: tests/test_build.c tests/chapters.c tests/chapters.h | deps
	@mkdir -p $(B)
	$(CC) $(TEST_CFLAGS) -o $@ tests/test_build.c tests/chapters.c -lcmocka
# The claims' registry needs nothing but the C library: its test links it
# alone.
$(B)/test_claims: tests/test_claims.c $(SRC)/claims.c $(SRC)/claims.h $(SRC)/text.h \
                  tests/chapters.c tests/chapters.h
	$(CC) $(TEST_CFLAGS) -o $@ tests/test_claims.c tests/chapters.c $(SRC)/claims.c -lcmocka
# The exercises' own tests (tests/test_exercises.c) include core.c and
# dissect.c, to reach their static helpers; in double precision only.
$(B)/test_exercises: tests/test_exercises.c $(TEST_DEPS)
	$(CC) $(TEST_CFLAGS) -DATTENTION_DOUBLE -o $@ tests/test_exercises.c tests/chapters.c -lcmocka $(LDLIBS)

TESTS := $(B)/test_exercises $(B)/test_core $(B)/test_core_double $(B)/test_gpt $(B)/test_gpt_double \
         $(B)/test_ablation $(B)/test_ablation_double \
         $(B)/test_dissect $(B)/test_dissect_double \
         $(B)/test_layouts $(B)/test_layouts_double $(B)/test_claims $(B)/test_build
# Under the sanitizers the double builds are left out: they compile the
# same code with another type, for the precision the gradient checks
# need, and their thousands of forward passes go down the paths the float
# builds' tests take (2.5 minutes of the sanitized half, finding nothing
# new); the exercises' tests, in double only, stay.
ifeq ($(SANITIZE),1)
TESTS := $(filter-out %_double,$(TESTS))
endif
# One line per chapter at the end; make check CHAPTER=5 runs chapter 5 only
# (or CHAPTER=forward-pass, its topic: tests/chapters.awk lists them; or a
# group: build, whole, course), and make check EXERCISE=7 the tests of
# exercise 7 only (course/student.awk lists the exercises).
CHAPTER ?=
EXERCISE ?=
export CHAPTER EXERCISE
tests: $(TESTS)
list-tests:
	@echo $(TESTS)
# The loop of a chapter or an exercise is quick and quiet: it builds only
# the test binaries that hold its tests, without a line per command, and
# neither runs the experiments nor weaves the book (make does).  The
# binaries of a chapter are those whose source tags a test with its topic
# (with "+whole" or not: tests/chapters.h); an unknown chapter gets one
# binary, so that tests/check.sh can list the chapters.  A chapter with
# a test that runs the program (tests/test_build.c) builds the program
# too; the results and figures such a test reads are those make made.  A group (build, whole, course), and make check alone, test the
# program and the book as make leaves them, so they depend on all.
GROUPS := build whole course
QUICK := $(if $(EXERCISE)$(filter-out $(GROUPS),$(CHAPTER)),yes)
# make check EXERCISE=k runs the exercise's tests twice: as built here,
# and built by clang with the sanitizers (build-san/test_exercises), which
# stop at a write past an array's end that the plain build lets pass.
ifneq ($(EXERCISE),)
CHECK_TESTS := $(B)/test_exercises
CHECK_SAN := $(if $(filter 1,$(SANITIZE)),,build-san/test_exercises)
else ifeq ($(QUICK),yes)
CHECK_TOPIC := $(shell awk -f tests/chapters.awk $(NW) 2>/dev/null | \
  awk -F'\t' -v c='$(CHAPTER)' '$$1 == c || $$2 == c { print $$2 }')
TAGGED := _TEST("$(CHECK_TOPIC)\(+whole\)\{0,1\}",
CHECK_SOURCES := $(if $(CHECK_TOPIC),$(shell grep -l '$(TAGGED)' tests/test_*.c))
CHECK_TESTS := $(if $(CHECK_TOPIC),$(filter $(foreach f,$(CHECK_SOURCES:tests/%.c=$(B)/%),$(f) $(f)_double),$(TESTS)),$(B)/test_exercises)
endif
ifeq ($(QUICK),yes)
MAKEFLAGS += --silent
check: $(CHECK_TESTS) $(if $(filter tests/test_build.c,$(CHECK_SOURCES)),program)
	@$(if $(CHECK_SAN),MAKEFLAGS=s $(MAKE) SANITIZE=1 $(CHECK_SAN) &&) sh tests/check.sh $(CHECK_TESTS) $(CHECK_SAN)
else
# make check SANITIZE=1 tests the sanitized program, its model and the
# tests; it weaves no book: the tests of the books and the browser run no
# sanitized code, and skip themselves under the sanitizers (make check
# runs them)
check: $(TESTS) $(B)/matrix $(if $(filter 1,$(SANITIZE)),program $(MODEL) $(B)/results.stamp,all)
ifeq ($(EDITION),student)
	@case "$(CHAPTER)" in ""|whole) $(MAKE) -s $(MODEL) > /dev/null 2>&1 || \
	  echo "make check: the program did not train a model; the group 'whole' will fail";; esac
endif
# make check alone, in the teacher's repository, runs both halves side by
# side, the plain build's tests and make check SANITIZE=1, and prints one
# summary (tests/check_both.sh); a chapter, a group or an exercise, and
# the student edition, run the plain half only
ifeq ($(EDITION)$(SANITIZE)$(CHAPTER),teacher0)
	+@sh tests/check_both.sh "$(MAKE)" $(TESTS)
else
	+@sh tests/check.sh $(TESTS)
endif
endif

# ---------------------------------------------------------------- course mode
# make student writes the student edition to STUDENT_DIR: attention.nw with
# every exercise's chunk stubbed (course/student.awk), this Makefile set to
# EDITION = student, tangled/, tests/, book/ (the weave's tools), the
# teacher's numbers, tables and figures in results/, course/student.awk
# (make check EXERCISE=k lists the exercises with it) and course/README.md
# as its README, the table of exercises put in from the edition's own
# attention.nw: each exercise's function, its chunk by name and the words
# its stub starts with (no line number, which would go stale as the
# student writes).  SOLVED=3,5 leaves
# exercises 3 and 5 solved (the course-mode test uses it).
STUDENT_DIR ?= $(B)/student
SOLVED ?=
ifeq ($(EDITION),student)
student:
	@echo "make student: this is already the student edition" >&2; exit 2
else
student: $(NW) course/student.awk $(B)/results.stamp | deps
	rm -rf $(STUDENT_DIR)
	mkdir -p $(STUDENT_DIR)/results $(STUDENT_DIR)/book
	awk -f course/student.awk -v solved=$(SOLVED) $(NW) > $(STUDENT_DIR)/$(NW)
	sed 's/^EDITION ?= teacher$$/EDITION := student/' Makefile > $(STUDENT_DIR)/Makefile
	grep -q '^EDITION := student$$' $(STUDENT_DIR)/Makefile
	cp -R tests LICENSE $(STUDENT_DIR)/
	mkdir -p $(STUDENT_DIR)/course && cp course/student.awk $(STUDENT_DIR)/course/
	awk -f course/student.awk -v list=1 $(STUDENT_DIR)/$(NW) | awk -F'|' -v OFS=' | ' \
	  -v map="$$(awk -f tests/chapters.awk $(NW))" \
	  'BEGIN { n = split(map, line, "\n"); for (i = 1; i <= n; i++) { split(line[i], f, "\t"); named[f[1]] = f[3] } } \
	  { print "| " $$1, $$2 ", " named[$$2], $$3, "`" $$4 "`", "`<<" $$5 ">>`", "`TODO, exercise " $$1 "`", "`make check EXERCISE=" $$1 "` |" }' \
	  > $(STUDENT_DIR)/exercises.tmp
	awk -v table=$(STUDENT_DIR)/exercises.tmp '/^<!-- the exercises -->$$/ { \
	    while ((getline row < table) > 0) print row; next } { print }' \
	  course/README.md > $(STUDENT_DIR)/README.md
	rm $(STUDENT_DIR)/exercises.tmp
	grep -q 'make check EXERCISE=1`' $(STUDENT_DIR)/README.md
	cp $(BOOK_TOOLS) $(STUDENT_DIR)/book/
	cp -R $(RESULTS)/. $(STUDENT_DIR)/results/
	rm -f $(STUDENT_DIR)/results/numbers-*.txt
	cd $(STUDENT_DIR) && for root in $(ROOTS); do mkdir -p tangled && \
	  notangle -R"$$root" $(NW) > tangled/$$root || exit 1; done
	@echo "the student edition is in $(STUDENT_DIR): $$(awk -f course/student.awk -v list=1 $(NW) | wc -l) exercises stubbed"
endif

# ---------------------------------------------------------------- benchmark
# The C program against the PyTorch reference (Debian's python3-torch, one
# thread), the same model, initial weights, batch size and number of steps,
# on one core, in BENCH_REPEAT rounds of one run each, the two alternating,
# so that a change in the machine's load between rounds falls on both
# (tests/bench.awk takes the medians).  It measures; it never fails on a
# number.
BENCH_STEPS  ?= 200
BENCH_REPEAT ?= 5
PIN := $(shell command -v taskset > /dev/null && echo taskset -c 0)
bench: $(PROGRAM)
	@/usr/bin/python3 -c 'import torch' 2>/dev/null || { \
	  echo "make bench needs PyTorch: apt-get install python3-torch"; exit 1; }
	@rm -f $(B)/bench.runs; for round in $$(seq $(BENCH_REPEAT)); do \
	  $(PIN) $(PROGRAM) bench --steps $(BENCH_STEPS) --repeat 1 || exit 1; \
	  OMP_NUM_THREADS=1 $(PIN) /usr/bin/python3 tests/reference.py bench tests/ref_input.bin \
	    $(BENCH_STEPS) 1 || exit 1; done | tee $(B)/bench.runs | \
	  awk '{ printf "round %d: %s\n", int((NR + 3) / 4), $$0 }'
	@awk -f tests/bench.awk $(B)/bench.runs | tee $(B)/bench.txt

# The live book's training against the program's (tests/live_bench.js):
# the program as built, the same C without -march=native (its vectors as
# wide as WebAssembly's), the page's module in node and in a Chromium
# worker, and the page's train widget, alternating in LIVE_BENCH_REPEAT
# rounds.  It measures; it never fails on a number.
LIVE_BENCH_REPEAT ?= 5
$(B)/attention-portable: $(C_ROOTS:%=$(SRC)/%) $(addprefix $(SRC)/,$(H_ROOTS)) | deps
	$(CC) $(WARN) $(STRICT) $(filter-out -march=native,$(CFLAGS)) -o $@ $(C_ROOTS:%=$(SRC)/%) $(LDLIBS)
ifneq ($(EDITION),student)
bench-live: $(PROGRAM) $(B)/attention-portable book/attention.html node_modules/.package-lock.json
	node tests/live_bench.js book/attention.html $(B)/web.wasm $(PROGRAM) $(B)/attention-portable \
	  $(LIVE_BENCH_REPEAT) | tee $(B)/bench-live.txt
endif

# ---------------------------------------------------------------- fuzzing
# libFuzzer targets for the two readers of untrusted bytes: typed problems
# and checkpoint files.  Each runs FUZZ_SECONDS (default 60) from the seed
# corpus in tests/corpus; new inputs it finds are kept in build/corpus.
# A crash leaves its input as build/crash-*; add it to tests/corpus as a
# regression test.
FUZZ_SECONDS ?= 60
FUZZ_FLAGS := -std=c11 -g -O1 -ffp-contract=off -fsanitize=fuzzer,address,undefined -I$(SRC)
$(B)/fuzz_%: tests/fuzz_%.c $(CORE_SRC) $(CORE_H) | deps
	clang $(FUZZ_FLAGS) -o $@ $< $(CORE_SRC) -lm
fuzz: $(B)/fuzz_tokens $(B)/fuzz_checkpoint
	@mkdir -p $(B)/corpus/tokens $(B)/corpus/checkpoint
	$(B)/fuzz_tokens -max_total_time=$(FUZZ_SECONDS) -max_len=64 -artifact_prefix=$(B)/crash- \
	  $(B)/corpus/tokens tests/corpus/tokens
	$(B)/fuzz_checkpoint -max_total_time=$(FUZZ_SECONDS) -max_len=40000 -artifact_prefix=$(B)/crash- \
	  $(B)/corpus/checkpoint tests/corpus/checkpoint

# The PyTorch reference (tests/reference.py) is independent of the C code;
# its input and output are committed, so the tests need no PyTorch.  To
# regenerate them (Debian's python3-torch, with the system Python):
# The interventions' reference (tests/patch_reference.py) runs on the
# book's model as it is when its input is written.
reference: tests/reference_input.c tests/patch_input.c $(TEST_DEPS) $(MODEL)
	$(CC) $(TEST_CFLAGS) -o $(B)/reference_input tests/reference_input.c \
	  tests/checks.c tests/chapters.c $(CORE_SRC) -lcmocka $(LDLIBS)
	$(B)/reference_input tests/ref_input.bin
	/usr/bin/python3 tests/reference.py tests/ref_input.bin tests/reference.bin
	$(CC) $(TEST_CFLAGS) -o $(B)/patch_input tests/patch_input.c \
	  tests/checks.c tests/chapters.c $(CORE_SRC) -lcmocka $(LDLIBS)
	$(B)/patch_input $(MODEL) tests/patch_input.bin
	cd tests && /usr/bin/python3 patch_reference.py patch_input.bin patch_reference.bin

clean:
	rm -rf build build-san book/attention.html book/attention.pdf
