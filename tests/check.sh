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
# (tests/chapters.c); their output goes out as they run, and the summary
# names each failing test with its reason (the line that says FAILED or
# FAIL, or else the last line it printed).  Besides the chapters there
# are three groups: build (the literate build and the book), whole (tests
# that run the whole model, or the program on it: they pass when every
# exercise is solved) and course (the student edition).  A test of a
# chapter's code that needs every exercise is tagged with the chapter's
# topic and "+whole" ("ablations+whole"): make check CHAPTER=7 runs it
# with chapter 7's other tests; make check alone runs it in the group
# whole, whose line counts them by chapter ("by chapter: 4: 8, 7: 6").  A
# test tagged with anything else is an error.  With EXERCISE=k in the
# environment only exercise k's tests run: those of its chapter that
# check its functions (course/student.awk lists the exercises, their
# chapters and functions); the binaries get the functions in CHECKS
# (tests/chapters.c).
#
# With CHECK_SUMMARY=FILE in the environment the summary (from "by
# chapter" to the end) goes to FILE instead: make check prints the two
# builds' summaries together (tests/check_both.sh).  With CHECK_APART
# (chapters or groups, by topic) those are left out: make check runs the
# group course in a process of its own, beside the others.
set -u
NW=attention.nw
# (file descriptor 3: the summary's way out)
if [ -n "${CHECK_SUMMARY:-}" ]; then exec 3> "$CHECK_SUMMARY"; else exec 3>&1; fi
apart=${CHECK_APART:-}
unset CHECK_SUMMARY CHECK_APART     # not for the tests' own runs of this script
groups="build whole course"
summary=$(mktemp "${TMPDIR:-/tmp}/attention-check.XXXXXX") || exit 1
trap 'rm -f "$summary" "$summary.map" "$summary.list" "$summary.out" "$summary.code" "$summary.ex" "$summary.fail"' EXIT

# the chapters: number TAB topic TAB title
awk -f tests/chapters.awk $NW > "$summary.map" || exit 1
topics=$(cut -f2 "$summary.map")
: > "$summary.list"
for t in "$@"; do
    [ -x "$t" ] || { echo "$t is not built"; exit 1; }
    "$t" --list | sed "s|^|$t	|" >> "$summary.list" || { echo "$t --list failed"; exit 1; }
