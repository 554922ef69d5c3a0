/* exp_ffn.c: the feed-forward network taken apart
   (tangled; edit attention.nw) */
#include "experiments.h"
#include "files.h"
#include "dissect.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    NeuronFound found[N_CONCEPTS];
    int pca_90, pca_90_input;
    double share[HIDDEN], share_input[WIDTH];
} FfnSeed;
typedef struct {
    Run book;         /* the book's model, as attention train made it */
    Sweep sweep;      /* its relatives */
    Trained with_gelu[N_SEEDS], no_gelu[N_SEEDS];
    FfnSeed seed[N_SEEDS];  /* each model with GELU, taken apart */
} FfnRuns;

static int train_and_take_apart(FfnRuns *e, int s)
{
    static real h[N_PROBLEMS * HIDDEN], in[N_PROBLEMS * WIDTH];
    Relative r = {.n_heads = N_HEADS};
    FfnSeed *out = &e->seed[s];
    Gpt *trained = swept_measured(&e->with_gelu[s], &e->sweep, r, s);
    if (trained == NULL)
        return -1;
    activations_at_equals(trained, h, in);
    done_with(trained, &e->sweep);
    for (int c = 0; c < N_CONCEPTS; c++)
        out->found[c] = search_neuron(h, &concepts[c]);
    out->pca_90 = directions_for_90(h, HIDDEN, out->share);
    out->pca_90_input = directions_for_90(in, WIDTH, out->share_input);
    if (out->pca_90 == -2 || out->pca_90_input == -2)
        return fail("out of memory");
    if (out->pca_90 < 0 || out->pca_90_input < 0)
        return fail("the eigen-solver did not converge");
    return 0;
}

static void no_gelu_collapse(Text *numbers, Claims *claims, Gpt *g)
{
    static real map[WIDTH * WIDTH], shift[WIDTH], one[WIDTH];
    int rows = 0;
    double worst = 0, largest = 0;
    gpt_ffn_as_one_map(g, map, shift);
    g->ablate = NO_GELU;
    loss_on_all_problems(&g->model);
    g->ablate = 0;
    for (int p = 0; p < N_PROBLEMS; p++) {
        int tokens[SEQ_LEN], T = problem_tokens(p, tokens);
        for (int t = 0; t < T; t++, rows++) {
            const real *ffn = g->act.ffn + (p * SEQ_LEN + t) * WIDTH;
            matmul_forward(one, g->act.ln2 + (p * SEQ_LEN + t) * WIDTH, map,
                           shift, 1, WIDTH, WIDTH);
            for (int i = 0; i < WIDTH; i++) {
                double gap = fabs((double)one[i] - (double)ffn[i]);
                if (gap > worst)
                    worst = gap;
                if (fabs((double)ffn[i]) > largest)
                    largest = fabs((double)ffn[i]);
            }
        }
    }
    number(numbers, "collapse_rows", "%d", rows);
    number(numbers, "collapse_max_diff", "%.*f", decimals_for(worst),
           worst);
    number(numbers, "collapse_largest", "%.1f", largest);
    claim(claims, worst < 1e-4, CHAPTER_FFN,
          "the FFN without GELU is one map, to 0.0001",
          "largest difference %.7f", worst);
}

