# book.mk -- the weave's second half, run by the Makefile (make -f book/book.mk)
# after book/nwsplit.awk has split the woven Markdown into parts, one per
# chapter, in $(D).  Each part goes through pandoc on its own, side by side
# (make -j), and only when it changed: an edit to one chapter's prose
# re-reads that chapter alone.  The skeleton (the title block and every
# heading) gives the page around the parts, the table of contents, and
# the ids and numbers of the headings (sections.txt, read by sections.lua).

B       ?= build
D       := $(B)/book
RESULTS ?= $(B)/results
PARTS   := $(shell cat $(D)/parts.list)
TOOLS   := book/book.lua book/sections.lua book/nwpost.awk book/book.mk
# a part's text depends on the numbers and tables the experiments computed
NUMBERS := $(B)/results.stamp

FILTERS := --lua-filter=book/book.lua -M numbers=$(RESULTS)/numbers.txt \
  --lua-filter=book/sections.lua -M sections=$(D)/sections.txt
HTML_OPTS := --mathml --highlight-style=pygments
TEX_OPTS  := --top-level-division=chapter --highlight-style=tango

.DELETE_ON_ERROR:
.PHONY: all
all: book/attention.html book/attention.pdf
	@:

# ---------------------------------------------------------------- skeleton
# pandoc's own templates, with a marker where the body goes.
$(D)/page.html5: book/book.mk
	pandoc -D html5 | sed 's/^\$$body\$$$$/<!--NWBODY-->\n$$body$$\n<!--NWBODYEND-->/' > $@
	grep -q NWBODYEND $@
$(D)/fragment.html5: book/book.mk
	echo '$$body$$' > $@
$(D)/main.latex: book/book.mk
	pandoc -D latex | sed 's/^\$$body\$$$$/%NWBODY/' > $@
	grep -q NWBODY $@

# The HTML page around the parts (title, table of contents, style), and
# the list of headings: part, id, number (through cpif: the parts are
# remade only if it changed).
$(D)/skeleton.html $(D)/sections.txt: $(D)/skeleton.stamp ;
$(D)/skeleton.stamp: $(D)/skeleton.md $(D)/page.html5 book/weave.css $(TOOLS) $(NUMBERS)
	pandoc $< -f markdown --lua-filter=book/book.lua -M numbers=$(RESULTS)/numbers.txt \
	  -t html5 --template=$(D)/page.html5 --self-contained --number-sections \
	  --toc --toc-depth=2 $(HTML_OPTS) --css=book/weave.css --wrap=none -o $(D)/skeleton.html
	awk '/^<!--NWBODY-->$$/ { b = 1 } /^<!--NWBODYEND-->$$/ { b = 0 } \
	  b && /^<p>NWPART / { p = $$2; sub(/<.*/, "", p) } \
	  b && /^<h[1-6]/ { id = "-"; num = "-"; \
	    if (match($$0, / id="[^"]*"/)) id = substr($$0, RSTART + 5, RLENGTH - 6); \
	    if (match($$0, /^<h[1-6][^>]* data-number="[^"]*"/)) { s = substr($$0, 1, RLENGTH); \
	      sub(/.*data-number="/, "", s); num = substr(s, 1, length(s) - 1) } \
	    print p "\t" id "\t" num }' $(D)/skeleton.html > $(D)/sections.tmp
	cpif $(D)/sections.txt < $(D)/sections.tmp; rm -f $(D)/sections.tmp
	touch $@

# ---------------------------------------------------------------- parts
# Each part: pandoc, then the markers of chunk uses in code become links.
# pandoc numbers the code blocks of each part from 1 (ids cb1, cb1-1 for its
# lines ...): in HTML they get the part's name in front, to stay unique.
# The fragments are written through cpif, with a stamp: an edit that
# changes no output (a space, a line rewrapped) remakes no book.
HTML_PARTS := $(PARTS:%=$(D)/%.html)
TEX_PARTS  := $(PARTS:%=$(D)/%.tex)
$(HTML_PARTS): $(D)/%.html: $(D)/%.html.stamp ;
$(TEX_PARTS): $(D)/%.tex: $(D)/%.tex.stamp ;
$(HTML_PARTS:%=%.stamp): $(D)/%.html.stamp: $(D)/%.md $(D)/sections.txt $(D)/usemap.md \
    $(D)/fragment.html5 $(TOOLS) $(NUMBERS)
	pandoc $< -f markdown $(FILTERS) -M part=$* -M pagetitle=$* -t html5 --template=$(D)/fragment.html5 \
	  --self-contained $(HTML_OPTS) --resource-path=$(RESULTS) -o $(D)/$*.html.body
	awk -v fmt=html -f book/nwpost.awk $(D)/usemap.md $(D)/$*.html.body \
	| sed 's/\(id="\|href="#\)\(cb[0-9]\)/\1$*-\2/g' > $(D)/$*.html.new
	cpif $(D)/$*.html < $(D)/$*.html.new; rm -f $(D)/$*.html.body $(D)/$*.html.new
	touch $@
