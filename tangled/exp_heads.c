/* exp_heads.c: the cut into heads, the quota, heads side by side
   (tangled; edit attention.nw) */
#include "experiments.h"
#include "files.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N_HEAD_CHOICES = 4 };   /* N_SEEDS: the seeds of chapter 7 */
static const int head_choices[N_HEAD_CHOICES] = {1, 2, 4, 8};
static const char *const head_names[N_HEAD_CHOICES] = {"1 head",
    "2 heads", "4 heads", "8 heads"};  /* as tables and figures name them */
typedef struct {            /* one number of heads over the seeds */
    int seed[N_SEEDS];      /* steps to the first 100/100, seed by seed */
    int fewest, most;
    double mean, median;
    int against_four[3];    /* seeds sooner than four heads, as soon,
                               later */
} HeadSteps;
typedef struct {
    Run book;         /* the book's model, as attention train made it */
    Sweep sweep;      /* its relatives */
    Trained heads[N_HEAD_CHOICES][N_SEEDS];
    HeadSteps steps[N_HEAD_CHOICES];        /* of heads[][] */
    double frozen[N_HEAD_CHOICES][N_SEEDS]; /* = row's weights at mean */
    double path[2][N_HEAD_CHOICES][N_SEEDS]; /* every head's output at the =
                                                at its mean: direct, FFN */
    int one_against_eight[3];       /* as against_four, one head's seeds */
} HeadRuns;

static int head_of_column(int n_heads, int column)
{
    real q[2 * WIDTH] = {0}, k[2 * WIDTH] = {0}, v[2 * WIDTH] = {0};
    real out[2 * WIDTH], scores[MAX_HEADS * 4], weights[MAX_HEADS * 4];
    q[WIDTH + column] = 1;          /* the query of row 1 */
    k[column] = 1;                  /* the key of row 0 */
    attention_forward(out, scores, weights, q, k, v, 1, 2, WIDTH, n_heads,
                      1);
    for (int head = 0; head < n_heads; head++)
        if (scores[(head * 2 + 1) * 2] != 0)    /* row 1 reading row 0 */
            return head;
    return -1;
}

static int figure_the_cut(const char *fig)
{
    static float owner[N_HEAD_CHOICES][MAX_HEADS * WIDTH];
    static char titles[2][N_HEAD_CHOICES][64];   /* the wide, the narrow */
    static const char *const heads[MAX_HEADS] = {"head 0", "head 1",
        "head 2", "head 3", "head 4", "head 5", "head 6", "head 7"};
    SvgHeatmap maps[N_HEAD_CHOICES];
    Text svg[2] = {{0}, {0}};
    for (int c = 0; c < N_HEAD_CHOICES; c++) {
        int n = head_choices[c], first_head = 0;
        for (int head = 0; head < n; head++)
            for (int i = 0; i < WIDTH; i++) {
                int owns = head_of_column(n, i) == head;
                owner[c][head * WIDTH + i] = owns ? 0.5f : NAN; /* one colour */
                first_head += owns && head == 0;
            }
        for (int narrow = 0; narrow < 2; narrow++)
            snprintf(titles[narrow][c], sizeof titles[narrow][c],
                     "%d head%s of %d number%s%s%s", n, n > 1 ? "s" : "",
                     first_head, first_head > 1 ? "s" : "",
                     n != N_HEADS ? "" : narrow ? "\n" : " ",
                     n == N_HEADS ? "(the book's model)" : "");
        maps[c] = (SvgHeatmap){titles[0][c],
                               c == N_HEAD_CHOICES - 1 ? "dimension" : NULL,
                               NULL, n, WIDTH, owner[c], heads, NULL, NULL, 0};
    }
    for (int narrow = 0; narrow < 2; narrow++) {
        double width = narrow ? NARROW_WIDTH : 760, height = 20;
        double cell = narrow ? (width - 90) / WIDTH : 20; /* one size for all; */
        for (int c = 0; c < N_HEAD_CHOICES; c++) { /* the names take 70 pixels */
            maps[c].title = titles[narrow][c];      /* in two lines if narrow */
            height += svg_heatmap_height(&maps[c], cell);
        }
        svg_begin(&svg[narrow], width, height);
        SvgColorScale scale = {SVG_SEQUENTIAL, 0, 1, NULL};
        double top = 10;
        for (int c = 0; c < N_HEAD_CHOICES; c++) {
            double h = svg_heatmap_height(&maps[c], cell);
            svg_heatmap_panel(&svg[narrow], (SvgRect){10, top, width - 20, h},
                              &maps[c], scale);
            top += h;
        }
        svg_end(&svg[narrow]);
    }
    return save_figure(fig, "heads_cut.svg", svg);
}

