/* exp_longer.c: the book's model and its relatives trained five times
   as long, and the book's model with a smaller step (chapter 7).
   Trains its own models. */
#include "core.h"
#include "experiments.h"
#include "files.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LONGER = 5, COLLAPSE = 90, SMALLER_STEP = 3 };
enum { LONG_SEEDS = N_SEEDS };          /* the sweep's seeds */
enum { MAX_LONG = N_PARTS + 1 };

typedef struct {
    const char *tag, *label;    /* in the numbers; in tables, figures */
    Ablation off;
    int smaller_step;           /* the learning rate / SMALLER_STEP */
} LongModel;

static int long_models(LongModel m[MAX_LONG])
{
    int n = 0;
    m[n++] = (LongModel){"book", "the book's model", 0, 0};
    for (int i = 0; i < N_PARTS; i++)
        if (1u << i != NO_MASK)
            m[n++] = (LongModel){part_table[i].tag, part_table[i].label,
                                 1u << i, 0};
    m[n++] = (LongModel){"smaller_step", "the book's, smaller step", 0, 1};
    return n;
}

typedef struct {
    Run run;
    float moved[MAX_RECORDS];   /* RMS change since the last check */
    float sharpest[MAX_RECORDS];    /* largest attention score */
} LongRun;

typedef struct {
    Gpt *g;
    LongRun *r;
    real *before;               /* the parameters at the last check */
    int n;                      /* checks so far */
} Watch;

static double sharpest_score(Gpt *g)
{
    static int tokens[N_PROBLEMS * (SEQ_LEN - 1)];
    int sequence[SEQ_LEN], T = SEQ_LEN - 1;
    for (int p = 0; p < N_PROBLEMS; p++) {
        problem_tokens(p, sequence);
        memcpy(tokens + p * T, sequence, (size_t)T * sizeof(int));
    }
    gpt_forward(g, tokens, N_PROBLEMS, T);
    real top = -INFINITY;       /* masked scores are -inf */
    for (int i = 0; i < N_PROBLEMS * g->n_heads * T * T; i++)
        if (g->act.scores[i] > top)     /* not fmax: gcc 12 for ARM */
            top = g->act.scores[i];     /* fails to vectorise it */
    return top;
}

static void watch(const TrainRecord *record, void *context)
{
    Watch *w = context;
    const Params *p = &w->g->model.p;
    double sum = 0;
    (void)record;
    for (size_t i = 0; i < p->n_params; i++) {
        double d = (double)p->params[i] - (double)w->before[i];
        sum += d * d;
    }
    memcpy(w->before, p->params, p->n_params * sizeof(real));
    if (w->n < MAX_RECORDS) {
        w->r->moved[w->n] = (float)sqrt(sum / (double)p->n_params);
        w->r->sharpest[w->n] = (float)sharpest_score(w->g);
    }
    w->n++;
}

static int train_longer(LongRun *r, const TrainConfig *book, LongModel m,
                        int s)
{
    TrainConfig cfg = *book;
    cfg.seed += (uint64_t)s;
    cfg.steps *= LONGER;
    if (m.smaller_step)
        cfg.lr /= SMALLER_STEP;
    Gpt *g = new_transformer(cfg.seed);
    Watch w = {g, r, NULL, 0};
    if (g == NULL)
        return -1;
    g->ablate = m.off;
    w.before = malloc(g->model.p.n_params * sizeof(real));
    if (w.before == NULL) {
        delete_transformer(g);
        return fail("out of memory");
    }
    memcpy(w.before, g->model.p.params, g->model.p.n_params * sizeof(real));
    r->run.cfg = cfg;                   /* without the watch */
    cfg.observe = watch;
    cfg.context = &w;
    r->run.result = train(&g->model, &cfg, r->run.log, MAX_RECORDS);
    free(w.before);
    delete_transformer(g);
    return r->run.result.fault_step == 0 ? 0
           : fail("a longer run went bad at step %d",
                  r->run.result.fault_step);
}