static int train_without_gelu(Text *numbers, Claims *claims, FfnRuns *e)
{
    const Trained *with = e->with_gelu;
    Relative r = {.n_heads = N_HEADS, .off = NO_GELU};
    double loss = 0, loss_with = 0, steps[2][N_SEEDS];
    int slower = 0, ends = 0, reached = 0;
    int counted[2][N_SEEDS], final[N_SEEDS];  /* [0]: without GELU */
    int fell_to[2][N_SEEDS];    /* the lowest after the first 100/100 */
    for (int s = 0; s < N_SEEDS; s++) {
        Gpt *g = swept_measured(&e->no_gelu[s], &e->sweep, r, s);
        if (g == NULL)
            return -1;
        done_with(g, &e->sweep);
        loss += e->no_gelu[s].loss / N_SEEDS;
        loss_with += with[s].loss / N_SEEDS;
        steps[0][s] = counted[0][s] = steps_to_perfect(&e->no_gelu[s].run);
        steps[1][s] = counted[1][s] = steps_to_perfect(&with[s].run);
        final[s] = e->no_gelu[s].correct;
        slower += counted[0][s] > counted[1][s];
        ends += final[s] == N_PROBLEMS;
        reached += e->no_gelu[s].run.result.first_perfect > 0;
        fell_to[0][s] = lowest_after_perfect(&e->no_gelu[s].run);
        fell_to[1][s] = lowest_after_perfect(&with[s].run);
    }
    int lowest_without = lowest_of_ints(fell_to[0], N_SEEDS),
        lowest_with = lowest_of_ints(fell_to[1], N_SEEDS);
    number(numbers, "nogelu_mean_loss", "%.3f", loss);
    number(numbers, "gelu_mean_loss", "%.3f", loss_with);
    numbers_of_spread(numbers, "nogelu_steps", "%g", steps[0], N_SEEDS);
    numbers_of_spread(numbers, "gelu_steps", "%g", steps[1], N_SEEDS);
    number(numbers, "nogelu_ends_perfect", "%d", ends);
    number(numbers, "ffn_n_seeds", "%d", N_SEEDS);
    number(numbers, "nogelu_relapse", "%d", lowest_without);
    number(numbers, "gelu_relapse", "%d", lowest_with);
    claim_every(claims, slower, N_SEEDS, CHAPTER_FFN,
          "the model without GELU needs more steps to its first 100/100 "
          "than with GELU, from every seed",
          "steps to 100/100 without GELU: %s; with: %s",
          seed_list(counted[0]).text, seed_list(counted[1]).text);
    claim_count(claims, ends, N_SEEDS, N_SEEDS / 2 + 1, N_SEEDS,
                CHAPTER_FFN,
          "the model without GELU ends at 100/100 on most seeds",
          "final scores without GELU: %s", seed_list(final).text);
    claim_every(claims, reached, N_SEEDS, CHAPTER_FFN,
          "the model without GELU answers all 100 problems at some check, "
          "on every seed", "on %d of %d seeds", reached, N_SEEDS);
    claim(claims, lowest_without < lowest_with, CHAPTER_FFN,
          "the model without GELU falls back further after its first "
          "perfect score than the model with GELU",
          "lowest after the first 100/100: %d without, %d with",
          lowest_without, lowest_with);
    return 0;
}

static int figure_without_gelu(const char *fig, const FfnRuns *e)
{
    static float step[2][N_SEEDS][MAX_RECORDS],
        loss[2][N_SEEDS][MAX_RECORDS], correct[2][N_SEEDS][MAX_RECORDS];
    SvgSeries losses[2 * N_SEEDS], scores[2 * N_SEEDS];
    SvgSeries key[2] = {
        {"with GELU", NULL, NULL, 0, 0, svg_palette(0), 0},
        {"without GELU", NULL, NULL, 0, 1, svg_palette(1), 0}};
    double per_sequence, floor = loss_floor(&per_sequence);
    Text svg[2] = {{0}, {0}};
    for (int kind = 0; kind < 2; kind++)
        for (int s = 0; s < N_SEEDS; s++) {
            const Run *run = kind ? &e->no_gelu[s].run : &e->with_gelu[s].run;
            int n = run->result.n_records, i = kind * N_SEEDS + s;
            curves_of(run, step[kind][s], loss[kind][s], correct[kind][s]);
            losses[i] = (SvgSeries){NULL, step[kind][s], loss[kind][s], n,
                                    kind, svg_palette(kind), 0};
            scores[i] = losses[i];
            scores[i].y = correct[kind][s];
        }
    SvgLinePanel panels[2] = {
        {.title = "Loss", .x_label = "step", .y_label = "cross-entropy",
         .series = losses, .n_series = 2 * N_SEEDS, .log_y = 1,
         .h_line = {1, floor, "floor"}, .key = key, .n_key = 2},
        {.title = "Score", .x_label = "step", .y_label = "problems right",
         .series = scores, .n_series = 2 * N_SEEDS, .y_min = 0,
         .y_max = 100, .legend = SVG_LEGEND_NONE}};
    for (int narrow = 0; narrow < 2; narrow++)
        svg_line_charts(&svg[narrow], panels, 2,
                        narrow ? NARROW_WIDTH : 760, 340);
    return save_figure(fig, "no_gelu_training.svg", svg);
}

