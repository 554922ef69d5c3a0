/* tests/test_exercises.c: the exercises' own tests.  Each test calls the
   one function of its exercise, on fixed inputs, and compares the result
   with an implementation written here, independently of attention.nw:
   a forward pass by its definition, a backward pass against central
   differences of a forward pass written here.  No test calls the
   function of another exercise, so that each exercise can be solved, and
   checked, alone (the course-mode test checks that it can).

   The core is included, not linked, so that its static helpers
   (attention_scores, rotate, ...) can be called.  Built with real =
   double only: the comparisons are then exact to about 1e-12. */
#include "chapters.h"
#include "core.c"
#include "dissect.c"

#include <stdio.h>

/* fixed inputs from a small generator of our own, in [-1, 1) */
static double next_input(uint64_t *state)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    return (double)(*state >> 11) * 0x1.0p-52 - 1;
}

static void fill(real *x, int n, uint64_t seed, double scale)
{
    uint64_t state = seed;
    for (int i = 0; i < n; i++)
        x[i] = (real)(scale * next_input(&state));
}

/* |got - want| <= tol, naming the array and the index that differ */
static void expect_close(const char *what, const real *got, const double *want,
                         int n, double tol)
{
    for (int i = 0; i < n; i++)
        if (!(fabs((double)got[i] - want[i]) <= tol))
            fail_msg("%s[%d] is %.12g, expected %.12g (tolerance %g)", what, i,
                     (double)got[i], want[i], tol);
}

/* central differences: the step and, for smooth functions of numbers of
   order 1, an error well below the tolerance used with them */
#define H 1e-5
#define DIFF_TOL 1e-7

/* ---------------------------------------------------------------- perceptron */

static double gelu_here(double z) { return z * 0.5 * (1 + erf(z / sqrt(2.0))); }

/* gelu_backward adds d_out times the derivative of GELU, taken here by
   central differences of GELU written from its definition */
static void test_gelu_backward(void **state)
{
    (void)state;
    enum { N = 9 };
    real in[N] = {0, 0.5, -0.5, 1, -1, 2.5, -2.5, 3, 0.125}, out[N], d_out[N], d_in[N];
    double want[N];
    fill(d_out, N, 11, 2);
    for (int i = 0; i < N; i++) {
        out[i] = (real)gelu_here((double)in[i]);
        d_in[i] = (real)0.25;               /* backward adds to what is there */
        double slope = (gelu_here((double)in[i] + H) - gelu_here((double)in[i] - H)) / (2 * H);
        want[i] = 0.25 + (double)d_out[i] * slope;
    }
    gelu_backward(d_in, in, out, d_out, N);
    expect_close("d_in", d_in, want, N, DIFF_TOL);
}

/* three Adam steps against Adam written here from the formula, with the
   book's settings */
static void test_adam_steps(void **state)
{
    (void)state;
    enum { N = 6 };
    static const TableSpec spec[] = {{"w", 2, 3}};
    Params p;
    TrainConfig cfg = train_defaults();
    double param[N], m[N] = {0}, v[N] = {0};
    assert_int_equal(params_alloc(&p, spec, 1), 0);
    fill(p.params, N, 5, 1);
    for (int i = 0; i < N; i++) param[i] = (double)p.params[i];
    for (int t = 1; t <= 3; t++) {
        fill(p.grads, N, 100 + (uint64_t)t, 0.5);
        adam_step(&p, t, &cfg);
        for (int i = 0; i < N; i++) {
            double g = (double)p.grads[i], b1 = (double)cfg.beta1, b2 = (double)cfg.beta2;
            m[i] = b1 * m[i] + (1 - b1) * g;
            v[i] = b2 * v[i] + (1 - b2) * g * g;
            double m_hat = m[i] / (1 - pow(b1, t)), v_hat = v[i] / (1 - pow(b2, t));
            param[i] -= (double)cfg.lr * m_hat / (sqrt(v_hat) + (double)cfg.eps);
        }
        expect_close("m", p.m, m, N, 1e-12);
        expect_close("v", p.v, v, N, 1e-12);
        expect_close("params", p.params, param, N, 1e-12);
    }
    params_free(&p);
}

/* ---------------------------------------------------------------- embedding */

/* each row is the picked token's row plus the position's row; with no
   position table, the token's row alone */
