/* core.c: data, models, training (tangled; edit attention.nw) */
#include "core.h"
#include "exercises.h"
#include <stdio.h>          /* snprintf only: the core does no I/O */
#include <stdlib.h>
#include <string.h>
#include <tgmath.h>

static void mlp_backward(Mlp *mlp, int n, real scale);

static int gpt_grade(Model *m, unsigned char solved[N_PROBLEMS]);

static const uint64_t BATCH_STREAM = 0x5bd1e995u;

enum { MATMUL_MAX = 64 * 64 };

static const uint64_t LAYOUT_STREAM = 0x6c61796f75747321u;  /* "layouts!" */

#ifndef M_SQRT1_2
#define M_SQRT1_2 0.70710678118654752440
#endif
#ifndef M_2_SQRTPI
#define M_2_SQRTPI 1.12837916709551257390
#endif

void rng_seed(Rng *rng, uint64_t seed) { rng->state = seed; }

uint64_t rng_next(Rng *rng)
{
    uint64_t z = (rng->state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

double rng_uniform(Rng *rng)
{
    return (double)(rng_next(rng) >> 11) * 0x1.0p-53;
}

int rng_below(Rng *rng, int n) { return (int)(rng_uniform(rng) * n); }

real rng_normal(Rng *rng)
{
    double u1 = 1.0 - rng_uniform(rng), u2 = rng_uniform(rng);
    return (real)(sqrt(-2.0 * log(u1))
                  * cos(2.0 * 3.14159265358979323846 * u2));
}

static const char vocabulary[VOCAB + 1] = "0123456789*=;";

int token_of_char(int c)
{
    for (int token = 0; token < VOCAB; token++)
        if (vocabulary[token] == c)
            return token;
    return -1;                      /* not in the vocabulary */
}

char char_of_token(int token)
{
    return token >= 0 && token < VOCAB ? vocabulary[token] : '?';
}

int problem_answer(int p, char answer[8])
{
    int product = (p / 10) * (p % 10), n = 0;
    if (product >= 10)
        answer[n++] = (char)('0' + product / 10);
    answer[n++] = (char)('0' + product % 10);
    answer[n++] = ';';
    answer[n] = '\0';
    return n;
}

int problem_tokens(int p, int tokens[SEQ_LEN])
{
    char answer[8];
    int n = 0, length = problem_answer(p, answer);
    tokens[n++] = p / 10;
    tokens[n++] = TOK_TIMES;
    tokens[n++] = p % 10;
    tokens[n++] = TOK_EQUALS;
    for (int i = 0; i < length; i++)
        tokens[n++] = token_of_char(answer[i]);
    return n;
}

const char *const layouts[N_ALL_LAYOUTS] = {
    "a*b=", ";;a*b=", "a;*b=", "a*;;b=", ";a;;*b=", ";;;a*;b=",
    "a*b;;;;=", "a;*b;;;=", ";a*b;;;=", ";;a*b;;=", ";;a;*b;=", ";;;a*b;=",
};

int layout_tokens(int p, int which, int tokens[MAX_T])
{
    char answer[8];
    int n = 0, length = problem_answer(p, answer);
    for (const char *c = layouts[which]; *c != '\0'; c++)
        tokens[n++] = *c == 'a' ? p / 10
                    : *c == 'b' ? p % 10 : token_of_char(*c);
    for (int i = 0; i < length; i++)
        tokens[n++] = token_of_char(answer[i]);
    return n;
}

int operands_of_tokens(const int *tokens, int T, int *a, int *b)
{
    int digits[2], found = 0;
    for (int t = 0; t < T && tokens[t] != TOK_EQUALS; t++)
        if (tokens[t] < N_DIGITS && found < 2)
            digits[found++] = tokens[t];    /* ';' and '*' are skipped */
    if (found != 2)
        return -1;
    *a = digits[0];
    *b = digits[1];
    return 0;
}

int params_alloc(Params *p, const TableSpec *specs, int n_tables)
{
    memset(p, 0, sizeof *p);
    if (n_tables < 1 || n_tables > MAX_TABLES)
        return -1;
    p->n_tables = n_tables;
    p->specs = specs;
    for (int i = 0; i < n_tables; i++)
        p->n_params += (size_t)specs[i].rows * (size_t)specs[i].cols;
    p->params = calloc(4 * p->n_params, sizeof(real));
    if (p->params == NULL)
        return -1;
    p->grads = p->params + p->n_params;
    p->m = p->grads + p->n_params;
    p->v = p->m + p->n_params;
    size_t offset = 0;
    for (int i = 0; i < n_tables; i++) {
        p->table[i] = p->params + offset;
        p->grad[i] = p->grads + offset;
        offset += (size_t)specs[i].rows * (size_t)specs[i].cols;
    }
    return 0;
}

void params_free(Params *p)
{
    free(p->params);
    memset(p, 0, sizeof *p);
}

static inline void product_rows(real *restrict out, const real *restrict in,
                                const real *restrict weight,
                                int n, int c_in, int c_out)
{
    for (int row = 0; row < n; row++) {
        const real *x = in + row * c_in;
        real *y = out + row * c_out;
        for (int i = 0; i < c_in; i++)  /* add x_i times row i of W */
            for (int j = 0; j < c_out; j++)
                y[j] += x[i] * weight[i * c_out + j];
    }
}

static void add_product(real *restrict out, const real *restrict in,
                        const real *restrict weight, int n, int c_in,
                        int c_out)
{
    switch (c_out) {            /* the same loops, compiled four ways */
    case 32: product_rows(out, in, weight, n, c_in, 32); break;
    case 64: product_rows(out, in, weight, n, c_in, 64); break;
    case VOCAB: product_rows(out, in, weight, n, c_in, VOCAB); break;
    default: product_rows(out, in, weight, n, c_in, c_out);
    }
}

void matmul_forward(real *restrict out, const real *restrict in,
                    const real *restrict weight, const real *restrict bias,
                    int n, int c_in, int c_out)
{
    for (int row = 0; row < n; row++)
        for (int j = 0; j < c_out; j++)
            out[row * c_out + j] = bias ? bias[j] : 0;
    add_product(out, in, weight, n, c_in, c_out);
}

static void transpose(real *out, const real *a, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[c * rows + r] = a[r * cols + c];
}

static inline void weight_gradient(real *restrict d_weight,
                                   const real *restrict in,
                                   const real *restrict d_out,
                                   int n, int c_in, int c_out)
{
    for (int i = 0; i < c_in; i++) {
        real *dw = d_weight + i * c_out;
        for (int row = 0; row < n; row++)       /* row i of dW += x_i dy */
            for (int j = 0; j < c_out; j++)
                dw[j] += in[row * c_in + i] * d_out[row * c_out + j];
    }
}

void matmul_backward(real *restrict d_in, real *restrict d_weight,
                     real *restrict d_bias, const real *restrict d_out,
                     const real *restrict in, const real *restrict weight,
                     int n, int c_in, int c_out)
{
    real transposed[MATMUL_MAX];
    if (d_in) {                                 /* d_in += d_out W^T */
        transpose(transposed, weight, c_in, c_out);
        add_product(d_in, d_out, transposed, n, c_out, c_in);
    }
    if (d_weight)
        switch (c_out) {
        case 32: weight_gradient(d_weight, in, d_out, n, c_in, 32); break;
        case 64: weight_gradient(d_weight, in, d_out, n, c_in, 64); break;
        case VOCAB:
            weight_gradient(d_weight, in, d_out, n, c_in, VOCAB);
            break;
        default: weight_gradient(d_weight, in, d_out, n, c_in, c_out);
        }
    for (int row = 0; d_bias && row < n; row++)
        for (int j = 0; j < c_out; j++)
            d_bias[j] += d_out[row * c_out + j];
}

void gelu_forward(real *out, const real *in, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = in[i] * normal_cdf(in[i]);
}

void gelu_backward(real *d_in, const real *in, const real *out,
                   const real *d_out, int n)
{
    for (int i = 0; i < n; i++) {
        /* Phi(z), from the forward pass */
        real cdf = in[i] != 0 ? out[i] / in[i] : (real)0.5;
        d_in[i] += d_out[i] * (cdf + in[i] * normal_pdf(in[i]));
    }
}

void crossentropy_forward(real *losses, real *probs, const real *logits,
                          const int *targets, int n, int n_classes)
{
    for (int row = 0; row < n; row++) {
        const real *logit = logits + row * n_classes;
        real *prob = probs + row * n_classes, max = logit[0], sum = 0;
        for (int i = 1; i < n_classes; i++)
            if (logit[i] > max)
                max = logit[i];
        for (int i = 0; i < n_classes; i++) {
            prob[i] = exp(logit[i] - max);
            sum += prob[i];
        }
        for (int i = 0; i < n_classes; i++)
            prob[i] = prob[i] / sum;
        losses[row] = targets[row] < 0 ? 0 : -log(prob[targets[row]]);
    }
}

void crossentropy_backward(real *d_logits, const real *probs,
                           const int *targets, real scale, int n,
                           int n_classes)
{
    for (int row = 0; row < n; row++) {
        if (targets[row] < 0)
            continue;
        for (int i = 0; i < n_classes; i++) {
            real indicator = i == targets[row] ? 1 : 0;
            d_logits[row * n_classes + i] +=
                (probs[row * n_classes + i] - indicator) * scale;
        }
    }
}

int argmax(const real *x, int n)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (x[i] > x[best])
            best = i;
    return best;
}

#ifdef ATTENTION_DOUBLE
real exp_lanes(real x) { return exp(x); }
real normal_cdf(real z) { return erfc(-z * M_SQRT1_2) / 2; }
#else
static const real taylor[8] = {                         /* 1 / k! */
    1, 1, (real)1 / 2, (real)1 / 6, (real)1 / 24, (real)1 / 120,
    (real)1 / 720, (real)1 / 5040,
};

real exp_lanes(real x)
{
    const real shift = 12582912;                       /* 1.5 * 2^23 */
    real edge = x < -87 ? 0 : x > 88 ? (real)INFINITY : 1;
    x = x < -87 ? -87 : x > 88 ? 88 : x;
    real shifted = x * (real)1.44269504088896341 + shift;   /* x / ln 2 */
    real n = shifted - shift;
    real r = (x - n * (real)0.693359375) + n * (real)2.12194440e-4;
    real e_r = taylor[7];
    for (int k = 6; k >= 0; k--)
        e_r = e_r * r + taylor[k];
    uint32_t bits;                  /* n is in the low bits of shifted */
    memcpy(&bits, &shifted, sizeof bits);
    bits = (bits - 0x4B400000u + 127) << 23;            /* 2^n */
    real two_to_n;
    memcpy(&two_to_n, &bits, sizeof two_to_n);
    return e_r * two_to_n * edge;
}

inline real normal_cdf(real z)
{
    const real erfc_fit[10] = {  /* P(u) = sum of erfc_fit[i] u^(i+1) */
        -1.25675905f, -0.303209275f, 0.161061093f, 0.195191294f,
        0.0553130358f, -0.0996364132f, 0.106486104f, -0.433224231f,
        0.452957302f, -0.143760189f,
    };
    real a = fabsf(z) * (real)M_SQRT1_2;
    a = a < 10 ? a : 10;              /* past 9.5 the answer is 0 or 1 */
    real u = a / (2 + a), p = 0;
    for (int i = 9; i >= 0; i--)
        p = (p + erfc_fit[i]) * u;
    /* Phi(-|z|) */
    real tail = exp_lanes(p) * exp_lanes(-z * z / 2) / (2 + a);
    return z > 0 ? 1 - tail : tail;
}

#endif

real normal_pdf(real z)
{
    return exp_lanes(-z * z / 2) * (real)(0.5 * M_2_SQRTPI * M_SQRT1_2);
}

enum { MLP_W1, MLP_B1, MLP_W2, MLP_B2, MLP_TABLES };
static const TableSpec mlp_tables[MLP_TABLES] = {
    {"W1", MLP_IN, MLP_HIDDEN}, {"b1", 1, MLP_HIDDEN},
    {"W2", MLP_HIDDEN, MLP_OUT}, {"b2", 1, MLP_OUT},
};

static void mlp_input(Mlp *mlp, int row, int p)
{
    real *x = mlp->x + row * MLP_IN;
    memset(x, 0, MLP_IN * sizeof *x);
    x[p / 10] = 1;                  /* the slot of a */
    x[N_DIGITS + p % 10] = 1;       /* the slot of b */
}

static void mlp_forward(Mlp *mlp, const int *problems, int n)
{
    real *const *t = mlp->model.p.table;
    for (int row = 0; row < n; row++)
        mlp->input(mlp, row, problems[row]);
    matmul_forward(mlp->z, mlp->x, t[MLP_W1], t[MLP_B1], n, mlp->n_in,
                   MLP_HIDDEN);
    gelu_forward(mlp->h, mlp->z, n * MLP_HIDDEN);
    matmul_forward(mlp->logits, mlp->h, t[MLP_W2], t[MLP_B2], n,
                   MLP_HIDDEN, MLP_OUT);
}

static int mlp_answer(Model *m, int p, char answer[8])
{
    Mlp *mlp = (Mlp *)m;
    int n = 0;
    mlp_forward(mlp, &p, 1);
    for (int slot = 0; slot < MLP_SLOTS; slot++) {
        answer[n++] =
            char_of_token(argmax(mlp->logits + slot * VOCAB, VOCAB));
        if (answer[n - 1] == ';')
            break;
    }
    answer[n] = '\0';
    return n;
}

static int mlp_targets(int *targets, const int *problems, int n)
{
    int count = 0;
    for (int row = 0; row < n; row++) {
        char answer[8];
        int length = problem_answer(problems[row], answer);
        for (int slot = 0; slot < MLP_SLOTS; slot++)
            targets[row * MLP_SLOTS + slot] =
                slot < length ? token_of_char(answer[slot]) : -1;
        count += length;
    }
    return count;
}

static real mlp_batch_loss(Model *m, const int *problems, int n,
                           int backward)
{
    Mlp *mlp = (Mlp *)m;
    int rows = n * MLP_SLOTS;
    int count = mlp_targets(mlp->targets, problems, n);
    real loss = 0;
    mlp_forward(mlp, problems, n);
    crossentropy_forward(mlp->losses, mlp->probs, mlp->logits, mlp->targets,
                         rows, VOCAB);
    for (int row = 0; row < rows; row++)
        loss += mlp->losses[row];
    if (backward)
        mlp_backward(mlp, n, (real)1 / count);
    return loss / count;
}

static void mlp_backward(Mlp *mlp, int n, real scale)
{
    real *const *t = mlp->model.p.table, *const *g = mlp->model.p.grad;
    memset(mlp->d_logits, 0, (size_t)n * MLP_OUT * sizeof(real));
    memset(mlp->d_h, 0, (size_t)n * MLP_HIDDEN * sizeof(real));
    memset(mlp->d_z, 0, (size_t)n * MLP_HIDDEN * sizeof(real));
    crossentropy_backward(mlp->d_logits, mlp->probs, mlp->targets, scale,
                          n * MLP_SLOTS, VOCAB);
    matmul_backward(mlp->d_h, g[MLP_W2], g[MLP_B2], mlp->d_logits, mlp->h,
                    t[MLP_W2], n, MLP_HIDDEN, MLP_OUT);
    gelu_backward(mlp->d_z, mlp->z, mlp->h, mlp->d_h, n * MLP_HIDDEN);
    matmul_backward(NULL, g[MLP_W1], g[MLP_B1], mlp->d_z, mlp->x,
                    t[MLP_W1], n, mlp->n_in, MLP_HIDDEN);
}

static void init_matrix(real *w, int rows, int cols, Rng *rng)
{
    real std = 1 / sqrt((real)rows);
    for (int i = 0; i < rows * cols; i++)
        w[i] = std * rng_normal(rng);
}

static int mlp_wire(Mlp *mlp, uint64_t seed,
                    const TableSpec tables[MLP_TABLES],
                    void (*input)(Mlp *mlp, int row, int p))
{
    Rng rng;
    memset(mlp, 0, sizeof *mlp);
    if (params_alloc(&mlp->model.p, tables, MLP_TABLES) != 0)
        return -1;
    mlp->n_in = tables[MLP_W1].rows;
    mlp->input = input;
    rng_seed(&rng, seed);
    init_matrix(mlp->model.p.table[MLP_W1], mlp->n_in, MLP_HIDDEN, &rng);
    init_matrix(mlp->model.p.table[MLP_W2], MLP_HIDDEN, MLP_OUT, &rng);
    mlp->model.batch_loss = mlp_batch_loss;
    mlp->model.answer = mlp_answer;
    return 0;
}

int mlp_init(Mlp *mlp, uint64_t seed)
{
    return mlp_wire(mlp, seed, mlp_tables, mlp_input);
}

void mlp_free(Mlp *mlp) { params_free(&mlp->model.p); }

void embed_forward(real *out, const int *tokens, const real *tok_emb,
                   const real *pos_emb, int B, int T, int C)
{
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            real *x = out + (b * T + t) * C;
            /* a row pick */
            const real *token = tok_emb + tokens[b * T + t] * C;
            const real *pos = pos_emb ? pos_emb + t * C : NULL;
            for (int i = 0; i < C; i++)
                x[i] = pos ? token[i] + pos[i] : token[i];
        }
}

