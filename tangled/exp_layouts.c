/* exp_layouts.c: the book's transformer on problems in six layouts
   (tangled; edit attention.nw) */
#include "experiments.h"
#include "files.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { READS_A, READS_B, READS_EQUALS, READS_ELSE };
enum { ON_A, ON_B, ON_EQUALS, ON_FILLERS, N_PLACES };
typedef struct {
    Run book;                       /* the book's log: its settings */
    Run run[N_SEEDS];
    Run control[N_SEEDS];           /* the book's layout alone */
    int right[N_SEEDS][N_LAYOUTS];  /* problems answered, by writing */
    int parsed;                     /* strings the parser reads right */
    int parsed_right[N_SEEDS];      /* answered by parser and perceptron */
    unsigned char read[N_SEEDS][MAX_HEADS][N_PROBLEMS][N_LAYOUTS];
    double weight[N_SEEDS][MAX_HEADS][N_LAYOUTS][N_PLACES]; /* summed */
    int on_operand[N_SEEDS][MAX_HEADS];     /* strings peaking on one */
    int mostly_one[N_SEEDS][MAX_HEADS];     /* over half on one operand */
    int some_head[N_SEEDS];         /* strings on which some head does */
    int sum_on_operand[N_SEEDS];    /* strings: the heads' sum peaks */
    int pair[2];                    /* the pair of layouts, the_pair */
    double moved[N_SEEDS];          /* the pair's weight that is on a */
    int exchanged[N_SEEDS][2];      /* answered with the pair's weights */
    int frozen[N_SEEDS][2];         /* with the layout's mean weights */
    int ablated[N_SEEDS][3][MAX_HEADS]; /* strings right, one head's
                               output at the = at its mean, zero, the
                               partner's */
    int by_path[N_SEEDS][2];        /* every head's mean on one path:
                                       direct, through the FFN */
    float equals_row[N_LAYOUTS][MAX_HEADS][MAX_T];  /* 7*8=, seed 0 */
} LayoutRuns;

typedef struct {
    int head, token;            /* the clear reader, and its operand */
    double lo, hi;              /* its weight on the operand */
    int others;                 /* heads peaking on the other one */
    int strong, weak;           /* of these: surest, narrowest lead */
    double strong_lo, strong_hi;
    int weak_layout, weak_rival;        /* where, and the runner-up */
    double weak_on, weak_rival_weight;
} FigureReading;

static int position_of(int which, char letter)
{
    return (int)(strchr(layouts[which], letter) - layouts[which]);
}

static const real *equals_rows(Gpt *g, int p, int which)
{
    int tokens[MAX_T], T = (int)strlen(layouts[which]);
    layout_tokens(p, which, tokens);
    gpt_forward(g, tokens, 1, T);
    return g->act.weights + (T - 1) * T;
}

static void read_the_equals_rows(LayoutRuns *e, int s, Gpt *g, int p,
                                 int which)
{
    int a = position_of(which, 'a'), b = position_of(which, 'b');
    int T = (int)strlen(layouts[which]), mostly = 0;
    const real *rows = equals_rows(g, p, which);
    real sum[MAX_T] = {0};
    for (int head = 0; head < g->n_heads; head++) {
        const real *row = rows + head * T * T;
        double *w = e->weight[s][head][which];
        if (s == 0 && p == 7 * 10 + 8)          /* the figure's row */
            for (int u = 0; u < MAX_T; u++)
                e->equals_row[which][head][u] = u < T ? (float)row[u] : NAN;
        for (int u = 0; u < T; u++) {
            int part = u == a ? ON_A : u == b ? ON_B
                     : u == T - 1 ? ON_EQUALS : ON_FILLERS;
            w[part] += row[u];
            sum[u] += row[u];
        }
        int peak = argmax(row, T), one = 2 * fmax(row[a], row[b]) > 1;
        int read = peak == a ? READS_A : peak == b ? READS_B
                 : peak == T - 1 ? READS_EQUALS : READS_ELSE;
        e->read[s][head][p][which] = (unsigned char)read;
        e->on_operand[s][head] += read <= READS_B;
        e->mostly_one[s][head] += one;
        mostly |= one;
    }
    int peak = argmax(sum, T);
    e->some_head[s] += mostly;
    e->sum_on_operand[s] += peak == a || peak == b;
}

static void the_pair(int pair[2])
{
    for (int i = 0; i < N_LAYOUTS; i++)
        for (int j = i + 1; j < N_LAYOUTS; j++) {
            int a_i = position_of(i, 'a'), a_j = position_of(j, 'a');
            if (strlen(layouts[i]) == strlen(layouts[j])
                && layouts[i][a_j] == ';' && layouts[j][a_i] == ';') {
                pair[0] = i;
                pair[1] = j;
                return;
            }
        }
    pair[0] = pair[1] = -1;
}

