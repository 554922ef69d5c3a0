/* exp_heldout.c: the transformer on every layout and the perceptron over
   a window, each trained without one layout of a family and asked it
   (chapter 4).  Trains its own models, as long as the book's training. */
#include "core.h"
#include "experiments.h"
#include "files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FAMILIES = 2, CROSSED_SEEDS = 5, WHOLE = N_LAYOUTS };
enum { TRANSFORMER, WINDOW_PERCEPTRON, N_MODELS };
static const int family_first[FAMILIES] = {0, N_LAYOUTS};
static const int family_seeds[FAMILIES] = {N_SEEDS, CROSSED_SEEDS};
static const char *const family_names[FAMILIES] = {"chapter 2's",
                                                   "crossed"};
typedef struct {
    /* [model][family][seed][left out, or WHOLE][layout of the family] */
    int right[N_MODELS][FAMILIES][N_SEEDS][N_LAYOUTS + 1][N_LAYOUTS];
    Run run;                        /* the log of the latest training */
} HeldOut;

static void claims_about_the_worst(Text *out, Claims *claims,
                                   const HeldOut *e);

static int whole_was_run(int model, int family)
{
    return model != TRANSFORMER || family != 0;  /* the layouts topic's */
}

static int draw_from(int from[N_ALL_LAYOUTS], int family, int left_out)
{
    int drawn = 0;
    for (int i = 0; i < N_LAYOUTS; i++)
        if (i != left_out)
            from[drawn++] = family_first[family] + i;
    return drawn;
}

static int answered_in(Model *m, int model, int which)
{
    int right = 0;
    for (int p = 0; p < N_PROBLEMS; p++) {
        char want[8], got[8];
        problem_answer(p, want);
        if (model == TRANSFORMER)
            layout_answer((Gpt *)m, p, which, got);
        else
            window_answer((WindowMlp *)m, p, which, got);
        right += strcmp(want, got) == 0;
    }
    return right;
}

static int train_and_ask(HeldOut *e, int model, int family, int s,
                         int left_out, const TrainConfig *cfg)
{
    LayoutGpt *l = model == TRANSFORMER ? malloc(sizeof *l) : NULL;
    WindowMlp *w = model == TRANSFORMER ? NULL : malloc(sizeof *w);
    int made = l != NULL ? layout_gpt_create(l, cfg->seed)
             : w != NULL ? window_mlp_init(w, cfg->seed) : -1;
    if (made != 0) {
        free(l);
        free(w);
        return fail("out of memory for the held-out runs");
    }
    Model *m = l != NULL ? &l->gpt.model : &w->mlp.model;
    LayoutDraw *d = l != NULL ? &l->layouts : &w->layouts;
    d->drawn = draw_from(d->from, family, left_out);
    e->run.cfg = *cfg;
    e->run.result = train(m, &e->run.cfg, e->run.log, MAX_RECORDS);
    for (int i = 0; i < N_LAYOUTS; i++)
        e->right[model][family][s][left_out][i] =
            answered_in(m, model, family_first[family] + i);
    if (l != NULL)
        gpt_destroy(&l->gpt);
    else
        mlp_free(&w->mlp);
    free(l);
    free(w);
    return 0;
}

static int run_held_out(HeldOut *e, int steps)
{
    for (int model = 0; model < N_MODELS; model++)
        for (int family = 0; family < FAMILIES; family++)
            for (int s = 0; s < family_seeds[family]; s++)
                for (int left_out = 0; left_out <= WHOLE; left_out++) {
                    TrainConfig cfg = train_defaults();
                    cfg.seed += (uint64_t)s;
                    cfg.steps = steps;
                    cfg.eval_every = steps;     /* scored at the end */
                    if (left_out == WHOLE && !whole_was_run(model, family))
                        continue;
                    if (train_and_ask(e, model, family, s, left_out, &cfg)
                        != 0)
                        return -1;
                }
    return 0;
}

static const char *const family_tags[FAMILIES] = {"six", "crossed"};
static const char *const model_tags[N_MODELS] = {"transformer", "window"};

