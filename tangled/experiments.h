/* experiments.h: what the book's experiments share, and one entry per
   topic (tangled; edit attention.nw) */
#ifndef EXPERIMENTS_H
#define EXPERIMENTS_H
#include "claims.h"
#include "core.h"
#include "dissect.h"
#include "svg.h"
#include "views.h"

enum { MAX_RECORDS = 1024 };
typedef struct {
    TrainConfig cfg;
    TrainResult result;
    TrainRecord log[MAX_RECORDS];
} Run;

typedef struct {
    int n_heads;            /* 1, 2, 4 or 8 */
    Ablation off;           /* the parts switched off (chapters 7, 9) */
    int layouts;            /* trained on the six layouts (chapter 4) */
} Relative;
typedef struct {
    const char *dir;        /* the sweep's files, or NULL: train here */
    const Run *book;        /* the book's log: its settings, seed 0 */
    Gpt *model;             /* the book's model (NULL if not loaded) */
} Sweep;

enum { MAX_STEPS = 1000000 };

#ifndef ATTENTION_SEEDS
#define ATTENTION_SEEDS 20
#endif
enum { N_SEEDS = ATTENTION_SEEDS };
enum { N_SEEDS_DRAWN = 3 };   /* the seeds a figure of curves draws */

typedef struct {
    Run run;
    double loss;            /* on all 100 problems, after training */
    int correct;            /* score after training */
} Trained;

void number(Text *numbers, const char *name, const char *format, ...)
    PRINTF_LIKE(3, 4);
typedef struct { char text[64]; } NumberName;
NumberName named(const char *format, ...) PRINTF_LIKE(1, 2);
int  decimals_for(double x);
Gpt *new_transformer(uint64_t seed);
Gpt *new_transformer_heads(uint64_t seed, int n_heads);
Gpt *new_layout_transformer(uint64_t seed);
void delete_transformer(Gpt *g);
int  forms_agree_at_start_up(void);
int  exercises_solved_at_start_up(void);
Gpt *load_transformer(const char *path);
int  run_mlp(Run *run, size_t *n_params, int seed_index);
int  save_training_log(const char *checkpoint, const Run *run);
int  load_training_log(const char *checkpoint, Run *run);
void runs_table_head(Text *md);
void runs_table_row(Text *md, const char *model, const Run *run,
                    int score, double loss);
int  steps_to_perfect(const Run *run);
int  lowest_after_perfect(const Run *run);
void curves_of(const Run *run, float *step, float *loss, float *correct);
void numbers_of_training(Text *out, const Run *run, const char *prefix);
double cosine(const real *x, const real *y, int n);
void trace_table_head(Text *md, const Trace *tr, int t,
                      const char *left, const char *left_rule);

typedef int Topic(const char *model, const char *sweep, const char *dir,
                  const char *fig, Text *numbers, Claims *claims);
Topic perceptron_experiments, specimen_experiments, routing_experiments,
      ablation_experiments, heads_experiments, ffn_experiments,
      speed_experiments, layouts_experiments, heldout_experiments,
      longer_experiments;

/* the chapters the claims belong to, as the table of claims names them */
#define CHAPTER_PERCEPTRON "The welded wiring"
#define CHAPTER_TURN       "The turn"
#define CHAPTER_EMBEDDING  "Token to vector"
#define CHAPTER_TRAINING   "Train it first"
#define CHAPTER_ROUTING    "Routing is computed live"
#define CHAPTER_ABLATIONS  "Four parts, each for a reason"
#define CHAPTER_HEADS      "Multi-head"
#define CHAPTER_FFN        "The feed-forward network"

typedef struct { char text[160]; } SeedList;
SeedList seed_list(const int values[N_SEEDS]);

double median_of(const double *values, int n);
double lowest_of(const double *values, int n);
double highest_of(const double *values, int n);
int count_below(const double *values, int n, double bound);
void numbers_of_spread(Text *numbers, const char *prefix,
                       const char *format, const double *values, int n);

/* Runs the topic named part (every topic if NULL, and "claims" joins
   their claim checks) on the model and sweep, writing into dir; book:
   a claim that does not hold is an error.  0, -1 on failure, or
   NO_SUCH_TOPIC. */
enum { NO_SUCH_TOPIC = -2 };
int run_topics(const char *model, const char *sweep, const char *dir,
               const char *part, int book);

int  answered_under(Gpt *g, Patch patch, int which, int from,
                    int (*other)(int p), int *counted);
int  answered_at_mean(Gpt *g, PatchSite site);
int  partner_of(int p);

enum { NEVER = 1 << 30 };   /* the first 100/100 of a run without one */
void   seed_by_seed(const int *these, const int *those, int n,
                    int count[3]);
double median_of_ints(const int *values, int n);
int    lowest_of_ints(const int *values, int n);
int    highest_of_ints(const int *values, int n);

Gpt *swept(Run *run, const Sweep *sw, Relative r, int s);
Gpt *swept_measured(Trained *t, const Sweep *sw, Relative r, int s);
void done_with(Gpt *relative, const Sweep *sw);
int  sweep_all(const char *model, const char *dir);

#endif
