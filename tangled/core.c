#line 62 "attention.nw"
/* core.c: data, models, training (tangled; edit attention.nw) */
#include "attention.h"
#include <stdlib.h>
#include <string.h>
#include <tgmath.h>
#line 653 "attention.nw"
static int mlp_slot_loss(Mlp *mlp, int row, int p, real *loss);
static void mlp_backward(Mlp *mlp, const int *problems, int n, real scale);
#line 813 "attention.nw"
static const uint64_t BATCH_STREAM = 0x5bd1e995u;
#line 385 "attention.nw"
#ifndef M_SQRT1_2
#define M_SQRT1_2 0.70710678118654752440
#endif
#ifndef M_2_SQRTPI
#define M_2_SQRTPI 1.12837916709551257390
#endif
#line 892 "attention.nw"
void rng_seed(Rng *rng, uint64_t seed) { rng->state = seed; }

uint64_t rng_next(Rng *rng)
{
    uint64_t z = (rng->state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}
#line 909 "attention.nw"
double rng_uniform(Rng *rng) { return (double)(rng_next(rng) >> 11) * 0x1.0p-53; }

int rng_below(Rng *rng, int n) { return (int)(rng_uniform(rng) * n); }
#line 920 "attention.nw"
real rng_normal(Rng *rng)
{
    double u1 = 1.0 - rng_uniform(rng), u2 = rng_uniform(rng);
    return (real)(sqrt(-2.0 * log(u1)) * cos(2.0 * 3.14159265358979323846 * u2));
}
#line 126 "attention.nw"
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
#line 147 "attention.nw"
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
#line 164 "attention.nw"
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
#line 248 "attention.nw"
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
    
#line 266 "attention.nw"
p->grads = p->params + p->n_params;
p->m = p->grads + p->n_params;
p->v = p->m + p->n_params;
size_t offset = 0;
for (int i = 0; i < n_tables; i++) {
    p->table[i] = p->params + offset;
    p->grad[i] = p->grads + offset;
    offset += (size_t)specs[i].rows * (size_t)specs[i].cols;
}
#line 261 "attention.nw"
    return 0;
}
#line 278 "attention.nw"
void params_free(Params *p)
{
    free(p->params);
    memset(p, 0, sizeof *p);
}
#line 315 "attention.nw"
void matmul_forward(real *out, const real *in, const real *weight,
                    const real *bias, int n, int c_in, int c_out)
{
    for (int row = 0; row < n; row++)
        for (int j = 0; j < c_out; j++) {
            real sum = bias ? bias[j] : 0;
            for (int i = 0; i < c_in; i++)
                sum += in[row * c_in + i] * weight[i * c_out + j];
            out[row * c_out + j] = sum;
        }
}
#line 337 "attention.nw"
void matmul_backward(real *d_in, real *d_weight, real *d_bias,
                     const real *d_out, const real *in, const real *weight,
                     int n, int c_in, int c_out)
{
    for (int row = 0; row < n; row++) {
        const real *dy = d_out + row * c_out;
        for (int i = 0; i < c_in; i++) {
            real sum = 0;
            for (int j = 0; j < c_out; j++) {
                sum += dy[j] * weight[i * c_out + j];
                if (d_weight)
                    d_weight[i * c_out + j] += in[row * c_in + i] * dy[j];
            }
            if (d_in)
                d_in[row * c_in + i] += sum;
        }
        for (int j = 0; d_bias && j < c_out; j++)
            d_bias[j] += dy[j];
    }
}
#line 364 "attention.nw"
static real normal_cdf(real z) { return (real)0.5 * (1 + erf(z * (real)M_SQRT1_2)); }
static real normal_pdf(real z) { return exp(-z * z / 2) * (real)(0.5 * M_2_SQRTPI * M_SQRT1_2); }

void gelu_forward(real *out, const real *in, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = in[i] * normal_cdf(in[i]);
}

