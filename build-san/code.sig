/* attention.h: the core of attention.nw (tangled; edit attention.nw) */
#ifndef ATTENTION_H
#define ATTENTION_H
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
const char *tokens_parse(const char *text, size_t n, int tokens[SEQ_LEN],
                         int *length, size_t *where);
int  question_of_tokens(const int *tokens, int length);
enum { TOK_TIMES = 10, TOK_EQUALS = 11, TOK_END = 12 };
int  problem_tokens(int p, int tokens[SEQ_LEN]);
int  problem_answer(int p, char answer[8]);
int  token_of_char(int c);
char char_of_token(int token);
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
void matmul_forward(real *out, const real *in, const real *weight,
                    const real *bias, int n, int c_in, int c_out);
void matmul_backward(real *d_in, real *d_weight, real *d_bias,
                     const real *d_out, const real *in, const real *weight,
                     int n, int c_in, int c_out);
void gelu_forward(real *out, const real *in, int n);
void gelu_backward(real *d_in, const real *in, const real *d_out, int n);
void crossentropy_forward(real *losses, real *probs, const real *logits,
                          const int *targets, int n, int n_classes);
void crossentropy_backward(real *d_logits, const real *probs,
                           const int *targets, real scale, int n, int n_classes);
int  argmax(const real *x, int n);
typedef struct Model Model;
struct Model {
    Params p;
    real (*batch_loss)(Model *m, const int *problems, int n, int backward);
    int (*answer)(Model *m, int p, char answer[8]);
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
    int fault_table;        /* then: the table holding it, or -1: the loss */
} TrainResult;
TrainConfig train_defaults(void);
void adam_step(Params *p, int t, const TrainConfig *cfg);
int  first_nonfinite_table(const Params *p);
TrainResult train(Model *m, const TrainConfig *cfg, TrainRecord *log,
                  int log_capacity);
enum { MLP_IN = 2 * N_DIGITS, MLP_HIDDEN = 64, MLP_SLOTS = 3,
       MLP_OUT = MLP_SLOTS * VOCAB };
typedef struct {
    Model model;
    real x[MAX_BATCH * MLP_IN];          /* onehot(a) ++ onehot(b) */
    real z[MAX_BATCH * MLP_HIDDEN];      /* x W1 + b1 */
    real h[MAX_BATCH * MLP_HIDDEN];      /* GELU(z) */
    real logits[MAX_BATCH * MLP_OUT];
    real probs[MAX_BATCH * MLP_OUT];
    real losses[MAX_BATCH * MLP_SLOTS];
    int targets[MAX_BATCH * MLP_SLOTS];    /* token of each slot, or -1 */
    real d_h[MAX_BATCH * MLP_HIDDEN], d_z[MAX_BATCH * MLP_HIDDEN];
    real d_logits[MAX_BATCH * MLP_OUT];
} Mlp;
int  mlp_init(Mlp *mlp, uint64_t seed);
void mlp_free(Mlp *mlp);
enum { WIDTH = 32 };                /* numbers describing one position */
void embed_forward(real *out, const int *tokens, const real *tok_emb,
                   const real *pos_emb, int B, int T, int C);
void embed_backward(real *d_tok_emb, real *d_pos_emb, const real *d_out,
                    const int *tokens, int B, int T, int C);
enum { N_HEADS = 4, HIDDEN = 64, MAX_HEADS = 8 };
enum { TOK_EMB, POS_EMB, LN1_GAIN, WQ, WK, WV, WO, LN2_GAIN,
       W1, B1, W2, B2, LNF_GAIN, W_OUT, N_GPT_TABLES };
extern const TableSpec gpt_tables[N_GPT_TABLES];
typedef struct {
    real *x, *ln1, *ln1_mean, *ln1_rstd;            /* embedding, LN 1 */
    real *q, *k, *v, *scores, *weights, *heads, *attn, *x2;  /* attention */
    real *ln2, *ln2_mean, *ln2_rstd, *pre_gelu, *hidden, *ffn, *x3;  /* FFN */
    real *lnf, *lnf_mean, *lnf_rstd, *logits, *probs, *losses;     /* output */
} Activations;
typedef struct {
    int no_position;        /* no position vectors: x = token vector only */
    int no_mask;            /* no causal mask: every row reads every row */
    int no_residual;        /* sublayers overwrite the stream, not add to it */
    int no_layernorm;       /* the three LayerNorms pass rows through */
    int no_gelu;            /* the FFN's bend is the identity */
} Ablation;
typedef struct {
    Model model;            /* first member: a Gpt * is a Model * */
    Ablation ablate;        /* all zero: the book's model */
    int n_heads, max_batch;
    Activations act, grad;  /* values and their gradients, same layout */
    real *act_memory, *grad_memory;
    size_t act_size;        /* reals in each of the two memories */
    int *tokens, *targets;  /* max_batch * SEQ_LEN; target -1 = none */
} Gpt;
int  gpt_create(Gpt *g, uint64_t seed, int n_heads, int max_batch);
void gpt_destroy(Gpt *g);
void gpt_init_params(Gpt *g, uint64_t seed);
void gpt_forward(Gpt *g, const int *tokens, int B, int T);
real gpt_loss(Gpt *g, const int *targets, int B, int T);
void gpt_backward(Gpt *g, const int *tokens, const int *targets, int B, int T);
void layernorm_forward(real *out, real *mean, real *rstd, const real *in,
                       const real *gain, int N, int C);
void layernorm_backward(real *d_in, real *d_gain, const real *d_out,
                        const real *in, const real *gain, const real *mean,
                        const real *rstd, int N, int C);
void residual_forward(real *out, const real *a, const real *b, int N);
void residual_backward(real *d_a, real *d_b, const real *d_out, int N);
real gpt_batch_loss(Model *m, const int *problems, int n, int backward);
int  gpt_answer(Model *m, int p, char out[8]);
typedef struct {
    int T, n_heads, tokens[SEQ_LEN];
    real x[SEQ_LEN][WIDTH], ln1[SEQ_LEN][WIDTH];
    real q[SEQ_LEN][WIDTH], k[SEQ_LEN][WIDTH], v[SEQ_LEN][WIDTH];
    real scores[MAX_HEADS][SEQ_LEN][SEQ_LEN];   /* scaled, masked to -inf */
    real weights[MAX_HEADS][SEQ_LEN][SEQ_LEN];  /* softmax of each row */
    real heads[SEQ_LEN][WIDTH];                 /* heads side by side */
    real attn[SEQ_LEN][WIDTH], x2[SEQ_LEN][WIDTH];
    real hidden[SEQ_LEN][HIDDEN], x3[SEQ_LEN][WIDTH];
    real logits[SEQ_LEN][VOCAB];
} Trace;
void gpt_trace(Gpt *g, const int *tokens, int T, Trace *trace);
int  gpt_forms_agree(Gpt *g, int p);
void attention_forward(real *out, real *scores, real *weights,
                       const real *q, const real *k, const real *v,
                       int B, int T, int C, int n_heads);
void attention_backward(real *d_q, real *d_k, real *d_v, real *d_scores,
                        real *d_weights, const real *d_out, const real *q,
                        const real *k, const real *v, const real *weights,
                        int B, int T, int C, int n_heads);
enum { CHECKPOINT_VERSION = 1 };
size_t checkpoint_size(const Params *p);
void checkpoint_encode(unsigned char *out, const Params *p, int n_heads);
const char *checkpoint_decode(Params *p, int n_heads,
                              const unsigned char *in, size_t length,
                              char *why, size_t why_size);
#endif
/* svg.h: figures as SVG text in memory, no I/O (tangled; edit attention.nw) */
#ifndef SVG_H
#define SVG_H

#include <stddef.h>

#if defined(__GNUC__)
#define SVG_PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define SVG_PRINTF_LIKE(f, a)
#endif
/* A growable text; start from Text t = {0}. Out of memory sets failed. */
typedef struct {
    char *data;
    size_t len, cap;
    int failed;
} Text;
void text_printf(Text *t, const char *fmt, ...) SVG_PRINTF_LIKE(2, 3);
void text_free(Text *t);
/* Axis ticks: values and their labels, covering lo..hi. */
enum { SVG_MAX_TICKS = 24, SVG_LABEL_LEN = 24 };
typedef struct {
    double lo, hi; /* the range the axis shows */
    int count;
    double value[SVG_MAX_TICKS];
    char label[SVG_MAX_TICKS][SVG_LABEL_LEN];
} SvgTicks;
/* About `target` ticks at 1, 2 or 5 x 10^k; if loose, the range grows to
   the ticks around it, else the ticks stay inside lo..hi. */
SvgTicks svg_nice_ticks(double lo, double hi, int target, int loose);
/* Ticks at powers of ten, with 2 and 5 between them over short ranges. */
SvgTicks svg_log_ticks(double lo, double hi, int loose);
/* Okabe-Ito colours, safe for colour-blind readers; i wraps around. */
const char *svg_palette(int i);
typedef struct {
    const char *label;
    const float *x, *y; /* n points; a NaN breaks the line */
    int n;
    int dashed;
    const char *color; /* NULL: svg_palette(index of the series) */
} SvgSeries;

/* A labelled reference line: horizontal at y = at, or vertical at x = at. */
typedef struct {
    int on;
    double at;
    const char *label;
} SvgGuide;
typedef enum {
    SVG_LEGEND_RIGHT, /* outside the plot (the default) */
    SVG_LEGEND_BELOW, /* outside the plot */
    SVG_LEGEND_BEST,  /* the inside corner that hides least data */
    SVG_LEGEND_TOP_RIGHT,
    SVG_LEGEND_TOP_LEFT,
    SVG_LEGEND_BOTTOM_RIGHT,
    SVG_LEGEND_BOTTOM_LEFT,
    SVG_LEGEND_NONE
} SvgLegendPlace;
typedef struct {
    const char *title, *x_label, *y_label; /* each may be NULL */
    const SvgSeries *series;
    int n_series;
    double x_min, x_max; /* fixed range if x_min < x_max, else fitted */
    double y_min, y_max; /* fixed range if y_min < y_max, else fitted */
    int log_y;
    SvgGuide h_line, v_line;
    SvgLegendPlace legend;
} SvgLinePanel;

void svg_line_chart(Text *t, const SvgLinePanel *panel, double width,
                    double height);
/* Panels side by side, one legend below for the series of panels[0]
   (none if panels[0].legend is SVG_LEGEND_NONE); title may be NULL. */
void svg_line_charts(Text *t, const SvgLinePanel *panels, int n_panels,
                     const char *title, double width, double height);
typedef enum { SVG_SEQUENTIAL, SVG_DIVERGING } SvgColorMap;
typedef struct {
    SvgColorMap map;   /* viridis-like, or blue-white-red about 0 */
    double lo, hi;     /* fixed if lo < hi, else fitted to the data */
    const char *label; /* title of the colour bar, may be NULL */
} SvgColorScale;
typedef struct {
    const char *title, *x_label, *y_label;
    int rows, cols;
    const float *values;           /* rows x cols, row by row;
                                      NaN marks a masked cell */
    const char *const *row_labels; /* NULL: 0, 1, 2, ... */
    const char *const *col_labels;
    const char *cell_format; /* e.g. "%.2f"; NULL: no numbers */
} SvgHeatmap;

void svg_heatmap(Text *t, const SvgHeatmap *map, SvgColorScale scale,
                 double width, double height);
/* n heatmaps in a grid of `columns`, sharing one colour scale. */
void svg_heatmaps(Text *t, const SvgHeatmap *maps, int n, int columns,
                  const char *title, SvgColorScale scale, double width,
                  double height);
typedef struct {
    const char *title, *x_label, *y_label;
    int n_categories, n_groups;
    const char *const *categories; /* n_categories names */
    const char *const *groups;     /* n_groups names, or NULL */
    const float *values;           /* n_groups x n_categories */
    const char *value_format;      /* e.g. "%.1f"; NULL: no labels */
    double y_min, y_max;           /* fixed if y_min < y_max */
} SvgBarChart;

void svg_bar_chart(Text *t, const SvgBarChart *chart, double width,
                   double height);
typedef struct {
    double x, y, w, h;
} SvgRect;

void svg_begin(Text *t, double width, double height);
void svg_end(Text *t);
void svg_line_panel(Text *t, SvgRect box, const SvgLinePanel *panel);
SvgRect svg_legend_size(const SvgSeries *series, int n, int horizontal);
void svg_legend(Text *t, double x, double y, const SvgSeries *series, int n,
                int horizontal);
SvgColorScale svg_fit_scale(SvgColorScale scale, const SvgHeatmap *maps,
                            int n);
void svg_heatmap_panel(Text *t, SvgRect box, const SvgHeatmap *map,
                       SvgColorScale fitted);
double svg_color_bar_width(SvgColorScale fitted);
void svg_color_bar(Text *t, SvgRect box, SvgColorScale fitted);
/* The colour for u in 0..1 as "#rrggbb". */
void svg_color(SvgColorMap map, double u, char out[8]);

#endif
/* core.c: data, models, training (tangled; edit attention.nw) */
#include "attention.h"
#include <stdio.h>                  /* snprintf only: the core does no I/O */
#include <stdlib.h>
#include <string.h>
#include <tgmath.h>
static void mlp_backward(Mlp *mlp, int n, real scale);
int first_nonfinite_table(const Params *p);
static const uint64_t BATCH_STREAM = 0x5bd1e995u;
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
double rng_uniform(Rng *rng) { return (double)(rng_next(rng) >> 11) * 0x1.0p-53; }