typedef struct {
    double worst_sum;           /* largest |sum of a row's weights - 1| */
    double least_a, least_b;    /* over problems, of the most any head
                                   reads there */
    double largest_gap;         /* over heads, of |mean weight on a -
                                   on b| */
    double mean[MAX_HEADS][4];  /* each head's mean weight on u = 0..3
                                   at the = */
    int sided[MAX_HEADS];       /* problems with a != b on which the
                                   head's weights on a and b differ
                                   by more than 0.5 */
    int sided_head;             /* the head with the most of them */
    double most_one;            /* the most weight one head puts on */
    int most_head, most_p;      /* one operand, and where */
} Quota;

static const real *weights_of(const Gpt *g, int p, int head, int t)
{
    return g->act.weights
           + ((p * g->n_heads + head) * SEQ_LEN + t) * SEQ_LEN;
}

static void quota_at_equals(Gpt *g, Quota *q)
{
    loss_on_all_problems(&g->model);
    *q = (Quota){0, 1, 1, 0, {{0}}, {0}, 0, 0, 0, 0};
    for (int p = 0; p < N_PROBLEMS; p++) {
        double most_a = 0, most_b = 0;
        for (int head = 0; head < g->n_heads; head++) {
            for (int t = 0; t < SEQ_LEN; t++) {
                double sum = 0;
                for (int u = 0; u < SEQ_LEN; u++)
                    sum += (double)weights_of(g, p, head, t)[u];
                q->worst_sum = fmax(q->worst_sum, fabs(sum - 1));
            }
            const real *w = weights_of(g, p, head, EQUALS_AT);
            for (int u = 0; u <= EQUALS_AT; u++)
                q->mean[head][u] += (double)w[u] / N_PROBLEMS;
            most_a = fmax(most_a, (double)w[0]);
            most_b = fmax(most_b, (double)w[2]);
            if (p / N_DIGITS != p % N_DIGITS) {     /* a != b: the two can differ */
                q->sided[head] += fabs((double)w[0] - (double)w[2]) > 0.5;
                if (fmax(w[0], w[2]) > q->most_one) {
                    q->most_one = fmax(w[0], w[2]);
                    q->most_head = head;
                    q->most_p = p;
                }
            }
        }
        q->least_a = fmin(q->least_a, most_a);
        q->least_b = fmin(q->least_b, most_b);
    }
    for (int head = 0; head < g->n_heads; head++) {
        q->largest_gap = fmax(q->largest_gap,
                              fabs(q->mean[head][0] - q->mean[head][2]));
        if (q->sided[head] > q->sided[q->sided_head])
            q->sided_head = head;
    }
}

