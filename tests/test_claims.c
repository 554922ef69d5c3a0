/* Tests of the claims' registry (claims.c): the rule that an extreme over
   a sample ("every seed", "no run") holds only on every member, that a
   count says how many and never wears an extreme's words, and that a
   check breaking the rule is refused whatever it measured.  claims.c
   needs only the C library, so this binary links nothing else. */
#include "chapters.h"
#include "claims.h"
#include <string.h>

unsigned exercise_stubs_ran;    /* chapters.h: core.c's, not linked here */

static const char *const chapter = "What changed";

static void test_an_extreme_holds_only_on_every_member(void **state)
{
    (void)state;
    Claims c = {0};
    assert_true(claim_every(&c, 20, 20, chapter, "on every seed, x",
                            "on %d of %d seeds", 20, 20));
    assert_false(claim_every(&c, 19, 20, chapter, "on every seed, x",
                             "on %d of %d seeds", 19, 20));
    assert_int_equal(c.n, 2);
    assert_true(c.claim[0].holds);
    assert_int_equal(c.claim[0].reach, ON_EVERY);
    assert_int_equal(c.claim[1].held, 19);
    assert_int_equal(c.claim[1].of, 20);
    assert_false(c.claim[1].holds);
    assert_string_equal(c.claim[1].misfiled, "");   /* false, not wrong */
    assert_string_equal(c.claim[1].measured, "on 19 of 20 seeds");
}

static void test_an_extreme_needs_a_sample(void **state)
{
    (void)state;
    Claims c = {0};
    assert_false(claim_every(&c, 1, 1, chapter, "on every seed, x", "-"));
    assert_false(claim_every(&c, 0, 0, chapter, "on every seed, x", "-"));
    assert_string_not_equal(c.claim[0].misfiled, "");
    assert_string_not_equal(c.claim[1].misfiled, "");
}

static void test_a_count_holds_within_its_bounds(void **state)
{
    (void)state;
    Claims c = {0};
    /* "on at least three seeds in four": 15 of 20 and more */
    assert_true(claim_count(&c, 15, 20, 15, 20, chapter, "on most, x", "-"));
    assert_false(claim_count(&c, 14, 20, 15, 20, chapter, "on most, x",
                             "-"));
    /* "on some seeds, not on all" */
    assert_true(claim_count(&c, 1, 20, 1, 19, chapter, "on some, x", "-"));
    assert_true(claim_count(&c, 19, 20, 1, 19, chapter, "on some, x", "-"));
    assert_false(claim_count(&c, 20, 20, 1, 19, chapter, "on some, x",
                             "-"));
    assert_false(claim_count(&c, 0, 20, 1, 19, chapter, "on some, x", "-"));
    for (int i = 0; i < c.n; i++)
        assert_string_equal(c.claim[i].misfiled, "");
    assert_int_equal(c.claim[0].reach, ON_SOME);
    assert_int_equal(c.claim[0].least, 15);
    assert_int_equal(c.claim[0].most, 20);
}

static void test_a_count_that_only_every_member_meets_is_refused(void **state)
{
    (void)state;
    Claims c = {0};
    /* true counts, but an extreme in a count's clothes: refused */
    assert_false(claim_count(&c, 20, 20, 20, 20, chapter, "on all of them",
                             "-"));
    assert_false(claim_count(&c, 0, 20, 0, 0, chapter, "on none of them",
                             "-"));
    assert_string_not_equal(c.claim[0].misfiled, "");
    assert_string_not_equal(c.claim[1].misfiled, "");
    /* bounds that no count can satisfy, or that pass the sample */
    assert_false(claim_count(&c, 5, 20, 8, 3, chapter, "x", "-"));
    assert_false(claim_count(&c, 5, 20, 1, 21, chapter, "x", "-"));
    assert_false(claim_count(&c, 5, 20, -1, 19, chapter, "x", "-"));
    for (int i = 2; i < c.n; i++)
        assert_string_not_equal(c.claim[i].misfiled, "");
}

static void test_the_words_of_an_extreme_need_its_check(void **state)
{
    (void)state;
    Claims c = {0};
    /* each holds by its numbers, but says more than it checked */
    assert_false(claim_count(&c, 19, 20, 15, 20, chapter,
                             "the model learns from every seed", "-"));
    assert_false(claim(&c, 1, chapter, "on no seed does it fail", "-"));
    assert_false(claim(&c, 1, chapter, "every run ends at 100/100", "-"));
    for (int i = 0; i < c.n; i++) {
        assert_false(c.claim[i].holds);
        assert_non_null(strstr(c.claim[i].misfiled, "an extreme"));
    }
    assert_non_null(strstr(c.claim[0].misfiled, "'every seed'"));
    /* the same words with the extreme's check, and a fact without them */
    assert_true(claim_every(&c, 20, 20, chapter,
                            "the model learns from every seed", "-"));
    assert_true(claim(&c, 1, chapter, "every head of the book's model adds "
                      "up to 1", "-"));
    assert_string_equal(c.claim[c.n - 1].misfiled, "");
    assert_non_null(extreme_words("on any seed"));
    assert_null(extreme_words("on most seeds, and on some runs"));
}

static void test_a_full_registry_says_so(void **state)
{
    (void)state;
    Claims c = {0};
    for (int i = 0; i < MAX_CLAIMS; i++)
        claim(&c, 1, chapter, "x", "%d", i);
    assert_int_equal(c.overflow, 0);
    /* one more is not recorded, but still answers */
    assert_false(claim_every(&c, 3, 4, chapter, "on every seed, x", "-"));
    assert_true(claim_every(&c, 4, 4, chapter, "on every seed, x", "-"));
    assert_int_equal(c.n, MAX_CLAIMS);
    assert_int_equal(c.overflow, 1);
}

static const ChapterTest tests[] = {
    CHAPTER_TEST("what-changed", "claim_every",
                 test_an_extreme_holds_only_on_every_member),
    CHAPTER_TEST("what-changed", "claim_every", test_an_extreme_needs_a_sample),
    CHAPTER_TEST("what-changed", "claim_count",
                 test_a_count_holds_within_its_bounds),
    CHAPTER_TEST("what-changed", "claim_count",
                 test_a_count_that_only_every_member_meets_is_refused),
    CHAPTER_TEST("what-changed", "extreme_words",
                 test_the_words_of_an_extreme_need_its_check),
    CHAPTER_TEST("what-changed", "claim", test_a_full_registry_says_so),
};

int main(int argc, char **argv)
{
    return run_chapter_tests(argc, argv, "claims", tests,
                             sizeof tests / sizeof tests[0], NULL, NULL);
}
