/* Tests of the core of attention.nw: the task, parameter tables, layers,
   the perceptron and the training loop.  Built twice: with real = float
   (the program's build) and with -DATTENTION_DOUBLE for the gradient check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "chapters.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core.h"
#include "checks.h"

/* ---------------------------------------------------------------- the task */

static void test_vocabulary_round_trip(void **state)
{
    (void)state;
    const char *chars = "0123456789*=;";
    for (int t = 0; t < VOCAB; t++) {
        assert_int_equal(token_of_char(chars[t]), t);
        assert_int_equal(char_of_token(t), chars[t]);
    }
    assert_int_equal(token_of_char('x'), -1);
    assert_int_equal(token_of_char('\0'), -1);
    assert_int_equal(char_of_token(VOCAB), '?');
    assert_int_equal(char_of_token(-1), '?');
}

/* Every problem's tokens spell "a*b=P;" as printf writes it. */
static void test_problem_strings(void **state)
{
    (void)state;
    for (int p = 0; p < N_PROBLEMS; p++) {
        int tokens[SEQ_LEN], a = p / 10, b = p % 10;
        char expected[16], got[16];
        snprintf(expected, sizeof expected, "%d*%d=%d;", a, b, a * b);
        int n = problem_tokens(p, tokens);
        assert_int_equal(n, (int)strlen(expected));
        for (int i = 0; i < n; i++)
            got[i] = char_of_token(tokens[i]);
        got[n] = '\0';
        assert_string_equal(got, expected);
        char answer[8];
        problem_answer(p, answer);
        assert_string_equal(answer, strchr(expected, '=') + 1);
    }
}

/* ---------------------------------------------------------------- tables */

static void test_params_layout(void **state)
{
    (void)state;
    static const TableSpec specs[] = {{"a", 2, 3}, {"b", 1, 5}, {"c", 4, 4}};
    Params p;
    assert_int_equal(params_alloc(&p, specs, 3), 0);
    assert_int_equal(p.n_params, 6 + 5 + 16);
    assert_ptr_equal(p.table[0], p.params);
    assert_ptr_equal(p.table[1], p.params + 6);
    assert_ptr_equal(p.table[2], p.params + 11);
    assert_ptr_equal(p.grad[2], p.grads + 11);
    assert_ptr_equal(p.grads, p.params + 27);
    assert_ptr_equal(p.m, p.params + 54);
    assert_ptr_equal(p.v, p.params + 81);
    for (size_t i = 0; i < 4 * p.n_params; i++)
        assert_true(p.params[i] == 0);
    params_free(&p);
    assert_null(p.params);
    assert_int_equal(params_alloc(&p, specs, 0), -1);
    assert_int_equal(params_alloc(&p, specs, MAX_TABLES + 1), -1);
}

static void test_mlp_has_four_tables(void **state)
{
    (void)state;
    Mlp *mlp = malloc(sizeof *mlp);
    assert_non_null(mlp);
    assert_int_equal(mlp_init(mlp, 1), 0);
    assert_int_equal(mlp->model.p.n_tables, 4);
    assert_int_equal(mlp->model.p.n_params, 20 * 64 + 64 + 64 * 39 + 39);
    mlp_free(mlp);
    free(mlp);
}

/* ---------------------------------------------------------------- layers */

/* matmul_forward against a product written out by hand. */
static void test_matmul_small(void **state)
{
    (void)state;
    const real x[2 * 3] = {1, 2, 3, -1, 0, 2};
    const real w[3 * 2] = {1, 0, 0, 1, 1, 1};
    const real b[2] = {10, 20};
    real y[4];
    matmul_forward(y, x, w, b, 2, 3, 2);
    assert_true(y[0] == 14 && y[1] == 25 && y[2] == 11 && y[3] == 22);
    matmul_forward(y, x, w, NULL, 2, 3, 2);
    assert_true(y[0] == 4 && y[1] == 5 && y[2] == 1 && y[3] == 2);
}

