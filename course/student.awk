# student.awk -- the student edition of attention.nw, from the teacher's.
#
#   awk -f course/student.awk attention.nw > student/attention.nw
#   awk -f course/student.awk -v solved=3,5 attention.nw   (keep 3 and 5 solved)
#   awk -f course/student.awk -v list=1 attention.nw       (the exercises)
#
# An exercise is marked in the prose by a fenced div
#
#   ::: {.exercise uses="LN_EPS"}
#   **Title.** The statement ...
#   :::
#
# and covers the code chunks that follow it, up to the next line of prose.
# Each function defined in those chunks keeps its header and gets a body
# that compiles and does nothing: a TODO comment with the statement, a
# (void) cast of every parameter and of each name in `uses` (static
# helpers and constants only the solution uses), the chunk uses the
# solution's body held (their chunks are part of the exercise and are
# stubbed too), and `return 0;` if the function returns a value.  A chunk
# that defines no function becomes a TODO comment.  The prose, the
# statement and every other chunk are copied unchanged, so the student's
# attention.nw has the same chunks, the same roots and the same chapters.
#
# list=1 prints one line per exercise, fields separated by "|":
#   number|chapter|title|functions (space-separated)|name of its first chunk|stub
# (a name, not a line number, which would go stale as the student writes);
# stub is 1 while a stub's marking line for the exercise (mark(), below) is
# in the source, 0 once it is gone: the exercises still to solve, read from
# the student's attention.nw as it is now, not from the last program built
#
# The chapter of an exercise is its chapter's number, which the stub's
# TODO gives as `CHAPTER=n`, beside `make check EXERCISE=e`; what a chapter is, and which line
# starts each, comes from tests/chapters.awk (run from the top of the
# repository, as the Makefile does).

BEGIN {
    chapter = 0; n = 0; state = "doc"; current = 0
    split(solved, keep_list, ",")
    for (i in keep_list) keep[keep_list[i] + 0] = 1
}

# ---------------------------------------------------------------- helpers

