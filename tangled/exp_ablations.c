/* exp_ablations.c: the four parts switched off, one at a time
   (tangled; edit attention.nw) */
#include "checkpoint.h"
#include "experiments.h"
#include "files.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_VARIANTS = 1 + N_PARTS };
typedef struct { const char *name, *label; Ablation off; } Variant;
static int variants(void)          /* the book's model, ABLATED's parts */
{
    int n = 1;
    while (ablated_part(n - 1) >= 0)
        n++;
    return n;
}

static Variant variant(int v)      /* 0: the book's model */
{
    int i = ablated_part(v - 1);
    if (v == 0 || i < 0)
        return (Variant){"full", "book's model", 0};
    return (Variant){part_table[i].tag, part_table[i].label, 1u << i};
}

static int variant_without(Ablation off)    /* the variant of one part */
{
    int v = 1;
    while (v < variants() && variant(v).off != off)
        v++;
    return v;
}

typedef struct {
    Run run[N_SEEDS];
    double loss[N_SEEDS];           /* on all 100 problems, at the end */
    double copied[N_SEEDS];         /* answer tokens copied (see below) */
    /* the first seed's model, measured before it is deleted: */
    int swaps_alike, swap_answers;  /* pairs alike when swapped */
    double swap_gap;                /* their largest output gap */
    double widest_score, saturated; /* its scores' reach */
} Trials;

static double share_copied(Gpt *g)
{
    int copied = 0, asked = 0;
    for (int p = 0; p < N_PROBLEMS; p++) {
        int tokens[SEQ_LEN], n = problem_tokens(p, tokens);
        for (int t = 3; t + 1 < n; t++) {     /* the = and the answer */
            int planted[SEQ_LEN], was = tokens[t + 1];
            memcpy(planted, tokens, sizeof planted);
            planted[t + 1] = was < N_DIGITS ? (was + 1) % N_DIGITS : 0;
            gpt_forward(g, planted, 1, n);
            copied += argmax(g->act.logits + t * VOCAB, VOCAB)
                      == planted[t + 1];
            asked++;
        }
    }
    return (double)copied / asked;
}

static int final_score(const Run *run)
{
    return run->log[run->result.n_records - 1].correct;
}

static int best_score_of(const Run *run)
{
    int best = 0;
    for (int r = 0; r < run->result.n_records; r++)
        best = run->log[r].correct > best ? run->log[r].correct : best;
    return best;
}

typedef struct {                /* one model's runs over the seeds */
    int first[N_SEEDS];         /* the first 100/100's step, or NEVER */
    int low[N_SEEDS];           /* the lowest score after it (100: none) */
    int first_lo, first_hi;     /* over the seeds that reach 100/100 */
    int never;                  /* the seeds that never do */
    int fell, lowest, lowest_seed;  /* after a first 100/100 */
    int score_lo, score_hi;     /* the final scores */
    int best;                   /* the best score at any check */
    double loss_lo, loss_hi;    /* the final losses */
    int count[3];               /* against the book's model, seed by
                                   seed: sooner, as soon, later */
} Spread;

static Spread spread_of(const Trials *trials, const Trials *book)
{
    Spread sp = {.first_hi = -1, .lowest = N_PROBLEMS,
                 .score_lo = N_PROBLEMS};
    int theirs[N_SEEDS];                /* the book's model's sp.first */
    for (int s = 0; s < N_SEEDS; s++) {
        const Run *run = &trials->run[s];
        int score = final_score(run), best = best_score_of(run);
        int first = run->result.first_perfect;
        int book_first = book->run[s].result.first_perfect;
        sp.first[s] = first >= 0 ? first : NEVER;
        theirs[s] = book_first >= 0 ? book_first : NEVER;
        sp.low[s] = lowest_after_perfect(run);
        sp.fell += sp.low[s] < N_PROBLEMS;
        sp.lowest_seed = sp.low[s] < sp.lowest ? s : sp.lowest_seed;
        sp.lowest = sp.low[s] < sp.lowest ? sp.low[s] : sp.lowest;
        sp.score_lo = score < sp.score_lo ? score : sp.score_lo;
        sp.score_hi = score > sp.score_hi ? score : sp.score_hi;
        sp.best = best > sp.best ? best : sp.best;
        sp.never += first < 0;
        sp.first_hi = first > sp.first_hi ? first : sp.first_hi;
    }
    sp.first_lo = lowest_of_ints(sp.first, N_SEEDS);
    sp.loss_lo = lowest_of(trials->loss, N_SEEDS);
    sp.loss_hi = highest_of(trials->loss, N_SEEDS);
    seed_by_seed(sp.first, theirs, N_SEEDS, sp.count);
    return sp;
}

