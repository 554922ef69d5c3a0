/* chapters.c: run a table of tests chapter by chapter (see chapters.h) */
#define _POSIX_C_SOURCE 200809L
#include "chapters.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const ChapterTest *test;
    void *group_state;
    int passed, skipped;
    unsigned stubs;         /* the exercises whose stubs ran */
} Record;

/* built with AddressSanitizer (gcc says so with a macro, clang with
   __has_feature) */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

static Record *current;     /* the test running now */
static unsigned group_stubs;    /* the stubs that ran in the group's setup */

/* the stubs that ran in the test that ran last are its */
static void settle(void)
{
    if (current) current->stubs = exercise_stubs_ran;
    current = NULL;
}

void chapter_mark_skipped(void)
{
    if (current) current->skipped = 1;
}

/* runs the test with the group's state (or, where the group has none,
   the test's own initial state); reached the end: it passed */
static void wrapped(void **state)
{
    Record *r = *state;
    void *inner = r->group_state ? r->group_state : r->test->test.initial_state;
    settle();
    current = r;
    exercise_stubs_ran = group_stubs;
    r->test->test.test_func(&inner);
    r->passed = 1;
}

size_t chapter_first_difference(const void *expected, const void *got,
                                size_t n, size_t size)
{
    const unsigned char *a = expected, *b = got;
    size_t i = 0;
    while (i < n && !memcmp(a + i * size, b + i * size, size)) i++;
    return i;
}

/* one element as text: a real to the last bit (%.9g for float, %.17g
   for double), an int, a byte */
static void element_text(const void *x, size_t size, char kind, char *out, size_t n)
{
    if (kind == 'r' && size == sizeof(float)) { float v; memcpy(&v, x, size); snprintf(out, n, "%.9g", v); }
    else if (kind == 'r' && size == sizeof(double)) { double v; memcpy(&v, x, size); snprintf(out, n, "%.17g", v); }
    else if (kind == 'i' && size == sizeof(int)) { int v; memcpy(&v, x, size); snprintf(out, n, "%d", v); }
    else snprintf(out, n, "%u", (unsigned)*(const unsigned char *)x);
}

void chapter_expect_same(const char *what, const void *expected, const void *got,
                         size_t n, size_t size, char kind, const char *file, int line)
{
    const unsigned char *a = expected, *b = got;
    size_t first = chapter_first_difference(expected, got, n, size), differ = 0;
    if (first == n) return;
    for (size_t i = first; i < n; i++) differ += memcmp(a + i * size, b + i * size, size) != 0;
    char e[64], g[64];
    element_text(a + first * size, size, kind, e, sizeof e);
    element_text(b + first * size, size, kind, g, sizeof g);
    print_error("%s, element %zu of %zu: expected %s, got %s (%zu of %zu elements differ)\n",
                what, first, n, e, g, differ, n);
    _fail(file, line);
}

