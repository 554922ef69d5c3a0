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

# tangled/ is committed: it must be exactly what notangle makes of attention.nw.
tangle_is_fresh() {
    status=0
    roots=$(noroots $NW | sed 's/^<<\(.*\)>>$/\1/')
    for root in $roots; do
        if ! notangle -L -R"$root" $NW | cmp -s - "tangled/$root"; then
            echo "tangled/$root differs from a fresh tangle of $NW (run make tangle)"
            status=1
        fi
    done
    for file in tangled/*; do
        name=${file#tangled/}
        echo "$roots" | grep -qx "$name" || { echo "$file is not a root of $NW"; status=1; }
    done
    [ $status = 0 ] && echo "tangled/ equals a fresh tangle of: $(echo $roots)"
    return $status
}

# Editing a prose paragraph re-tangles through cpif: no tangled file, object
# file or program changes, so nothing is recompiled and no experiment reruns.
prose_edit_recompiles_nothing() {
    dir=$(scratch_copy)
    (cd "$dir" && make -s program >/dev/null) || { echo "build failed"; return 1; }
    before=$(cd "$dir" && ls -l --time-style=+%s.%N tangled build/*.o build/attention)
    sleep 1
    # add a space to the end of the first prose line after the title block
    awk 'done != 1 && /^This book is a program/ { $0 = $0 " "; done = 1 } { print }' \
        "$dir/$NW" > "$dir/nw.tmp" && mv "$dir/nw.tmp" "$dir/$NW"
    log=$(cd "$dir" && make program 2>&1)
    after=$(cd "$dir" && ls -l --time-style=+%s.%N tangled build/*.o build/attention)
    rm -rf "$dir"
    if [ "$before" != "$after" ]; then
        echo "a prose edit changed tangled files or objects:"; echo "$log"; return 1
    fi
    echo "after a prose edit, make ran:"; echo "$log" | sed 's/^/    /'
}

# A type error put into a chunk makes the compiler name attention.nw and the
# line of the error.
compiler_error_names_nw_line() {
    dir=$(scratch_copy)
    line=$(grep -n 'x\[p / 10\] = 1;' "$dir/$NW" | head -1 | cut -d: -f1)
    [ -n "$line" ] || { echo "marker line not found"; rm -rf "$dir"; return 1; }
    sed "${line}s/x\[p \/ 10\] = 1;/x[p \/ 10] = \"one\";/" "$dir/$NW" > "$dir/nw.tmp" \
        && mv "$dir/nw.tmp" "$dir/$NW"
    log=$(cd "$dir" && make program 2>&1)
    status=$?
    rm -rf "$dir"
    [ $status != 0 ] || { echo "the broken chunk compiled"; return 1; }
    echo "$log" | grep -q "$NW:$line:" || { echo "no error at $NW:$line in:"; echo "$log"; return 1; }
    echo "compiler reported: $(echo "$log" | grep "$NW:$line:" | head -1)"
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

# Every placeholder of attention.nw got a value: none survives into the books.
no_placeholder_survives() {
    status=0
    for f in book/attention.html build/attention.tex; do
        [ -f "$f" ] || { echo "$f not built"; return 1; }
        if grep -o '{{[A-Za-z0-9_:]*}}' "$f" | head -3 | grep .; then status=1; fi
    done
    [ $status = 0 ] && echo "no {{placeholder}} left in the HTML or LaTeX book"
    return $status
}

# The book's model, saved by `make`, answers all 100 problems through the
# command line; the expected answers come from the shell's own arithmetic.
ask_answers_all_100() {
    [ -f build/model.ckpt ] || { echo "build/model.ckpt not built"; return 1; }
    problems="" expected=""
    for a in 0 1 2 3 4 5 6 7 8 9; do for b in 0 1 2 3 4 5 6 7 8 9; do
        problems="$problems $a*$b="
        expected="$expected$a*$b=$((a * b));
"
    done; done
    got=$(build/attention ask -m build/model.ckpt $problems) || { echo "ask failed"; return 1; }
    if [ "$got
" != "$expected" ]; then
        echo "wrong answers:"; printf '%s\n' "$got" | grep -vxF "$(printf '%s' "$expected")" | head
        return 1
    fi
    echo "ask answered all 100 problems: $(echo "$got" | head -3 | tr '\n' ' ')..."
}

# Bad arguments: a message naming what was wrong, exit status 2; a
# missing model file: a message naming it, exit status 1.
cli_errors() {
    status=0
    check() {   # expected-status words-in-message command...
        want=$1 words=$2; shift 2
        out=$("$@" 2>&1); got=$?
        if [ $got != "$want" ] || ! echo "$out" | grep -q -- "$words"; then
            echo "FAIL: $* -> status $got, message: $out"; status=1
        else
            echo "ok: $* -> $got: $(echo "$out" | head -1)"
        fi
    }
    check 2 "unknown command" build/attention frobnicate
    check 2 "missing command" build/attention
    check 2 "not a problem" build/attention ask -m build/model.ckpt 7x8=
    check 2 "not a problem" build/attention ask -m build/model.ckpt 7*8
    check 2 "unknown option" build/attention ask --seed 3 7*8=
    check 2 "not a whole number" build/attention train --steps 0
    check 2 "not a whole number" build/attention train --seed -1
    check 2 "not a whole number" build/attention train --steps 99999999999999
    check 2 "needs a value" build/attention train --seed
    check 2 "not a token" build/attention trace -m build/model.ckpt 7x8=
    check 2 "past the end" build/attention trace -m build/model.ckpt 7*8= --pos 5
    check 1 "no/such/file" build/attention ask -m no/such/file 7*8=
    check 0 "usage" build/attention --help
    check 0 "usage" build/attention trace --help
    return $status
}

"$@"