enum { N_DRAWN = 4 };

static int table_of_neurons(const char *dir, Text *numbers,
                            const NeuronFound found[N_CONCEPTS])
{
    Text md = {0};
    text_printf(&md, "| concept | problems with it | neuron | "
                "separation $d$ | right by one threshold |\n"
                "|:--|--:|--:|--:|--:|\n");
    for (int c = 0; c < (int)N_CONCEPTS; c++) {
        text_printf(&md, "| %s | %d | %d | %.2f | %d |\n", concepts[c].name,
                    found[c].count, found[c].neuron, found[c].d,
                    found[c].right);
        number(numbers, named("neuron_%d", c + 1).text, "%d", found[c].neuron);
        number(numbers, named("neuron_%d_d", c + 1).text, "%.2f", found[c].d);
    }
    return save_table(dir, "neurons.md", &md);
}

static int figure_neurons(const char *fig, const real *h,
                          const NeuronFound found[N_CONCEPTS])
{
    static float values[N_DRAWN][N_PROBLEMS];
    static char titles[N_DRAWN][96];
    Text svg[2] = {{0}, {0}};
    for (int c = 0; c < N_DRAWN; c++) {
        for (int p = 0; p < N_PROBLEMS; p++)
            values[c][p] = (float)h[p * HIDDEN + found[c].neuron];
        snprintf(titles[c], sizeof titles[c], "%s\nneuron %d, $d$ = %.2f",
                 concepts[c].name, found[c].neuron, found[c].d);
    }
    for (int narrow = 0; narrow < 2; narrow++) {
        int across = narrow ? 1 : 2;
        double width = narrow ? NARROW_WIDTH : 760, hh = (700 - 20) / 2;
        double w = (width - 20) / across;
        svg_begin(&svg[narrow], width, 20 + N_DRAWN / across * hh);
        for (int c = 0; c < N_DRAWN; c++) {
            NeuronTable table = view_neuron_table(titles[c], values[c]);
            SvgRect box = {10 + (c % across) * w, 10 + (c / across) * hh,
                           w - table.bar - 16, hh};
            svg_heatmap_panel(&svg[narrow], box, &table.map, table.scale);
            svg_color_bar(&svg[narrow], (SvgRect){box.x + box.w + 4, box.y + 40,
                                                  table.bar, hh - 100}, table.scale);
        }
        svg_end(&svg[narrow]);
    }
    return save_figure(fig, "neurons.svg", svg);
}

static int principal_directions(const char *fig, Text *numbers,
                                Claims *claims, const FfnSeed *book)
{
    const double *share = book->share, *share_in = book->share_input;
    int count = book->pca_90, count_in = book->pca_90_input;
    Text svg[2] = {{0}, {0}};
    claim(claims, count <= HIDDEN / 4 && count > count_in,
          CHAPTER_FFN,
          "the activations need more directions for 90 % of their variance "
          "than the inputs, but at most a quarter of 64",
          "%d directions against %d", count, count_in);
    number(numbers, "pca_90", "%d", count);
    number(numbers, "pca_90_input", "%d", count_in);
    number(numbers, "pca_first_share", "%.0f", 100 * share[0]);
    number(numbers, "pca_rank", "%d",
           directions_with_variance(share, HIDDEN));
    number(numbers, "pca_rank_input", "%d",
           directions_with_variance(share_in, WIDTH));
    number(numbers, "pca_least_share", "%.1e", share[HIDDEN - 1]);
    number(numbers, "pca_last_input_share", "%.1e", share_in[WIDTH - 2]);
    number(numbers, "pca_empty_input_share", "%.1e", share_in[WIDTH - 1]);
    number(numbers, "pca_cut_off", "%.0e", ROUNDING_SHARE);
    view_scree(&svg[0], share, count, share_in, VIEW_WIDE);
    view_scree(&svg[1], share, count, share_in, VIEW_NARROW);
    return save_figure(fig, "pca.svg", svg);
}

