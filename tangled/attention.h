#line 44 "attention.nw"
/* attention.h: the core of attention.nw (tangled; edit attention.nw) */
#ifndef ATTENTION_H
#define ATTENTION_H
#include <stddef.h>
#include <stdint.h>
#line 90 "attention.nw"
#ifdef ATTENTION_DOUBLE
typedef double real;
#else
typedef float real;
#endif
#line 883 "attention.nw"
typedef struct { uint64_t state; } Rng;
void     rng_seed(Rng *rng, uint64_t seed);
uint64_t rng_next(Rng *rng);
double   rng_uniform(Rng *rng);
int      rng_below(Rng *rng, int n);
real     rng_normal(Rng *rng);
#line 115 "attention.nw"
enum { N_DIGITS = 10, N_PROBLEMS = 100, VOCAB = 13, SEQ_LEN = 7 };
enum { TOK_TIMES = 10, TOK_EQUALS = 11, TOK_END = 12 };
int  problem_tokens(int p, int tokens[SEQ_LEN]);
int  problem_answer(int p, char answer[8]);
int  token_of_char(int c);
char char_of_token(int token);
#line 229 "attention.nw"
enum { MAX_TABLES = 16 };
typedef struct { const char *name; int rows, cols; } TableSpec;
typedef struct {
    int n_tables;
    const TableSpec *specs;
    size_t n_params;
    real *params, *grads, *m, *v;       /* four blocks, one allocation */
    real *table[MAX_TABLES];            /* table i inside params */
    real *grad[MAX_TABLES];             /* its gradient inside grads */
} Params;
int  params_alloc(Params *p, const TableSpec *specs, int n_tables);
void params_free(Params *p);
#line 448 "attention.nw"
void matmul_forward(real *out, const real *in, const real *weight,
                    const real *bias, int n, int c_in, int c_out);
void matmul_backward(real *d_in, real *d_weight, real *d_bias,
                     const real *d_out, const real *in, const real *weight,
                     int n, int c_in, int c_out);
void gelu_forward(real *out, const real *in, int n);
void gelu_backward(real *d_in, const real *in, const real *d_out, int n);
real softmax_crossentropy(real *probs, const real *logits, int n, int target);
void crossentropy_backward(real *d_logits, const real *probs, int n,
                           int target, real scale);
int  argmax(const real *x, int n);
#line 472 "attention.nw"
typedef struct Model Model;
struct Model {
    Params p;
    real (*batch_loss)(Model *m, const int *problems, int n, int backward);
    int (*answer)(Model *m, int p, char answer[8]);
};
int score(Model *m, unsigned char solved[N_PROBLEMS]);
#line 510 "attention.nw"
enum { MAX_BATCH = 128 };
#line 741 "attention.nw"
typedef struct {
    uint64_t seed;
    int steps, batch, eval_every, stop_at_perfect;
    real lr, beta1, beta2, eps;
} TrainConfig;
typedef struct {
    int step;
    real loss;                          /* of this step's batch */
    int correct;                        /* problems answered exactly */
    unsigned char solved[N_PROBLEMS];   /* which ones */
} TrainRecord;
typedef struct { int steps_done, first_perfect, n_records; } TrainResult;
TrainConfig train_defaults(void);
void adam_step(Params *p, int t, const TrainConfig *cfg);
TrainResult train(Model *m, const TrainConfig *cfg, TrainRecord *log,
                  int log_capacity);
#line 202 "attention.nw"
enum { MLP_IN = 2 * N_DIGITS, MLP_HIDDEN = 64, MLP_SLOTS = 3,
       MLP_OUT = MLP_SLOTS * VOCAB };
#line 514 "attention.nw"
typedef struct {
    Model model;
    real x[MAX_BATCH * MLP_IN];          /* onehot(a) ++ onehot(b) */
    real z[MAX_BATCH * MLP_HIDDEN];      /* x W1 + b1 */
    real h[MAX_BATCH * MLP_HIDDEN];      /* GELU(z) */
    real logits[MAX_BATCH * MLP_OUT];
    real probs[MAX_BATCH * MLP_OUT];
    real d_h[MAX_BATCH * MLP_HIDDEN], d_z[MAX_BATCH * MLP_HIDDEN];
    real d_logits[MAX_BATCH * MLP_OUT];
} Mlp;
int  mlp_init(Mlp *mlp, uint64_t seed);
void mlp_free(Mlp *mlp);
#line 55 "attention.nw"
#endif
