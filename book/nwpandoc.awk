# nwpandoc.awk -- noweb back end that writes pandoc Markdown.
#
#   markup x.nw | finduses | noidx | awk -f nwpandoc.awk > x.md
#
# POSIX awk only (tested with mawk and gawk).  The whole pipeline is
# buffered; END makes two passes over it:
#   pass 1 collects chunk names, noidx labels, cross references and the
#          identifier index, and gives every chunk a stable anchor
#          (chunk-<slug of name>, chunk-<slug>-2, -3 ... for continuations);
#   pass 2 writes the Markdown.
# Documentation text is copied verbatim (it is Markdown).  A chunk use in
# code becomes a token NWUSEnnnnX; the token -> (anchor, number, name) map is
# written at the end of the output as a code block of class "nwusemap",
# which book.lua drops and nwpost.awk reads.  Likewise a use of an
# identifier (one that finduses marks, defined by an `@ %def` line) in a
# C chunk other than the one that defines it becomes a token NWIDnnnnX,
# mapped to the identifier and the anchor of the chunk that defines it:
# the HTML links it there, the PDF prints the identifier.

BEGIN { n = 0; fatal = 0 }
/^@fatal/ { fatal = 1; print "nwpandoc.awk: noweb pipeline failed: " $0 > "/dev/stderr" }
/^@file / { seen_file = 1 }
{ line[++n] = $0 }

END {
    if (!fatal && !seen_file) {
        print "nwpandoc.awk: no noweb input (no @file line)" > "/dev/stderr"
        fatal = 1
    }
    if (fatal) exit 1
    collect()
    assign_anchors()
    emit()
    emit_chunk_index()
    emit_ident_index()
    emit_map()
}

# ---------------------------------------------------------------- helpers