void embed_backward(real *d_tok_emb, real *d_pos_emb, const real *d_out,
                    const int *tokens, int B, int T, int C)
{
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            const real *dx = d_out + (b * T + t) * C;
            real *d_token = d_tok_emb + tokens[b * T + t] * C;
            real *d_pos = d_pos_emb ? d_pos_emb + t * C : NULL;
            for (int i = 0; i < C; i++) {
                d_token[i] += dx[i];
                if (d_pos)
                    d_pos[i] += dx[i];
            }
        }
}

static const real LN_EPS = (real)1e-5;

void layernorm_forward(real *out, real *mean, real *rstd, const real *in,
                       const real *gain, int N, int C)
{
    for (int row = 0; row < N; row++) {
        const real *x = in + row * C;
        real m = 0, var = 0;
        for (int i = 0; i < C; i++)
            m += x[i];
        m = m / C;
        for (int i = 0; i < C; i++)
            var += (x[i] - m) * (x[i] - m);
        var = var / C;
        real s = 1 / sqrt(var + LN_EPS);
        for (int i = 0; i < C; i++)
            out[row * C + i] = (x[i] - m) * s * gain[i];
        mean[row] = m;
        rstd[row] = s;
    }
}

void layernorm_backward(real *restrict d_in, real *restrict d_gain,
                        const real *restrict d_out, const real *restrict in,
                        const real *restrict gain,
                        const real *restrict mean,
                        const real *restrict rstd, int N, int C)
{
    for (int row = 0; row < N; row++) {
        const real *x = in + row * C, *dy = d_out + row * C;
        real m = mean[row], s = rstd[row];
        real d_norm_mean = 0, d_norm_norm_mean = 0;
        for (int i = 0; i < C; i++) {
            real norm = (x[i] - m) * s;
            d_norm_mean += gain[i] * dy[i];
            d_norm_norm_mean += gain[i] * dy[i] * norm;
        }
        d_norm_mean = d_norm_mean / C;
        d_norm_norm_mean = d_norm_norm_mean / C;
        for (int i = 0; i < C; i++) {
            real norm = (x[i] - m) * s;
            real d_norm = gain[i] * dy[i];
            d_gain[i] += dy[i] * norm;
            d_in[row * C + i] +=
                s * (d_norm - d_norm_mean - norm * d_norm_norm_mean);
        }
    }
}

