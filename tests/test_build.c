/* Tests of the literate build: tangle, compile, weave.  Each runs one
   function of tests/build_tests.sh from the top of the repository and
   fails when it exits non-zero; the script says what it found. */
#define _POSIX_C_SOURCE 200809L
#include "chapters.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>

unsigned exercise_stubs_ran;    /* chapters.h: core.c's, not linked here */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* each test's time, printed and added to $B/check-times.txt (seconds,
   group, test) beside tests/check.sh's times of whole binaries */
static void record_time(const char *name, double seconds)
{
    const char *b = getenv("B"), *topic = getenv("CHAPTER");
    char path[256];
    printf("%s took %.1f s\n", name, seconds);
    snprintf(path, sizeof path, "%s/check-times.txt", b && *b ? b : "build");
    FILE *f = fopen(path, "a");
    if (f) {
        fprintf(f, "%.1f\t%s\tbuild_tests.sh %s\n", seconds, topic && *topic ? topic : "-", name);
        fclose(f);
    }
}

static void run(const char *name)
{
    char command[256];
    snprintf(command, sizeof command, "sh tests/build_tests.sh %s", name);
    fflush(stdout);
    double start = now();
    int status = system(command);
    record_time(name, now() - start);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
        chapter_skip();         /* the script says why */
    assert_int_equal(status, 0);
}


/* a test: the function of tests/build_tests.sh its state names */
static void run_script(void **state) { run(*state); }
#define BUILD_TEST(topic, checks, name) \
    { topic, checks, { "test_" #name, run_script, NULL, NULL, (void *)#name } }

/* the literate build, the program's command line, the whole model
   trained, and the course mode: groups of their own; the switch of
   chapter 7's ablations, on the program: "+whole" (tests/chapters.h) */
static const ChapterTest tests[] = {
    BUILD_TEST("build", "tangled/", tangle_is_fresh),
    BUILD_TEST("build", "Makefile", prose_edit_recompiles_nothing),
    BUILD_TEST("build", "Makefile", experiment_edit_reruns_its_part),
    BUILD_TEST("build", "Makefile", compiler_error_names_nw_line),
    BUILD_TEST("build", "Makefile", stray_root_fails),
    BUILD_TEST("build", "Makefile", no_tool_before_deps),
    BUILD_TEST("build", "Makefile", tangle_names_long_lines),
    BUILD_TEST("build", "Makefile", undefined_chunk_fails),
    BUILD_TEST("build", "book/book.lua", missing_number_fails),
    BUILD_TEST("build", "book/checklinks", html_links_resolve),
    BUILD_TEST("build", "svg_dash_pattern", line_charts_survive_grey),
    BUILD_TEST("build", "TEXT_SIZE", figures_keep_the_standard),
    BUILD_TEST("build", "book/book.lua", figure_references_agree),
    BUILD_TEST("training", "figure_wiring", wiring_draws_every_table),
    BUILD_TEST("build", "book/book.lua", tables_and_appendices_agree),
    BUILD_TEST("build", "book/book.lua", book_apparatus),
    BUILD_TEST("build", "book/weave-preamble.tex", pdf_carets_are_carets),
    BUILD_TEST("build", "book/book.lua", no_placeholder_survives),
    BUILD_TEST("build", "book/book.lua", numbers_read_as_prose),
    BUILD_TEST("build", "attention.nw", code_within_76_columns),
    BUILD_TEST("build", "attention.nw", chunk_names_at_most_12_parts),
    BUILD_TEST("build", "attention.nw", story_code_at_most_1250_lines),
    BUILD_TEST("build", "attention.nw", functions_at_most_60_lines),
    BUILD_TEST("build", "book/weave-preamble.tex", pdf_no_overfull_box),
    BUILD_TEST("build", "book/weave-preamble.tex", pdf_page_layout),
    BUILD_TEST("build", "book/nwpandoc.awk", chunk_labels_agree),
    BUILD_TEST("build", "book/nwpost.awk", code_identifiers_linked),
    BUILD_TEST("whole", "command_ask", ask_answers_all_100),
    BUILD_TEST("whole", "main", cli_errors),
    BUILD_TEST("ablations+whole", "command_train", without_reproduces_ablation),
    BUILD_TEST("whole", "write_file", full_disk_keeps_old_file),
    BUILD_TEST("whole", "training_fault", nan_stops_training),
    BUILD_TEST("whole", "main", deterministic_outputs),
    BUILD_TEST("whole", "main", figures_on_a_readers_model),
    BUILD_TEST("whole", "sweep_all", sweep_loads_what_it_trains),
    BUILD_TEST("whole", "main", valgrind_clean),
    BUILD_TEST("whole", "Makefile", optimisation_changes_no_bit),  /* it trains */
    BUILD_TEST("whole", "rng_normal", libc_changes_no_bit),        /* it trains */
    BUILD_TEST("whole", "rng_normal", arm_trains_the_same_bytes),  /* it trains */
    BUILD_TEST("build", "Makefile", compile_matrix),
    BUILD_TEST("build", "tests/chapters.awk", chapters_by_topic),
    BUILD_TEST("course", "course/student.awk", course_mode),
    BUILD_TEST("course", "check_exercises", exercise_guard),
    BUILD_TEST("course", "tests/test_exercises.c", course_mistakes),
    BUILD_TEST("course", "course/student.awk", exercise_statements),
    BUILD_TEST("build", "book/live.js", live_book),
    BUILD_TEST("build", "book/weave.css", page_on_screen),
    BUILD_TEST("build", "book/katex.js", katex_error_fails),
};

int main(int argc, char **argv)
{
    return run_chapter_tests(argc, argv, "build", tests, sizeof tests / sizeof tests[0], NULL, NULL);
}