int rng_below(Rng *rng, int n) { return (int)(rng_uniform(rng) * n); }
real rng_normal(Rng *rng)
{
    double u1 = 1.0 - rng_uniform(rng), u2 = rng_uniform(rng);
    return (real)(sqrt(-2.0 * log(u1)) * cos(2.0 * 3.14159265358979323846 * u2));
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
const char *tokens_parse(const char *text, size_t n, int tokens[SEQ_LEN],
                         int *length, size_t *where)
{
    *where = 0;
    if (n == 0)
        return "is empty";
    if (n > SEQ_LEN)
        return "is longer than the 7 positions of the model";
    for (size_t i = 0; i < n; i++) {
        *where = i;
        if ((tokens[i] = token_of_char((unsigned char)text[i])) < 0)
            return "holds a character that is not a token";
    }
    *length = (int)n;
    return NULL;
}
int question_of_tokens(const int *tokens, int length)
{
    if (length != 4 || tokens[0] >= N_DIGITS || tokens[1] != TOK_TIMES
        || tokens[2] >= N_DIGITS || tokens[3] != TOK_EQUALS)
        return -1;
    return tokens[0] * 10 + tokens[2];
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
                           const int *targets, real scale, int n, int n_classes)
{
    for (int row = 0; row < n; row++) {
        if (targets[row] < 0)
            continue;
        for (int i = 0; i < n_classes; i++) {
            real indicator = i == targets[row] ? 1 : 0;
            d_logits[row * n_classes + i] += (probs[row * n_classes + i] - indicator) * scale;
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
enum { MLP_W1, MLP_B1, MLP_W2, MLP_B2, MLP_TABLES };
static const TableSpec mlp_tables[MLP_TABLES] = {
    {"W1", MLP_IN, MLP_HIDDEN}, {"b1", 1, MLP_HIDDEN},
    {"W2", MLP_HIDDEN, MLP_OUT}, {"b2", 1, MLP_OUT},
};
static void mlp_input(real *x, int p)
{
    memset(x, 0, MLP_IN * sizeof *x);
    x[p / 10] = 1;                  /* the slot of a */
    x[N_DIGITS + p % 10] = 1;       /* the slot of b */
}
static void mlp_forward(Mlp *mlp, const int *problems, int n)
{
    real *const *t = mlp->model.p.table;
    for (int row = 0; row < n; row++)
        mlp_input(mlp->x + row * MLP_IN, problems[row]);
    matmul_forward(mlp->z, mlp->x, t[MLP_W1], t[MLP_B1], n, MLP_IN, MLP_HIDDEN);
    gelu_forward(mlp->h, mlp->z, n * MLP_HIDDEN);
    matmul_forward(mlp->logits, mlp->h, t[MLP_W2], t[MLP_B2], n, MLP_HIDDEN, MLP_OUT);
}
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
static real mlp_batch_loss(Model *m, const int *problems, int n, int backward)
{
    Mlp *mlp = (Mlp *)m;
    int rows = n * MLP_SLOTS, count = mlp_targets(mlp->targets, problems, n);
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
    gelu_backward(mlp->d_z, mlp->z, mlp->d_h, n * MLP_HIDDEN);
    matmul_backward(NULL, g[MLP_W1], g[MLP_B1], mlp->d_z, mlp->x,
                    t[MLP_W1], n, MLP_IN, MLP_HIDDEN);
}
static void init_matrix(real *w, int rows, int cols, Rng *rng)
{
    real std = 1 / sqrt((real)rows);
    for (int i = 0; i < rows * cols; i++)
        w[i] = std * rng_normal(rng);
}
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
void embed_forward(real *out, const int *tokens, const real *tok_emb,
                   const real *pos_emb, int B, int T, int C)
{
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            real *x = out + (b * T + t) * C;
            const real *token = tok_emb + tokens[b * T + t] * C;  /* a row pick */
            const real *pos = pos_emb + t * C;
            for (int i = 0; i < C; i++)
                x[i] = token[i] + pos[i];
        }
}
void embed_backward(real *d_tok_emb, real *d_pos_emb, const real *d_out,
                    const int *tokens, int B, int T, int C)
{
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            const real *dx = d_out + (b * T + t) * C;
            real *d_token = d_tok_emb + tokens[b * T + t] * C;
            real *d_pos = d_pos_emb + t * C;
            for (int i = 0; i < C; i++) {
                d_token[i] += dx[i];
                d_pos[i] += dx[i];
            }
        }
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
void gpt_forward(Gpt *g, const int *tokens, int B, int T)
{
    Activations *a = &g->act;
    real **w = g->model.p.table;
    int N = B * T, C = WIDTH;
    embed_forward(a->x, tokens, w[TOK_EMB], w[POS_EMB], B, T, C);
    
layernorm_forward(a->ln1, a->ln1_mean, a->ln1_rstd, a->x, w[LN1_GAIN], N, C);
matmul_forward(a->q, a->ln1, w[WQ], NULL, N, C, C);
matmul_forward(a->k, a->ln1, w[WK], NULL, N, C, C);
matmul_forward(a->v, a->ln1, w[WV], NULL, N, C, C);
attention_forward(a->heads, a->scores, a->weights, a->q, a->k, a->v,
                  B, T, C, g->n_heads);
matmul_forward(a->attn, a->heads, w[WO], NULL, N, C, C);
residual_forward(a->x2, a->x, a->attn, N * C);
    
layernorm_forward(a->ln2, a->ln2_mean, a->ln2_rstd, a->x2, w[LN2_GAIN], N, C);
matmul_forward(a->pre_gelu, a->ln2, w[W1], w[B1], N, C, HIDDEN);
gelu_forward(a->hidden, a->pre_gelu, N * HIDDEN);
matmul_forward(a->ffn, a->hidden, w[W2], w[B2], N, HIDDEN, C);
residual_forward(a->x3, a->x2, a->ffn, N * C);
    
layernorm_forward(a->lnf, a->lnf_mean, a->lnf_rstd, a->x3, w[LNF_GAIN], N, C);
matmul_forward(a->logits, a->lnf, w[W_OUT], NULL, N, C, VOCAB);
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
void residual_forward(real *out, const real *a, const real *b, int N)
{
    for (int i = 0; i < N; i++)
        out[i] = a[i] + b[i];
}
static real *carve(real *memory, size_t *used, size_t n)
{
    real *slot = memory ? memory + *used : NULL;
    *used += n;
    return slot;
}
static size_t layout(Activations *a, real *memory, int max_batch, int n_heads)
{
    size_t used = 0, rows = (size_t)max_batch * SEQ_LEN, C = WIDTH;
    size_t cells = rows * (size_t)n_heads * SEQ_LEN;
    
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
    memset(g, 0, sizeof *g);
    if (n_heads < 1 || n_heads > MAX_HEADS || WIDTH % n_heads || max_batch < 1)
        return -1;
    if (params_alloc(&g->model.p, gpt_tables, N_GPT_TABLES) != 0)
        return -1;
    g->model.batch_loss = gpt_batch_loss;
    g->model.answer = gpt_answer;
    g->n_heads = n_heads;
    g->max_batch = max_batch;
    
g->act_size = layout(&g->act, NULL, max_batch, n_heads);
g->act_memory = calloc(g->act_size, sizeof(real));
g->grad_memory = calloc(g->act_size, sizeof(real));
g->tokens = calloc((size_t)max_batch * SEQ_LEN, sizeof(int));
g->targets = calloc((size_t)max_batch * SEQ_LEN, sizeof(int));
if (!g->act_memory || !g->grad_memory || !g->tokens || !g->targets) {
    gpt_destroy(g);
    return -1;
}
layout(&g->act, g->act_memory, max_batch, n_heads);
layout(&g->grad, g->grad_memory, max_batch, n_heads);
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
        int n = gpt_tables[table].rows * gpt_tables[table].cols;
        int is_gain = table == LN1_GAIN || table == LN2_GAIN || table == LNF_GAIN;
        real std = init_std(table);
        for (int i = 0; i < n; i++)
            p->table[table][i] = std > 0 ? std * (real)rng_normal(&rng)
                                         : is_gain ? 1 : 0;
    }
    memset(p->m, 0, p->n_params * sizeof(real));
    memset(p->v, 0, p->n_params * sizeof(real));
}
static void fill_batch(Gpt *g, const int *problems, int n)
{
    for (int b = 0; b < n; b++) {
        int *tokens = g->tokens + b * SEQ_LEN;
        int *targets = g->targets + b * SEQ_LEN;
        int length = problem_tokens(problems[b], tokens);
        for (int t = length; t < SEQ_LEN; t++)
            tokens[t] = TOK_END;
        for (int t = 0; t < SEQ_LEN; t++)
            targets[t] = t + 1 < length ? tokens[t + 1] : -1;
    }
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
    crossentropy_forward(g->act.losses, g->act.probs, g->act.logits, targets,
                         N, VOCAB);
    for (int row = 0; row < N; row++)
        sum += g->act.losses[row];
    return sum / count_targets(targets, N);
}
void gpt_backward(Gpt *g, const int *tokens, const int *targets, int B, int T)
{
    Activations *a = &g->act, *d = &g->grad;
    real **w = g->model.p.table, **dw = g->model.p.grad;
    int N = B * T, C = WIDTH;
    memset(g->grad_memory, 0, g->act_size * sizeof(real));
    real scale = (real)1 / count_targets(targets, N);
    
crossentropy_backward(d->logits, a->probs, targets, scale, N, VOCAB);
matmul_backward(d->lnf, dw[W_OUT], NULL, d->logits, a->lnf, w[W_OUT],
                N, C, VOCAB);
layernorm_backward(d->x3, dw[LNF_GAIN], d->lnf, a->x3, w[LNF_GAIN],
                   a->lnf_mean, a->lnf_rstd, N, C);
    
residual_backward(d->x2, d->ffn, d->x3, N * C);
matmul_backward(d->hidden, dw[W2], dw[B2], d->ffn, a->hidden, w[W2],
                N, HIDDEN, C);
gelu_backward(d->pre_gelu, a->pre_gelu, d->hidden, N * HIDDEN);
matmul_backward(d->ln2, dw[W1], dw[B1], d->pre_gelu, a->ln2, w[W1],
                N, C, HIDDEN);
layernorm_backward(d->x2, dw[LN2_GAIN], d->ln2, a->x2, w[LN2_GAIN],
                   a->ln2_mean, a->ln2_rstd, N, C);
    
residual_backward(d->x, d->attn, d->x2, N * C);
matmul_backward(d->heads, dw[WO], NULL, d->attn, a->heads, w[WO], N, C, C);
attention_backward(d->q, d->k, d->v, d->scores, d->weights, d->heads,
                   a->q, a->k, a->v, a->weights, B, T, C, g->n_heads);
matmul_backward(d->ln1, dw[WQ], NULL, d->q, a->ln1, w[WQ], N, C, C);
matmul_backward(d->ln1, dw[WK], NULL, d->k, a->ln1, w[WK], N, C, C);
matmul_backward(d->ln1, dw[WV], NULL, d->v, a->ln1, w[WV], N, C, C);
layernorm_backward(d->x, dw[LN1_GAIN], d->ln1, a->x, w[LN1_GAIN],
                   a->ln1_mean, a->ln1_rstd, N, C);
    embed_backward(dw[TOK_EMB], dw[POS_EMB], d->x, tokens, B, T, C);
}
void residual_backward(real *d_a, real *d_b, const real *d_out, int N)
{
    for (int i = 0; i < N; i++) {
        d_a[i] += d_out[i];
        d_b[i] += d_out[i];
    }
}
void layernorm_backward(real *d_in, real *d_gain, const real *d_out,
                        const real *in, const real *gain, const real *mean,
                        const real *rstd, int N, int C)
{
    for (int row = 0; row < N; row++) {
        const real *x = in + row * C, *dy = d_out + row * C;
        
real d_norm_mean = 0, d_norm_norm_mean = 0;
for (int i = 0; i < C; i++) {
    real norm = (x[i] - mean[row]) * rstd[row];
    d_norm_mean += gain[i] * dy[i];
    d_norm_norm_mean += gain[i] * dy[i] * norm;
}
d_norm_mean = d_norm_mean / C;
d_norm_norm_mean = d_norm_norm_mean / C;
        for (int i = 0; i < C; i++) {
            real norm = (x[i] - mean[row]) * rstd[row];
            real d_norm = gain[i] * dy[i];
            d_gain[i] += dy[i] * norm;
            d_in[row * C + i] += rstd[row] * (d_norm - d_norm_mean
                                              - norm * d_norm_norm_mean);
        }
    }
}
real gpt_batch_loss(Model *m, const int *problems, int n, int backward)
{
    Gpt *g = (Gpt *)m;
    if (n < 1 || n > g->max_batch)
        return NAN;
    fill_batch(g, problems, n);
    gpt_forward(g, g->tokens, n, SEQ_LEN);
    real loss = gpt_loss(g, g->targets, n, SEQ_LEN);
    if (backward)
        gpt_backward(g, g->tokens, g->targets, n, SEQ_LEN);
    return loss;
}
int gpt_answer(Model *m, int p, char out[8])
{
    Gpt *g = (Gpt *)m;
    int tokens[SEQ_LEN], T = 4, length = 0;
    problem_tokens(p, tokens);              /* only "a*b=" is kept */
    while (T < SEQ_LEN) {
        gpt_forward(g, tokens, 1, T);
        int next = argmax(g->act.logits + (T - 1) * VOCAB, VOCAB);
        tokens[T++] = next;
        out[length++] = char_of_token(next);
        if (next == TOK_END)
            break;
    }
    out[length] = '\0';
    return length;
}
/* out (n x p) = a (n x m) times b (m x p) */
static void matmul(real *out, const real *a, const real *b, int n, int m, int p)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < p; j++) {
            real sum = 0;
            for (int k = 0; k < m; k++)
                sum += a[i * m + k] * b[k * p + j];
            out[i * p + j] = sum;
        }
}

static void transpose(real *out, const real *a, int n, int m)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            out[j * n + i] = a[i * m + j];
}