static int table_of_trials(const char *dir, const Trials *trials)
{
    Text md = {0};
    runs_table_head(&md);
    for (int v = 0; v < variants(); v++)
        for (int s = 0; s < N_SEEDS; s++) {
            const Run *run = &trials[v].run[s];
            runs_table_row(&md, s == 0 ? variant(v).label : "", run,
                           final_score(run), trials[v].loss[s]);
        }
    return save_table(dir, "ablations.md", &md);
}

static int short_table_of_trials(const char *dir,
                                 const Trials *trials)
{
    Text md = {0};
    /* the dashes set the columns' widths in print */
    text_printf(&md, "| model | median first 100/100 | fewest to most "
                     "| sooner, as soon, later "
                     "| fell back (lowest) | final score "
                     "| final loss |\n|:-------------|----------:"
                     "|-----------:|-----------:|----------:|--------:"
                     "|-----------:|\n");
    for (int v = 0; v < variants(); v++) {
        Spread sp = spread_of(&trials[v], &trials[0]);
        text_printf(&md, "| %s | ", variant(v).label);
        if (sp.never == N_SEEDS)
            text_printf(&md, "never | | ");
        else
            text_printf(&md, "%g | %d to %d | ", median_of_ints(sp.first, N_SEEDS),
                        sp.first_lo, sp.first_hi);
        if (v == 0)
            text_printf(&md, "| ");
        else
            text_printf(&md, "%d, %d, %d | ", sp.count[0], sp.count[1],
                        sp.count[2]);
        if (sp.fell == 0)
            text_printf(&md, "none | ");
        else
            text_printf(&md, "%d (%d) | ", sp.fell, sp.lowest);
        if (sp.score_lo == sp.score_hi)
            text_printf(&md, "%d | ", sp.score_lo);
        else
            text_printf(&md, "%d to %d | ", sp.score_lo, sp.score_hi);
        text_printf(&md, "%.4f to %.4f |\n", sp.loss_lo, sp.loss_hi);
    }
    return save_table(dir, "ablation_summary.md", &md);
}

static void numbers_of_trials(Text *out, const Trials *trials,
                              const Trials *book, const char *name)
{
    Spread sp = spread_of(trials, book);
    number(out, named("%s_score_lo", name).text, "%d", sp.score_lo);
    number(out, named("%s_score_hi", name).text, "%d", sp.score_hi);
    number(out, named("%s_best_ever", name).text, "%d", sp.best);
    number(out, named("%s_loss_lo", name).text, "%.4f", sp.loss_lo);
    number(out, named("%s_loss_hi", name).text, "%.4f", sp.loss_hi);
    number(out, named("%s_first_lo", name).text, "%d",
           sp.never == N_SEEDS ? -1 : sp.first_lo);
    number(out, named("%s_first_hi", name).text, "%d", sp.first_hi);
    number(out, named("%s_never", name).text, "%d", sp.never);
    number(out, named("%s_fell", name).text, "%d", sp.fell);
    number(out, named("%s_lowest", name).text, "%d", sp.lowest);
    number(out, named("%s_lowest_seed", name).text, "%llu",
           (unsigned long long)(trials->run[0].cfg.seed + sp.lowest_seed));
    if (median_of_ints(sp.first, N_SEEDS) < NEVER)     /* else none */
        number(out, named("%s_first_median", name).text, "%g",
               median_of_ints(sp.first, N_SEEDS));
    number(out, named("%s_sooner", name).text, "%d", sp.count[0]);
    number(out, named("%s_as_soon", name).text, "%d", sp.count[1]);
    number(out, named("%s_later", name).text, "%d", sp.count[2]);
}