void gelu_backward(real *d_in, const real *in, const real *d_out, int n)
{
    for (int i = 0; i < n; i++)
        d_in[i] += d_out[i] * (normal_cdf(in[i]) + in[i] * normal_pdf(in[i]));
}
#line 400 "attention.nw"
real softmax_crossentropy(real *probs, const real *logits, int n, int target)
{
    real max = logits[0], sum = 0;
    for (int i = 1; i < n; i++)
        if (logits[i] > max)
            max = logits[i];
    for (int i = 0; i < n; i++) {
        probs[i] = exp(logits[i] - max);
        sum += probs[i];
    }
    for (int i = 0; i < n; i++)
        probs[i] /= sum;
    return -log(probs[target]);
}
#line 421 "attention.nw"
void crossentropy_backward(real *d_logits, const real *probs, int n,
                           int target, real scale)
{
    for (int i = 0; i < n; i++)
        d_logits[i] += scale * (probs[i] - (i == target));
}
#line 434 "attention.nw"
int argmax(const real *x, int n)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (x[i] > x[best])
            best = i;
    return best;
}
#line 288 "attention.nw"
enum { MLP_W1, MLP_B1, MLP_W2, MLP_B2, MLP_TABLES };
static const TableSpec mlp_tables[MLP_TABLES] = {
    {"W1", MLP_IN, MLP_HIDDEN}, {"b1", 1, MLP_HIDDEN},
    {"W2", MLP_HIDDEN, MLP_OUT}, {"b2", 1, MLP_OUT},
};
#line 533 "attention.nw"
static void mlp_input(real *x, int p)
{
    memset(x, 0, MLP_IN * sizeof *x);
    x[p / 10] = 1;                  /* the slot of a */
    x[N_DIGITS + p % 10] = 1;       /* the slot of b */
}
#line 544 "attention.nw"
static void mlp_forward(Mlp *mlp, const int *problems, int n)
{
    real *const *t = mlp->model.p.table;
    for (int row = 0; row < n; row++)
        mlp_input(mlp->x + row * MLP_IN, problems[row]);
    matmul_forward(mlp->z, mlp->x, t[MLP_W1], t[MLP_B1], n, MLP_IN, MLP_HIDDEN);
    gelu_forward(mlp->h, mlp->z, n * MLP_HIDDEN);
    matmul_forward(mlp->logits, mlp->h, t[MLP_W2], t[MLP_B2], n, MLP_HIDDEN, MLP_OUT);
}
#line 560 "attention.nw"
static int mlp_answer(Model *m, int p, char answer[8])
{
    Mlp *mlp = (Mlp *)m;
    int n = 0;
    mlp_forward(mlp, &p, 1);
    for (int slot = 0; slot < MLP_SLOTS; slot++) {
        answer[n++] = char_of_token(argmax(mlp->logits + slot * VOCAB, VOCAB));
        if (answer[n - 1] == ';')
            break;
    }
    answer[n] = '\0';
    return n;
}
#line 583 "attention.nw"
static real mlp_batch_loss(Model *m, const int *problems, int n, int backward)
{
    Mlp *mlp = (Mlp *)m;
    int targets = 0;
    real loss = 0;
    mlp_forward(mlp, problems, n);
    for (int row = 0; row < n; row++)
        targets += mlp_slot_loss(mlp, row, problems[row], &loss);
    if (backward)
        mlp_backward(mlp, problems, n, (real)1 / targets);
    return loss / targets;
}
#line 601 "attention.nw"
static int mlp_slot_loss(Mlp *mlp, int row, int p, real *loss)
{
    char answer[8];
    int length = problem_answer(p, answer);
    for (int slot = 0; slot < length; slot++) {
        int off = row * MLP_OUT + slot * VOCAB;
        *loss += softmax_crossentropy(mlp->probs + off, mlp->logits + off,
                                      VOCAB, token_of_char(answer[slot]));
    }
    return length;
}
#line 620 "attention.nw"
static void mlp_backward(Mlp *mlp, const int *problems, int n, real scale)
{
    real *const *t = mlp->model.p.table, *const *g = mlp->model.p.grad;
    memset(mlp->d_logits, 0, (size_t)n * MLP_OUT * sizeof(real));
    memset(mlp->d_h, 0, (size_t)n * MLP_HIDDEN * sizeof(real));
    memset(mlp->d_z, 0, (size_t)n * MLP_HIDDEN * sizeof(real));
    for (int row = 0; row < n; row++)
        
#line 637 "attention.nw"
{
    char answer[8];
    int length = problem_answer(problems[row], answer);
    for (int slot = 0; slot < length; slot++) {
        int off = row * MLP_OUT + slot * VOCAB;
        crossentropy_backward(mlp->d_logits + off, mlp->probs + off, VOCAB,
                              token_of_char(answer[slot]), scale);
    }
}
#line 628 "attention.nw"
    matmul_backward(mlp->d_h, g[MLP_W2], g[MLP_B2], mlp->d_logits, mlp->h,
                    t[MLP_W2], n, MLP_HIDDEN, MLP_OUT);
    gelu_backward(mlp->d_z, mlp->z, mlp->d_h, n * MLP_HIDDEN);
    matmul_backward(NULL, g[MLP_W1], g[MLP_B1], mlp->d_z, mlp->x,
                    t[MLP_W1], n, MLP_IN, MLP_HIDDEN);
}
#line 668 "attention.nw"
static void init_matrix(real *w, int rows, int cols, Rng *rng)
{
    real std = 1 / sqrt((real)rows);
    for (int i = 0; i < rows * cols; i++)
        w[i] = std * rng_normal(rng);
}
#line 681 "attention.nw"
int mlp_init(Mlp *mlp, uint64_t seed)
{
    Rng rng;
    memset(mlp, 0, sizeof *mlp);
    if (params_alloc(&mlp->model.p, mlp_tables, MLP_TABLES) != 0)
        return -1;
    rng_seed(&rng, seed);
    init_matrix(mlp->model.p.table[MLP_W1], MLP_IN, MLP_HIDDEN, &rng);
    init_matrix(mlp->model.p.table[MLP_W2], MLP_HIDDEN, MLP_OUT, &rng);
    mlp->model.batch_loss = mlp_batch_loss;
    mlp->model.answer = mlp_answer;
    return 0;
}