void residual_forward(real *out, const real *a, const real *b, int N)
{
    for (int i = 0; i < N; i++)
        out[i] = a[i] + b[i];
}

void residual_backward(real *d_a, real *d_b, const real *d_out, int N)
{
    for (int i = 0; i < N; i++) {
        d_a[i] += d_out[i];
        d_b[i] += d_out[i];
    }
}

#ifdef ATTENTION_STEPPER
extern int attention_stepping;      /* set only while the stepper runs */
void attention_step(int line, const char *name, int t, int u, int i,
                    double value);
#define STEP(t, u, i, value) (attention_stepping \
    ? attention_step(__LINE__ - 1, #value, t, u, i, value) : (void)0)
#else
#define STEP(t, u, i, value) ((void)0)
#endif

/* q_t (d_head), row t of one head; k (T, C), the head's columns from
   its first; score (T), masked after t */
static void attention_scores(real *score, const real *q_t, const real *k,
                             int t, int T, int C, int d_head)
{
    real root = sqrt((real)d_head);
    for (int u = 0; u <= t; u++) {
        real dot = 0;
        for (int i = 0; i < d_head; i++) {
            dot += q_t[i] * k[u * C + i];
            STEP(t, u, i, dot);
        }
        score[u] = dot / root;
        STEP(t, u, -1, score[u]);
    }
    for (int u = t + 1; u < T; u++)
        score[u] = -INFINITY;
}

/* score and weight (T), one row; weights after t are 0 */
static void attention_softmax(real *weight, const real *score, int t, int T)
{
    real max = -INFINITY, sum = 0;
    for (int u = 0; u <= t; u++) {
        max = score[u] > max ? score[u] : max;
        STEP(t, u, -1, max);
    }
    for (int u = 0; u <= t; u++) {
        weight[u] = exp(score[u] - max);
        STEP(t, u, -1, weight[u]);
        sum += weight[u];
        STEP(t, u, -1, sum);
    }
    for (int u = 0; u <= t; u++) {
        weight[u] = weight[u] / sum;
        STEP(t, u, -1, weight[u]);
    }
    for (int u = t + 1; u < T; u++)
        weight[u] = 0;
}

/* weight (T), one row; v (T, C), the head's columns from its first;
   o_t (d_head) */
void attention_mix(real *restrict o_t, const real *restrict weight,
                   const real *restrict v, int t, int C, int d_head)
{
    for (int i = 0; i < d_head; i++)
        o_t[i] = 0;
    for (int u = 0; u <= t; u++)
        for (int i = 0; i < d_head; i++) {
            o_t[i] += weight[u] * v[u * C + i];
            STEP(t, u, i, o_t[i]);
        }
}

void attention_forward(real *out, real *scores, real *weights,
                       const real *q, const real *k, const real *v,
                       int B, int T, int C, int n_heads, int causal)
{
    int d_head = C / n_heads;
    for (int b = 0; b < B; b++)
        for (int head = 0; head < n_heads; head++)
            for (int t = 0; t < T; t++) {
                int row = b * T + t;
                int cell = ((b * n_heads + head) * T + t) * T;
                int first = b * T * C + head * d_head;
                int reach = causal ? t : T - 1;  /* the last row t reads */
                attention_scores(scores + cell, q + row * C + head * d_head,
                                 k + first, reach, T, C, d_head);
                attention_softmax(weights + cell, scores + cell, reach, T);
                attention_mix(out + row * C + head * d_head, weights + cell,
                              v + first, reach, C, d_head);
            }
}

/* d_o_t (d_head); d_weight and weight (T); v and d_v (T, C), the head's
   columns from its first */
static void attention_mix_backward(real *restrict d_weight,
                                   real *restrict d_v,
                                   const real *restrict d_o_t,
                                   const real *restrict weight,
                                   const real *restrict v, int t, int C,
                                   int d_head)
{
    for (int u = 0; u <= t; u++)
        for (int i = 0; i < d_head; i++) {
            d_weight[u] += d_o_t[i] * v[u * C + i];
            d_v[u * C + i] += weight[u] * d_o_t[i];
        }
}

/* d_score, d_weight and weight (T), one row, read up to t */
static void attention_softmax_backward(real *d_score, const real *d_weight,
                                       const real *weight, int t)
{
    real expected = 0;
    for (int u = 0; u <= t; u++)
        expected += weight[u] * d_weight[u];
    for (int u = 0; u <= t; u++)
        d_score[u] += weight[u] * (d_weight[u] - expected);
}

/* q_t and d_q_t (d_head); k and d_k (T, C), the head's columns from its
   first; d_score (T) */
static void attention_scores_backward(real *restrict d_q_t,
                                      real *restrict d_k,
                                      const real *restrict d_score,
                                      const real *restrict q_t,
                                      const real *restrict k, int t,
                                      int C, int d_head)
{
    real root = sqrt((real)d_head);
    for (int u = 0; u <= t; u++)
        for (int i = 0; i < d_head; i++) {
            d_q_t[i] += d_score[u] * k[u * C + i] / root;
            d_k[u * C + i] += d_score[u] * q_t[i] / root;
        }
}

void attention_backward(real *d_q, real *d_k, real *d_v, real *d_scores,
                        real *d_weights, const real *d_out, const real *q,
                        const real *k, const real *v, const real *weights,
                        int B, int T, int C, int n_heads, int causal)
{
    int d_head = C / n_heads;
    for (int b = 0; b < B; b++)
        for (int head = 0; head < n_heads; head++)
            for (int t = 0; t < T; t++) {
                int row = b * T + t;
                int cell = ((b * n_heads + head) * T + t) * T;
                int first = b * T * C + head * d_head;
                int column = head * d_head;
                int reach = causal ? t : T - 1;
                attention_mix_backward(d_weights + cell, d_v + first,
                                       d_out + row * C + column,
                                       weights + cell, v + first, reach,
                                       C, d_head);
                attention_softmax_backward(d_scores + cell,
                                           d_weights + cell,
                                           weights + cell, reach);
                attention_scores_backward(d_q + row * C + column,
                                          d_k + first, d_scores + cell,
                                          q + row * C + column,
                                          k + first, reach, C, d_head);
            }
}

const Part part_table[N_PARTS] = {
    {"positions", "no_position", "no position vectors", "position vectors"},
    {"mask", "no_mask", "no causal mask", "the causal mask"},
    {"residual", "no_residual", "no residual", "the residual"},
    {"layernorm", "no_layernorm", "no LayerNorm", "LayerNorm"},
    {"gelu", "no_gelu", "no GELU", "GELU"},
};

static real *positions(const Gpt *g, real *const *tables)
{
    return g->ablate & NO_POSITION ? NULL : tables[POS_EMB];
}

static void block_residual(const Gpt *g, real *out, const real *stream,
                           const real *increment, int N)
{
    if (g->ablate & NO_RESIDUAL)
        memcpy(out, increment, (size_t)N * sizeof(real));
    else
        residual_forward(out, stream, increment, N);
}

static void block_residual_backward(const Gpt *g, real *d_stream,
                                    real *d_increment, const real *d_out,
                                    int N)
{
    if (g->ablate & NO_RESIDUAL)
        for (int i = 0; i < N; i++)
            d_increment[i] += d_out[i];
    else
        residual_backward(d_stream, d_increment, d_out, N);
}

Ablation layernorm_switch(Ablation off, int gain)
{
    (void)gain;                     /* "layernorm" turns off all three */
    return off & NO_LAYERNORM;
}

static void block_layernorm(const Gpt *g, real *out, real *mean, real *rstd,
                            const real *in, int gain, int N)
{
    if (layernorm_switch(g->ablate, gain))
        memcpy(out, in, (size_t)N * WIDTH * sizeof(real));
    else
        layernorm_forward(out, mean, rstd, in, g->model.p.table[gain], N,
                          WIDTH);
}

static void block_layernorm_backward(const Gpt *g, real *d_in,
                                     const real *d_out, const real *in,
                                     int gain, const real *mean,
                                     const real *rstd, int N)
{
    const Params *p = &g->model.p;
    if (layernorm_switch(g->ablate, gain))
        for (int i = 0; i < N * WIDTH; i++)
            d_in[i] += d_out[i];
    else
        layernorm_backward(d_in, p->grad[gain], d_out, in, p->table[gain],
                           mean, rstd, N, WIDTH);
}

static void bend_forward(const Ablation *off, real *out, const real *in,
                         int n)
{
    if (*off & NO_GELU)
        memcpy(out, in, (size_t)n * sizeof *out);   /* the identity */
    else
        gelu_forward(out, in, n);
}

static void bend_backward(const Ablation *off, real *d_in, const real *in,
                          const real *out, const real *d_out, int n)
{
    if (!(*off & NO_GELU)) {
        gelu_backward(d_in, in, out, d_out, n);
        return;
    }
    for (int i = 0; i < n; i++)  /* the identity passes the gradient on */
        d_in[i] += d_out[i];
}

int ablated_part(int k)
{
    for (int i = 0; i < N_PARTS; i++)
        if (ABLATED >> i & 1 && k-- == 0)
            return i;
    return -1;
}

const TableSpec gpt_tables[N_GPT_TABLES] = {
    {"tok_emb", VOCAB, WIDTH},  {"pos_emb", SEQ_LEN, WIDTH},
    {"ln1_gain", 1, WIDTH},     {"Wq", WIDTH, WIDTH},
    {"Wk", WIDTH, WIDTH},       {"Wv", WIDTH, WIDTH},
    {"Wo", WIDTH, WIDTH},       {"ln2_gain", 1, WIDTH},
    {"W1", WIDTH, HIDDEN},      {"b1", 1, HIDDEN},
    {"W2", HIDDEN, WIDTH},      {"b2", 1, WIDTH},
    {"lnf_gain", 1, WIDTH},     {"W_out", WIDTH, VOCAB},
};

static real init_std(int table)
{
    switch (table) {
    case LN1_GAIN: case LN2_GAIN: case LNF_GAIN: case B1: case B2:
        return 0;
    case TOK_EMB: case POS_EMB:
        return 1 / sqrt((real)WIDTH);
    default:
        return 1 / sqrt((real)gpt_tables[table].rows);
    }
}

void gpt_init_params(Gpt *g, uint64_t seed)
{
    Params *p = &g->model.p;
    Rng rng;
    rng_seed(&rng, seed);
    for (int table = 0; table < N_GPT_TABLES; table++) {
        int n = p->specs[table].rows * p->specs[table].cols;
        int is_gain = table == LN1_GAIN || table == LN2_GAIN
                      || table == LNF_GAIN;
        real std = init_std(table);
        for (int i = 0; i < n; i++)
            p->table[table][i] = std > 0 ? std * (real)rng_normal(&rng)
                                         : is_gain ? 1 : 0;
    }
    memset(p->m, 0, p->n_params * sizeof(real));
    memset(p->v, 0, p->n_params * sizeof(real));
}

static real *carve(real *memory, size_t *used, size_t n)
{
    real *slot = memory ? memory + *used : NULL;
    *used += n;
    return slot;
}

static size_t layout(Activations *a, real *memory, int B, int T,
                     int n_heads)
{
    size_t used = 0, rows = (size_t)B * T, C = WIDTH;
    size_t cells = rows * (size_t)n_heads * T;
    a->x = carve(memory, &used, rows * C);
    a->ln1 = carve(memory, &used, rows * C);
    a->ln1_mean = carve(memory, &used, rows);
    a->ln1_rstd = carve(memory, &used, rows);
    a->q = carve(memory, &used, rows * C);
    a->k = carve(memory, &used, rows * C);
    a->v = carve(memory, &used, rows * C);
    a->scores = carve(memory, &used, cells);
    a->weights = carve(memory, &used, cells);
    a->heads = carve(memory, &used, rows * C);
    a->attn = carve(memory, &used, rows * C);
    a->x2 = carve(memory, &used, rows * C);
    a->ln2 = carve(memory, &used, rows * C);
    a->ln2_mean = carve(memory, &used, rows);
    a->ln2_rstd = carve(memory, &used, rows);
    a->pre_gelu = carve(memory, &used, rows * HIDDEN);
    a->hidden = carve(memory, &used, rows * HIDDEN);
    a->ffn = carve(memory, &used, rows * C);
    a->x3 = carve(memory, &used, rows * C);
    a->lnf = carve(memory, &used, rows * C);
    a->lnf_mean = carve(memory, &used, rows);
    a->lnf_rstd = carve(memory, &used, rows);
    a->logits = carve(memory, &used, rows * VOCAB);
    a->probs = carve(memory, &used, rows * VOCAB);
    a->losses = carve(memory, &used, rows);
    return used;
}

int gpt_create(Gpt *g, uint64_t seed, int n_heads, int max_batch)
{
    return gpt_create_with_positions(g, seed, n_heads, max_batch, SEQ_LEN);
}

int gpt_create_with_positions(Gpt *g, uint64_t seed, int n_heads,
                              int max_batch, int n_positions)
{
    memset(g, 0, sizeof *g);
    if (n_heads < 1 || n_heads > MAX_HEADS || WIDTH % n_heads
        || max_batch < 1 || n_positions < 1 || n_positions > MAX_T)
        return -1;
    memcpy(g->tables, gpt_tables, sizeof g->tables);
    g->tables[POS_EMB].rows = g->n_positions = n_positions;
    if (params_alloc(&g->model.p, g->tables, N_GPT_TABLES) != 0)
        return -1;
    g->model.batch_loss = gpt_batch_loss;
    g->model.answer = gpt_answer;
    g->model.grade = gpt_grade;
    g->n_heads = n_heads;
    g->max_batch = max_batch;
    size_t size = layout(&g->act, NULL, max_batch, n_positions, n_heads);
    g->act_memory = calloc(size, sizeof(real));
    g->grad_memory = calloc(size, sizeof(real));
    g->tokens = calloc((size_t)max_batch * n_positions, sizeof(int));
    g->targets = calloc((size_t)max_batch * n_positions, sizeof(int));
    if (!g->act_memory || !g->grad_memory || !g->tokens || !g->targets) {
        gpt_destroy(g);
        return -1;
    }
    layout(&g->act, g->act_memory, max_batch, n_positions, n_heads);
    layout(&g->grad, g->grad_memory, max_batch, n_positions, n_heads);
    gpt_init_params(g, seed);
    return 0;
}

void gpt_destroy(Gpt *g)
{
    params_free(&g->model.p);
    free(g->act_memory);
    free(g->grad_memory);
    free(g->tokens);
    free(g->targets);
    memset(g, 0, sizeof *g);
}

void gpt_forward(Gpt *g, const int *tokens, int B, int T)
{
    gpt_forward_to_heads(g, tokens, B, T);
    gpt_forward_from_heads(g);
}

void gpt_forward_to_heads(Gpt *g, const int *tokens, int B, int T)
{
    Activations *a = &g->act;
    real **w = g->model.p.table;
    int N = B * T, C = WIDTH;
    layout(a, g->act_memory, B, T, g->n_heads);
    g->B = B;
    g->T = T;
    embed_forward(a->x, tokens, w[TOK_EMB], positions(g, w), B, T, C);
    block_layernorm(g, a->ln1, a->ln1_mean, a->ln1_rstd, a->x, LN1_GAIN, N);
    matmul_forward(a->q, a->ln1, w[WQ], NULL, N, C, C);
    matmul_forward(a->k, a->ln1, w[WK], NULL, N, C, C);
    matmul_forward(a->v, a->ln1, w[WV], NULL, N, C, C);
    attention_forward(a->heads, a->scores, a->weights, a->q, a->k, a->v,
                      B, T, C, g->n_heads, !(g->ablate & NO_MASK));
}

void gpt_forward_from_heads(Gpt *g)
{
    Activations *a = &g->act;
    real **w = g->model.p.table;
    int N = g->B * g->T, C = WIDTH;
    matmul_forward(a->attn, a->heads, w[WO], NULL, N, C, C);
    block_residual(g, a->x2, a->x, a->attn, N * C);
    block_layernorm(g, a->ln2, a->ln2_mean, a->ln2_rstd, a->x2, LN2_GAIN, N);
    matmul_forward(a->pre_gelu, a->ln2, w[W1], w[B1], N, C, HIDDEN);
    bend_forward(&g->ablate, a->hidden, a->pre_gelu, N * HIDDEN);
    matmul_forward(a->ffn, a->hidden, w[W2], w[B2], N, HIDDEN, C);
    gpt_forward_to_logits(g);
}

void gpt_forward_to_logits(Gpt *g)
{
    Activations *a = &g->act;
    real **w = g->model.p.table;
    int N = g->B * g->T, C = WIDTH;
    block_residual(g, a->x3, a->x2, a->ffn, N * C);
    block_layernorm(g, a->lnf, a->lnf_mean, a->lnf_rstd, a->x3, LNF_GAIN, N);
    matmul_forward(a->logits, a->lnf, w[W_OUT], NULL, N, C, VOCAB);
}

static int count_targets(const int *targets, int N)
{
    int count = 0;
    for (int row = 0; row < N; row++)
        count += targets[row] >= 0;
    return count;
}

real gpt_loss(Gpt *g, const int *targets, int B, int T)
{
    int N = B * T;
    real sum = 0;
    crossentropy_forward(g->act.losses, g->act.probs, g->act.logits,
                         targets, N, VOCAB);
    for (int row = 0; row < N; row++)
        sum += g->act.losses[row];
    return sum / count_targets(targets, N);
}

void gpt_backward(Gpt *g, const int *tokens, const int *targets, int B,
                  int T)
{
    Activations *a = &g->act, *d = &g->grad;
    real **w = g->model.p.table, **dw = g->model.p.grad;
    int N = B * T, C = WIDTH;
    size_t used = layout(d, g->grad_memory, B, T, g->n_heads);
    memset(g->grad_memory, 0, used * sizeof(real));
    real scale = (real)1 / count_targets(targets, N);
    crossentropy_backward(d->logits, a->probs, targets, scale, N, VOCAB);
    matmul_backward(d->lnf, dw[W_OUT], NULL, d->logits, a->lnf, w[W_OUT],
                    N, C, VOCAB);
    block_layernorm_backward(g, d->x3, d->lnf, a->x3, LNF_GAIN, a->lnf_mean,
                             a->lnf_rstd, N);
    block_residual_backward(g, d->x2, d->ffn, d->x3, N * C);
    matmul_backward(d->hidden, dw[W2], dw[B2], d->ffn, a->hidden, w[W2],
                    N, HIDDEN, C);
    bend_backward(&g->ablate, d->pre_gelu, a->pre_gelu, a->hidden, d->hidden,
                  N * HIDDEN);
    matmul_backward(d->ln2, dw[W1], dw[B1], d->pre_gelu, a->ln2, w[W1],
                    N, C, HIDDEN);
    block_layernorm_backward(g, d->x2, d->ln2, a->x2, LN2_GAIN, a->ln2_mean,
                             a->ln2_rstd, N);
    block_residual_backward(g, d->x, d->attn, d->x2, N * C);
    matmul_backward(d->heads, dw[WO], NULL, d->attn, a->heads, w[WO], N, C, C);
    attention_backward(d->q, d->k, d->v, d->scores, d->weights, d->heads,
                       a->q, a->k, a->v, a->weights, B, T, C, g->n_heads,
                       !(g->ablate & NO_MASK));
    matmul_backward(d->ln1, dw[WQ], NULL, d->q, a->ln1, w[WQ], N, C, C);
    matmul_backward(d->ln1, dw[WK], NULL, d->k, a->ln1, w[WK], N, C, C);
    matmul_backward(d->ln1, dw[WV], NULL, d->v, a->ln1, w[WV], N, C, C);
    block_layernorm_backward(g, d->x, d->ln1, a->x, LN1_GAIN, a->ln1_mean,
                             a->ln1_rstd, N);
    embed_backward(dw[TOK_EMB], positions(g, dw), d->x, tokens, B, T, C);
}

static void fill_batch(Gpt *g, const int *problems, int n, int T)
{
    for (int b = 0; b < n; b++) {
        int padded[SEQ_LEN];
        int length = problem_tokens(problems[b], padded);
        for (int t = length; t < SEQ_LEN; t++)
            padded[t] = TOK_END;
        for (int t = 0; t < T; t++) {
            g->tokens[b * T + t] = padded[t];
            g->targets[b * T + t] = t + 1 < length ? padded[t + 1] : -1;
        }
    }
}

real gpt_batch_loss(Model *m, const int *problems, int n, int backward)
{
    Gpt *g = (Gpt *)m;
    int T = backward && !(g->ablate & NO_MASK) ? SEQ_LEN - 1 : SEQ_LEN;
    if (n < 1 || n > g->max_batch)
        return NAN;
    fill_batch(g, problems, n, T);
    gpt_forward(g, g->tokens, n, T);
    real loss = gpt_loss(g, g->targets, n, T);
    if (backward)
        gpt_backward(g, g->tokens, g->targets, n, T);
    return loss;
}

int gpt_write_next(const Gpt *g, int tokens[MAX_T], int T, char out[8],
                   int length)
{
    int next = argmax(g->act.logits + (T - 1) * VOCAB, VOCAB);
    tokens[T] = next;
    out[length] = char_of_token(next);
    return next;
}

int gpt_continue(Gpt *g, int tokens[MAX_T], int T, char out[8])
{
    int length = 0;
    while (T >= 1 && T < g->n_positions && length < 7) {
        gpt_forward(g, tokens, 1, T);
        if (gpt_write_next(g, tokens, T++, out, length++) == TOK_END)
            break;
    }
    out[length] = '\0';
    return length;
}

int gpt_answer(Model *m, int p, char out[8])
{
    int tokens[MAX_T];
    problem_tokens(p, tokens);              /* only "a*b=" is kept */
    return gpt_continue((Gpt *)m, tokens, 4, out);
}

static int grade_batch(Gpt *g, int T, int equals,
                       unsigned char solved[N_PROBLEMS])
{
    int correct = 0;
    gpt_forward(g, g->tokens, N_PROBLEMS, T);
    for (int p = 0; p < N_PROBLEMS; p++) {
        int right = 1;
        for (int t = equals; t < T; t++) {
            int row = p * T + t, target = g->targets[row];
            if (target >= 0
                && argmax(g->act.logits + row * VOCAB, VOCAB) != target)
                right = 0;
        }
        solved[p] = (unsigned char)right;
        correct += right;
    }
    return correct;
}

static int gpt_grade(Model *m, unsigned char solved[N_PROBLEMS])
{
    Gpt *g = (Gpt *)m;
    int all[N_PROBLEMS], T = SEQ_LEN - 1;
    if (g->ablate & NO_MASK || g->max_batch < N_PROBLEMS)
        return -1;                          /* write every answer instead */
    for (int p = 0; p < N_PROBLEMS; p++)
        all[p] = p;
    fill_batch(g, all, N_PROBLEMS, T);
    return grade_batch(g, T, 3, solved);    /* from the '=' on */
}

/* out (n x p) = a (n x m) times b (m x p) */
static void matmul(real *out, const real *a, const real *b,
                   int n, int m, int p)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < p; j++) {
            real sum = 0;
            for (int k = 0; k < m; k++)
                sum += a[i * m + k] * b[k * p + j];
            out[i * p + j] = sum;
        }
}