typedef struct { int with, with_high, without, without_high; } Highs;

static double midpoint_of(const real *h, int neuron, const Concept *c)
{
    double sum[2] = {0, 0};
    int n[2] = {0, 0};
    for (int p = 0; p < N_PROBLEMS; p++) {
        int k = c->holds(p / 10, p % 10) != 0;
        sum[k] += h[p * HIDDEN + neuron];
        n[k]++;
    }
    return (sum[0] / n[0] + sum[1] / n[1]) / 2;
}

static Highs highs_of(const real *h, const NeuronFound *found,
                      const Concept *c, int (*among)(int a, int b))
{
    Highs s = {0, 0, 0, 0};
    double mid = midpoint_of(h, found->neuron, c);
    for (int p = 0; p < N_PROBLEMS; p++) {
        int a = p / 10, b = p % 10;
        double x = h[p * HIDDEN + found->neuron];
        int high = found->d > 0 ? x > mid : x < mid;
        if (among != NULL && !among(a, b))
            continue;
        if (c->holds(a, b)) {
            s.with++;
            s.with_high += high;
        } else {
            s.without++;
            s.without_high += high;
        }
    }
    return s;
}

static int with_0_or_1(int a, int b) { return a <= 1 || b <= 1; }

static void claims_about_figure_neurons(Text *numbers, Claims *claims,
                                        const real *h,
                                        const NeuronFound found[])
{
    static const char *const chapter = CHAPTER_FFN;
    Highs zero = highs_of(h, &found[3], &concepts[3], NULL);
    Highs two = highs_of(h, &found[1], &concepts[1], NULL);
    Highs small = highs_of(h, &found[1], &concepts[1], with_0_or_1);
    Highs fifty = highs_of(h, &found[2], &concepts[2], NULL);
    number(numbers, "neuron_4_rest", "%d", zero.without);
    number(numbers, "neuron_4_rest_low", "%d",
           zero.without - zero.without_high);
    number(numbers, "neuron_2_two", "%d", two.with);
    number(numbers, "neuron_2_two_high", "%d", two.with_high);
    number(numbers, "neuron_2_one", "%d", two.without);
    number(numbers, "neuron_2_one_high", "%d", two.without_high);
    number(numbers, "neuron_2_small", "%d", small.without);
    number(numbers, "neuron_2_small_low", "%d",
           small.without - small.without_high);
    number(numbers, "neuron_3_others_high", "%d", fifty.without_high);
    claim(claims, zero.with_high == zero.with
          && 4 * (zero.without - zero.without_high) >= 3 * zero.without,
          chapter, "in the figure of four neurons, the neuron for 'the "
          "answer is 0' is high on all of row 0 and column 0 and low on "
          "most of the rest (at least three in four)",
          "high on %d of %d; low on %d of the %d others", zero.with_high,
          zero.with, zero.without - zero.without_high, zero.without);
    claim(claims, 2 * two.with_high > two.with
          && 4 * small.without_high <= small.without
          && (two.without_high > 0 || two.with_high < two.with), chapter,
          "in the figure of four neurons, the neuron for two digits is "
          "high on most two-digit answers, low on most problems with a 0 "
          "or a 1 (three in four), and the border blurred (a one-digit "
          "answer high or a two-digit one low)",
          "high on %d of %d two-digit answers and on %d of the %d "
          "problems with a 0 or a 1; one-digit answers high: %d",
          two.with_high, two.with, small.without_high, small.without,
          two.without_high);
    claim(claims, fifty.with_high == fifty.with
          && fifty.without_high > fifty.with, chapter,
          "in the figure of four neurons, the neuron for the fifties is "
          "high on its four problems, and on more than four others",
          "high on %d of %d, and on %d others", fifty.with_high,
          fifty.with, fifty.without_high);
}