void mlp_free(Mlp *mlp) { params_free(&mlp->model.p); }
#line 717 "attention.nw"
void adam_step(Params *p, int t, const TrainConfig *cfg)
{
    real correct1 = 1 - pow(cfg->beta1, (real)t);
    real correct2 = 1 - pow(cfg->beta2, (real)t);
    for (size_t i = 0; i < p->n_params; i++) {
        real g = p->grads[i];
        p->m[i] = cfg->beta1 * p->m[i] + (1 - cfg->beta1) * g;
        p->v[i] = cfg->beta2 * p->v[i] + (1 - cfg->beta2) * g * g;
        real m_hat = p->m[i] / correct1, v_hat = p->v[i] / correct2;
        p->params[i] -= cfg->lr * m_hat / (sqrt(v_hat) + cfg->eps);
    }
}
#line 486 "attention.nw"
int score(Model *m, unsigned char solved[N_PROBLEMS])
{
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
#line 764 "attention.nw"
TrainConfig train_defaults(void)
{
    TrainConfig cfg = {
        .seed = 1, .steps = 2000, .batch = 32, .eval_every = 10,
        .stop_at_perfect = 0,
        .lr = (real)3e-3, .beta1 = (real)0.9, .beta2 = (real)0.999,
        .eps = (real)1e-8,
    };
    return cfg;
}
#line 782 "attention.nw"
TrainResult train(Model *m, const TrainConfig *cfg, TrainRecord *log,
                  int log_capacity)
{
    TrainResult result = {0, -1, 0};
    Rng rng;
    int batch[MAX_BATCH];
    rng_seed(&rng, cfg->seed ^ BATCH_STREAM);
    for (int step = 1; step <= cfg->steps; step++) {
        
#line 808 "attention.nw"
for (int i = 0; i < cfg->batch; i++)
    batch[i] = rng_below(&rng, N_PROBLEMS);
#line 791 "attention.nw"
        memset(m->p.grads, 0, m->p.n_params * sizeof(real));
        real loss = m->batch_loss(m, batch, cfg->batch, 1);
        adam_step(&m->p, step, cfg);
        result.steps_done = step;
        
#line 817 "attention.nw"
if (step % cfg->eval_every == 0 || step == cfg->steps) {
    TrainRecord record = {step, loss, 0, {0}};
    int correct = record.correct = score(m, record.solved);
    if (result.n_records < log_capacity)
        log[result.n_records++] = record;
    if (correct == N_PROBLEMS && result.first_perfect < 0)
        result.first_perfect = step;
    if (correct == N_PROBLEMS && cfg->stop_at_perfect)
        break;
}
#line 796 "attention.nw"
    }
    return result;
}
