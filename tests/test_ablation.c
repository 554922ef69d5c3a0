/* tests/test_ablation.c: cmocka tests of routing and ablations: the ablation
   switches and the search of the second proof.  Built twice, like
   test_gpt.c: real = float, and real = double for the gradient checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "chapters.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "checks.h"

#ifdef ATTENTION_DOUBLE
#define ROUNDING (100 * DBL_EPSILON)
#else
#define ROUNDING (100 * FLT_EPSILON)
#endif

static Gpt model, other;
static real logits[MAX_BATCH * SEQ_LEN * VOCAB];

static int setup(void **state)
{
    (void)state;
    return gpt_create(&model, 1, N_HEADS, MAX_BATCH) || gpt_create(&other, 1, N_HEADS, MAX_BATCH);
}

static int teardown(void **state)
{
    (void)state;
    gpt_destroy(&model);
    gpt_destroy(&other);
    return 0;
}

static void all_problems(int problems[N_PROBLEMS])
{
    for (int p = 0; p < N_PROBLEMS; p++)
        problems[p] = p;
}

/* the scores of the row of "=" for a*b= and b*a=: exchanged bit for bit?
   and the largest difference of the next-token scores, relative */
static int swap_alike(Gpt *g, int a, int b, double *gap)
{
    real scores[MAX_HEADS][4], first[VOCAB];
    int tokens[SEQ_LEN], same = 1;
    static const int exchanged[4] = {2, 1, 0, 3};
    problem_tokens(10 * a + b, tokens);
    gpt_forward(g, tokens, 1, 4);
    for (int head = 0; head < N_HEADS; head++)
        memcpy(scores[head], g->act.scores + (head * 4 + 3) * 4, sizeof scores[head]);
    memcpy(first, g->act.logits + 3 * VOCAB, sizeof first);
    problem_tokens(10 * b + a, tokens);
    gpt_forward(g, tokens, 1, 4);
    for (int head = 0; head < N_HEADS; head++)
        for (int u = 0; u < 4; u++)
            same &= !memcmp(&scores[head][exchanged[u]],
                            g->act.scores + (head * 4 + 3) * 4 + u, sizeof(real));
    *gap = 0;
    for (int i = 0; i < VOCAB; i++) {
        double x = first[i], y = g->act.logits[3 * VOCAB + i];
        *gap = fmax(*gap, fabs(x - y) / (1 + fabs(x)));
    }
    return same;
}

/* Without position vectors the row of "=" cannot tell a*b= from b*a=:
   its scores are the same bits, exchanged, for all 45 pairs, and the
   outputs differ by rounding only (the sums run in another order).
   With them, the pairs differ. */
static void test_no_position_swaps_alike(void **state)
{
    (void)state;
    int alike = 0, pairs = 0;
    double gap, widest = 0;
    for (int a = 0; a < N_DIGITS; a++)
        for (int b = a + 1; b < N_DIGITS; b++, pairs++)
            alike += swap_alike(&model, a, b, &gap);
    assert_int_equal(pairs, 45);
    assert_int_not_equal(alike, 45);            /* with them, some pair differs */
    model.ablate = NO_POSITION;
    alike = 0;
    for (int a = 0; a < N_DIGITS; a++)
        for (int b = a + 1; b < N_DIGITS; b++) {
            alike += swap_alike(&model, a, b, &gap);
            widest = fmax(widest, gap);
        }
    model.ablate = 0;
    printf("  without positions: %d of 45 pairs alike, outputs differ by %.1e\n", alike, widest);
    assert_int_equal(alike, 45);
    assert_true(widest <= ROUNDING);
}

/* Without the mask an earlier output moves when a later token changes:
   so the mask test of test_gpt.c is not passing vacuously. */
static void test_no_mask_sees_later_tokens(void **state)
{
    (void)state;
    int tokens[SEQ_LEN], T = problem_tokens(7 * 10 + 8, tokens);
    model.ablate = NO_MASK;
    for (int u = 1; u < T; u++) {
        gpt_forward(&model, tokens, 1, T);
        memcpy(logits, model.act.logits, (size_t)T * VOCAB * sizeof(real));
        tokens[u] = (tokens[u] + 1) % VOCAB;
        gpt_forward(&model, tokens, 1, T);
        tokens[u] = (tokens[u] + VOCAB - 1) % VOCAB;
        assert_memory_not_equal(logits + (u - 1) * VOCAB, model.act.logits + (u - 1) * VOCAB,
                                VOCAB * sizeof(real));
    }
    model.ablate = 0;
}

