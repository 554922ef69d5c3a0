/* tests/test_dissect.c: cmocka tests of heads and ffn: the number of
   heads, the switch that removes GELU, the neuron search and the
   eigen-solver.  Built twice, like test_gpt.c: real = float, and
   real = double for the gradient check without GELU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "chapters.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "checks.h"
#include "dissect.h"

static int all[N_PROBLEMS];

static void all_problems(void)
{
    for (int p = 0; p < N_PROBLEMS; p++) all[p] = p;
}

/* ---------------------------------------------------------------- heads */

/* 4 heads is the book's model: the same parameters and the same bits out. */
static void test_four_heads_is_the_specimen(void **state)
{
    (void)state;
    static Gpt book, four;
    static real logits[N_PROBLEMS * SEQ_LEN * VOCAB];
    assert_int_equal(N_HEADS, 4);
    assert_int_equal(gpt_create(&book, 1, N_HEADS, N_PROBLEMS), 0);
    assert_int_equal(gpt_create(&four, 1, 4, N_PROBLEMS), 0);
    expect_same_params("the parameters", &book, book.model.p.params, four.model.p.params);
    book.model.batch_loss(&book.model, all, N_PROBLEMS, 0);
    memcpy(logits, book.act.logits, sizeof logits);
    four.model.batch_loss(&four.model, all, N_PROBLEMS, 0);
    expect_same_reals("the logits", logits, four.act.logits, sizeof logits / sizeof *logits);
    gpt_destroy(&book);
    gpt_destroy(&four);
}

/* 1, 2 and 8 heads: width 32, the same 9,440 parameters, d_head * heads
   = 32, every row of every head's weights sums to 1, the two forms agree,
   and only what comes after attention differs from the 4-head model. */
static void test_other_head_counts(void **state)
{
    (void)state;
    static const int choices[] = {1, 2, 8};
    static Gpt four, g;
    assert_int_equal(gpt_create(&four, 3, 4, N_PROBLEMS), 0);
    four.model.batch_loss(&four.model, all, N_PROBLEMS, 0);
    for (int c = 0; c < 3; c++) {
        int n = choices[c];
        assert_int_equal(gpt_create(&g, 3, n, N_PROBLEMS), 0);
        assert_int_equal(g.n_heads, n);
        assert_int_equal((WIDTH / n) * n, WIDTH);
        assert_int_equal(g.model.p.n_params, 9440);
        expect_same_params("the parameters", &g, g.model.p.params, four.model.p.params);
        g.model.batch_loss(&g.model, all, N_PROBLEMS, 0);
        expect_same_reals("the values v", g.act.v, four.act.v, N_PROBLEMS * SEQ_LEN * WIDTH);
        assert_memory_not_equal(g.act.heads, four.act.heads,
                                N_PROBLEMS * SEQ_LEN * WIDTH * sizeof(real));
        for (int row = 0; row < N_PROBLEMS * n * SEQ_LEN; row++) {
            double sum = 0;
            for (int u = 0; u < SEQ_LEN; u++) sum += g.act.weights[row * SEQ_LEN + u];
            assert_true(fabs(sum - 1) < 1e-5);
        }
        for (int p = 0; p < N_PROBLEMS; p += 9) assert_true(gpt_forms_agree(&g, p));
        gpt_destroy(&g);
    }
    assert_int_equal(gpt_create(&g, 3, 3, 4), -1);     /* 3 does not divide 32 */
    assert_int_equal(gpt_create(&g, 3, 16, 4), -1);    /* more than MAX_HEADS */
    gpt_destroy(&four);
}

/* ---------------------------------------------------------------- no GELU */

/* Random weights and biases; with the bend removed the FFN's two layers
   equal the one map W1 W2, b1 W2 + b2 on every row of the 100 problems. */
static void test_no_gelu_collapse(void **state)
{
    (void)state;
    static Gpt g;
    static real map[WIDTH * WIDTH], shift[WIDTH], one[WIDTH];
    Rng rng;
    assert_int_equal(gpt_create(&g, 5, N_HEADS, N_PROBLEMS), 0);
    rng_seed(&rng, 11);
    for (int i = 0; i < HIDDEN; i++) g.model.p.table[B1][i] = rng_normal(&rng);
    for (int i = 0; i < WIDTH; i++) g.model.p.table[B2][i] = rng_normal(&rng);
    g.ablate = NO_GELU;
    g.model.batch_loss(&g.model, all, N_PROBLEMS, 0);
    gpt_ffn_as_one_map(&g, map, shift);
    double worst = 0;
    for (int row = 0; row < N_PROBLEMS * SEQ_LEN; row++) {
        matmul_forward(one, g.act.ln2 + row * WIDTH, map, shift, 1, WIDTH, WIDTH);
        for (int i = 0; i < WIDTH; i++) {
            double diff = fabs((double)one[i] - (double)g.act.ffn[row * WIDTH + i]);
            worst = diff > worst ? diff : worst;
        }
    }
    printf("  no GELU: largest difference of the one map %.1e (tolerance 1e-4)\n", worst);
    assert_true(worst < 1e-4);
    gpt_destroy(&g);
}