static int is_name_char(int c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* only names, spaces and stars from the margin to the function's name */
static int return_type(const char *line, const char *name)
{
    for (const char *c = line; c < name; c++)
        if (!is_name_char((unsigned char)*c) && *c != ' ' && *c != '*') return 0;
    return 1;
}

/* Where attention.nw defines what a test checks: a chunk of that name, or
   the chunk holding the definition of that function: a line at the
   margin, outside the interface chunks, where only a return type comes
   before the name and "(", and that does not end in ";". */
static void where_defined(const char *checks, char *out, size_t size)
{
    FILE *f = fopen("attention.nw", "r");
    char line[512], chunk[512] = "", found[1100] = "";
    int number = 0, in_code = 0, at = 0;
    size_t n = strlen(checks);
    snprintf(out, size, "%s", checks);
    if (!f) return;
    while (!at && fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        number++;
        while (len && (line[len - 1] == '\n' || line[len - 1] == ' ')) line[--len] = '\0';
        if (len > 5 && !strncmp(line, "<<", 2) && !strcmp(line + len - 3, ">>=")) {
            memcpy(chunk, line + 2, len - 5);
            chunk[len - 5] = '\0';
            in_code = strncmp(chunk, "interface of", 12) && strncmp(chunk, "declarations", 12);
            if (!strcmp(chunk, checks)) { snprintf(found, sizeof found, "<<%s>>", chunk); at = number; }
            continue;
        }
        if (line[0] == '@' && (line[1] == ' ' || line[1] == '\0')) { in_code = 0; continue; }
        if (!in_code || !is_name_char((unsigned char)line[0]) || !len || line[len - 1] == ';')
            continue;
        for (char *p = strstr(line, checks); p; p = strstr(p + 1, checks))
            if (p > line && (p[-1] == ' ' || p[-1] == '*') && p[n] == '(' && return_type(line, p)) {
                snprintf(found, sizeof found, "<<%s>>, %s", chunk, checks);
                at = number;
                break;
            }
    }
    fclose(f);
    if (at) snprintf(out, size, "%s, attention.nw:%d", found, at);
}

/* A test's tag is a chapter's topic ("ablations"), a group ("build",
   "whole", "course"), or a chapter's topic with the attribute "+whole"
   ("ablations+whole"): a test of that chapter's code that runs the whole
   model or the program, and so needs every exercise.  CHAPTER names a
   topic or a group here (tests/check.sh turns a chapter's number into its
   topic).  The group of a test: with CHAPTER set, CHAPTER, if the test is
   in it: its tag is CHAPTER, or CHAPTER is the test's chapter (unless
   WHOLE_APART is set: then its tests with "+whole" are left to the group
   whole), or CHAPTER is "whole" and the tag has "+whole"; NULL if not.
   Without CHAPTER, the tag, or "whole" for a tag with "+whole". */
static const char *group_of(const char *tag)
{
    const char *only = getenv("CHAPTER"), *plus = strchr(tag, '+');
    const char *apart = getenv("WHOLE_APART");
    if (!only || !*only) return plus ? "whole" : tag;
    if (!strcmp(tag, only)) return only;
    if (!plus) return NULL;
    if (!strcmp(only, "whole")) return only;
    size_t n = (size_t)(plus - tag);
    return (!apart || !*apart) && strlen(only) == n && !strncmp(tag, only, n) ? only : NULL;
}

/* CHECKS, if set, is a list of names separated by spaces (an exercise's
   functions, make check EXERCISE=k): only the tests that check one of
   them run */
static int checks_selected(const char *checks)
{
    const char *only = getenv("CHECKS"), *p;
    size_t n = strlen(checks);
    if (!only || !*only) return 1;
    for (p = strstr(only, checks); p; p = strstr(p + 1, checks))
        if ((p == only || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
    return 0;
}

int run_chapter_tests(int argc, char **argv, const char *suite,
                      const ChapterTest *tests, size_t n,
                      CMFixtureFunction setup, CMFixtureFunction teardown)
{
    /* line by line: a failing test may leak, and the leak checker of a
       sanitized build ends the program without flushing stdout */
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc > 1 && !strcmp(argv[1], "--list")) {
        for (size_t i = 0; i < n; i++)
            printf("%s\t%s\t%s\n", tests[i].topic, tests[i].checks, tests[i].test.name);
        return 0;
    }
    struct CMUnitTest *group = calloc(n, sizeof *group);
    Record *records = calloc(n, sizeof *records);
    char (*names)[256] = calloc(n, sizeof *names);
    if (!group || !records || !names) { fprintf(stderr, "out of memory\n"); return 1; }
    int failed_total = 0, selected = 0;
    for (size_t first = 0; first < n; first++) {
        const char *topic = group_of(tests[first].topic);
        size_t seen = 0, count = 0;
        if (!topic) continue;
        for (size_t j = 0; j < first; j++) {
            const char *other = group_of(tests[j].topic);
            seen |= other && !strcmp(other, topic);
        }
        if (seen) continue;
        selected++;
        void *group_state = NULL;
        exercise_stubs_ran = 0;
        int setup_failed = setup && setup(&group_state) != 0;
        group_stubs = exercise_stubs_ran;
        for (size_t i = first; i < n; i++) {
            const char *its = group_of(tests[i].topic);
            if (!its || strcmp(its, topic) || !checks_selected(tests[i].checks)) continue;
            records[count] = (Record){ &tests[i], group_state, 0, 0, 0 };
            snprintf(names[count], sizeof names[count], "%s", tests[i].test.name);
            group[count] = (struct CMUnitTest){ names[count], wrapped, NULL, NULL, &records[count] };
            count++;
        }
        char title[256];
        /* the group's title names the chapter as the book does ("chapter
           5, The forward pass", which tests/check.sh hands over in
           CHAPTER_NAME), or by its topic when run by hand; the float and
           the double build of a binary run the same tests, and a build
           may be sanitized: the title says which this is */
        const char *name = getenv("CHAPTER_NAME");
        snprintf(title, sizeof title, "%s: %s, real = %s%s",
                 name && *name ? name : topic, suite,
#ifdef ATTENTION_DOUBLE
                 "double",
#else
                 "float",
#endif
                 SANITIZED ? ", under the sanitizers" : "");
        int failed = (int)count, skipped = 0;
        if (!setup_failed) {
            printf("[ %s ]\n", title);   /* cmocka's own lines do not name the group */
            _cmocka_run_group_tests(title, group, count, NULL, NULL);
            settle();
            failed = 0;
            for (size_t i = 0; i < count; i++) {
                failed += !records[i].passed && !records[i].skipped;
                skipped += records[i].skipped;
            }
        } else
            printf("%s: the group's setup failed\n", title);
        if (!setup_failed && teardown)
            teardown(&group_state);
        for (size_t i = 0; i < count; i++)
            if (setup_failed || (!records[i].passed && !records[i].skipped)) {
                char where[1200], needs[128] = "";
                unsigned stubs = setup_failed ? group_stubs : records[i].stubs;
                size_t used = 0;
                where_defined(records[i].test->checks, where, sizeof where);
                for (int e = 1; e < 32 && used < sizeof needs; e++)
                    if (stubs >> e & 1)
                        used += (size_t)snprintf(needs + used, sizeof needs - used,
                                                 "%s%d", used ? " " : "", e);
                printf("chapter-failure\t%s\t%s\t%s\t%s\t%s\n", records[i].test->topic, suite,
                       records[i].test->test.name, where, needs);
            }
        /* a test that passed although a stub's marking line ran: if the
           line is its own exercise's, it was left in a solved function
           (tests/check.sh says so) */
        for (size_t i = 0; i < count; i++)
            if (records[i].passed && !records[i].skipped && records[i].stubs) {
                printf("chapter-marked\t%s\t%s\t%s\t%s\t", topic, suite,
                       records[i].test->test.name, records[i].test->checks);
                for (int e = 1, first_one = 1; e < 32; e++)
                    if (records[i].stubs >> e & 1) {
                        printf("%s%d", first_one ? "" : " ", e);
                        first_one = 0;
                    }
                printf("\n");
            }
        printf("chapter-result\t%s\t%s\t%zu\t%d\t%d\n", topic, suite, count, failed, skipped);
        failed_total += failed;
    }
    const char *only = getenv("CHAPTER");
    if (!selected && only && *only)     /* run by hand with a chapter's number? */
        fprintf(stderr, "%s: no test tagged '%s'; tags are chapters' topics and groups "
                "(tests/chapters.awk lists the topics)\n", suite, only);
    free(group);
    free(records);
    free(names);
    return failed_total != 0;
}