static void test_gelu_values(void **state)
{
    (void)state;
    /* GELU(x) = x Phi(x); Phi(1) = 0.841344746..., Phi(-1) = 0.158655253... */
    const real x[3] = {0, 1, -1};
    real y[3];
    gelu_forward(y, x, 3);
    assert_true(fabs((double)y[0]) < 1e-7);
    assert_true(fabs((double)y[1] - 0.8413447461) < 1e-6);
    assert_true(fabs((double)y[2] + 0.1586552539) < 1e-6);
}

/* Distance of a real from the exact value, in units in the last place of a
   real near it.  The exact values come from long double (64-bit fraction
   on this machine), so the reference is independent of both builds' own
   exp and erfc. */
static double ulps(double value, long double exact)
{
    int e;
    frexpl(exact, &e);
    return (double)(fabsl((long double)value - exact) / ldexpl(1, e - (sizeof(real) == 4 ? 24 : 53)));
}

/* exp_lanes: within 2 units in the last place of e^x wherever the result
   is a normal number; 0, infinity and NaN at the edges. */
static void test_exp_lanes(void **state)
{
    (void)state;
    double worst = 0;
    for (int i = 0; i <= 400000; i++) {
        real x = (real)(-87 + 175 * (i / 4e5));
        worst = fmax(worst, ulps((double)exp_lanes(x), expl((long double)x)));
    }
    assert_true(worst <= 2);
    assert_true(exp_lanes(0) == 1);
    assert_true(exp_lanes(-INFINITY) == 0 && exp_lanes(-1000) == 0);
    assert_true(isinf(exp_lanes(INFINITY)) && isinf(exp_lanes(1000)));
    assert_true(isnan(exp_lanes(NAN)));
}

/* normal_cdf against (1/2) erfc(-z / sqrt 2) in long double:
   - never further than 2 epsilon (of real) from it;
   - within a few units in the last place of Phi for z >= -4, where the
     rounding of the argument dominates: in float, the rounding of z^2 / 2
     moves e^(-z^2/2) by up to z^2 / 4 units (4 at z = -4), to which the
     two exponentials, the fit and the division add at most 6; in double,
     the C library's erfc(-z / sqrt 2) starts from z / sqrt 2 rounded twice,
     which moves erfc by up to 2 z^2 units (32), plus erfc's own 2 or so;
   - Phi(0) = 1/2 exactly, Phi(z) + Phi(-z) = 1 within 2 epsilon, the
     limits 0 and 1, NaN for NaN, and never decreasing. */
static void test_normal_cdf(void **state)
{
    (void)state;
    const double eps = sizeof(real) == 4 ? 0x1p-23 : 0x1p-52;
    double worst_abs = 0, worst_ulps = 0, previous = 0;
    int decreases = 0;
    for (int i = 0; i <= 560000; i++) {
        real z = (real)(-14 + 28 * (i / 5.6e5));
        long double exact = erfcl(-(long double)z / sqrtl(2)) / 2;
        double ours = (double)normal_cdf(z);
        worst_abs = fmax(worst_abs, (double)fabsl(ours - exact));
        if (z >= -4)
            worst_ulps = fmax(worst_ulps, ulps(ours, exact));
        decreases += ours < previous;
        previous = ours;
        assert_true(fabs((double)normal_cdf(z) + (double)normal_cdf(-z) - 1) <= 2 * eps);
    }
    assert_true(worst_abs <= 2 * eps);
    assert_true(worst_ulps <= (sizeof(real) == 4 ? 4 + 6 : 32 + 4));
    assert_int_equal(decreases, 0);
    assert_true(normal_cdf(0) == (real)0.5);
    assert_true(normal_cdf(-INFINITY) == 0 && normal_cdf(INFINITY) == 1);
    assert_true(isnan(normal_cdf(NAN)));
}