static void numbers_of_one(Text *out, const HeldOut *e, int model,
                           int family)
{
    double held[N_SEEDS * N_LAYOUTS], one[N_SEEDS];
    int n = 0, perfect = 0, seen = N_PROBLEMS, whole = N_PROBLEMS;
    int seeds = family_seeds[family];
    char name[64];
    for (int k = 0; k < N_LAYOUTS; k++) {
        for (int s = 0; s < seeds; s++) {
            const int *right = e->right[model][family][s][k];
            one[s] = held[n++] = right[k];
            perfect += right[k] == N_PROBLEMS;
            for (int i = 0; i < N_LAYOUTS; i++) {
                if (i != k && right[i] < seen)
                    seen = right[i];
                if (whole_was_run(model, family)
                    && e->right[model][family][s][WHOLE][i] < whole)
                    whole = e->right[model][family][s][WHOLE][i];
            }
        }
        snprintf(name, sizeof name, "heldout_%s_%s_%d", model_tags[model],
                 family_tags[family], k);
        numbers_of_spread(out, name, "%g", one, seeds);
    }
    snprintf(name, sizeof name, "heldout_%s_%s", model_tags[model],
             family_tags[family]);
    numbers_of_spread(out, name, "%g", held, n);
    static const char *const suffix[4] = {"perfect", "seen_lo", "whole_lo",
                                          "runs"};
    int value[4] = {perfect, seen, whole, n};
    for (int i = 0; i < 4; i++) {
        char full[96];
        if (i == 2 && !whole_was_run(model, family))
            continue;
        snprintf(full, sizeof full, "%s_%s", name, suffix[i]);
        number(out, full, "%d", value[i]);
    }
}

static void numbers_of_held_out(Text *out, const HeldOut *e)
{
    for (int model = 0; model < N_MODELS; model++)
        for (int family = 0; family < FAMILIES; family++)
            numbers_of_one(out, e, model, family);
    number(out, "heldout_n_seeds", "%d", N_SEEDS);
    number(out, "heldout_crossed_seeds", "%d", CROSSED_SEEDS);
    number(out, "window_in", "%d", WINDOW_IN);
    number(out, "window_slots", "%d", WINDOW);
    number(out, "mlp_in", "%d", MLP_IN);
}

static void spread_cell(Text *md, const HeldOut *e, int model,
                        int family, int k)
{
    double one[N_SEEDS];
    int seeds = family_seeds[family];
    for (int s = 0; s < seeds; s++)
        one[s] = e->right[model][family][s][k][k];
    if (lowest_of(one, seeds) == highest_of(one, seeds))
        text_printf(md, " %g (every seed) |", median_of(one, seeds));
    else
        text_printf(md, " %g (%g to %g) |", median_of(one, seeds),
                    lowest_of(one, seeds), highest_of(one, seeds));
}

static int table_of_held_out(const char *dir, const HeldOut *e)
{
    Text md = {0};
    text_printf(&md, "| layout held out | family | transformer | "
                     "window perceptron |\n|:--|:--|--:|--:|\n");
    for (int family = 0; family < FAMILIES; family++)
        for (int k = 0; k < N_LAYOUTS; k++) {
            text_printf(&md, "| `%s` | %s |",
                        layouts[family_first[family] + k],
                        family_names[family]);
            for (int model = 0; model < N_MODELS; model++)
                spread_cell(&md, e, model, family, k);
            text_printf(&md, "\n");
        }
    return save_table(dir, "heldout.md", &md);
}

static int runs_where_better(const HeldOut *e, int family, int model,
                             int *margin)
{
    int better = 0;
    *margin = N_PROBLEMS;
    for (int s = 0; s < family_seeds[family]; s++)
        for (int k = 0; k < N_LAYOUTS; k++) {
            int by = e->right[model][family][s][k][k]
                     - e->right[!model][family][s][k][k];
            better += by > 0;
            *margin = by < *margin ? by : *margin;
        }
    return better;
}

static int seeds_that_learn(const HeldOut *e, int family, int model)
{
    int learn = 0;
    for (int s = 0; s < family_seeds[family]; s++) {
        int all = 1;
        for (int i = 0; i < N_LAYOUTS; i++)
            all &= e->right[model][family][s][WHOLE][i] == N_PROBLEMS;
        learn += all;
    }
    return learn;
}

static int alone_in_length(int family, int k)
{
    const char *mine = layouts[family_first[family] + k];
    for (int j = 0; j < N_LAYOUTS; j++)
        if (j != k && strlen(layouts[family_first[family] + j])
                      == strlen(mine))
            return 0;
    return 1;
}

static int digit_in_a_new_slot(int family, int k)
{
    const char *mine = layouts[family_first[family] + k];
    int n = (int)strlen(mine);
    for (int t = 0; t < n; t++) {
        int slot = WINDOW - n + t, elsewhere = 0;
        if (mine[t] != 'a' && mine[t] != 'b')
            continue;
        for (int j = 0; j < N_LAYOUTS; j++) {
            const char *other = layouts[family_first[family] + j];
            int u = (int)strlen(other) - WINDOW + slot;
            elsewhere += j != k && u >= 0
                         && (other[u] == 'a' || other[u] == 'b');
        }
        if (elsewhere == 0)
            return 1;
    }
    return 0;
}