static void divide_all(real *a, int n, real divisor)
{
    for (int i = 0; i < n; i++)
        a[i] = a[i] / divisor;
}

static void take_columns(real *out, const real *a, int n, int m,
                         int first, int count)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < count; j++)
            out[i * count + j] = a[i * m + first + j];
}

static void put_columns(real *a, const real *part, int n, int m,
                        int first, int count)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < count; j++)
            a[i * m + first + j] = part[i * count + j];
}

static void mask_future(real *scores, int T)
{
    for (int t = 0; t < T; t++)
        for (int u = t + 1; u < T; u++)
            scores[t * T + u] = -INFINITY;
}

static void softmax_rows(real *a, int n, int m)
{
    for (int i = 0; i < n; i++) {
        real *row = a + i * m, max = -INFINITY, sum = 0;
        for (int j = 0; j < m; j++)
            if (row[j] > max)
                max = row[j];
        for (int j = 0; j < m; j++) {
            row[j] = exp(row[j] - max);
            sum += row[j];
        }
        for (int j = 0; j < m; j++)
            row[j] = row[j] / sum;
    }
}

static void classic_head(Trace *tr, int head, int d_head, int causal)
{
    int T = tr->T, first = head * d_head;
    real Q[MAX_T * WIDTH], K[MAX_T * WIDTH], V[MAX_T * WIDTH];
    real K_T[WIDTH * MAX_T], S[MAX_T * MAX_T], O[MAX_T * WIDTH];
    take_columns(Q, &tr->q[0][0], T, WIDTH, first, d_head);
    take_columns(K, &tr->k[0][0], T, WIDTH, first, d_head);
    take_columns(V, &tr->v[0][0], T, WIDTH, first, d_head);
    transpose(K_T, K, T, d_head);
    matmul(S, Q, K_T, T, d_head, T);             /* 4. scores = Q K^T   */
    divide_all(S, T * T, sqrt((real)d_head));    /* 5. / sqrt(d_head)   */
    if (causal)
        mask_future(S, T);                       /* 6. causal mask      */
    put_columns(&tr->scores[head][0][0], S, T, MAX_T, 0, T);
    softmax_rows(S, T, T);                       /* 7. softmax each row */
    put_columns(&tr->weights[head][0][0], S, T, MAX_T, 0, T);
    matmul(O, S, V, T, T, d_head);               /* 8. weights times V  */
    put_columns(&tr->heads[0][0], O, T, WIDTH, first, d_head);
}