static int figure_trials(const char *fig, const Trials *trials, int v)
{
    enum { N = 2 * N_SEEDS_DRAWN };     /* two models, some seeds each */
    static float step[N][MAX_RECORDS], loss[N][MAX_RECORDS],
        correct[N][MAX_RECORDS];
    static char labels[N][64], colours[N][8];
    SvgSeries losses[N], scores[N];
    double per_sequence, floor = loss_floor(&per_sequence);
    char floor_label[64];
    Text svg[2] = {{0}, {0}};
    for (int m = 0; m < 2; m++)
        for (int s = 0; s < N_SEEDS_DRAWN; s++) {
            int i = m * N_SEEDS_DRAWN + s;
            const Run *run = &trials[m ? v : 0].run[s];
            curves_of(run, step[i], loss[i], correct[i]);
            /* colour, pattern and width name the model, lightness the seed;
               the first seed's label names the model too */
            snprintf(labels[i], sizeof labels[i], "%s%sseed %llu",
                     s > 0 ? "" : m ? variant(v).label : "book's model",
                     s > 0 ? "" : ", ", (unsigned long long)run->cfg.seed);
            svg_tint(colours[i], svg_palette(m), 0.3 * s);
            losses[i] = (SvgSeries){labels[i], step[i], loss[i],
                                    run->result.n_records, m, colours[i],
                                    m ? 3 : 1.5};
            scores[i] = losses[i];
            scores[i].y = correct[i];
        }
    snprintf(floor_label, sizeof floor_label, "floor %.3f", floor);
    SvgLinePanel panels[2] = {
        {.title = "Loss", .x_label = "step", .y_label = "cross-entropy",
         .series = losses, .n_series = N, .log_y = 1,
         .h_line = {variant(v).off == NO_MASK, floor, floor_label},
         .legend = SVG_LEGEND_BELOW},
        {.title = "Score", .x_label = "step", .y_label = "problems right",
         .series = scores, .n_series = N, .y_min = 0,
         .y_max = 100, .legend = SVG_LEGEND_NONE},
    };
    for (int narrow = 0; narrow < 2; narrow++)
        svg_line_charts(&svg[narrow], panels, 2,
                        narrow ? NARROW_WIDTH : 760, 380);
    return save_figure(fig, named("%s.svg", variant(v).name).text, svg);
}

static int figure_spread(const char *fig, const Trials *trials)
{
    static float first[MAX_VARIANTS * N_SEEDS];
    const char *rows[MAX_VARIANTS], *colours[MAX_VARIANTS];
    Text svg[2] = {{0}, {0}};
    for (int v = 0; v < variants(); v++) {
        Spread sp = spread_of(&trials[v], &trials[0]);
        rows[v] = variant(v).label;
        colours[v] = svg_palette(v > 0);
        for (int s = 0; s < N_SEEDS; s++)
            first[v * N_SEEDS + s] =
                sp.first[s] == NEVER ? NAN : (float)sp.first[s];
    }
    SvgDotChart chart = {.x_label = "step of the first 100/100",
                         .n_rows = variants(), .n_dots = N_SEEDS,
                         .rows = rows, .values = first,
                         .none = "never 100/100", .colours = colours};
    for (int narrow = 0; narrow < 2; narrow++)
        svg_dot_chart(&svg[narrow], &chart,
                      narrow ? NARROW_WIDTH : 760, 70 + 60 * variants());
    return save_figure(fig, "ablations_spread.svg", svg);
}

static int swapped_alike(Gpt *g, int a, int b, double *logit_gap)
{
    static real scores[MAX_HEADS][4], logits[VOCAB];
    int tokens[SEQ_LEN], T = 4, t = 3, same = 1;
    static const int exchanged[4] = {2, 1, 0, 3};
    problem_tokens(10 * a + b, tokens);
    gpt_forward(g, tokens, 1, T);
    for (int head = 0; head < g->n_heads; head++)
        memcpy(scores[head], g->act.scores + (head * T + t) * T,
               4 * sizeof(real));
    memcpy(logits, g->act.logits + t * VOCAB, sizeof logits);
    problem_tokens(10 * b + a, tokens);
    gpt_forward(g, tokens, 1, T);
    for (int head = 0; head < g->n_heads; head++)
        for (int u = 0; u < 4; u++)
            same &= !memcmp(&scores[head][exchanged[u]],
                            g->act.scores + (head * T + t) * T + u,
                            sizeof(real));
    *logit_gap = 0;
    for (int i = 0; i < VOCAB; i++)
        *logit_gap = fmax(*logit_gap, fabs((double)logits[i]
                          - (double)g->act.logits[t * VOCAB + i]));
    return same;
}