static void test_embed_forward(void **state)
{
    (void)state;
    enum { B = 2, T = 3, C = 4 };
    static const int tokens[B * T] = {7, 10, 8, 3, 10, 3};
    real tok_emb[VOCAB * C], pos_emb[SEQ_LEN * C], out[B * T * C];
    double want[B * T * C];
    fill(tok_emb, VOCAB * C, 21, 1);
    fill(pos_emb, SEQ_LEN * C, 22, 1);
    for (int with_positions = 1; with_positions >= 0; with_positions--) {
        for (int i = 0; i < B * T * C; i++) out[i] = NAN;
        for (int b = 0; b < B; b++)
            for (int t = 0; t < T; t++)
                for (int i = 0; i < C; i++)
                    want[(b * T + t) * C + i] = (double)tok_emb[tokens[b * T + t] * C + i]
                        + (with_positions ? (double)pos_emb[t * C + i] : 0);
        embed_forward(out, tokens, tok_emb, with_positions ? pos_emb : NULL, B, T, C);
        expect_close(with_positions ? "out" : "out (no positions)", out, want, B * T * C, 1e-15);
    }
}

/* ---------------------------------------------------------------- training */

/* LayerNorm of one row, from its definition: out, mean and 1/sd */
static void layernorm_here(double *out, double *mean, double *rstd, const double *x,
                           const double *gain, int C)
{
    double m = 0, var = 0;
    for (int i = 0; i < C; i++) m += x[i] / C;
    for (int i = 0; i < C; i++) var += (x[i] - m) * (x[i] - m) / C;
    *mean = m;
    *rstd = 1 / sqrt(var + (double)LN_EPS);
    for (int i = 0; i < C; i++) out[i] = (x[i] - m) * *rstd * gain[i];
}

enum { LN_N = 3, LN_C = 8 };

static void layernorm_inputs(real *in, real *gain)
{
    fill(in, LN_N * LN_C, 31, 2);
    for (int i = 0; i < LN_C; i++) in[i] += 3;      /* a row far from mean 0 */
    fill(gain, LN_C, 32, 1);
}

static void test_layernorm_forward(void **state)
{
    (void)state;
    real in[LN_N * LN_C], gain[LN_C], out[LN_N * LN_C], mean[LN_N], rstd[LN_N];
    double x[LN_C], g[LN_C], want[LN_N * LN_C], want_mean[LN_N], want_rstd[LN_N];
    layernorm_inputs(in, gain);
    for (int i = 0; i < LN_N * LN_C; i++) out[i] = NAN;
    for (int row = 0; row < LN_N; row++) mean[row] = rstd[row] = NAN;
    for (int i = 0; i < LN_C; i++) g[i] = (double)gain[i];
    for (int row = 0; row < LN_N; row++) {
        for (int i = 0; i < LN_C; i++) x[i] = (double)in[row * LN_C + i];
        layernorm_here(want + row * LN_C, &want_mean[row], &want_rstd[row], x, g, LN_C);
    }
    layernorm_forward(out, mean, rstd, in, gain, LN_N, LN_C);
    expect_close("out", out, want, LN_N * LN_C, 1e-12);
    expect_close("mean", mean, want_mean, LN_N, 1e-12);
    expect_close("rstd", rstd, want_rstd, LN_N, 1e-12);
}

/* the loss sum(dy * LayerNorm(x)) of one row, for the differences */
static double layernorm_loss(const double *x, const double *gain, const double *dy, int C)
{
    double out[LN_C], mean, rstd, loss = 0;
    layernorm_here(out, &mean, &rstd, x, gain, C);
    for (int i = 0; i < C; i++) loss += dy[i] * out[i];
    return loss;
}

/* layernorm_backward adds the gradients of that loss, with respect to the
   input and the gain, as central differences find them */
static void test_layernorm_backward(void **state)
{
    (void)state;
    real in[LN_N * LN_C], gain[LN_C], d_out[LN_N * LN_C], mean[LN_N], rstd[LN_N];
    real d_in[LN_N * LN_C], d_gain[LN_C];
    double x[LN_C], g[LN_C], dy[LN_C], scratch[LN_C], m, s;
    double want_in[LN_N * LN_C], want_gain[LN_C];
    layernorm_inputs(in, gain);
    fill(d_out, LN_N * LN_C, 33, 1);
    for (int i = 0; i < LN_C; i++) {
        g[i] = (double)gain[i];
        d_gain[i] = (real)0.5;
        want_gain[i] = 0.5;
    }
    for (int row = 0; row < LN_N; row++) {
        for (int i = 0; i < LN_C; i++) {
            x[i] = (double)in[row * LN_C + i];
            dy[i] = (double)d_out[row * LN_C + i];
        }
        layernorm_here(scratch, &m, &s, x, g, LN_C);   /* what the forward pass kept */
        mean[row] = (real)m;
        rstd[row] = (real)s;
        for (int i = 0; i < LN_C; i++) {
            double saved = x[i];
            x[i] = saved + H;
            double up = layernorm_loss(x, g, dy, LN_C);
            x[i] = saved - H;
            double down = layernorm_loss(x, g, dy, LN_C);
            x[i] = saved;
            d_in[row * LN_C + i] = (real)-0.25;
            want_in[row * LN_C + i] = -0.25 + (up - down) / (2 * H);
            saved = g[i];
            g[i] = saved + H;
            up = layernorm_loss(x, g, dy, LN_C);
            g[i] = saved - H;
            down = layernorm_loss(x, g, dy, LN_C);
            g[i] = saved;
            want_gain[i] += (up - down) / (2 * H);
        }
    }
    layernorm_backward(d_in, d_gain, d_out, in, gain, mean, rstd, LN_N, LN_C);
    expect_close("d_in", d_in, want_in, LN_N * LN_C, DIFF_TOL);
    expect_close("d_gain", d_gain, want_gain, LN_C, DIFF_TOL);
}