static void classic_attention(Trace *tr, real **w, int causal)
{
    int T = tr->T, d_head = WIDTH / tr->n_heads;
    /* 1. Q, 2. K, 3. V */
    matmul(&tr->q[0][0], &tr->ln1[0][0], w[WQ], T, WIDTH, WIDTH);
    matmul(&tr->k[0][0], &tr->ln1[0][0], w[WK], T, WIDTH, WIDTH);
    matmul(&tr->v[0][0], &tr->ln1[0][0], w[WV], T, WIDTH, WIDTH);
    for (int head = 0; head < tr->n_heads; head++)
        classic_head(tr, head, d_head, causal);
    matmul(&tr->attn[0][0], &tr->heads[0][0], w[WO], T, WIDTH, WIDTH);
}

void gpt_trace(Gpt *g, const int *tokens, int T, Trace *tr)
{
    real **w = g->model.p.table;
    real mean[MAX_T], rstd[MAX_T], norm[MAX_T * WIDTH];
    real pre_gelu[MAX_T * HIDDEN], ffn[MAX_T * WIDTH];
    tr->T = T;
    tr->n_heads = g->n_heads;
    for (int t = 0; t < T; t++)
        tr->tokens[t] = tokens[t];
    embed_forward(&tr->x[0][0], tokens, w[TOK_EMB], positions(g, w), 1, T,
                  WIDTH);
    block_layernorm(g, &tr->ln1[0][0], mean, rstd, &tr->x[0][0], LN1_GAIN,
                    T);
    classic_attention(tr, w, !(g->ablate & NO_MASK));
    block_residual(g, &tr->x2[0][0], &tr->x[0][0], &tr->attn[0][0],
                   T * WIDTH);
    block_layernorm(g, norm, mean, rstd, &tr->x2[0][0], LN2_GAIN, T);
    matmul_forward(pre_gelu, norm, w[W1], w[B1], T, WIDTH, HIDDEN);
    bend_forward(&g->ablate, &tr->hidden[0][0], pre_gelu, T * HIDDEN);
    matmul_forward(ffn, &tr->hidden[0][0], w[W2], w[B2], T, HIDDEN, WIDTH);
    block_residual(g, &tr->x3[0][0], &tr->x2[0][0], ffn, T * WIDTH);
    block_layernorm(g, norm, mean, rstd, &tr->x3[0][0], LNF_GAIN, T);
    matmul_forward(&tr->logits[0][0], norm, w[W_OUT], NULL, T, WIDTH, VOCAB);
}