/* normal_pdf against e^(-z^2/2) / sqrt(2 pi) in long double, |z| <= 4. */
static void test_normal_pdf(void **state)
{
    (void)state;
    double worst = 0;
    for (int i = 0; i <= 80000; i++) {
        real z = (real)(-4 + 8 * (i / 8e4));
        long double exact = expl(-(long double)z * z / 2) / sqrtl(2 * 3.14159265358979323846264338327950288L);
        worst = fmax(worst, ulps((double)normal_pdf(z), exact));
    }
    assert_true(worst <= 8);
}

static void test_softmax_crossentropy(void **state)
{
    (void)state;
    const real logits[3] = {1000, 1001, 1002};   /* overflow without the max */
    const int target[1] = {0};
    real probs[3];
    real loss;
    crossentropy_forward(&loss, probs, logits, target, 1, 3);
    double e0 = 1, e1 = exp(1.0), e2 = exp(2.0), s = e0 + e1 + e2;
    assert_true(fabs((double)probs[0] - e0 / s) < 1e-6);
    assert_true(fabs((double)probs[2] - e2 / s) < 1e-6);
    assert_true(fabs((double)loss + log(e0 / s)) < 1e-5);
}

/* ---------------------------------------------------------------- gradients */

#ifdef ATTENTION_DOUBLE
/* The perceptron's backward pass against central finite differences, every
   parameter of every table, on a real batch, in double precision. */
static void test_mlp_gradient_check(void **state)
{
    (void)state;
    Mlp *mlp = malloc(sizeof *mlp);
    assert_non_null(mlp);
    assert_int_equal(mlp_init(mlp, 7), 0);
    Model *m = &mlp->model;
    int batch[16];
    for (int i = 0; i < 16; i++)
        batch[i] = (i * 37 + 11) % N_PROBLEMS;
    for (int t = 0; t < m->p.n_tables; t++) {
        double worst = worst_central_difference(m, batch, 16, t);
        printf("  gradient check %-3s worst relative error %.2e\n", m->p.specs[t].name, worst);
        assert_true(worst < 1e-5);
    }
    mlp_free(mlp);
    free(mlp);
}
#endif

/* ---------------------------------------------------------------- training */

static void test_rng_is_deterministic_and_uniform(void **state)
{
    (void)state;
    Rng a, b;
    rng_seed(&a, 42);
    rng_seed(&b, 42);
    for (int i = 0; i < 100; i++)
        assert_true(rng_next(&a) == rng_next(&b));
    rng_seed(&a, 1);
    double sum = 0, sum2 = 0;
    int counts[10] = {0};
    for (int i = 0; i < 100000; i++) {
        double x = (double)rng_normal(&a);
        sum += x;
        sum2 += x * x;
        counts[rng_below(&a, 10)]++;
    }
    assert_true(fabs(sum / 100000) < 0.02);           /* mean 0 */
    assert_true(fabs(sum2 / 100000 - 1) < 0.02);      /* variance 1 */
    for (int d = 0; d < 10; d++)
        assert_true(counts[d] > 9500 && counts[d] < 10500);
}

/* One Adam step on a single parameter, against the formula done by hand. */
static void test_adam_first_step(void **state)
{
    (void)state;
    static const TableSpec spec[] = {{"w", 1, 2}};
    Params p;
    assert_int_equal(params_alloc(&p, spec, 1), 0);
    p.params[0] = 1;
    p.params[1] = -2;
    p.grads[0] = (real)0.5;
    p.grads[1] = -4;
    TrainConfig cfg = train_defaults();
    adam_step(&p, 1, &cfg);
    /* at t = 1, m_hat = g and v_hat = g^2, so the step is lr * g / (|g| + eps) */
    double lr = (double)cfg.lr, eps = (double)cfg.eps;
    assert_true(fabs((double)p.params[0] - (1 - lr * 0.5 / (0.5 + eps))) < 1e-6);
    assert_true(fabs((double)p.params[1] - (-2 + lr * 4 / (4 + eps))) < 1e-6);
    params_free(&p);
}