function plain(s,   text) {      # Markdown/noweb quoting out, for a C comment
    while (match(s, /\[[^\]]*\]\(#[^)]*\)/)) {  # a link: its text
        text = substr(s, RSTART + 1, RLENGTH - 1); sub(/\]\(#[^)]*\)$/, "", text)
        s = substr(s, 1, RSTART - 1) text substr(s, RSTART + RLENGTH)
    }
    gsub(/\*\*/, "", s); gsub(/\[\[/, "", s); gsub(/\]\]/, "", s)
    gsub(/\*\//, "* /", s)
    return s
}
function emit(s) { if (!list) print s }

# The stub of the buffered chunk body chunk[1..nchunk] of exercise e.
function stub(e,   i, j, l, header, body_uses, in_body, found, out, nm, np, params, p, name, ret, k, u, nu, uses_list) {
    found = 0; in_body = 0; header = ""; body_uses = ""; header_text = ""
    for (i = 1; i <= nchunk; i++) if (chunk[i] == "{") found = -1
    if (found == 0) {             # no function: a piece of one
        emit("/* TODO (exercise " e ", continued): the part of the exercise")
        if (chunk_name in used_in) {
            emit("   that belongs in this chunk. " used_in[chunk_name] " uses it, inside its")
            emit("   loop (see its TODO): it may read the names the loop declares. */")
        } else
            emit("   that belongs in this chunk. */")
        return
    }
    found = 0
    for (i = 1; i <= nchunk; i++) {
        l = chunk[i]
        if (!in_body) {
            if (l == "{") {
                in_body = 1; found++
                emit(header_text)
                emit("{")
                todo(e, found == 1 && first_of[e]++ == 0)
                # (void) every parameter
                p = header_text; sub(/^[^(]*\(/, "", p); sub(/\)[^)]*$/, "", p)
                np = split(p, params, ",")
                for (k = 1; k <= np; k++) {
                    name = params[k]; gsub(/\[[^]]*\]/, "", name); sub(/[ \t]+$/, "", name)
                    if (name ~ /^[ \t]*void$/ || name == "") continue
                    match(name, /[A-Za-z_][A-Za-z0-9_]*$/)
                    emit("    (void)" substr(name, RSTART, RLENGTH) ";")
                }
                if (found == 1 && first_use[e]++ == 0) {
                    nu = split(uses[e], uses_list, " ")
                    for (k = 1; k <= nu; k++) emit("    (void)" uses_list[k] ";")
                }
                ret = header_text; sub(/\(.*/, "", ret)
                fname = ret; sub(/.*[ *]/, "", fname)
                functions[e] = functions[e] (functions[e] == "" ? "" : " ") fname
                is_void = (ret ~ /(^|[ \t])void[ \t]/ && ret !~ /\*/)
                header_text = ""
            } else if ((l ~ /^[A-Za-z_]/ && l !~ /;[ \t]*$/) || header_text != "") {
                header_text = header_text (header_text == "" ? "" : "\n") l
            } else emit(l)
        } else if (l == "}") {
            in_body = 0
            if (!is_void) emit("    return 0;")
            emit("}")
        } else if (l ~ /^[ \t]*<<.*>>[ \t]*$/) {
            # the stub uses the chunk at the function's level; where the
            # solution uses it deeper (in a loop), the stub says to move
            # it, and keeps it from the compiler until then: the names it
            # reads are declared in the loop, and an error at the chunk's
            # lines about names undeclared here would say nothing useful
            u = l; sub(/^[ \t]*/, "    ", u)
            if (match(l, /^ */) && RLENGTH > 4) {
                emit("    /* TODO: use this chunk inside your loop, where the names it")
                emit("       reads are declared, and delete the #if 0 and #endif: until")
                emit("       then the compiler does not see it */")
                emit("#if 0"); emit(u); emit("#endif")
            } else emit(u)
            name = l; sub(/^[ \t]*<</, "", name); sub(/>>[ \t]*$/, "", name)
            used_in[name] = fname
        }
    }
}

# the functions an exercise kept solved defines (the list names them as
# it names a stub's): the name before the "(" of each header, the lines
# at the margin before a "{" at the margin
function solved_functions(e,   i, header, name) {
    header = ""
    for (i = 1; i <= nchunk; i++) {
        if (chunk[i] == "{" && header != "") {
            name = header; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
            functions[e] = functions[e] (functions[e] == "" ? "" : " ") name
            header = ""
        } else if (chunk[i] ~ /^[A-Za-z_]/ && chunk[i] !~ /;[ \t]*$/ && chunk[i] !~ /^}/)
            header = header (header == "" ? "" : " ") chunk[i]
        else if (chunk[i] !~ /^[ \t]/ || chunk[i] ~ /^[ \t]*$/) header = ""
    }
}

# the statement as a comment, its words refilled so that no line of the
# stub is wider than the book's code (76 columns, with the closing */)
# the stub marks itself when it runs (exercise_stubs_ran, in core.h): a
# test that fails after it ran is reported as needing exercise e
function mark(e) { emit("    exercise_stubs_ran |= 1u << " e ";   /* delete with the stub */") }
function todo(e, full,   k, m, lines, words, line, text) {
    if (!full) { emit("    /* TODO (exercise " e "): see above. */"); mark(e); return }
    m = split(statement[e], lines, "\n")
    emit("    /* TODO, exercise " e " (make check EXERCISE=" e "; its chapter: CHAPTER=" ex_chapter[e] ").")
    text = ""
    for (k = 1; k <= m; k++)
        text = text " " plain(lines[k])
    m = split(text, words, /[ \t]+/)
    line = ""
    for (k = 1; k <= m; k++) {
        if (words[k] == "") continue
        if (line != "" && length(line) + 1 + length(words[k]) > 66) {
            emit("       " line)
            line = words[k]
        } else
            line = line == "" ? words[k] : line " " words[k]
    }
    emit("       " line " */")
    mark(e)
}

# ---------------------------------------------------------------- the pass

# the chapters, from the one map of them: the line of each heading
FNR == 1 {
    map = "awk -v lines=1 -f tests/chapters.awk '" FILENAME "'"
    while ((map | getline heading) > 0) {
        split(heading, field, "\t")
        chapter_at[field[4]] = field[1]
    }
    if (close(map) != 0 || !(field[1] > 0)) {
        print "student.awk: no chapters: " map " failed" > "/dev/stderr"
        exit 1
    }
}
FNR in chapter_at { chapter = chapter_at[FNR] }

# a stub's marking line: that exercise is still to solve
/exercise_stubs_ran \|= 1u << [0-9]+;/ {
    marked = $0; sub(/.*exercise_stubs_ran \|= 1u << /, "", marked)
    stubbed[marked + 0] = 1
}

state == "marker" {
    if ($0 ~ /^:::[ \t]*$/) { state = "doc"; pending = n; emit($0); next }
    statement[n] = statement[n] (statement[n] == "" ? "" : "\n") $0
    if (title[n] == "" && match($0, /\*\*[^*]+\*\*/))
        { title[n] = substr($0, RSTART + 2, RLENGTH - 4); sub(/\.$/, "", title[n]) }
    emit($0); next
}

state == "code" {
    if ($0 ~ /^@( |$)/) {
        if (current && !keep[current]) stub(current)
        else { if (current) solved_functions(current); for (i = 1; i <= nchunk; i++) emit(chunk[i]) }
        state = "doc"
        if (current) pending = current
        current = 0; emit($0); next
    }
    if (current) { chunk[++nchunk] = $0; next }
    emit($0); next
}

/^<<.*>>=[ \t]*$/ {
    state = "code"; nchunk = 0; current = pending
    chunk_name = $0; sub(/^<</, "", chunk_name); sub(/>>=[ \t]*$/, "", chunk_name)
    if (current) {
        chunks[current]++
        if (first_chunk[current] == "")
            { first_chunk[current] = $0; sub(/^<</, "", first_chunk[current]); sub(/>>=[ \t]*$/, "", first_chunk[current]) }
    }
    if (!current || keep[current]) { emit($0); next }
    emit($0); next
}

/^::: *\{\.exercise/ {
    n++; state = "marker"; statement[n] = ""; title[n] = ""; ex_chapter[n] = chapter
    u = $0; uses[n] = ""
    if (match(u, /uses="[^"]*"/)) uses[n] = substr(u, RSTART + 6, RLENGTH - 7)
    emit($0); next
}

# prose ends the exercise's run of chunks
/[^ \t]/ && $0 !~ /^@( |$)/ { pending = 0 }
{ emit($0) }

END {
    if (state != "doc") { print "student.awk: unterminated exercise or chunk" > "/dev/stderr"; exit 1 }
    for (e = 1; e <= n; e++) {
        if (!chunks[e]) { print "student.awk: exercise " e " (" title[e] ") has no chunk" > "/dev/stderr"; exit 1 }
        if (list) print e "|" ex_chapter[e] "|" title[e] "|" functions[e] "|" first_chunk[e] "|" (e in stubbed ? 1 : 0)
    }
}