int gpt_forms_agree(Gpt *g, int p)
{
    Trace tr;
    int tokens[SEQ_LEN], T = problem_tokens(p, tokens), same = 1;
    gpt_trace(g, tokens, T, &tr);
    gpt_forward(g, tokens, 1, T);
    for (int head = 0; head < g->n_heads; head++)
        for (int t = 0; t < T; t++)
            same &= !memcmp(tr.weights[head][t],
                            g->act.weights + (head * T + t) * T,
                            (size_t)T * sizeof(real));
    for (int t = 0; t < T; t++)
        same &= !memcmp(tr.logits[t], g->act.logits + t * VOCAB,
                        VOCAB * sizeof(real));
    return same;
}

void question_weights(Gpt *g, int a, int b, real weights[MAX_HEADS][4])
{
    int tokens[SEQ_LEN], T = 4, t = 3;
    problem_tokens(10 * a + b, tokens);      /* only "a*b=" is run */
    gpt_forward(g, tokens, 1, T);
    for (int head = 0; head < g->n_heads; head++)
        for (int u = 0; u < T; u++)
            weights[head][u] = g->act.weights[(head * T + t) * T + u];
}

real swap_change(Gpt *g, int a, int b)
{
    real before[MAX_HEADS][4], after[MAX_HEADS][4], change = 0;
    question_weights(g, a, b, before);
    question_weights(g, b, a, after);
    for (int head = 0; head < g->n_heads; head++) {
        real moved = 0;
        for (int u = 0; u < 4; u++)
            moved += fabs(before[head][u] - after[head][u]);
        change += moved / 2;
    }
    return change / g->n_heads;
}

int most_changed_pair(Gpt *g, int *a, int *b, real *change)
{
    int visited = 0;
    *change = -1;
    for (int first = 0; first < N_DIGITS; first++)
        for (int second = first + 1; second < N_DIGITS; second++) {
            real c = swap_change(g, first, second);
            visited++;
            if (c > *change)
                *change = c, *a = first, *b = second;
        }
    return visited;
}

void gpt_ffn_as_one_map(const Gpt *g, real *map, real *shift)
{
    real *const *w = g->model.p.table;
    matmul(map, w[W1], w[W2], WIDTH, HIDDEN, WIDTH);         /* W1 W2 */
    /* b1 W2 + b2 */
    matmul_forward(shift, w[B1], w[W2], w[B2], 1, HIDDEN, WIDTH);
}

double gpt_train_flops(int B, int T)
{
    double C = WIDTH, H = HIDDEN, V = VOCAB, rows = (double)B * T;
    double forward = rows * (8 * C * C + 4 * C * H + 2 * C * V)
                     + B * 2 * C * T * (T + 1);
    return 3 * forward;
}

void adam_step(Params *p, int t, const TrainConfig *cfg)
{
    real beta1 = cfg->beta1, beta2 = cfg->beta2;
    real lr = cfg->lr, eps = cfg->eps;
    real correct1 = 1 - pow(beta1, (real)t);
    real correct2 = 1 - pow(beta2, (real)t);
    real *restrict param = p->params;
    real *restrict m = p->m, *restrict v = p->v;
    const real *restrict grad = p->grads;
    for (size_t i = 0; i < p->n_params; i++) {
        m[i] = beta1 * m[i] + (1 - beta1) * grad[i];
        v[i] = beta2 * v[i] + (1 - beta2) * grad[i] * grad[i];
        real m_hat = m[i] / correct1, v_hat = v[i] / correct2;
        param[i] -= lr * m_hat / (sqrt(v_hat) + eps);
    }
}