static int the_quota(const char *dir, Text *numbers, Gpt *g, Quota *q)
{
    Text md = {0};
    quota_at_equals(g, q);
    text_printf(&md, "| head | $u = 0$ (`a`) | $u = 1$ (`*`) "
                "| $u = 2$ (`b`) "
                "| $u = 3$ (`=`) |\n|--:|--:|--:|--:|--:|\n");
    for (int head = 0; head < g->n_heads; head++)
        text_printf(&md, "| %d | %.2f | %.2f | %.2f | %.2f |\n", head,
                    q->mean[head][0], q->mean[head][1], q->mean[head][2],
                    q->mean[head][3]);
    number(numbers, "quota_worst_sum", "%.*f", decimals_for(q->worst_sum),
           q->worst_sum);
    number(numbers, "quota_least_a", "%.2f", q->least_a);
    number(numbers, "quota_least_b", "%.2f", q->least_b);
    number(numbers, "quota_largest_gap", "%.2f", q->largest_gap);
    number(numbers, "quota_sided_head", "%d", q->sided_head);
    number(numbers, "quota_sided", "%d", q->sided[q->sided_head]);
    for (int head = 0; head < g->n_heads; head++)
        number(numbers, named("quota_sided_%d", head).text, "%d",
               q->sided[head]);
    number(numbers, "quota_distinct", "%d", N_PROBLEMS - N_DIGITS);
    number(numbers, "quota_most_one", "%.2f", q->most_one);
    number(numbers, "quota_most_head", "%d", q->most_head);
    number(numbers, "quota_most_a", "%d", q->most_p / N_DIGITS);
    number(numbers, "quota_most_b", "%d", q->most_p % N_DIGITS);
    return save_table(dir, "quota.md", &md);
}

static void check_the_quota(Claims *claims, const Quota *q)
{
    claim(claims, q->worst_sum <= 1e-5, CHAPTER_HEADS,
          "every head's weights add up to 1",
          "largest difference from 1: %.1e", q->worst_sum);
    claim(claims, q->largest_gap <= 0.1, CHAPTER_HEADS,
          "no head favours a or b on average by more than 0.1",
          "largest: %.2f", q->largest_gap);
    int siding = 0, seldom = 0;     /* on most problems; on a fifth or
                                       fewer */
    for (int head = 0; head < N_HEADS; head++) {
        siding += q->sided[head] > (N_PROBLEMS - N_DIGITS) / 2;
        seldom += q->sided[head] <= (N_PROBLEMS - N_DIGITS) / 5;
    }
    claim(claims, siding == 1 && seldom == N_HEADS - 1 && q->most_one >= 0.9
          && N_HEADS == 4, CHAPTER_HEADS,
          "in the book's model one head takes sides on most problems, the "
          "others on a fifth or fewer, and one head puts nearly all its "
          "quota (0.9 or more) on one operand",
          "heads 0 to 3 on %d, %d, %d and %d of 90; the most on one "
          "operand %.2f", q->sided[0], q->sided[1], q->sided[2],
          q->sided[3], q->most_one);
    claim(claims, q->least_a >= 0.2 && q->least_b >= 0.2, CHAPTER_HEADS,
          "every problem is read at a and at b with a weight of at least "
          "0.2", "least at a %.2f, at b %.2f", q->least_a, q->least_b);
}

static void claims_about_frozen_weights(Claims *claims, const HeadRuns *e)
{
    const double *one = e->frozen[0];
    const double *eight = e->frozen[N_HEAD_CHOICES - 1];
    int above = 0, half = 0;
    for (int s = 0; s < N_SEEDS; s++) {
        above += one[s] > e->frozen[2][s];
        half += 2 * one[s] > N_PROBLEMS;
    }
    claim_every(claims, half, N_SEEDS, CHAPTER_HEADS,
          "on every seed, one head with its weights frozen at their mean "
          "answers more than half the problems", "the fewest: %.0f",
          lowest_of(one, N_SEEDS));
    claim_count(claims, above, N_SEEDS, N_SEEDS / 2 + 1, N_SEEDS,
                CHAPTER_HEADS,
          "on most seeds, one head with frozen weights answers more "
          "problems than four heads", "on %d of %d seeds", above, N_SEEDS);
    claim(claims, median_of(one, N_SEEDS) > median_of(eight, N_SEEDS),
          CHAPTER_HEADS, "with frozen weights, one head's median is above "
          "eight heads'", "%.0f against %.0f", median_of(one, N_SEEDS),
          median_of(eight, N_SEEDS));
    int direct_more = 0;
    for (int c = 0; c < N_HEAD_CHOICES; c++)
        for (int s = 0; s < N_SEEDS; s++)
            direct_more += e->path[0][c][s] > e->path[1][c][s];
    claim_every(claims, direct_more, N_HEAD_CHOICES * N_SEEDS,
                CHAPTER_HEADS,
          "for every number of heads, on every seed, the heads' mean on "
          "the direct path keeps more problems right than on the path "
          "through the FFN", "in %d of %d runs", direct_more,
          N_HEAD_CHOICES * N_SEEDS);
}