done
unknown=$(awk -F'\t' -v known="$(echo $topics $groups)" -v chapters="$(echo $topics)" '
    BEGIN { n = split(known, k, " "); for (i = 1; i <= n; i++) ok[k[i]] = 1
            n = split(chapters, k, " "); for (i = 1; i <= n; i++) ok[k[i] "+whole"] = 1 }
    !($2 in ok) { printf "%s: test %s is tagged '\''%s'\'', no chapter'\''s topic or group\n", $1, $4, $2 }' \
    "$summary.list")
for g in $groups; do
    echo "$topics" | grep -qx "$g" && unknown="a chapter's topic is also a group: $g"
done
[ -z "$unknown" ] || { echo "$unknown"; echo "(the topics are: $(echo $topics), each with +whole or not; the groups: $groups)"; exit 1; }

# the chapters, then the groups that have tests; CHAPTER=n is chapter n's topic
chapters="$topics $(for g in $groups; do cut -f2 "$summary.list" | grep -qx "$g\|.*+$g" && echo "$g"; done)"
if [ -n "${CHAPTER:-}" ]; then
    chapters=$(awk -F'\t' -v c="$CHAPTER" '$1 == c || $2 == c { print $2 }' "$summary.map")
    for g in $groups; do [ "$CHAPTER" = "$g" ] && chapters=$g; done
    [ -n "$chapters" ] || {
        echo "make check: no chapter or group '$CHAPTER'; the chapters are:"
        awk -F'\t' '{ printf "  CHAPTER=%-3s or CHAPTER=%-14s %s\n", $1, $2, $3 }' "$summary.map"
        echo "and the groups: $(echo $groups | sed 's/^/CHAPTER=/; s/ /, CHAPTER=/g')"
        exit 2; }
fi

for a in $apart; do chapters=$(echo $chapters | tr ' ' '\n' | grep -vx "$a"); done
# a chapter's tests with "+whole" run with the chapter's own when one
# chapter runs (CHAPTER=k), in the group whole otherwise (tests/chapters.c)
WHOLE_APART=1
[ -n "${CHAPTER:-}" ] && [ -z "${EXERCISE:-}" ] && echo "$topics" | grep -qx "$chapters" && WHOLE_APART=
export WHOLE_APART

# the exercises (course/student.awk's list: number|chapter|title|functions|
# chunk|stub), where there are any: a test of an exercise's function that
# passes while that exercise's marking line runs is a failure of its own
: > "$summary.ex"
[ -f course/student.awk ] && { awk -f course/student.awk -v list=1 $NW > "$summary.ex" || exit 1; }
# EXERCISE=k: its chapter's topic, and its functions in CHECKS
exercise=""
if [ -n "${EXERCISE:-}" ]; then
    line=$(awk -F'|' -v e="$EXERCISE" '$1 == e' "$summary.ex")
    [ -n "$line" ] || {
        echo "make check: no exercise '$EXERCISE'; the exercises are:"
        awk -F'|' -v map="$summary.map" '
            BEGIN { while ((getline l < map) > 0) { split(l, f, "\t"); named[f[1]] = f[3] } }
            { printf "  EXERCISE=%-3s %s (chapter %s, %s)\n", $1, $3, $2, named[$2] }' "$summary.ex"
        exit 2; }
    exercise=$EXERCISE
    chapters=$(awk -F'\t' -v c="$(echo "$line" | cut -d'|' -f2)" '$1 == c { print $2 }' "$summary.map")
    CHECKS=$(echo "$line" | cut -d'|' -f4)
    export CHECKS
fi

# the label and title of a chapter or group (or of the exercise)
label() { n=$(awk -F'\t' -v c="$1" '$2 == c { print $1 }' "$summary.map")
          if [ -n "$exercise" ]; then echo "exercise $exercise"
          elif [ -n "$n" ]; then echo "chapter $n"; else echo group; fi; }
title() {
    [ -n "$exercise" ] && { awk -F'|' -v e="$exercise" '$1 == e { print $3 }' "$summary.ex"; return; }
    chapter_title "$1"
}
chapter_title() {
    case $1 in
        build)  echo "the literate build and the book" ;;
        whole)  echo "the whole model and the program" ;;
        course) echo "course mode: the student edition" ;;
        *)      awk -F'\t' -v c="$1" '$2 == c { print $3 }' "$summary.map" ;;
    esac
}
# a chapter as the book names it, "chapter 5, The forward pass", or a group
# ("group whole, the whole model and the program"): the tests' banners
# and the summary's lists use it
name_of() { n=$(awk -F'\t' -v c="$1" '$2 == c { print $1 }' "$summary.map")
            if [ -n "$n" ]; then echo "chapter $n, $(chapter_title "$1")"
            else echo "group $1, $(chapter_title "$1")"; fi; }
