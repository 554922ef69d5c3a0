/* core.h: the model core of attention.nw: data, layers, the two models,
   training, Adam, generation; no I/O (tangled; edit attention.nw) */
#ifndef CORE_H
#define CORE_H
#include <stddef.h>
#include <stdint.h>

#ifdef ATTENTION_DOUBLE
typedef double real;
#else
typedef float real;
#endif

typedef struct { uint64_t state; } Rng;
void     rng_seed(Rng *rng, uint64_t seed);
uint64_t rng_next(Rng *rng);
double   rng_uniform(Rng *rng);
int      rng_below(Rng *rng, int n);
real     rng_normal(Rng *rng);

enum { N_DIGITS = 10, N_PROBLEMS = 100, VOCAB = 13, SEQ_LEN = 7 };
enum { TOK_TIMES = 10, TOK_EQUALS = 11, TOK_END = 12 };
int  problem_answer(int p, char answer[8]);
int  token_of_char(int c);
char char_of_token(int token);

int  problem_tokens(int p, int tokens[SEQ_LEN]);

enum { N_LAYOUTS = 6, N_CROSSED = 6, N_ALL_LAYOUTS = 12,
       MAX_T = 16 };                    /* MAX_T: any model's longest */
extern const char *const layouts[N_ALL_LAYOUTS];
int  layout_tokens(int p, int which, int tokens[MAX_T]);

int  operands_of_tokens(const int *tokens, int T, int *a, int *b);

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
/* Creating returns 0, or -1 (a bad shape, or no memory) with the struct
   left empty; freeing is safe on an empty struct and leaves it empty.
   Each create of the core owns its memory until its free or destroy. */
int  params_alloc(Params *p, const TableSpec *specs, int n_tables);
void params_free(Params *p);

/* in (n, c_in), weight (c_in, c_out), bias (c_out) or NULL,
   out (n, c_out) */
void matmul_forward(real *restrict out, const real *restrict in,
                    const real *restrict weight, const real *restrict bias,
                    int n, int c_in, int c_out);
/* d_out (n, c_out); d_in as in, d_weight as weight, d_bias as bias */
void matmul_backward(real *restrict d_in, real *restrict d_weight,
                     real *restrict d_bias, const real *restrict d_out,
                     const real *restrict in, const real *restrict weight,
                     int n, int c_in, int c_out);
real exp_lanes(real x);
real normal_cdf(real z);
real normal_pdf(real z);
/* in, out, d_in and d_out (n) */
void gelu_forward(real *out, const real *in, int n);
void gelu_backward(real *d_in, const real *in, const real *out,
                   const real *d_out, int n);
/* logits, probs and d_logits (n, n_classes); targets, losses (n) */
void crossentropy_forward(real *losses, real *probs, const real *logits,
                          const int *targets, int n, int n_classes);
void crossentropy_backward(real *d_logits, const real *probs,
                           const int *targets, real scale, int n,
                           int n_classes);
int  argmax(const real *x, int n);

typedef struct Model Model;
struct Model {
    Params p;
    real (*batch_loss)(Model *m, const int *problems, int n, int backward);
    int (*answer)(Model *m, int p, char answer[8]);
    int (*grade)(Model *m, unsigned char solved[N_PROBLEMS]);  /* or NULL */
};
int score(Model *m, unsigned char solved[N_PROBLEMS]);

enum { MAX_BATCH = 128 };

typedef struct {
    int step;
    real loss;                          /* of this step's batch */
    int correct;                        /* problems answered exactly */
    unsigned char solved[N_PROBLEMS];   /* which ones */
} TrainRecord;
typedef struct {
    uint64_t seed;
    int steps, batch, eval_every, stop_at_perfect;
    real lr, beta1, beta2, eps;
    void (*observe)(const TrainRecord *record, void *context);
    void *context;                      /* handed to observe */
} TrainConfig;
typedef struct {
    int steps_done, first_perfect, n_records;
    int fault_step;         /* 0, or the step at which a number went bad */
    int fault_table;        /* then: the table holding it; -1: the loss */
} TrainResult;
TrainConfig train_defaults(void);
void adam_step(Params *p, int t, const TrainConfig *cfg);
int  first_nonfinite_table(const Params *p);
TrainResult train(Model *m, const TrainConfig *cfg, TrainRecord *log,
                  int log_capacity);

real loss_on_all_problems(Model *m);
enum { MLP_IN = 2 * N_DIGITS, MLP_HIDDEN = 64, MLP_SLOTS = 3,
       MLP_OUT = MLP_SLOTS * VOCAB };

