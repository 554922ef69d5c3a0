#!/bin/sh
# check.sh: run the test binaries chapter by chapter and print one line per
# chapter.  Run from the top of the repository (make check):
#
#   sh tests/check.sh build/test_core build/test_gpt ...
#
# With CHAPTER=n in the environment, only chapter n's tests run.  Each
# binary lists its tests with --list (chapter, what it checks, name); for
# each chapter every binary with tests in it runs with CHAPTER set, and
# reports "chapter-result" and "chapter-failure" lines (tests/chapters.c).
# Besides the chapters 1 to 10 there are four groups: build (the literate
# build and the book), whole (tests that run the whole model, or the
# program on it: they pass when every exercise is solved), course (the
# student edition) and, in no chapter, nothing else.
set -u
NW=attention.nw
summary=$(mktemp "${TMPDIR:-/tmp}/attention-check.XXXXXX") || exit 1
trap 'rm -f "$summary" "$summary.list" "$summary.out"' EXIT

: > "$summary.list"
for t in "$@"; do
    "$t" --list | sed "s|^|$t	|" >> "$summary.list" || { echo "$t --list failed"; exit 1; }
done
# chapters in order: 1 to 10, then the named groups
order() { awk -F'\t' '{ print $2 }' | sort -u |
          awk '/^[0-9]+$/ { print $0 "\t" $0; next }
               { k = index("build whole course ", $0 " "); print (k ? 100 + k : 999) "\t" $0 }' |
          sort -n | cut -f2; }
# every chapter of the book, and the groups that have tests
book_chapters=$(awk '/^# / && !/\{-\}[ \t]*$/ { print ++c }' $NW)
chapters=$({ printf -- '-\t%s\n' $book_chapters; cat "$summary.list"; } | order)
if [ -n "${CHAPTER:-}" ]; then
    echo "$chapters" | grep -qx "$CHAPTER" ||
        { echo "make check: no chapter or group '$CHAPTER' (there are: $(echo $chapters))"; exit 2; }
    chapters=$CHAPTER
fi

title() {
    case $1 in
        [0-9]*) awk -v n="$1" '/^# / && !/\{-\}[ \t]*$/ && ++c == n { sub(/^# /, ""); print; exit }' $NW ;;
        build)  echo "the literate build and the book" ;;
        whole)  echo "the whole model and the program (needs every exercise)" ;;
        course) echo "course mode: the student edition" ;;
        *)      echo "$1" ;;
    esac
}

status=0
: > "$summary"
for chapter in $chapters; do
    total=0 failed=0 notes=""
    if ! awk -F'\t' -v c="$chapter" '$2 == c { found = 1 } END { exit !found }' "$summary.list"; then
        printf '%-12s %-58.58s %s\n' "chapter $chapter" "$(title "$chapter")" \
            "no tests of its own" >> "$summary"
        continue
    fi
    for t in $(awk -F'\t' -v c="$chapter" '$2 == c { print $1 }' "$summary.list" | uniq); do
        CHAPTER=$chapter "$t" > "$summary.out" 2>&1
        code=$?
        grep -v "^chapter-result	" "$summary.out"   # the summary lines are for this script
        line=$(grep '^chapter-result' "$summary.out" | tail -1)
        if [ -z "$line" ]; then
            n=$(awk -F'\t' -v c="$chapter" -v t="$t" '$1 == t && $2 == c' "$summary.list" | wc -l)
            total=$((total + n)); failed=$((failed + n))
            notes="$notes
      $t stopped (exit status $code) before it finished chapter $chapter"
            continue
        fi
        total=$((total + $(echo "$line" | cut -f4)))
        failed=$((failed + $(echo "$line" | cut -f5)))
        notes="$notes$(grep '^chapter-failure' "$summary.out" |
            awk -F'\t' '{ printf "\n      %s (%s): checks %s", $4, $3, $5 }')"
    done
    noun=tests; [ $total = 1 ] && noun=test
    if [ $failed = 0 ]; then verdict="passed ($total $noun)"
    else verdict="FAILED ($failed of $total $noun)"; status=1; fi
    label=$chapter; case $chapter in [0-9]*) label="chapter $chapter";; esac
    printf '%-12s %-58.58s %s%s\n' "$label" "$(title "$chapter")" "$verdict" "$notes" >> "$summary"
done
echo
echo "==================================================================== by chapter"
cat "$summary"
exit $status