static double share_that_moved(Gpt *g, const int pair[2])
{
    if (pair[0] < 0)
        return NAN;
    int at[2] = {position_of(pair[0], 'a'), position_of(pair[1], 'a')};
    int T = (int)strlen(layouts[pair[0]]);
    double on_a = 0, on_filler = 0;
    for (int p = 0; p < N_PROBLEMS; p++)
        for (int k = 0; k < 2; k++) {
            const real *rows = equals_rows(g, p, pair[k]);
            for (int head = 0; head < g->n_heads; head++) {
                on_a += rows[head * T * T + at[k]];
                on_filler += rows[head * T * T + at[1 - k]];
            }
        }
    return on_a / (on_a + on_filler);
}

static int read_in_every_layout(const LayoutRuns *e, int head)
{
    const unsigned char *read = e->read[0][head][7 * 10 + 8];
    for (int which = 1; which < N_LAYOUTS; which++)
        if (read[which] != read[0])
            return READS_ELSE;
    return read[0];
}

static int answered_with_weights(Gpt *g, int which, int from)
{
    Patch patch = {PATCH_WEIGHTS, from < 0 ? PATCH_MEAN : PATCH_OTHER,
                   (1u << g->n_heads) - 1, 0, 0};
    int counted;
    return answered_under(g, patch, which, from < 0 ? which : from, NULL,
                          &counted);
}

static void exchange_the_readings(LayoutRuns *e, int s, Gpt *g)
{
    const int *pair = e->pair;
    for (int k = 0; k < 2 && pair[0] >= 0; k++) {
        e->exchanged[s][k] = answered_with_weights(g, pair[k], pair[1 - k]);
        e->frozen[s][k] = answered_with_weights(g, pair[k], -1);
    }
}

static int answered_in_every_layout(Gpt *g, Patch patch)
{
    int right = 0, counted;
    for (int which = 0; which < N_LAYOUTS; which++)
        right += answered_under(g, patch, which, which, partner_of,
                                &counted);
    return right;
}

static void ablate_in_every_layout(LayoutRuns *e, int s, Gpt *g)
{
    static const PatchSource kind[3] = {PATCH_MEAN, PATCH_ZERO,
                                        PATCH_OTHER};
    unsigned every = (1u << g->n_heads) - 1;
    for (int k = 0; k < 3; k++)
        for (int head = 0; head < g->n_heads; head++) {
            Patch one = {PATCH_OUTPUT, kind[k], 1u << head, 0, 0};
            e->ablated[s][k][head] = answered_in_every_layout(g, one);
        }
    for (int k = 0; k < 2; k++) {
        Patch path = {k == 0 ? PATCH_DIRECT : PATCH_VIA_FFN, PATCH_MEAN,
                      every, 0, 0};
        e->by_path[s][k] = answered_in_every_layout(g, path);
    }
}

static void numbers_of_the_exchange(Text *out, Claims *claims,
                                    const LayoutRuns *e)
{
    int below = 0;
    double exchanged[2 * N_SEEDS], frozen[2 * N_SEEDS];
    for (int s = 0; s < N_SEEDS; s++) {
        for (int k = 0; k < 2; k++) {
            exchanged[2 * s + k] = e->exchanged[s][k];
            frozen[2 * s + k] = e->frozen[s][k];
        }
        below += e->exchanged[s][0] < e->frozen[s][0]
                 && e->exchanged[s][1] < e->frozen[s][1];
    }
    for (int k = 0; k < 2; k++) {
        number(out, named("exchange_layout_%d", k).text, "%s",
               layouts[e->pair[k]]);
        number(out, named("exchange_book_%d", k).text, "%d",
               e->exchanged[0][k]);
        number(out, named("exchange_book_frozen_%d", k).text, "%d",
               e->frozen[0][k]);
    }
    numbers_of_spread(out, "exchange", "%.0f", exchanged, 2 * N_SEEDS);
    numbers_of_spread(out, "exchange_frozen", "%.0f", frozen, 2 * N_SEEDS);
    number(out, "exchange_below", "%d", below);
    claim_every(claims, below, N_SEEDS, CHAPTER_TRAINING,
          "on every seed, a problem given the weights it gets in the "
          "paired layout answers worse than with its own layout's mean "
          "weights, both ways", "on %d of %d seeds", below, N_SEEDS);
}

static int kinds_in_order(const LayoutRuns *e, int s, int head)
{
    return e->ablated[s][2][head] <= e->ablated[s][1][head]
           && e->ablated[s][1][head] <= e->ablated[s][0][head];
}

