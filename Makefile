# Makefile for attention.nw
#
#   make          tangle, compile, run the experiments, weave the HTML and PDF book
#   make check    run the tests (cmocka)
#   make tangle   extract every root of attention.nw into tangled/
#
# Everything generated goes to build/ except tangled/ (committed) and the
# two books in book/.  Tangled files are written through cpif, so an edit
# to prose alone leaves them untouched and nothing is recompiled or rerun.

NW      := attention.nw
CC      ?= cc
CFLAGS  ?= -O2
WARN    := -std=c11 -Wall -Wextra -Wpedantic -Werror
# ISO C forbids contracting a*b+c into one rounding; say so for every compiler,
# so that results do not depend on whether the machine has FMA.
STRICT  := -ffp-contract=off
LDLIBS  := -lm

# The roots of attention.nw: C files, headers.  `noroots` must list exactly these.
C_ROOTS := core.c svg.c main.c
H_ROOTS := attention.h svg.h
ROOTS   := $(H_ROOTS) $(C_ROOTS)
TANGLED := $(addprefix tangled/,$(ROOTS))

PROGRAM := build/attention
OBJECTS := $(patsubst %.c,build/%.o,$(C_ROOTS))

NOWEB_LIB := /usr/lib/noweb
BOOK_TOOLS := book/nwpandoc.awk book/book.lua book/nwpost.awk book/weave.css book/weave-preamble.tex book/checklinks

.PHONY: all tangle program book check clean deps bench reference
.DELETE_ON_ERROR:

all: book

# ---------------------------------------------------------------- dependencies
# Each entry is "command-or-file:debian-package".  Missing ones are installed
# with apt-get when we are root; otherwise make stops with the one command to run.
NEEDS := notangle:noweb pandoc:pandoc pdflatex:texlive-latex-base \
  /usr/share/texlive/texmf-dist/tex/latex/fvextra/fvextra.sty:texlive-latex-extra \
  /usr/share/texlive/texmf-dist/tex/latex/upquote/upquote.sty:texlive-latex-recommended \
  /usr/share/texlive/texmf-dist/fonts/type1/urw/palatino/uplr8a.pfb:texlive-fonts-recommended \
  /usr/share/texmf/tex/latex/lm/lmodern.sty:lmodern \
  rsvg-convert:librsvg2-bin /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf:fonts-dejavu-core \
  /usr/include/cmocka.h:libcmocka-dev cc:gcc awk:mawk python3:python3
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
tangle: build/tangle.stamp
$(TANGLED): build/tangle.stamp ;
build/tangle.stamp: $(NW) | deps
	@mkdir -p build tangled
	@roots=$$(noroots $(NW) | sed 's/^<<\(.*\)>>$$/\1/' | sort | tr '\n' ' '); \
	 want=$$(printf '%s\n' $(ROOTS) | sort | tr '\n' ' '); \
	 if [ "$$roots" != "$$want" ]; then \
	   echo "$(NW): roots are [$$roots], expected [$$want]" >&2; \
	   echo "(a misspelt chunk name is a new root)" >&2; exit 1; fi
	@for root in $(ROOTS); do \
	   notangle -L -R"$$root" $(NW) > build/tangle.tmp || exit 1; \
	   cpif tangled/$$root < build/tangle.tmp || exit 1; \
	 done; rm -f build/tangle.tmp
	@touch $@

# ---------------------------------------------------------------- compile
program: $(PROGRAM)
build/%.o: tangled/%.c $(addprefix tangled/,$(H_ROOTS))
	$(CC) $(WARN) $(STRICT) $(CFLAGS) -c $< -o $@
$(PROGRAM): $(OBJECTS)
	$(CC) $(CFLAGS) -o $@ $(OBJECTS) $(LDLIBS)

