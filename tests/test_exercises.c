/* tests/test_exercises.c: the exercises' own tests.  Each test calls the
   one function of its exercise, on fixed inputs, and compares the result
   with an implementation written here, independently of attention.nw:
   a forward pass by its definition, a backward pass against central
   differences of a forward pass written here.  No test calls the
   function of another exercise, so that each exercise can be solved, and
   checked, alone (the course-mode test checks that it can).

   Each test tries its cases from the smallest up and stops at the first
   that fails: the message gives that case's inputs, what was expected and
   what the function gave, and the line of the check that failed (this
   file's, not the comparison helper's).  Where the book compares an
   exercise's result bit for bit with the classic form of attention
   (exercises 6 and 7), the test does too, with the classic form's own
   functions, which are not exercises.

   The core is included, not linked, so that its static helpers
   (attention_scores, rotate, ...) can be called.  Built with real =
   double only: the comparisons are then exact to about 1e-12. */
#include "chapters.h"
#include "core.c"
#include "dissect.c"

#include <stdarg.h>
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

/* ---------------------------------------------------------------- the case tried */

/* The case a test tries now, written out before the call under test
   (case_call, then case_array for each input), for the message of a
   failing check. */
static char case_text[8192];

static void case_append(const char *format, va_list args)
{
    size_t used = strlen(case_text);
    if (used < sizeof case_text - 1)
        vsnprintf(case_text + used, sizeof case_text - used, format, args);
}

static void case_add(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    case_append(format, args);
    va_end(args);
}

/* the call, as C: "attention_softmax(weight, score, t = 1, T = 5)" */
static void case_call(const char *format, ...)
{
    va_list args;
    case_text[0] = '\0';
    case_add("  ");
    va_start(args, format);
    case_append(format, args);
    va_end(args);
    case_add("\n");
}

#define SHOWN 12        /* numbers shown of an array, the rest elided */

static void add_numbers(const double *x, int n)
{
    case_add("{");
    for (int i = 0; i < n && i < SHOWN; i++)
        case_add("%s%.10g", i ? ", " : "", x[i]);
    case_add(n > SHOWN ? ", ... (%d numbers)}" : "}", n);
}

static void case_values(const char *name, const double *x, int n)
{
    case_add("    %s = ", name);
    add_numbers(x, n);
    case_add("\n");
}

static void case_array(const char *name, const real *x, int n)
{
    double shown[SHOWN];
    for (int i = 0; i < n && i < SHOWN; i++) shown[i] = (double)x[i];
    case_values(name, shown, n);
}

/* A check failed: the case, the message, and the line of the check. */
static void fail_case(const char *file, int line, const char *format, ...)
{
    char message[1024];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    print_error("the smallest case that fails:\n%s  %s\n", case_text, message);
    _fail(file, line);
}
#define expect_that(condition, ...) \
    do { if (!(condition)) fail_case(__FILE__, __LINE__, __VA_ARGS__); } while (0)

/* |got - want| <= tol for each of n numbers (tol = 0: the same bits); on
   failure the whole arrays, expected and got, and the first difference */
static void expect_close_at(const char *file, int line, const char *what, const real *got,
                            const double *want, int n, double tol)
{
    for (int i = 0; i < n; i++) {
        double g = (double)got[i];
        if (g == want[i] || fabs(g - want[i]) <= tol) continue;
        double shown[SHOWN];
        for (int j = 0; j < n && j < SHOWN; j++) shown[j] = (double)got[j];
        case_add("  %s expected ", what);
        add_numbers(want, n);
        case_add("\n  %s got      ", what);
        add_numbers(shown, n);
        case_add("\n");
        if (tol == 0)
            fail_case(file, line, "%s[%d] is %a, expected %a: not the same bits", what, i, g, want[i]);
        else
            fail_case(file, line, "%s[%d] is %.17g, expected %.17g (tolerance %g)", what, i, g,
                      want[i], tol);
    }
}
#define expect_close(what, got, want, n, tol) \
    expect_close_at(__FILE__, __LINE__, what, got, want, n, tol)

