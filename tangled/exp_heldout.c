/* exp_heldout.c: the transformer on every layout and the perceptron over
   a window, each trained without one layout of a family and asked it;
   the book's transformer trained without some problems, some of them
   with their twins (a*b= for b*a=), and asked them (chapter 4).  Trains
   its own models, as long as the book's training. */
#include "core.h"
#include "experiments.h"
#include "files.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FAMILIES = 2, CROSSED_SEEDS = 5, WHOLE = N_LAYOUTS };
_Static_assert((int)CROSSED_SEEDS <= (int)N_SEEDS,
               "the crossed family's seeds are some of the sweep's");
enum { TRANSFORMER, WINDOW_PERCEPTRON, N_MODELS };
static const int family_first[FAMILIES] = {0, N_LAYOUTS};
static const int family_seeds[FAMILIES] = {N_SEEDS, CROSSED_SEEDS};
static const char *const family_names[FAMILIES] = {"chapter 2's",
                                                   "crossed"};
enum { TWIN_PAIRS = 5, TWINS_HELD = 3 * TWIN_PAIRS };
typedef struct {
    /* per seed: the problems held out, the first TWIN_PAIRS with their
       twins taught, then TWIN_PAIRS pairs held out both ways round */
    int held[N_SEEDS][TWINS_HELD];
    char wrote[N_SEEDS][TWINS_HELD][8];     /* each one's answer */
    unsigned char right[N_SEEDS][TWINS_HELD];
    int taught_right[N_SEEDS];              /* of the problems taught */
} Twins;

typedef struct {
    /* [model][family][seed][left out, or WHOLE][layout of the family] */
    int right[N_MODELS][FAMILIES][N_SEEDS][N_LAYOUTS + 1][N_LAYOUTS];
    Twins twins;                    /* the held-out problems, below */
    Run run;                        /* the log of the latest training */
} HeldOut;

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

static const uint64_t TWINS_STREAM = 0x7477696e73212121u;   /* "twins!!!" */

static int twin_of(int p)
{
    return (p % 10) * 10 + p / 10;
}

static void choose_held(Rng *rng, int held[TWINS_HELD])
{
    int pairs[N_PROBLEMS], n = 0;
    for (int a = 0; a < 10; a++)
        for (int b = a + 1; b < 10; b++)
            pairs[n++] = 10 * a + b;
    for (int i = 0; i < 2 * TWIN_PAIRS; i++) {
        int j = i + rng_below(rng, n - i), p = pairs[j];
        pairs[j] = pairs[i];
        pairs[i] = p;
    }
    for (int i = 0; i < TWIN_PAIRS; i++) {
        int p = pairs[i];
        held[i] = rng_below(rng, 2) ? twin_of(p) : p;
        held[TWIN_PAIRS + 2 * i] = pairs[TWIN_PAIRS + i];
        held[TWIN_PAIRS + 2 * i + 1] = twin_of(pairs[TWIN_PAIRS + i]);
    }
}

typedef struct {
    Gpt gpt;                /* first member: a Taught * is a Model * */
    Rng rng;                /* draws a taught problem for each one drawn */
    int taught[N_PROBLEMS], n_taught;
    real (*own_loss)(Model *m, const int *problems, int n, int backward);
} Taught;

static real taught_batch_loss(Model *m, const int *problems, int n,
                              int backward)
{
    Taught *t = (Taught *)m;
    int instead[MAX_BATCH];
    (void)problems;
    if (n < 1 || n > MAX_BATCH)
        return NAN;
    for (int b = 0; b < n; b++)
        instead[b] = t->taught[rng_below(&t->rng, t->n_taught)];
    return t->own_loss(m, instead, n, backward);
}

static int train_without(Twins *tw, Run *run, int s, const TrainConfig *cfg)
{
    Taught *t = malloc(sizeof *t);
    if (t == NULL
        || gpt_create(&t->gpt, cfg->seed, N_HEADS, MAX_BATCH) != 0) {
        free(t);
        return fail("out of memory for the held-out problems");
    }
    unsigned char out[N_PROBLEMS] = {0};
    rng_seed(&t->rng, cfg->seed ^ TWINS_STREAM);
    choose_held(&t->rng, tw->held[s]);
    for (int i = 0; i < TWINS_HELD; i++)
        out[tw->held[s][i]] = 1;
    t->n_taught = 0;
    for (int p = 0; p < N_PROBLEMS; p++)
        if (!out[p])
            t->taught[t->n_taught++] = p;
    t->own_loss = t->gpt.model.batch_loss;
    t->gpt.model.batch_loss = taught_batch_loss;
    run->cfg = *cfg;
    run->result = train(&t->gpt.model, &run->cfg, run->log, MAX_RECORDS);
    tw->taught_right[s] = 0;
    for (int p = 0; p < N_PROBLEMS; p++) {
        char want[8], got[8];
        problem_answer(p, want);
        gpt_answer(&t->gpt.model, p, got);
        int right = strcmp(got, want) == 0;
        for (int i = 0; i < TWINS_HELD; i++)
            if (tw->held[s][i] == p) {
                tw->right[s][i] = (unsigned char)right;
                memcpy(tw->wrote[s][i], got, sizeof got);
            }
        tw->taught_right[s] += right && !out[p];
    }
    gpt_destroy(&t->gpt);
    free(t);
    return 0;
}