static void batch(Gpt *g, int backward)
{
    int problems[N_PROBLEMS];
    all_problems(problems);
    memset(g->model.p.grads, 0, g->model.p.n_params * sizeof(real));
    /* A training pass leaves out the seventh row (see training); the pass
       without gradients that follows keeps the activations of all seven,
       so that every comparison below sees the same rows. */
    if (backward)
        g->model.batch_loss(&g->model, problems, N_PROBLEMS, 1);
    g->model.batch_loss(&g->model, problems, N_PROBLEMS, 0);
}

#define SAME(x, y, n) expect_same_reals(#x " against " #y, (x), (y), (n))
#define ROWS ((size_t)N_PROBLEMS * SEQ_LEN)

/* Each switch, set and cleared again, leaves the outputs and gradients
   of the book's model as they were, bit for bit; and the classic and
   production forms agree with every switch. */
static void test_switches_off_change_nothing(void **state)
{
    (void)state;
    static real grads[9440];
    batch(&model, 1);
    memcpy(logits, model.act.logits, ROWS * VOCAB * sizeof(real));
    memcpy(grads, model.model.p.grads, sizeof grads);
    for (int s = 0; s < N_PARTS; s++) {    /* every row of part_table */
        model.ablate = 1u << s;
        batch(&model, 1);
        for (int p = 0; p < N_PROBLEMS; p++)
            assert_true(gpt_forms_agree(&model, p));
        model.ablate = 0;
        batch(&model, 1);
        SAME(logits, model.act.logits, ROWS * VOCAB);
        SAME(grads, model.model.p.grads, 9440);
    }
}

/* Each switch changes exactly the part it names. */
static void test_each_switch_changes_its_part(void **state)
{
    (void)state;
    memcpy(other.model.p.params, model.model.p.params, model.model.p.n_params * sizeof(real));
    batch(&other, 0);                           /* the book's model */
    Activations *a = &model.act, *b = &other.act;
    /* no positions: the same as a position table of zeros */
    model.ablate = NO_POSITION;
    batch(&model, 1);
    memset(other.model.p.table[POS_EMB], 0, SEQ_LEN * WIDTH * sizeof(real));
    batch(&other, 0);
    SAME(a->logits, b->logits, ROWS * VOCAB);
    for (int i = 0; i < SEQ_LEN * WIDTH; i++)
        assert_true(model.model.p.grad[POS_EMB][i] == 0);
    model.ablate = 0;
    memcpy(other.model.p.params, model.model.p.params, model.model.p.n_params * sizeof(real));
    batch(&other, 0);
    /* no mask: the last row, which has no future, is unchanged; others move */
    model.ablate = NO_MASK;
    batch(&model, 0);
    for (size_t row = 0; row < ROWS; row++)
        if (row % SEQ_LEN == SEQ_LEN - 1)
            SAME(a->logits + row * VOCAB, b->logits + row * VOCAB, VOCAB);
    assert_memory_not_equal(a->logits, b->logits, VOCAB * sizeof(real));
    model.ablate = 0;
    /* no residual: the stream after a sublayer is the sublayer's result */
    model.ablate = NO_RESIDUAL;
    batch(&model, 0);
    SAME(a->attn, b->attn, ROWS * WIDTH);
    SAME(a->x2, a->attn, ROWS * WIDTH);
    SAME(a->x3, a->ffn, ROWS * WIDTH);
    model.ablate = 0;
    /* no LayerNorm: the three LayerNorms pass their rows through */
    model.ablate = NO_LAYERNORM;
    batch(&model, 1);
    SAME(a->x, b->x, ROWS * WIDTH);
    SAME(a->ln1, a->x, ROWS * WIDTH);
    SAME(a->ln2, a->x2, ROWS * WIDTH);
    SAME(a->lnf, a->x3, ROWS * WIDTH);
    for (int i = 0; i < WIDTH; i++)
        assert_true(model.model.p.grad[LN1_GAIN][i] == 0 && model.model.p.grad[LN2_GAIN][i] == 0
                    && model.model.p.grad[LNF_GAIN][i] == 0);
    model.ablate = 0;
}

/* Each LayerNorm, named by its gain, is switched off by the one part
   "layernorm" and by no other part of the table, alone or together. */
/* Which LayerNorms each part switches off, written here apart from the
   code: LN1, LN2 and the final one.  A part not listed switches none;
   a new part that switches one gets a row. */
static const struct { Ablation part; int gains[3]; } switching[] = {
    {NO_LAYERNORM, {1, 1, 1}},
};

static int switches(Ablation part, int k)
{
    for (size_t i = 0; i < sizeof switching / sizeof switching[0]; i++)
        if (switching[i].part == part)
            return switching[i].gains[k];
    return 0;
}

