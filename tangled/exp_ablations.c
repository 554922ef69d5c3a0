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

typedef struct Trials Trials;
static void claims_about_the_ablations(Claims *claims, const Trials *trials,
                                       Gpt *g);
static void check_the_position_vectors(Claims *claims,
                                       const Trials *trials, Gpt *g);
static void check_the_causal_mask(Claims *claims, const Trials *trials);
static void check_residual_and_layernorm(Claims *claims,
                                         const Trials *trials, Gpt *g);
static int numbers_and_figures_of_the_ablations(const char *dir,
                                                const char *fig,
                                                Text *numbers,
                                                Claims *claims,
                                                Trials *trials, Gpt *g);
static double share_copied(Gpt *g);

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

struct Trials {
    Run run[N_SEEDS];
    double loss[N_SEEDS];           /* on all 100 problems, at the end */
    double copied[N_SEEDS];         /* answer tokens copied (see below) */
    Gpt *first;                     /* the model of the first seed, kept */
};

static int train_variant(Trials *trials, int s, Ablation off,
                         const Sweep *sw)
{
    Relative r = {.n_heads = N_HEADS, .off = off};
    Gpt *g = swept(&trials->run[s], sw, r, s);
    if (g == NULL)
        return -1;
    trials->loss[s] = (double)loss_on_all_problems(&g->model);
    trials->copied[s] = share_copied(g);
    if (s == 0)
        trials->first = g;
    else
        done_with(g, sw);
    return 0;
}

static int run_trials(Trials trials[MAX_VARIANTS], const char *model,
                      const char *sweep, Gpt *book)
{
    if (load_training_log(model, &trials[0].run[0]) != 0)
        return -1;
    trials[0].loss[0] = (double)loss_on_all_problems(&book->model);
    trials[0].copied[0] = share_copied(book);
    Sweep sw = {sweep, &trials[0].run[0], book};
    for (int v = 0; v < variants(); v++)
        for (int s = v == 0; s < N_SEEDS; s++)
            if (train_variant(&trials[v], s, variant(v).off, &sw) != 0)
                return -1;
    return 0;
}

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