static void divide_all(real *a, int n, real divisor)
{
    for (int i = 0; i < n; i++)
        a[i] = a[i] / divisor;
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

static void keep_square(real out[SEQ_LEN][SEQ_LEN], const real *a, int T)
{
    for (int t = 0; t < T; t++)
        for (int u = 0; u < T; u++)
            out[t][u] = a[t * T + u];
}
static void classic_head(Trace *tr, int head, int d_head)
{
    int T = tr->T, first = head * d_head;
    real Q[SEQ_LEN * WIDTH], K[SEQ_LEN * WIDTH], V[SEQ_LEN * WIDTH];
    real K_T[WIDTH * SEQ_LEN], S[SEQ_LEN * SEQ_LEN], O[SEQ_LEN * WIDTH];
    take_columns(Q, &tr->q[0][0], T, WIDTH, first, d_head);
    take_columns(K, &tr->k[0][0], T, WIDTH, first, d_head);
    take_columns(V, &tr->v[0][0], T, WIDTH, first, d_head);
    transpose(K_T, K, T, d_head);
    matmul(S, Q, K_T, T, d_head, T);             /* 4. scores = Q K^T   */
    divide_all(S, T * T, sqrt((real)d_head));    /* 5. / sqrt(d_head)   */
    mask_future(S, T);                           /* 6. causal mask      */
    keep_square(tr->scores[head], S, T);
    softmax_rows(S, T, T);                       /* 7. softmax each row */
    keep_square(tr->weights[head], S, T);
    matmul(O, S, V, T, T, d_head);               /* 8. weights times V  */
    put_columns(&tr->heads[0][0], O, T, WIDTH, first, d_head);
}
static void classic_attention(Trace *tr, real **w)
{
    int T = tr->T, d_head = WIDTH / tr->n_heads;
    matmul(&tr->q[0][0], &tr->ln1[0][0], w[WQ], T, WIDTH, WIDTH);   /* 1. Q */
    matmul(&tr->k[0][0], &tr->ln1[0][0], w[WK], T, WIDTH, WIDTH);   /* 2. K */
    matmul(&tr->v[0][0], &tr->ln1[0][0], w[WV], T, WIDTH, WIDTH);   /* 3. V */
    for (int head = 0; head < tr->n_heads; head++)
        classic_head(tr, head, d_head);
    matmul(&tr->attn[0][0], &tr->heads[0][0], w[WO], T, WIDTH, WIDTH);
}
void gpt_trace(Gpt *g, const int *tokens, int T, Trace *tr)
{
    real **w = g->model.p.table;
    real mean[SEQ_LEN], rstd[SEQ_LEN], norm[SEQ_LEN * WIDTH];
    real pre_gelu[SEQ_LEN * HIDDEN], ffn[SEQ_LEN * WIDTH];
    tr->T = T;
    tr->n_heads = g->n_heads;
    for (int t = 0; t < T; t++)
        tr->tokens[t] = tokens[t];
    embed_forward(&tr->x[0][0], tokens, w[TOK_EMB], w[POS_EMB], 1, T, WIDTH);
    layernorm_forward(&tr->ln1[0][0], mean, rstd, &tr->x[0][0], w[LN1_GAIN],
                      T, WIDTH);
    classic_attention(tr, w);
    residual_forward(&tr->x2[0][0], &tr->x[0][0], &tr->attn[0][0], T * WIDTH);
    
layernorm_forward(norm, mean, rstd, &tr->x2[0][0], w[LN2_GAIN], T, WIDTH);
matmul_forward(pre_gelu, norm, w[W1], w[B1], T, WIDTH, HIDDEN);
gelu_forward(&tr->hidden[0][0], pre_gelu, T * HIDDEN);
matmul_forward(ffn, &tr->hidden[0][0], w[W2], w[B2], T, HIDDEN, WIDTH);
residual_forward(&tr->x3[0][0], &tr->x2[0][0], ffn, T * WIDTH);
layernorm_forward(norm, mean, rstd, &tr->x3[0][0], w[LNF_GAIN], T, WIDTH);
matmul_forward(&tr->logits[0][0], norm, w[W_OUT], NULL, T, WIDTH, VOCAB);
}
static void attention_scores(real *score, const real *q_t, const real *k,
                             int t, int T, int C, int d_head)
{
    real root = sqrt((real)d_head);
    for (int u = 0; u <= t; u++) {
        real dot = 0;
        for (int i = 0; i < d_head; i++)
            dot += q_t[i] * k[u * C + i];
        score[u] = dot / root;
    }
    for (int u = t + 1; u < T; u++)
        score[u] = -INFINITY;
}
static void attention_softmax(real *weight, const real *score, int t, int T)
{
    real max = -INFINITY, sum = 0;
    for (int u = 0; u <= t; u++)
        if (score[u] > max)
            max = score[u];
    for (int u = 0; u <= t; u++) {
        weight[u] = exp(score[u] - max);
        sum += weight[u];
    }
    for (int u = 0; u <= t; u++)
        weight[u] = weight[u] / sum;
    for (int u = t + 1; u < T; u++)
        weight[u] = 0;
}
static void attention_mix(real *o_t, const real *weight, const real *v,
                          int t, int C, int d_head)
{
    for (int i = 0; i < d_head; i++) {
        real mix = 0;
        for (int u = 0; u <= t; u++)
            mix += weight[u] * v[u * C + i];
        o_t[i] = mix;
    }
}
void attention_forward(real *out, real *scores, real *weights,
                       const real *q, const real *k, const real *v,
                       int B, int T, int C, int n_heads)
{
    int d_head = C / n_heads;
    for (int b = 0; b < B; b++)
        for (int head = 0; head < n_heads; head++)
            for (int t = 0; t < T; t++) {
                int row = b * T + t, cell = ((b * n_heads + head) * T + t) * T;
                int first = b * T * C + head * d_head;
                attention_scores(scores + cell, q + row * C + head * d_head,
                                 k + first, t, T, C, d_head);
                attention_softmax(weights + cell, scores + cell, t, T);
                attention_mix(out + row * C + head * d_head, weights + cell,
                              v + first, t, C, d_head);
            }
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
static void attention_mix_backward(real *d_weight, real *d_v, const real *d_o_t,
                                   const real *weight, const real *v,
                                   int t, int C, int d_head)
{
    for (int u = 0; u <= t; u++)
        for (int i = 0; i < d_head; i++) {
            d_weight[u] += d_o_t[i] * v[u * C + i];
            d_v[u * C + i] += weight[u] * d_o_t[i];
        }
}
static void attention_softmax_backward(real *d_score, const real *d_weight,
                                       const real *weight, int t)
{
    real expected = 0;
    for (int u = 0; u <= t; u++)
        expected += weight[u] * d_weight[u];
    for (int u = 0; u <= t; u++)
        d_score[u] += weight[u] * (d_weight[u] - expected);
}
static void attention_scores_backward(real *d_q_t, real *d_k, const real *d_score,
                                      const real *q_t, const real *k,
                                      int t, int C, int d_head)
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
                        int B, int T, int C, int n_heads)
{
    int d_head = C / n_heads;
    for (int b = 0; b < B; b++)
        for (int head = 0; head < n_heads; head++)
            for (int t = 0; t < T; t++) {
                int row = b * T + t, cell = ((b * n_heads + head) * T + t) * T;
                int first = b * T * C + head * d_head, column = head * d_head;
                attention_mix_backward(d_weights + cell, d_v + first,
                                       d_out + row * C + column,
                                       weights + cell, v + first, t, C, d_head);
                attention_softmax_backward(d_scores + cell, d_weights + cell,
                                           weights + cell, t);
                attention_scores_backward(d_q + row * C + column, d_k + first,
                                          d_scores + cell, q + row * C + column,
                                          k + first, t, C, d_head);
            }
}
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
    if (result.fault_step == 0 && (result.fault_table = first_nonfinite_table(&m->p)) >= 0)
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
static const char checkpoint_magic[8] = {'A', 'T', 'T', 'N', 'C', 'K', 'P', 'T'};

size_t checkpoint_size(const Params *p)
{
    return 8 + 4 + 4 + 4 + 8 * (size_t)p->n_tables + 4 * p->n_params + 8;
}
static unsigned char *put_u32(unsigned char *out, uint32_t x)
{
    for (int i = 0; i < 4; i++)
        *out++ = (unsigned char)(x >> (8 * i));
    return out;
}

static uint32_t get_u32(const unsigned char *in)
{
    uint32_t x = 0;
    for (int i = 0; i < 4; i++)
        x |= (uint32_t)in[i] << (8 * i);
    return x;
}
static unsigned char *put_f32(unsigned char *out, real value)
{
    float f = (float)value;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return put_u32(out, bits);
}

static float get_f32(const unsigned char *in)
{
    uint32_t bits = get_u32(in);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}
static uint64_t fnv1a(const unsigned char *data, size_t length)
{
    uint64_t hash = 0xcbf29ce484222325u;
    for (size_t i = 0; i < length; i++) {
        hash ^= data[i];
        hash *= 0x100000001b3u;
    }
    return hash;
}
void checkpoint_encode(unsigned char *out, const Params *p, int n_heads)
{
    unsigned char *start = out;
    memcpy(out, checkpoint_magic, 8);
    out = put_u32(out + 8, CHECKPOINT_VERSION);
    out = put_u32(out, (uint32_t)n_heads);
    out = put_u32(out, (uint32_t)p->n_tables);
    for (int i = 0; i < p->n_tables; i++) {
        out = put_u32(out, (uint32_t)p->specs[i].rows);
        out = put_u32(out, (uint32_t)p->specs[i].cols);
    }
    for (size_t i = 0; i < p->n_params; i++)
        out = put_f32(out, p->params[i]);
    uint64_t hash = fnv1a(start, (size_t)(out - start));
    out = put_u32(out, (uint32_t)hash);
    put_u32(out, (uint32_t)(hash >> 32));
}
const char *checkpoint_decode(Params *p, int n_heads,
                              const unsigned char *in, size_t length,
                              char *why, size_t why_size)
{
    
#define REFUSE(...) return snprintf(why, why_size, __VA_ARGS__), why
size_t expected = checkpoint_size(p);
if (length < 20)
    REFUSE("too short to be a checkpoint (%zu bytes)", length);
if (memcmp(in, checkpoint_magic, 8) != 0)
    REFUSE("not a checkpoint (it does not start with ATTNCKPT)");
if (get_u32(in + 8) != CHECKPOINT_VERSION)
    REFUSE("checkpoint format version %lu, but this program reads version %d",
           (unsigned long)get_u32(in + 8), CHECKPOINT_VERSION);
    
if (get_u32(in + 12) != (uint32_t)n_heads)
    REFUSE("a model with %lu heads, expected %d", (unsigned long)get_u32(in + 12), n_heads);
if (get_u32(in + 16) != (uint32_t)p->n_tables)
    REFUSE("%lu tables, expected %d", (unsigned long)get_u32(in + 16), p->n_tables);
if (length < 20 + 8 * (size_t)p->n_tables)
    REFUSE("truncated: %zu bytes, expected %zu", length, expected);
for (int i = 0; i < p->n_tables; i++) {
    uint32_t rows = get_u32(in + 20 + 8 * i), cols = get_u32(in + 24 + 8 * i);
    if (rows != (uint32_t)p->specs[i].rows || cols != (uint32_t)p->specs[i].cols)
        REFUSE("table %d (%s) is %lux%lu, expected %dx%d", i, p->specs[i].name,
               (unsigned long)rows, (unsigned long)cols, p->specs[i].rows, p->specs[i].cols);
}
if (length != expected)
    REFUSE("%s: %zu bytes, expected %zu", length < expected ? "truncated" : "extra bytes at the end",
           length, expected);
    
uint64_t stored = get_u32(in + length - 8) | (uint64_t)get_u32(in + length - 4) << 32;
if (stored != fnv1a(in, length - 8))
    REFUSE("checksum mismatch: the file is damaged");
const unsigned char *numbers = in + 20 + 8 * (size_t)p->n_tables;
for (int t = 0, i = 0; t < p->n_tables; t++)
    for (int j = 0; j < p->specs[t].rows * p->specs[t].cols; j++, i++)
        if (!isfinite(get_f32(numbers + 4 * (size_t)i)))
            REFUSE("table %s holds a NaN or infinity at index %d", p->specs[t].name, j);
#undef REFUSE
    const unsigned char *data = in + 20 + 8 * (size_t)p->n_tables;
    for (size_t i = 0; i < p->n_params; i++)
        p->params[i] = get_f32(data + 4 * i);
    return NULL;
}
/* svg.c: line charts, heatmaps and bar charts as SVG text, no I/O
   (tangled; edit attention.nw) */
#include "svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sizes in SVG pixels; a figure 700 pixels wide prints about 15 cm wide. */
enum {
    TICK_SIZE = 13,  /* font size of tick labels, legends, cell numbers */
    LABEL_SIZE = 14, /* of axis titles */
    TITLE_SIZE = 15, /* of panel and figure titles */
    TICK_LEN = 5,
    MARGIN = 10,     /* around the whole figure */
    SWATCH = 24,     /* the sample of a line in a legend */
    LEGEND_ROW = 18,
    LEGEND_PAD = 6,
    LEGEND_GAP = 20, /* between the items of a legend laid out in a row */
    COLOR_BAR_WIDTH = 14
};
#define INK  "#222222"
#define GRID "stroke=\"#e3e3e3\" stroke-width=\"1\""
#define AXIS "stroke=\"#555555\" stroke-width=\"1\""
#define GUIDE                                                                 \
    "stroke=\"#444444\" stroke-width=\"1.2\" stroke-dasharray=\"2 3\""
/* Make room for `more` bytes and a NUL; on failure mark the text failed. */
static int text_reserve(Text *t, size_t more)
{
    if (t->failed)
        return 0;
    if (t->len + more < t->cap)
        return 1;
    size_t cap = t->cap ? t->cap : 4096;
    while (cap <= t->len + more && cap <= SIZE_MAX / 2)
        cap *= 2;
    char *data = cap > t->len + more ? realloc(t->data, cap) : NULL;
    if (!data) {
        t->failed = 1;
        return 0;
    }
    t->data = data;
    t->cap = cap;
    return 1;
}
void text_printf(Text *t, const char *fmt, ...)
{
    if (t->failed)
        return;
    va_list args;
    va_start(args, fmt);
    int need = vsnprintf(NULL, 0, fmt, args); /* measure first */
    va_end(args);
    if (need < 0 || !text_reserve(t, (size_t)need)) {
        t->failed = 1;
        return;
    }
    va_start(args, fmt);
    vsnprintf(t->data + t->len, t->cap - t->len, fmt, args);
    va_end(args);
    t->len += (size_t)need;
}

void text_free(Text *t)
{
    free(t->data);
    *t = (Text){0};
}
/* Labels come from the caller: escape what XML reserves. */
static void text_escaped(Text *t, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': text_printf(t, "&amp;"); break;
        case '<': text_printf(t, "&lt;"); break;
        case '>': text_printf(t, "&gt;"); break;
        case '"': text_printf(t, "&quot;"); break;
        default: text_printf(t, "%c", *s);
        }
    }
}
/* Returned by value, so one printf can take several numbers. */
typedef struct {
    char s[SVG_LABEL_LEN];
} Num;

/* v with `decimals` digits, written by us: no locale, never "-0" or "nan". */
static Num fixed(double v, int decimals)
{
    static const long long power[] = {1,     10,     100,    1000,
                                      10000, 100000, 1000000};
    Num n;
    decimals = decimals < 0 ? 0 : decimals > 6 ? 6 : decimals;
    if (!isfinite(v))
        v = 0;
    v = fmax(-1e12, fmin(1e12, v));
    long long q = llround(fabs(v) * (double)power[decimals]);
    const char *sign = v < 0 && q != 0 ? "-" : "";
    if (decimals == 0)
        snprintf(n.s, sizeof n.s, "%s%lld", sign, q);
    else
        snprintf(n.s, sizeof n.s, "%s%lld.%0*lld", sign, q / power[decimals],
                 decimals, q % power[decimals]);
    return n;
}
/* A coordinate: hundredths of a pixel are finer than any printer. */
static Num px(double v) { return fixed(v, 2); }
/* A caller's format may print "-0.00"; a zero has no sign worth showing. */
static void drop_negative_zero(char *s)
{
    if (s[0] == '-' && !strpbrk(s, "123456789"))
        memmove(s, s + 1, strlen(s));
}
/* Round a raw step up to 1, 2 or 5 times a power of ten. */
static double nice_step(double raw)
{
    double power = pow(10, floor(log10(raw)));
    double m = raw / power, tol = 1e-9;
    return power * (m <= 1 + tol   ? 1
                    : m <= 2 + tol ? 2
                    : m <= 5 + tol ? 5
                                   : 10);
}
/* Make lo..hi drawable: finite, ordered and of nonzero width. */
static void widen_range(double *lo, double *hi)
{
    if (!isfinite(*lo) || !isfinite(*hi) || !isfinite(*hi - *lo)) {
        *lo = 0;
        *hi = 1;
        return;
    }
    if (*lo > *hi) {
        double swap = *lo;
        *lo = *hi;
        *hi = swap;
    }
    if (*hi - *lo <= 1e-12 * fmax(1, fabs(*lo))) {
        double pad = *lo != 0 ? 0.1 * fabs(*lo) : 1;
        *lo -= pad;
        *hi += pad;
    }
}
static void add_tick(SvgTicks *ticks, double v, const char *label)
{
    if (ticks->count >= SVG_MAX_TICKS)
        return;
    ticks->value[ticks->count] = v;
    memcpy(ticks->label[ticks->count], label, SVG_LABEL_LEN);
    ticks->count++;
}
SvgTicks svg_nice_ticks(double lo, double hi, int target, int loose)
{
    SvgTicks ticks = {0};
    widen_range(&lo, &hi);
    target = target < 2 ? 2 : target > 12 ? 12 : target;
    double step = nice_step((hi - lo) / target);
    double first = loose ? floor(lo / step + 1e-9) : ceil(lo / step - 1e-9);
    double last = loose ? ceil(hi / step - 1e-9) : floor(hi / step + 1e-9);
    int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    for (double k = first; k <= last + 0.5; k++) /* + 0.0 turns -0 into 0 */
        add_tick(&ticks, k * step + 0.0, fixed(k * step, decimals).s);
    ticks.lo = loose ? first * step + 0.0 : lo;
    ticks.hi = loose ? last * step + 0.0 : hi;
    return ticks;
}
/* m x 10^e as text: plain decimals, or "2e-7" when those get long. */
static Num log_label(int m, int e)
{
    Num n;
    if (e < -4 || e > 5)
        snprintf(n.s, sizeof n.s, "%de%d", m, e);
    else
        n = fixed(m * pow(10, e), e < 0 ? -e : 0);
    return n;
}
/* Candidate ticks m x 10^e in ascending order, reaching past lo and hi. */
static SvgTicks log_candidates(double lo, double hi)
{
    static const int mantissa[] = {1, 2, 5};
    SvgTicks all = {0};
    double decades = log10(hi / lo);
    int with_2_5 = decades <= 3, stride = (int)ceil(decades / 8);
    int e0 = (int)floor(log10(lo)), e1 = (int)ceil(log10(hi));
    e0 = (int)floor((double)e0 / stride) * stride - stride;
    for (int e = e0; e <= e1 + stride; e += stride)
        for (int j = 0; j < (with_2_5 ? 3 : 1); j++)
            add_tick(&all, mantissa[j] * pow(10, e),
                     log_label(mantissa[j], e).s);
    return all;
}
/* Keep lo..hi positive, finite and of nonzero width. */
static void fix_log_range(double *lo, double *hi)
{
    if (*lo > *hi) {
        double swap = *lo;
        *lo = *hi;
        *hi = swap;
    }
    if (!(*hi > 0) || !isfinite(*hi))
        *hi = 10;
    if (!(*lo > 0) || !isfinite(*lo) || *lo >= *hi)
        *lo = *hi / 10;
}
SvgTicks svg_log_ticks(double lo, double hi, int loose)
{
    fix_log_range(&lo, &hi);
    SvgTicks all = log_candidates(lo, hi), ticks = {0};
    int first = 0, last = all.count - 1;
    double below = lo * (1 + 1e-9), above = hi * (1 - 1e-9);
    if (loose) { /* widen to the candidates just outside lo..hi */
        while (first + 1 < all.count && all.value[first + 1] <= below)
            first++;
        while (last - 1 >= 0 && all.value[last - 1] >= above)
            last--;
    } else { /* keep the candidates inside lo..hi */
        while (first < all.count && all.value[first] < lo * (1 - 1e-9))
            first++;
        while (last >= 0 && all.value[last] > hi * (1 + 1e-9))
            last--;
    }
    for (int i = first; i <= last; i++)
        add_tick(&ticks, all.value[i], all.label[i]);
    if (!loose && ticks.count < 2) /* a short fixed range: plain ticks */
        return svg_nice_ticks(lo, hi, 4, 0);
    ticks.lo = loose ? all.value[first] : lo;
    ticks.hi = loose ? all.value[last] : hi;
    return ticks;
}
const char *svg_palette(int i)
{
    static const char *const okabe_ito[] = {"#0072B2", "#D55E00", "#009E73",
                                            "#CC79A7", "#E69F00", "#56B4E9",
                                            "#000000", "#F0E442"};
    int n = (int)(sizeof okabe_ito / sizeof okabe_ito[0]);
    return okabe_ito[((i % n) + n) % n];
}
typedef struct {
    double r, g, b;
} Rgb; /* 0..255 each */

/* Anchor colours; between them we interpolate linearly. */
static const Rgb viridis[] = {{68, 1, 84},    {72, 40, 120},  {62, 73, 137},
                              {49, 104, 142}, {38, 130, 142}, {31, 158, 137},
                              {53, 183, 121}, {110, 206, 88}, {181, 222, 43},
                              {253, 231, 37}};