/* The switch: on, the middle is the pre-activation itself and the two
   forms of attention still agree bit for bit; off again, the model gives
   the same bits as one that never had it on. */
static void test_no_gelu_switch(void **state)
{
    (void)state;
    static Gpt g, plain;
    static real before[N_PROBLEMS * SEQ_LEN * VOCAB];
    assert_int_equal(gpt_create(&g, 7, N_HEADS, N_PROBLEMS), 0);
    assert_int_equal(gpt_create(&plain, 7, N_HEADS, N_PROBLEMS), 0);
    plain.model.batch_loss(&plain.model, all, N_PROBLEMS, 0);
    memcpy(before, plain.act.logits, sizeof before);
    g.ablate = NO_GELU;
    g.model.batch_loss(&g.model, all, N_PROBLEMS, 0);
    expect_same_reals("the hidden layer against its input", g.act.pre_gelu, g.act.hidden,
                      N_PROBLEMS * SEQ_LEN * HIDDEN);
    assert_memory_not_equal(before, g.act.logits, sizeof before);
    for (int p = 0; p < N_PROBLEMS; p++) assert_true(gpt_forms_agree(&g, p));
    g.ablate = 0;
    g.model.batch_loss(&g.model, all, N_PROBLEMS, 0);
    expect_same_reals("the logits", before, g.act.logits, sizeof before / sizeof *before);
    gpt_destroy(&g);
    gpt_destroy(&plain);
}

#ifdef ATTENTION_DOUBLE
/* The backward pass without GELU against finite differences. */
static void test_no_gelu_gradcheck(void **state)
{
    (void)state;
    static Gpt g;
    static const int tables[] = {LN2_GAIN, W1, B1, W2, B2, WQ, TOK_EMB};
    int problems[16];
    Rng rng;
    assert_int_equal(gpt_create(&g, 1, N_HEADS, 16), 0);
    g.ablate = NO_GELU;
    rng_seed(&rng, 7);
    for (int i = 0; i < 16; i++) problems[i] = rng_below(&rng, N_PROBLEMS);
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        GradcheckResult r = gradcheck_table(&g, problems, 16, tables[t], 5, 1e-4);
        printf("  no GELU gradient check %-9s worst relative error %.2e\n",
               gpt_tables[tables[t]].name, r.worst_relative);
        assert_true(r.checked > 0 && r.worst_relative < 1e-6);
    }
    gpt_destroy(&g);
}
#endif

/* ---------------------------------------------------------------- neurons */

static double brute_separation(const real *h, int width, int column,
                               const unsigned char *has, int n)
{
    double m1 = 0, m0 = 0, v1 = 0, v0 = 0;
    int n1 = 0, n0 = 0;
    for (int i = 0; i < n; i++) {
        double x = h[i * width + column];
        if (has[i]) { m1 += x; n1++; } else { m0 += x; n0++; }
    }
    m1 /= n1; m0 /= n0;
    for (int i = 0; i < n; i++) {
        double x = h[i * width + column];
        if (has[i]) v1 += (x - m1) * (x - m1) / n1; else v0 += (x - m0) * (x - m0) / n0;
    }
    return (m1 - m0) / sqrt((v1 + v0) / 2);
}

/* On random activations and concepts, the search returns the column whose
   |d|, computed here independently, is largest; a planted neuron is found. */
static void test_neuron_search_is_the_maximiser(void **state)
{
    (void)state;
    static real h[N_PROBLEMS * HIDDEN];
    unsigned char has[N_PROBLEMS];
    Rng rng;
    rng_seed(&rng, 2024);
    for (int trial = 0; trial < 50; trial++) {
        for (int i = 0; i < N_PROBLEMS * HIDDEN; i++) h[i] = rng_normal(&rng);
        for (int p = 0; p < N_PROBLEMS; p++) has[p] = rng_below(&rng, 4) == 0;
        has[0] = 1, has[1] = 0;
        int planted = trial % 2 ? rng_below(&rng, HIDDEN) : -1;
        for (int p = 0; planted >= 0 && p < N_PROBLEMS; p++)
            h[p * HIDDEN + planted] += has[p] ? -3 : 0;
        double d = 0, best = -1;
        int found = best_separating_column(h, N_PROBLEMS, HIDDEN, has, &d), want = 0;
        for (int col = 0; col < HIDDEN; col++) {
            double b = fabs(brute_separation(h, HIDDEN, col, has, N_PROBLEMS));
            if (b > best) best = b, want = col;
        }
        assert_int_equal(found, want);
        assert_true(fabs(fabs(d) - best) < 1e-9 * best);
        if (planted >= 0) assert_int_equal(found, planted);
        if (planted >= 0) assert_true(d < 0);
    }
}