/* central differences: the step and, for smooth functions of numbers of
   order 1, an error well below the tolerance used with them */
#define H 1e-5
#define DIFF_TOL 1e-7

/* ---------------------------------------------------------------- perceptron */

static double gelu_here(double z) { return z * 0.5 * (1 + erf(z / sqrt(2.0))); }

/* gelu_backward adds d_out times the derivative of GELU, taken here by
   central differences of GELU written from its definition; each number
   alone first, then all nine in one call */
static void test_gelu_backward(void **state)
{
    (void)state;
    enum { N = 9 };
    static const real values[N] = {0, 0.5, -0.5, 1, -1, 2.5, -2.5, 3, 0.125};
    real d_outs[N];
    fill(d_outs, N, 11, 2);
    for (int first = 0; first <= N; first++) {
        int from = first < N ? first : 0, n = first < N ? 1 : N;
        real in[N], out[N], d_out[N], d_in[N];
        double want[N];
        for (int i = 0; i < n; i++) {
            in[i] = values[from + i];
            d_out[i] = d_outs[from + i];
            out[i] = (real)gelu_here((double)in[i]);
            d_in[i] = (real)0.25;               /* backward adds to what is there */
            double slope = (gelu_here((double)in[i] + H) - gelu_here((double)in[i] - H)) / (2 * H);
            want[i] = 0.25 + (double)d_out[i] * slope;
        }
        case_call("gelu_backward(d_in, in, out, d_out, n = %d)", n);
        case_array("in", in, n);
        case_array("out", out, n);
        case_array("d_out", d_out, n);
        case_array("d_in (before)", d_in, n);
        gelu_backward(d_in, in, out, d_out, n);
        expect_close("d_in", d_in, want, n, DIFF_TOL);
    }
}

/* Adam steps against Adam written here from the formula, with the book's
   settings: one number for one step, then six for three steps */
static void test_adam_steps(void **state)
{
    (void)state;
    enum { N = 6 };
    static const TableSpec one[] = {{"w", 1, 1}}, six[] = {{"w", 2, 3}};
    TrainConfig cfg = train_defaults();
    for (int size = 1; size <= N; size += N - 1) {
        Params p;
        double param[N], m[N] = {0}, v[N] = {0};
        assert_int_equal(params_alloc(&p, size == 1 ? one : six, 1), 0);
        fill(p.params, size, 5, 1);
        for (int i = 0; i < size; i++) param[i] = (double)p.params[i];
        for (int t = 1; t <= (size == 1 ? 1 : 3); t++) {
            fill(p.grads, size, 100 + (uint64_t)t, 0.5);
            case_call("adam_step(p, t = %d, cfg) with %d parameters, lr = %g, beta1 = %g, "
                      "beta2 = %g, eps = %g", t, size, (double)cfg.lr, (double)cfg.beta1,
                      (double)cfg.beta2, (double)cfg.eps);
            case_array("params (before)", p.params, size);
            case_array("grads", p.grads, size);
            case_array("m (before)", p.m, size);
            case_array("v (before)", p.v, size);
            adam_step(&p, t, &cfg);
            for (int i = 0; i < size; i++) {
                double g = (double)p.grads[i], b1 = (double)cfg.beta1, b2 = (double)cfg.beta2;
                m[i] = b1 * m[i] + (1 - b1) * g;
                v[i] = b2 * v[i] + (1 - b2) * g * g;
                double m_hat = m[i] / (1 - pow(b1, t)), v_hat = v[i] / (1 - pow(b2, t));
                param[i] -= (double)cfg.lr * m_hat / (sqrt(v_hat) + (double)cfg.eps);
            }
            expect_close("m", p.m, m, size, 1e-12);
            expect_close("v", p.v, v, size, 1e-12);
            expect_close("params", p.params, param, size, 1e-12);
        }
        params_free(&p);
    }
}