static const Rgb blue_white_red[] = {
    {33, 102, 172},  {67, 147, 195},  {146, 197, 222},
    {209, 229, 240}, {247, 247, 247}, {253, 219, 199},
    {244, 165, 130}, {214, 96, 77},   {178, 24, 43}};
static Rgb interpolate(const Rgb *anchors, int n, double u)
{
    u = u > 0 ? fmin(u, 1) : 0; /* also sends NaN to 0 */
    double pos = u * (n - 1);
    int i = pos >= n - 1 ? n - 2 : (int)pos;
    double f = pos - i;
    const Rgb *a = &anchors[i], *b = &anchors[i + 1];
    return (Rgb){a->r + f * (b->r - a->r), a->g + f * (b->g - a->g),
                 a->b + f * (b->b - a->b)};
}

static Rgb color_at(SvgColorMap map, double u)
{
    if (map == SVG_DIVERGING)
        return interpolate(blue_white_red, 9, u);
    return interpolate(viridis, 10, u);
}
typedef struct {
    char s[8];
} Hex;

static Hex hex(Rgb c)
{
    Hex h;
    snprintf(h.s, sizeof h.s, "#%02x%02x%02x", (unsigned)lround(c.r) & 255u,
             (unsigned)lround(c.g) & 255u, (unsigned)lround(c.b) & 255u);
    return h;
}

void svg_color(SvgColorMap map, double u, char out[8])
{
    memcpy(out, hex(color_at(map, u)).s, 8);
}
/* Relative luminance (WCAG), from gamma-encoded sRGB. */
static double luminance(Rgb c)
{
    double rgb[3] = {c.r / 255, c.g / 255, c.b / 255}, l[3];
    for (int i = 0; i < 3; i++)
        l[i] = rgb[i] <= 0.04045 ? rgb[i] / 12.92
                                 : pow((rgb[i] + 0.055) / 1.055, 2.4);
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
}

/* Black or white, whichever contrasts more (they tie at 0.179). */
static const char *ink_on(Rgb background)
{
    return luminance(background) > 0.179 ? "#000000" : "#ffffff";
}
/* Rough advance widths of DejaVu Sans in ems; we cannot ask the font. */
static double char_em(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return 0.64;
    if (strchr(" .,:;!|'ijl", c))
        return 0.30;
    if (strchr("ftrI-()[]", c))
        return 0.40;
    if (strchr("mwMW", c))
        return 0.90;
    if (c >= 'A' && c <= 'Z')
        return 0.72;
    return 0.62;
}