int score(Model *m, unsigned char solved[N_PROBLEMS])
{
    unsigned char verdicts[N_PROBLEMS];
    int graded = m->grade ? m->grade(m, verdicts) : -1;
    if (graded >= 0) {
        if (solved)
            memcpy(solved, verdicts, sizeof verdicts);
        return graded;
    }
    int correct = 0;
    for (int p = 0; p < N_PROBLEMS; p++) {
        char expected[8], got[8];
        problem_answer(p, expected);
        m->answer(m, p, got);
        int right = strcmp(expected, got) == 0;
        if (solved)
            solved[p] = (unsigned char)right;
        correct += right;
    }
    return correct;
}

TrainConfig train_defaults(void)
{
    TrainConfig cfg = {
        .seed = 1, .steps = 1000, .batch = 32, .eval_every = 10,
        .stop_at_perfect = 0,
        .lr = (real)3e-3, .beta1 = (real)0.9, .beta2 = (real)0.999,
        .eps = (real)1e-8, .observe = NULL, .context = NULL,
    };
    return cfg;
}

TrainResult train(Model *m, const TrainConfig *cfg, TrainRecord *log,
                  int log_capacity)
{
    TrainResult result = {0, -1, 0, 0, -1};
    Rng rng;
    int batch[MAX_BATCH];
    rng_seed(&rng, cfg->seed ^ BATCH_STREAM);
    for (int step = 1; step <= cfg->steps; step++) {
        if ((result.fault_table = first_nonfinite_table(&m->p)) >= 0) {
            result.fault_step = step;
            break;
        }
        for (int i = 0; i < cfg->batch; i++)
            batch[i] = rng_below(&rng, N_PROBLEMS);
        memset(m->p.grads, 0, m->p.n_params * sizeof(real));
        real loss = m->batch_loss(m, batch, cfg->batch, 1);
        if (!isfinite(loss)) {
            result.fault_step = step;
            break;
        }
        adam_step(&m->p, step, cfg);
        result.steps_done = step;
        if (step % cfg->eval_every == 0 || step == cfg->steps) {
            TrainRecord record = {step, loss, 0, {0}};
            int correct = record.correct = score(m, record.solved);
            if (result.n_records < log_capacity)
                log[result.n_records++] = record;
            if (cfg->observe)
                cfg->observe(&record, cfg->context);
            if (correct == N_PROBLEMS && result.first_perfect < 0)
                result.first_perfect = step;
            if (correct == N_PROBLEMS && cfg->stop_at_perfect)
                break;
        }
    }
    if (result.fault_step == 0
        && (result.fault_table = first_nonfinite_table(&m->p)) >= 0)
        result.fault_step = result.steps_done;
    return result;
}

int first_nonfinite_table(const Params *p)
{
    for (int t = 0; t < p->n_tables; t++)
        for (int i = 0; i < p->specs[t].rows * p->specs[t].cols; i++)
            if (!isfinite(p->table[t][i]))
                return t;
    return -1;
}

real loss_on_all_problems(Model *m)
{
    int all[N_PROBLEMS];
    for (int p = 0; p < N_PROBLEMS; p++)
        all[p] = p;
    return m->batch_loss(m, all, N_PROBLEMS, 0);
}

static void layout_draw_init(LayoutDraw *d, uint64_t seed)
{
    for (int which = 0; which < N_LAYOUTS; which++)
        d->from[which] = which;
    d->drawn = N_LAYOUTS;
    rng_seed(&d->rng, seed ^ LAYOUT_STREAM);
}

static int layout_drawn(LayoutDraw *d)
{
    return d->from[rng_below(&d->rng, d->drawn)];
}

int layouts_longest(void)
{
    int longest = 0, tokens[MAX_T];
    for (int which = 0; which < N_ALL_LAYOUTS; which++)
        for (int p = 0; p < N_PROBLEMS; p++) {
            int n = layout_tokens(p, which, tokens);
            longest = n > longest ? n : longest;
        }
    return longest;
}

static void fill_layout_batch(Gpt *g, const int *problems,
                              const int *which, int n, int T)
{
    for (int b = 0; b < n; b++) {
        int padded[MAX_T + 1];
        int length = layout_tokens(problems[b], which[b], padded);
        for (int t = length; t <= T; t++)
            padded[t] = TOK_END;
        for (int t = 0; t < T; t++) {
            g->tokens[b * T + t] = padded[t];
            g->targets[b * T + t] = t + 1 < length ? padded[t + 1] : -1;
        }
    }
}

static real layout_batch_loss(Model *m, const int *problems, int n,
                              int backward)
{
    LayoutGpt *l = (LayoutGpt *)m;
    Gpt *g = &l->gpt;
    int which[MAX_BATCH], T = g->n_positions - 1;
    if (n < 1 || n > g->max_batch || n > MAX_BATCH)
        return NAN;
    for (int b = 0; b < n; b++)
        which[b] = layout_drawn(&l->layouts);
    fill_layout_batch(g, problems, which, n, T);
    gpt_forward(g, g->tokens, n, T);
    real loss = gpt_loss(g, g->targets, n, T);
    if (backward)
        gpt_backward(g, g->tokens, g->targets, n, T);
    return loss;
}

int layout_grade(LayoutGpt *l, int which,
                 unsigned char solved[N_PROBLEMS])
{
    int all[N_PROBLEMS], same[N_PROBLEMS];
    int equals = (int)strlen(layouts[which]) - 1, T = equals + 3;
    for (int p = 0; p < N_PROBLEMS; p++) {
        all[p] = p;
        same[p] = which;
    }
    fill_layout_batch(&l->gpt, all, same, N_PROBLEMS, T);
    return grade_batch(&l->gpt, T, equals, solved);
}

static int layout_grade_all(Model *m, unsigned char solved[N_PROBLEMS])
{
    LayoutGpt *l = (LayoutGpt *)m;
    unsigned char here[N_PROBLEMS];
    int correct = 0;
    memset(solved, 1, N_PROBLEMS);
    for (int i = 0; i < l->layouts.drawn; i++) {
        layout_grade(l, l->layouts.from[i], here);
        for (int p = 0; p < N_PROBLEMS; p++)
            solved[p] &= here[p];
    }
    for (int p = 0; p < N_PROBLEMS; p++)
        correct += solved[p];
    return correct;
}

int layout_answer(Gpt *g, int p, int which, char out[8])
{
    int tokens[MAX_T];
    layout_tokens(p, which, tokens);
    return gpt_continue(g, tokens, (int)strlen(layouts[which]), out);
}

int layout_gpt_create(LayoutGpt *l, uint64_t seed)
{
    if (gpt_create_with_positions(&l->gpt, seed, N_HEADS, MAX_BATCH,
                                  layouts_longest()) != 0)
        return -1;
    l->gpt.model.batch_loss = layout_batch_loss;
    l->gpt.model.grade = layout_grade_all;
    layout_draw_init(&l->layouts, seed);
    return 0;
}

static const TableSpec window_tables[MLP_TABLES] = {
    {"W1", WINDOW_IN, MLP_HIDDEN}, {"b1", 1, MLP_HIDDEN},
    {"W2", MLP_HIDDEN, MLP_OUT}, {"b2", 1, MLP_OUT},
};

static void window_input(Mlp *mlp, int row, int p)
{
    const WindowMlp *w = (const WindowMlp *)mlp;
    real *x = mlp->x + row * WINDOW_IN;
    int tokens[MAX_T], which = w->which[row];
    int question = (int)strlen(layouts[which]);     /* up to the = */
    layout_tokens(p, which, tokens);
    memset(x, 0, WINDOW_IN * sizeof *x);
    for (int slot = 0; slot < WINDOW; slot++) {
        int t = question - WINDOW + slot;
        if (t >= 0)
            x[slot * VOCAB + tokens[t]] = 1;
    }
}

static real window_batch_loss(Model *m, const int *problems, int n,
                              int backward)
{
    WindowMlp *w = (WindowMlp *)m;
    if (n < 1 || n > MAX_BATCH)
        return NAN;
    for (int b = 0; b < n; b++)
        w->which[b] = layout_drawn(&w->layouts);
    return mlp_batch_loss(m, problems, n, backward);
}

int window_answer(WindowMlp *w, int p, int which, char out[8])
{
    w->which[0] = which;
    return mlp_answer(&w->mlp.model, p, out);
}

static int window_answer_first(Model *m, int p, char out[8])
{
    WindowMlp *w = (WindowMlp *)m;
    return window_answer(w, p, w->layouts.from[0], out);
}