typedef struct {    /* over the seeds: on how many each sentence holds */
    int worst, shared, fifty, zero_best, clear, fewer;
    double count[2][N_SEEDS];   /* directions for 90 %: outputs, inputs */
    double least[3][N_SEEDS];   /* the smallest shares */
} SeedTally;

static SeedTally tally_the_seeds(const FfnRuns *e)
{
    SeedTally t = {0};
    for (int s = 0; s < N_SEEDS; s++) {
        const FfnSeed *m = &e->seed[s];
        int is_worst = 1;
        for (int c = 1; c < N_DRAWN; c++)
            is_worst &= fabs(m->found[c].d) > fabs(m->found[0].d);
        t.worst += is_worst;
        t.shared += m->found[0].neuron == m->found[N_CONCEPTS - 1].neuron;
        t.fifty += m->found[2].right > N_PROBLEMS - m->found[2].count;
        int is_best = 1;
        for (int c = 0; c < N_CONCEPTS; c++)
            is_best &= c == 3 || fabs(m->found[3].d) > fabs(m->found[c].d);
        t.zero_best += is_best;
        t.clear += directions_with_variance(m->share, HIDDEN) == HIDDEN
                   && directions_with_variance(m->share_input, WIDTH)
                      == WIDTH - 1;
        t.count[0][s] = m->pca_90;
        t.count[1][s] = m->pca_90_input;
        t.fewer += m->pca_90 > m->pca_90_input && m->pca_90 <= HIDDEN / 4;
        t.least[0][s] = m->share_input[WIDTH - 2];
        t.least[1][s] = m->share_input[WIDTH - 1];
        t.least[2][s] = m->share[HIDDEN - 1];
    }
    return t;
}

static void check_the_models_of_all_seeds(Claims *claims,
                                          const SeedTally *t)
{
    int counts[2][N_SEEDS];
    for (int s = 0; s < N_SEEDS; s++)
        for (int k = 0; k < 2; k++)
            counts[k][s] = (int)t->count[k][s];
    claim_every(claims, t->fewer, N_SEEDS, CHAPTER_FFN,
          "on every seed, the activations need more directions for 90 % of "
          "their variance than the inputs, but at most a quarter of 64",
          "activations: %s; inputs: %s", seed_list(counts[0]).text,
          seed_list(counts[1]).text);
    claim_every(claims, t->clear, N_SEEDS, CHAPTER_FFN,
          "on every seed, the activations vary in all 64 directions and the "
          "inputs in 31, no share within a factor 100 of the cut-off",
          "on %d of %d seeds; the inputs' 31st share at least %.0f times "
          "the cut-off, the 32nd at most 1/%.0f of it", t->clear, N_SEEDS,
          lowest_of(t->least[0], N_SEEDS) / ROUNDING_SHARE,
          ROUNDING_SHARE / highest_of(t->least[1], N_SEEDS));
    claim_count(claims, t->worst, N_SEEDS, N_SEEDS / 2 + 1, N_SEEDS,
                CHAPTER_FFN, "on more than half the seeds 'a "
                "is 7' is the worst separated concept", "on %d of %d seeds",
                t->worst, N_SEEDS);
    claim_count(claims, t->shared, N_SEEDS, N_SEEDS / 2 + 1, N_SEEDS,
                CHAPTER_FFN, "on more than half the seeds one "
                "neuron is best for 'a is 7' and 'b is 7'",
                "on %d of %d seeds", t->shared, N_SEEDS);
    claim_every(claims, t->zero_best, N_SEEDS, CHAPTER_FFN,
                "'the answer is 0' is the best separated concept on every seed",
                "best on %d of %d seeds", t->zero_best, N_SEEDS);
    claim_count(claims, t->fifty, N_SEEDS, 0, N_SEEDS - 1,
                CHAPTER_FFN, "the neuron for 'the tens digit "
                "is 5' fails to beat the rule 'never' on some seeds",
                "beats 'never' on %d of %d seeds", t->fifty, N_SEEDS);
}