static void numbers_of_the_ablations(Text *out, Claims *claims,
                                     const LayoutRuns *e)
{
    static const char *const name[3] = {"mean", "zero", "partner"};
    double least[3][N_SEEDS], path[2][N_SEEDS];
    int ordered = 0, direct_more = 0;
    for (int s = 0; s < N_SEEDS; s++) {
        for (int k = 0; k < 3; k++)
            least[k][s] = lowest_of_ints(e->ablated[s][k], N_HEADS);
        for (int head = 0; head < N_HEADS; head++)
            ordered += kinds_in_order(e, s, head);
        path[0][s] = e->by_path[s][0], path[1][s] = e->by_path[s][1];
        direct_more += e->by_path[s][0] > e->by_path[s][1];
    }
    for (int k = 0; k < 3; k++)
        numbers_of_spread(out, named("layouts_ablated_%s", name[k]).text,
                          "%.0f", least[k], N_SEEDS);
    number(out, "layouts_ablated_in_order", "%d", ordered);
    number(out, "layouts_ablated_heads", "%d", N_HEADS * N_SEEDS);
    numbers_of_spread(out, "layouts_path_direct", "%.0f", path[0], N_SEEDS);
    numbers_of_spread(out, "layouts_path_via_ffn", "%.0f", path[1],
                      N_SEEDS);
    int costly = count_below(least[0], N_SEEDS, N_LAYOUTS * N_PROBLEMS);
    claim_every(claims, direct_more, N_SEEDS, CHAPTER_ROUTING,
          "on every seed of the layouts model, the heads' mean on the "
          "direct path keeps more strings right than on the path through "
          "the FFN", "on %d of %d seeds", direct_more, N_SEEDS);
    claim_every(claims, costly, N_SEEDS, CHAPTER_ROUTING,
          "on every seed of the layouts model, some head's mean costs "
          "strings", "on %d of %d seeds", costly, N_SEEDS);
}

static int perceptron_with_parser(const TrainConfig *cfg, int *parsed)
{
    Mlp *mlp = malloc(sizeof *mlp);
    Run *run = malloc(sizeof *run);
    int right = 0;
    if (mlp == NULL || run == NULL || mlp_init(mlp, cfg->seed) != 0) {
        free(mlp);
        free(run);
        return fail("out of memory for the perceptron");
    }
    run->cfg = *cfg;
    run->result = train(&mlp->model, &run->cfg, run->log, MAX_RECORDS);
    *parsed = 0;
    for (int which = 0; which < N_LAYOUTS; which++)
        for (int p = 0; p < N_PROBLEMS; p++) {
            int tokens[MAX_T], a, b;
            char want[8], got[8];
            int T = layout_tokens(p, which, tokens);
            problem_answer(p, want);
            if (operands_of_tokens(tokens, T, &a, &b) != 0)
                continue;
            *parsed += a == p / 10 && b == p % 10;
            mlp->model.answer(&mlp->model, a * 10 + b, got);
            right += strcmp(want, got) == 0;
        }
    mlp_free(mlp);
    free(mlp);
    free(run);
    return right;
}

static int train_the_control(Run *run, const TrainConfig *cfg)
{
    LayoutGpt *l = malloc(sizeof *l);
    if (l == NULL || layout_gpt_create(l, cfg->seed) != 0) {
        free(l);
        return fail("out of memory for the control");
    }
    l->layouts.drawn = 1;
    run->cfg = *cfg;
    run->cfg.stop_at_perfect = 1;
    run->result = train(&l->gpt.model, &run->cfg, run->log, MAX_RECORDS);
    gpt_destroy(&l->gpt);
    free(l);
    return 0;
}

static void measure_layouts(LayoutRuns *e, int s, Gpt *g)
{
    for (int which = 0; which < N_LAYOUTS; which++)
        for (int p = 0; p < N_PROBLEMS; p++) {
            char want[8], got[8];
            problem_answer(p, want);
            layout_answer(g, p, which, got);
            e->right[s][which] += strcmp(want, got) == 0;
            read_the_equals_rows(e, s, g, p, which);
        }
}

static int run_layouts(LayoutRuns *e, const char *sweep)
{
    Sweep sw = {sweep, &e->book, NULL};
    the_pair(e->pair);
    for (int s = 0; s < N_SEEDS; s++) {
        Relative r = {.n_heads = N_HEADS, .layouts = 1};
        Gpt *g = swept(&e->run[s], &sw, r, s);
        if (g == NULL)
            return -1;
        TrainConfig cfg = e->run[s].cfg;
        measure_layouts(e, s, g);
        e->moved[s] = share_that_moved(g, e->pair);
        exchange_the_readings(e, s, g);
        ablate_in_every_layout(e, s, g);
        delete_transformer(g);
        if (train_the_control(&e->control[s], &cfg) != 0)
            return -1;
        e->parsed_right[s] = perceptron_with_parser(&cfg, &e->parsed);
        if (e->parsed_right[s] < 0)
            return -1;
    }
    return 0;
}