static void claims_about_heads(Claims *claims, const HeadRuns *e,
                               const Quota *q)
{
    check_the_quota(claims, q);
    int ended = 0;
    for (int c = 0; c < N_HEAD_CHOICES; c++)
        for (int s = 0; s < N_SEEDS; s++)
            ended += e->heads[c][s].run.result.first_perfect >= 0
                     && e->heads[c][s].correct == N_PROBLEMS;
    claim_every(claims, ended, N_HEAD_CHOICES * N_SEEDS, CHAPTER_HEADS,
          "every run of the heads experiment ends at 100/100",
          "%d of %d runs do", ended, N_HEAD_CHOICES * N_SEEDS);
    const HeadSteps *h = e->steps;
    double gap = h[0].mean - h[N_HEAD_CHOICES - 1].mean;
    int fewer = 1;
    for (int c = 1; c < N_HEAD_CHOICES; c++)
        fewer &= h[c].mean < h[c - 1].mean && h[c].median < h[c - 1].median;
    claim(claims, fewer, CHAPTER_HEADS,
          "more heads took fewer steps, by the mean and by the median",
          "mean steps to 100/100: %.0f, %.0f, %.0f, %.0f for 1, 2, 4, 8 heads; "
          "median %g, %g, %g, %g", h[0].mean, h[1].mean, h[2].mean, h[3].mean,
          h[0].median, h[1].median, h[2].median, h[3].median);
    const int *one = h[0].seed, *four = h[2].seed;
    const int *eight = h[N_HEAD_CHOICES - 1].seed;
    claim_count(claims, h[N_HEAD_CHOICES - 1].against_four[0], N_SEEDS,
                N_SEEDS / 2 + 1, N_SEEDS, CHAPTER_HEADS, "eight heads reach "
                "100/100 sooner than four from most seeds", "steps to 100/100, "
                "seed by seed: four %s; eight %s", seed_list(four).text,
                seed_list(eight).text);
    claim_count(claims, e->one_against_eight[2], N_SEEDS, N_SEEDS / 2 + 1,
                N_SEEDS, CHAPTER_HEADS, "one head reaches 100/100 later "
                "than eight from most seeds", "steps to 100/100, seed by "
                "seed: one head %s; eight %s", seed_list(one).text,
                seed_list(eight).text);
    claim(claims, h[0].most - h[0].fewest >= gap, CHAPTER_HEADS,
          "the spread between one head's seeds is at least the gap between "
          "one head and eight", "spread %d steps, gap %.0f",
          h[0].most - h[0].fewest, gap);
    claims_about_frozen_weights(claims, e);
}

static void seeds_where_later(char *out, size_t size, const int *these,
                              const int *those, int n, uint64_t first_seed)
{
    int later = 0, done = 0;
    for (int s = 0; s < n; s++)
        later += these[s] > those[s];
    size_t used = (size_t)snprintf(out, size, "%s", later == 0 ? "no seed"
                                   : later == 1 ? "seed " : "seeds ");
    for (int s = 0; s < n && used < size; s++) {
        if (these[s] <= those[s])
            continue;
        done++;
        int w = snprintf(out + used, size - used, "%s%llu",
                         done == 1 ? "" : done == later ? " and " : ", ",
                         (unsigned long long)first_seed + (unsigned)s);
        used += w > 0 ? (size_t)w : 0;
    }
}