function kw(s) {                  # keyword of a pipeline line ("@text" ...)
    if (match(s, /^@[a-z]+/)) return substr(s, 2, RLENGTH - 1)
    return ""
}
function arg(s, k) {              # rest of line after "@keyword "
    return substr(s, length(k) + 3)
}
function slug(s,   out, i, c, dash) {
    s = tolower(s); out = ""; dash = 0
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c ~ /[a-z0-9]/) {
            if (dash && out != "") out = out "-"
            out = out c; dash = 0
        } else dash = 1
    }
    return out
}
function idslug(s,   out, i, c) { # identifiers keep case and "_"
    out = ""
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        out = out (c ~ /[A-Za-z0-9_]/ ? c : "-")
    }
    return out
}
function md_escape(s,   out, i, c) {
    out = ""
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c == "{") out = out "\\{[]{}"     # empty span: no "{{" for book.lua
        else if (index("\\`*_}[]()<>#+-.!|$~^&\"'@:;%=/?,", c)) out = out "\\" c
        else out = out c
    }
    return out
}
function md_code(s, attr,   run, best, i, f, pad) {
    if (s == "") return ""
    best = 0; run = 0
    for (i = 1; i <= length(s); i++)
        if (substr(s, i, 1) == "`") { if (++run > best) best = run }
        else run = 0
    f = "`"; for (i = 0; i < best; i++) f = f "`"
    pad = (substr(s, 1, 1) == "`" || substr(s, length(s), 1) == "`") ? " " : ""
    return f pad s pad f attr
}
# chunk name as Markdown: [[code]] parts become inline code, rest escaped;
# the whole, in its angle brackets, a span of class chunkname (the PDF
# sets it in roman italic: book.lua, weave-preamble.tex)
function md_name(s, num,   out, a, b) {
    out = ""
    while ((a = index(s, "[[")) > 0) {
        b = index(substr(s, a + 2), "]]")
        if (b == 0) break
        while (substr(s, a + 3 + b, 1) == "]") b++      # [[a[i]]] -> a[i]
        out = out md_escape(substr(s, 1, a - 1)) md_code(substr(s, a + 2, b - 1), "{.nwname}")
        s = substr(s, a + b + 3)
    }
    return "[⟨" out md_escape(s) pagelabel(num) "⟩]{.chunkname}"
}
# the label of chunk number num: its number, as the chunk's heading shows
# it, in both books (LaTeX: \nwlab, weave-preamble.tex)
function pagelabel(num) {
    return num == "" ? "" : "`~\\nwlab{" num "}`{=latex}`<span class=\"chunklabel\">&#160;" num "</span>`{=html}"
}
# link to the first definition of a chunk (plain text if never defined)
function md_chunkref(name) {
    if (name in first_anchor)
        return "[" md_name(name, first_num[name]) "](#" first_anchor[name] ")"
    warn_undefined(name)
    return "[" md_name(name) "]{.undefined}"
}
function warn_undefined(name) {
    if (!(name in warned))
        print "nwpandoc.awk: warning: chunk <<" name ">> is used but never defined" > "/dev/stderr"
    warned[name] = 1
}
function md_labelref(l) {         # link to the chunk with noidx label l
    if (l in lab_anchor)
        return "[" md_name(lab_name[l], lab_num[l]) "](#" lab_anchor[l] ")"
    return ""
}
function md_numref(l) {           # chunk number, linked
    if (l in lab_anchor)
        return "[`" lab_num[l] "`{=html}`\\nwlab{" lab_num[l] "}`{=latex}](#" lab_anchor[l] ")"
    return ""
}
function lang_of_ext(name,   e) {
    if (!match(name, /\.[A-Za-z0-9]+$/)) {
        if (name ~ /(^|\/)[Mm]akefile$/) return "makefile"
        return ""
    }
    e = tolower(substr(name, RSTART + 1))
    if (e == "c" || e == "h") return "c"
    if (e == "lua") return "lua"
    if (e == "awk") return "awk"
    if (e == "sh") return "bash"
    if (e == "mk" || e == "make") return "makefile"
    if (e == "py") return "python"
    if (e == "tex" || e == "sty") return "latex"
    if (e == "md") return "markdown"
    if (e == "css") return "css"
    if (e == "html") return "html"
    if (e == "js") return "javascript"
    if (e == "yaml" || e == "yml") return "yaml"
    return ""
}
# language of a chunk: its own extension, else the common language of the
# chunks using it (recursively), else c
function lang(name,   l, k, r, res) {
    if (name in lang_memo) return lang_memo[name]
    l = lang_of_ext(name)
    if (l == "") {
        lang_memo[name] = "c"             # provisional: breaks cycles
        res = ""
        for (k = 1; k <= nusers[name]; k++) {
            r = lang(users[name, k])
            if (res == "") res = r
            else if (res != r) { res = "c"; break }
        }
        l = (res == "" ? "c" : res)
    }
    return lang_memo[name] = l
}

# ---------------------------------------------------------------- pass 1