/* ---------------------------------------------------------------- eigen */

/* vectors are rows; check A v = lambda v, orthonormality, order, trace */
static void check_eigen(const double *a, int n, const double *values,
                        const double *vectors, double tolerance)
{
    double trace = 0, sum = 0;
    for (int i = 0; i < n; i++) trace += a[i * n + i], sum += values[i];
    assert_true(fabs(trace - sum) < tolerance);
    for (int i = 0; i + 1 < n; i++) assert_true(values[i] >= values[i + 1]);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            double dot = 0;
            for (int k = 0; k < n; k++) dot += vectors[i * n + k] * vectors[j * n + k];
            assert_true(fabs(dot - (i == j)) < tolerance);
        }
        for (int r = 0; r < n; r++) {
            double av = 0;
            for (int k = 0; k < n; k++) av += a[r * n + k] * vectors[i * n + k];
            assert_true(fabs(av - values[i] * vectors[i * n + r]) < tolerance);
        }
    }
}

/* Q D Q^T with Q a product of random plane rotations */
static void rotated(double *out, const double *diagonal, int n, uint64_t seed)
{
    static double q[64 * 64];
    Rng rng;
    rng_seed(&rng, seed);
    for (int i = 0; i < n * n; i++) q[i] = i / n == i % n;
    for (int r = 0; r < 4 * n * n; r++) {
        int p = rng_below(&rng, n), s = rng_below(&rng, n);
        if (p == s) continue;
        double angle = 6.283185307179586 * rng_uniform(&rng), c = cos(angle), sn = sin(angle);
        for (int k = 0; k < n; k++) {
            double x = q[k * n + p], y = q[k * n + s];
            q[k * n + p] = c * x - sn * y;
            q[k * n + s] = sn * x + c * y;
        }
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double sum = 0;
            for (int k = 0; k < n; k++) sum += q[i * n + k] * diagonal[k] * q[j * n + k];
            out[i * n + j] = sum;
        }
}

static void test_eigen_diagonal(void **state)
{
    (void)state;
    double a[16] = {1, 0, 0, 0, 0, 5, 0, 0, 0, 0, -2, 0, 0, 0, 0, 3}, copy[16], values[4], vectors[16];
    memcpy(copy, a, sizeof a);
    assert_true(symmetric_eigen(copy, 4, values, vectors) >= 0);
    double want[4] = {5, 3, 1, -2};
    int axis[4] = {1, 3, 0, 2};
    for (int i = 0; i < 4; i++) {
        assert_true(values[i] == want[i]);
        assert_true(fabs(vectors[i * 4 + axis[i]]) == 1);
    }
    check_eigen(a, 4, values, vectors, 1e-12);
}

static void test_eigen_rotated_diagonal(void **state)
{
    (void)state;
    static double a[64 * 64], copy[64 * 64], values[64], vectors[64 * 64], d[64];
    int n = 40;
    for (int i = 0; i < n; i++) d[i] = (double)(n - i) * 0.75 - 7;   /* distinct */
    rotated(a, d, n, 3);
    memcpy(copy, a, sizeof a);
    int sweeps = symmetric_eigen(copy, n, values, vectors);
    printf("  eigen-solver: %d x %d in %d sweeps\n", n, n, sweeps);
    assert_true(sweeps > 0);
    for (int i = 0; i < n; i++) assert_true(fabs(values[i] - d[i]) < 1e-10);
    check_eigen(a, n, values, vectors, 1e-9);
}

static void test_eigen_repeated(void **state)
{
    (void)state;
    static double a[36], copy[36], values[6], vectors[36];
    double d[6] = {4, 2, 2, 2, -1, -1};
    rotated(a, d, 6, 9);
    memcpy(copy, a, sizeof a);
    assert_true(symmetric_eigen(copy, 6, values, vectors) > 0);
    for (int i = 0; i < 6; i++) assert_true(fabs(values[i] - d[i]) < 1e-12);
    check_eigen(a, 6, values, vectors, 1e-10);
}