static void claims_about_the_ffn(Claims *claims, const FfnRuns *e)
{
    const NeuronFound *found = e->seed[0].found;    /* the book's model */
    int worst = 1;
    for (int c = 1; c < N_DRAWN; c++)
        worst &= fabs(found[c].d) > fabs(found[0].d);
    claim(claims, worst, CHAPTER_FFN,
          "'a is 7' is the concept worst separated by its best neuron",
          "separation %.2f", fabs(found[0].d));
    const NeuronFound *fifty = &found[2];
    claim(claims, fifty->right < N_PROBLEMS - fifty->count,
          CHAPTER_FFN,
          "the neuron for 'the tens digit is 5' sorts fewer problems right "
          "than the rule 'never'", "%d right, against %d",
          fifty->right, N_PROBLEMS - fifty->count);
    claim(claims, found[0].neuron == found[N_CONCEPTS - 1].neuron,
          CHAPTER_FFN,
          "one neuron is best for 'a is 7' and 'b is 7'",
          "neurons %d and %d", found[0].neuron,
          found[N_CONCEPTS - 1].neuron);
}

static void claims_over_the_models(Text *numbers, Claims *claims,
                                   const FfnRuns *e)
{
    double d[N_SEEDS];
    for (int c = 0; c < N_CONCEPTS; c++) {
        for (int s = 0; s < N_SEEDS; s++)
            d[s] = fabs(e->seed[s].found[c].d);
        numbers_of_spread(numbers, named("neuron_%d_sweep_d", c + 1).text,
                          "%.2f", d, N_SEEDS);
    }
    SeedTally t = tally_the_seeds(e);
    numbers_of_spread(numbers, "pca_90_sweep", "%g", t.count[0], N_SEEDS);
    numbers_of_spread(numbers, "pca_90_input_sweep", "%g", t.count[1],
                      N_SEEDS);
    numbers_of_spread(numbers, "pca_31st_input_sweep", "%.1e", t.least[0],
                      N_SEEDS);
    numbers_of_spread(numbers, "pca_32nd_input_sweep", "%.1e", t.least[1],
                      N_SEEDS);
    numbers_of_spread(numbers, "pca_least_sweep", "%.1e", t.least[2],
                      N_SEEDS);
    number(numbers, "neuron_sweep_a7_worst", "%d", t.worst);
    number(numbers, "neuron_sweep_a7_b7_shared", "%d", t.shared);
    number(numbers, "neuron_sweep_fifty_beats_never", "%d", t.fifty);
    number(numbers, "neuron_sweep_zero_best", "%d", t.zero_best);
    check_the_models_of_all_seeds(claims, &t);
}

int ffn_experiments(const char *model, const char *sweep, const char *dir,
                    const char *fig, Text *numbers, Claims *claims)
{
    static real h[N_PROBLEMS * HIDDEN];
    FfnRuns *e = calloc(1, sizeof *e);
    Gpt *g = load_transformer(model);
    int status = g == NULL ? -1 : e == NULL ? fail("out of memory") : 0;
    if (status == 0)
        status = load_training_log(model, &e->book);
    if (status == 0)
        e->sweep = (Sweep){sweep, &e->book, g};
    for (int s = 0; status == 0 && s < N_SEEDS; s++)
        status = train_and_take_apart(e, s);
    if (status == 0) {
        no_gelu_collapse(numbers, claims, g);
        status = train_without_gelu(numbers, claims, e);
    }
    if (status == 0)
        status = figure_without_gelu(fig, e);
    if (status == 0)
        status = table_of_neurons(dir, numbers, e->seed[0].found);
    if (status == 0) {                  /* the book's model's neurons */
        activations_at_equals(g, h, NULL);
        claims_about_the_ffn(claims, e);
        claims_about_figure_neurons(numbers, claims, h, e->seed[0].found);
        status = figure_neurons(fig, h, e->seed[0].found);
    }
    if (status == 0)
        status = principal_directions(fig, numbers, claims, &e->seed[0]);
    if (status == 0)
        claims_over_the_models(numbers, claims, e);
    delete_transformer(g);
    free(e);
    return status;
}

