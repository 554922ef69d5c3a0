# nwpost.awk -- replace chunk-use tokens (NWUSEnnnnX) and identifier tokens
# (NWIDnnnnX) in pandoc output by links.
#
#   awk -v fmt=html  -f nwpost.awk x.md x.body.html > x.html
#   awk -v fmt=latex -f nwpost.awk x.md x.body.tex  > x.tex
#
# The first file is the Markdown written by nwpandoc.awk; the token map is
# read from its code block of class "nwusemap" (lines: token TAB anchor TAB
# number of the chunk's first piece TAB chunk name; anchor and number "-" =
# chunk never defined; for an identifier: token TAB the anchor of the chunk
# that defines it TAB - TAB the identifier).  POSIX awk only.
# Exits 1 if the output contains a token that is not in the map.

BEGIN {
    if (fmt != "html" && fmt != "latex") {
        print "nwpost.awk: set -v fmt=html or -v fmt=latex" > "/dev/stderr"
        exit 2
    }
    bad = 0
}

FNR == NR {
    if ($0 ~ /^~~~~~~~~ *\{\.nwusemap\}/) { inmap = 1; next }
    if (inmap && $0 ~ /^~~~~~~~~ *$/) { inmap = 0; next }
    if (inmap) {
        t = index($0, "\t"); tk = substr($0, 1, t - 1); rest = substr($0, t + 1)
        t = index(rest, "\t")
        anchor[tk] = substr(rest, 1, t - 1); rest = substr(rest, t + 1)
        t = index(rest, "\t")
        num[tk] = substr(rest, 1, t - 1); name[tk] = substr(rest, t + 1)
    }
    next
}

# LaTeX: a chunk's "Used in" paragraph is moved before \end{Shaded}, into
# the group in which the code's list ends without a breakpoint
# (weave-preamble.tex), so that it is kept with the code's last lines.
{
    out = ""; s = $0
    while (match(s, /NW(USE|ID)[0-9][0-9][0-9][0-9]+X/)) {
        tk = substr(s, RSTART, RLENGTH)
        out = out substr(s, 1, RSTART - 1)
        s = substr(s, RSTART + RLENGTH)
        out = out (tk ~ /^NWID/ ? ident(tk, out) : link(tk))
    }
    s = out s
    if (fmt != "latex") {
        # a code line's number is drawn by the style sheet in an empty
        # anchor of pandoc's; a link there would be a link without a name
        gsub(/<a href="#cb[0-9]+-[0-9]+"><\/a>/, "<a></a>", s)
        # an operator is set in the code's ink: pandoc's span around each
        # one (10,000 in Part I, a fifth of its elements, that the browser
        # styles and lays out before the page is ready) only made it grey
        while (match(s, /<span class="op">[^<]*<\/span>/))
            s = substr(s, 1, RSTART - 1) substr(s, RSTART + 17, RLENGTH - 24) \
                substr(s, RSTART + RLENGTH)
        # pandoc 2.17 marks each entry of the references with ARIA's
        # role doc-biblioentry, which DPUB-ARIA 1.1 deprecated (axe-core
        # refuses it); the list keeps its role, doc-bibliography
        gsub(/ role="doc-biblioentry"/, "", s)
        print s; next
    }
    if (held == 1 && s == "") { blanks = blanks "\n"; next }
    if (held == 1 && index(s, "{\\nwchunkuses{") == 1) { held = 2; print s; next }
    if (held == 2 && s != "") { print s; next }
    if (held) { print "\\end{Shaded}"; printf "%s", blanks; held = 0 }
    if (s == "\\end{Shaded}") { held = 1; blanks = ""; next }
    print s
}

END {
    if (held) { print "\\end{Shaded}"; printf "%s", blanks }
    if (bad) exit 1
}

# drop noweb's [[ ]] code quotes from a chunk name (code is shown as code anyway)
function unquote(s,   a, b) {
    while ((a = index(s, "[[")) > 0 && (b = index(substr(s, a + 2), "]]")) > 0) {
        while (substr(s, a + 3 + b, 1) == "]") b++
        s = substr(s, 1, a - 1) substr(s, a + 2, b - 1) substr(s, a + b + 3)
    }
    return s
}
function html_esc(s,   out, i, c) {
    out = ""
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c == "&") c = "&amp;"; else if (c == "<") c = "&lt;"
        else if (c == ">") c = "&gt;"; else if (c == "\"") c = "&quot;"
        out = out c
    }
    return out
}
# HTML: the name and, as in the chunk's heading, its number ("⟨name 87⟩").
# LaTeX: \nwcodelink{anchor}{name}{number} (weave-preamble.tex)
# detokenizes the anchor, as fancyvrb makes "-" active inside Verbatim, and
# prints the chunk's number after the name, as the HTML does.
# inside pandoc's Highlighting Verbatim (commandchars=\\\{\}) only \ { }
# are special; everything else is printed as is
function tex_esc(s,   out, i, c) {
    out = ""
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c == "\\") c = "\\textbackslash{}"
        else if (c == "{") c = "\\{"; else if (c == "}") c = "\\}"
        out = out c
    }
    return out
}
# An identifier: HTML links it to the chunk that defines it, except in a
# comment or a string (pandoc's spans co and st, open on the line before
# it); LaTeX prints it, escaped as pandoc escapes code ("_" is "\_").
function ident(tk, before,   nm, a, rest) {
    if (!(tk in anchor)) {
        printf "nwpost.awk: %s:%d: unknown identifier token %s\n", FILENAME, FNR, tk > "/dev/stderr"
        bad = 1
        return tk
    }
    nm = name[tk]
    if (fmt == "latex") { gsub(/_/, "\\_", nm); return nm }
    rest = before
    while (match(rest, /<span class="(co|st)">/)) {
        rest = substr(rest, RSTART + RLENGTH)
        if (index(rest, "</span>") == 0) return nm
    }
    nlinked++
    return "<a href=\"#" anchor[tk] "\">" nm "</a>"
}
function link(tk,   nm) {
    if (!(tk in anchor)) {
        printf "nwpost.awk: %s:%d: unknown chunk token %s\n", FILENAME, FNR, tk > "/dev/stderr"
        bad = 1
        return tk
    }
    nm = unquote(name[tk])
    gsub(/'/, "’", nm)   # as pandoc sets the name where the chunk is defined
    if (fmt == "html") {
        if (anchor[tk] == "-")
            return "<span class=\"chunkref undefined\">⟨" html_esc(nm) "⟩</span>"
        return "<a class=\"chunkref\" href=\"#" anchor[tk] "\">⟨" html_esc(nm) \
            "<span class=\"chunklabel\"> " num[tk] "</span>⟩</a>"
    }
    if (anchor[tk] == "-")
        return "\\nwchunkref{" tex_esc(nm) "}"
    return "\\nwcodelink{" anchor[tk] "}{" tex_esc(nm) "}{" num[tk] "}"
}