static int window_grade(Model *m, unsigned char solved[N_PROBLEMS])
{
    WindowMlp *w = (WindowMlp *)m;
    int correct = 0;
    for (int p = 0; p < N_PROBLEMS; p++) {
        char want[8], got[8];
        int right = 1;
        problem_answer(p, want);
        for (int i = 0; i < w->layouts.drawn && right; i++) {
            window_answer(w, p, w->layouts.from[i], got);
            right = strcmp(got, want) == 0;
        }
        solved[p] = (unsigned char)right;
        correct += right;
    }
    return correct;
}

int window_mlp_init(WindowMlp *w, uint64_t seed)
{
    memset(w, 0, sizeof *w);
    if (mlp_wire(&w->mlp, seed, window_tables, window_input) != 0)
        return -1;
    w->mlp.model.batch_loss = window_batch_loss;
    w->mlp.model.answer = window_answer_first;
    w->mlp.model.grade = window_grade;
    layout_draw_init(&w->layouts, seed);
    return 0;
}

unsigned exercise_stubs_ran;

/* 1 if all n numbers of x still hold the value put there */
static int untouched(const real *x, int n, real value)
{
    for (int i = 0; i < n; i++)
        if (!(x[i] == value))
            return 0;
    return 1;
}

/* 1 if the n numbers of got are those of want, within 1e-4 */
static int known(const real *got, const double *want, int n)
{
    for (int i = 0; i < n; i++)
        if (!(fabs((double)got[i] - want[i]) <= 1e-4))
            return 0;
    return 1;
}

/* the verdict on exercise e: right (the known answer), as_it_was (its
   outputs untouched); its stub's mark is bit e of exercise_stubs_ran,
   cleared before the call */
void exercise_verdict(ExerciseCheck *c, int e, int right, int as_it_was)
{
    unsigned bit = 1u << e;
    int marked = (exercise_stubs_ran & bit) != 0;
    if (right && marked)
        c->marked |= bit;
    else if (!right && (marked || as_it_was))
        c->stubs |= bit;
    else if (!right)
        c->wrong |= bit;
}

static void check_gelu_and_adam(ExerciseCheck *c)
{
    real in[4] = {0, 1, -2, 0.5}, out[4], d_out[4] = {1, 0.5, 2, -1};
    real d_in[4] = {0.25, 0.25, 0.25, 0.25};
    static const double d_in_after[4] = {
        0.75, 0.7916577352938432, 0.0795363978436062,
        -0.6174951246561629};
    gelu_forward(out, in, 4);
    gelu_backward(d_in, in, out, d_out, 4);
    exercise_verdict(c, 1, known(d_in, d_in_after, 4),
                     untouched(d_in, 4, 0.25));
    real params[2] = {1, -1}, grads[2] = {0.5, -2};
    real m[2] = {0.1, 0}, v[2] = {0.01, 0};
    Params p = {.n_params = 2, .params = params, .grads = grads,
                .m = m, .v = v};
    TrainConfig cfg = {.lr = 0.1, .beta1 = 0.9, .beta2 = 0.999,
                       .eps = 1e-8};
    static const double params_after[2] = {0.967444014112787,
                                           -0.9255863181693544};
    static const double m_after[2] = {0.14, -0.2};
    static const double v_after[2] = {0.01024, 0.004};
    adam_step(&p, 2, &cfg);
    exercise_verdict(c, 2, known(params, params_after, 2)
                           && known(m, m_after, 2) && known(v, v_after, 2),
                     params[0] == 1 && params[1] == -1);
}

static void check_embedding_and_layernorm(ExerciseCheck *c, real mark)
{
    int tokens[4] = {1, 0, 0, 1};
    real tok_emb[4] = {1, 2, 3, 4}, pos_emb[4] = {10, 20, 30, 40};
    real out[8] = {mark, mark, mark, mark, mark, mark, mark, mark};
    static const double embedded[8] = {13, 24, 31, 42, 11, 22, 33, 44};
    embed_forward(out, tokens, tok_emb, pos_emb, 2, 2, 2);
    exercise_verdict(c, 3, known(out, embedded, 8),
                     untouched(out, 8, mark));
    real in[8] = {1, 2, 3, 6, -1, 0, 0, 5}, gain[4] = {1, 0.5, 2, -1};
    real mean[2] = {mark, mark}, rstd[2] = {mark, mark};
    static const double normed[8] = {
        -1.0690434404458735, -0.2672608601114684, 0, -1.6035651606688104,
        -0.8528020901481668, -0.2132005225370417, -0.8528020901481668,
        -1.7056041802963335};
    static const double means[2] = {3, 1};
    static const double rstds[2] = {0.5345217202229368, 0.4264010450740834};
    real norm[8] = {mark, mark, mark, mark, mark, mark, mark, mark};
    layernorm_forward(norm, mean, rstd, in, gain, 2, 4);
    exercise_verdict(c, 4, known(norm, normed, 8) && known(mean, means, 2)
                           && known(rstd, rstds, 2),
                     untouched(norm, 8, mark));
    real d_out[8] = {0.5, -1, 2, 0.25, 1, 1, -0.5, 0};
    real d_in[8] = {0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125};
    real d_gain[4] = {0.25, 0.25, 0.25, 0.25};
    real kept_mean[2] = {3, 1};
    real kept_rstd[2] = {(real)rstds[0], (real)rstds[1]};
    static const double d_in_after[8] = {
        -0.2043032870658179, -0.6910999900546131, 1.7619727681827437,
        -0.36656949106231274, 0.4399554231033413, 0.25582764623454046,
        -0.3837739213765846, 0.18799085203870292};
    static const double d_gain_after[4] = {
        -1.1373238103711034, 0.3581206751488534, 0.4632005225370417,
        0.6508912901672026};
    layernorm_backward(d_in, d_gain, d_out, in, gain, kept_mean,
                       kept_rstd, 2, 4);
    exercise_verdict(c, 5, known(d_in, d_in_after, 8)
                           && known(d_gain, d_gain_after, 4),
                     untouched(d_in, 8, 0.125)
                     && untouched(d_gain, 4, 0.25));
}

static void check_attention_row(ExerciseCheck *c, real mark)
{
    enum { T = 4, C = 16, D = 8, FIRST = C - D };
    real q[T * C], k[T * C], Q[T * D], K[T * D], K_T[D * T], S[T * T];
    for (int i = 0; i < T * C; i++) {
        q[i] = (real)((i * 37 % 23) - 11) / 7;
        k[i] = (real)((i * 53 % 29) - 14) / 9;
    }
    take_columns(Q, q, T, C, FIRST, D);    /* the classic form's steps */
    take_columns(K, k, T, C, FIRST, D);
    transpose(K_T, K, T, D);
    matmul(S, Q, K_T, T, D, T);
    divide_all(S, T * T, sqrt((real)D));
    mask_future(S, T);
    int same = 1, left = 1;
    for (int t = 0; t < T; t++) {
        real score[T + 1] = {mark, mark, mark, mark, mark};
        attention_scores(score, q + t * C + FIRST, k + FIRST, t, T, C, D);
        same = same && score[T] == mark;
        for (int u = 0; u < T; u++)
            same = same && score[u] == S[t * T + u];
        left = left && untouched(score, T, mark);
    }
    exercise_verdict(c, 6, same, left);
    real row[T] = {0.5, -0.25, 900, 2};
    real weight[T + 1] = {mark, mark, mark, mark, mark};
    real classic[T] = {0.5, -0.25, -INFINITY, -INFINITY};
    softmax_rows(classic, 1, T);
    attention_softmax(weight, row, 1, T);
    same = weight[T] == mark;
    for (int u = 0; u < T; u++)
        same = same && weight[u] == classic[u];
    exercise_verdict(c, 7, same, untouched(weight, T, mark));
    real w[T] = {0.25, 0.75, 0.5, 0.5}, d_weight[T] = {1, -2, 5, 3};
    real d_score[T] = {0.5, 0.5, 0.5, 0.5};
    static const double d_score_after[T] = {1.0625, -0.0625, 0.5, 0.5};
    attention_softmax_backward(d_score, d_weight, w, 1);
    exercise_verdict(c, 8, known(d_score, d_score_after, T),
                     untouched(d_score, T, 0.5));
}

ExerciseCheck check_exercises(void)
{
    ExerciseCheck c = {0, 0, 0};
    unsigned ran_before = exercise_stubs_ran;
    const real mark = 12345;
    exercise_stubs_ran = 0;
    check_gelu_and_adam(&c);
    check_embedding_and_layernorm(&c, mark);
    check_attention_row(&c, mark);
    exercise_stubs_ran = ran_before;    /* the tests' record, as it was */
    return c;
}