/* ---------------------------------------------------------------- embedding */

/* each row is the picked token's row plus the position's row; with no
   position table, the token's row alone: one number of one row first */
static void test_embed_forward(void **state)
{
    (void)state;
    enum { B = 2, T = 3, C = 4 };
    static const int tokens[B * T] = {7, 10, 8, 3, 10, 3};
    static const int sizes[][3] = {{1, 1, 1}, {1, 3, 1}, {B, T, C}};
    real tok_emb[VOCAB * C], pos_emb[SEQ_LEN * C], out[B * T * C];
    double want[B * T * C];
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (int with_positions = 1; with_positions >= 0; with_positions--) {
            int b_n = sizes[k][0], t_n = sizes[k][1], c_n = sizes[k][2], n = b_n * t_n * c_n;
            fill(tok_emb, VOCAB * c_n, 21, 1);
            fill(pos_emb, SEQ_LEN * c_n, 22, 1);
            for (int i = 0; i < n; i++) out[i] = NAN;
            for (int b = 0; b < b_n; b++)
                for (int t = 0; t < t_n; t++)
                    for (int i = 0; i < c_n; i++)
                        want[(b * t_n + t) * c_n + i] = (double)tok_emb[tokens[b * T + t] * c_n + i]
                            + (with_positions ? (double)pos_emb[t * c_n + i] : 0);
            int picked[B * T];
            for (int b = 0; b < b_n; b++)
                for (int t = 0; t < t_n; t++) picked[b * t_n + t] = tokens[b * T + t];
            case_call("embed_forward(out, tokens, tok_emb, %s, B = %d, T = %d, C = %d)",
                      with_positions ? "pos_emb" : "NULL", b_n, t_n, c_n);
            case_add("    tokens = {");
            for (int i = 0; i < b_n * t_n; i++) case_add("%s%d", i ? ", " : "", picked[i]);
            case_add("}\n");
            case_array("tok_emb (row by row)", tok_emb, VOCAB * c_n);
            if (with_positions) case_array("pos_emb (row by row)", pos_emb, SEQ_LEN * c_n);
            embed_forward(out, picked, tok_emb, with_positions ? pos_emb : NULL, b_n, t_n, c_n);
            expect_close("out", out, want, n, 1e-15);
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

/* the sizes tried, smallest first: N rows of C numbers */
enum { LN_N = 3, LN_C = 8 };
static const int ln_sizes[][2] = {{1, 1}, {1, 2}, {1, LN_C}, {LN_N, LN_C}};
#define LN_SIZES (int)(sizeof ln_sizes / sizeof ln_sizes[0])

static void layernorm_inputs(real *in, real *gain, int N, int C)
{
    fill(in, N * C, 31, 2);
    for (int i = 0; i < C; i++) in[i] += 3;      /* a row far from mean 0 */
    fill(gain, C, 32, 1);
}

static void layernorm_case(const char *call, int N, int C, const real *in, const real *gain)
{
    case_call("%s N = %d, C = %d)", call, N, C);
    case_array("in (row by row)", in, N * C);
    case_array("gain", gain, C);
}

static void test_layernorm_forward(void **state)
{
    (void)state;
    for (int k = 0; k < LN_SIZES; k++) {
        int N = ln_sizes[k][0], C = ln_sizes[k][1];
        real in[LN_N * LN_C], gain[LN_C], out[LN_N * LN_C], mean[LN_N], rstd[LN_N];
        double x[LN_C], g[LN_C], want[LN_N * LN_C], want_mean[LN_N], want_rstd[LN_N];
        layernorm_inputs(in, gain, N, C);
        for (int i = 0; i < N * C; i++) out[i] = NAN;
        for (int row = 0; row < N; row++) mean[row] = rstd[row] = NAN;
        for (int i = 0; i < C; i++) g[i] = (double)gain[i];
        for (int row = 0; row < N; row++) {
            for (int i = 0; i < C; i++) x[i] = (double)in[row * C + i];
            layernorm_here(want + row * C, &want_mean[row], &want_rstd[row], x, g, C);
        }
        layernorm_case("layernorm_forward(out, mean, rstd, in, gain,", N, C, in, gain);
        layernorm_forward(out, mean, rstd, in, gain, N, C);
        expect_close("out", out, want, N * C, 1e-12);
        expect_close("mean", mean, want_mean, N, 1e-12);
        expect_close("rstd", rstd, want_rstd, N, 1e-12);
    }
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
    for (int k = 0; k < LN_SIZES; k++) {
        int N = ln_sizes[k][0], C = ln_sizes[k][1];
        real in[LN_N * LN_C], gain[LN_C], d_out[LN_N * LN_C], mean[LN_N], rstd[LN_N];
        real d_in[LN_N * LN_C], d_gain[LN_C];
        double x[LN_C], g[LN_C], dy[LN_C], scratch[LN_C], m, s;
        double want_in[LN_N * LN_C], want_gain[LN_C];
        layernorm_inputs(in, gain, N, C);
        fill(d_out, N * C, 33, 1);
        for (int i = 0; i < C; i++) {
            g[i] = (double)gain[i];
            d_gain[i] = (real)0.5;
            want_gain[i] = 0.5;
        }
        for (int row = 0; row < N; row++) {
            for (int i = 0; i < C; i++) {
                x[i] = (double)in[row * C + i];
                dy[i] = (double)d_out[row * C + i];
            }
            layernorm_here(scratch, &m, &s, x, g, C);   /* what the forward pass kept */
            mean[row] = (real)m;
            rstd[row] = (real)s;
            for (int i = 0; i < C; i++) {
                double saved = x[i];
                x[i] = saved + H;
                double up = layernorm_loss(x, g, dy, C);
                x[i] = saved - H;
                double down = layernorm_loss(x, g, dy, C);
                x[i] = saved;
                d_in[row * C + i] = (real)-0.25;
                want_in[row * C + i] = -0.25 + (up - down) / (2 * H);
                saved = g[i];
                g[i] = saved + H;
                up = layernorm_loss(x, g, dy, C);
                g[i] = saved - H;
                down = layernorm_loss(x, g, dy, C);
                g[i] = saved;
                want_gain[i] += (up - down) / (2 * H);
            }
        }
        layernorm_case("layernorm_backward(d_in, d_gain, d_out, in, gain, mean, rstd,", N, C, in, gain);
        case_array("d_out (row by row)", d_out, N * C);
        case_array("mean", mean, N);
        case_array("rstd", rstd, N);
        case_array("d_in (before)", d_in, N * C);
        case_array("d_gain (before)", d_gain, C);
        layernorm_backward(d_in, d_gain, d_out, in, gain, mean, rstd, N, C);
        expect_close("d_in", d_in, want_in, N * C, DIFF_TOL);
        expect_close("d_gain", d_gain, want_gain, C, DIFF_TOL);
    }
}

/* ---------------------------------------------------------------- forward-pass */

enum { AT_T = 5, AT_C = 16, AT_HEAD = 8 };     /* the book's d_head: sqrt(8) is not exact */

/* The classic form's scores of one head (steps 4 to 6 of the chapter,
   with its own functions): S, T by T, row t the scores of row t. */
static void classic_scores(real *S, const real *q, const real *k, int T, int C, int first,
                           int d_head)
{
    real Q[AT_T * AT_C], K[AT_T * AT_C], K_T[AT_C * AT_T];
    take_columns(Q, q, T, C, first, d_head);
    take_columns(K, k, T, C, first, d_head);
    transpose(K_T, K, T, d_head);
    matmul(S, Q, K_T, T, d_head, T);
    divide_all(S, T * T, sqrt((real)d_head));
    mask_future(S, T);
}

/* The scores of row t of a head: dot products of its query with the keys
   of rows 0 to t, over sqrt(d_head); minus infinity after t.  First one
   row of one number, then each row of the second of two heads.  They must
   be, bit for bit, the classic form's. */
static void test_attention_scores(void **state)
{
    (void)state;
    static const int sizes[][3] = {{1, 1, 1}, {AT_T, AT_C, AT_HEAD}};   /* T, C, d_head */
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int T = sizes[k][0], C = sizes[k][1], d_head = sizes[k][2];
        int first = C - d_head;                   /* the last head's columns */
        real q[AT_T * AT_C], key[AT_T * AT_C], score[AT_T], S[AT_T * AT_T];
        double want[AT_T], classic[AT_T];
        fill(q, T * C, 41, 1);
        fill(key, T * C, 42, 1);
        classic_scores(S, q, key, T, C, first, d_head);
        for (int t = 0; t < T; t++) {
            for (int u = 0; u < T; u++) score[u] = 7;
            case_call("attention_scores(score, q + %d, k + %d, t = %d, T = %d, C = %d, d_head = %d)",
                      t * C + first, first, t, T, C, d_head);
            case_array("q_t", q + t * C + first, d_head);
            for (int u = 0; u <= t; u++) {
                char name[32];
                snprintf(name, sizeof name, "key of row %d", u);
                case_array(name, key + u * C + first, d_head);
            }
            attention_scores(score, q + t * C + first, key + first, t, T, C, d_head);
            for (int u = 0; u < T; u++) {
                double dot = 0;
                for (int i = 0; i < d_head && u <= t; i++)
                    dot += (double)q[t * C + first + i] * (double)key[u * C + first + i];
                want[u] = u <= t ? dot / sqrt((double)d_head) : -INFINITY;
                classic[u] = (double)S[t * T + u];
            }
            expect_close("score", score, want, T, 1e-12);
            case_add("  the same bits as the classic form (steps 4 to 6: each product added, from i = 0,\n"
                     "  to a sum that starts at 0, the sum divided by sqrt(d_head))?\n");
            expect_close("score", score, classic, T, 0);
        }
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

/* Rows t = 0, 1, 2 of large scores (exp of them overflows), then a row
   whose masked scores, after t, are far above the visible ones (their
   largest is no part of the softmax: exp of a visible score minus it
   would be 0), then a whole row of ordinary ones; the weights after t
   are 0.  They must be, bit for bit, what the classic form's
   softmax_rows makes of the masked row. */
static void test_attention_softmax(void **state)
{
    (void)state;
    real large[AT_T] = {1000, 1001, 999.5, -INFINITY, -INFINITY}, ordinary[AT_T];
    real masked_above[AT_T] = {0.5, -0.25, 900, 2, 1000};
    fill(ordinary, AT_T, 43, 3);
    for (int k = 0; k < 5; k++) {
        int t = k < 3 ? k : k == 3 ? 1 : AT_T - 1;
        real score[AT_T], weight[AT_T], row[AT_T];
        double s[AT_T], want[AT_T], classic[AT_T];
        for (int u = 0; u < AT_T; u++) {
            score[u] = k < 3 ? large[u] : k == 3 ? masked_above[u] : ordinary[u];
            weight[u] = 7;
            s[u] = (double)score[u];
            row[u] = u <= t ? score[u] : -INFINITY;    /* the classic form's masked row */
        }
        softmax_here(want, s, t);
        for (int u = t + 1; u < AT_T; u++) want[u] = 0;
        softmax_rows(row, 1, AT_T);
        for (int u = 0; u < AT_T; u++) classic[u] = (double)row[u];
        case_call("attention_softmax(weight, score, t = %d, T = %d)", t, AT_T);
        case_array("score", score, AT_T);
        attention_softmax(weight, score, t, AT_T);
        expect_close("weight", weight, want, AT_T, 1e-12);
        case_add("  the same bits as the classic form (softmax_rows: exp(score - largest score), the\n"
                 "  sum of those from u = 0, each divided by the sum)?\n");
        expect_close("weight", weight, classic, AT_T, 0);
    }
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
    real score[AT_T], d_weight[AT_T];
    fill(score, AT_T, 44, 2);
    fill(d_weight, AT_T, 45, 1);
    for (int t = 0; t < AT_T - 1; t++) {
        real d_score[AT_T], weight[AT_T];
        double s[AT_T], dw[AT_T], w[AT_T], want[AT_T];
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
        case_call("attention_softmax_backward(d_score, d_weight, weight, t = %d)", t);
        case_array("scores (that gave the weights)", score, t + 1);
        case_array("weight", weight, AT_T);
        case_array("d_weight", d_weight, AT_T);
        case_array("d_score (before)", d_score, AT_T);
        attention_softmax_backward(d_score, d_weight, weight, t);
        expect_close("d_score", d_score, want, AT_T, DIFF_TOL);
    }
}

/* ---------------------------------------------------------------- ffn */

/* One rotation in the plane (p, q): it zeroes a[p][q] and a[q][p], leaves
   every other row and column alone, keeps a symmetric, turns the
   identity into an orthogonal V with V^T A V the new a, and turns by the
   smaller of the two angles that zero the entry (|angle| <= 45 degrees,
   so the cosine V[p][p] is at least 1/sqrt(2)).  A 2 by 2 matrix first,
   then three planes of a 4 by 4 one. */
static void test_rotate(void **state)
{
    (void)state;
    enum { MAX_N = 4 };
    static const int planes[][3] = {{2, 0, 1}, {4, 1, 3}, {4, 0, 1}, {4, 2, 3}};  /* n, p, q */
    for (size_t plane = 0; plane < sizeof planes / sizeof planes[0]; plane++) {
        int N = planes[plane][0], p = planes[plane][1], q = planes[plane][2];
        real r[MAX_N * MAX_N];
        double a0[MAX_N * MAX_N], a[MAX_N * MAX_N], v[MAX_N * MAX_N];
        fill(r, N * N, 51 + plane, 1);
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                a0[i * N + j] = (double)r[i * N + j] + (double)r[j * N + i] + (i == j ? 2.0 * i : 0);
        memcpy(a, a0, sizeof a);
        for (int i = 0; i < N * N; i++) v[i] = i / N == i % N;
        case_call("rotate(a, vectors, n = %d, p = %d, q = %d), vectors the identity", N, p, q);
        case_values("a (row by row)", a0, N * N);
        rotate(a, v, N, p, q);
        case_values("a after", a, N * N);
        case_values("vectors after", v, N * N);
        expect_that(fabs(a[p * N + q]) < 1e-12 && fabs(a[q * N + p]) < 1e-12,
                    "a[p][q] = %g and a[q][p] = %g, expected 0", a[p * N + q], a[q * N + p]);
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                expect_that(fabs(a[i * N + j] - a[j * N + i]) <= 1e-12,
                            "a is not symmetric at (%d, %d)", i, j);
                expect_that(i == p || i == q || j == p || j == q || a[i * N + j] == a0[i * N + j],
                            "a[%d][%d] changed, outside rows and columns p and q", i, j);
                double vtv = 0, vtav = 0;
                for (int k = 0; k < N; k++) {
                    vtv += v[k * N + i] * v[k * N + j];
                    for (int l = 0; l < N; l++)
                        vtav += v[k * N + i] * a0[k * N + l] * v[l * N + j];
                }
                expect_that(fabs(vtv - (i == j)) <= 1e-12, "V is not orthogonal at (%d, %d)", i, j);
                expect_that(fabs(vtav - a[i * N + j]) <= 1e-12,
                            "(V^T A V)[%d][%d] = %g, but a holds %g", i, j, vtav, a[i * N + j]);
            }
        expect_that(v[p * N + p] >= sqrt(0.5) - 1e-12 && fabs(v[p * N + p] - v[q * N + q]) < 1e-12,
                    "cosine %g, expected at least 1/sqrt(2): not the smaller angle", v[p * N + p]);
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
