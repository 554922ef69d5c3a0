/* tests/test_layouts.c: cmocka tests of chapter 2's layouts, the parser
   the perceptron would need, and the transformer with a longer position
   table (the layouts experiment of chapter 4), run from the top of the
   repository (make check).  Built twice, like test_gpt.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "chapters.h"
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#include "checks.h"
#include "checkpoint.h"

/* where letter ('a' or 'b') stands in a layout */
static int position_in(int which, char letter)
{
    return (int)(strchr(layouts[which], letter) - layouts[which]);
}

static void test_layout_tokens(void **state)
{
    (void)state;
    int longest = 0;
    for (int which = 0; which < N_LAYOUTS; which++) {
        int n = (int)strlen(layouts[which]);
        int a = position_in(which, 'a'), b = position_in(which, 'b');
        assert_true(a < b);
        assert_int_equal(layouts[which][n - 1], '=');
        for (int p = 0; p < N_PROBLEMS; p++) {
            int tokens[MAX_T], plain[SEQ_LEN];
            char answer[8];
            int T = layout_tokens(p, which, tokens);
            int length = problem_answer(p, answer);
            assert_int_equal(T, n + length);
            assert_true(T <= MAX_T);
            assert_int_equal(tokens[a], p / 10);
            assert_int_equal(tokens[b], p % 10);
            for (int t = 0; t < n; t++)
                if (t != a && t != b)    /* fillers and signs, no digit */
                    assert_true(tokens[t] >= N_DIGITS);
            for (int i = 0; i < length; i++)
                assert_int_equal(tokens[n + i], token_of_char(answer[i]));
            if (which == 0) {           /* the book's own layout */
                assert_int_equal(problem_tokens(p, plain), T);
                expect_same_ints("the tokens", plain, tokens, T);
            }
            longest = T > longest ? T : longest;
        }
    }
    assert_int_equal(layouts_longest(), longest);
    /* the operands move: some layouts put them elsewhere than 0 and 2 */
    int moved = 0;
    for (int which = 1; which < N_LAYOUTS; which++)
        moved += position_in(which, 'a') != 0
                 || position_in(which, 'b') != 2;
    assert_int_equal(moved, N_LAYOUTS - 1);
}

static void test_parser_finds_the_operands(void **state)
{
    (void)state;
    for (int which = 0; which < N_LAYOUTS; which++)
        for (int p = 0; p < N_PROBLEMS; p++) {
            int tokens[MAX_T], a = -1, b = -1;
            int T = layout_tokens(p, which, tokens);
            assert_int_equal(operands_of_tokens(tokens, T, &a, &b), 0);
            assert_int_equal(a, p / 10);
            assert_int_equal(b, p % 10);
        }
    int one_digit[] = {TOK_END, 7, TOK_TIMES, TOK_EQUALS, 7, TOK_END};
    int a = -1, b = -1;
    assert_int_equal(operands_of_tokens(one_digit, 6, &a, &b), -1);
}

static void test_longer_table_shape(void **state)
{
    (void)state;
    static Gpt book, longer;
    int rows = layouts_longest();
    assert_int_equal(gpt_create(&book, 1, N_HEADS, 4), 0);
    assert_int_equal(gpt_create_with_positions(&longer, 1, N_HEADS, 4,
                                               rows), 0);
    assert_int_equal(book.n_positions, SEQ_LEN);
    assert_int_equal(longer.n_positions, rows);
    assert_int_equal(longer.model.p.specs[POS_EMB].rows, rows);
    assert_int_equal(book.model.p.specs[POS_EMB].rows, SEQ_LEN);
    assert_int_equal(longer.model.p.n_params - book.model.p.n_params,
                     (size_t)(rows - SEQ_LEN) * WIDTH);
    gpt_destroy(&book);
    gpt_destroy(&longer);
    static Gpt refused;
    assert_int_equal(gpt_create_with_positions(&refused, 1, N_HEADS, 4,
                                               0), -1);
    assert_int_equal(gpt_create_with_positions(&refused, 1, N_HEADS, 4,
                                               MAX_T + 1), -1);
}

/* the book's weights in a model with a longer table: the rows past the
   seventh are never read by a problem of seven tokens at position 0 */
static void test_longer_table_computes_the_same(void **state)
{
    (void)state;
    static Gpt book, longer;
    static real logits[SEQ_LEN * VOCAB];
    assert_int_equal(gpt_create(&book, 5, N_HEADS, 4), 0);
    assert_int_equal(gpt_create_with_positions(&longer, 9, N_HEADS, 4,
                                               layouts_longest()), 0);
    for (int t = 0; t < N_GPT_TABLES; t++) {
        size_t n = (size_t)gpt_tables[t].rows * (size_t)gpt_tables[t].cols;
        memcpy(longer.model.p.table[t], book.model.p.table[t],
               n * sizeof(real));
    }
    for (int p = 0; p < N_PROBLEMS; p++) {
        int tokens[SEQ_LEN], T = problem_tokens(p, tokens);
        gpt_forward(&book, tokens, 1, T);
        memcpy(logits, book.act.logits, (size_t)T * VOCAB * sizeof(real));
        gpt_forward(&longer, tokens, 1, T);
        expect_same_reals("the logits", logits, longer.act.logits, (size_t)T * VOCAB);
    }
    gpt_destroy(&book);
    gpt_destroy(&longer);
}