# ---------------------------------------------------------------- experiments
# The book's model is trained once, by the program, and saved; the figures
# and numbers are computed from it.  Both rerun only when the program itself
# changed.  Figures are converted to PDF for LaTeX.
MODEL   := build/model.ckpt
RESULTS := build/results
# An edit that only moves code in attention.nw changes the #line directives
# of the tangled files, so the program is recompiled (its debug lines must
# be right), but what it computes is the same: the experiments depend on
# the tangled code without its #line directives.
build/code.sig: build/tangle.stamp
	@cat $(TANGLED) | grep -v '^#line ' > build/code.sig.tmp
	@cpif build/code.sig < build/code.sig.tmp; rm -f build/code.sig.tmp
$(MODEL): build/code.sig | $(PROGRAM)
	$(PROGRAM) train -o $@ > build/train.out
# Each part of the experiments is a target of its own, so that make -j
# runs them side by side; their numbers files are joined into one.
PARTS := 1-5 6-7
build/results.stamp: $(patsubst %,build/part-%.stamp,$(PARTS))
	cat $(patsubst %,$(RESULTS)/numbers-%.txt,$(PARTS)) > $(RESULTS)/numbers.txt.tmp
	mv $(RESULTS)/numbers.txt.tmp $(RESULTS)/numbers.txt
	@mkdir -p build/fig
	@for f in $(RESULTS)/fig/*.svg; do \
	   rsvg-convert -f pdf -o "build/fig/$$(basename "$${f%.svg}").pdf" "$$f" || exit 1; done
	@cmp -s $(RESULTS)/fig/gpt_training.svg book/readme-figure.svg \
	   || cp $(RESULTS)/fig/gpt_training.svg book/readme-figure.svg
	@touch $@
build/part-%.stamp: build/code.sig $(MODEL) | $(PROGRAM)
	@mkdir -p $(RESULTS)
	$(PROGRAM) figures -m $(MODEL) -o $(RESULTS) --part $*
	@touch $@

# ---------------------------------------------------------------- weave
# noweb's front end, cross-referencer and index, then our back end, which
# writes pandoc Markdown.  sh has no pipefail, so a failing stage says
# @fatal and the back end fails.
build/attention.md: $(NW) book/nwpandoc.awk | deps
	@mkdir -p build
	{ $(NOWEB_LIB)/markup $(NW) || echo '@fatal markup'; } \
	| { $(NOWEB_LIB)/finduses || echo '@fatal finduses'; } \
	| { $(NOWEB_LIB)/noidx || echo '@fatal noidx'; } \
	| awk -f book/nwpandoc.awk > $@.tmp && mv $@.tmp $@

PANDOC_COMMON := -f markdown --number-sections --lua-filter=book/book.lua \
  -M numbers=$(RESULTS)/numbers.txt

book: book/attention.html book/attention.pdf

# HTML: pandoc, then the markers of chunk uses in code become links, then
# every internal link is checked.
book/attention.html: build/attention.md build/results.stamp $(BOOK_TOOLS)
	pandoc build/attention.md $(PANDOC_COMMON) -t html5 --standalone \
	  --self-contained --toc --toc-depth=2 --mathml --highlight-style=pygments \
	  --css=book/weave.css --resource-path=$(RESULTS) -o build/attention.body.html
	awk -v fmt=html -f book/nwpost.awk build/attention.md build/attention.body.html > build/attention.html
	python3 book/checklinks build/attention.html
	cp build/attention.html $@

# PDF: pandoc to LaTeX, the same markers become \hyperlink, then pdflatex
# until the cross-references settle.
build/attention.tex: build/attention.md build/results.stamp $(BOOK_TOOLS)
	pandoc build/attention.md $(PANDOC_COMMON) -t latex --standalone \
	  --toc --toc-depth=1 --top-level-division=chapter --highlight-style=tango \
	  -H book/weave-preamble.tex \
	  -V documentclass=book -V classoption=oneside -V fontsize=11pt \
	  -V geometry=a4paper -V geometry=hmargin=27mm -V geometry=vmargin=25mm \
	  -V fontfamily=mathpazo -V colorlinks=true \
	  -V 'linkcolor=[rgb]{0.12,0.31,0.56}' -V 'urlcolor=[rgb]{0.12,0.31,0.56}' \
	  -V toccolor=black -o build/attention.body.tex
	awk -v fmt=latex -f book/nwpost.awk build/attention.md build/attention.body.tex > $@

book/attention.pdf: build/attention.tex
	cd build && for i in 1 2 3 4; do \
	  pdflatex -interaction=nonstopmode -halt-on-error attention.tex > /dev/null \
	    || { tail -n 30 attention.log >&2; exit 1; }; \
	  if [ $$i -ge 2 ] && ! grep -q 'Rerun to get\|Label(s) may have changed' attention.log; \
	  then break; fi; \
	done
	cp build/attention.pdf $@

# ---------------------------------------------------------------- tests
TEST_CFLAGS := $(WARN) $(STRICT) -O1 -g -Itangled
build/test_core: tests/test_core.c tangled/core.c tangled/attention.h
	$(CC) $(TEST_CFLAGS) -o $@ tests/test_core.c tangled/core.c -lcmocka $(LDLIBS)
build/test_core_double: tests/test_core.c tangled/core.c tangled/attention.h
	$(CC) $(TEST_CFLAGS) -DATTENTION_DOUBLE -o $@ tests/test_core.c tangled/core.c -lcmocka $(LDLIBS)
build/test_build: tests/test_build.c
	$(CC) $(TEST_CFLAGS) -o $@ tests/test_build.c -lcmocka
GPT_TEST_SOURCES := tests/test_gpt.c tests/checks.c tangled/core.c
build/test_gpt: $(GPT_TEST_SOURCES) tests/checks.h tangled/attention.h
	$(CC) $(TEST_CFLAGS) -Itests -o $@ $(GPT_TEST_SOURCES) -lcmocka $(LDLIBS)
build/test_gpt_double: $(GPT_TEST_SOURCES) tests/checks.h tangled/attention.h
	$(CC) $(TEST_CFLAGS) -O2 -DATTENTION_DOUBLE -Itests -o $@ $(GPT_TEST_SOURCES) -lcmocka $(LDLIBS)

ABLATION_TEST_SOURCES := tests/test_ablation.c tests/checks.c tangled/core.c
build/test_ablation: $(ABLATION_TEST_SOURCES) tests/checks.h tangled/attention.h
	$(CC) $(TEST_CFLAGS) -Itests -o $@ $(ABLATION_TEST_SOURCES) -lcmocka $(LDLIBS)
build/test_ablation_double: $(ABLATION_TEST_SOURCES) tests/checks.h tangled/attention.h
	$(CC) $(TEST_CFLAGS) -O2 -DATTENTION_DOUBLE -Itests -o $@ $(ABLATION_TEST_SOURCES) -lcmocka $(LDLIBS)

TESTS := build/test_core build/test_core_double build/test_gpt build/test_gpt_double \
         build/test_ablation build/test_ablation_double build/test_build
check: $(TESTS) all
	@status=0; for t in $(TESTS); do $$t || status=1; done; exit $$status

# The PyTorch reference (tests/reference.py) is independent of the C code;
# its input and output are committed, so the tests need no PyTorch.  To
# regenerate them (Debian's python3-torch, with the system Python):
reference: tests/reference_input.c tests/checks.c tangled/core.c
	$(CC) $(TEST_CFLAGS) -Itests -o build/reference_input tests/reference_input.c \
	  tests/checks.c tangled/core.c $(LDLIBS)
	build/reference_input tests/ref_input.bin
	/usr/bin/python3 tests/reference.py tests/ref_input.bin tests/reference.bin

clean:
	rm -rf build book/attention.html book/attention.pdf
