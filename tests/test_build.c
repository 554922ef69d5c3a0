/* Tests of the literate build: tangle, compile, weave.  Each runs one
   function of tests/build_tests.sh from the top of the repository and
   fails when it exits non-zero; the script says what it found. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

static void run(const char *name)
{
    char command[256];
    snprintf(command, sizeof command, "sh tests/build_tests.sh %s", name);
    fflush(stdout);
    int status = system(command);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
        skip();                 /* the script says why */
    assert_int_equal(status, 0);
}

static void test_tangle_is_fresh(void **s) { (void)s; run("tangle_is_fresh"); }
static void test_prose_edit_recompiles_nothing(void **s) { (void)s; run("prose_edit_recompiles_nothing"); }
static void test_experiment_edit_reruns_its_part(void **s) { (void)s; run("experiment_edit_reruns_its_part"); }
static void test_compiler_error_names_nw_line(void **s) { (void)s; run("compiler_error_names_nw_line"); }
static void test_stray_root_fails(void **s) { (void)s; run("stray_root_fails"); }
static void test_undefined_chunk_fails(void **s) { (void)s; run("undefined_chunk_fails"); }
static void test_missing_number_fails(void **s) { (void)s; run("missing_number_fails"); }
static void test_html_links_resolve(void **s) { (void)s; run("html_links_resolve"); }
static void test_no_placeholder_survives(void **s) { (void)s; run("no_placeholder_survives"); }
static void test_ask_answers_all_100(void **s) { (void)s; run("ask_answers_all_100"); }
static void test_cli_errors(void **s) { (void)s; run("cli_errors"); }
static void test_full_disk_keeps_old_file(void **s) { (void)s; run("full_disk_keeps_old_file"); }
static void test_nan_stops_training(void **s) { (void)s; run("nan_stops_training"); }
static void test_deterministic_outputs(void **s) { (void)s; run("deterministic_outputs"); }
static void test_valgrind_clean(void **s) { (void)s; run("valgrind_clean"); }
static void test_optimisation_changes_no_bit(void **s) { (void)s; run("optimisation_changes_no_bit"); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tangle_is_fresh),
        cmocka_unit_test(test_prose_edit_recompiles_nothing),
        cmocka_unit_test(test_experiment_edit_reruns_its_part),
        cmocka_unit_test(test_compiler_error_names_nw_line),
        cmocka_unit_test(test_stray_root_fails),
        cmocka_unit_test(test_undefined_chunk_fails),
        cmocka_unit_test(test_missing_number_fails),
        cmocka_unit_test(test_html_links_resolve),
        cmocka_unit_test(test_no_placeholder_survives),
        cmocka_unit_test(test_ask_answers_all_100),
        cmocka_unit_test(test_cli_errors),
        cmocka_unit_test(test_full_disk_keeps_old_file),
        cmocka_unit_test(test_nan_stops_training),
        cmocka_unit_test(test_deterministic_outputs),
        cmocka_unit_test(test_valgrind_clean),
        cmocka_unit_test(test_optimisation_changes_no_bit),
    };
    return cmocka_run_group_tests_name("build", tests, NULL, NULL);
}