static void numbers_of_steps(Text *out, const LayoutRuns *e)
{
    double first[N_SEEDS], control[N_SEEDS];
    int slower = 0;
    for (int s = 0; s < N_SEEDS; s++) {
        first[s] = e->run[s].result.first_perfect;
        control[s] = e->control[s].result.first_perfect;
        slower += first[s] > control[s];
    }
    numbers_of_spread(out, "layouts_first_perfect", "%.0f", first, N_SEEDS);
    numbers_of_spread(out, "layouts_control", "%.0f", control, N_SEEDS);
    number(out, "layouts_slower", "%d", slower);
}

static double mean_weight(const LayoutRuns *e, int s, int head, int part)
{
    double sum = 0;
    for (int h = head < 0 ? 0 : head; h < (head < 0 ? N_HEADS : head + 1);
         h++)
        for (int which = 0; which < N_LAYOUTS; which++)
            sum += e->weight[s][h][which][part];
    return sum / (N_LAYOUTS * N_PROBLEMS);
}

static double percent_on(const LayoutRuns *e, int s, int part)
{
    double on = mean_weight(e, s, -1, part);
    if (part == ON_A)
        on += mean_weight(e, s, -1, ON_B);
    return 100 * on / N_HEADS;
}

static void numbers_of_weights(Text *out, const LayoutRuns *e)
{
    double operands[N_SEEDS], fillers[N_SEEDS], sum_peaks[N_SEEDS];
    double even = 0, even_fillers = 0;
    for (int s = 0; s < N_SEEDS; s++) {
        operands[s] = percent_on(e, s, ON_A);
        fillers[s] = percent_on(e, s, ON_FILLERS);
        sum_peaks[s] = e->sum_on_operand[s];
    }
    for (int which = 0; which < N_LAYOUTS; which++) {
        double T = (double)strlen(layouts[which]);
        even += 100 * 2 / T / N_LAYOUTS;
        even_fillers += 100 * (T - 3) / T / N_LAYOUTS;
    }
    numbers_of_spread(out, "layouts_operands", "%.0f", operands, N_SEEDS);
    numbers_of_spread(out, "layouts_fillers", "%.0f", fillers, N_SEEDS);
    numbers_of_spread(out, "layouts_moved", "%.2f", e->moved, N_SEEDS);
    numbers_of_spread(out, "layouts_sum_peaks", "%.0f", sum_peaks, N_SEEDS);
    number(out, "layouts_operands_even", "%.0f", even);
    number(out, "layouts_fillers_even", "%.0f", even_fillers);
    const int *pair = e->pair;
    number(out, "layouts_pair_first", "%s", layouts[pair[0]]);
    number(out, "layouts_pair_second", "%s", layouts[pair[1]]);
    number(out, "layouts_pair_equals", "%d",
           (int)strlen(layouts[pair[0]]) - 1);
    number(out, "layouts_pair_a_first", "%d", position_of(pair[0], 'a'));
    number(out, "layouts_pair_a_second", "%d", position_of(pair[1], 'a'));
}

static int split_seed(const LayoutRuns *e)
{
    int split = 0;
    for (int s = 1; s < N_SEEDS; s++)
        split = e->some_head[s] < e->some_head[split] ? s : split;
    return split;
}

static void the_split_seed(Text *out, Claims *claims, const LayoutRuns *e)
{
    int split = split_seed(e), lo = N_LAYOUTS * N_PROBLEMS, hi = 0;
    int most = highest_of_ints(e->on_operand[split], N_HEADS);
    int a_little = 1, extremes = 0;
    for (int s = 0; s < N_SEEDS; s++)
        if (s != split) {
            lo = e->some_head[s] < lo ? e->some_head[s] : lo;
            hi = e->some_head[s] > hi ? e->some_head[s] : hi;
        }
    number(out, "layouts_split_seed", "%llu",
           (unsigned long long)e->run[split].cfg.seed);
    number(out, "layouts_split_some_head", "%d", e->some_head[split]);
    number(out, "layouts_some_head_lo", "%d", lo);
    number(out, "layouts_some_head_hi", "%d", hi);
    number(out, "layouts_split_sum_peaks", "%d", e->sum_on_operand[split]);
    number(out, "layouts_split_head_peaks", "%d", most);
    number(out, "layouts_split_operands", "%.0f",
           percent_on(e, split, ON_A));
    const int shown[2] = {0, split};
    const char *const names[2] = {"book", "split"};
    for (int i = 0; i < 2; i++) {
        double head_lo = 1, head_hi = 0;
        for (int head = 0; head < N_HEADS; head++) {
            double a = mean_weight(e, shown[i], head, ON_A);
            double b = mean_weight(e, shown[i], head, ON_B);
            head_lo = fmin(head_lo, a + b);
            head_hi = fmax(head_hi, a + b);
            if (i == 1)
                a_little &= a > 0.1 && a < 0.4 && b > 0.1 && b < 0.4;
        }
        if (i == 0)
            extremes = head_hi > 0.9 && head_lo < 0.2;
        number(out, named("layouts_%s_head_lo", names[i]).text, "%.2f",
               head_lo);
        number(out, named("layouts_%s_head_hi", names[i]).text, "%.2f",
               head_hi);
    }
    claim(claims, extremes, CHAPTER_TRAINING,
          "of seed 1's heads, one gives the operands over 0.9 of its "
          "weight, one under 0.2", extremes ? "both" : "not both");
    claim(claims, a_little, CHAPTER_TRAINING,
          "every head of the split seed gives each operand between 0.1 and "
          "0.4 of its weight", "seed %llu: %s",
          (unsigned long long)e->run[split].cfg.seed,
          a_little ? "every head" : "not every head");
    claim(claims, e->sum_on_operand[split] > most, CHAPTER_TRAINING,
          "on the split seed the heads' sum peaks on an operand in more "
          "strings than any one head",
          "seed %llu: the sum in %d, a head in at most %d",
          (unsigned long long)e->run[split].cfg.seed,
          e->sum_on_operand[split], most);
}