/* Width of s at font size `size`, counting a UTF-8 character once. */
static double text_width(const char *s, double size)
{
    double em = 0;
    for (; s && *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            em += char_em((unsigned char)*s);
    return em * size;
}
static double widest_tick(const SvgTicks *ticks)
{
    double w = 0;
    for (int i = 0; i < ticks->count; i++)
        w = fmax(w, text_width(ticks->label[i], TICK_SIZE));
    return w;
}
typedef struct {
    double size;
    const char *anchor; /* "middle" or "end"; NULL: start */
    int bold;
    double rotate;    /* degrees, about (x, y) */
    const char *fill; /* NULL: ink */
    int halo;         /* a white outline keeps text readable on lines */
} Font;
static void put_text(Text *t, double x, double y, Font f, const char *s)
{
    if (!s || !*s)
        return;
    text_printf(t, "<text x=\"%s\" y=\"%s\" font-size=\"%s\"", px(x).s,
                px(y).s, fixed(f.size, 1).s);
    if (f.anchor)
        text_printf(t, " text-anchor=\"%s\"", f.anchor);
    if (f.bold)
        text_printf(t, " font-weight=\"bold\"");
    if (f.rotate != 0)
        text_printf(t, " transform=\"rotate(%s %s %s)\"", fixed(f.rotate, 1).s,
                    px(x).s, px(y).s);
    text_printf(t, " fill=\"%s\"", f.fill ? f.fill : INK);
    if (f.halo)
        text_printf(t, " stroke=\"white\" stroke-width=\"3\""
                       " stroke-linejoin=\"round\" paint-order=\"stroke\"");
    text_printf(t, ">");
    text_escaped(t, s);
    text_printf(t, "</text>\n");
}
static void put_line(Text *t, double x1, double y1, double x2, double y2,
                     const char *style)
{
    text_printf(t, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" %s/>\n",
                px(x1).s, px(y1).s, px(x2).s, px(y2).s, style);
}

static void put_rect(Text *t, SvgRect r, const char *fill, const char *extra)
{
    text_printf(t,
                "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" "
                "fill=\"%s\"%s%s/>\n",
                px(r.x).s, px(r.y).s, px(r.w).s, px(r.h).s, fill,
                extra ? " " : "", extra ? extra : "");
}
/* An axis title turned to read upwards, its right edge at `right`. */
static void put_y_title(Text *t, double right, double middle, const char *s)
{
    Font font = {.size = LABEL_SIZE, .anchor = "middle", .rotate = -90};
    put_text(t, right - 0.25 * LABEL_SIZE, middle, font, s);
}
/* Masked heatmap cells are hatched, so they never read as a value. */
static void put_hatch_pattern(Text *t)
{
    text_printf(t, "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" "
                   "patternUnits=\"userSpaceOnUse\" "
                   "patternTransform=\"rotate(45)\">"
                   "<rect width=\"6\" height=\"6\" fill=\"#f3f3f3\"/>"
                   "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" "
                   "stroke=\"#cfcfcf\" stroke-width=\"2\"/>"
                   "</pattern></defs>\n");
}
void svg_begin(Text *t, double width, double height)
{
    text_printf(t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    text_printf(t,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" "
                "height=\"%s\" viewBox=\"0 0 %s %s\" "
                "font-family=\"DejaVu Sans, sans-serif\">\n",
                px(width).s, px(height).s, px(width).s, px(height).s);
    put_hatch_pattern(t);
    text_printf(t,
                "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
}

void svg_end(Text *t) { text_printf(t, "</svg>\n"); }
/* Data lo..hi onto pixels from..to, linearly or by logarithm. */
typedef struct {
    double lo, hi;
    int log;
    double from, to;
} Axis;

static double axis_map(const Axis *a, double v)
{
    double u = a->log ? log10(v / a->lo) / log10(a->hi / a->lo)
                      : (v - a->lo) / (a->hi - a->lo);
    return a->from + u * (a->to - a->from);
}

/* A log axis has no place for zero or negative values. */
static int plottable(double v, int log)
{
    return isfinite(v) && (!log || v > 0);
}
typedef struct {
    double lo, hi;
} Span;

static void span_add(Span *s, double v)
{
    s->lo = fmin(s->lo, v);
    s->hi = fmax(s->hi, v);
}

/* The caller's fixed range if it gave one, else the data's. */
static SvgTicks range_ticks(double fixed_lo, double fixed_hi, Span data,
                            int log, double target)
{
    int fixed_range = fixed_lo < fixed_hi;
    double lo = fixed_range ? fixed_lo : data.lo;
    double hi = fixed_range ? fixed_hi : data.hi;
    if (log)
        return svg_log_ticks(lo, hi, !fixed_range);
    return svg_nice_ticks(lo, hi, (int)lround(target), !fixed_range);
}
enum { MAX_TAKEN = 4 }; /* labels a plot remembers, to keep them apart */

/* Where a plot sits in its box and how data maps onto it. */
typedef struct {
    SvgRect plot;
    Axis x, y;
    SvgTicks x_ticks, y_ticks;
    double below;             /* height of the tick labels under the plot */
    SvgRect taken[MAX_TAKEN]; /* labels already placed inside the plot */
    int n_taken;
} Frame;

static double left_margin(const SvgTicks *y_ticks, const char *y_label)
{
    return widest_tick(y_ticks) + TICK_LEN + 4 +
           (y_label ? LABEL_SIZE + 8 : 0);
}

static double plot_bottom(const Frame *f) { return f->plot.y + f->plot.h; }
static double plot_right(const Frame *f) { return f->plot.x + f->plot.w; }
static void draw_y_ticks(Text *t, const Frame *f)
{
    Font font = {.size = TICK_SIZE, .anchor = "end"};
    for (int i = 0; i < f->y_ticks.count; i++) {
        double y = axis_map(&f->y, f->y_ticks.value[i]);
        put_line(t, f->plot.x, y, plot_right(f), y, GRID);
        put_line(t, f->plot.x - TICK_LEN, y, f->plot.x, y, AXIS);
        put_text(t, f->plot.x - TICK_LEN - 3, y + 0.35 * TICK_SIZE, font,
                 f->y_ticks.label[i]);
    }
}

static void draw_x_ticks(Text *t, const Frame *f)
{
    Font font = {.size = TICK_SIZE, .anchor = "middle"};
    double bottom = plot_bottom(f);
    for (int i = 0; i < f->x_ticks.count; i++) {
        double x = axis_map(&f->x, f->x_ticks.value[i]);
        put_line(t, x, f->plot.y, x, bottom, GRID);
        put_line(t, x, bottom, x, bottom + TICK_LEN, AXIS);
        put_text(t, x, bottom + TICK_LEN + TICK_SIZE, font,
                 f->x_ticks.label[i]);
    }
}
/* Title above the plot, axis titles beside and below it. */
static void draw_titles(Text *t, const Frame *f, double box_top,
                        const char *title, const char *x_label,
                        const char *y_label)
{
    double middle_x = f->plot.x + f->plot.w / 2;
    put_text(t, middle_x, box_top + TITLE_SIZE,
             (Font){.size = TITLE_SIZE, .anchor = "middle", .bold = 1}, title);
    put_text(t, middle_x, plot_bottom(f) + f->below + 4 + LABEL_SIZE,
             (Font){.size = LABEL_SIZE, .anchor = "middle"}, x_label);
    put_y_title(t, f->plot.x - left_margin(&f->y_ticks, NULL) - 4,
                f->plot.y + f->plot.h / 2, y_label);
}
static int series_length(const SvgSeries *s)
{
    return s->x && s->y && s->n > 0 ? s->n : 0;
}

static int series_count(const SvgLinePanel *p)
{
    return p->series && p->n_series > 0 ? p->n_series : 0;
}

static const char *series_color(const SvgSeries *s, int index)
{
    return s->color ? s->color : svg_palette(index);
}

static int point_ok(const SvgSeries *s, int i, int log_y)
{
    return plottable(s->x[i], 0) && plottable(s->y[i], log_y);
}
/* The extent of the data and the guides, so all of them are in view. */
static void panel_extent(const SvgLinePanel *p, Span *x, Span *y)
{
    *x = *y = (Span){INFINITY, -INFINITY};
    for (int k = 0; k < series_count(p); k++) {
        const SvgSeries *s = &p->series[k];
        for (int i = 0; i < series_length(s); i++) {
            if (!point_ok(s, i, p->log_y))
                continue;
            span_add(x, s->x[i]);
            span_add(y, s->y[i]);
        }
    }
    if (p->h_line.on && plottable(p->h_line.at, p->log_y))
        span_add(y, p->h_line.at);
    if (p->v_line.on && plottable(p->v_line.at, 0))
        span_add(x, p->v_line.at);
}
static Frame line_frame(SvgRect box, const SvgLinePanel *p)
{
    Frame f = {0};
    Span x, y;
    panel_extent(p, &x, &y);
    f.x_ticks = range_ticks(p->x_min, p->x_max, x, 0, box.w / 75);
    f.y_ticks = range_ticks(p->y_min, p->y_max, y, p->log_y, box.h / 50);
    const char *last_x = f.x_ticks.label[f.x_ticks.count - 1];
    double left = left_margin(&f.y_ticks, p->y_label);
    double right = text_width(last_x, TICK_SIZE) / 2 + 2;
    double top = p->title ? TITLE_SIZE + 14 : TICK_SIZE;
    f.below = TICK_LEN + TICK_SIZE;
    double bottom = f.below + 4 + (p->x_label ? LABEL_SIZE + 8 : 0);
    f.plot = (SvgRect){box.x + left, box.y + top, box.w - left - right,
                       box.h - top - bottom};
    f.x = (Axis){f.x_ticks.lo, f.x_ticks.hi, 0, f.plot.x, plot_right(&f)};
    f.y = (Axis){f.y_ticks.lo, f.y_ticks.hi, p->log_y, plot_bottom(&f),
                 f.plot.y};
    return f;
}
/* One series as a path; a point that cannot be drawn lifts the pen. */
static void draw_series(Text *t, const Frame *f, const SvgSeries *s,
                        const char *color, int log_y)
{
    if (series_length(s) == 0)
        return;
    text_printf(t,
                "<path fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
                "stroke-linejoin=\"round\"%s d=\"",
                color, s->dashed ? " stroke-dasharray=\"7 4\"" : "");
    int pen_down = 0;
    for (int i = 0; i < s->n; i++) {
        if (!point_ok(s, i, log_y)) {
            pen_down = 0;
            continue;
        }
        text_printf(t, "%s%s %s", i ? " " : "", pen_down ? "L" : "M",
                    px(axis_map(&f->x, s->x[i])).s);
        text_printf(t, " %s", px(axis_map(&f->y, s->y[i])).s);
        pen_down = 1;
    }
    text_printf(t, "\"/>\n");
}
/* Curves are clipped to the plot, in case a fixed range cuts them. */
static void draw_all_series(Text *t, const Frame *f, const SvgLinePanel *p)
{
    Num x = fixed(f->plot.x, 0), y = fixed(f->plot.y, 0);
    text_printf(t, "<clipPath id=\"clip-%s-%s\">", x.s, y.s);
    put_rect(t, f->plot, "white", NULL);
    text_printf(t, "</clipPath>\n<g clip-path=\"url(#clip-%s-%s)\">\n", x.s,
                y.s);
    for (int k = 0; k < series_count(p); k++)
        draw_series(t, f, &p->series[k], series_color(&p->series[k], k),
                    p->log_y);
    text_printf(t, "</g>\n");
}
static int inside(SvgRect r, double x, double y)
{
    return x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h;
}

static int overlaps(SvgRect a, SvgRect b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h &&
           b.y < a.y + a.h;
}
/* Samples of one curve that fall in r, eight along each segment. */
static int series_crowding(const Frame *f, const SvgSeries *s, int log_y,
                           SvgRect r)
{
    int count = 0;
    for (int i = 1; i < series_length(s); i++) {
        if (!point_ok(s, i - 1, log_y) || !point_ok(s, i, log_y))
            continue;
        double x0 = axis_map(&f->x, s->x[i - 1]),
               x1 = axis_map(&f->x, s->x[i]);
        double y0 = axis_map(&f->y, s->y[i - 1]),
               y1 = axis_map(&f->y, s->y[i]);
        for (int j = 0; j < 8; j++)
            count += inside(r, x0 + (x1 - x0) * j / 8, y0 + (y1 - y0) * j / 8);
    }
    return count;
}
/* How bad a place r is for a label: data hidden, labels hit, plot left. */
static int crowding(const Frame *f, const SvgLinePanel *p, SvgRect r)
{
    int cost = 0;
    for (int k = 0; k < series_count(p); k++)
        cost += series_crowding(f, &p->series[k], p->log_y, r);
    for (int i = 0; i < f->n_taken; i++)
        cost += overlaps(f->taken[i], r) ? 1000 : 0;
    SvgRect plot = f->plot;
    if (!inside(plot, r.x, r.y) || !inside(plot, r.x + r.w, r.y + r.h))
        cost += 100000;
    return cost;
}
/* The least crowded of n candidate spots (the first wins ties). */
static int best_spot(Frame *f, const SvgLinePanel *p, const SvgRect *spots,
                     int n)
{
    int best = 0, best_cost = crowding(f, p, spots[0]);
    for (int i = 1; i < n; i++) {
        int cost = crowding(f, p, spots[i]);
        if (cost < best_cost) {
            best = i;
            best_cost = cost;
        }
    }
    if (f->n_taken < MAX_TAKEN)
        f->taken[f->n_taken++] = spots[best];
    return best;
}

/* The label of a guide goes in the emptiest of four spots beside it. */
static void put_guide_label(Text *t, Frame *f, const SvgLinePanel *p,
                            const SvgRect spots[4], const char *label)
{
    SvgRect r = spots[best_spot(f, p, spots, 4)];
    put_text(t, r.x + 2, r.y + 0.95 * TICK_SIZE,
             (Font){.size = TICK_SIZE, .halo = 1}, label);
}
static void draw_h_line(Text *t, Frame *f, const SvgLinePanel *p)
{
    if (!p->h_line.on || !plottable(p->h_line.at, p->log_y))
        return;
    double y = axis_map(&f->y, p->h_line.at);
    put_line(t, f->plot.x, y, plot_right(f), y, GUIDE);
    if (!p->h_line.label)
        return;
    double w = text_width(p->h_line.label, TICK_SIZE) + 4, h = 1.3 * TICK_SIZE;
    double right = plot_right(f) - w - 4, left = f->plot.x + 4;
    SvgRect spots[4] = {{right, y - h - 2, w, h},
                        {left, y - h - 2, w, h},
                        {right, y + 2, w, h},
                        {left, y + 2, w, h}};
    put_guide_label(t, f, p, spots, p->h_line.label);
}
static void draw_v_line(Text *t, Frame *f, const SvgLinePanel *p)
{
    if (!p->v_line.on || !plottable(p->v_line.at, 0))
        return;
    double x = axis_map(&f->x, p->v_line.at);
    put_line(t, x, f->plot.y, x, plot_bottom(f), GUIDE);
    if (!p->v_line.label)
        return;
    double w = text_width(p->v_line.label, TICK_SIZE) + 4, h = 1.3 * TICK_SIZE;
    double top = f->plot.y + 4, low = plot_bottom(f) - h - 4;
    SvgRect spots[4] = {{x + 4, top, w, h},
                        {x - w - 4, top, w, h},
                        {x + 4, low, w, h},
                        {x - w - 4, low, w, h}};
    put_guide_label(t, f, p, spots, p->v_line.label);
}
static double legend_item_width(const SvgSeries *s)
{
    return SWATCH + 6 + text_width(s->label, TICK_SIZE);
}

SvgRect svg_legend_size(const SvgSeries *series, int n, int horizontal)
{
    double w = 0;
    if (!series || n <= 0)
        return (SvgRect){0, 0, 0, 0};
    for (int i = 0; i < n; i++) {
        double item = legend_item_width(&series[i]);
        w = horizontal ? w + item + (i ? LEGEND_GAP : 0) : fmax(w, item);
    }
    double h = horizontal ? LEGEND_ROW : n * LEGEND_ROW;
    return (SvgRect){0, 0, w + 2 * LEGEND_PAD, h + 2 * LEGEND_PAD};
}
/* A sample of the line (or a box, for bars) and the label after it. */
static void legend_item(Text *t, double x, double y, const SvgSeries *s,
                        const char *color, int box)
{
    double middle = y + LEGEND_ROW / 2.0;
    if (box)
        put_rect(t, (SvgRect){x + 6, middle - 6, 12, 12}, color, NULL);
    else
        text_printf(t,
                    "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" "
                    "stroke=\"%s\" stroke-width=\"2\"%s/>\n",
                    px(x).s, px(middle).s, px(x + SWATCH).s, px(middle).s,
                    color, s->dashed ? " stroke-dasharray=\"7 4\"" : "");
    put_text(t, x + SWATCH + 6, middle + 0.35 * TICK_SIZE,
             (Font){.size = TICK_SIZE}, s->label);
}
static void legend_items(Text *t, double x, double y, const SvgSeries *series,
                         int n, int horizontal, int box)
{
    x += LEGEND_PAD;
    y += LEGEND_PAD;
    for (int i = 0; i < n; i++) {
        legend_item(t, x, y, &series[i], series_color(&series[i], i), box);
        if (horizontal)
            x += legend_item_width(&series[i]) + LEGEND_GAP;
        else
            y += LEGEND_ROW;
    }
}

void svg_legend(Text *t, double x, double y, const SvgSeries *series, int n,
                int horizontal)
{
    if (series && n > 0)
        legend_items(t, x, y, series, n, horizontal, 0);
}
/* A legend inside the plot, on a white card, in its corner. */
static void draw_inside_legend(Text *t, Frame *f, const SvgLinePanel *p)
{
    if (p->legend < SVG_LEGEND_BEST || p->legend >= SVG_LEGEND_NONE ||
        series_count(p) == 0)
        return;
    SvgRect size = svg_legend_size(p->series, p->n_series, 0);
    double w = size.w, h = size.h, m = 6;
    double left = f->plot.x + m, right = plot_right(f) - w - m;
    double top = f->plot.y + m, low = plot_bottom(f) - h - m;
    SvgRect corners[4] = {{right, top, w, h},
                          {left, top, w, h},
                          {right, low, w, h},
                          {left, low, w, h}};
    SvgRect r = p->legend == SVG_LEGEND_BEST
                    ? corners[best_spot(f, p, corners, 4)]
                    : corners[p->legend - SVG_LEGEND_TOP_RIGHT];
    put_rect(t, r, "white", "fill-opacity=\"0.9\" stroke=\"#cccccc\"");
    svg_legend(t, r.x, r.y, p->series, p->n_series, 0);
}
void svg_line_panel(Text *t, SvgRect box, const SvgLinePanel *p)
{
    Frame f = line_frame(box, p);
    draw_y_ticks(t, &f);
    draw_x_ticks(t, &f);
    put_line(t, f.plot.x, f.plot.y, f.plot.x, plot_bottom(&f), AXIS);
    put_line(t, f.plot.x, plot_bottom(&f), plot_right(&f), plot_bottom(&f),
             AXIS);
    draw_titles(t, &f, box.y, p->title, p->x_label, p->y_label);
    draw_all_series(t, &f, p);
    draw_inside_legend(t, &f, p);
    draw_h_line(t, &f, p);
    draw_v_line(t, &f, p);
}
/* The plot's top edge in its box, where an outside legend lines up. */
static double plot_top(const SvgLinePanel *p)
{
    return p->title ? TITLE_SIZE + 14 : TICK_SIZE;
}

void svg_line_chart(Text *t, const SvgLinePanel *p, double width,
                    double height)
{
    SvgRect box = {MARGIN, MARGIN, width - 2 * MARGIN, height - 2 * MARGIN};
    int below = p->legend == SVG_LEGEND_BELOW;
    SvgRect legend = svg_legend_size(p->series, p->n_series, below);
    svg_begin(t, width, height);
    if (p->legend == SVG_LEGEND_RIGHT && legend.w > 0) {
        box.w -= legend.w + 8;
        svg_legend(t, box.x + box.w + 8, box.y + plot_top(p), p->series,
                   p->n_series, 0);
    } else if (below && legend.w > 0) {
        box.h -= legend.h;
        svg_legend(t, (width - legend.w) / 2, box.y + box.h, p->series,
                   p->n_series, 1);
    }
    svg_line_panel(t, box, p);
    svg_end(t);
}
void svg_line_charts(Text *t, const SvgLinePanel *panels, int n_panels,
                     const char *title, double width, double height)
{
    int n = panels && n_panels > 0 ? n_panels : 0;
    int shared = n > 0 && panels[0].legend != SVG_LEGEND_NONE;
    SvgRect legend =
        shared ? svg_legend_size(panels[0].series, panels[0].n_series, 1)
               : (SvgRect){0, 0, 0, 0};
    double top = MARGIN + (title ? TITLE_SIZE + 10 : 0);
    double panel_w = n ? (width - 2 * MARGIN) / n : 0;
    double panel_h = height - top - MARGIN - legend.h;
    svg_begin(t, width, height);
    put_text(t, width / 2, MARGIN + TITLE_SIZE,
             (Font){.size = TITLE_SIZE, .anchor = "middle", .bold = 1}, title);
    for (int i = 0; i < n; i++)
        svg_line_panel(t,
                       (SvgRect){MARGIN + i * panel_w, top, panel_w, panel_h},
                       &panels[i]);
    if (legend.w > 0)
        svg_legend(t, (width - legend.w) / 2, top + panel_h, panels[0].series,
                   panels[0].n_series, 1);
    svg_end(t);
}
/* Where 0..1 along the colour map a value falls; a diverging map puts
   zero at the white middle even when lo..hi is lopsided. */
static double scale_unit(SvgColorScale s, double v)
{
    if (s.map == SVG_DIVERGING && s.lo < 0 && s.hi > 0)
        return v < 0 ? 0.5 - 0.5 * v / s.lo : 0.5 + 0.5 * v / s.hi;
    return (v - s.lo) / (s.hi - s.lo);
}
SvgColorScale svg_fit_scale(SvgColorScale s, const SvgHeatmap *maps, int n)
{
    if (s.lo < s.hi)
        return s;
    Span span = {INFINITY, -INFINITY};
    for (int k = 0; maps && k < n; k++)
        for (int i = 0; maps[k].values && i < maps[k].rows * maps[k].cols; i++)
            if (isfinite(maps[k].values[i]))
                span_add(&span, maps[k].values[i]);
    if (s.map == SVG_DIVERGING) { /* symmetric, so white means zero */
        double m = fmax(fabs(span.lo), fabs(span.hi));
        span = (Span){-m, m};
    }
    widen_range(&span.lo, &span.hi);
    s.lo = span.lo;
    s.hi = span.hi;
    return s;
}
/* A label from the caller's list, or the index when there is none. */
static const char *label_at(const char *const *labels, int i, char buf[16])
{
    if (labels && labels[i])
        return labels[i];
    snprintf(buf, 16, "%d", i);
    return buf;
}

static double widest_label(const char *const *labels, int n, double size)
{
    char buf[16];
    double w = 0;
    for (int i = 0; i < n; i++)
        w = fmax(w, text_width(label_at(labels, i, buf), size));
    return w;
}
static void format_cell(const SvgHeatmap *m, double v, char buf[32])
{
    snprintf(buf, 32, m->cell_format, v);
    drop_negative_zero(buf);
}

/* Numbers as large as fit the cells, all the same size (0: none fit). */
static double number_size(const SvgHeatmap *m, double cell)
{
    char buf[32];
    double widest = 0, size = fmin(TICK_SIZE, 0.42 * cell);
    if (!m->cell_format)
        return 0;
    for (int i = 0; i < m->rows * m->cols; i++)
        if (isfinite(m->values[i])) {
            format_cell(m, m->values[i], buf);
            widest = fmax(widest, text_width(buf, 1));
        }
    if (widest > 0)
        size = fmin(size, 0.85 * cell / widest);
    return size >= 6 ? size : 0;
}
/* The grid of square cells, centred with its labels in the box. */
typedef struct {
    SvgRect grid;
    double cell, row_label_w, left;
} HeatLayout;

static HeatLayout heat_layout(SvgRect box, const SvgHeatmap *m)
{
    HeatLayout L;
    L.row_label_w = widest_label(m->row_labels, m->rows, TICK_SIZE);
    double left = L.left =
        L.row_label_w + 6 + (m->y_label ? LABEL_SIZE + 8 : 0);
    double top = m->title ? TITLE_SIZE + 10 : 0;
    double bottom = TICK_SIZE + 8 + (m->x_label ? LABEL_SIZE + 8 : 0);
    L.cell = fmin((box.w - left) / m->cols, (box.h - top - bottom) / m->rows);
    L.cell = fmax(L.cell, 1);
    L.grid.w = L.cell * m->cols;
    L.grid.h = L.cell * m->rows;
    L.grid.x = box.x + (box.w - left - L.grid.w) / 2 + left;
    L.grid.y = box.y + (box.h - top - bottom - L.grid.h) / 2 + top;
    return L;
}
static void draw_cells(Text *t, const SvgHeatmap *m, const HeatLayout *L,
                       SvgColorScale s)
{
    text_printf(t, "<g stroke=\"white\" stroke-width=\"1\">\n");
    for (int r = 0; r < m->rows; r++)
        for (int c = 0; c < m->cols; c++) {
            double v = m->values[r * m->cols + c];
            SvgRect cell = {L->grid.x + c * L->cell, L->grid.y + r * L->cell,
                            L->cell, L->cell};
            put_rect(t, cell,
                     isfinite(v) ? hex(color_at(s.map, scale_unit(s, v))).s
                                 : "url(#hatch)",
                     NULL);
        }
    text_printf(t, "</g>\n");
}
/* Each number in black or white, whichever its cell makes readable. */
static void draw_numbers(Text *t, const SvgHeatmap *m, const HeatLayout *L,
                         SvgColorScale s)
{
    double size = number_size(m, L->cell);
    char buf[32];
    for (int r = 0; size > 0 && r < m->rows; r++)
        for (int c = 0; c < m->cols; c++) {
            double v = m->values[r * m->cols + c];
            if (!isfinite(v))
                continue;
            format_cell(m, v, buf);
            Rgb fill = color_at(s.map, scale_unit(s, v));
            put_text(
                t, L->grid.x + (c + 0.5) * L->cell,
                L->grid.y + (r + 0.5) * L->cell + 0.35 * size,
                (Font){.size = size, .anchor = "middle", .fill = ink_on(fill)},
                buf);
        }
}
static void draw_heat_labels(Text *t, const SvgHeatmap *m, const HeatLayout *L)
{
    char buf[16];
    const SvgRect *g = &L->grid;
    double bottom = g->y + g->h;
    for (int r = 0; r < m->rows; r++)
        put_text(t, g->x - 6, g->y + (r + 0.5) * L->cell + 0.35 * TICK_SIZE,
                 (Font){.size = TICK_SIZE, .anchor = "end"},
                 label_at(m->row_labels, r, buf));
    for (int c = 0; c < m->cols; c++)
        put_text(t, g->x + (c + 0.5) * L->cell, bottom + 4 + TICK_SIZE,
                 (Font){.size = TICK_SIZE, .anchor = "middle"},
                 label_at(m->col_labels, c, buf));
    put_text(t, g->x + g->w / 2, g->y - 10,
             (Font){.size = TITLE_SIZE, .anchor = "middle", .bold = 1},
             m->title);
    put_text(t, g->x + g->w / 2, bottom + TICK_SIZE + 8 + LABEL_SIZE,
             (Font){.size = LABEL_SIZE, .anchor = "middle"}, m->x_label);
    put_y_title(t, g->x - L->row_label_w - 14, g->y + g->h / 2, m->y_label);
}
void svg_heatmap_panel(Text *t, SvgRect box, const SvgHeatmap *m,
                       SvgColorScale fitted)
{
    if (!m->values || m->rows <= 0 || m->cols <= 0)
        return;
    HeatLayout L = heat_layout(box, m);
    draw_cells(t, m, &L, fitted);
    draw_numbers(t, m, &L, fitted);
    draw_heat_labels(t, m, &L);
}
static SvgTicks bar_ticks(SvgColorScale s, double height)
{
    return svg_nice_ticks(s.lo, s.hi, (int)lround(height / 70), 0);
}

double svg_color_bar_width(SvgColorScale s)
{
    SvgTicks ticks = bar_ticks(s, 300);
    return COLOR_BAR_WIDTH + TICK_LEN + 3 + widest_tick(&ticks) +
           (s.label ? 8 + LABEL_SIZE : 0);
}
/* The bar's colours sampled along its length, as a gradient. */
static void put_gradient(Text *t, Num id_x, Num id_y, SvgColorScale s)
{
    text_printf(t,
                "<defs><linearGradient id=\"bar-%s-%s\" x1=\"0\" y1=\"1\" "
                "x2=\"0\" y2=\"0\">\n",
                id_x.s, id_y.s);
    for (int i = 0; i <= 32; i++) {
        double at = i / 32.0, v = s.lo + at * (s.hi - s.lo);
        text_printf(t, "<stop offset=\"%s\" stop-color=\"%s\"/>\n",
                    fixed(at, 4).s, hex(color_at(s.map, scale_unit(s, v))).s);
    }
    text_printf(t, "</linearGradient></defs>\n");
}
void svg_color_bar(Text *t, SvgRect box, SvgColorScale s)
{
    Num id_x = fixed(box.x, 0), id_y = fixed(box.y, 0);
    char fill[64];
    snprintf(fill, sizeof fill, "url(#bar-%s-%s)", id_x.s, id_y.s);
    put_gradient(t, id_x, id_y, s);
    put_rect(t, (SvgRect){box.x, box.y, COLOR_BAR_WIDTH, box.h}, fill,
             "stroke=\"#555555\" stroke-width=\"0.5\"");
    SvgTicks ticks = bar_ticks(s, box.h);
    double x = box.x + COLOR_BAR_WIDTH;
    for (int i = 0; i < ticks.count; i++) {
        double y = box.y + box.h * (s.hi - ticks.value[i]) / (s.hi - s.lo);
        put_line(t, x, y, x + TICK_LEN, y, AXIS);
        put_text(t, x + TICK_LEN + 3, y + 0.35 * TICK_SIZE,
                 (Font){.size = TICK_SIZE}, ticks.label[i]);
    }
    put_y_title(t, box.x + box.w, box.y + box.h / 2, s.label);
}
/* Width a panel needs: its labels, its grid, its title. */
static double heat_block_width(SvgRect box, const SvgHeatmap *m)
{
    if (!m->values || m->rows <= 0 || m->cols <= 0)
        return box.w;
    HeatLayout L = heat_layout(box, m);
    return fmax(L.left + L.grid.w, text_width(m->title, TITLE_SIZE)) + 20;
}
/* The colour bar spans the grids from the first panel to the last. */
static void heat_color_bar(Text *t, SvgRect first, SvgRect last,
                           const SvgHeatmap *maps, int n, double x,
                           SvgColorScale s)
{
    SvgRect top = n ? heat_layout(first, &maps[0]).grid : first;
    SvgRect low = n ? heat_layout(last, &maps[n - 1]).grid : last;
    svg_color_bar(
        t, (SvgRect){x, top.y, svg_color_bar_width(s), low.y + low.h - top.y},
        s);
}
void svg_heatmaps(Text *t, const SvgHeatmap *maps, int n, int columns,
                  const char *title, SvgColorScale scale, double width,
                  double height)
{
    SvgColorScale fitted = svg_fit_scale(scale, maps, n);
    n = maps && n > 0 ? n : 0;
    columns = columns < 1 ? 1 : columns > n && n > 0 ? n : columns;
    int rows = n > 0 ? (n + columns - 1) / columns : 1;
    double bar_w = svg_color_bar_width(fitted) + 16;
    double top = MARGIN + (title ? TITLE_SIZE + 12 : 0);
    SvgRect box = {0, top, (width - 2 * MARGIN - bar_w) / columns,
                   (height - top - MARGIN) / rows};
    if (n > 0) /* square cells may leave spare width: close it up */
        box.w = fmin(box.w, heat_block_width(box, &maps[0]));
    double x0 = (width - columns * box.w - bar_w) / 2;
    svg_begin(t, width, height);
    put_text(t, width / 2, MARGIN + TITLE_SIZE,
             (Font){.size = TITLE_SIZE, .anchor = "middle", .bold = 1}, title);
    SvgRect first = box, last = box;
    for (int i = 0; i < n; i++) {
        last.x = x0 + (i % columns) * box.w;
        last.y = top + (i / columns) * box.h;
        first = i == 0 ? last : first;
        svg_heatmap_panel(t, last, &maps[i], fitted);
    }
    heat_color_bar(t, first, last, maps, n, x0 + columns * box.w + 4, fitted);
    svg_end(t);
}
void svg_heatmap(Text *t, const SvgHeatmap *map, SvgColorScale scale,
                 double width, double height)
{
    svg_heatmaps(t, map, 1, 1, NULL, scale, width, height);
}
static float bar_value(const SvgBarChart *c, int group, int category)
{
    return c->values[group * c->n_categories + category];
}

/* Bars grow from zero, so zero is in view; value labels need headroom. */
static Span bar_extent(const SvgBarChart *c)
{
    Span s = {0, 0};
    for (int g = 0; g < c->n_groups; g++)
        for (int i = 0; i < c->n_categories; i++)
            if (isfinite(bar_value(c, g, i)))
                span_add(&s, bar_value(c, g, i));
    double room = c->value_format ? 0.1 * (s.hi - s.lo) : 0;
    s.hi += s.hi > 0 ? room : 0;
    s.lo -= s.lo < 0 ? room : 0;
    return s;
}
/* Category labels too wide for their slot are tilted by 40 degrees. */
static int tilted(const SvgBarChart *c, double slot)
{
    return widest_label(c->categories, c->n_categories, TICK_SIZE) >
           0.9 * slot;
}
static Frame bar_frame(SvgRect box, const SvgBarChart *c, int *tilt)
{
    Frame f = {0};
    f.y_ticks = range_ticks(c->y_min, c->y_max, bar_extent(c), 0, box.h / 50);
    double left = left_margin(&f.y_ticks, c->y_label);
    double widest = widest_label(c->categories, c->n_categories, TICK_SIZE);
    *tilt = tilted(c, (box.w - left) / c->n_categories);
    f.below = TICK_LEN + (*tilt ? 0.65 * widest + TICK_SIZE : TICK_SIZE);
    if (*tilt) /* the first label hangs left of its bar */
        left =
            fmax(left, 0.77 * widest - 0.5 * (box.w - left) / c->n_categories);
    double top = c->title ? TITLE_SIZE + 14 : TICK_SIZE;
    double bottom = f.below + 4 + (c->x_label ? LABEL_SIZE + 8 : 0);
    f.plot = (SvgRect){box.x + left, box.y + top, box.w - left - 4,
                       box.h - top - bottom};
    f.x = (Axis){0, c->n_categories, 0, f.plot.x, plot_right(&f)};
    f.y = (Axis){f.y_ticks.lo, f.y_ticks.hi, 0, plot_bottom(&f), f.plot.y};
    return f;
}
static void draw_value_label(Text *t, const SvgBarChart *c, double x, double y,
                             double v)
{
    char buf[32];
    snprintf(buf, sizeof buf, c->value_format, v);
    drop_negative_zero(buf);
    double size = TICK_SIZE - 1;
    put_text(t, x, v >= 0 ? y - 4 : y + size + 2,
             (Font){.size = size, .anchor = "middle"}, buf);
}
static void draw_bars(Text *t, const Frame *f, const SvgBarChart *c)
{
    double slot = f->plot.w / c->n_categories, bar = 0.8 * slot / c->n_groups;
    double zero = axis_map(&f->y, fmax(f->y.lo, fmin(f->y.hi, 0)));
    for (int g = 0; g < c->n_groups; g++)
        for (int i = 0; i < c->n_categories; i++) {
            double v = bar_value(c, g, i);
            if (!isfinite(v))
                continue;
            double x = f->plot.x + (i + 0.1) * slot + g * bar;
            double y =
                fmax(f->plot.y, fmin(plot_bottom(f), axis_map(&f->y, v)));
            put_rect(t, (SvgRect){x, fmin(y, zero), bar, fabs(zero - y)},
                     svg_palette(g), "stroke=\"white\" stroke-width=\"1\"");
            if (c->value_format)
                draw_value_label(t, c, x + bar / 2, y, v);
        }
    put_line(t, f->plot.x, zero, plot_right(f), zero, AXIS);
}
static void draw_categories(Text *t, const Frame *f, const SvgBarChart *c,
                            int tilt)
{
    char buf[16];
    double slot = f->plot.w / c->n_categories, y = plot_bottom(f) + TICK_LEN;
    for (int i = 0; i < c->n_categories; i++) {
        double x = f->plot.x + (i + 0.5) * slot;
        Font font = {.size = TICK_SIZE,
                     .anchor = tilt ? "end" : "middle",
                     .rotate = tilt ? -40 : 0};
        put_text(t, tilt ? x + 4 : x, y + (tilt ? 0.7 : 1) * TICK_SIZE, font,
                 label_at(c->categories, i, buf));
    }
}
/* Several groups need a legend; each group is one colour. */
static void draw_bar_legend(Text *t, const SvgBarChart *c, double x, double y)
{
    SvgSeries *items = calloc((size_t)c->n_groups, sizeof *items);
    if (!items) {
        t->failed = 1;
        return;
    }
    for (int g = 0; g < c->n_groups; g++)
        items[g].label = c->groups[g];
    legend_items(t, x, y, items, c->n_groups, 0, 1);
    free(items);
}

static double bar_legend_width(const SvgBarChart *c)
{
    double w = 0;
    for (int g = 0; c->groups && c->n_groups > 1 && g < c->n_groups; g++)
        w = fmax(w, SWATCH + 6 + text_width(c->groups[g], TICK_SIZE));
    return w > 0 ? w + 2 * LEGEND_PAD + 8 : 0;
}
void svg_bar_chart(Text *t, const SvgBarChart *c, double width, double height)
{
    svg_begin(t, width, height);
    if (c->values && c->n_categories > 0 && c->n_groups > 0) {
        double legend_w = bar_legend_width(c);
        SvgRect box = {MARGIN, MARGIN, width - 2 * MARGIN - legend_w,
                       height - 2 * MARGIN};
        int tilt;
        Frame f = bar_frame(box, c, &tilt);
        draw_y_ticks(t, &f);
        put_line(t, f.plot.x, f.plot.y, f.plot.x, plot_bottom(&f), AXIS);
        draw_bars(t, &f, c);
        draw_categories(t, &f, c, tilt);
        draw_titles(t, &f, box.y, c->title, c->x_label, c->y_label);
        if (legend_w > 0)
            draw_bar_legend(t, c, box.x + box.w + 8, f.plot.y);
    }
    svg_end(t);
}
/* main.c: the command-line program (tangled; edit attention.nw) */
#define _POSIX_C_SOURCE 200809L
#include "attention.h"
#include "svg.h"
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
static int fail(const char *format, ...);
static int fail_errno(const char *path, int error);
typedef struct Run Run;
static size_t disk_space_for_tests(size_t length);
static void show_progress(const TrainRecord *r, void *context);
static void report_training(const Run *run, const char *output);
static int save_training_log(const char *checkpoint, const Run *run);
static int load_training_log(const char *checkpoint, Run *run);
static void print_trace(const Trace *tr, int t, const char *text);
static int table_of_tables(const char *dir, const Params *p);
static void numbers_of_chapters_2_to_4(Text *out, Gpt *g);
static double closest_tokens(const Gpt *g, int *a, int *b);
static int claims_hold(const Run *gpt, const Run *mlp, Gpt *g);
static int figure_training(const char *fig, const Run *gpt, const Run *mlp);
static int figure_token_embedding(const char *fig, const Gpt *g);
static int trace_of_chapter_5(const char *dir, const char *fig, Text *numbers, Gpt *g);
static void numbers_of_the_trace(Text *out, const Trace *tr, int t);
static int table_of_the_trace(const char *dir, const Trace *tr, int t);
static int figure_trace_weights(const char *fig, const Trace *tr);
enum { MAX_STEPS = 1000000, MAX_WORDS = 256 };
typedef struct {
    int progress;                   /* print a progress line */
    int corrupt_step, corrupt_table; /* test hook: at this record, a NaN */
    Gpt *g;
} Watcher;
static void watch_training(const TrainRecord *r, void *context);
static int training_fault(const Run *run, const Params *p);
static int write_file(const char *path, const char *data, size_t length)
{
    char temporary[4096];
    if (snprintf(temporary, sizeof temporary, "%s.tmp", path) >= (int)sizeof temporary)
        return fail_errno(path, ENAMETOOLONG);
    FILE *f = fopen(temporary, "wb");
    if (f == NULL)
        return fail_errno(temporary, errno);
    size_t limit = disk_space_for_tests(length);
    size_t written = fwrite(data, 1, limit, f);
    int error = written != length ? (limit < length ? ENOSPC : errno) : 0;
    if (fclose(f) != 0 && error == 0)
        error = errno;
    if (error == 0 && rename(temporary, path) != 0)
        error = errno;
    if (error != 0) {
        remove(temporary);
        return fail_errno(path, error ? error : EIO);
    }
    return 0;
}
static size_t disk_space_for_tests(size_t length)
{
    const char *hook = getenv("ATTENTION_TEST_DISK_BYTES");
    unsigned long long space = 0;
    if (hook == NULL || sscanf(hook, "%llu", &space) != 1 || space >= length)
        return length;
    return (size_t)space;
}
static int fail(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fputs("attention: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    return -1;
}

static int fail_errno(const char *path, int error)
{
    return fail("cannot write %s: %s", path, strerror(error ? error : EIO));
}
static int make_directory(const char *path)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return fail("cannot create directory %s: %s", path, strerror(errno));
    return 0;
}
static int save_text(const char *dir, const char *name, Text *text)
{
    char path[4096];
    int result;
    if (text->failed)
        result = fail("out of memory while drawing %s", name);
    else if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        result = fail("path too long: %s/%s", dir, name);
    else
        result = write_file(path, text->data, text->len);
    text_free(text);
    return result;
}
static unsigned char *read_file(const char *path, size_t *length, size_t limit)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return fail("cannot read %s: %s", path, strerror(errno)), NULL;
    unsigned char *data = malloc(limit + 1);
    size_t n = data ? fread(data, 1, limit + 1, f) : 0;
    int error = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (data == NULL || error != 0 || n > limit) {
        if (data == NULL) fail("out of memory reading %s", path);
        else if (error) fail("cannot read %s: %s", path, strerror(error));
        else fail("cannot load %s: larger than any checkpoint (over %zu bytes)", path, limit);
        free(data);
        return NULL;
    }
    *length = n;
    return data;
}
static int save_checkpoint(const char *path, const Params *p, int n_heads)
{
    size_t size = checkpoint_size(p);
    unsigned char *bytes = malloc(size);
    if (bytes == NULL)
        return fail("out of memory saving %s", path);
    checkpoint_encode(bytes, p, n_heads);
    int status = write_file(path, (const char *)bytes, size);
    free(bytes);
    return status;
}

static int load_checkpoint(const char *path, Params *p, int n_heads)
{
    size_t length = 0;
    char why[256];
    unsigned char *bytes = read_file(path, &length, 2 * checkpoint_size(p));
    if (bytes == NULL)
        return -1;
    const char *problem = checkpoint_decode(p, n_heads, bytes, length, why, sizeof why);
    free(bytes);
    if (problem != NULL)
        return fail("cannot load %s: %s", path, problem);
    return 0;
}
static void number(Text *numbers, const char *name, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    char value[256];
    vsnprintf(value, sizeof value, format, args);
    va_end(args);
    text_printf(numbers, "%s %s\n", name, value);
}
static int usage_error(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fputs("attention: ", stderr);
    vfprintf(stderr, format, args);
    fputs("\nTry 'attention --help'.\n", stderr);
    va_end(args);
    return 2;
}

static int is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}
static int parse_whole(const char *option, const char *text,
                       unsigned long long min, unsigned long long max,
                       unsigned long long *value)
{
    char *end = NULL;
    errno = 0;
    if (text[0] >= '0' && text[0] <= '9')
        *value = strtoull(text, &end, 10);
    if (end == NULL || *end != '\0' || errno == ERANGE || *value < min || *value > max)
        return usage_error("%s: '%s' is not a whole number from %llu to %llu",
                           option, text, min, max);
    return 0;
}
typedef struct {
    uint64_t seed;
    int steps, pos;                 /* pos < 0: the last position */
    const char *model, *output, *part;
    const char *words[MAX_WORDS];   /* arguments that are not options */
    int n_words;
} Arguments;
static int parse_arguments(int argc, char **argv, const char *accepted,
                           Arguments *a)
{
    *a = (Arguments){train_defaults().seed, train_defaults().steps, -1,
                     "attention.ckpt", NULL, NULL, {NULL}, 0};
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (a->n_words == MAX_WORDS)
                return usage_error("%s: too many arguments", argv[1]);
            a->words[a->n_words++] = arg;
            continue;
        }
        
char wanted[32];
snprintf(wanted, sizeof wanted, " %s ", arg);
char list[128];
snprintf(list, sizeof list, " %s ", accepted);
if (strlen(arg) > 16 || strstr(list, wanted) == NULL)
    return usage_error("%s: unknown option '%s'", argv[1], arg);
if (i + 1 >= argc)
    return usage_error("%s: option %s needs a value", argv[1], arg);
const char *value = argv[++i];
unsigned long long number = 0;
int status = 0;
if (strcmp(arg, "--seed") == 0 && (status = parse_whole(arg, value, 0, UINT64_MAX, &number)) == 0)
    a->seed = number;
else if (strcmp(arg, "--steps") == 0 && (status = parse_whole(arg, value, 1, MAX_STEPS, &number)) == 0)
    a->steps = (int)number;
else if (strcmp(arg, "--pos") == 0 && (status = parse_whole(arg, value, 0, SEQ_LEN - 1, &number)) == 0)
    a->pos = (int)number;
else if (strcmp(arg, "-m") == 0)
    a->model = value;
else if (strcmp(arg, "-o") == 0)
    a->output = value;
else if (strcmp(arg, "--part") == 0)
    a->part = value;
if (status != 0)
    return status;
if (value[0] == '\0')
    return usage_error("%s: option %s needs a non-empty value", argv[1], arg);
    }
    return 0;
}
static const char *quoted(const char *text)
{
    static char out[256];
    size_t n = 0, i = 0;
    out[n++] = '\'';
    for (; text[i] != '\0' && i < 40; i++) {
        unsigned char c = (unsigned char)text[i];
        n += (size_t)snprintf(out + n, sizeof out - n, c >= 32 && c < 127 ? "%c" : "\\x%02x", c);
    }
    snprintf(out + n, sizeof out - n, "%s'", text[i] != '\0' ? "..." : "");
    return out;
}
static int parse_tokens(const char *text, int tokens[SEQ_LEN], int *length)
{
    size_t where = 0;
    const char *defect = tokens_parse(text, strlen(text), tokens, length, &where);
    if (defect == NULL)
        return 0;
    if (strcmp(defect, "holds a character that is not a token") == 0)
        return usage_error("%s: the character at position %zu is not a token "
                           "(the tokens are 0-9 * = ;)", quoted(text), where);
    return usage_error("%s %s: a sequence has 1 to %d tokens", quoted(text), defect, SEQ_LEN);
}
static int parse_question(const char *text, int *problem)
{
    int tokens[SEQ_LEN], length = 0;
    size_t where;
    if (tokens_parse(text, strlen(text), tokens, &length, &where) != NULL
        || (*problem = question_of_tokens(tokens, length)) < 0)
        return usage_error("%s is not a problem: write a digit, '*', a digit "
                           "and '=', as in 7*8=", quoted(text));
    return 0;
}
static Gpt *new_transformer(uint64_t seed)
{
    Gpt *g = malloc(sizeof *g);
    if (g == NULL || gpt_create(g, seed, N_HEADS, MAX_BATCH) != 0) {
        free(g);
        fail("out of memory for the transformer");
        return NULL;
    }
    return g;
}