static void steps_of_heads(HeadRuns *e)
{
    for (int c = 0; c < N_HEAD_CHOICES; c++) {
        HeadSteps *h = &e->steps[c];
        double sum = 0;
        for (int s = 0; s < N_SEEDS; s++) {
            h->seed[s] = steps_to_perfect(&e->heads[c][s].run);
            sum += h->seed[s];
        }
        h->fewest = lowest_of_ints(h->seed, N_SEEDS);
        h->most = highest_of_ints(h->seed, N_SEEDS);
        h->mean = sum / N_SEEDS;
        h->median = median_of_ints(h->seed, N_SEEDS);
    }
    for (int c = 0; c < N_HEAD_CHOICES; c++)
        seed_by_seed(e->steps[c].seed, e->steps[2].seed, N_SEEDS,
                     e->steps[c].against_four);
    seed_by_seed(e->steps[0].seed, e->steps[N_HEAD_CHOICES - 1].seed,
                 N_SEEDS, e->one_against_eight);
}

static NumberName heads_number_name(int c, const char *what)
{
    return named("heads_%d_%s", head_choices[c], what);
}

static void numbers_of_frozen_weights(Text *out, const HeadRuns *e, int c)
{
    static const char *const path[2] = {"direct", "via_ffn"};
    numbers_of_spread(out, heads_number_name(c, "frozen").text, "%.0f",
                      e->frozen[c], N_SEEDS);
    int above = 0;
    for (int s = 0; s < N_SEEDS; s++)
        above += e->frozen[c][s] > e->frozen[2][s];
    for (int k = 0; k < 2; k++)
        numbers_of_spread(out, heads_number_name(c, path[k]).text, "%.0f",
                          e->path[k][c], N_SEEDS);
    number(out, heads_number_name(c, "frozen_above_4").text, "%d", above);
}

static int train_the_heads(HeadRuns *e)
{
    for (int c = 0; c < N_HEAD_CHOICES; c++)
        for (int s = 0; s < N_SEEDS; s++) {
            Relative r = {.n_heads = head_choices[c]};
            Gpt *trained = swept_measured(&e->heads[c][s], &e->sweep, r, s);
            if (trained == NULL)
                return -1;
            e->frozen[c][s] = answered_at_mean(trained, PATCH_WEIGHTS);
            e->path[0][c][s] = answered_at_mean(trained, PATCH_DIRECT);
            e->path[1][c][s] = answered_at_mean(trained, PATCH_VIA_FFN);
            done_with(trained, &e->sweep);
        }
    steps_of_heads(e);
    return 0;
}

static int table_of_heads(const char *dir, const HeadRuns *e)
{
    Text md = {0};
    text_printf(&md, "| heads | $d_{\\mathrm{head}}$ "
                "| median first 100/100 | fewest to most "
                "| sooner, as soon, later | final score "
                "| final loss |\n|-----:|-----:|----------:|-----------:"
                "|------------:|--------:|-----------:|\n");
    for (int c = 0; c < N_HEAD_CHOICES; c++) {
        const HeadSteps *h = &e->steps[c];
        double score[N_SEEDS], loss[N_SEEDS];
        for (int s = 0; s < N_SEEDS; s++) {
            score[s] = e->heads[c][s].correct;
            loss[s] = e->heads[c][s].loss;
        }
        text_printf(&md, "| %d | %d | %g | %d to %d | ", head_choices[c],
                    WIDTH / head_choices[c], h->median, h->fewest, h->most);
        if (head_choices[c] == N_HEADS)
            text_printf(&md, "| ");
        else
            text_printf(&md, "%d, %d, %d | ", h->against_four[0],
                        h->against_four[1], h->against_four[2]);
        if (lowest_of(score, N_SEEDS) == highest_of(score, N_SEEDS))
            text_printf(&md, "%.0f | ", score[0]);
        else
            text_printf(&md, "%.0f to %.0f | ", lowest_of(score, N_SEEDS),
                        highest_of(score, N_SEEDS));
        text_printf(&md, "%.3f to %.3f |\n", lowest_of(loss, N_SEEDS),
                    highest_of(loss, N_SEEDS));
    }
    return save_table(dir, "heads.md", &md);
}