/* ---------------------------------------------------------------- forward-pass */

enum { AT_T = 5, AT_C = 8, AT_HEAD = 4 };

/* the scores of row t of the second head: dot products of its query with
   the keys of rows 0 to t, over sqrt(d_head); minus infinity after t */
static void test_attention_scores(void **state)
{
    (void)state;
    real q[AT_T * AT_C], k[AT_T * AT_C], score[AT_T];
    double want[AT_T];
    int first = AT_HEAD;                      /* the second head's columns */
    fill(q, AT_T * AT_C, 41, 1);
    fill(k, AT_T * AT_C, 42, 1);
    for (int t = 0; t < AT_T; t++) {
        for (int u = 0; u < AT_T; u++) score[u] = 7;
        attention_scores(score, q + t * AT_C + first, k + first, t, AT_T, AT_C, AT_HEAD);
        for (int u = 0; u <= t; u++) {
            double dot = 0;
            for (int i = 0; i < AT_HEAD; i++)
                dot += (double)q[t * AT_C + first + i] * (double)k[u * AT_C + first + i];
            want[u] = dot / sqrt((double)AT_HEAD);
        }
        expect_close("score", score, want, t + 1, 1e-12);
        for (int u = t + 1; u < AT_T; u++)
            if (!(isinf(score[u]) && score[u] < 0))
                fail_msg("score[%d] of row %d is %g, expected minus infinity (masked)",
                         u, t, (double)score[u]);
    }
}

/* softmax of the scores of rows 0 to t, from its definition, in long
   double so that large scores cannot overflow */
static void softmax_here(double *weight, const double *score, int t)
{
    long double sum = 0;
    for (int u = 0; u <= t; u++) sum += expl((long double)score[u]);
    for (int u = 0; u <= t; u++) weight[u] = (double)(expl((long double)score[u]) / sum);
}

static void test_attention_softmax(void **state)
{
    (void)state;
    real score[AT_T] = {1000, 1001, 999.5, -INFINITY, -INFINITY}, weight[AT_T];
    double s[AT_T], want[AT_T];
    for (int t = 0; t < 3; t++) {
        for (int u = 0; u < AT_T; u++) { weight[u] = 7; s[u] = (double)score[u]; }
        softmax_here(want, s, t);
        attention_softmax(weight, score, t, AT_T);
        expect_close("weight", weight, want, t + 1, 1e-12);
        for (int u = t + 1; u < AT_T; u++)
            if (weight[u] != 0)
                fail_msg("weight[%d] of row %d is %g, expected 0 (masked)", u, t,
                         (double)weight[u]);
    }
    fill(score, AT_T, 43, 3);                  /* ordinary scores, the whole row */
    for (int u = 0; u < AT_T; u++) s[u] = (double)score[u];
    softmax_here(want, s, AT_T - 1);
    attention_softmax(weight, score, AT_T - 1, AT_T);
    expect_close("weight", weight, want, AT_T, 1e-12);
}

/* attention_softmax_backward adds the gradient, with respect to the
   scores, of sum(d_weight * softmax(scores)), as central differences of
   the softmax written here find it; cells after t are left alone */
static double softmax_loss(const double *score, const double *d_weight, int t)
{
    double weight[AT_T], loss = 0;
    softmax_here(weight, score, t);
    for (int u = 0; u <= t; u++) loss += d_weight[u] * weight[u];
    return loss;
}