static FigureReading read_the_figure(const LayoutRuns *e)
{
    FigureReading f = {.head = -1, .strong = -1, .weak = -1};
    double least[MAX_HEADS], most[MAX_HEADS], lead[MAX_HEADS];
    int where[MAX_HEADS], rival[MAX_HEADS], token[MAX_HEADS];
    for (int head = 0; head < N_HEADS; head++) {
        token[head] = read_in_every_layout(e, head);
        least[head] = 1;
        most[head] = 0;
        lead[head] = 1;
        if (token[head] > READS_B)
            continue;
        char letter = token[head] == READS_A ? 'a' : 'b';
        for (int which = 0; which < N_LAYOUTS; which++) {
            const float *row = e->equals_row[which][head];
            int at = position_of(which, letter);
            least[head] = fmin(least[head], row[at]);
            most[head] = fmax(most[head], row[at]);
            for (int u = 0; u < (int)strlen(layouts[which]); u++)
                if (u != at && row[at] - row[u] < lead[head]) {
                    lead[head] = row[at] - row[u];
                    where[head] = which;
                    rival[head] = u;
                }
        }
        if (f.head < 0 || least[head] > least[f.head])
            f.head = head;
    }
    if (f.head < 0)
        return f;
    f.token = token[f.head];
    f.lo = least[f.head];
    f.hi = most[f.head];
    for (int head = 0; head < N_HEADS; head++) {
        if (token[head] > READS_B || token[head] == f.token)
            continue;
        f.others++;
        if (f.strong < 0 || least[head] > least[f.strong])
            f.strong = head;
        if (f.weak < 0 || lead[head] < lead[f.weak])
            f.weak = head;
    }
    if (f.weak >= 0) {
        const float *row = e->equals_row[where[f.weak]][f.weak];
        f.strong_lo = least[f.strong];
        f.strong_hi = most[f.strong];
        f.weak_layout = where[f.weak];
        f.weak_rival = rival[f.weak];
        f.weak_on = row[position_of(f.weak_layout,
                                    f.token == READS_A ? 'b' : 'a')];
        f.weak_rival_weight = row[f.weak_rival];
    }
    return f;
}

static void write_7_times_8(char written[MAX_T + 1], int which)
{
    const char *layout = layouts[which];
    int t = 0;
    for (; t < MAX_T && layout[t] != '\0'; t++)
        written[t] = layout[t] == 'a' ? '7'
                   : layout[t] == 'b' ? '8' : layout[t];
    written[t] = '\0';
}

static void the_figure(Text *out, Claims *claims, const LayoutRuns *e)
{
    FigureReading f = read_the_figure(e);
    char written[MAX_T + 1] = "";
    int before = 0;
    for (int which = 0; which < N_LAYOUTS; which++)
        before += position_of(which, 'b')
                  == (int)strlen(layouts[which]) - 2;
    claim(claims, before == N_LAYOUTS, CHAPTER_TRAINING,
          "in every layout b stands just before the =",
          "in %d of %d layouts", before, N_LAYOUTS);
    claim(claims, f.head >= 0, CHAPTER_TRAINING,
          "in the figure, a head peaks on the same operand of 7*8 in every "
          "layout", f.head >= 0 ? "head %d" : "none does", f.head);
    claim(claims, f.others == 2 && f.weak_on - f.weak_rival_weight < 0.01,
          CHAPTER_TRAINING,
          "two other heads peak on the other operand in every layout, one "
          "of them by less than 0.01 in some layout",
          "%d heads; the narrowest lead %.3f against %.3f", f.others,
          f.weak_on, f.weak_rival_weight);
    if (f.head < 0 || f.weak < 0)
        return;     /* the claims say so */
    write_7_times_8(written, f.weak_layout);
    number(out, "layouts_figure_head", "%d", f.head);
    number(out, "layouts_figure_token", "%d", f.token == READS_A ? 7 : 8);
    number(out, "layouts_other_token", "%d", f.token == READS_A ? 8 : 7);
    number(out, "layouts_figure_lo", "%.2f", f.lo);
    number(out, "layouts_figure_hi", "%.2f", f.hi);
    number(out, "layouts_strong_head", "%d", f.strong);
    number(out, "layouts_strong_lo", "%.2f", f.strong_lo);
    number(out, "layouts_strong_hi", "%.2f", f.strong_hi);
    number(out, "layouts_weak_head", "%d", f.weak);
    number(out, "layouts_weak_layout", "%s", written);
    number(out, "layouts_weak_on", "%.3f", f.weak_on);
    number(out, "layouts_weak_rival", "%.3f", f.weak_rival_weight);
    number(out, "layouts_weak_rival_token", "%c", written[f.weak_rival]);
}