$(TEX_PARTS:%=%.stamp): $(D)/%.tex.stamp: $(D)/%.md $(D)/sections.txt $(D)/usemap.md $(TOOLS) $(NUMBERS)
	pandoc $< -f markdown $(FILTERS) -M part=$* -t latex $(TEX_OPTS) -o $(D)/$*.tex.body
	awk -v fmt=latex -f book/nwpost.awk $(D)/usemap.md $(D)/$*.tex.body > $(D)/$*.tex.new
	cpif $(D)/$*.tex < $(D)/$*.tex.new; rm -f $(D)/$*.tex.body $(D)/$*.tex.new
	touch $@

# ---------------------------------------------------------------- HTML
# The skeleton's page with the parts in place of its body; every internal
# link is checked.
book/attention.html: $(D)/skeleton.html $(HTML_PARTS)
	awk -v parts="$(PARTS:%=$(D)/%.html)" '/^<!--NWBODY-->$$/ { \
	    n = split(parts, f, " "); for (i = 1; i <= n; i++) \
	      while ((getline l < f[i]) > 0) print l; skip = 1; next } \
	  /^<!--NWBODYEND-->$$/ { skip = 0; next } !skip' $< > $(B)/attention.html
	python3 book/checklinks $(B)/attention.html
	cp $(B)/attention.html $@

# ---------------------------------------------------------------- PDF
# The preamble, title and contents come from the skeleton; the body
# \inputs the parts.
$(B)/attention.tex: $(D)/skeleton.md $(D)/main.latex book/weave-preamble.tex $(D)/parts.list $(TOOLS) $(NUMBERS)
	pandoc $< -f markdown --lua-filter=book/book.lua -M numbers=$(RESULTS)/numbers.txt \
	  -t latex --template=$(D)/main.latex --standalone $(TEX_OPTS) --number-sections \
	  --toc --toc-depth=1 -H book/weave-preamble.tex \
	  -V tables -V graphics \
	  -V documentclass=book -V classoption=oneside -V fontsize=11pt \
	  -V geometry=a4paper -V geometry=hmargin=27mm -V geometry=vmargin=25mm \
	  -V fontfamily=mathpazo -V colorlinks=true \
	  -V 'linkcolor=[rgb]{0.12,0.31,0.56}' -V 'urlcolor=[rgb]{0.12,0.31,0.56}' \
	  -V toccolor=black -o $@.skel
	awk -v parts="$(PARTS)" '/^%NWBODY$$/ { n = split(parts, f, " "); \
	    for (i = 1; i <= n; i++) print "\\input{book/" f[i] "}%\n"; next } { print }' $@.skel > $@
	rm -f $@.skel

# The preamble, loaded at every pass, is compiled once into a format
# (mylatexformat); it changes only with the skeleton or weave-preamble.tex.
$(B)/attention.fmt: $(B)/attention.tex
	cd $(B) && pdflatex -ini -interaction=nonstopmode -halt-on-error -jobname=attention \
	  '&pdflatex' mylatexformat.ltx attention.tex > /dev/null \
	  || { tail -n 30 attention.log >&2; exit 1; }

# pdflatex until the cross-references (and longtable's column widths) settle
book/attention.pdf: $(B)/attention.fmt $(B)/attention.tex $(TEX_PARTS)
	cd $(B) && for i in 1 2 3 4; do \
	  pdflatex -fmt=attention -interaction=nonstopmode -halt-on-error attention.tex > /dev/null \
	    || { tail -n 30 attention.log >&2; exit 1; }; \
	  grep -q 'Rerun to get\|Rerun LaTeX\|Label(s) may have changed\|No file attention.toc' attention.log \
	    || break; \
	done
	cp $(B)/attention.pdf $@