summarise() {   # chapter, verdict, notes: the summary's line, within 100 columns
    if [ -n "$exercise" ]; then     # the exercise, and its chapter by name
        w=$((88 - ${#2})); [ $w -ge 56 ] || w=56; [ $w -le 62 ] || w=62
        printf '%-10s %-*s %s%s\n' "$(label "$1")" $w \
            "$(title "$1") ($(name_of "$1"))" "$2" "${3:-}" >> "$summary"
        return
    fi
    w=$((73 - ${#2})); [ $w -le 48 ] || w=48
    printf '%-10s %-13s %-*.*s %s%s\n' "$(label "$1")" "$1" $w $w "$(title "$1")" "$2" "${3:-}" >> "$summary"
}

# In the student edition a failing test after which an exercise's stub ran
# (its chapter-failure line lists them) needs that exercise, and is counted
# apart from the tests that fail on their own; so is a failing test of the
# group whole while the program refuses to run (it names its stubs): the
# group tests the trained model and the program, which need every exercise.
program=${B:-build}/attention
refused=""
[ -x "$program" ] &&
    refused=$("$program" ask 1*1= 2>&1 >/dev/null | sed -n 's/^  make check EXERCISE=\([0-9]*\)$/\1/p' | tr '\n' ' ')
# the exercises as words: "exercise 6", "exercises 6 and 7", "4 exercises"
exercises_words() {
    echo "$1" | awk '{ if (NF > 3) { printf "%d exercises", NF; exit }
                       printf "exercise%s", (NF > 1 ? "s" : "")
                       for (i = 1; i <= NF; i++) printf "%s%s", (i == 1 ? " " : i == NF ? " and " : ", "), $i }'
}
# A binary's output, as it goes to the log: without the lines for this
# script (chapter-result, chapter-failure, chapter-marked), paths
# shortened to attention.nw and tests/.  In the student edition
# (EDITION=student) a sanitizer's report is cut to what names the error
# and its place (its kind, the read or write, the frames in attention.nw
# and the tests, the variable overrun, the summary), and the log holds
# what a student acts on: the banner, the
# failing tests with what they printed (one line for a test that needs an
# exercise, outside make check EXERCISE=k, which shows its case), the
# skipped ones with their reasons, and no passing test, nor cmocka's
# counts (the summary counts), nor the output of the build tests that
# pass, whose deliberate failures (a package that does not exist, a
# misspelt chunk) are theirs to make, not the student's.
show() {    # the output (a file, or - as it comes); the tests that need an exercise
    awk -v quiet="$([ "${EDITION:-teacher}" = student ] && echo 1)" -v hush=" ${2:-} " '
        /^chapter-(result|failure|marked)\t/ { next }
        { gsub(/[^ (]*\/attention\.nw:/, "attention.nw:"); gsub(/[^ (]*\/tests\//, "tests/") }
        !quiet { print; fflush(); next }
        /^==[0-9]+==ERROR: / { report = 1; sub(/^==[0-9]+==/, ""); sub(/ on address .*/, ""); emit($0); next }
        /^==[0-9]+==ABORTING/ || /^=+$/ { next }
        report == 1 && /^SUMMARY: / { report = 2; emit($0); next }
        report == 2 && /^(Shadow byte|=>0x| +0x| +[A-Z][A-Za-z -]*:)/ { next }
        report == 2 { report = 0 }
        report { if (/^(READ|WRITE) of size/ || /<== Memory access/ || /^(Direct|Indirect) leak of/) emit($0)
                 else if (/^ *#[0-9]+ .* in [^ ]+ (attention\.nw|tests\/test_)/) { sub(/0x[0-9a-f]+ in /, ""); emit($0) }
                 next }
        /^\[ [^]=]*: .* \]$/ { banner = $0; next }
        /^\[ RUN      \]/ { block = $0; inside = 1; next }
        inside && /^\[ +(OK|FAILED|SKIPPED|ERROR) +\] / {
            if (/^\[ +OK +\]/) { inside = 0; block = ""; next }
            if (/^\[ +ERROR +\]/) { block = block "\n" $0; next }
            inside = 0
            if (/^\[ +SKIPPED +\]/) sub(/^\[ RUN +\][^\n]*\n/, "", block)
            if (/^\[ +FAILED +\]/ && index(hush, " " $NF " ")) out($0)
            else out(block "\n" $0)
            block = ""; next }
        inside && /^[a-z0-9_]+ took [0-9.]+ s$/ { next }
        inside { block = block "\n" $0; next }
        /^\[[=A-Z ]+\]/ || /^ [0-9]+ (FAILED|SKIPPED) TEST/ || /^$/ { next }
        { out($0) }
        function out(text) { if (banner != "") { print banner; banner = "" } print text }
        function emit(text) { if (quiet && inside) block = block "\n" text; else out(text) }
        END { if (inside) out(block) }' "$1"
}
status=0
: > "$summary"
times=${CHECK_TIMES:-${B:-build}/check-times.txt}
mkdir -p "$(dirname "$times")" && : > "$times"
# the tests of a chapter (of the exercise, with CHECKS): binary TAB tag TAB checks TAB name
tests_of() {
    awk -F'\t' -v c="$1" -v apart="$WHOLE_APART" -v checks=" ${CHECKS:-} " '
        ($2 == c || (c == "whole" && $2 ~ /[+]whole$/) || (!apart && $2 == c "+whole")) &&
        (checks == "  " || index(checks, " " $3 " "))' "$summary.list"
}
# how many of a chapter's tests are in the group whole, when it runs apart
# (a chapter with no other tests says so, "its 6 tests are in group whole")
in_whole() {
    [ -n "$WHOLE_APART" ] && [ -z "$exercise" ] || { echo 0; return; }
    awk -F'\t' -v c="$1+whole" '$2 == c' "$summary.list" | wc -l
}
for chapter in $chapters; do
    total=0 failed=0 skipped=0 notes="" needs=0 needed=""
    elsewhere=$(in_whole "$chapter")
    if [ -z "$(tests_of "$chapter")" ]; then
        if [ "$elsewhere" = 0 ]; then summarise "$chapter" "no tests of its own"
        elif [ "$elsewhere" = 1 ]; then summarise "$chapter" "its 1 test is in group whole"
        else summarise "$chapter" "its $elsewhere tests are in group whole"; fi
        continue
    fi
    sanitized=""
    for t in $(tests_of "$chapter" | cut -f1 | uniq); do
        # make check EXERCISE=k hands over the exercise's tests built with
        # the sanitizers too (build-san/): they run once the plain build's
        # pass, and count no test twice
        case $t in build-san/*)
            if [ -n "$exercise" ] && [ "${B:-build}" != build-san ]; then
                [ $failed = 0 ] || continue
                sanitized=", under the sanitizers"
            fi ;;
        esac
        start=$(date +%s.%N)
        # the teacher's output goes out as the tests run (a group of build
        # tests runs for minutes); the student edition's log is cut to
        # what a student acts on, which is known when the binary is done
        if [ "${EDITION:-teacher}" = student ]; then
            CHAPTER=$chapter CHAPTER_NAME="$(name_of "$chapter")" "$t" > "$summary.out" 2>&1
            code=$?
        else
            { CHAPTER=$chapter CHAPTER_NAME="$(name_of "$chapter")" "$t" 2>&1; echo $? > "$summary.code"; } |
                tee "$summary.out" | show -
            code=$(cat "$summary.code")
        fi
        # how long each binary took on each chapter, for whoever makes
        # make check faster: $B/check-times.txt (seconds, chapter, binary)
        awk -v s="$start" -v e="$(date +%s.%N)" -v c="$chapter" -v t="$t" \
            'BEGIN { printf "%.1f\t%s\t%s\n", e - s, c, t }' >> "$times"
        # a failing test that needs an exercise, outside make check
        # EXERCISE=k, shows one line: make check EXERCISE=k shows its case
        hushed=""
        [ -n "$exercise" ] || hushed=$(awk -F'\t' -v whole="$refused" \
            '/^chapter-failure\t/ && ($6 != "" || (whole ~ /[0-9]/ && $2 ~ /^whole$|[+]whole$/)) { print $4 }' \
            "$summary.out" | tr '\n' ' ')
        [ "${EDITION:-teacher}" != student ] || show "$summary.out" "$hushed"
        line=$(grep '^chapter-result' "$summary.out" | tail -1)
        if [ -z "$line" ]; then
            n=$(tests_of "$chapter" | awk -F'\t' -v t="$t" '$1 == t' | wc -l)
            [ -n "$sanitized" ] || total=$((total + n))
            failed=$((failed + n))
            # stopped by a sanitizer: what it found, and where
            found=$(sed -n 's/^SUMMARY: [A-Za-z]*Sanitizer: \([^ ]*\) \([^ ]*\/\)\{0,1\}\([^ /]*:[0-9]*\):[0-9]* in \(.*\)$/\1 at \3 in \4/p' \
                    "$summary.out" | head -1)
            [ -n "$found" ] || found=$(sed -n 's/^\([^ ]*\/\)\{0,1\}\([^ /]*:[0-9]*\):[0-9]*: runtime error: \(.*\)/\3, at \2/p' \
                    "$summary.out" | head -1)
            if [ -n "$found" ]; then notes="$notes
      ${t##*/} stopped$sanitized: $found (the report is above)"
            else notes="$notes
      $t stopped (exit status $code) before it finished $chapter"; fi
            continue
        fi
        [ -n "$sanitized" ] || total=$((total + $(echo "$line" | cut -f4)))
        failed=$((failed + $(echo "$line" | cut -f5)))
        skipped=$((skipped + $(echo "$line" | awk -F'\t' '{ print $6 + 0 }')))
        # (a test tagged whole, or with "+whole", needs the program, which
        # refuses to run while stubs are left: it needs those exercises)
        grep '^chapter-failure' "$summary.out" | awk -F'\t' -v whole="$refused" -v self="$exercise" -v san="$sanitized" '
            { needs = $6 != "" ? $6 : $2 ~ /^whole$|[+]whole$/ ? whole : ""; sub(/ +$/, "", needs); $3 = $3 san }
            needs == "" { printf "%s\n", $4 " (" $3 "): checks " $5; next }
            needs == self { printf "%s\t%s\n", $4 " (" $3 "): still the stub; checks " $5, needs; next }
            { n = split(needs, e, " "); words = n > 1 ? "exercises " : "exercise "
              for (i = 1; i <= n; i++) words = words (i == 1 ? "" : i == n ? " and " : ", ") e[i]
              printf "%s\t%s\n", $4 " (" $3 "): needs " words "; checks " $5, needs }' > "$summary.fail"
        # a test that fails on its own, with what it said last: the reason,
        # which the log holds further up
        notes="$notes$(awk -F'\t' -v out="$summary.out" '
            { printf "\n      %s", $1 }
            NF == 1 { split($1, w, " "); said = reason(w[1]); if (said != "") printf "\n        it said: %s", said }
            function reason(test,   l, on, last, error, failing) {
                on = 0; last = ""; error = ""; failing = ""
                while ((getline l < out) > 0) {
                    if (l == "[ RUN      ] " test) { on = 1; last = ""; error = ""; failing = ""; continue }
                    if (!on) continue
                    if (l ~ /^\[  FAILED  \] /) break
                    if (l ~ /^\[  ERROR   \] --- /) { if (error == "") error = substr(l, 18); continue }
                    if (l ~ /^\[/ || l ~ /^[a-z0-9_]+ took [0-9.]+ s$/ || l !~ /[^ ]/) continue
                    last = l
                    if (l ~ /^(FAILED|FAIL)[: ]/) failing = l    # what a script says of its failure
                }
                close(out)
                said = failing != "" ? failing : last != "" ? last : error
                gsub(/^ +/, "", said)
                return length(said) > 84 ? substr(said, 1, 81) "..." : said
            }' "$summary.fail")"
        needs=$((needs + $(awk -F'\t' 'NF > 1' "$summary.fail" | wc -l)))
        needed="$needed $(awk -F'\t' 'NF > 1 { print $2 }' "$summary.fail" | tr '\n' ' ')"
        # a test of exercise e's function that passed while e's marking
        # line ran: the line was left in the solved function
        grep '^chapter-marked' "$summary.out" | awk -F'\t' -v list="$summary.ex" '
            BEGIN { while ((getline l < list) > 0) { split(l, f, "|"); n = split(f[4], fs, " ")
                                                  for (i = 1; i <= n; i++) of[fs[i]] = f[1] } }
            ($5 in of) && index(" " $6 " ", " " of[$5] " ") { print $3 "\t" $4 "\t" $5 "\t" of[$5] }' > "$summary.fail"
        while IFS='	' read -r suite_name test_name function_name e; do
            at=$(grep -n "exercise_stubs_ran |= 1u << $e;" $NW | head -1 | cut -d: -f1)
            failed=$((failed + 1))
            notes="$notes
      $test_name ($suite_name): passes, but $function_name still holds the stub's marking line
        of exercise $e, exercise_stubs_ran |= 1u << $e; (attention.nw:$at): delete it"
        done < "$summary.fail"
    done
    # skipped tests are counted apart: "passed (17 tests), skipped (3)";
    # tests that need an exercise apart from those that fail on their own
    ran=$((total - skipped))
    noun=tests; [ $ran = 1 ] && noun=test
    needed=$(echo $needed | tr ' ' '\n' | sort -n -u | tr '\n' ' ')
    if [ $((failed - needs)) -gt 0 ]; then verdict="FAILED ($((failed - needs)) of $ran $noun)"; status=1
        [ $needs = 0 ] || verdict="$verdict, $needs need $(exercises_words "$needed")"
    elif [ $needs != 0 ] && [ -n "$exercise" ] && [ "$needed" = "$exercise " ]; then
        verdict="still a stub ($needs of $ran $noun)"; status=1
    elif [ $needs != 0 ]; then verdict="needs $(exercises_words "$needed") ($needs of $ran $noun)"; status=1
    elif [ $ran = 0 ]; then verdict="skipped"
    else verdict="passed ($ran $noun)"
        [ -z "$sanitized" ] || notes="$notes
      and built with the sanitizers (${B:-build}/ and build-san/): passed"; fi
    [ $skipped = 0 ] || { [ $ran = 0 ] && verdict="skipped ($skipped)" || verdict="$verdict, skipped ($skipped)"; }
    # the group whole's tests of chapters' code, by chapter: "2: 1, 4: 8"
    [ "$chapter" != whole ] || [ -z "$WHOLE_APART" ] || [ -n "$exercise" ] || notes="$notes$(
        awk -F'\t' -v map="$summary.map" -v list="$(tests_of whole | cut -f2 | sort | uniq -c)" '
            BEGIN { n = split(list, l, "\n")
                    for (i = 1; i <= n; i++) { split(l[i], f, " "); sub(/[+]whole$/, "", f[2]); count[f[2]] = f[1] }
                    while ((getline line < map) > 0) { split(line, f, "\t")
                        if (f[2] in count) by = by (by == "" ? "" : ", ") f[1] ": " count[f[2]] }
                    if (by != "") printf "\n      by chapter: %s (make check CHAPTER=k runs them with k'\''s)", by }')"
    summarise "$chapter" "$verdict" "$notes"
done
{
echo
if [ -n "$exercise" ]; then
    echo "=================================================================== the exercise"
else
    echo "==================================================================== by chapter"
fi
cat "$summary"
# In the student edition, the exercises still to solve: those whose stub's
# marking line is still in attention.nw (course/student.awk's list, read
# from the source as it is now: the quick loop rebuilds no program to ask),
# and the summary ends with them and the command that checks each
if [ -z "$exercise" ] && [ "${EDITION:-teacher}" = student ] && [ -f course/student.awk ]; then
    awk -f course/student.awk -v list=1 $NW > "$summary.ex"
    stubs=$(awk -F'|' '$6 == 1 { print $1 }' "$summary.ex")
    if [ -n "$stubs" ]; then
        echo
        echo "still to solve, $(echo $stubs | wc -w) of $(wc -l < "$summary.ex") exercises (until they are, the program refuses to run):"
        # under each chapter, as the book names it, its exercises
        awk -F'|' -v map="$summary.map" '
            BEGIN { while ((getline l < map) > 0) { split(l, f, "\t"); named[f[1]] = f[3] } }
            $6 == 1 { if ($2 != last) printf "  chapter %s, %s\n", $2, named[$2]; last = $2
                      printf "    make check EXERCISE=%-3s %s\n", $1, $3 }' "$summary.ex"
    fi
fi
} >&3
exit $status