static void check_parsed_perceptron(Claims *claims, const LayoutRuns *e)
{
    int with_parser = 0;
    for (int r = 0; r < N_SEEDS; r++)
        with_parser += e->parsed_right[r] == N_LAYOUTS * N_PROBLEMS;
    claim_every(claims, with_parser, N_SEEDS, CHAPTER_TURN,
          "with the parser in front, the perceptron of every seed answers "
          "all 600 strings", "strings answered: %s",
          seed_list(e->parsed_right).text);
}

static void check_layouts_answered(Claims *claims, const LayoutRuns *e)
{
    int answered = 0;
    for (int r = 0; r < N_SEEDS; r++)
        for (int which = 0; which < N_LAYOUTS; which++)
            answered += e->right[r][which];
    claim_every(claims, answered, N_SEEDS * N_LAYOUTS * N_PROBLEMS,
          CHAPTER_TRAINING,
          "every run answers every problem in every layout",
          "%d of %d strings over the seeds", answered,
          N_SEEDS * N_LAYOUTS * N_PROBLEMS);
}

static void check_operand_weights(Claims *claims, const LayoutRuns *e)
{
    int more = 0, moved = 0, summed = 0;
    int operands[N_SEEDS], fillers[N_SEEDS];
    for (int r = 0; r < N_SEEDS; r++) {
        int everywhere = 1;
        for (int which = 0; which < N_LAYOUTS; which++) {
            double on = 0, off = 0;
            for (int head = 0; head < N_HEADS; head++) {
                on += e->weight[r][head][which][ON_A]
                    + e->weight[r][head][which][ON_B];
                off += e->weight[r][head][which][ON_FILLERS];
            }
            everywhere &= on > off;
        }
        more += everywhere;
        moved += e->moved[r] > 0.5;
        summed += 5 * e->sum_on_operand[r] > 4 * N_LAYOUTS * N_PROBLEMS;
        operands[r] = (int)lround(percent_on(e, r, ON_A));
        fillers[r] = (int)lround(percent_on(e, r, ON_FILLERS));
    }
    claim_every(claims, more, N_SEEDS, CHAPTER_TRAINING,
          "on every seed and in every layout, the four heads of the = put "
          "more weight on the two operands than on all the fillers",
          "on the operands, %%: %s; on the fillers, %%: %s",
          seed_list(operands).text, seed_list(fillers).text);
    claim_every(claims, moved, N_SEEDS, CHAPTER_TRAINING,
          "on every seed, more than half of the weight on the pair's two "
          "positions lies on a", "on %d seeds; the least share %.2f", moved,
          lowest_of(e->moved, N_SEEDS));
    claim_every(claims, summed, N_SEEDS, CHAPTER_TRAINING,
          "on every seed, the heads' summed = row peaks on an operand in "
          "more than four of five strings", "strings: %s",
          seed_list(e->sum_on_operand).text);
}

static void check_the_steps_taken(Claims *claims, const LayoutRuns *e)
{
    int longer = 0, first_perfect[N_SEEDS], control[N_SEEDS];
    for (int r = 0; r < N_SEEDS; r++) {
        first_perfect[r] = e->run[r].result.first_perfect;
        control[r] = e->control[r].result.first_perfect;
        longer += first_perfect[r] > control[r] && control[r] > 0;
    }
    claim_every(claims, longer, N_SEEDS, CHAPTER_TRAINING,
          "on every seed, six layouts need more steps than the book's "
          "layout alone", "first 100/100 on six layouts: %s; on the book's "
          "layout alone: %s", seed_list(first_perfect).text,
          seed_list(control).text);
}