enum { WINDOW = 8, WINDOW_IN = WINDOW * VOCAB };    /* chapter 4 */
typedef struct Mlp Mlp;
struct Mlp {
    Model model;
    int n_in;                            /* MLP_IN numbers of input */
    void (*input)(Mlp *mlp, int row, int p);    /* fills row of x */
    real x[MAX_BATCH * WINDOW_IN];       /* onehot(a) ++ onehot(b) */
    real z[MAX_BATCH * MLP_HIDDEN];      /* x W1 + b1 */
    real h[MAX_BATCH * MLP_HIDDEN];      /* GELU(z) */
    real logits[MAX_BATCH * MLP_OUT];
    real probs[MAX_BATCH * MLP_OUT];
    real losses[MAX_BATCH * MLP_SLOTS];
    int targets[MAX_BATCH * MLP_SLOTS];    /* token of each slot, or -1 */
    real d_h[MAX_BATCH * MLP_HIDDEN], d_z[MAX_BATCH * MLP_HIDDEN];
    real d_logits[MAX_BATCH * MLP_OUT];
};
int  mlp_init(Mlp *mlp, uint64_t seed);
void mlp_free(Mlp *mlp);

enum { WIDTH = 32 };                /* numbers describing one position */

enum { N_HEADS = 4, HIDDEN = 64, MAX_HEADS = 8 };

enum { TOK_EMB, POS_EMB, LN1_GAIN, WQ, WK, WV, WO, LN2_GAIN,
       W1, B1, W2, B2, LNF_GAIN, W_OUT, N_GPT_TABLES };
extern const TableSpec gpt_tables[N_GPT_TABLES];

/* tokens (B, T), tok_emb (VOCAB, C), pos_emb (T or more, C) or NULL,
   out and d_out (B, T, C) */
void embed_forward(real *out, const int *tokens, const real *tok_emb,
                   const real *pos_emb, int B, int T, int C);
void embed_backward(real *d_tok_emb, real *d_pos_emb, const real *d_out,
                    const int *tokens, int B, int T, int C);

/* in, out, d_in and d_out (N, C), gain (C), mean and rstd (N) */
void layernorm_forward(real *out, real *mean, real *rstd, const real *in,
                       const real *gain, int N, int C);
void layernorm_backward(real *restrict d_in, real *restrict d_gain,
                        const real *restrict d_out, const real *restrict in,
                        const real *restrict gain,
                        const real *restrict mean,
                        const real *restrict rstd, int N, int C);
/* out, a, b and their gradients (N numbers) */
void residual_forward(real *out, const real *a, const real *b, int N);
void residual_backward(real *d_a, real *d_b, const real *d_out, int N);

/* q, k, v, out and their gradients (B, T, C), the heads side by side
   in C; scores and weights (B, n_heads, T, T) */
void attention_forward(real *out, real *scores, real *weights,
                       const real *q, const real *k, const real *v,
                       int B, int T, int C, int n_heads, int causal);
void attention_backward(real *d_q, real *d_k, real *d_v, real *d_scores,
                        real *d_weights, const real *d_out, const real *q,
                        const real *k, const real *v, const real *weights,
                        int B, int T, int C, int n_heads, int causal);

/* weight (t + 1), one row; v (T, C), the head's columns from its
   first; o_t (d_head) */
void attention_mix(real *restrict o_t, const real *restrict weight,
                   const real *restrict v, int t, int C, int d_head);

typedef struct {
    real *x, *ln1, *ln1_mean, *ln1_rstd;            /* embedding, LN 1 */
    real *q, *k, *v, *scores, *weights, *heads, *attn, *x2;  /* attention */
    real *ln2, *ln2_mean, *ln2_rstd, *pre_gelu,                /* FFN */
         *hidden, *ffn, *x3;
    real *lnf, *lnf_mean, *lnf_rstd, *logits, *probs, *losses;  /* output */
} Activations;

enum {                      /* the parts a model can be without */
    NO_POSITION = 1 << 0,   /* no position vectors: x = token vector only */
    NO_MASK = 1 << 1,       /* no causal mask: every row reads every row */
    NO_RESIDUAL = 1 << 2,   /* a sublayer's output replaces the stream */
    NO_LAYERNORM = 1 << 3,  /* the three LayerNorms pass rows through */
    NO_GELU = 1 << 4,       /* the FFN's bend is the identity */
    N_PARTS = 5,            /* new parts take the next bit: at most 31 */
    PART_NAME_MAX = 15,     /* characters of a part's name */
    ABLATED = NO_POSITION | NO_MASK | NO_RESIDUAL | NO_LAYERNORM
};                          /* (the parts chapter 7 switches off) */
typedef uint32_t Ablation;  /* the parts switched off, one bit each */
typedef struct {
    const char *name;       /* the word of attention train --without */
    const char *tag;        /* chapter 7's numbers and files about it */
    const char *label;      /* a model without it, in tables and charts */
    const char *what;       /* the part itself, after "without" */
} Part;
extern const Part part_table[N_PARTS];      /* row i: bit 1 << i */