enum { MAX_ONSETS = MAX_RECORDS };
typedef struct {
    int first, final;           /* first 100/100 (or -1); last score */
    int lowest;                 /* after the first 100/100 */
    int lowest_late, late_step; /* after the book's last step, and where */
    int early, late;            /* collapses starting by the book's
                                   last step, and after it */
    int onset[MAX_ONSETS];      /* the check of each collapse's onset */
} LongMeasures;

static LongMeasures measure_longer(const Run *run, int book_steps)
{
    LongMeasures m = {run->result.first_perfect, 0, N_PROBLEMS,
                      N_PROBLEMS, 0, 0, 0, {0}};
    int up = 0;                 /* at 100/100 since the last collapse */
    for (int r = 0; r < run->result.n_records; r++) {
        const TrainRecord *c = &run->log[r];
        m.final = c->correct;
        if (m.first < 0 || c->step < m.first)
            continue;
        m.lowest = c->correct < m.lowest ? c->correct : m.lowest;
        if (c->step > book_steps && c->correct < m.lowest_late) {
            m.lowest_late = c->correct;
            m.late_step = c->step;
        }
        if (c->correct == N_PROBLEMS)
            up = 1;
        else if (up && c->correct < COLLAPSE) {
            up = 0;
            m.onset[m.early + m.late] = r;
            *(c->step <= book_steps ? &m.early : &m.late) += 1;
        }
    }
    return m;
}

typedef struct {
    int onsets, moved_above, before_above, sharper, loss_above;
    double moved[MAX_ONSETS], before[MAX_ONSETS], sharpest[MAX_ONSETS],
        loss[MAX_ONSETS];
} Onsets;

static void add_onsets(Onsets *o, const LongRun *r, const LongMeasures *m)
{
    static double moved[MAX_RECORDS], sharpest[MAX_RECORDS],
        loss[MAX_RECORDS];
    const Run *run = &r->run;
    int n = 0, n_records = run->result.n_records;
    for (int i = 0; i < n_records && i < MAX_RECORDS; i++)
        if (m->first >= 0 && run->log[i].step >= m->first) {
            moved[n] = r->moved[i];
            sharpest[n] = r->sharpest[i];
            loss[n++] = run->log[i].loss;
        }
    if (n == 0)
        return;
    double typical[3] = {median_of(moved, n), median_of(sharpest, n),
                         median_of(loss, n)};
    for (int k = 0; k < m->early + m->late && o->onsets < MAX_ONSETS;
         k++) {
        int i = m->onset[k], j = o->onsets++;
        o->moved[j] = r->moved[i] / typical[0];
        o->before[j] = r->moved[i - 1] / typical[0];
        o->sharpest[j] = r->sharpest[i] / typical[1];
        o->loss[j] = run->log[i - 1].loss / typical[2];
        o->moved_above += o->moved[j] > 1;
        o->before_above += o->before[j] > 1;
        o->sharper += o->sharpest[j] > 1;
        o->loss_above += o->loss[j] > 1;
    }
}

typedef struct {
    int reached, early, collapsed, collapses, back;
    double lowest[LONG_SEEDS], first[LONG_SEEDS];  /* of those reached */
    double final[LONG_SEEDS];
} LongSummary;

static LongSummary summary_of(const LongMeasures m[LONG_SEEDS])
{
    LongSummary y = {0};
    for (int s = 0; s < LONG_SEEDS; s++) {
        y.final[s] = m[s].final;
        if (m[s].first >= 0) {
            y.lowest[y.reached] = m[s].lowest;
            y.first[y.reached++] = m[s].first;
        }
        y.early += m[s].early > 0;
        y.collapsed += m[s].early + m[s].late > 0;
        y.collapses += m[s].early + m[s].late;
        y.back += m[s].final == N_PROBLEMS;
    }
    return y;
}

typedef struct {
    int n_models, book_steps;
    LongModel model[MAX_LONG];
    LongRun run[MAX_LONG][LONG_SEEDS];
    LongMeasures m[MAX_LONG][LONG_SEEDS];
    LongSummary sum[MAX_LONG];
} Longer;

