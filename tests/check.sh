#!/bin/sh
# check.sh: run the test binaries chapter by chapter and print one line per
# chapter.  Run from the top of the repository (make check):
#
#   sh tests/check.sh build/test_core build/test_gpt ...
#
# Tests are tagged with the topic of their chapter (tests/chapters.h), the
# word in the chapter's heading, "# The forward pass {#forward-pass}"; the
# chapters, their numbers and topics come from tests/chapters.awk.  With
# CHAPTER in the environment only that chapter runs, named by its number
# (CHAPTER=5) or its topic (CHAPTER=forward-pass); an unknown one exits 2.
# Each binary lists its tests with --list (topic, what it checks, name);
# for each chapter every binary with tests in it runs with CHAPTER set to
# the topic, and reports "chapter-result" and "chapter-failure" lines
# (tests/chapters.c).  Besides the chapters there are three groups: build
# (the literate build and the book), whole (tests that run the whole
# model, or the program on it: they pass when every exercise is solved)
# and course (the student edition).  A test tagged with anything else
# is an error.
set -u
NW=attention.nw
groups="build whole course"
summary=$(mktemp "${TMPDIR:-/tmp}/attention-check.XXXXXX") || exit 1
trap 'rm -f "$summary" "$summary.map" "$summary.list" "$summary.out"' EXIT

# the chapters: number TAB topic TAB title
awk -f tests/chapters.awk $NW > "$summary.map" || exit 1
topics=$(cut -f2 "$summary.map")
: > "$summary.list"
for t in "$@"; do
    "$t" --list | sed "s|^|$t	|" >> "$summary.list" || { echo "$t --list failed"; exit 1; }
done
unknown=$(awk -F'\t' -v known="$(echo $topics $groups)" '
    BEGIN { n = split(known, k, " "); for (i = 1; i <= n; i++) ok[k[i]] = 1 }
    !($2 in ok) { printf "%s: test %s is tagged '\''%s'\'', no chapter'\''s topic or group\n", $1, $4, $2 }' \
    "$summary.list")
for g in $groups; do
    echo "$topics" | grep -qx "$g" && unknown="a chapter's topic is also a group: $g"
done
[ -z "$unknown" ] || { echo "$unknown"; echo "(the topics are: $(echo $topics); the groups: $groups)"; exit 1; }

# the chapters, then the groups that have tests; CHAPTER=n is chapter n's topic
chapters="$topics $(for g in $groups; do cut -f2 "$summary.list" | grep -qx "$g" && echo "$g"; done)"
if [ -n "${CHAPTER:-}" ]; then
    chapters=$(awk -F'\t' -v c="$CHAPTER" '$1 == c || $2 == c { print $2 }' "$summary.map")
    for g in $groups; do [ "$CHAPTER" = "$g" ] && chapters=$g; done
    [ -n "$chapters" ] || {
        echo "make check: no chapter or group '$CHAPTER'; the chapters are:"
        awk -F'\t' '{ printf "  CHAPTER=%-3s or CHAPTER=%-14s %s\n", $1, $2, $3 }' "$summary.map"
        echo "and the groups: $(echo $groups | sed 's/^/CHAPTER=/; s/ /, CHAPTER=/g')"
        exit 2; }
fi

# the label and title of a chapter or group
label() { n=$(awk -F'\t' -v c="$1" '$2 == c { print $1 }' "$summary.map")
          if [ -n "$n" ]; then echo "chapter $n"; else echo group; fi; }
title() {
    case $1 in
        build)  echo "the literate build and the book" ;;
        whole)  echo "the whole model and the program (every exercise)" ;;
        course) echo "course mode: the student edition" ;;
        *)      awk -F'\t' -v c="$1" '$2 == c { print $3 }' "$summary.map" ;;
    esac
}
summarise() {   # chapter, verdict, notes: the summary's line, within 100 columns
    printf '%-10s %-13s %-48.48s %s%s\n' "$(label "$1")" "$1" "$(title "$1")" "$2" "${3:-}" >> "$summary"
}

status=0
: > "$summary"
for chapter in $chapters; do
    total=0 failed=0 notes=""
    if ! awk -F'\t' -v c="$chapter" '$2 == c { found = 1 } END { exit !found }' "$summary.list"; then
        summarise "$chapter" "no tests of its own"
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
      $t stopped (exit status $code) before it finished $chapter"
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
    summarise "$chapter" "$verdict" "$notes"
done
echo
echo "==================================================================== by chapter"
cat "$summary"
exit $status