static void test_attention_softmax_backward(void **state)
{
    (void)state;
    real score[AT_T], d_weight[AT_T], d_score[AT_T], weight[AT_T];
    double s[AT_T], dw[AT_T], w[AT_T], want[AT_T];
    int t = 3;
    fill(score, AT_T, 44, 2);
    fill(d_weight, AT_T, 45, 1);
    for (int u = 0; u < AT_T; u++) { s[u] = (double)score[u]; dw[u] = (double)d_weight[u]; }
    softmax_here(w, s, t);
    for (int u = 0; u < AT_T; u++) {
        weight[u] = u <= t ? (real)w[u] : 0;
        d_score[u] = (real)0.125;
        want[u] = 0.125;
    }
    for (int u = 0; u <= t; u++) {
        double saved = s[u];
        s[u] = saved + H;
        double up = softmax_loss(s, dw, t);
        s[u] = saved - H;
        double down = softmax_loss(s, dw, t);
        s[u] = saved;
        want[u] += (up - down) / (2 * H);
    }
    attention_softmax_backward(d_score, d_weight, weight, t);
    expect_close("d_score", d_score, want, AT_T, DIFF_TOL);
}

/* ---------------------------------------------------------------- ffn */

/* One rotation in the plane (p, q): it zeroes a[p][q] and a[q][p], leaves
   every other row and column alone, keeps a symmetric, turns the
   identity into an orthogonal V with V^T A V the new a, and turns by the
   smaller of the two angles that zero the entry (|angle| <= 45 degrees,
   so the cosine V[p][p] is at least 1/sqrt(2)). */
static void test_rotate(void **state)
{
    (void)state;
    enum { N = 4 };
    static const int planes[][2] = {{1, 3}, {0, 1}, {2, 3}};
    for (size_t plane = 0; plane < sizeof planes / sizeof planes[0]; plane++) {
        int p = planes[plane][0], q = planes[plane][1];
        real r[N * N];
        double a0[N * N], a[N * N], v[N * N];
        fill(r, N * N, 51 + plane, 1);
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                a0[i * N + j] = (double)r[i * N + j] + (double)r[j * N + i] + (i == j ? 2.0 * i : 0);
        memcpy(a, a0, sizeof a);
        for (int i = 0; i < N * N; i++) v[i] = i / N == i % N;
        rotate(a, v, N, p, q);
        if (!(fabs(a[p * N + q]) < 1e-12 && fabs(a[q * N + p]) < 1e-12))
            fail_msg("plane (%d, %d): a[p][q] = %g and a[q][p] = %g, expected 0", p, q,
                     a[p * N + q], a[q * N + p]);
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                if (fabs(a[i * N + j] - a[j * N + i]) > 1e-12)
                    fail_msg("plane (%d, %d): a is not symmetric at (%d, %d)", p, q, i, j);
                if (i != p && i != q && j != p && j != q && a[i * N + j] != a0[i * N + j])
                    fail_msg("plane (%d, %d): a[%d][%d] changed", p, q, i, j);
                double vtv = 0, vtav = 0;
                for (int k = 0; k < N; k++) {
                    vtv += v[k * N + i] * v[k * N + j];
                    for (int l = 0; l < N; l++)
                        vtav += v[k * N + i] * a0[k * N + l] * v[l * N + j];
                }
                if (fabs(vtv - (i == j)) > 1e-12)
                    fail_msg("plane (%d, %d): V is not orthogonal at (%d, %d)", p, q, i, j);
                if (fabs(vtav - a[i * N + j]) > 1e-12)
                    fail_msg("plane (%d, %d): (V^T A V)[%d][%d] = %g, but a holds %g",
                             p, q, i, j, vtav, a[i * N + j]);
            }
        if (!(v[p * N + p] >= sqrt(0.5) - 1e-12 && fabs(v[p * N + p] - v[q * N + q]) < 1e-12))
            fail_msg("plane (%d, %d): cosine %g, expected at least 1/sqrt(2): not the smaller angle",
                     p, q, v[p * N + p]);
    }
}

/* the chapter of each exercise's tests, by its topic (tests/chapters.awk),
   and the function of the exercise */
static const ChapterTest tests[] = {
    CHAPTER_TEST("perceptron", "gelu_backward", test_gelu_backward),
    CHAPTER_TEST("perceptron", "adam_step", test_adam_steps),
    CHAPTER_TEST("embedding", "embed_forward", test_embed_forward),
    CHAPTER_TEST("training", "layernorm_forward", test_layernorm_forward),
    CHAPTER_TEST("training", "layernorm_backward", test_layernorm_backward),
    CHAPTER_TEST("forward-pass", "attention_scores", test_attention_scores),
    CHAPTER_TEST("forward-pass", "attention_softmax", test_attention_softmax),
    CHAPTER_TEST("forward-pass", "attention_softmax_backward", test_attention_softmax_backward),
    CHAPTER_TEST("ffn", "rotate", test_rotate),
};

int main(int argc, char **argv)
{
    return run_chapter_tests(argc, argv, "exercises", tests, sizeof tests / sizeof tests[0],
                             NULL, NULL);
}
