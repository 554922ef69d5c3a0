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

static void test_tangle_is_fresh(void **s) { (void)s; run("tangle_is_fresh"); }
static void test_prose_edit_recompiles_nothing(void **s) { (void)s; run("prose_edit_recompiles_nothing"); }
static void test_experiment_edit_reruns_its_part(void **s) { (void)s; run("experiment_edit_reruns_its_part"); }
static void test_compiler_error_names_nw_line(void **s) { (void)s; run("compiler_error_names_nw_line"); }
static void test_stray_root_fails(void **s) { (void)s; run("stray_root_fails"); }
static void test_no_tool_before_deps(void **s) { (void)s; run("no_tool_before_deps"); }
static void test_tangle_names_long_lines(void **s) { (void)s; run("tangle_names_long_lines"); }
static void test_undefined_chunk_fails(void **s) { (void)s; run("undefined_chunk_fails"); }
static void test_missing_number_fails(void **s) { (void)s; run("missing_number_fails"); }
static void test_html_links_resolve(void **s) { (void)s; run("html_links_resolve"); }
static void test_line_charts_survive_grey(void **s) { (void)s; run("line_charts_survive_grey"); }
static void test_figures_keep_the_standard(void **s) { (void)s; run("figures_keep_the_standard"); }
static void test_figure_references_agree(void **s) { (void)s; run("figure_references_agree"); }
static void test_wiring_draws_every_table(void **s) { (void)s; run("wiring_draws_every_table"); }
static void test_tables_and_appendices_agree(void **s) { (void)s; run("tables_and_appendices_agree"); }
static void test_book_apparatus(void **s) { (void)s; run("book_apparatus"); }
static void test_pdf_carets_are_carets(void **s) { (void)s; run("pdf_carets_are_carets"); }
static void test_code_within_76_columns(void **s) { (void)s; run("code_within_76_columns"); }
static void test_chunk_names_at_most_12_parts(void **s) { (void)s; run("chunk_names_at_most_12_parts"); }
static void test_story_code_at_most_1250_lines(void **s) { (void)s; run("story_code_at_most_1250_lines"); }
static void test_functions_at_most_60_lines(void **s) { (void)s; run("functions_at_most_60_lines"); }
static void test_pdf_no_overfull_box(void **s) { (void)s; run("pdf_no_overfull_box"); }
static void test_pdf_page_layout(void **s) { (void)s; run("pdf_page_layout"); }
static void test_chunk_labels_agree(void **s) { (void)s; run("chunk_labels_agree"); }
static void test_code_identifiers_linked(void **s) { (void)s; run("code_identifiers_linked"); }
static void test_no_placeholder_survives(void **s) { (void)s; run("no_placeholder_survives"); }
static void test_numbers_read_as_prose(void **s) { (void)s; run("numbers_read_as_prose"); }
static void test_ask_answers_all_100(void **s) { (void)s; run("ask_answers_all_100"); }
static void test_cli_errors(void **s) { (void)s; run("cli_errors"); }
static void test_without_reproduces_ablation(void **s) { (void)s; run("without_reproduces_ablation"); }
static void test_full_disk_keeps_old_file(void **s) { (void)s; run("full_disk_keeps_old_file"); }
static void test_nan_stops_training(void **s) { (void)s; run("nan_stops_training"); }
static void test_deterministic_outputs(void **s) { (void)s; run("deterministic_outputs"); }
static void test_figures_on_a_readers_model(void **s) { (void)s; run("figures_on_a_readers_model"); }
static void test_sweep_loads_what_it_trains(void **s) { (void)s; run("sweep_loads_what_it_trains"); }
static void test_libc_changes_no_bit(void **s) { (void)s; run("libc_changes_no_bit"); }
static void test_valgrind_clean(void **s) { (void)s; run("valgrind_clean"); }
static void test_optimisation_changes_no_bit(void **s) { (void)s; run("optimisation_changes_no_bit"); }
static void test_compile_matrix(void **s) { (void)s; run("compile_matrix"); }
static void test_arm_trains_the_same_bytes(void **s) { (void)s; run("arm_trains_the_same_bytes"); }
static void test_chapters_by_topic(void **s) { (void)s; run("chapters_by_topic"); }
static void test_course_mode(void **s) { (void)s; run("course_mode"); }
static void test_exercise_guard(void **s) { (void)s; run("exercise_guard"); }
static void test_course_mistakes(void **s) { (void)s; run("course_mistakes"); }
static void test_exercise_statements(void **s) { (void)s; run("exercise_statements"); }
static void test_live_book(void **s) { (void)s; run("live_book"); }
static void test_page_on_screen(void **s) { (void)s; run("page_on_screen"); }
static void test_katex_error_fails(void **s) { (void)s; run("katex_error_fails"); }