static void delete_transformer(Gpt *g)
{
    if (g != NULL)
        gpt_destroy(g);
    free(g);
}
static int forms_agree_at_start_up(void)
{
    Gpt *g = new_transformer(train_defaults().seed);
    if (g == NULL)
        return -1;
    int agree = gpt_forms_agree(g, 7 * 10 + 8);
    delete_transformer(g);
    if (!agree)
        return fail("the classic and the production form of attention disagree "
                    "on 7*8=; refusing to run (see chapter 5)");
    return 0;
}
static Gpt *load_transformer(const char *path)
{
    Gpt *g = new_transformer(0);
    if (g != NULL && load_checkpoint(path, &g->model.p, g->n_heads) != 0) {
        delete_transformer(g);
        return NULL;
    }
    return g;
}
enum { MAX_RECORDS = 1024 };
struct Run {
    TrainConfig cfg;
    TrainResult result;
    TrainRecord log[MAX_RECORDS];
};
static int run_mlp(Run *run, size_t *n_params)
{
    Mlp *mlp = malloc(sizeof *mlp);
    if (mlp == NULL || mlp_init(mlp, run->cfg.seed) != 0) {
        free(mlp);
        return fail("out of memory for the perceptron");
    }
    *n_params = mlp->model.p.n_params;
    run->result = train(&mlp->model, &run->cfg, run->log, MAX_RECORDS);
    mlp_free(mlp);
    free(mlp);
    return 0;
}
static void learned_at(const Run *run, int step[N_PROBLEMS])
{
    for (int p = 0; p < N_PROBLEMS; p++) {
        step[p] = -1;
        for (int r = run->result.n_records - 1; r >= 0 && run->log[r].solved[p]; r--)
            step[p] = run->log[r].step;
    }
}
static void numbers_of_training(Text *out, const Run *run, const char *prefix)
{
    const TrainConfig *cfg = &run->cfg;
    int first = run->result.first_perfect;
    char name[64];
    #define NUMBER(suffix, ...) \
        (snprintf(name, sizeof name, "%s_%s", prefix, suffix), number(out, name, __VA_ARGS__))
    NUMBER("seed", "%llu", (unsigned long long)cfg->seed);
    NUMBER("steps", "%d", cfg->steps);
    NUMBER("batch", "%d", cfg->batch);
    NUMBER("lr", "%g", (double)cfg->lr);
    NUMBER("eval_every", "%d", cfg->eval_every);
    NUMBER("first_perfect", "%d", first);
    NUMBER("problems_seen", "%d", first * cfg->batch);
    NUMBER("epochs", "%.0f", first * cfg->batch / (double)N_PROBLEMS);
    #undef NUMBER
}
static void numbers_of_chapter_1(Text *out, const Run *run, size_t n_params,
                                 const int step[N_PROBLEMS])
{
    int last = run->result.n_records - 1;
    numbers_of_training(out, run, "mlp");
    number(out, "mlp_params", "%zu", n_params);
    number(out, "mlp_final_loss", "%.4f", (double)run->log[last].loss);
    number(out, "mlp_final_correct", "%d", run->log[last].correct);
    
int earliest = 0, latest = 0, zeros = 0, zero_sum = 0, others = 0, other_sum = 0;
int ones = 0, one_sum = 0;
for (int p = 1; p < N_PROBLEMS; p++) {
    if (step[p] < step[earliest]) earliest = p;
    if (step[p] > step[latest]) latest = p;
}
for (int p = 0; p < N_PROBLEMS; p++) {
    int has_zero = p / 10 == 0 || p % 10 == 0;
    if (has_zero) { zeros++; zero_sum += step[p]; }
    else { others++; other_sum += step[p]; }
    if (!has_zero && (p / 10 == 1 || p % 10 == 1)) { ones++; one_sum += step[p]; }
}
number(out, "mlp_earliest_problem", "%d*%d", earliest / 10, earliest % 10);
number(out, "mlp_earliest_step", "%d", step[earliest]);
number(out, "mlp_latest_problem", "%d*%d", latest / 10, latest % 10);
number(out, "mlp_latest_step", "%d", step[latest]);
number(out, "mlp_zero_mean_step", "%.0f", zero_sum / (double)zeros);
number(out, "mlp_other_mean_step", "%.0f", other_sum / (double)others);
number(out, "mlp_one_mean_step", "%.0f", one_sum / (double)ones);
}
static void curves_of(const Run *run, float *step, float *loss, float *correct)
{
    for (int r = 0; r < run->result.n_records; r++) {
        step[r] = (float)run->log[r].step;
        loss[r] = (float)run->log[r].loss;
        correct[r] = (float)run->log[r].correct;
    }
}
static int figure_mlp_training(const char *fig, const Run *run)
{
    static float step[MAX_RECORDS], loss[MAX_RECORDS], correct[MAX_RECORDS];
    char marker[64];
    Text svg = {0};
    int n = run->result.n_records;
    curves_of(run, step, loss, correct);
    snprintf(marker, sizeof marker, "100/100 at step %d", run->result.first_perfect);
    SvgSeries losses = {"perceptron", step, loss, n, 0, NULL};
    SvgSeries scores = {"perceptron", step, correct, n, 0, NULL};
    SvgLinePanel panels[2] = {
        {.title = "Loss", .x_label = "step", .y_label = "cross-entropy",
         .series = &losses, .n_series = 1, .log_y = 1, .legend = SVG_LEGEND_NONE},
        {.title = "Score", .x_label = "step", .y_label = "problems right",
         .series = &scores, .n_series = 1, .y_min = 0, .y_max = 100,
         .v_line = {run->result.first_perfect > 0, run->result.first_perfect, marker},
         .legend = SVG_LEGEND_NONE},
    };
    svg_line_charts(&svg, panels, 2, NULL, 720, 300);
    return save_text(fig, "mlp_training.svg", &svg);
}
static const char *const digit_labels[N_DIGITS] =
    {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};