static int worst_are(Text *out, const HeldOut *e, int model, int family,
                     int (*has)(int family, int k), const char *name)
{
    double median[N_LAYOUTS], with = 0, without = N_PROBLEMS + 1;
    int n = 0;
    for (int k = 0; k < N_LAYOUTS; k++) {
        double one[N_SEEDS];
        for (int s = 0; s < family_seeds[family]; s++)
            one[s] = e->right[model][family][s][k][k];
        median[k] = median_of(one, family_seeds[family]);
        if (has(family, k)) {
            char label[64];
            snprintf(label, sizeof label, "%s_%d", name, n++);
            number(out, label, "%s", layouts[family_first[family] + k]);
            with = median[k] > with ? median[k] : with;
        } else {
            without = median[k] < without ? median[k] : without;
        }
    }
    return n > 0 && n < N_LAYOUTS && with < without ? n : 0;
}

static void claims_about_the_worst(Text *out, Claims *claims,
                                   const HeldOut *e)
{
    int alone = worst_are(out, e, TRANSFORMER, 0, alone_in_length,
                          "heldout_alone_in_length");
    int new_slot = worst_are(out, e, WINDOW_PERCEPTRON, 1,
                             digit_in_a_new_slot, "heldout_new_slot");
    number(out, "heldout_alone_in_length_n", "%d", alone);
    claim(claims, alone > 0, "Train it first",
          "the transformer does worst on the layouts no other is as long "
          "as", "%d such layouts, each below every other", alone);
    claim(claims, new_slot == 2, "Train it first",
          "the window perceptron's two worst crossed layouts are those "
          "with a digit in a slot no other layout has one in",
          "%d such layouts", new_slot);
}

static void claims_about_held_out(Text *out, Claims *claims,
                                  const HeldOut *e)
{
    int perfect = 0, runs = N_SEEDS * N_LAYOUTS;
    int crossed = CROSSED_SEEDS * N_LAYOUTS;
    for (int s = 0; s < N_SEEDS; s++)
        for (int k = 0; k < N_LAYOUTS; k++)
            perfect += e->right[TRANSFORMER][0][s][k][k] == N_PROBLEMS;
    int by_window, by_transformer;
    int window = runs_where_better(e, 0, WINDOW_PERCEPTRON, &by_window);
    int transformer = runs_where_better(e, 1, TRANSFORMER, &by_transformer);
    int learn = seeds_that_learn(e, 1, WINDOW_PERCEPTRON);
    number(out, "heldout_six_window_better", "%d", window);
    number(out, "heldout_six_window_by", "%d", by_window);
    number(out, "heldout_crossed_transformer_better", "%d", transformer);
    number(out, "heldout_crossed_transformer_by", "%d", by_transformer);
    number(out, "heldout_crossed_window_learns", "%d", learn);
    claim(claims, perfect == 0, "Train it first",
          "on chapter 2's layouts, the transformer answers no left-out "
          "layout perfectly", "in %d of %d runs", perfect, runs);
    claim(claims, window == runs, "Train it first",
          "on chapter 2's layouts, the window perceptron answers the "
          "left-out layout better than the transformer in every run",
          "in %d of %d runs, by at least %d", window, runs, by_window);
    claim(claims, transformer == crossed, "Train it first",
          "on the crossed layouts, the transformer answers the left-out "
          "layout better than the window perceptron in every run",
          "in %d of %d runs, by at least %d", transformer, crossed,
          by_transformer);
    claim(claims, learn == 0, "Train it first",
          "the window perceptron does not learn the crossed family on any "
          "seed", "on %d of %d seeds", learn, CROSSED_SEEDS);
    claims_about_the_worst(out, claims, e);
}

int heldout_experiments(const char *model, const char *dir,
                        const char *fig, Text *numbers, Claims *claims)
{
    HeldOut *e = calloc(1, sizeof *e);
    int status = e == NULL ? fail("out of memory") : 0;
    (void)fig;
    if (status == 0)
        status = load_training_log(model, &e->run);
    if (status == 0)
        status = run_held_out(e, e->run.cfg.steps);
    if (status == 0) {
        numbers_of_held_out(numbers, e);
        claims_about_held_out(numbers, claims, e);
        status = table_of_held_out(dir, e);
    }
    free(e);
    return status;
}