static int table_of_longer(const char *dir, const Longer *x)
{
    Text md = {0};
    text_printf(&md, "| model | at 100/100 | collapsed by %d "
                     "| by %d | collapses | lowest: median (least) "
                     "| final score |\n"
                     "|:----------------|------:|------:|------:|------:"
                     "|----------:|--------:|\n",
                x->book_steps, x->book_steps * LONGER);
    for (int v = 0; v < x->n_models; v++) {
        const LongSummary *y = &x->sum[v];
        double final_lo = lowest_of(y->final, LONG_SEEDS),
               final_hi = highest_of(y->final, LONG_SEEDS);
        text_printf(&md, "| %s | %d | %d | %d | %d ", x->model[v].label,
                    y->reached, y->early, y->collapsed, y->collapses);
        if (y->reached > 0)
            text_printf(&md, "| %.0f (%.0f) ",
                        median_of(y->lowest, y->reached),
                        lowest_of(y->lowest, y->reached));
        else
            text_printf(&md, "| none ");
        if (final_lo == final_hi)
            text_printf(&md, "| %.0f |\n", final_lo);
        else
            text_printf(&md, "| %.0f to %.0f |\n", final_lo, final_hi);
    }
    return save_table(dir, "longer_summary.md", &md);
}

/* The panels in `columns` columns, a figure `width` pixels wide. */
static void draw_longer(Text *svg, const Longer *x, double width,
                        int columns)
{
    static float step[MAX_LONG][LONG_SEEDS][MAX_RECORDS],
        correct[MAX_LONG][LONG_SEEDS][MAX_RECORDS],
        loss[MAX_RECORDS];
    SvgSeries series[LONG_SEEDS];
    double room = svg_axis_title_room();
    double panel_h = 190, panel_w = (width - 20 - room) / columns;
    int rows = (x->n_models + columns - 1) / columns;
    svg_begin(svg, width, rows * (panel_h - room) + room + 10);
    for (int v = 0; v < x->n_models; v++) {
        for (int s = 0; s < LONG_SEEDS; s++) {
            const Run *run = &x->run[v][s].run;
            int k = LONG_SEEDS - 1 - s;        /* the book's seed last */
            curves_of(run, step[v][s], loss, correct[v][s]);
            series[k] = (SvgSeries){NULL, step[v][s], correct[v][s],
                                    run->result.n_records, 0,
                                    s == 0 ? svg_palette(0) : "#a6a6a6",
                                    s == 0 ? 1.6 : 0.6};
        }
        char guide[32];
        snprintf(guide, sizeof guide, "step %d", x->book_steps);
        int column = v % columns, row = v / columns;
        int lowest = v + columns >= x->n_models; /* none under it */
        int axis = column == 0 && row == rows / 2; /* the score's axis */
        SvgLinePanel panel = {
            .title = x->model[v].label,
            .x_label = lowest ? "step" : NULL,
            .y_label = axis ? "problems answered" : NULL,
            .series = series, .n_series = LONG_SEEDS, .x_min = 0,
            .x_max = x->book_steps * LONGER, .y_min = 0, .y_max = 100,
            .v_line = {1, x->book_steps, guide},
            .legend = SVG_LEGEND_NONE};
        svg_line_panel(svg,
                       (SvgRect){10 + room + column * panel_w
                                     - (axis ? room : 0),
                                 5 + row * (panel_h - room),
                                 panel_w + (axis ? room : 0),
                                 panel_h - (lowest ? 0 : room)},
                       &panel);
    }
    svg_end(svg);
}

static int figure_longer(const char *fig, const Longer *x)
{
    Text svg[2] = {{0}, {0}};
    draw_longer(&svg[0], x, 760, 2);
    draw_longer(&svg[1], x, NARROW_WIDTH, 1);
    return save_figure(fig, "longer.svg", svg);
}