static int table_of_head_runs(const char *dir, const HeadRuns *e)
{
    Text md = {0};
    runs_table_head(&md);
    for (int c = 0; c < N_HEAD_CHOICES; c++)
        for (int s = 0; s < N_SEEDS; s++) {
            const Trained *t = &e->heads[c][s];
            runs_table_row(&md, s == 0 ? head_names[c] : "", &t->run,
                           t->correct, t->loss);
        }
    return save_table(dir, "heads_runs.md", &md);
}

static void numbers_of_heads(Text *out, const HeadRuns *e)
{
    number(out, "heads_seeds", "%d", N_SEEDS);
    number(out, "heads_first_seed", "%llu",
           (unsigned long long)e->book.cfg.seed);
    number(out, "heads_last_seed", "%llu",
           (unsigned long long)e->book.cfg.seed + N_SEEDS - 1);
    number(out, "heads_seeds_drawn", "%d", N_SEEDS_DRAWN);
    number(out, "heads_1_after_8", "%d", e->one_against_eight[2]);
    for (int c = 0; c < N_HEAD_CHOICES; c++) {
        const HeadSteps *h = &e->steps[c];
        number(out, heads_number_name(c, "mean").text, "%.0f", h->mean);
        number(out, heads_number_name(c, "fewest").text, "%d", h->fewest);
        number(out, heads_number_name(c, "most").text, "%d", h->most);
        char later[16 + 8 * N_SEEDS];       /* "seeds 1, 3 and 12" */
        seeds_where_later(later, sizeof later, h->seed, e->steps[2].seed, N_SEEDS,
                          e->book.cfg.seed);
        number(out, heads_number_name(c, "median").text, "%g", h->median);
        number(out, heads_number_name(c, "sooner").text, "%d", h->against_four[0]);
        number(out, heads_number_name(c, "as_soon").text, "%d",
               h->against_four[1]);
        number(out, heads_number_name(c, "later").text, "%d", h->against_four[2]);
        number(out, heads_number_name(c, "later_seeds").text, "%s", later);
        numbers_of_frozen_weights(out, e, c);
    }
}

static int figure_heads(const char *fig, const HeadRuns *e)
{
    static float step[N_HEAD_CHOICES][N_SEEDS_DRAWN][MAX_RECORDS];
    static float loss[N_HEAD_CHOICES][N_SEEDS_DRAWN][MAX_RECORDS];
    static float correct[N_HEAD_CHOICES][N_SEEDS_DRAWN][MAX_RECORDS];
    static char labels[N_SEEDS_DRAWN][32];
    SvgSeries series[N_HEAD_CHOICES][N_SEEDS_DRAWN];
    SvgSeries key[N_SEEDS_DRAWN + 1];            /* the legend's lines */
    SvgLinePanel panels[N_HEAD_CHOICES];
    Text svg[2] = {{0}, {0}};
    const char *grey = "#777777";
    for (int s = 0; s < N_SEEDS_DRAWN; s++) {
        snprintf(labels[s], sizeof labels[s], "seed %llu",
                 (unsigned long long)e->book.cfg.seed + (unsigned long long)s);
        key[s] = (SvgSeries){.label = labels[s], .dash = s, .color = grey};
    }
    key[N_SEEDS_DRAWN] = (SvgSeries){.label = "the book's model",
                                     .color = svg_palette(0), .width = 2.5};
    for (int c = 0; c < N_HEAD_CHOICES; c++) {
        for (int s = 0; s < N_SEEDS_DRAWN; s++) {
            const Run *run = &e->heads[c][s].run;
            int book = head_choices[c] == N_HEADS && s == 0;
            curves_of(run, step[c][s], loss[c][s], correct[c][s]);
            series[c][N_SEEDS_DRAWN - 1 - s] =
                (SvgSeries){labels[s], step[c][s], correct[c][s],
                            run->result.n_records, s,
                            book ? svg_palette(0) : grey, book ? 2.5 : 0};
        }
        panels[c] = (SvgLinePanel){.title = head_names[c], .x_label = "step",
            .y_label = "problems right", .series = series[c],
            .n_series = N_SEEDS_DRAWN,
            .y_min = 0, .y_max = 100, .legend = SVG_LEGEND_NONE};
    }
    for (int narrow = 0; narrow < 2; narrow++) {
        double width = narrow ? NARROW_WIDTH : 760;
        int across = narrow ? 1 : 2, rows = N_HEAD_CHOICES / across;
        SvgRect size = svg_legend_size(key, N_SEEDS_DRAWN + 1, width);
        double legend_h = narrow ? size.h + 10 : 36, panel_h = (560 - 56) / 2;
        double height = 20 + legend_h + rows * panel_h;
        svg_begin(&svg[narrow], width, height);
        for (int c = 0; c < N_HEAD_CHOICES; c++)
            svg_line_panel(&svg[narrow],
                           (SvgRect){10 + c % across * (width - 20) / across,
                                     10 + c / across * panel_h,
                                     (width - 20) / across, panel_h},
                           &panels[c]);
        svg_legend(&svg[narrow], (width - size.w) / 2, height - 10 - size.h, key,
                   N_SEEDS_DRAWN + 1, width);
        svg_end(&svg[narrow]);
    }
    return save_figure(fig, "heads_training.svg", svg);
}