function collect(   i, s, k, a, incode, curlab, cname, who, l, defname) {
    nnames = 0; nchunks = 0; incode = 0; curlab = ""; cname = ""
    nxchunks = 0; nidents = 0
    for (i = 1; i <= n; i++) {
        s = line[i]; k = kw(s); a = arg(s, k)
        if (k == "begin" && a ~ /^code/) {
            incode = 1; curlab = ""; cname = ""; nchunks++
        } else if (k == "end" && a ~ /^code/) {
            incode = 0
        } else if (incode && k == "xref") {
            if (a ~ /^label / && cname == "") curlab = substr(a, 7)
            else if (a ~ /^nextdef /) ch_next[nchunks] = substr(a, 9)
            else if (a ~ /^useitem /) {
                l = substr(a, 9)
                if (!((cname, l) in seenu)) {
                    seenu[cname, l] = 1; ch_uses[cname, ++nuses[cname]] = l
                }
            } else if (a ~ /^notused /) ch_root[cname] = 1
        } else if (incode && k == "defn") {
            cname = a
            if (!(cname in ndefs)) { names[++nnames] = cname; ndefs[cname] = 0 }
            ndefs[cname]++
            ch_name[nchunks] = cname; ch_k[nchunks] = ndefs[cname]
            ch_label[nchunks] = curlab
            if (curlab != "") { lab_chunk[curlab] = nchunks; lab_name[curlab] = cname }
        } else if (incode && k == "index" && a ~ /^defn /) {
            ch_defs[nchunks, ++ndefines[nchunks]] = substr(a, 6)
        } else if (!incode && k == "xref") {
            if (a ~ /^chunkbegin /) {
                a = substr(a, 12); l = a; sub(/ .*/, "", l)
                xc_name[++nxchunks] = substr(a, length(l) + 2); xc_n[nxchunks] = 0
            } else if (a ~ /^chunkdefn /)
                xc_item[nxchunks, ++xc_n[nxchunks]] = "d " substr(a, 11)
            else if (a ~ /^chunkuse /)
                xc_item[nxchunks, ++xc_n[nxchunks]] = "u " substr(a, 10)
        } else if (!incode && k == "index") {
            if (a ~ /^entrybegin /) {
                a = substr(a, 12); l = a; sub(/ .*/, "", l)
                id_name[++nidents] = substr(a, length(l) + 2); id_n[nidents] = 0
            } else if (a ~ /^entrydefn /)
                id_item[nidents, ++id_n[nidents]] = "d " substr(a, 11)
            else if (a ~ /^entryuse /)
                id_item[nidents, ++id_n[nidents]] = "u " substr(a, 10)
        }
    }
}

function assign_anchors(   i, j, nm, base, ok, try, c, l, u) {
    for (i = 1; i <= nnames; i++) {
        nm = names[i]; base = "chunk-" slug(nm)
        if (base == "chunk-") base = "chunk-x"
        for (try = 1; ; try++) {
            c = (try == 1 ? base : base "-v" try)
            ok = !(c in used_id)
            for (j = 2; ok && j <= ndefs[nm]; j++) if ((c "-" j) in used_id) ok = 0
            if (ok) break
        }
        used_id[c] = 1
        for (j = 2; j <= ndefs[nm]; j++) used_id[c "-" j] = 1
        name_anchor[nm] = c; first_anchor[nm] = c
        index_anchor[nm] = "index-" substr(c, 7)
    }
    for (i = 1; i <= nchunks; i++) {
        nm = ch_name[i]
        ch_anchor[i] = name_anchor[nm] (ch_k[i] > 1 ? "-" ch_k[i] : "")
        l = ch_label[i]
        if (l != "") { lab_anchor[l] = ch_anchor[i]; lab_num[l] = i }
        if (ch_k[i] == 1) first_num[nm] = i
    }
    # who uses whom (for the language of unnamed-extension chunks)
    for (i = 1; i <= nnames; i++) {
        nm = names[i]
        for (j = 1; j <= nuses[nm]; j++) {
            u = ch_uses[nm, j]
            if (u in lab_name) users[nm, ++nusers[nm]] = lab_name[u]
        }
    }
    for (i = 1; i <= nidents; i++) {
        c = "ident-" idslug(id_name[i])
        for (try = 1; (try == 1 ? c : c "-v" try) in used_id; try++) ;
        if (try > 1) c = c "-v" try
        used_id[c] = 1; id_anchor[id_name[i]] = c
        # where it is defined: its index entry's first definition
        for (j = 1; j <= id_n[i]; j++)
            if (substr(id_item[i, j], 1, 1) == "d" && substr(id_item[i, j], 3) in lab_anchor) {
                id_def[id_name[i]] = lab_anchor[substr(id_item[i, j], 3)]; break
            }
    }
}

# ---------------------------------------------------------------- pass 2

function use_token(name) {
    if (!(name in tok)) {
        ntok++
        tok[name] = sprintf("NWUSE%04dX", ntok)
        tok_name[ntok] = name
        if (!(name in first_anchor)) warn_undefined(name)
    }
    return tok[name]
}