static void numbers_of_longer(Text *out, const Longer *x)
{
    static const char *const counted[5] = {"back", "reached",
        "collapsed_early", "collapsed", "collapses"};  /* of LongSummary */
    number(out, "longer_times", "%d", LONGER);
    number(out, "longer_seeds", "%d", LONG_SEEDS);
    number(out, "longer_megabytes", "%.0f", sizeof *x / 1e6);
    number(out, "longer_steps", "%d", x->book_steps * LONGER);
    number(out, "longer_collapse", "%d", COLLAPSE);
    number(out, "longer_smaller", "%d", SMALLER_STEP);
    number(out, "longer_smaller_lr", "%.3g",
           (double)x->run[x->n_models - 1][0].run.cfg.lr);
    for (int v = 0; v < x->n_models; v++) {
        const LongSummary *y = &x->sum[v];
        const char *tag = x->model[v].tag;
        int count[5] = {y->back, y->reached, y->early, y->collapsed,
                        y->collapses};
        for (int k = 0; k < 5; k++)
            number(out, named("longer_%s_%s", tag, counted[k]).text, "%d",
                   count[k]);
        numbers_of_spread(out, named("longer_%s_final", tag).text, "%.0f",
                          y->final, LONG_SEEDS);
        if (y->reached == 0)
            continue;
        numbers_of_spread(out, named("longer_%s_lowest", tag).text,
                          "%.0f", y->lowest, y->reached);
        numbers_of_spread(out, named("longer_%s_first", tag).text, "%.0f",
                          y->first, y->reached);
    }
    const LongMeasures *book = &x->m[0][0];
    number(out, "longer_seed_lowest", "%d", book->lowest_late);
    number(out, "longer_seed_lowest_step", "%d", book->late_step);
    number(out, "longer_seed_after", "%d",
           book->late_step - x->book_steps);
}

static void numbers_of_onsets(Text *out, const Onsets *o)
{
    static const char *const ratio[4] = {"moved", "before", "sharpest",
                                         "loss"};
    static const char *const format[4] = {"%.1f", "%.1f", "%.2f", "%.1f"};
    const double *of[4] = {o->moved, o->before, o->sharpest, o->loss};
    number(out, "longer_onsets", "%d", o->onsets);
    number(out, "longer_onsets_moved", "%d", o->moved_above);
    number(out, "longer_onsets_before", "%d", o->before_above);
    number(out, "longer_onsets_sharper", "%d", o->sharper);
    number(out, "longer_onsets_loss", "%d", o->loss_above);
    for (int k = 0; k < 4 && o->onsets > 0; k++)
        numbers_of_spread(out, named("longer_onset_%s", ratio[k]).text,
                          format[k], of[k], o->onsets);
}

static int same_start(const Run *longer, const Run *book)
{
    int n = 0;
    for (int r = 0; r < book->result.n_records; r++) {
        const TrainRecord *a = &longer->log[r], *b = &book->log[r];
        n += a->step == b->step && a->correct == b->correct
             && !memcmp(&a->loss, &b->loss, sizeof a->loss);
    }
    return n == book->result.n_records;
}

static double median_first(const LongSummary *y)  /* NEVER: none */
{
    double first[LONG_SEEDS];
    for (int s = 0; s < LONG_SEEDS; s++)
        first[s] = s < y->reached ? y->first[s] : NEVER;
    return median_of(first, LONG_SEEDS);
}