static void test_checkpoint_shape(void **state)
{
    (void)state;
    static Gpt book, longer;
    char why[256];
    assert_int_equal(gpt_create(&book, 1, N_HEADS, 4), 0);
    assert_int_equal(gpt_create_with_positions(&longer, 1, N_HEADS, 4,
                                               layouts_longest()), 0);
    size_t size = checkpoint_size(&longer);
    unsigned char *bytes = malloc(size);
    assert_non_null(bytes);
    checkpoint_encode(bytes, &longer);
    assert_int_equal(checkpoint_table_rows(bytes, size, POS_EMB),
                     layouts_longest());
    assert_int_equal(checkpoint_table_rows(bytes, size, TOK_EMB), VOCAB);
    assert_int_equal(checkpoint_table_rows(bytes, 20, POS_EMB), -1);
    assert_int_equal(checkpoint_table_rows(bytes, size, N_GPT_TABLES), -1);
    assert_int_equal(checkpoint_decode(&book, bytes, size, why, sizeof why),
                     CHECKPOINT_OTHER_MODEL);
    assert_non_null(strstr(why, "pos_emb"));
    assert_int_equal(checkpoint_decode(&longer, bytes, size, why, sizeof why),
                     CHECKPOINT_OK);
    bytes[0] = 'X';
    assert_int_equal(checkpoint_table_rows(bytes, size, POS_EMB), -1);
    free(bytes);
    gpt_destroy(&book);
    gpt_destroy(&longer);
}

/* the crossed layouts of chapter 4: each a problem (a, then *, then b,
   then =) with a filler between b and the =, short enough for the
   perceptron's window; together they put a where another puts b, counted
   from the start and counted back from the = */
static void test_crossed_layouts(void **state)
{
    (void)state;
    int a_from_start[N_CROSSED], b_from_start[N_CROSSED];
    int a_from_end[N_CROSSED], b_from_end[N_CROSSED];
    for (int k = 0; k < N_CROSSED; k++) {
        int which = N_LAYOUTS + k, n = (int)strlen(layouts[which]);
        const char *star = strchr(layouts[which], '*');
        int a = position_in(which, 'a'), b = position_in(which, 'b');
        assert_non_null(star);
        assert_true(a < star - layouts[which] && star - layouts[which] < b);
        assert_int_equal(layouts[which][n - 1], '=');
        assert_true(b < n - 2);             /* a filler after b */
        assert_true(n <= WINDOW);
        for (int j = 0; j < N_ALL_LAYOUTS; j++)
            if (j != which)
                assert_string_not_equal(layouts[j], layouts[which]);
        for (int p = 0; p < N_PROBLEMS; p++) {
            int tokens[MAX_T];
            layout_tokens(p, which, tokens);
            assert_int_equal(tokens[a], p / 10);
            assert_int_equal(tokens[b], p % 10);
        }
        a_from_start[k] = a, b_from_start[k] = b;
        a_from_end[k] = n - a, b_from_end[k] = n - b;
    }
    int crossed_start = 0, crossed_end = 0;
    for (int i = 0; i < N_CROSSED; i++)
        for (int j = 0; j < N_CROSSED; j++) {
            crossed_start += a_from_start[i] == b_from_start[j];
            crossed_end += a_from_end[i] == b_from_end[j];
        }
    assert_true(crossed_start > 0);
    assert_true(crossed_end > 0);
}

/* a transformer on layouts draws only from its list: with one layout
   listed, every row of a batch is that layout's string */
static void test_draws_from_its_list(void **state)
{
    (void)state;
    static LayoutGpt l;
    int problems[8] = {78, 0, 99, 36, 5, 50, 11, 64};
    assert_int_equal(layout_gpt_create(&l, 3), 0);
    for (int which = 0; which < N_ALL_LAYOUTS; which++) {
        l.layouts.from[0] = which;
        l.layouts.drawn = 1;
        int T = l.gpt.n_positions - 1;
        l.gpt.model.batch_loss(&l.gpt.model, problems, 8, 0);
        for (int b = 0; b < 8; b++) {
            int tokens[MAX_T], n = layout_tokens(problems[b], which, tokens);
            for (int t = 0; t < T; t++)
                assert_int_equal(l.gpt.tokens[b * T + t],
                                 t < n ? tokens[t] : TOK_END);
        }
    }
    gpt_destroy(&l.gpt);
}

/* the perceptron over a window: the question right-aligned in WINDOW
   slots, one-hot, empty slots all zero */
