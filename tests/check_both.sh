#!/bin/sh
# check_both.sh: make check in the teacher's repository.  The tests of the
# plain build (tests/check.sh, in build/) and the same tests (their float
# builds) of the program built by clang with AddressSanitizer and
# UndefinedBehaviorSanitizer (make check SANITIZE=1, in build-san/) run
# side by side.  The plain half is three processes: the chapters and the
# group build in one, the group whole (the trained model and the program
# run on it) in another, the group course (the student edition, built and
# checked by its own make) in a third; with the sanitized half that makes
# four, which keep the two cores busy until the end (with whole and
# course one after the other in one process, that process ran 4 minutes
# after the others had ended).  Each group's output is kept in
# build/check-GROUP.log, the sanitized half's in build-san/check.log, each
# printed after the plain chapters'; then one summary, the chapters of
# each half, and one verdict.  It fails if either half fails.  make check
# CHAPTER=k, EXERCISE=k and the student edition's make check run the
# plain half only, in one process.
#
#   sh tests/check_both.sh MAKE build/test_core ...     (make check runs it)
set -u
make=$1; shift
apart="whole course"
mkdir -p build-san
rm -f build/check-summary*.txt build-san/check-summary.txt build/check-whole.log build/check-course.log
CHECK_SUMMARY=build-san/check-summary.txt $make --no-print-directory SANITIZE=1 check \
    > build-san/check.log 2>&1 &
san=$!
others=""
for g in $apart; do
    CHAPTER=$g CHECK_SUMMARY=build/check-summary-$g.txt CHECK_TIMES=build/check-times-$g.txt \
        sh tests/check.sh "$@" > build/check-$g.log 2>&1 &
    others="$others $!"
done
CHECK_APART="$apart" CHECK_SUMMARY=build/check-summary.txt sh tests/check.sh "$@"; plain=$?
for p in $others; do wait $p || plain=1; done
for g in $apart; do cat build/check-$g.log; done
# the groups' lines join the plain half's summary, in their order
if [ -s build/check-summary.txt ]; then
    for g in $apart; do
        if [ -s build/check-summary-$g.txt ]; then
            sed '1,2d' build/check-summary-$g.txt >> build/check-summary.txt
        else
            printf 'group      %-13s its tests did not run: see build/check-%s.log\n' $g $g \
                >> build/check-summary.txt
        fi
    done
fi
wait $san; sanitized=$?
echo
echo "============================================ make check SANITIZE=1 (build-san/check.log)"
cat build-san/check.log
half() {    # title, summary file, status
    echo
    echo "$1:"
    if [ -s "$2" ]; then sed '1,2d' "$2"
    else echo "  its tests did not run (exit status $3): see the output above"; fi
}
echo
echo "==================================================================== by chapter"
half "the plain build ($(cut -d' ' -f1 build/cflags 2>/dev/null), build/)" build/check-summary.txt $plain
half "the sanitizers (clang, AddressSanitizer and UndefinedBehaviorSanitizer, build-san/)" \
    build-san/check-summary.txt $sanitized
echo
if [ $plain = 0 ] && [ $sanitized = 0 ]; then
    echo "make check: passed, the plain build and the sanitizers"; exit 0
fi
echo "make check: FAILED in$([ $plain = 0 ] || echo " the plain build")$([ $plain != 0 ] && [ $sanitized != 0 ] && echo " and")$([ $sanitized = 0 ] || echo " the sanitizers")"
exit 1