static void claims_about_longer(Claims *claims, const Longer *x,
                                const Onsets *o, const Run *book)
{
    static const char *const chapter = CHAPTER_ABLATIONS;
    int fewest = LONG_SEEDS, most = 0, most_at = 0;
    int smaller = x->n_models - 1, no_gelu = 0;
    const LongSummary *y = x->sum, *small = &x->sum[smaller];
    for (int v = 0; v < x->n_models; v++) {
        no_gelu = x->model[v].off == NO_GELU ? v : no_gelu;
        fewest = y[v].collapsed < fewest ? y[v].collapsed : fewest;
        most_at = y[v].collapses > most ? v : most_at;
        most = y[v].collapses > most ? y[v].collapses : most;
    }
    claim(claims, same_start(&x->run[0][0].run, book), chapter,
          "the first steps of each longer run are the book's run, step "
          "for step", "the checks of the book's seed up to step %d: %s",
          x->book_steps,
          same_start(&x->run[0][0].run, book) ? "the same" : "differ");
    claim_count(claims, fewest, LONG_SEEDS, (3 * LONG_SEEDS + 3) / 4,
                LONG_SEEDS, chapter,
          "every model trained five times as long collapses on most "
          "seeds (at least three in four)",
          "fewest seeds collapsed, over the models: %d of %d", fewest,
          LONG_SEEDS);
    claim(claims, most_at == no_gelu, chapter,
          "the model without GELU collapses most often",
          "most collapses: %s, %d", x->model[most_at].label, most);
    claim_count(claims, o->moved_above, o->onsets,
                (9 * o->onsets + 9) / 10, o->onsets, chapter,
                "at nine onsets of a collapse in ten or more, the steps of "
                "the fall move the parameters further than a typical "
                "check's", "further at %d of %d onsets", o->moved_above,
                o->onsets);
    claim(claims, median_of(o->moved, o->onsets) >= 2, chapter,
          "a collapse is a jump: at the median onset, the steps of the "
          "fall move the parameters several times as far as a typical "
          "check's", "median %.1f times", median_of(o->moved, o->onsets));
    claim_count(claims, o->sharper, o->onsets, 0, (o->onsets - 1) / 2,
                chapter, "attention grows sharper before fewer than half "
                "the collapses", "sharper at %d of %d onsets", o->sharper,
                o->onsets);
    claim(claims, median_of(o->sharpest, o->onsets) < 1, chapter,
          "attention does not grow sharper before a collapse: at the "
          "median onset its sharpest score is below typical",
          "median %.2f times", median_of(o->sharpest, o->onsets));
    claim_every(claims, count_below(o->loss, o->onsets, 1.5), o->onsets,
                chapter,
          "no spike in the loss announces a collapse (under 1.5 times "
          "its typical value at the check before)",
          "the batch's loss before the fall: at most %.2f times typical",
          highest_of(o->loss, o->onsets));
    claim_count(claims, small->collapsed, LONG_SEEDS, LONG_SEEDS / 2 + 1,
                LONG_SEEDS, chapter, "with a third of the step the book's "
                "model still collapses, on more than half the seeds",
                "collapsed on %d of %d seeds", small->collapsed,
                LONG_SEEDS);
    claim(claims, median_first(small) > median_first(&y[0]), chapter,
          "with a third of the step the book's model learns more slowly "
          "(by the median first 100/100)", "median %.0f against %.0f",
          median_first(small), median_first(&y[0]));
}

int longer_experiments(const char *model, const char *sweep,
                       const char *dir, const char *fig, Text *numbers,
                       Claims *claims)
{
    Longer *x = calloc(1, sizeof *x);
    Onsets *o = calloc(1, sizeof *o);
    Run *book = malloc(sizeof *book);
    int status = x == NULL || o == NULL || book == NULL
                     ? fail("out of memory") : 0;
    (void)sweep;                        /* trains its own models */
    if (status == 0)
        status = load_training_log(model, book);
    if (status == 0) {
        x->n_models = long_models(x->model);
        x->book_steps = book->cfg.steps;
    }
    for (int v = 0; status == 0 && v < x->n_models; v++) {
        for (int s = 0; status == 0 && s < LONG_SEEDS; s++) {
            status = train_longer(&x->run[v][s], &book->cfg,
                                  x->model[v], s);
            x->m[v][s] = measure_longer(&x->run[v][s].run, x->book_steps);
            add_onsets(o, &x->run[v][s], &x->m[v][s]);
        }
        x->sum[v] = summary_of(x->m[v]);
    }
    if (status == 0) {
        numbers_of_longer(numbers, x);
        numbers_of_onsets(numbers, o);
        claims_about_longer(claims, x, o, book);
        status = table_of_longer(dir, x);
    }
    if (status == 0)
        status = figure_longer(fig, x);
    free(book);
    free(o);
    free(x);
    return status;
}