static int count_swapped_alike(Gpt *g, double *widest, int *same_answers)
{
    int alike = 0;
    double gap;
    char x[8], y[8];
    *widest = 0;
    *same_answers = 0;
    for (int a = 0; a < N_DIGITS; a++)
        for (int b = a + 1; b < N_DIGITS; b++) {
            alike += swapped_alike(g, a, b, &gap);
            *widest = fmax(*widest, gap);
            g->model.answer(&g->model, 10 * a + b, x);
            g->model.answer(&g->model, 10 * b + a, y);
            *same_answers += strcmp(x, y) == 0;
        }
    return alike;
}

static void numbers_of_swaps(Text *out, const Trials *trials,
                             const char *name)
{
    number(out, named("%s_swaps_alike", name).text, "%d",
           trials->swaps_alike);
    number(out, named("%s_swap_gap", name).text, "%.1e",
           trials->swap_gap);
    number(out, named("%s_swap_answers", name).text, "%d",
           trials->swap_answers);
}

static double length_of(const real *x, size_t n)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += (double)x[i] * (double)x[i];
    return sqrt(sum);
}

static int gradient_lane(Text *out, Claims *claims, const char *dir,
                         uint64_t seed)
{
    int all[N_PROBLEMS];
    double cosines[2], tokens[2];
    Text md = {0};
    for (int p = 0; p < N_PROBLEMS; p++)
        all[p] = p;
    text_printf(&md, "| | at the top, $\\partial y$ "
                     "| at the bottom, $\\partial x$ "
                     "| cosine of $\\partial x$ and $\\partial y$ "
                     "| token table | position table |\n"
                     "|:--|--:|--:|--:|--:|--:|\n");
    for (int off = 0; off < 2; off++) {
        Gpt *g = new_transformer(seed);
        if (g == NULL)
            return text_free(&md), -1;
        g->ablate = off ? NO_RESIDUAL : 0;
        memset(g->model.p.grads, 0, g->model.p.n_params * sizeof(real));
        g->model.batch_loss(&g->model, all, N_PROBLEMS, 1);
        size_t cells = (size_t)g->B * g->T * WIDTH;     /* the rows of that pass */
        double top = length_of(g->grad.x3, cells);
        double bottom = length_of(g->grad.x, cells);
        double tok = length_of(g->model.p.grad[TOK_EMB], VOCAB * WIDTH);
        double pos = length_of(g->model.p.grad[POS_EMB], SEQ_LEN * WIDTH);
        double along = cosine(g->grad.x, g->grad.x3, (int)cells);
        text_printf(&md, "| %s | %.4f | %.4f | %.2f | %.4f | %.4f |\n",
                    off ? "without the residual" : "with the residual",
                    top, bottom, along, tok, pos);
        number(out, off ? "lane_off_cosine" : "lane_on_cosine", "%.2f", along);
        cosines[off] = along;
        tokens[off] = tok;
        number(out, off ? "lane_off_bottom" : "lane_on_bottom", "%.4f", bottom);
        number(out, off ? "lane_off_top" : "lane_on_top", "%.4f", top);
        number(out, off ? "lane_off_tok" : "lane_on_tok", "%.4f", tok);
        number(out, off ? "lane_off_ratio" : "lane_on_ratio", "%.2f", bottom / top);
        delete_transformer(g);
    }
    claim(claims, cosines[0] > cosines[1] && tokens[1] > tokens[0] / 2
          && tokens[1] < 2 * tokens[0], CHAPTER_ABLATIONS,
          "the residual turns the bottom gradient towards the top one, and "
          "the token table gets about as much gradient without it",
          "cosine %.2f with the residual, %.2f without; token table's "
          "gradient %.3g with, %.3g without", cosines[0], cosines[1],
          tokens[0], tokens[1]);
    return save_table(dir, "gradient_lane.md", &md);
}

enum { N_SCALES = 5 };
static const float scales[N_SCALES] = {0.5f, 1, 2.828427f, 8, 32};

