/* chapters.h: the tests grouped by the chapter of attention.nw whose code
   they check.  A test names its chapter by the chapter's topic, the
   identifier of its heading ("# The forward pass {#forward-pass}"), never
   by its number, which changes when chapters move; tests/chapters.awk
   lists the chapters with their numbers and topics.  A test of a
   chapter's code that runs the whole model or the program, and so needs
   every exercise, adds the attribute "+whole" ("ablations+whole"): make
   check CHAPTER=7 runs it with chapter 7's other tests, and make check
   alone in the group whole.  Every test binary
   lists its tests in a table of ChapterTest and hands it to
   run_chapter_tests, which runs one cmocka group per topic (only the one
   in the environment variable CHAPTER, if it is set, and of those only the
   tests that check a name listed in CHECKS, if it is set) and names, for each
   failing test, the chunk of attention.nw that defines what it checks;
   for each test that passed although a stub's marking line ran, the
   exercises whose lines ran ("chapter-marked").  A group's banner names
   its chapter as CHAPTER_NAME gives it ("chapter 5, The forward pass"),
   or by its topic.
   tests/check.sh runs every binary chapter by chapter and prints one line
   per chapter. */
#ifndef CHAPTERS_H
#define CHAPTERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

typedef struct {
    const char *topic;       /* a chapter's topic, with "+whole" or not, or a
                                group: build, whole, course */
    const char *checks;      /* the function or chunk of attention.nw it checks */
    struct CMUnitTest test;
} ChapterTest;

#define CHAPTER_TEST(topic, checks, f) { topic, checks, cmocka_unit_test(f) }

/* argv[1] == "--list": print "topic<TAB>checks<TAB>test" per test */
int run_chapter_tests(int argc, char **argv, const char *suite,
                      const ChapterTest *tests, size_t n,
                      CMFixtureFunction setup, CMFixtureFunction teardown);

/* n elements the same, bit for bit?  If not, the test fails naming what
   was compared, the first element that differs, the value expected and
   the one got, and how many differ (where cmocka's assert_memory_equal
   prints bytes).  kind: 'r' real (float or double, by its size), 'i'
   int, 'b' byte.  chapter_first_difference: the first index that
   differs, or n. */
size_t chapter_first_difference(const void *expected, const void *got,
                                size_t n, size_t size);
void chapter_expect_same(const char *what, const void *expected, const void *got,
                         size_t n, size_t size, char kind, const char *file, int line);
#define expect_same_reals(what, expected, got, n) chapter_expect_same((what), (expected), \
    (got), (size_t)(n), sizeof *(expected), 'r', __FILE__, __LINE__)
#define expect_same_ints(what, expected, got, n) chapter_expect_same((what), (expected), \
    (got), (size_t)(n), sizeof *(expected), 'i', __FILE__, __LINE__)
#define expect_same_bytes(what, expected, got, n) chapter_expect_same((what), (expected), \
    (got), (size_t)(n), 1, 'b', __FILE__, __LINE__)

/* core.c's (test_build.c's, which links no core): bit e is set when the
   stub of exercise e runs, in the student edition.  A failing test after
   which a bit is set, or in whose group's setup one was, needs that
   exercise: its chapter-failure line says which (tests/check.sh counts
   these apart from the tests that fail on their own). */
extern unsigned exercise_stubs_ran;

/* a skipped test is not a failed one: call chapter_skip(), not skip() */
void chapter_mark_skipped(void);
#define chapter_skip() do { chapter_mark_skipped(); skip(); } while (0)

#endif