static int figure_mlp_learned_at(const char *fig, const int step[N_PROBLEMS])
{
    float values[N_PROBLEMS];
    Text svg = {0};
    for (int p = 0; p < N_PROBLEMS; p++)
        values[p] = step[p] < 0 ? NAN : (float)step[p];
    SvgHeatmap map = {
        .title = NULL, .x_label = "b", .y_label = "a", .rows = N_DIGITS,
        .cols = N_DIGITS, .values = values, .row_labels = digit_labels,
        .col_labels = digit_labels, .cell_format = "%.0f",
    };
    SvgColorScale scale = {SVG_SEQUENTIAL, 0, 0, "step learned"};
    svg_heatmap(&svg, &map, scale, 520, 440);
    return save_text(fig, "mlp_learned_at.svg", &svg);
}
static int figures_of_chapter_1(const char *fig, Text *numbers, Run *run)
{
    int step[N_PROBLEMS];
    size_t n_params = 0;
    run->cfg = train_defaults();
    if (run_mlp(run, &n_params) != 0)
        return -1;
    learned_at(run, step);
    numbers_of_chapter_1(numbers, run, n_params, step);
    if (figure_mlp_training(fig, run) != 0 || figure_mlp_learned_at(fig, step) != 0)
        return -1;
    return 0;
}
static int figures_of_chapters_2_to_5(const char *model, const char *dir,
                                      const char *fig, Text *numbers, const Run *mlp)
{
    Run *run = malloc(sizeof *run);
    Gpt *g = load_transformer(model);
    int status = run == NULL ? fail("out of memory") : g == NULL ? -1 : 0;
    if (status == 0)
        status = load_training_log(model, run);
    if (status == 0)
        status = claims_hold(run, mlp, g);
    if (status == 0) {
        numbers_of_training(numbers, run, "gpt");
        numbers_of_chapters_2_to_4(numbers, g);
        status = table_of_tables(dir, &g->model.p);
    }
    if (status == 0)
        status = figure_training(fig, run, mlp);
    if (status == 0)
        status = figure_token_embedding(fig, g);
    if (status == 0)
        status = trace_of_chapter_5(dir, fig, numbers, g);
    delete_transformer(g);
    free(run);
    return status;
}
static int claims_hold(const Run *gpt, const Run *mlp, Gpt *g)
{
    int a, b;
    if (gpt->result.first_perfect < 0 || mlp->result.first_perfect < 0)
        return fail("chapters 1 and 4 say both models reach 100/100; this run does not");
    if (gpt->result.first_perfect >= mlp->result.first_perfect)
        return fail("chapter 4 says the transformer reaches 100/100 in fewer steps than "
                    "the perceptron (%d against %d here): revise the text",
                    gpt->result.first_perfect, mlp->result.first_perfect);
    if (closest_tokens(g, &a, &b) >= 0.5)
        return fail("chapter 3 says no two token vectors are close to parallel, but "
                    "'%c' and '%c' have cosine %.2f: revise the text", char_of_token(a),
                    char_of_token(b), closest_tokens(g, &a, &b));
    if (score(&g->model, NULL) != N_PROBLEMS)
        return fail("chapter 4 says the saved model answers all 100 problems; it does not");
    return 0;
}
static double loss_floor(double *targets_per_sequence)
{
    int targets = 0;
    for (int p = 0; p < N_PROBLEMS; p++) {
        int tokens[SEQ_LEN];
        targets += problem_tokens(p, tokens) - 1;
    }
    *targets_per_sequence = targets / (double)N_PROBLEMS;
    return N_PROBLEMS * log(10.0) / targets;
}
static void numbers_of_chapters_2_to_4(Text *out, Gpt *g)
{
    int all[N_PROBLEMS], one_digit = 0, agree = 0;
    double per_sequence, floor = loss_floor(&per_sequence);
    for (int p = 0; p < N_PROBLEMS; p++) {
        all[p] = p;
        one_digit += (p / 10) * (p % 10) < 10;
        agree += gpt_forms_agree(g, p);
    }
    number(out, "one_digit_answers", "%d", one_digit);
    number(out, "gpt_params", "%zu", g->model.p.n_params);
    number(out, "gpt_n_tables", "%d", g->model.p.n_tables);
    number(out, "gpt_loss_floor", "%.3f", floor);
    number(out, "gpt_targets_per_sequence", "%.2f", per_sequence);
    number(out, "gpt_final_loss", "%.3f", (double)g->model.batch_loss(&g->model, all, N_PROBLEMS, 0));
    number(out, "gpt_final_correct", "%d", score(&g->model, NULL));
    number(out, "forms_agree", "%d", agree);
    int a = 0, b = 0;
    double closest = closest_tokens(g, &a, &b);
    number(out, "tok_emb_max_cosine", "%.2f", closest);
    number(out, "tok_emb_cosine_a", "%c", char_of_token(a));
    number(out, "tok_emb_cosine_b", "%c", char_of_token(b));
}
static int table_of_tables(const char *dir, const Params *p)
{
    Text md = {0};
    text_printf(&md, "| | table | rows | columns | numbers |\n|--:|:--|--:|--:|--:|\n");
    for (int i = 0; i < p->n_tables; i++)
        text_printf(&md, "| %d | `%s` | %d | %d | %d |\n", i + 1, p->specs[i].name,
                    p->specs[i].rows, p->specs[i].cols, p->specs[i].rows * p->specs[i].cols);
    text_printf(&md, "| | **all %d tables** | | | **%zu** |\n", p->n_tables, p->n_params);
    return save_text(dir, "gpt_tables.md", &md);
}
static int figure_training(const char *fig, const Run *gpt, const Run *mlp)
{
    static float step[2][MAX_RECORDS], loss[2][MAX_RECORDS], correct[2][MAX_RECORDS];
    char floor_label[64], marker[64];
    double per_sequence, floor = loss_floor(&per_sequence);
    Text svg = {0};
    curves_of(gpt, step[0], loss[0], correct[0]);
    curves_of(mlp, step[1], loss[1], correct[1]);
    snprintf(floor_label, sizeof floor_label, "floor %.3f", floor);
    snprintf(marker, sizeof marker, "transformer 100/100 at step %d", gpt->result.first_perfect);
    SvgSeries losses[2] = {
        {"transformer", step[0], loss[0], gpt->result.n_records, 0, NULL},
        {"perceptron", step[1], loss[1], mlp->result.n_records, 1, NULL}};
    SvgSeries scores[2] = {
        {"transformer", step[0], correct[0], gpt->result.n_records, 0, NULL},
        {"perceptron", step[1], correct[1], mlp->result.n_records, 1, NULL}};
    SvgLinePanel panels[2] = {
        {.title = "Loss", .x_label = "step", .y_label = "cross-entropy", .series = losses,
         .n_series = 2, .log_y = 1, .h_line = {1, floor, floor_label}, .legend = SVG_LEGEND_BELOW},
        {.title = "Score", .x_label = "step", .y_label = "problems right", .series = scores,
         .n_series = 2, .y_min = 0, .y_max = 100, .legend = SVG_LEGEND_NONE,
         .v_line = {gpt->result.first_perfect > 0, gpt->result.first_perfect, marker}},
    };
    svg_line_charts(&svg, panels, 2, NULL, 760, 340);
    return save_text(fig, "gpt_training.svg", &svg);
}
static int figure_token_embedding(const char *fig, const Gpt *g)
{
    static const char *const tokens[VOCAB] =
        {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "=", ";"};
    static const char *const columns[WIDTH] = {"0", "", "", "", "4", "", "", "", "8", "", "",
        "", "12", "", "", "", "16", "", "", "", "20", "", "", "", "24", "", "", "", "28", "", "", ""};
    float values[VOCAB * WIDTH];
    Text svg = {0};
    for (int i = 0; i < VOCAB * WIDTH; i++)
        values[i] = (float)g->model.p.table[TOK_EMB][i];
    SvgHeatmap map = {.x_label = "dimension", .y_label = "token", .rows = VOCAB,
                      .cols = WIDTH, .values = values, .row_labels = tokens,
                      .col_labels = columns};
    SvgColorScale scale = {SVG_DIVERGING, 0, 0, "value"};
    svg_heatmap(&svg, &map, scale, 760, 360);
    return save_text(fig, "token_embedding.svg", &svg);
}
static double cosine(const real *x, const real *y, int n)
{
    double xy = 0, xx = 0, yy = 0;
    for (int i = 0; i < n; i++) {
        xy += (double)x[i] * (double)y[i];
        xx += (double)x[i] * (double)x[i];
        yy += (double)y[i] * (double)y[i];
    }
    return xy / sqrt(xx * yy);
}