static int run_twins(Twins *tw, Run *run, int steps)
{
    for (int s = 0; s < N_SEEDS; s++) {
        TrainConfig cfg = train_defaults();
        cfg.seed += (uint64_t)s;
        cfg.steps = steps;
        cfg.eval_every = steps;     /* scored at the end */
        if (train_without(tw, run, s, &cfg) != 0)
            return -1;
    }
    return 0;
}

static int has_zero(int p)
{
    return p / 10 == 0 || p % 10 == 0;
}

typedef struct {
    int by_zero[2][2][2];   /* [twin kept, twin gone][without a 0, with
                               one][right, of how many] */
    int right[2];           /* [twin kept, twin gone]: right */
    int ahead;              /* seeds where a larger share of the
                               first kind is right than of the second */
    int alike, pairs;       /* of the pairs held out both ways without a
                               0: answered alike in both orders, all */
    int fewest;             /* the fewest taught problems answered */
} TwinCounts;

static TwinCounts count_twins(const Twins *tw)
{
    TwinCounts c = {0};
    for (int s = 0; s < N_SEEDS; s++) {
        int right[2] = {0, 0};
        for (int i = 0; i < TWINS_HELD; i++) {
            int gone = i >= TWIN_PAIRS, z = has_zero(tw->held[s][i]);
            right[gone] += tw->right[s][i];
            c.by_zero[gone][z][0] += tw->right[s][i];
            c.by_zero[gone][z][1]++;
        }
        for (int i = TWIN_PAIRS; i < TWINS_HELD; i += 2)
            if (!has_zero(tw->held[s][i])) {
                c.pairs++;
                c.alike += strcmp(tw->wrote[s][i],
                                  tw->wrote[s][i + 1]) == 0;
            }
        c.right[0] += right[0];
        c.right[1] += right[1];
        c.ahead += 2 * right[0] > right[1];
    }
    c.fewest = lowest_of_ints(tw->taught_right, N_SEEDS);
    return c;
}

static void numbers_of_twins(Text *out, const Twins *tw,
                             const TwinCounts *c)
{
    static const char *const kinds[2] = {"nonzero", "zero"};
    static const char *const ways[2] = {"kept", "gone"};
    number(out, "twins_gone_alike", "%d", c->alike);
    number(out, "twins_gone_pairs", "%d", c->pairs);
    for (int z = 0; z < 2; z++)
        for (int w = 0; w < 2; w++)
            for (int j = 0; j < 2; j++)
                number(out, named("twins_%s_%s_%s", ways[w], kinds[z],
                                  j == 0 ? "right" : "n").text,
                       "%d", c->by_zero[w][z][j]);
    number(out, "twins_pairs", "%d", TWIN_PAIRS);
    number(out, "twins_unordered", "%d", (N_PROBLEMS - 10) / 2);
    number(out, "twins_taught", "%d", N_PROBLEMS - TWINS_HELD);
    number(out, "twins_kept_right", "%d", c->right[0]);
    number(out, "twins_kept_n", "%d", N_SEEDS * TWIN_PAIRS);
    number(out, "twins_gone_right", "%d", c->right[1]);
    number(out, "twins_gone_n", "%d", N_SEEDS * 2 * TWIN_PAIRS);
    number(out, "twins_kept_ahead", "%d", c->ahead);
    number(out, "twins_taught_lo", "%d", c->fewest);
    for (int i = 0; i < TWINS_HELD; i++) {
        int p = tw->held[0][i];
        number(out, named("twins_book_%d", i).text, "%d*%d=%s", p / 10,
               p % 10, tw->wrote[0][i]);
    }
}

static int table_of_twins(const char *dir, const Twins *tw)
{
    Text md = {0};
    text_printf(&md, "| held out | taught | the model writes | right |\n"
                     "|:--|:--|:--|:--|\n");
    for (int i = 0; i < TWINS_HELD; i += i < TWIN_PAIRS ? 1 : 2) {
        int p = tw->held[0][i], q = twin_of(p), both = i >= TWIN_PAIRS;
        const char *right = tw->right[0][i] ? "yes" : "no";
        if (both)
            text_printf(&md, "| `%d*%d=`, `%d*%d=` | neither | `%s` `%s` | "
                             "%s, %s |\n",
                        p / 10, p % 10, q / 10, q % 10, tw->wrote[0][i],
                        tw->wrote[0][i + 1], right,
                        tw->right[0][i + 1] ? "yes" : "no");
        else
            text_printf(&md, "| `%d*%d=` | `%d*%d=` | `%s` | %s |\n",
                        p / 10, p % 10, q / 10, q % 10, tw->wrote[0][i],
                        right);
    }
    return save_table(dir, "twins.md", &md);
}