typedef struct {
    Model model;            /* first member: a Gpt * is a Model * */
    Ablation ablate;        /* 0: the book's model */
    int n_heads, max_batch;
    Activations act, grad;  /* values and their gradients, same layout */
    int B, T;               /* the batch they hold now: B sequences of T */
    real *act_memory, *grad_memory;
    int *tokens, *targets;  /* max_batch * SEQ_LEN; target -1 = none */
    int n_positions;        /* rows of pos_emb: SEQ_LEN in the book */
    TableSpec tables[N_GPT_TABLES];     /* gpt_tables, pos_emb that long */
} Gpt;
/* 0, or -1 with *g empty: gpt_destroy is safe either way */
int  gpt_create(Gpt *g, uint64_t seed, int n_heads, int max_batch);
int  gpt_create_with_positions(Gpt *g, uint64_t seed, int n_heads,
                               int max_batch, int n_positions);
void gpt_destroy(Gpt *g);
void gpt_init_params(Gpt *g, uint64_t seed);
void gpt_forward(Gpt *g, const int *tokens, int B, int T);
void gpt_forward_to_heads(Gpt *g, const int *tokens, int B, int T);
void gpt_forward_from_heads(Gpt *g);
void gpt_forward_to_logits(Gpt *g);
real gpt_loss(Gpt *g, const int *targets, int B, int T);
void gpt_backward(Gpt *g, const int *tokens, const int *targets, int B,
                  int T);

real gpt_batch_loss(Model *m, const int *problems, int n, int backward);
int  gpt_answer(Model *m, int p, char out[8]);
int  gpt_continue(Gpt *g, int tokens[MAX_T], int T, char out[8]);
int  gpt_write_next(const Gpt *g, int tokens[MAX_T], int T, char out[8],
                    int length);

Ablation layernorm_switch(Ablation off, int gain);  /* 0: it normalises */
int ablated_part(int k);

typedef struct {
    int T, n_heads, tokens[MAX_T];
    real x[MAX_T][WIDTH], ln1[MAX_T][WIDTH];
    real q[MAX_T][WIDTH], k[MAX_T][WIDTH], v[MAX_T][WIDTH];
    real scores[MAX_HEADS][MAX_T][MAX_T];   /* scaled, masked to -inf */
    real weights[MAX_HEADS][MAX_T][MAX_T];  /* softmax of each row */
    real heads[MAX_T][WIDTH];               /* heads side by side */
    real attn[MAX_T][WIDTH], x2[MAX_T][WIDTH];
    real hidden[MAX_T][HIDDEN], x3[MAX_T][WIDTH];
    real logits[MAX_T][VOCAB];
} Trace;
void gpt_trace(Gpt *g, const int *tokens, int T, Trace *trace);
int  gpt_forms_agree(Gpt *g, int p);

void question_weights(Gpt *g, int a, int b, real weights[MAX_HEADS][4]);
real swap_change(Gpt *g, int a, int b);
int  most_changed_pair(Gpt *g, int *a, int *b, real *change);

void gpt_ffn_as_one_map(const Gpt *g, real *map, real *shift);

double gpt_train_flops(int B, int T);

typedef struct {
    Rng rng;                    /* draws the layout of each problem */
    int from[N_ALL_LAYOUTS];    /* the layouts it draws from, */
    int drawn;                  /* this many of them */
} LayoutDraw;
typedef struct {
    Gpt gpt;                /* first member: a LayoutGpt * is a Model * */
    LayoutDraw layouts;
} LayoutGpt;
int  layouts_longest(void);
int  layout_gpt_create(LayoutGpt *l, uint64_t seed);

int  layout_grade(LayoutGpt *l, int which,
                  unsigned char solved[N_PROBLEMS]);

int  layout_answer(Gpt *g, int p, int which, char out[8]);

typedef struct {
    Mlp mlp;                /* first member: a WindowMlp * is a Model * */
    LayoutDraw layouts;
    int which[MAX_BATCH];   /* the layout of each row of the batch */
} WindowMlp;
int  window_mlp_init(WindowMlp *w, uint64_t seed);
int  window_answer(WindowMlp *w, int p, int which, char out[8]);

#endif