static double closest_tokens(const Gpt *g, int *a, int *b)
{
    const real *table = g->model.p.table[TOK_EMB];
    double best = -2;
    for (int i = 0; i < VOCAB; i++)
        for (int j = i + 1; j < VOCAB; j++) {
            double c = cosine(table + i * WIDTH, table + j * WIDTH, WIDTH);
            if (c > best)
                best = c, *a = i, *b = j;
        }
    return best;
}
static int trace_of_chapter_5(const char *dir, const char *fig, Text *numbers, Gpt *g)
{
    int tokens[SEQ_LEN], T = 4, t = 3;
    Trace *tr = malloc(sizeof *tr);
    if (tr == NULL)
        return fail("out of memory");
    problem_tokens(7 * 10 + 8, tokens);
    gpt_trace(g, tokens, T, tr);
    numbers_of_the_trace(numbers, tr, t);
    int status = table_of_the_trace(dir, tr, t);
    if (status == 0)
        status = figure_trace_weights(fig, tr);
    free(tr);
    return status;
}
static void numbers_of_the_trace(Text *out, const Trace *tr, int t)
{
    int top_head = 0, top_u = 0;
    for (int head = 0; head < tr->n_heads; head++)
        for (int u = 0; u <= t; u++)
            if (tr->weights[head][t][u] > tr->weights[top_head][t][top_u])
                top_head = head, top_u = u;
    number(out, "trace_next_token", "%c", char_of_token(argmax(tr->logits[t], VOCAB)));
    number(out, "trace_top_head", "%d", top_head);
    number(out, "trace_top_u", "%d", top_u);
    number(out, "trace_top_char", "%c", char_of_token(tr->tokens[top_u]));
    number(out, "trace_top_weight", "%.2f", (double)tr->weights[top_head][t][top_u]);
}
static int table_of_the_trace(const char *dir, const Trace *tr, int t)
{
    Text md = {0};
    text_printf(&md, "| head | |");
    for (int u = 0; u <= t; u++)
        text_printf(&md, " $u = %d$ (`%c`) |", u, char_of_token(tr->tokens[u]));
    text_printf(&md, "\n|--:|:--|");
    for (int u = 0; u <= t; u++)
        text_printf(&md, "--:|");
    for (int head = 0; head < tr->n_heads; head++) {
        text_printf(&md, "\n| %d | score |", head);
        for (int u = 0; u <= t; u++)
            text_printf(&md, " %.2f |", (double)tr->scores[head][t][u]);
        text_printf(&md, "\n| | weight |");
        for (int u = 0; u <= t; u++)
            text_printf(&md, " **%.2f** |", (double)tr->weights[head][t][u]);
    }
    text_printf(&md, "\n");
    return save_text(dir, "trace_row.md", &md);
}
static int figure_trace_weights(const char *fig, const Trace *tr)
{
    static float values[MAX_HEADS][SEQ_LEN * SEQ_LEN];
    static char titles[MAX_HEADS][16], labels[SEQ_LEN][2];
    static const char *names[SEQ_LEN];
    SvgHeatmap maps[MAX_HEADS];
    Text svg = {0};
    for (int t = 0; t < tr->T; t++) {
        labels[t][0] = char_of_token(tr->tokens[t]);
        names[t] = labels[t];
    }
    for (int head = 0; head < tr->n_heads; head++) {
        for (int t = 0; t < tr->T; t++)
            for (int u = 0; u < tr->T; u++)
                values[head][t * tr->T + u] = u > t ? NAN : (float)tr->weights[head][t][u];
        snprintf(titles[head], sizeof titles[head], "head %d", head);
        maps[head] = (SvgHeatmap){titles[head], "u (read)", "t (reading)", tr->T, tr->T,
                                  values[head], names, names, "%.2f"};
    }
    SvgColorScale scale = {SVG_SEQUENTIAL, 0, 1, "weight"};
    svg_heatmaps(&svg, maps, tr->n_heads, 2, NULL, scale, 640, 600);
    return save_text(fig, "trace_weights.svg", &svg);
}
static int command_train(const Arguments *a)
{
    const char *output = a->output ? a->output : "attention.ckpt";
    Run *run = malloc(sizeof *run);
    Gpt *g = new_transformer(a->seed);
    int status = run == NULL || g == NULL ? fail("out of memory") : 0;
    if (status == 0) {
        
Watcher watcher = {isatty(fileno(stderr)), 0, -1, g};
run->cfg = train_defaults();
run->cfg.seed = a->seed;
run->cfg.steps = a->steps;
run->cfg.observe = watch_training;
run->cfg.context = &watcher;
const char *hook = getenv("ATTENTION_TEST_NAN");
if (hook != NULL) {
    char name[32] = "";
    if (sscanf(hook, "%d:%31s", &watcher.corrupt_step, name) == 2)
        for (int t = 0; t < g->model.p.n_tables; t++)
            if (strcmp(name, g->model.p.specs[t].name) == 0)
                watcher.corrupt_table = t;
}
run->result = train(&g->model, &run->cfg, run->log, MAX_RECORDS);
if (watcher.progress)
    fputc('\n', stderr);
        status = training_fault(run, &g->model.p);
        if (status == 0)
            status = save_checkpoint(output, &g->model.p, g->n_heads);
        if (status == 0)
            status = save_training_log(output, run);
        if (status == 0)
            report_training(run, output);
    }
    delete_transformer(g);
    free(run);
    return status;
}
static int training_fault(const Run *run, const Params *p)
{
    int step = run->result.fault_step, table = run->result.fault_table;
    if (step == 0)
        return 0;
    if (table < 0)
        return fail("training stopped at step %d: the loss is not a finite number; "
                    "nothing was saved", step);
    return fail("training stopped at step %d: table %s holds a NaN or infinity; "
                "nothing was saved", step, p->specs[table].name);
}
static void watch_training(const TrainRecord *r, void *context)
{
    Watcher *w = context;
    if (w->progress)
        show_progress(r, NULL);
    if (w->corrupt_table >= 0 && r->step >= w->corrupt_step) {
        w->g->model.p.table[w->corrupt_table][0] = NAN;
        w->corrupt_table = -1;
    }
}
static void show_progress(const TrainRecord *r, void *context)
{
    (void)context;
    fprintf(stderr, "\rstep %6d   loss %.4f   score %3d/%d", r->step,
            (double)r->loss, r->correct, N_PROBLEMS);
    fflush(stderr);
}

static void report_training(const Run *run, const char *output)
{
    const TrainRecord *last = &run->log[run->result.n_records - 1];
    if (run->result.first_perfect > 0)
        printf("first 100/100 at step %d\n", run->result.first_perfect);
    printf("saved %s after %d steps\n", output, run->result.steps_done);
    printf("%d/%d\n", last->correct, N_PROBLEMS);
}
static int save_training_log(const char *checkpoint, const Run *run)
{
    char path[4096];
    Text log = {0};
    if (snprintf(path, sizeof path, "%s.log", checkpoint) >= (int)sizeof path)
        return fail("path too long: %s.log", checkpoint);
    const TrainConfig *c = &run->cfg;
    text_printf(&log, "# seed=%llu steps=%d batch=%d lr=%.9g eval_every=%d\n",
                (unsigned long long)c->seed, c->steps, c->batch, (double)c->lr, c->eval_every);
    text_printf(&log, "# step\tloss\tcorrect\n");
    for (int r = 0; r < run->result.n_records; r++)
        text_printf(&log, "%d\t%.9g\t%d\n", run->log[r].step,
                    (double)run->log[r].loss, run->log[r].correct);
    if (log.failed)
        return text_free(&log), fail("out of memory writing %s", path);
    int status = write_file(path, log.data, log.len);
    text_free(&log);
    return status;
}
static int load_training_log(const char *checkpoint, Run *run)
{
    char path[4096], line[256];
    snprintf(path, sizeof path, "%s.log", checkpoint);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return fail("cannot read %s (written by attention train): %s", path, strerror(errno));
    
unsigned long long seed = 0;
double lr = 0;
run->cfg = train_defaults();
int settings = fgets(line, sizeof line, f) != NULL
    && sscanf(line, "# seed=%llu steps=%d batch=%d lr=%lf eval_every=%d", &seed,
              &run->cfg.steps, &run->cfg.batch, &lr, &run->cfg.eval_every) == 5;
run->cfg.seed = seed;
run->cfg.lr = (real)lr;
    int n = 0, bad = fgets(line, sizeof line, f) == NULL || line[0] != '#' || !settings;
    while (!bad && n < MAX_RECORDS && fgets(line, sizeof line, f) != NULL) {
        TrainRecord *r = &run->log[n++];
        double loss;
        bad = sscanf(line, "%d\t%lf\t%d", &r->step, &loss, &r->correct) != 3;
        r->loss = (real)loss;
    }
    bad = bad || n == 0 || !feof(f);
    fclose(f);
    run->result.n_records = n;
    
run->result.first_perfect = -1;
for (int r = n - 1; r >= 0; r--)
    if (run->log[r].correct == N_PROBLEMS)
        run->result.first_perfect = run->log[r].step;
run->result.steps_done = n > 0 ? run->log[n - 1].step : 0;
    return bad ? fail("%s is not a training log written by attention train", path) : 0;
}
static int command_ask(const Arguments *a)
{
    int problems[MAX_WORDS];
    if (a->n_words == 0)
        return usage_error("ask: give at least one problem, such as 7*8=");
    for (int i = 0; i < a->n_words; i++)
        if (parse_question(a->words[i], &problems[i]) != 0)
            return 2;
    Gpt *g = load_transformer(a->model);
    if (g == NULL)
        return 1;
    for (int i = 0; i < a->n_words; i++) {
        char answer[8];
        g->model.answer(&g->model, problems[i], answer);
        printf("%s%s\n", a->words[i], answer);
    }
    delete_transformer(g);
    return 0;
}
static void print_vector(const char *label, const real *x, int n)
{
    printf("  %-14s", label);
    for (int i = 0; i < n; i++)
        printf("%s%+.3f", i > 0 && i % 8 == 0 ? "\n                 " : " ", (double)x[i]);
    printf("\n");
}
static int command_trace(const Arguments *a)
{
    int tokens[SEQ_LEN], T = 0;
    if (a->n_words != 1)
        return usage_error("trace: give exactly one sequence, such as 7*8=");
    if (parse_tokens(a->words[0], tokens, &T) != 0)
        return 2;
    if (a->pos >= T)
        return usage_error("trace: --pos %d is past the end of '%s' (positions 0 to %d)",
                           a->pos, a->words[0], T - 1);
    Gpt *g = load_transformer(a->model);
    Trace *trace = malloc(sizeof *trace);
    if (g == NULL || trace == NULL) {
        delete_transformer(g);
        free(trace);
        return g == NULL ? 1 : (fail("out of memory"), 1);
    }
    gpt_trace(g, tokens, T, trace);
    print_trace(trace, a->pos < 0 ? T - 1 : a->pos, a->words[0]);
    delete_transformer(g);
    free(trace);
    return 0;
}
static void print_trace(const Trace *tr, int t, const char *text)
{
    char label[64];
    printf("trace of \"%s\" at position t = %d (token '%c')\n\n", text, t, text[t]);
    printf("1. input x[%d] = token vector of '%c' + position vector %d\n", t, text[t], t);
    print_vector("x[t]", tr->x[t], WIDTH);
    printf("2. after LayerNorm\n");
    print_vector("h[t]", tr->ln1[t], WIDTH);
    printf("3. query of row t, one line per head (d_head = %d)\n", WIDTH / tr->n_heads);
    print_vector("q[t]", tr->q[t], WIDTH);
    
int d_head = WIDTH / tr->n_heads;
printf("4. keys of the rows u <= t and the scores of row t\n");
for (int head = 0; head < tr->n_heads; head++) {
    const real *q = tr->q[t] + head * d_head;
    for (int u = 0; u <= t; u++) {
        double dot = 0;
        for (int i = 0; i < d_head; i++)
            dot += (double)q[i] * (double)tr->k[u][head * d_head + i];
        snprintf(label, sizeof label, "head %d k[%d]", head, u);
        print_vector(label, tr->k[u] + head * d_head, d_head);
        printf("  %-14s q.k = %+.3f   /sqrt(%d) = %+.3f   weight = %.3f\n", "",
               dot, d_head, (double)tr->scores[head][t][u], (double)tr->weights[head][t][u]);
    }
}
printf("5. weights of row t (each head's sum to 1)\n");
for (int head = 0; head < tr->n_heads; head++) {
    printf("  head %d       ", head);
    for (int u = 0; u <= t; u++)
        printf("  u=%d '%c' %.3f", u, char_of_token(tr->tokens[u]), (double)tr->weights[head][t][u]);
    printf("\n");
}
    printf("6. the heads' mixes of v, concatenated, times Wo, plus x[t]\n");
    print_vector("mix[t]", tr->heads[t], WIDTH);
    print_vector("x2[t]", tr->x2[t], WIDTH);
    printf("7. after the FFN and its residual\n");
    print_vector("x3[t]", tr->x3[t], WIDTH);
    
printf("8. scores for the next token (after the final LayerNorm and W_out)\n");
printf("  ");
for (int token = 0; token < VOCAB; token++)
    printf(" '%c' %+.2f", char_of_token(token), (double)tr->logits[t][token]);
printf("\n\nnext token: '%c'\n", char_of_token(argmax(tr->logits[t], VOCAB)));
    (void)label;
}
static int part_1_to_5(const Arguments *a, const char *dir, const char *fig, Text *numbers)
{
    Run *mlp = malloc(sizeof *mlp);
    int status = mlp == NULL ? fail("out of memory") : figures_of_chapter_1(fig, numbers, mlp);
    if (status == 0)
        status = figures_of_chapters_2_to_5(a->model, dir, fig, numbers, mlp);
    free(mlp);
    return status;
}

static const struct {
    const char *name;
    int (*run)(const Arguments *a, const char *dir, const char *fig, Text *numbers);
} parts[] = {
    {"1-5", part_1_to_5},
};
static int command_figures(const Arguments *a)
{
    char fig[4096], name[64];
    const char *dir = a->output;
    int found = 0;
    if (dir == NULL)
        return usage_error("figures: missing -o DIR");
    if (snprintf(fig, sizeof fig, "%s/fig", dir) >= (int)sizeof fig)
        return fail("path too long: %s", dir), 1;
    if (make_directory(dir) != 0 || make_directory(fig) != 0)
        return 1;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (a->part != NULL && strcmp(a->part, parts[i].name) != 0)
            continue;
        Text numbers = {0};
        found = 1;
        snprintf(name, sizeof name, "numbers-%s.txt", parts[i].name);
        if (parts[i].run(a, dir, fig, &numbers) != 0)
            return text_free(&numbers), 1;
        if (save_text(dir, name, &numbers) != 0)
            return 1;
    }
    return found ? 0 : usage_error("figures: no part named '%s'", a->part);
}
static const char usage[] =
    "usage: attention COMMAND [OPTIONS]\n"
    "\n"
    "Commands:\n"
    "  train [--seed N] [--steps N] [-o FILE]\n"
    "        train the transformer; save it to FILE (default attention.ckpt)\n"
    "        and its training log to FILE.log; print the final score\n"
    "  ask [-m FILE] PROBLEM...\n"
    "        answer problems such as 7*8= with the model in FILE\n"
    "  trace [-m FILE] SEQUENCE [--pos N]\n"
    "        print every number of the forward pass of SEQUENCE (such as\n"
    "        7*8=) at position N (default: the last)\n"
    "  figures [-m FILE] -o DIR [--part PART]\n"
    "        run the book's experiments with the model in FILE (all parts, or\n"
    "        one: 1-5); write DIR/numbers-PART.txt, the tables DIR/*.md and\n"
    "        the figures DIR/fig/*.svg\n"
    "\n"
    "Options:\n"
    "  --seed N    seed of the initial weights and batches (default 1)\n"
    "  --steps N   training steps, 1 to 1000000 (default 1000)\n"
    "  -m FILE     the model to use (default attention.ckpt)\n"
    "  -h, --help  show this help (also after a command)\n"
    "\n"
    "Exit status: 0 on success, 1 on a failure while running, 2 on bad usage.\n";
static const struct {
    const char *name, *options;
    int (*run)(const Arguments *a);
} commands[] = {
    {"train", "--seed --steps -o", command_train},
    {"ask", "-m", command_ask},
    {"trace", "-m --pos", command_trace},
    {"figures", "-m -o --part", command_figures},
};
int main(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("missing command");
    for (int i = 1; i < argc; i++)
        if (is_help(argv[i]))
            return fputs(usage, stdout), 0;
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        if (strcmp(argv[1], commands[c].name) != 0)
            continue;
        Arguments a;
        int status = parse_arguments(argc, argv, commands[c].options, &a);
        if (status != 0)
            return status;
        if (forms_agree_at_start_up() != 0)
            return 1;
        status = commands[c].run(&a);
        return status == 0 ? 0 : status == 2 ? 2 : 1;
    }
    return usage_error("unknown command '%s'", argv[1]);
}