# an identifier's token: its name and the anchor of its definition
function id_token(name) {
    if (!(name in idtok)) {
        nidtok++
        idtok[name] = sprintf("NWID%04dX", nidtok)
        idtok_name[nidtok] = name; idtok_anchor[nidtok] = id_def[name]
    }
    return idtok[name]
}
# is identifier name defined in chunk c?
function defines(c, name,   j) {
    for (j = 1; j <= ndefines[c]; j++) if (ch_defs[c, j] == name) return 1
    return 0
}

function flush_quote(   r) {
    r = md_code(qtext); qtext = ""
    return r
}

function emit(   i, s, k, a, mode, inquote, ci, code, start, ln, ident) {
    ln = 1; mode = ""; inquote = 0; ci = 0
    for (i = 1; i <= n; i++) {
        s = line[i]; k = kw(s); a = arg(s, k)
        if (k == "file") { ln = 1; continue }
        if (k == "line") { ln = a + 0; continue }
        if (k == "begin") {
            mode = (a ~ /^code/) ? "code" : "docs"
            if (mode == "code") { ci++; code = ""; start = -1 }
            continue
        }
        if (k == "end") {
            if (mode == "code") emit_chunk(ci, code, start)
            mode = ""; continue
        }
        if (k == "nl" || (k == "index" && a == "nl")) {
            ln++
            if (k == "nl") {
                if (mode == "docs") {
                    if (inquote) qtext = qtext " "; else printf "\n"
                } else if (mode == "code") {
                    if (start < 0) start = ln; else code = code "\n"
                }
            }
            continue
        }
        if (mode == "docs") {
            if (k == "text") {
                if (inquote) qtext = qtext a; else printf "%s", a
            } else if (k == "quote") { inquote = 1; qtext = "" }
            else if (k == "endquote") { printf "%s", flush_quote(); inquote = 0 }
            else if (k == "use") {
                if (inquote) printf "%s", flush_quote()
                printf "%s", md_chunkref(a)
            }
        } else if (mode == "code") {
            if (k == "text") {
                # the identifier finduses marked just before this text
                if (ident != "" && index(a, ident) == 1) {
                    code = code id_token(ident); a = substr(a, length(ident) + 1)
                }
                code = code a; ident = ""
            } else if (k == "use") code = code use_token(a)
            else if (k == "index" && a ~ /^use /) {
                ident = substr(a, 5)
                if (!(ident in id_def) || lang(ch_name[ci]) != "c" || defines(ci, ident)) ident = ""
            }
        }
    }
    printf "\n"
}

function emit_chunk(c, code, start,   nm, fence, best, run, j, sep, out, l, cls) {
    nm = ch_name[c]
    if (start < 0) start = 1
    sub(/\n$/, "", code)
    best = 2; run = 0
    for (j = 1; j <= length(code); j++)
        if (substr(code, j, 1) == "`") { if (++run > best) best = run }
        else run = 0
    fence = ""; for (j = 0; j <= best; j++) fence = fence "`"
    cls = lang(nm)
    printf "\n::: {.nwchunk}\n"
    printf "[[%d]{.chunknum} %s%s]{#%s .chunkhead}\n\n", c, md_name(nm),
        (ch_k[c] > 1 ? "+≡" : "≡"), ch_anchor[c]
    printf "%s{.%s .numberLines startFrom=\"%d\"}\n%s\n%s\n\n", fence, cls, start, code, fence
    out = ""
    # the piece that continues a chunk has its name: its number is enough
    if (c in ch_next) out = out "Continued in chunk " md_numref(ch_next[c]) ". "
    if (nuses[nm] > 0) {
        out = out "Used in "; sep = ""
        for (j = 1; j <= nuses[nm]; j++) {
            l = md_labelref(ch_uses[nm, j])
            if (l != "") { out = out sep l; sep = ", " }
        }
        out = out ". "
    } else if (nm in ch_root)
        out = out "Root chunk (not used in this document). "
    if (ndefines[c] > 0) {
        out = out "Defines "
        for (j = 1; j <= ndefines[c]; j++)
            out = out (j > 1 ? ", " : "") "[" md_code(ch_defs[c, j]) "](#" id_anchor[ch_defs[c, j]] ")"
        out = out "."
    }
    sub(/ $/, "", out)
    if (out != "") printf "[%s]{.chunkuses}\n", out
    printf ":::\n\n"
}