static void test_layernorm_switch_names_its_part(void **state)
{
    (void)state;
    const int gains[3] = {LN1_GAIN, LN2_GAIN, LNF_GAIN};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(layernorm_switch(0, gains[k]), 0);
        for (int s = 0; s < N_PARTS; s++) {
            Ablation part = 1u << s, others = ~part & ((1u << N_PARTS) - 1);
            int by_others = 0;
            for (int o = 0; o < N_PARTS; o++)
                by_others |= o != s && switches(1u << o, k);
            assert_int_equal(layernorm_switch(part, gains[k]),
                             switches(part, k) ? part : 0);
            Ablation named = layernorm_switch(others, gains[k]);
            assert_int_equal(named != 0, by_others);
            if (named != 0)     /* one of the parts off, and one that */
                assert_true((named & others) == named   /* switches */
                            && switches(named, k));     /* this one */
        }
    }
}

/* The search of proof 2 visits all 45 pairs and picks the largest
   measure, checked against a brute-force recomputation. */
static double brute_change(Gpt *g, int a, int b)
{
    real w[2][MAX_HEADS][4];
    double change = 0;
    for (int order = 0; order < 2; order++) {
        int tokens[SEQ_LEN];
        problem_tokens(order ? 10 * b + a : 10 * a + b, tokens);
        gpt_forward(g, tokens, 1, 4);
        for (int head = 0; head < N_HEADS; head++)
            for (int u = 0; u < 4; u++)
                w[order][head][u] = g->act.weights[(head * 4 + 3) * 4 + u];
    }
    for (int head = 0; head < N_HEADS; head++)
        for (int u = 0; u < 4; u++)
            change += fabs((double)w[0][head][u] - (double)w[1][head][u]) / 2 / N_HEADS;
    return change;
}

static void test_swap_search(void **state)
{
    (void)state;
    int a = -1, b = -1;
    real change = 0;
    double best = -1;
    assert_int_equal(most_changed_pair(&model, &a, &b, &change), 45);
    for (int x = 0; x < N_DIGITS; x++)
        for (int y = x + 1; y < N_DIGITS; y++)
            best = fmax(best, brute_change(&model, x, y));
    assert_true(a >= 0 && a < b && b < N_DIGITS);
    assert_true(fabs(brute_change(&model, a, b) - best) < 1e-6);
    assert_true(fabs((double)change - best) < 1e-6);
}

#ifdef ATTENTION_DOUBLE
/* The backward pass of every switch against finite differences. */
static void test_gradcheck_with_switches(void **state)
{
    (void)state;
    int problems[8];
    for (int i = 0; i < 8; i++) problems[i] = (13 * i + 5) % N_PROBLEMS;
    for (int s = 0; s < N_PARTS; s++) {    /* every row of part_table */
        Ablation off = 1u << s;
        double worst = 0;
        model.ablate = off;
        for (int table = 0; table < N_GPT_TABLES; table++) {
            GradcheckResult r = gradcheck_table(&model, problems, 8, table, 11, 1e-4);
            worst = fmax(worst, r.worst_relative);
        }
        printf("  gradient check, switch %d: worst relative error %.2e\n", s, worst);
        assert_true(worst < 1e-6);
    }
    model.ablate = 0;
}
#endif

/* the chapter of each test, by its topic (tests/chapters.awk), and the
   function or chunk it checks; the switches of the ablations chapter are
   checked on the whole model, so their tests need every exercise:
   "+whole" (tests/chapters.h) */
static const ChapterTest tests[] = {
    CHAPTER_TEST("ablations+whole", "positions", test_no_position_swaps_alike),
    CHAPTER_TEST("ablations+whole", "attention_forward", test_no_mask_sees_later_tokens),
    CHAPTER_TEST("ablations+whole", "block_residual", test_switches_off_change_nothing),
    CHAPTER_TEST("ablations+whole", "block_layernorm", test_each_switch_changes_its_part),
    CHAPTER_TEST("ablations+whole", "layernorm_switch", test_layernorm_switch_names_its_part),
    CHAPTER_TEST("routing", "most_changed_pair", test_swap_search),
#ifdef ATTENTION_DOUBLE
    CHAPTER_TEST("ablations+whole", "block_layernorm_backward", test_gradcheck_with_switches),
#endif
};

int main(int argc, char **argv)
{
#ifdef ATTENTION_DOUBLE
    const char *suite = "ablations (double)";
#else
    const char *suite = "ablations";
#endif
    return run_chapter_tests(argc, argv, suite, tests, sizeof tests / sizeof tests[0],
                             setup, teardown);
}