static int figure_softmax_scale(const char *fig, Text *numbers, Gpt *g)
{
    static const char *const groups[N_SCALES] =
        {"\u00d7 1/2", "\u00d7 1 (the model)",
         "\u00d7 \u221a8 (no division)", "\u00d7 8", "\u00d7 32"};
    static const char *const positions[4] = {"7", "*", "8", "="};
    float values[N_SCALES * 4];
    Trace *tr = malloc(sizeof *tr);
    int tokens[SEQ_LEN], t = 3, head = 0;
    Text svg[2] = {{0}, {0}};
    if (tr == NULL)
        return fail("out of memory");
    problem_tokens(7 * 10 + 8, tokens);
    gpt_trace(g, tokens, 4, tr);
    for (int h = 1; h < tr->n_heads; h++) {     /* its largest weight least */
        const real *w = tr->weights[h][t], *least = tr->weights[head][t];
        if ((float)w[argmax(w, t + 1)] < (float)least[argmax(least, t + 1)])
            head = h;
    }
    number(numbers, "scale_head", "%d", head);
    for (int k = 0; k < N_SCALES; k++) {
        const real *row = tr->scores[head][t];
        double scaled[4], sum = 0, top = 0;
        double max = scales[k] * (double)row[argmax(row, t + 1)];
        for (int u = 0; u <= t; u++)
            scaled[u] = scales[k] * (double)row[u];
        for (int u = 0; u <= t; u++)
            sum += exp(scaled[u] - max);
        for (int u = 0; u <= t; u++) {
            values[k * 4 + u] = (float)(exp(scaled[u] - max) / sum);
            top = fmax(top, values[k * 4 + u]);
        }
        number(numbers, named("scale_top_%d", k).text, "%.2f", top);
    }
    char shades[N_SCALES][8];   /* one blue, lighter for smaller factors */
    const char *colours[N_SCALES];
    for (int k = 0; k < N_SCALES; k++) {
        svg_tint(shades[k], svg_palette(0), 0.8 - 0.2 * k);
        colours[k] = shades[k];
    }
    SvgBarChart chart = {NULL, "position read", "weight", 4, N_SCALES,
                         positions, groups, values, 0, 1, colours};
    for (int narrow = 0; narrow < 2; narrow++)
        svg_bar_chart(&svg[narrow], &chart,
                      narrow ? NARROW_WIDTH : 760, 340);
    free(tr);
    return save_figure(fig, "softmax_scale.svg", svg);
}

static double saturation(Gpt *g, double *widest_score)
{
    int rows = 0, saturated = 0, T = SEQ_LEN;
    double widest = 0;
    loss_on_all_problems(&g->model);
    for (int b = 0; b < N_PROBLEMS; b++)
        for (int head = 0; head < g->n_heads; head++)
            for (int t = 1; t < T; t++) {
                int cell = ((b * g->n_heads + head) * T + t) * T;
                double top = 0;
                for (int u = 0; u <= t; u++) {
                    double score = fabs((double)g->act.scores[cell + u]);
                    double weight = g->act.weights[cell + u];
                    if (score > widest)
                        widest = score;
                    if (weight > top)
                        top = weight;
                }
                rows++;
                saturated += top > 0.99;
            }
    *widest_score = widest;
    return 100.0 * saturated / rows;
}

static void numbers_of_saturation(Text *out, const Trials *trials,
                                  const char *name)
{
    number(out, named("%s_widest_score", name).text, "%.1f",
           trials->widest_score);
    number(out, named("%s_saturated", name).text, "%.0f",
           trials->saturated);
}

static void measure(Trials *trials, int s, Gpt *g)
{
    trials->loss[s] = (double)loss_on_all_problems(&g->model);
    trials->copied[s] = share_copied(g);
    if (s == 0) {
        trials->swaps_alike = count_swapped_alike(g, &trials->swap_gap,
                                                  &trials->swap_answers);
        trials->saturated = saturation(g, &trials->widest_score);
    }
}

static int run_trials(Trials trials[MAX_VARIANTS], const char *model,
                      const char *sweep, Gpt *book)
{
    if (load_training_log(model, &trials[0].run[0]) != 0)
        return -1;
    measure(&trials[0], 0, book);
    Sweep sw = {sweep, &trials[0].run[0], book};
    for (int v = 0; v < variants(); v++)
        for (int s = v == 0; s < N_SEEDS; s++) {
            Relative r = {.n_heads = N_HEADS, .off = variant(v).off};
            Gpt *g = swept(&trials[v].run[s], &sw, r, s);
            if (g == NULL)
                return -1;
            measure(&trials[v], s, g);
            done_with(g, &sw);
        }
    return 0;
}