static int numbers_of_layouts(Text *out, Claims *claims,
                              const LayoutRuns *e)
{
    int longest = layouts_longest(), question = 0, least[N_SEEDS];
    for (int which = 0; which < N_LAYOUTS; which++)
        question = fmax(question, (int)strlen(layouts[which]));
    Gpt *model = new_layout_transformer(0);
    if (model == NULL)
        return -1;
    size_t book = 0, params = model->model.p.n_params;
    for (int t = 0; t < N_GPT_TABLES; t++)
        book += (size_t)gpt_tables[t].rows * (size_t)gpt_tables[t].cols;
    number(out, "layouts_params", "%zu", params);
    number(out, "layouts_extra_params", "%zu", params - book);
    delete_transformer(model);
    number(out, "n_layouts", "%d", N_LAYOUTS);
    number(out, "layouts_n_seeds", "%d", N_SEEDS);
    number(out, "layouts_longest", "%d", longest);
    number(out, "layouts_longest_question", "%d", question);
    number(out, "layouts_extra_positions", "%d", longest - SEQ_LEN);
    number(out, "layouts_pairs", "%d", N_LAYOUTS * N_PROBLEMS);
    number(out, "layouts_parsed", "%d", e->parsed);
    double parsed_right[N_SEEDS];
    for (int r = 0; r < N_SEEDS; r++)
        parsed_right[r] = e->parsed_right[r];
    numbers_of_spread(out, "layouts_mlp_right", "%.0f", parsed_right,
                      N_SEEDS);
    int zero[] = {0, 7, TOK_TIMES, 8, TOK_EQUALS}, a = -1, b = -1;
    operands_of_tokens(zero, 5, &a, &b);        /* 07*8= */
    number(out, "layouts_zero_a", "%d", a);
    number(out, "layouts_zero_b", "%d", b);
    number(out, "layouts_seed", "%llu",
           (unsigned long long)e->run[0].cfg.seed);
    number(out, "layouts_last_seed", "%llu",
           (unsigned long long)e->run[N_SEEDS - 1].cfg.seed);
    number(out, "layouts_steps", "%d", e->run[0].cfg.steps);
    for (int s = 0; s < N_SEEDS; s++)
        least[s] = lowest_of_ints(e->right[s], N_LAYOUTS);
    number(out, "layouts_worst_right", "%d",
           lowest_of_ints(least, N_SEEDS));
    numbers_of_steps(out, e);
    numbers_of_weights(out, e);
    the_split_seed(out, claims, e);
    the_figure(out, claims, e);
    check_the_steps_taken(claims, e);
    numbers_of_the_exchange(out, claims, e);
    numbers_of_the_ablations(out, claims, e);
    return 0;
}

static void claims_about_layouts(Claims *claims, const LayoutRuns *e)
{
    claim(claims, e->parsed == N_LAYOUTS * N_PROBLEMS, CHAPTER_TURN,
          "the hand-written parser reads every string of the six layouts",
          "%d of %d", e->parsed, N_LAYOUTS * N_PROBLEMS);
    int zero[] = {0, 7, TOK_TIMES, 8, TOK_EQUALS}, a = -1, b = -1;
    int misread = operands_of_tokens(zero, 5, &a, &b) == 0
                  && !(a == 7 && b == 8);
    claim(claims, misread, CHAPTER_TURN, "the parser misreads 07*8=",
          misread ? "it reads a = %d, b = %d" : "it reads it right", a, b);
    claim(claims, position_of(0, 'b') == 2 && position_of(1, 'a') == 2,
          CHAPTER_TURN,
          "position 2 holds b in the first layout and a in the second",
          "position 2 holds %s, then %s",
          position_of(0, 'b') == 2 ? "b" : "not b",
          position_of(1, 'a') == 2 ? "a" : "not a");
    int always = -1;
    for (int t = 0; t < MAX_T; t++) {
        int every = 1;
        for (int which = 0; which < N_LAYOUTS; which++)
            every &= position_of(which, 'a') == t
                     || position_of(which, 'b') == t;
        if (every && always < 0)
            always = t;
    }
    claim(claims, always < 0, CHAPTER_TURN,
          "no position holds an operand in every layout",
          always < 0 ? "none does" : "position %d does", always);
    check_parsed_perceptron(claims, e);
    check_layouts_answered(claims, e);
    check_operand_weights(claims, e);
}