/* a covariance of random rows: trace, orthonormal vectors, values >= 0 */
static void test_eigen_of_a_covariance(void **state)
{
    (void)state;
    static real x[N_PROBLEMS * HIDDEN];
    static double cov[HIDDEN * HIDDEN], copy[HIDDEN * HIDDEN], values[HIDDEN],
        vectors[HIDDEN * HIDDEN];
    Rng rng;
    rng_seed(&rng, 5);
    for (int i = 0; i < N_PROBLEMS * HIDDEN; i++) x[i] = rng_normal(&rng);
    centred_covariance(cov, x, N_PROBLEMS, HIDDEN);
    memcpy(copy, cov, sizeof cov);
    assert_true(symmetric_eigen(copy, HIDDEN, values, vectors) > 0);
    assert_true(values[HIDDEN - 1] > -1e-12);
    check_eigen(cov, HIDDEN, values, vectors, 1e-9);
}

/* ---------------------------------------------------------------- patches */

/* Each intervention against PyTorch's (tests/patch_reference.py), on the
   book's model as it was when make reference wrote the input. */
static void test_patches_match_pytorch(void **state)
{
    (void)state;
    int failures = compare_patches_with_reference("tests/patch_input.bin",
                                                  "tests/patch_reference.bin", stdout);
    assert_int_not_equal(failures, -1);   /* -1: the files are missing (make reference) */
    assert_int_equal(failures, 0);
}

/* A patch that puts in the numbers that were there changes no bit, at
   every site: the patched pass is the forward pass when nothing moves. */
static void test_patch_with_own_numbers_changes_nothing(void **state)
{
    (void)state;
    static Gpt g;
    static real clean[SEQ_LEN * VOCAB];
    int tokens[MAX_T];
    assert_int_equal(gpt_create(&g, 3, N_HEADS, N_PROBLEMS), 0);
    for (int p = 0; p < N_PROBLEMS; p += 7) {
        problem_tokens(p, tokens);
        gpt_forward(&g, tokens, 1, 4);
        memcpy(clean, g.act.logits, 4 * VOCAB * sizeof(real));
        for (int site = PATCH_OUTPUT; site < N_PATCH_SITES; site++)
            for (int pos = 0; pos < 4; pos++) {
                Patch patch = {(PatchSite)site, PATCH_OTHER, 0xF, 3, pos};
                PatchNumbers with;
                assert_int_equal(patch_numbers(&g, &patch, tokens, 4, tokens, &with), 0);
                gpt_forward_patched(&g, &patch, &with, tokens, 4);
                expect_same_reals("the logits", clean, g.act.logits, 4 * VOCAB);
            }
    }
    gpt_destroy(&g);
}

/* Zero weights for every head leave nothing to mix: the same logits as
   every head's output set to zero. */
static void test_zero_weights_are_zero_output(void **state)
{
    (void)state;
    static Gpt g;
    static real zeroed[SEQ_LEN * VOCAB];
    int tokens[MAX_T];
    assert_int_equal(gpt_create(&g, 3, N_HEADS, N_PROBLEMS), 0);
    problem_tokens(7 * 10 + 8, tokens);
    Patch output = {PATCH_OUTPUT, PATCH_ZERO, 0xF, 3, 0};
    Patch weights = {PATCH_WEIGHTS, PATCH_ZERO, 0xF, 3, 0};
    PatchNumbers with;
    assert_int_equal(patch_numbers(&g, &output, tokens, 4, NULL, &with), 0);
    gpt_forward_patched(&g, &output, &with, tokens, 4);
    memcpy(zeroed, g.act.logits, 4 * VOCAB * sizeof(real));
    gpt_forward_patched(&g, &weights, &with, tokens, 4);
    expect_same_reals("the logits", zeroed, g.act.logits, 4 * VOCAB);
    gpt_destroy(&g);
}

/* The QK circuit is the scores the model computes: in every problem
   a*b=, the ='s score for position 0 is qk[0][a] and for position 2
   qk[1][b], bit for bit, in every head. */
static void test_circuit_scores_are_the_models(void **state)
{
    (void)state;
    static Gpt g;
    static HeadCircuits c[MAX_HEADS];
    int tokens[MAX_T];
    assert_int_equal(gpt_create(&g, 3, N_HEADS, N_PROBLEMS), 0);
    assert_int_equal(head_circuits(&g, c), 0);
    for (int p = 0; p < N_PROBLEMS; p += 3) {
        problem_tokens(p, tokens);
        gpt_forward(&g, tokens, 1, 4);
        for (int head = 0; head < N_HEADS; head++) {
            const real *score = g.act.scores + (head * 4 + EQUALS_AT) * 4;
            expect_same_reals("the score at position 0", &c[head].qk[0][p / 10],
                              &score[0], 1);
            expect_same_reals("the score at position 2", &c[head].qk[1][p % 10],
                              &score[2], 1);
        }
    }
    gpt_destroy(&g);
}