static int numbers_and_figures_of_the_ablations(const char *dir,
                                                const char *fig,
                                                Text *numbers,
                                                Claims *claims,
                                                Trials *trials, Gpt *g)
{
    number(numbers, "ablation_seeds", "%d", N_SEEDS);
    number(numbers, "ablation_runs", "%d", variants() * N_SEEDS - 1);
    number(numbers, "ablation_seeds_drawn", "%d", N_SEEDS_DRAWN);
    for (int v = 0; v < variants(); v++)
        numbers_of_trials(numbers, &trials[v], &trials[0],
                          variant(v).name);
    double percent[2][N_SEEDS];
    for (int s = 0; s < N_SEEDS; s++) {
        percent[0][s] = 100 * trials[variant_without(NO_MASK)].copied[s];
        percent[1][s] = 100 * trials[0].copied[s];
    }
    numbers_of_spread(numbers, "no_mask_copied", "%.0f", percent[0],
                      N_SEEDS);
    numbers_of_spread(numbers, "full_copied", "%.0f", percent[1], N_SEEDS);
    numbers_of_swaps(numbers, &trials[0], "full");
    numbers_of_swaps(numbers, &trials[variant_without(NO_POSITION)],
                     "no_position");
    numbers_of_saturation(numbers, &trials[0], "full");
    numbers_of_saturation(numbers, &trials[variant_without(NO_LAYERNORM)],
                          "no_layernorm");
    int status = table_of_trials(dir, trials);
    if (status == 0)
        status = short_table_of_trials(dir, trials);
    if (status == 0)
        status = figure_spread(fig, trials);
    if (status == 0)
        status = gradient_lane(numbers, claims, dir,
                               trials[0].run[0].cfg.seed);
    if (status == 0)
        status = figure_softmax_scale(fig, numbers, g);
    for (int v = 1; status == 0 && v < variants(); v++)
        status = figure_trials(fig, trials, v);
    return status;
}

static SeedList first_perfect_list(const Trials *trials)
{
    int first[N_SEEDS];
    for (int s = 0; s < N_SEEDS; s++)
        first[s] = trials->run[s].result.first_perfect;
    return seed_list(first);
}

static void every_seed_reaches(Claims *claims, const Trials *trials,
                               const Trials *off, int after,
                               const char *says)
{
    int seeds = 0;                  /* first 100/100 past step after */
    for (int s = 0; s < N_SEEDS; s++)
        seeds += off->run[s].result.first_perfect > after;
    claim_every(claims, seeds, N_SEEDS, CHAPTER_ABLATIONS, says,
                "first 100/100 without: %s; with: %s",
                first_perfect_list(off).text,
                first_perfect_list(&trials[0]).text);
}

static void sooner_and_later(Claims *claims, const Trials *trials,
                             const Trials *off, const char *sooner,
                             const char *later)
{
    Spread sp = spread_of(off, &trials[0]);
    for (int k = 0; k < 3; k += 2)
        claim_count(claims, sp.count[k], N_SEEDS, 1, N_SEEDS - 1,
                    CHAPTER_ABLATIONS, k ? later : sooner,
                    "sooner on %d seeds, as soon on %d, later on %d",
                    sp.count[0], sp.count[1], sp.count[2]);
}

static void check_the_position_vectors(Claims *claims,
                                       const Trials *trials)
{
    const Trials *no_position = &trials[variant_without(NO_POSITION)];
    claim(claims, no_position->swaps_alike == 45
          && trials[0].swaps_alike == 0 && no_position->swap_gap <= 1e-4
          && trials[0].swap_gap >= 0.1, CHAPTER_ABLATIONS,
          "without position vectors the scores of a*b= and b*a= are the "
          "same bits, exchanged, for all 45 pairs, and for none with "
          "them; the outputs differ only by rounding",
          "alike without: %d pairs, largest output gap %.1e; alike with: "
          "%d, gap %.2f", no_position->swaps_alike, no_position->swap_gap,
          trials[0].swaps_alike, trials[0].swap_gap);
    Spread book = spread_of(&trials[0], &trials[0]),
           blind = spread_of(no_position, &trials[0]);
    claim(claims, blind.fell > book.fell && blind.lowest < book.lowest,
          CHAPTER_ABLATIONS,
          "more seeds of the model without position vectors fall back "
          "after their first 100/100 than of the book's model, and lower",
          "lowest after the first 100/100, seed by seed (100: never fell): "
          "without %s; with %s", seed_list(blind.low).text,
          seed_list(book.low).text);
    every_seed_reaches(claims, trials, no_position, -1,
                       "every seed of the model without position vectors "
                       "reaches 100/100");
    sooner_and_later(claims, trials, no_position,
                     "without position vectors the model reaches 100/100 "
                     "sooner than the book's model from the same seed on "
                     "some seeds", "without position vectors the model "
                     "reaches 100/100 later than the book's model from the "
                     "same seed on some seeds");
}