static int figure_heads_spread(const char *fig, const HeadRuns *e)
{
    static float first[N_HEAD_CHOICES * N_SEEDS];
    static char rows[N_HEAD_CHOICES][32];
    const char *names[N_HEAD_CHOICES], *colours[N_HEAD_CHOICES];
    Text svg[2] = {{0}, {0}};
    for (int c = 0; c < N_HEAD_CHOICES; c++) {
        snprintf(rows[c], sizeof rows[c], "%s%s", head_names[c],
                 head_choices[c] == N_HEADS ? " (the book's)" : "");
        names[c] = rows[c];
        colours[c] = svg_palette(head_choices[c] != N_HEADS);
        for (int s = 0; s < N_SEEDS; s++)
            first[c * N_SEEDS + s] =
                e->heads[c][s].run.result.first_perfect >= 0
                    ? (float)e->steps[c].seed[s] : NAN;
    }
    SvgDotChart chart = {.x_label = "step of the first 100/100",
                         .n_rows = N_HEAD_CHOICES, .n_dots = N_SEEDS,
                         .rows = names, .values = first, .none = "never",
                         .colours = colours};
    for (int narrow = 0; narrow < 2; narrow++)
        svg_dot_chart(&svg[narrow], &chart, narrow ? NARROW_WIDTH : 760,
                      70 + 60 * N_HEAD_CHOICES);
    return save_figure(fig, "heads_spread.svg", svg);
}

static int experiments_of_heads(const char *dir, const char *fig,
                                Text *numbers, Claims *claims, Gpt *g,
                                HeadRuns *e)
{
    Quota quota;
    int status = figure_the_cut(fig);
    if (status == 0)
        status = the_quota(dir, numbers, g, &quota);
    if (status == 0)
        status = train_the_heads(e);
    if (status == 0) {
        claims_about_heads(claims, e, &quota);
        numbers_of_heads(numbers, e);
        status = table_of_heads(dir, e);
    }
    if (status == 0)
        status = table_of_head_runs(dir, e);
    if (status == 0)
        status = figure_heads(fig, e);
    if (status == 0)
        status = figure_heads_spread(fig, e);
    return status;
}

int heads_experiments(const char *model, const char *sweep,
                      const char *dir, const char *fig, Text *numbers,
                      Claims *claims)
{
    HeadRuns *e = calloc(1, sizeof *e);
    Gpt *g = load_transformer(model);
    int status = g == NULL ? -1 : e == NULL ? fail("out of memory") : 0;
    if (status == 0)
        status = load_training_log(model, &e->book);
    if (status == 0) {
        e->sweep = (Sweep){sweep, &e->book, g};
        status = experiments_of_heads(dir, fig, numbers, claims, g, e);
    }
    delete_transformer(g);
    free(e);
    return status;
}