static void first_steps(const Trials *trials, int first[N_SEEDS])
{
    for (int s = 0; s < N_SEEDS; s++) {
        int step = trials->run[s].result.first_perfect;
        first[s] = step >= 0 ? step : NEVER;
    }
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

static void summary_row(Text *md, const Trials *trials, const Trials *book,
                        const char *label)
{
    int mine[N_SEEDS], theirs[N_SEEDS], count[3], lo = NEVER, hi = 0;
    int fell = 0, lowest = N_PROBLEMS, score_lo = N_PROBLEMS, score_hi = 0;
    double loss_lo = INFINITY, loss_hi = 0;
    first_steps(trials, mine);
    first_steps(book, theirs);
    seed_by_seed(mine, theirs, N_SEEDS, count);
    for (int s = 0; s < N_SEEDS; s++) {
        int low = lowest_after_perfect(&trials->run[s]);
        int score = final_score(&trials->run[s]);
        fell += low < N_PROBLEMS;
        lowest = low < lowest ? low : lowest;
        lo = mine[s] < lo ? mine[s] : lo;
        hi = mine[s] != NEVER && mine[s] > hi ? mine[s] : hi;
        score_lo = score < score_lo ? score : score_lo;
        score_hi = score > score_hi ? score : score_hi;
        loss_lo = fmin(loss_lo, trials->loss[s]);
        loss_hi = fmax(loss_hi, trials->loss[s]);
    }
    text_printf(md, "| %s | ", label);
    if (lo == NEVER)
        text_printf(md, "never | | ");
    else
        text_printf(md, "%g | %d to %d | ", median_of_ints(mine, N_SEEDS), lo,
                    hi);
    if (trials == book)
        text_printf(md, "| ");
    else
        text_printf(md, "%d, %d, %d | ", count[0], count[1], count[2]);
    if (fell == 0)
        text_printf(md, "none | ");
    else
        text_printf(md, "%d (%d) | ", fell, lowest);
    if (score_lo == score_hi)
        text_printf(md, "%d | ", score_lo);
    else
        text_printf(md, "%d to %d | ", score_lo, score_hi);
    text_printf(md, "%.4f to %.4f |\n", loss_lo, loss_hi);
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
    for (int v = 0; v < variants(); v++)
        summary_row(&md, &trials[v], &trials[0], variant(v).label);
    return save_table(dir, "ablation_summary.md", &md);
}

static void numbers_of_trials(Text *out, const Trials *trials,
                              const Trials *book, const char *name)
{
    int score_lo = N_PROBLEMS, score_hi = 0, best = 0;
    int first_lo = MAX_STEPS, first_hi = -1, never = 0;
    int fell = 0, lowest = N_PROBLEMS;  /* after a first 100/100 */
    int lowest_seed = 0, mine[N_SEEDS], theirs[N_SEEDS], count[3];
    double loss_lo = INFINITY, loss_hi = 0;
    char key[64];
    for (int s = 0; s < N_SEEDS; s++) {
        const Run *run = &trials->run[s];
        int score = final_score(run), first = run->result.first_perfect;
        int low = lowest_after_perfect(run);
        fell += low < N_PROBLEMS;
        lowest_seed = low < lowest ? s : lowest_seed;
        lowest = low < lowest ? low : lowest;
        score_lo = score < score_lo ? score : score_lo;
        score_hi = score > score_hi ? score : score_hi;
        best = best_score_of(run) > best ? best_score_of(run) : best;
        loss_lo = fmin(loss_lo, trials->loss[s]);
        loss_hi = fmax(loss_hi, trials->loss[s]);
        never += first < 0;
        first_lo = first >= 0 && first < first_lo ? first : first_lo;
        first_hi = first > first_hi ? first : first_hi;
    }
    first_steps(trials, mine);
    first_steps(book, theirs);
    seed_by_seed(mine, theirs, N_SEEDS, count);
    #define RANGE(suffix, ...) \
        (snprintf(key, sizeof key, "%s_%s", name, suffix), \
         number(out, key, __VA_ARGS__))
    RANGE("score_lo", "%d", score_lo);
    RANGE("score_hi", "%d", score_hi);
    RANGE("best_ever", "%d", best);
    RANGE("loss_lo", "%.4f", loss_lo);
    RANGE("loss_hi", "%.4f", loss_hi);
    RANGE("first_lo", "%d", never == N_SEEDS ? -1 : first_lo);
    RANGE("first_hi", "%d", first_hi);
    RANGE("never", "%d", never);
    RANGE("fell", "%d", fell);
    RANGE("lowest", "%d", lowest);
    RANGE("lowest_seed", "%llu", (unsigned long long)(trials->run[0].cfg.seed
                                                      + (unsigned)lowest_seed));
    if (median_of_ints(mine, N_SEEDS) < NEVER)     /* else none */
        RANGE("first_median", "%g", median_of_ints(mine, N_SEEDS));
    RANGE("sooner", "%d", count[0]);
    RANGE("as_soon", "%d", count[1]);
    RANGE("later", "%d", count[2]);
    #undef RANGE
}

static int figure_trials(const char *fig, const char *file,
                         const Trials *book, const Trials *off,
                         const char *label, int with_floor)
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
            const Run *run = &(m ? off : book)->run[s];
            curves_of(run, step[i], loss[i], correct[i]);
            /* colour, pattern and width name the model, lightness the seed */
            if (s == 0)
                snprintf(labels[i], sizeof labels[i], "%s, seed %llu",
                         m ? label : "book's model",
                         (unsigned long long)run->cfg.seed);
            else
                snprintf(labels[i], sizeof labels[i], "seed %llu",
                         (unsigned long long)run->cfg.seed);
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
         .h_line = {with_floor, floor, floor_label},
         .legend = SVG_LEGEND_BELOW},
        {.title = "Score", .x_label = "step", .y_label = "problems right",
         .series = scores, .n_series = N, .y_min = 0,
         .y_max = 100, .legend = SVG_LEGEND_NONE},
    };
    for (int narrow = 0; narrow < 2; narrow++)
        svg_line_charts(&svg[narrow], panels, 2, NULL,
                        narrow ? NARROW_WIDTH : 760, 380);
    return save_figure(fig, file, svg);
}

