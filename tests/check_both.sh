#!/bin/sh
# check_both.sh: make check in the teacher's repository.  The tests of the
# plain build (tests/check.sh, in build/) and the same tests (their float
# builds) of the program built by clang with AddressSanitizer and
# UndefinedBehaviorSanitizer (make check SANITIZE=1, in build-san/) run
# side by side, a core each.  The
# second half's output is kept in build-san/check.log and printed after the
# first's; then one summary, the chapters of each half, and one verdict.
# It fails if either half fails.  The plain half's group course (the
# student edition, built and checked by its own make, about a quarter of
# that half) runs in a third process, so that the two cores stay busy
# until both halves end; its output is kept in build/check-course.log and
# printed after the plain half's, its line joins the plain half's summary.  make check CHAPTER=k, EXERCISE=k and the
# student edition's make check run the plain half only.
#
#   sh tests/check_both.sh MAKE build/test_core ...     (make check runs it)
set -u
make=$1; shift
mkdir -p build-san
rm -f build/check-summary.txt build/check-summary-course.txt build-san/check-summary.txt
CHECK_SUMMARY=build-san/check-summary.txt $make --no-print-directory SANITIZE=1 check \
    > build-san/check.log 2>&1 &
san=$!
CHAPTER=course CHECK_SUMMARY=build/check-summary-course.txt CHECK_TIMES=build/check-times-course.txt \
    sh tests/check.sh "$@" > build/check-course.log 2>&1 &
course=$!
CHECK_APART=course CHECK_SUMMARY=build/check-summary.txt sh tests/check.sh "$@"; plain=$?
wait $course; coursed=$?
cat build/check-course.log
if [ ! -s build/check-summary.txt ]; then
    :   # the plain half did not run: the summary says so
elif [ -s build/check-summary-course.txt ]; then
    sed '1,2d' build/check-summary-course.txt >> build/check-summary.txt
else
    echo "group      course        its tests did not run (exit status $coursed): see build/check-course.log" \
        >> build/check-summary.txt
fi
[ $coursed = 0 ] || plain=$coursed
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