static void claims_about_twins(Claims *claims, const TwinCounts *c)
{
    const int (*kept)[2] = c->by_zero[0], (*gone)[2] = c->by_zero[1];
    claim_count(claims, c->ahead, N_SEEDS, (3 * N_SEEDS + 3) / 4, N_SEEDS,
          CHAPTER_TRAINING,
          "on at least three seeds in four, a larger share of the "
          "problems held out with their twin taught is answered than of "
          "those held out both ways", "on %d of %d seeds", c->ahead,
          N_SEEDS);
    claim_count(claims, kept[0][0], kept[0][1], 3 * kept[0][1] / 4 + 1,
          kept[0][1], CHAPTER_TRAINING,
          "without a 0, more than three in four problems held out with "
          "their twin taught are answered", "%d of %d", kept[0][0],
          kept[0][1]);
    claim_count(claims, gone[0][0], gone[0][1], 0, (gone[0][1] - 1) / 10,
          CHAPTER_TRAINING,
          "without a 0, fewer than one in ten problems held out both ways "
          "are answered", "%d of %d", gone[0][0], gone[0][1]);
    claim_count(claims, gone[1][0], gone[1][1], 3 * gone[1][1] / 4 + 1,
          gone[1][1], CHAPTER_TRAINING,
          "with a 0, more than three in four problems held out both ways "
          "are answered", "%d of %d", gone[1][0], gone[1][1]);
    claim_count(claims, c->alike, c->pairs, c->pairs / 2 + 1, c->pairs,
          CHAPTER_TRAINING,
          "most pairs held out both ways without a 0 are answered alike in "
          "both orders", "%d of %d pairs", c->alike, c->pairs);
}

static const char *const family_tags[FAMILIES] = {"six", "crossed"};
static const char *const model_tags[N_MODELS] = {"transformer", "window"};

static void numbers_of_one(Text *out, const HeldOut *e, int model,
                           int family)
{
    double held[N_SEEDS * N_LAYOUTS], one[N_SEEDS];
    int n = 0, perfect = 0, seen = N_PROBLEMS, whole = N_PROBLEMS;
    int seeds = family_seeds[family];
    NumberName name = named("heldout_%s_%s", model_tags[model],
                            family_tags[family]);
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
        numbers_of_spread(out, named("%s_%d", name.text, k).text, "%g",
                          one, seeds);
    }
    numbers_of_spread(out, name.text, "%g", held, n);
    static const char *const suffix[4] = {"perfect", "seen_lo", "whole_lo",
                                          "runs"};
    int value[4] = {perfect, seen, whole, n};
    for (int i = 0; i < 4; i++) {
        if (i == 2 && !whole_was_run(model, family))
            continue;
        number(out, named("%s_%s", name.text, suffix[i]).text, "%d", value[i]);
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
            number(out, named("%s_%d", name, n++).text, "%s",
                   layouts[family_first[family] + k]);
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
    claim(claims, alone > 0, CHAPTER_TRAINING,
          "the transformer does worst on the layouts no other is as long "
          "as", "%d such layouts, each below every other", alone);
    claim(claims, new_slot == 2, CHAPTER_TRAINING,
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
    claim_every(claims, runs - perfect, runs, CHAPTER_TRAINING,
          "on chapter 2's layouts, in no run does the transformer answer "
          "the left-out layout perfectly", "perfect in %d of %d runs",
          perfect, runs);
    claim_every(claims, window, runs, CHAPTER_TRAINING,
          "on chapter 2's layouts, the window perceptron answers the "
          "left-out layout better than the transformer in every run",
          "in %d of %d runs, by at least %d", window, runs, by_window);
    claim_every(claims, transformer, crossed, CHAPTER_TRAINING,
          "on the crossed layouts, the transformer answers the left-out "
          "layout better than the window perceptron in every run",
          "in %d of %d runs, by at least %d", transformer, crossed,
          by_transformer);
    claim_every(claims, CROSSED_SEEDS - learn, CROSSED_SEEDS,
                CHAPTER_TRAINING,
          "the window perceptron does not learn the crossed family on any "
          "seed", "on %d of %d seeds", learn, CROSSED_SEEDS);
    claims_about_the_worst(out, claims, e);
}

int heldout_experiments(const char *model, const char *sweep,
                        const char *dir, const char *fig, Text *numbers,
                        Claims *claims)
{
    HeldOut *e = calloc(1, sizeof *e);
    int status = e == NULL ? fail("out of memory") : 0;
    (void)sweep, (void)fig;     /* its models are its own */
    if (status == 0)
        status = load_training_log(model, &e->run);
    if (status == 0)
        status = run_held_out(e, e->run.cfg.steps);
    if (status == 0)
        status = run_twins(&e->twins, &e->run, e->run.cfg.steps);
    if (status == 0) {
        TwinCounts c = count_twins(&e->twins);
        numbers_of_held_out(numbers, e);
        claims_about_held_out(numbers, claims, e);
        numbers_of_twins(numbers, &e->twins, &c);
        claims_about_twins(claims, &c);
        status = table_of_held_out(dir, e);
    }
    if (status == 0)
        status = table_of_twins(dir, &e->twins);
    free(e);
    return status;
}