/* The OV circuit is what a head's output does to the logits on the
   direct path: without LayerNorm the logits are linear in the stream,
   so a head's output set, on the direct path only, to the value of
   position 0 changes the ='s digit logits, against zeros there, by the
   table's row for that digit (less the mean of the ten). */
static void test_circuit_effects_are_the_direct_path(void **state)
{
    (void)state;
    static Gpt g;
    static HeadCircuits c[MAX_HEADS];
    static real zeroed[SEQ_LEN * VOCAB];
    int tokens[MAX_T], d_head = WIDTH / N_HEADS;
    assert_int_equal(gpt_create(&g, 5, N_HEADS, N_PROBLEMS), 0);
    g.ablate = NO_LAYERNORM;
    assert_int_equal(head_circuits(&g, c), 0);
    for (int a = 0; a < N_DIGITS; a += 4)
        for (int head = 0; head < N_HEADS; head++) {
            Patch patch = {PATCH_DIRECT, PATCH_ZERO, 1u << head, 3, 0};
            PatchNumbers with;
            problem_tokens(a * 10 + 7, tokens);
            assert_int_equal(patch_numbers(&g, &patch, tokens, 4, NULL, &with), 0);
            gpt_forward_patched(&g, &patch, &with, tokens, 4);
            memcpy(zeroed, g.act.logits, 4 * VOCAB * sizeof(real));
            memcpy(with.at[head], g.act.v + head * d_head,
                   (size_t)d_head * sizeof(real));
            gpt_forward_patched(&g, &patch, &with, tokens, 4);
            double change[N_DIGITS], mean = 0;
            for (int k = 0; k < N_DIGITS; k++) {
                change[k] = g.act.logits[3 * VOCAB + k] - zeroed[3 * VOCAB + k];
                mean += change[k] / N_DIGITS;
            }
            for (int k = 0; k < N_DIGITS; k++)
                assert_true(fabs(change[k] - mean - c[head].ov[0][a][k])
                            < 1e-4 * (1 + fabs(c[head].ov[0][a][k])));
        }
    gpt_destroy(&g);
}

/* the chapter of each test, by its topic (tests/chapters.awk), and the
   function or chunk it checks; tests that train or run the whole model
   need every exercise: "+whole" (tests/chapters.h) */
static const ChapterTest tests[] = {
    CHAPTER_TEST("heads", "gpt_create", test_four_heads_is_the_specimen),
    CHAPTER_TEST("heads+whole", "attention_forward", test_other_head_counts),
    CHAPTER_TEST("ffn", "gpt_ffn_as_one_map", test_no_gelu_collapse),
    CHAPTER_TEST("ffn+whole", "bend_forward", test_no_gelu_switch),
#ifdef ATTENTION_DOUBLE
    CHAPTER_TEST("ffn+whole", "bend_backward", test_no_gelu_gradcheck),
#endif
    CHAPTER_TEST("ffn", "best_separating_column", test_neuron_search_is_the_maximiser),
    CHAPTER_TEST("ffn", "symmetric_eigen", test_eigen_diagonal),
    CHAPTER_TEST("ffn", "symmetric_eigen", test_eigen_rotated_diagonal),
    CHAPTER_TEST("ffn", "symmetric_eigen", test_eigen_repeated),
    CHAPTER_TEST("ffn", "symmetric_eigen", test_eigen_of_a_covariance),
    CHAPTER_TEST("routing+whole", "gpt_forward_patched", test_patches_match_pytorch),
    CHAPTER_TEST("routing+whole", "gpt_forward_patched", test_patch_with_own_numbers_changes_nothing),
    CHAPTER_TEST("routing+whole", "gpt_forward_patched", test_zero_weights_are_zero_output),
    CHAPTER_TEST("routing+whole", "head_circuits", test_circuit_scores_are_the_models),
    CHAPTER_TEST("routing+whole", "head_circuits", test_circuit_effects_are_the_direct_path),
};

int main(int argc, char **argv)
{
    all_problems();
#ifdef ATTENTION_DOUBLE
    const char *suite = "dissection (double)";
#else
    const char *suite = "dissection";
#endif
    return run_chapter_tests(argc, argv, suite, tests, sizeof tests / sizeof tests[0], NULL, NULL);
}