static int figure_spread(const char *fig, const Trials *trials)
{
    static float first[MAX_VARIANTS * N_SEEDS];
    const char *rows[MAX_VARIANTS], *colours[MAX_VARIANTS];
    int steps[N_SEEDS];
    Text svg[2] = {{0}, {0}};
    for (int v = 0; v < variants(); v++) {
        rows[v] = variant(v).label;
        colours[v] = svg_palette(v > 0);
        first_steps(&trials[v], steps);
        for (int s = 0; s < N_SEEDS; s++)
            first[v * N_SEEDS + s] = steps[s] == NEVER ? NAN
                                                       : (float)steps[s];
    }
    SvgDotChart chart = {.x_label = "step of the first 100/100",
                         .n_rows = variants(), .n_dots = N_SEEDS,
                         .rows = rows, .values = first,
                         .none = "never 100/100", .colours = colours,
                         .ringed = 0};
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

static void numbers_of_swaps(Text *out, Gpt *g, const char *name)
{
    int same_answers = 0;
    double widest = 0;
    char key[64];
    int alike = count_swapped_alike(g, &widest, &same_answers);
    snprintf(key, sizeof key, "%s_swaps_alike", name);
    number(out, key, "%d", alike);
    snprintf(key, sizeof key, "%s_swap_gap", name);
    number(out, key, "%.1e", widest);
    snprintf(key, sizeof key, "%s_swap_answers", name);
    number(out, key, "%d", same_answers);
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
    float largest[MAX_HEADS];
    for (int h = 0; h < tr->n_heads; h++) {
        largest[h] = 0;
        for (int u = 0; u <= t; u++)
            largest[h] = fmaxf(largest[h], (float)tr->weights[h][t][u]);
        if (largest[h] < largest[head])
            head = h;
    }
    number(numbers, "scale_head", "%d", head);
    for (int k = 0; k < N_SCALES; k++) {
        double max = -INFINITY, sum = 0, top = 0;
        for (int u = 0; u <= t; u++)
            if (scales[k] * (double)tr->scores[head][t][u] > max)
                max = scales[k] * (double)tr->scores[head][t][u];
        for (int u = 0; u <= t; u++)
            sum += exp(scales[k] * (double)tr->scores[head][t][u] - max);
        for (int u = 0; u <= t; u++) {
            values[k * 4 + u] = (float)(exp(scales[k]
                                            * (double)tr->scores[head][t][u]
                                            - max) / sum);
            top = fmax(top, values[k * 4 + u]);
        }
        char name[32];
        snprintf(name, sizeof name, "scale_top_%d", k);
        number(numbers, name, "%.2f", top);
    }
    char shades[N_SCALES][8];   /* one blue, lighter for smaller factors */
    const char *colours[N_SCALES];
    for (int k = 0; k < N_SCALES; k++) {
        svg_tint(shades[k], svg_palette(0), 0.8 - 0.2 * k);
        colours[k] = shades[k];
    }
    SvgBarChart chart = {NULL, "position read", "weight", 4, N_SCALES,
                         positions, groups, values, NULL, 0, 1, colours};
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

static void numbers_of_saturation(Text *out, Gpt *g, const char *name)
{
    double widest, share = saturation(g, &widest);
    char key[64];
    snprintf(key, sizeof key, "%s_widest_score", name);
    number(out, key, "%.1f", widest);
    snprintf(key, sizeof key, "%s_saturated", name);
    number(out, key, "%.0f", share);
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
        claims_about_the_ablations(claims, trials, g);
        status = numbers_and_figures_of_the_ablations(dir, fig, numbers,
                                                      claims, trials, g);
    }
    for (int v = 0; trials != NULL && v < variants(); v++)
        delete_transformer(trials[v].first);
    free(trials);
    delete_transformer(g);
    return status;
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
    numbers_of_swaps(numbers, g, "full");
    numbers_of_swaps(numbers, trials[variant_without(NO_POSITION)].first,
                     "no_position");
    numbers_of_saturation(numbers, g, "full");
    numbers_of_saturation(numbers,
                          trials[variant_without(NO_LAYERNORM)].first,
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
    for (int v = 1; status == 0 && v < variants(); v++) {
        char file[64];
        snprintf(file, sizeof file, "%s.svg", variant(v).name);
        status = figure_trials(fig, file, &trials[0], &trials[v],
                               variant(v).label, variant(v).off == NO_MASK);
    }
    return status;
}

static int seeds_perfect_after(const Trials *trials, int step)
{
    int seeds = 0;                      /* first 100/100 after step */
    for (int s = 0; s < N_SEEDS; s++)
        seeds += trials->run[s].result.first_perfect > step;
    return seeds;
}

static int first_perfect_range(const Trials *trials, int *lo, int *hi)
{
    *lo = MAX_STEPS, *hi = -1;
    for (int s = 0; s < N_SEEDS; s++) {
        int first = trials->run[s].result.first_perfect;
        *lo = first < *lo ? first : *lo;
        *hi = first > *hi ? first : *hi;
    }
    return *lo;
}

static const char *first_perfect_list(const Trials *trials, char *out,
                                      size_t size)
{
    int first[N_SEEDS];
    for (int s = 0; s < N_SEEDS; s++)
        first[s] = trials->run[s].result.first_perfect;
    list_values(out, size, first, N_SEEDS);
    return out;
}

static void sooner_and_later(Claims *claims, const int count[3],
                             const char *sooner, const char *later)
{
    for (int k = 0; k < 3; k += 2)
        claim_count(claims, count[k], N_SEEDS, 1, N_SEEDS - 1,
                    CHAPTER_ABLATIONS, k ? later : sooner,
                    "sooner on %d seeds, as soon on %d, later on %d",
                    count[0], count[1], count[2]);
}

static void claims_about_the_ablations(Claims *claims, const Trials *trials,
                                       Gpt *g)
{
    check_the_position_vectors(claims, trials, g);
    check_the_causal_mask(claims, trials);
    check_residual_and_layernorm(claims, trials, g);
}

static void check_the_position_vectors(Claims *claims,
                                       const Trials *trials, Gpt *g)
{
    const Trials *no_position = &trials[variant_without(NO_POSITION)];
    double gap_book, gap_blind;
    int same;
    int alike_book = count_swapped_alike(g, &gap_book, &same);
    int alike_blind = count_swapped_alike(no_position->first, &gap_blind,
                                          &same);
    claim(claims, alike_blind == 45 && alike_book == 0 && gap_blind <= 1e-4
          && gap_book >= 0.1, CHAPTER_ABLATIONS,
          "without position vectors the scores of a*b= and b*a= are the "
          "same bits, exchanged, for all 45 pairs, and for none with "
          "them; the outputs differ only by rounding",
          "alike without: %d pairs, largest output gap %.1e; alike with: "
          "%d, gap %.2f", alike_blind, gap_blind, alike_book, gap_book);
    int low_book[N_SEEDS], low_blind[N_SEEDS];
    int fell_book = 0, fell_blind = 0;
    int lowest_book = N_PROBLEMS, lowest_blind = N_PROBLEMS;
    for (int s = 0; s < N_SEEDS; s++) {
        low_book[s] = lowest_after_perfect(&trials[0].run[s]);
        low_blind[s] = lowest_after_perfect(&no_position->run[s]);
        lowest_book = fmin(lowest_book, low_book[s]);
        lowest_blind = fmin(lowest_blind, low_blind[s]);
        fell_book += low_book[s] < N_PROBLEMS;
        fell_blind += low_blind[s] < N_PROBLEMS;
    }
    char lows_book[160], lows_blind[160];
    list_values(lows_book, sizeof lows_book, low_book, N_SEEDS);
    list_values(lows_blind, sizeof lows_blind, low_blind, N_SEEDS);
    claim(claims, fell_blind > fell_book && lowest_blind < lowest_book,
          CHAPTER_ABLATIONS,
          "more seeds of the model without position vectors fall back "
          "after their first 100/100 than of the book's model, and lower",
          "lowest after the first 100/100, seed by seed (100: never fell): "
          "without %s; with %s", lows_blind, lows_book);
    int mine[N_SEEDS], theirs[N_SEEDS], count[3];
    char book[160], off[160];   /* first 100/100, seed by seed */
    first_perfect_list(&trials[0], book, sizeof book);
    first_steps(&trials[0], theirs);
    first_steps(no_position, mine);
    seed_by_seed(mine, theirs, N_SEEDS, count);
    claim_every(claims, seeds_perfect_after(no_position, -1), N_SEEDS,
                CHAPTER_ABLATIONS,
                "every seed of the model without position vectors reaches "
                "100/100", "first 100/100 without: %s; with: %s",
                first_perfect_list(no_position, off, sizeof off), book);
    sooner_and_later(claims, count,
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
    int best_score = 0, perfect = 0, below_floor = 0, copy = 0;
    for (int s = 0; s < N_SEEDS; s++) {
        int best = best_score_of(&no_mask->run[s]);
        best_score = best > best_score ? best : best_score;
        perfect += no_mask->run[s].result.first_perfect >= 0;
        below_floor += no_mask->loss[s] < floor / 10
                       && 2 * best < N_PROBLEMS;
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
          best_score, perfect);
}

static void check_residual_and_layernorm(Claims *claims,
                                         const Trials *trials, Gpt *g)
{
    const Trials *no_residual = &trials[variant_without(NO_RESIDUAL)],
                 *no_layernorm = &trials[variant_without(NO_LAYERNORM)];
    int mine[N_SEEDS], theirs[N_SEEDS], count[3], book_lo, book_hi;
    double wide_book, wide_off;
    char book[160], off[160];   /* first 100/100, seed by seed */
    first_perfect_range(&trials[0], &book_lo, &book_hi);
    first_perfect_list(&trials[0], book, sizeof book);
    first_steps(&trials[0], theirs);
    first_steps(no_residual, mine);
    seed_by_seed(mine, theirs, N_SEEDS, count);
    claim_every(claims, seeds_perfect_after(no_residual, -1), N_SEEDS,
                CHAPTER_ABLATIONS,
                "every seed of the model without the residual reaches "
                "100/100",
                "first 100/100 without: %s; with: %s",
                first_perfect_list(no_residual, off, sizeof off), book);
    sooner_and_later(claims, count,
                     "without the residual the model reaches 100/100 "
                     "sooner than the book's model from the same seed on "
                     "some seeds", "without the residual the model "
                     "reaches 100/100 later than the book's model from "
                     "the same seed on some seeds");
    double rare = fmax(saturation(g, &wide_book),
                       saturation(no_layernorm->first, &wide_off));
    claim_every(claims, seeds_perfect_after(no_layernorm, book_hi), N_SEEDS,
                CHAPTER_ABLATIONS,
                "every seed of the model without LayerNorm reaches 100/100 "
                "later than every seed of the book's model",
                "first 100/100 without: %s; with: %s",
                first_perfect_list(no_layernorm, off, sizeof off), book);
    claim(claims, wide_off > wide_book && rare <= 20,
          CHAPTER_ABLATIONS,
          "the book's seed without LayerNorm has larger scores, saturated "
          "rows staying rare (under 20 %)",
          "score spread %.1f against %.1f; saturated rows %.0f %%",
          wide_off, wide_book, rare);
}