static int table_of_runs(const char *dir, const LayoutRuns *e)
{
    Text md = {0};
    text_printf(&md, "| seed | least right | first perfect "
                     "| control's first "
                     "| on $a$, $b$, %% | on fillers, %% "
                     "| moves with $a$ "
                     "| a head over half "
                     "| heads peak on $a$, $b$ |\n"
                     "|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for (int r = 0; r < N_SEEDS; r++)
        text_printf(&md, "| %llu | %d | %d | %d | %.0f | %.0f | %.2f "
                    "| %d | %d |\n",
                    (unsigned long long)e->run[r].cfg.seed,
                    lowest_of_ints(e->right[r], N_LAYOUTS),
                    e->run[r].result.first_perfect,
                    e->control[r].result.first_perfect,
                    percent_on(e, r, ON_A), percent_on(e, r, ON_FILLERS),
                    e->moved[r], e->some_head[r], e->sum_on_operand[r]);
    return save_table(dir, "layouts_runs.md", &md);
}

static int table_of_heads(const char *dir, const LayoutRuns *e)
{
    Text md = {0};
    const int shown[2] = {0, split_seed(e)};
    text_printf(&md, "| seed | head | on $a$ | on $b$ | on `=` "
                     "| on fillers | peaks on an operand "
                     "| over half on one |\n"
                     "|--:|:--|--:|--:|--:|--:|--:|--:|\n");
    for (int i = 0; i < 2; i++)
        for (int head = 0; head <= N_HEADS; head++) {
            int s = shown[i], all = head == N_HEADS;    /* the sum last */
            char name[16] = "all four";
            if (!all)
                snprintf(name, sizeof name, "%d", head);
            text_printf(&md, "| %llu | %s ",
                        (unsigned long long)e->run[s].cfg.seed, name);
            for (int part = ON_A; part < N_PLACES; part++)
                text_printf(&md, "| %.2f ",
                            mean_weight(e, s, all ? -1 : head, part));
            text_printf(&md, "| %d | %d |\n",
                        all ? e->sum_on_operand[s] : e->on_operand[s][head],
                        all ? e->some_head[s] : e->mostly_one[s][head]);
        }
    return save_table(dir, "layouts_heads.md", &md);
}

static int table_of_layouts(const char *dir)
{
    Text md = {0};
    text_printf(&md, "| layout | `7*8` in it | $a$ at | $b$ at "
                     "| `=` at |\n|:--|:--|--:|--:|--:|\n");
    for (int which = 0; which < N_LAYOUTS; which++) {
        char written[MAX_T + 1];
        write_7_times_8(written, which);
        text_printf(&md, "| `%s` | `%s` | %d | %d | %d |\n",
                    layouts[which], written, position_of(which, 'a'),
                    position_of(which, 'b'),
                    (int)strlen(layouts[which]) - 1);
    }
    return save_table(dir, "layouts.md", &md);
}

static int figure_layouts(const char *fig, const LayoutRuns *e)
{
    static float values[MAX_HEADS][N_LAYOUTS * MAX_T];
    static char rows[N_LAYOUTS][MAX_T + 1], cols[MAX_T][4];
    static char titles[MAX_HEADS][48];
    static const char *row_names[N_LAYOUTS], *col_names[MAX_T];
    SvgHeatmap maps[MAX_HEADS];
    int width = 0;
    for (int which = 0; which < N_LAYOUTS; which++) {
        int n = (int)strlen(layouts[which]);
        write_7_times_8(rows[which], which);
        row_names[which] = rows[which];
        width = n > width ? n : width;
    }
    for (int u = 0; u < width; u++) {
        snprintf(cols[u], sizeof cols[u], "%d", u);
        col_names[u] = cols[u];
    }
    for (int head = 0; head < N_HEADS; head++) {
        for (int which = 0; which < N_LAYOUTS; which++)
            for (int u = 0; u < width; u++)
                values[head][which * width + u] =
                    e->equals_row[which][head][u];
        static const char *const peak_on[] = {": peak on the 7",
            ": peak on the 8", ": peak on the =", ""};
        snprintf(titles[head], sizeof titles[head], "head %d%s", head,
                 peak_on[read_in_every_layout(e, head)]);
        maps[head] = (SvgHeatmap){titles[head], "position $u$", NULL,
                                  N_LAYOUTS, width, values[head],
                                  row_names, col_names, NULL, 0};
    }
    Text svg[2] = {{0}, {0}};
    SvgColorScale scale = {SVG_SEQUENTIAL, 0, 1, "weight"};
    for (int narrow = 0; narrow < 2; narrow++)
        svg_heatmaps(&svg[narrow], maps, N_HEADS, 2, scale,
                     narrow ? NARROW_WIDTH : 760, 520);
    return save_figure(fig, "layouts_equals_row.svg", svg);
}

int layouts_experiments(const char *model, const char *sweep,
                        const char *dir, const char *fig, Text *numbers,
                        Claims *claims)
{
    LayoutRuns *e = calloc(1, sizeof *e);
    int status = e == NULL ? fail("out of memory") : 0;
    if (status == 0)
        status = load_training_log(model, &e->book);
    if (status == 0)
        status = run_layouts(e, sweep);
    if (status == 0) {
        claims_about_layouts(claims, e);
        status = numbers_of_layouts(numbers, claims, e);
    }
    if (status == 0)
        status = table_of_layouts(dir);
    if (status == 0)
        status = table_of_runs(dir, e);
    if (status == 0)
        status = table_of_heads(dir, e);
    if (status == 0)
        status = figure_layouts(fig, e);
    free(e);
    return status;
}