static void check_the_causal_mask(Claims *claims, const Trials *trials)
{
    const Trials *no_mask = &trials[variant_without(NO_MASK)];
    double per_sequence, floor = loss_floor(&per_sequence);
    Spread sp = spread_of(no_mask, &trials[0]);
    int below_floor = 0, copy = 0;
    for (int s = 0; s < N_SEEDS; s++) {
        below_floor += no_mask->loss[s] < floor / 10
                       && 2 * best_score_of(&no_mask->run[s]) < N_PROBLEMS;
        copy += no_mask->copied[s] > 0.5 && trials[0].copied[s] < 0.05;
    }
    double worst_loss = highest_of(no_mask->loss, N_SEEDS),
           copies_least = lowest_of(no_mask->copied, N_SEEDS),
           book_copies_most = highest_of(trials[0].copied, N_SEEDS);
    claim_every(claims, copy, N_SEEDS, CHAPTER_ABLATIONS,
          "without the mask the model copies: given a wrong next token, it "
          "predicts that token at more than half the rows, on every seed; "
          "the book's model at fewer than 1 in 20",
          "least share copied without the mask %.3f; most with it %.3f",
          copies_least, book_copies_most);
    claim_every(claims, below_floor, N_SEEDS, CHAPTER_ABLATIONS,
          "without the mask the loss falls to a tenth of the floor or "
          "less on every seed, while no seed answers half of the problems "
          "at any check of its training",
          "highest loss %.1e against a floor of %.3f; best score at any "
          "check %d; seeds ever at 100/100: %d", worst_loss, floor,
          sp.best, N_SEEDS - sp.never);
}

static void check_residual_and_layernorm(Claims *claims,
                                         const Trials *trials)
{
    const Trials *no_residual = &trials[variant_without(NO_RESIDUAL)],
                 *no_layernorm = &trials[variant_without(NO_LAYERNORM)];
    int book_last = spread_of(&trials[0], &trials[0]).first_hi;
    every_seed_reaches(claims, trials, no_residual, -1,
                       "every seed of the model without the residual "
                       "reaches 100/100");
    sooner_and_later(claims, trials, no_residual,
                     "without the residual the model reaches 100/100 "
                     "sooner than the book's model from the same seed on "
                     "some seeds", "without the residual the model "
                     "reaches 100/100 later than the book's model from "
                     "the same seed on some seeds");
    double rare = fmax(trials[0].saturated, no_layernorm->saturated);
    every_seed_reaches(claims, trials, no_layernorm, book_last,
                       "every seed of the model without LayerNorm reaches "
                       "100/100 later than every seed of the book's model");
    claim(claims, no_layernorm->widest_score > trials[0].widest_score
          && rare <= 20, CHAPTER_ABLATIONS,
          "the book's seed without LayerNorm has larger scores, saturated "
          "rows staying rare (under 20 %)",
          "score spread %.1f against %.1f; saturated rows %.0f %%",
          no_layernorm->widest_score, trials[0].widest_score, rare);
}

int ablation_experiments(const char *model, const char *sweep,
                         const char *dir, const char *fig, Text *numbers,
                         Claims *claims)
{
    Gpt *g = load_transformer(model);
    Trials *trials = calloc(MAX_VARIANTS, sizeof *trials);
    int status = g == NULL         ? -1
                 : trials == NULL ? fail("out of memory")
                                  : run_trials(trials, model, sweep, g);
    if (status == 0) {
        check_the_position_vectors(claims, trials);
        check_the_causal_mask(claims, trials);
        check_residual_and_layernorm(claims, trials);
        status = numbers_and_figures_of_the_ablations(dir, fig, numbers,
                                                      claims, trials, g);
    }
    free(trials);
    delete_transformer(g);
    return status;
}

