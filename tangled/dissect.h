/* dissect.h: tools that take a trained model apart: separation of two
   groups, covariance, eigenvectors; no I/O (tangled; edit attention.nw) */
#ifndef DISSECT_H
#define DISSECT_H
#include "core.h"

int    best_separating_column(const real *x, int n, int width,
                              const unsigned char *has, double *measure);

void centred_covariance(double *cov, const real *x, int n, int d);
int  symmetric_eigen(double *a, int n, double *values, double *vectors);

double loss_floor(double *targets_per_sequence);

int head_following_a_digit(Gpt *g, int a, int b);
int trace_own_output(Gpt *g, int problem, Trace *tr);
int reads_own_output_most(const Trace *tr, int head);
typedef struct {
    const char *name;
    int (*holds)(int a, int b);
} Concept;
enum { N_CONCEPTS = 5 };
extern const Concept concepts[N_CONCEPTS];
enum { EQUALS_AT = 3 };             /* the position of the = */
void activations_at_equals(Gpt *g, real h[N_PROBLEMS * HIDDEN],
                           real in[N_PROBLEMS * WIDTH]);
typedef struct {
    int count;          /* problems with the concept */
    int neuron;         /* the column that separates them best */
    double d;           /* its separation */
    int right;          /* problems its best threshold sorts right */
} NeuronFound;
NeuronFound search_neuron(const real h[N_PROBLEMS * HIDDEN],
                          const Concept *concept);
int directions_for_90(const real *x, int d, double *share);
#define ROUNDING_SHARE 0x1p-40  /* (16 * 2^-24)^2: below it, rounding */
int directions_with_variance(const double *share, int n);
typedef enum {          /* what is changed */
    PATCH_OUTPUT,       /* at the row: a head's output, before W_o */
    PATCH_WEIGHTS,      /* at the row: a head's weights */
    PATCH_KEY,          /* at position pos: a head's key */
    PATCH_VALUE,        /* at position pos: a head's value */
    PATCH_DIRECT,       /* at the row: the output, as the sum reads it */
    PATCH_VIA_FFN       /* at the row: the output, as the FFN reads it */
} PatchSite;
enum { N_PATCH_SITES = PATCH_VIA_FFN + 1 };
typedef enum {          /* what it is replaced by */
    PATCH_ZERO,         /* zeros */
    PATCH_MEAN,         /* its mean over the 100 problems, same layout */
    PATCH_OTHER         /* its value in another prompt, as long */
} PatchSource;
typedef struct {
    PatchSite site;
    PatchSource source;
    unsigned heads;     /* bit h: head h is changed */
    int row, pos;
} Patch;
typedef struct {        /* the numbers put in: head h's in at[h] */
    real at[MAX_HEADS][WIDTH];
} PatchNumbers;

int  patch_numbers(Gpt *g, const Patch *patch, const int *tokens, int T,
                   const int *other, PatchNumbers *out);

void gpt_forward_patched(Gpt *g, const Patch *patch,
                         const PatchNumbers *with, const int *tokens,
                         int T);

int    gpt_continue_patched(Gpt *g, const Patch *patch,
                            const PatchNumbers *with, int tokens[MAX_T],
                            int T, char out[8]);
double logit_difference(const Gpt *g, int row, int right);

typedef struct {            /* [0]: as computed; [1]: patched */
    char answer[2][8];
    double difference[2];
    real weights[2][MAX_HEADS][MAX_T];
} PatchRun;
int  patch_run(Gpt *g, const Patch *patch, const int *tokens, int T,
               const int *other, int right, PatchRun *out);

typedef struct {            /* one head, at the = of a*b= */
    real qk[2][N_DIGITS];   /* score for digit d at position 0, at 2 */
    real ov[2][N_DIGITS][N_DIGITS]; /* reading d there: change of the
                               logit of each first digit, centred */
} HeadCircuits;
int head_circuits(Gpt *g, HeadCircuits circuits[MAX_HEADS]);

#endif