# sort key of a chunk name: its letters and digits, lower case, without
# the [[ ]] of code, so that code-named chunks sort among the others
function sort_key(s,   out, i, c) {
    s = tolower(s); out = ""
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c ~ /[a-z0-9 ]/) out = out c
    }
    gsub(/  +/, " ", out); sub(/^ /, "", out)
    return out
}

function emit_chunk_index(   i, j, k, it, l, d, u, sd, su, order, key) {
    printf "\n# Index of chunks {#index-of-chunks .unnumbered .nwindex}\n\n"
    printf "::: {.nwindex}\n"
    for (i = 1; i <= nxchunks; i++) {      # insertion sort by sort_key
        key[i] = sort_key(xc_name[i]) "\001" xc_name[i]
        for (j = i; j > 1 && key[order[j - 1]] > key[i]; j--) order[j] = order[j - 1]
        order[j] = i
    }
    for (k = 1; k <= nxchunks; k++) {
        i = order[k]
        d = ""; u = ""; sd = ""; su = ""
        for (j = 1; j <= xc_n[i]; j++) {
            it = xc_item[i, j]; l = md_numref(substr(it, 3))
            if (l == "") continue
            if (substr(it, 1, 1) == "d") { d = d sd l; sd = ", " }
            else { u = u su l; su = ", " }
        }
        printf "- [%s]{#%s}", md_chunkref(xc_name[i]),
            (xc_name[i] in index_anchor ? index_anchor[xc_name[i]] : "index-undefined-" i)
        if (d != "") printf " defined %s", d
        if (u != "") printf "; used %s", u
        else if (xc_name[i] in ch_root) printf "; root"
        printf "\n"
    }
    printf ":::\n"
}

function emit_ident_index(   i, j, it, l, d, u, sd, su) {
    printf "\n# Index of identifiers {#index-of-identifiers .unnumbered .nwindex}\n\n"
    printf "::: {.nwindex}\n"
    for (i = 1; i <= nidents; i++) {
        d = ""; u = ""; sd = ""; su = ""
        for (j = 1; j <= id_n[i]; j++) {
            it = id_item[i, j]; l = substr(it, 3)
            if (!(l in lab_anchor)) continue
            if (substr(it, 1, 1) == "d") { d = d sd md_labelref(l); sd = ", " }
            else { u = u su md_numref(l); su = ", " }
        }
        printf "- [%s]{#%s}", md_code(id_name[i]), id_anchor[id_name[i]]
        if (d != "") printf ": %s", d
        if (u != "") printf "; used %s", u
        printf "\n"
    }
    printf ":::\n"
    if (nidents == 0) printf "\n(No identifiers are marked with `@ %%def`.)\n"
}

function emit_map(   i, nm) {
    printf "\n~~~~~~~~ {.nwusemap}\n"
    for (i = 1; i <= ntok; i++) {
        nm = tok_name[i]
        printf "%s\t%s\t%s\t%s\n", sprintf("NWUSE%04dX", i),
            (nm in first_anchor ? first_anchor[nm] : "-"),
            (nm in first_num ? first_num[nm] : "-"), nm
    }
    for (i = 1; i <= nidtok; i++)
        printf "%s\t%s\t-\t%s\n", sprintf("NWID%04dX", i), idtok_anchor[i], idtok_name[i]
    printf "~~~~~~~~\n"
}