static void test_window_input(void **state)
{
    (void)state;
    static WindowMlp w;
    assert_int_equal(window_mlp_init(&w, 1), 0);
    assert_int_equal(w.mlp.n_in, WINDOW * VOCAB);
    assert_int_equal(w.mlp.model.p.specs[0].rows, WINDOW * VOCAB);
    for (int which = 0; which < N_ALL_LAYOUTS; which++) {
        char got[8];
        int n = (int)strlen(layouts[which]), tokens[MAX_T];
        layout_tokens(78, which, tokens);
        window_answer(&w, 78, which, got);      /* fills row 0 of x */
        for (int slot = 0; slot < WINDOW; slot++) {
            int t = n - WINDOW + slot, ones = 0;
            for (int token = 0; token < VOCAB; token++) {
                real x = w.mlp.x[slot * VOCAB + token];
                assert_true(x == 0 || x == 1);
                ones += x == 1;
                if (x == 1)
                    assert_int_equal(token, tokens[t]);
            }
            assert_int_equal(ones, t >= 0);
        }
    }
    mlp_free(&w.mlp);
}

#ifdef ATTENTION_DOUBLE
/* the perceptron over a window's backward pass against central finite
   differences, every parameter, on a batch drawn from one layout */
static void test_window_gradient_check(void **state)
{
    (void)state;
    static WindowMlp w;
    assert_int_equal(window_mlp_init(&w, 7), 0);
    Model *m = &w.mlp.model;
    int batch[16];
    w.layouts.from[0] = N_ALL_LAYOUTS - 1;         /* every slot filled */
    w.layouts.drawn = 1;
    for (int i = 0; i < 16; i++)
        batch[i] = (i * 37 + 11) % N_PROBLEMS;
    for (int t = 0; t < m->p.n_tables; t++) {
        double worst = worst_central_difference(m, batch, 16, t);
        printf("  gradient check %-3s worst relative error %.2e\n",
               m->p.specs[t].name, worst);
        assert_true(worst < 1e-5);
    }
    mlp_free(&w.mlp);
}
#endif

#ifndef ATTENTION_DOUBLE
/* the experiment of chapter 4 with the book's settings: every layout
   answered by writing, and a head of the = row that peaks on the same
   operand of 7*8 wherever the layout puts it */
static void test_learns_every_layout(void **state)
{
    (void)state;
    static LayoutGpt l;
    static TrainRecord log[128];
    TrainConfig cfg = train_defaults();
    assert_int_equal(layout_gpt_create(&l, cfg.seed), 0);
    TrainResult r = train(&l.gpt.model, &cfg, log, 128);
    assert_true(r.first_perfect > 0);
    for (int which = 0; which < N_LAYOUTS; which++) {
        unsigned char solved[N_PROBLEMS];
        assert_int_equal(layout_grade(&l, which, solved), N_PROBLEMS);
        for (int p = 0; p < N_PROBLEMS; p++) {
            char want[8], got[8];
            problem_answer(p, want);
            layout_answer(&l.gpt, p, which, got);
            assert_string_equal(got, want);
        }
    }
    int follows = 0;
    for (int head = 0; head < l.gpt.n_heads; head++) {
        char first = 0;
        int same = 1;
        for (int which = 0; which < N_LAYOUTS; which++) {
            int tokens[MAX_T], T = (int)strlen(layouts[which]), peak = 0;
            layout_tokens(7 * 10 + 8, which, tokens);
            gpt_forward(&l.gpt, tokens, 1, T);
            const real *row = l.gpt.act.weights + (head * T + T - 1) * T;
            for (int u = 1; u < T; u++)
                peak = row[u] > row[peak] ? u : peak;
            char letter = layouts[which][peak];
            first = which == 0 ? letter : first;
            same &= (letter == 'a' || letter == 'b') && letter == first;
        }
        follows += same;
    }
    assert_true(follows > 0);
    gpt_destroy(&l.gpt);
}
#endif

/* the chapter of each test, by its topic (tests/chapters.awk), and the
   function or chunk it checks; tests that run the forward pass need every
   exercise: "+whole" (tests/chapters.h) */
static const ChapterTest tests[] = {
    CHAPTER_TEST("turn", "layout_tokens", test_layout_tokens),
    CHAPTER_TEST("turn", "operands_of_tokens",
                 test_parser_finds_the_operands),
    CHAPTER_TEST("turn", "gpt_create_with_positions",
                 test_longer_table_shape),
    CHAPTER_TEST("turn", "checkpoint_table_rows", test_checkpoint_shape),
    CHAPTER_TEST("turn+whole", "gpt_create_with_positions",
                 test_longer_table_computes_the_same),
    CHAPTER_TEST("training", "layouts", test_crossed_layouts),
    CHAPTER_TEST("training+whole", "layout_batch_loss", test_draws_from_its_list),
    CHAPTER_TEST("training", "window_input", test_window_input),
#ifdef ATTENTION_DOUBLE
    CHAPTER_TEST("training+whole", "window_batch_loss", test_window_gradient_check),
#endif
#ifndef ATTENTION_DOUBLE
    CHAPTER_TEST("training+whole", "layout_gpt_create", test_learns_every_layout),
#endif
};

int main(int argc, char **argv)
{
#ifdef ATTENTION_DOUBLE
    const char *suite = "layouts (double)";
#else
    const char *suite = "layouts";
#endif
    return run_chapter_tests(argc, argv, suite, tests,
                             sizeof tests / sizeof tests[0], NULL, NULL);
}