#ifndef ATTENTION_DOUBLE
static TrainResult train_mlp(uint64_t seed, TrainRecord *log, int capacity, int stop)
{
    Mlp *mlp = malloc(sizeof *mlp);
    assert_non_null(mlp);
    assert_int_equal(mlp_init(mlp, seed), 0);
    TrainConfig cfg = train_defaults();
    cfg.seed = seed;
    cfg.stop_at_perfect = stop;
    TrainResult r = train(&mlp->model, &cfg, log, capacity);
    mlp_free(mlp);
    free(mlp);
    return r;
}

/* From the default seed the perceptron reaches 100/100, and it stops there
   when asked to. */
static void test_mlp_reaches_perfect_score(void **state)
{
    (void)state;
    static TrainRecord log[400];
    TrainResult r = train_mlp(train_defaults().seed, log, 400, 1);
    assert_true(r.first_perfect > 0);
    assert_int_equal(r.steps_done, r.first_perfect);
    assert_int_equal(log[r.n_records - 1].correct, N_PROBLEMS);
    for (int i = 0; i + 1 < r.n_records; i++)
        assert_true(log[i].correct < N_PROBLEMS);
    printf("  perceptron: 100/100 at step %d\n", r.first_perfect);
}

/* The same seed gives the same records, bit for bit; another seed does not. */
static void test_training_is_deterministic(void **state)
{
    (void)state;
    static TrainRecord a[20], b[20], c[20];
    TrainResult ra = train_mlp(3, a, 20, 0), rb = train_mlp(3, b, 20, 0);
    TrainResult rc = train_mlp(4, c, 20, 0);
    assert_int_equal(ra.n_records, rb.n_records);
    for (int i = 0; i < 20; i++) {      /* each field, named if it differs */
        char what[64];
        snprintf(what, sizeof what, "record %d: the loss", i);
        assert_int_equal(a[i].step, b[i].step);
        expect_same_reals(what, &a[i].loss, &b[i].loss, 1);
        assert_int_equal(a[i].correct, b[i].correct);
        snprintf(what, sizeof what, "record %d: the problems solved", i);
        expect_same_bytes(what, a[i].solved, b[i].solved, N_PROBLEMS);
    }
    assert_int_equal(rc.n_records, ra.n_records);
    assert_memory_not_equal(a, c, sizeof a);
}
#endif

/* the chapter of each test, by its topic (tests/chapters.awk), and the
   function or chunk it checks */
static const ChapterTest tests[] = {
    CHAPTER_TEST("perceptron", "the task", test_vocabulary_round_trip),
    CHAPTER_TEST("perceptron", "problem_tokens", test_problem_strings),
    CHAPTER_TEST("perceptron", "params_alloc", test_params_layout),
    CHAPTER_TEST("perceptron", "mlp_init", test_mlp_has_four_tables),
    CHAPTER_TEST("perceptron", "matmul_forward", test_matmul_small),
    CHAPTER_TEST("perceptron", "gelu_forward", test_gelu_values),
    CHAPTER_TEST("perceptron", "exp_lanes", test_exp_lanes),
    CHAPTER_TEST("perceptron", "normal_cdf", test_normal_cdf),
    CHAPTER_TEST("perceptron", "normal_pdf", test_normal_pdf),
    CHAPTER_TEST("perceptron", "crossentropy_forward", test_softmax_crossentropy),
    CHAPTER_TEST("perceptron", "rng_normal", test_rng_is_deterministic_and_uniform),
    CHAPTER_TEST("perceptron", "adam_step", test_adam_first_step),
#ifdef ATTENTION_DOUBLE
    CHAPTER_TEST("perceptron", "mlp_backward", test_mlp_gradient_check),
#else
    CHAPTER_TEST("perceptron", "train", test_mlp_reaches_perfect_score),
    CHAPTER_TEST("perceptron", "train", test_training_is_deterministic),
#endif
};

int main(int argc, char **argv)
{
#ifdef ATTENTION_DOUBLE
    const char *suite = "core (double)";
#else
    const char *suite = "core";
#endif
    return run_chapter_tests(argc, argv, suite, tests, sizeof tests / sizeof tests[0], NULL, NULL);
}