/* the literate build, the program's command line, the whole model
   trained, and the course mode: groups of their own; the switch of
   chapter 7's ablations, on the program: "+whole" (tests/chapters.h) */
static const ChapterTest tests[] = {
    CHAPTER_TEST("build", "tangled/", test_tangle_is_fresh),
    CHAPTER_TEST("build", "Makefile", test_prose_edit_recompiles_nothing),
    CHAPTER_TEST("build", "Makefile", test_experiment_edit_reruns_its_part),
    CHAPTER_TEST("build", "Makefile", test_compiler_error_names_nw_line),
    CHAPTER_TEST("build", "Makefile", test_stray_root_fails),
    CHAPTER_TEST("build", "Makefile", test_no_tool_before_deps),
    CHAPTER_TEST("build", "Makefile", test_tangle_names_long_lines),
    CHAPTER_TEST("build", "Makefile", test_undefined_chunk_fails),
    CHAPTER_TEST("build", "book/book.lua", test_missing_number_fails),
    CHAPTER_TEST("build", "book/checklinks", test_html_links_resolve),
    CHAPTER_TEST("build", "svg_dash_pattern", test_line_charts_survive_grey),
    CHAPTER_TEST("build", "TEXT_SIZE", test_figures_keep_the_standard),
    CHAPTER_TEST("build", "book/book.lua", test_figure_references_agree),
    CHAPTER_TEST("training", "figure_wiring", test_wiring_draws_every_table),
    CHAPTER_TEST("build", "book/book.lua", test_tables_and_appendices_agree),
    CHAPTER_TEST("build", "book/book.lua", test_book_apparatus),
    CHAPTER_TEST("build", "book/weave-preamble.tex", test_pdf_carets_are_carets),
    CHAPTER_TEST("build", "book/book.lua", test_no_placeholder_survives),
    CHAPTER_TEST("build", "book/book.lua", test_numbers_read_as_prose),
    CHAPTER_TEST("build", "attention.nw", test_code_within_76_columns),
    CHAPTER_TEST("build", "attention.nw", test_chunk_names_at_most_12_parts),
    CHAPTER_TEST("build", "attention.nw", test_story_code_at_most_1250_lines),
    CHAPTER_TEST("build", "attention.nw", test_functions_at_most_60_lines),
    CHAPTER_TEST("build", "book/weave-preamble.tex", test_pdf_no_overfull_box),
    CHAPTER_TEST("build", "book/weave-preamble.tex", test_pdf_page_layout),
    CHAPTER_TEST("build", "book/nwpandoc.awk", test_chunk_labels_agree),
    CHAPTER_TEST("build", "book/nwpost.awk", test_code_identifiers_linked),
    CHAPTER_TEST("whole", "command_ask", test_ask_answers_all_100),
    CHAPTER_TEST("whole", "main", test_cli_errors),
    CHAPTER_TEST("ablations+whole", "command_train", test_without_reproduces_ablation),
    CHAPTER_TEST("whole", "write_file", test_full_disk_keeps_old_file),
    CHAPTER_TEST("whole", "training_fault", test_nan_stops_training),
    CHAPTER_TEST("whole", "main", test_deterministic_outputs),
    CHAPTER_TEST("whole", "main", test_figures_on_a_readers_model),
    CHAPTER_TEST("whole", "sweep_all", test_sweep_loads_what_it_trains),
    CHAPTER_TEST("whole", "main", test_valgrind_clean),
    CHAPTER_TEST("whole", "Makefile", test_optimisation_changes_no_bit),  /* it trains */
    CHAPTER_TEST("whole", "rng_normal", test_libc_changes_no_bit),        /* it trains */
    CHAPTER_TEST("whole", "rng_normal", test_arm_trains_the_same_bytes),  /* it trains */
    CHAPTER_TEST("build", "Makefile", test_compile_matrix),
    CHAPTER_TEST("build", "tests/chapters.awk", test_chapters_by_topic),
    CHAPTER_TEST("course", "course/student.awk", test_course_mode),
    CHAPTER_TEST("course", "check_exercises", test_exercise_guard),
    CHAPTER_TEST("course", "tests/test_exercises.c", test_course_mistakes),
    CHAPTER_TEST("course", "course/student.awk", test_exercise_statements),
    CHAPTER_TEST("build", "book/live.js", test_live_book),
    CHAPTER_TEST("build", "book/weave.css", test_page_on_screen),
    CHAPTER_TEST("build", "book/katex.js", test_katex_error_fails),
};

int main(int argc, char **argv)
{
    return run_chapter_tests(argc, argv, "build", tests, sizeof tests / sizeof tests[0], NULL, NULL);
}
