/* exp_routing.c: the three proofs that routing is computed live, and
   the reading changed by hand (tangled; edit attention.nw) */
#include "experiments.h"
#include "files.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int clean;                  /* problems right with no patch */
    int mean[MAX_HEADS], zero[MAX_HEADS], partner[MAX_HEADS];
    int alone[MAX_HEADS];       /* the other heads at their mean */
    int frozen, commuted, n_commuted;
    double by_value, by_key;    /* percent of the a' patches moved */
    int paths[3];               /* right with every head's output at its
                                   mean: both paths, direct, via the FFN */
    double difference[4];       /* mean logit difference: unpatched, then
                                   as paths[] */
    double qk_moved;            /* percent: see position_share */
} Interventions;
typedef struct {    /* the interventions and the paths over the seeds */
    double least[N_SEEDS], best[N_SEEDS];   /* the worst and best head
                                               alone */
    double frozen[N_SEEDS], commuted[N_SEEDS], value[N_SEEDS];
    double key[N_SEEDS];
    double count[4][N_SEEDS];       /* right: clean, then as paths[] */
    double difference[4][N_SEEDS];  /* as Interventions' */
    double moved[N_SEEDS];          /* as qk_moved */
    int short_alone, short_frozen, value_more, all_matter;  /* seeds */
    int direct_keeps_more;                                  /* seeds */
} PatchTally;

static int commuted_of(int p) { return p % 10 * 10 + p / 10; }

static PatchTally tally_the_patches(const Interventions *iv, int n_heads)
{
    PatchTally t = {0};
    for (int s = 0; s < N_SEEDS; s++) {
        int lo = lowest_of_ints(iv[s].mean, n_heads), matter = 1;
        int hi = highest_of_ints(iv[s].alone, n_heads);
        for (int h = 0; h < n_heads; h++)
            matter &= iv[s].mean[h] < iv[s].clean;
        t.least[s] = lo, t.best[s] = hi, t.frozen[s] = iv[s].frozen;
        t.commuted[s] = iv[s].commuted;
        t.value[s] = iv[s].by_value, t.key[s] = iv[s].by_key;
        for (int k = 0; k < 4; k++) {
            t.count[k][s] = k == 0 ? iv[s].clean : iv[s].paths[k - 1];
            t.difference[k][s] = iv[s].difference[k];
        }
        t.moved[s] = iv[s].qk_moved;
        t.short_alone += hi < iv[s].clean;
        t.short_frozen += iv[s].frozen < iv[s].clean;
        t.value_more += iv[s].by_value > iv[s].by_key;
        t.all_matter += matter;
        t.direct_keeps_more += iv[s].paths[1] > iv[s].paths[2];
    }
    return t;
}

static void check_the_paths(Claims *claims, const PatchTally *t)
{
    claim_every(claims, t->direct_keeps_more, N_SEEDS,
                CHAPTER_ROUTING,
          "on every seed, the heads' mean on the direct path keeps more "
          "problems right than on the path through the FFN",
          "on %d of %d seeds", t->direct_keeps_more, N_SEEDS);
    claim_every(claims,
                N_SEEDS - count_below(t->count[2], N_SEEDS,
                                      4.0 * N_PROBLEMS / 5),
                N_SEEDS, CHAPTER_ROUTING,
          "on every seed, the heads' mean on the direct path leaves at "
          "least four problems in five right", "the fewest: %.0f",
          lowest_of(t->count[2], N_SEEDS));
    claim_every(claims,
                count_below(t->count[3], N_SEEDS, 0.5 * N_PROBLEMS),
                N_SEEDS, CHAPTER_ROUTING,
          "on every seed, the heads' mean on the path through the FFN "
          "leaves fewer than half of the problems right", "the most: %.0f",
          highest_of(t->count[3], N_SEEDS));
    int signed_right = 0;
    for (int s = 0; s < N_SEEDS; s++)
        signed_right += t->difference[2][s] > 0 && t->difference[3][s] < 0;
    claim_every(claims, signed_right, N_SEEDS, CHAPTER_ROUTING,
          "on every seed, the mean logit difference stays above zero with "
          "the direct path changed and falls below it with the path "
          "through the FFN changed", "lowest %.1f; highest %.1f",
          lowest_of(t->difference[2], N_SEEDS),
          highest_of(t->difference[3], N_SEEDS));
    claim_every(claims, count_below(t->moved, N_SEEDS, 50), N_SEEDS,
                CHAPTER_ROUTING,
          "on every seed, moving a digit from position 0 to 2 changes no "
          "head's score by half the range of its scores over the digits",
          "at most %.0f %%", highest_of(t->moved, N_SEEDS));
}

static void numbers_of_paths(Text *numbers, Claims *claims,
                             const Interventions *iv, const PatchTally *t)
{
    static const char *const name[4] = {"clean", "both", "direct",
                                        "via_ffn"};
    for (int k = 1; k < 4; k++) {
        number(numbers, named("paths_book_%s", name[k]).text, "%d",
               iv[0].paths[k - 1]);
        numbers_of_spread(numbers, named("paths_%s", name[k]).text,
                          "%.0f", t->count[k], N_SEEDS);
    }
    for (int k = 0; k < 4; k++) {
        number(numbers, named("paths_book_diff_%s", name[k]).text, "%.1f",
               iv[0].difference[k]);
        numbers_of_spread(numbers, named("paths_diff_%s", name[k]).text,
                          "%.1f", t->difference[k], N_SEEDS);
    }
    number(numbers, "paths_direct_keeps_more", "%d", t->direct_keeps_more);
    number(numbers, "qk_book_moved", "%.0f", iv[0].qk_moved);
    numbers_of_spread(numbers, "qk_moved", "%.0f", t->moved, N_SEEDS);
    check_the_paths(claims, t);
}

static void check_the_interventions(Claims *claims, const PatchTally *t,
                                    const Interventions *iv)
{
    claim_every(claims,
                N_SEEDS - count_below(t->count[0], N_SEEDS, N_PROBLEMS),
                N_SEEDS, CHAPTER_ROUTING,
          "on every seed, the model answers all the problems unpatched",
          "the fewest: %.0f", lowest_of(t->count[0], N_SEEDS));
    claim_every(claims, t->short_alone, N_SEEDS, CHAPTER_ROUTING,
          "on every seed no head alone, the others at their mean, keeps "
          "every problem right", "on %d of %d seeds; the best head alone "
          "keeps %.0f to %.0f", t->short_alone, N_SEEDS,
          lowest_of(t->best, N_SEEDS), highest_of(t->best, N_SEEDS));
    claim_count(claims, t->all_matter, N_SEEDS, 1, N_SEEDS - 1,
                CHAPTER_ROUTING,
          "every head's mean costs problems on some seeds, not on all",
          "on %d of %d seeds", t->all_matter, N_SEEDS);
    claim_every(claims, t->short_frozen, N_SEEDS, CHAPTER_ROUTING,
          "on every seed, the weights frozen at their mean lose problems",
          "on %d of %d seeds", t->short_frozen, N_SEEDS);
    claim_every(claims,
                count_below(t->commuted, N_SEEDS, iv[0].n_commuted / 2.0),
                N_SEEDS, CHAPTER_ROUTING,
          "on every seed, the commuted problem's weights leave fewer than "
          "half of the problems with a != b right", "at most %.0f of %d",
          highest_of(t->commuted, N_SEEDS), iv[0].n_commuted);
    claim_every(claims, t->value_more, N_SEEDS, CHAPTER_ROUTING,
          "on every seed, another first operand's value moves the answer "
          "more often than its key", "on %d of %d seeds", t->value_more,
          N_SEEDS);
    int short_of_all = 0;
    for (int s = 0; s < N_SEEDS; s++)
        short_of_all += t->value[s] < 100 && t->key[s] < 100;
    claim_every(claims, short_of_all, N_SEEDS, CHAPTER_ROUTING,
          "on no seed does another first operand's value, or its key, "
          "move every answer", "at most %.0f %% and %.0f %%",
          highest_of(t->value, N_SEEDS), highest_of(t->key, N_SEEDS));
}

static void claims_about_the_book_model(Claims *claims,
                                        const Interventions *iv,
                                        int n_heads)
{
    int ordered = 0, needed = 0;
    for (int h = 0; h < n_heads; h++) {
        ordered += iv->partner[h] <= iv->zero[h]
                   && iv->zero[h] <= iv->mean[h];
        needed += iv->mean[h] < iv->clean;
    }
    claim(claims, needed == n_heads, CHAPTER_ROUTING,
          "in the book's model each head's mean costs problems",
          "for %d of %d heads", needed, n_heads);
    claim(claims, ordered == n_heads, CHAPTER_ROUTING,
          "for every head of the book's model, the partner's output costs "
          "at least as many problems as zeros, and zeros as the mean",
          "for %d of %d heads", ordered, n_heads);
}

static double moved_by(Gpt *g, PatchSite site)
{
    int moved = 0, cases = 0, tokens[MAX_T], from[MAX_T];
    Patch patch = {site, PATCH_OTHER, (1u << g->n_heads) - 1, 3, 0};
    PatchNumbers with;
    for (int p = 0; p < N_PROBLEMS; p++)
        for (int a = 0; a < N_DIGITS; a++) {
            int q = a * 10 + p % 10;
            char got[8], want[8], theirs[8];
            problem_answer(p, want);
            problem_answer(q, theirs);
            if (strcmp(want, theirs) == 0)
                continue;
            problem_tokens(p, tokens);
            problem_tokens(q, from);
            patch_numbers(g, &patch, tokens, 4, from, &with);
            gpt_continue_patched(g, &patch, &with, tokens, 4, got);
            moved += strcmp(got, theirs) == 0;
            cases++;
        }
    return 100.0 * moved / cases;
}

static double mean_difference(Gpt *g, Patch patch)
{
    int tokens[MAX_T];
    double sum = 0;
    PatchNumbers with;
    problem_tokens(0, tokens);
    patch_numbers(g, &patch, tokens, 4, NULL, &with);
    for (int p = 0; p < N_PROBLEMS; p++) {
        char want[8];
        problem_tokens(p, tokens);
        problem_answer(p, want);
        gpt_forward_patched(g, &patch, &with, tokens, 4);
        sum += logit_difference(g, EQUALS_AT, token_of_char(want[0]));
    }
    return sum / N_PROBLEMS;
}

static double position_share(const HeadCircuits *circuits, int n_heads)
{
    double largest = 0;
    for (int head = 0; head < n_heads; head++) {
        const HeadCircuits *c = &circuits[head];
        double lo = INFINITY, hi = -INFINITY, moved = 0;
        for (int side = 0; side < 2; side++)
            for (int d = 0; d < N_DIGITS; d++) {
                lo = c->qk[side][d] < lo ? c->qk[side][d] : lo;
                hi = c->qk[side][d] > hi ? c->qk[side][d] : hi;
            }
        for (int d = 0; d < N_DIGITS; d++)
            moved = fmax(moved, fabs(c->qk[0][d] - c->qk[1][d]));
        largest = fmax(largest, 100 * moved / (hi - lo));
    }
    return largest;
}

static void interventions_on(Gpt *g, Interventions *iv)
{
    unsigned every = (1u << g->n_heads) - 1;
    int n = 0;
    Patch none = {PATCH_OUTPUT, PATCH_ZERO, 0, 3, 0};
    iv->clean = answered_under(g, none, 0, 0, NULL, &n);
    for (int h = 0; h < g->n_heads; h++) {
        Patch one = {PATCH_OUTPUT, PATCH_MEAN, 1u << h, 3, 0};
        iv->mean[h] = answered_under(g, one, 0, 0, NULL, &n);
        one.source = PATCH_ZERO;
        iv->zero[h] = answered_under(g, one, 0, 0, NULL, &n);
        one.source = PATCH_OTHER;
        iv->partner[h] = answered_under(g, one, 0, 0, partner_of, &n);
        Patch rest = {PATCH_OUTPUT, PATCH_MEAN, every & ~(1u << h), 3, 0};
        iv->alone[h] = answered_under(g, rest, 0, 0, NULL, &n);
    }
    iv->frozen = answered_at_mean(g, PATCH_WEIGHTS);
    Patch weights = {PATCH_WEIGHTS, PATCH_OTHER, every, 3, 0};
    iv->commuted = answered_under(g, weights, 0, 0, commuted_of,
                                  &iv->n_commuted);
    iv->by_value = moved_by(g, PATCH_VALUE);
    iv->by_key = moved_by(g, PATCH_KEY);
    static const PatchSite path[3] = {PATCH_OUTPUT, PATCH_DIRECT,
                                      PATCH_VIA_FFN};
    iv->difference[0] = mean_difference(g, none);
    for (int k = 0; k < 3; k++) {
        Patch mean = {path[k], PATCH_MEAN, every, EQUALS_AT, 0};
        iv->paths[k] = answered_at_mean(g, path[k]);
        iv->difference[k + 1] = mean_difference(g, mean);
    }
    HeadCircuits circuits[MAX_HEADS];
    iv->qk_moved = head_circuits(g, circuits) == 0
                   ? position_share(circuits, g->n_heads) : NAN;
}

static void numbers_of_the_book_model(Text *numbers,
                                      const Interventions *iv, int n_heads)
{
    static const char *const kinds[] = {"mean", "zero", "partner", "alone"};
    const int *kind[] = {iv->mean, iv->zero, iv->partner, iv->alone};
    for (int k = 0; k < 4; k++)
        for (int h = 0; h < n_heads; h++)
            number(numbers, named("patch_book_%s_h%d", kinds[k], h).text,
                   "%d", kind[k][h]);
    number(numbers, "patch_book_clean", "%d", iv->clean);
    number(numbers, "patch_book_alone_best", "%d",
           highest_of_ints(iv->alone, n_heads));
    number(numbers, "patch_book_frozen", "%d", iv->frozen);
    number(numbers, "patch_book_commuted", "%d", iv->commuted);
    number(numbers, "patch_n_commuted", "%d", iv->n_commuted);
    number(numbers, "patch_book_by_value", "%.0f", iv->by_value);
    number(numbers, "patch_book_by_key", "%.0f", iv->by_key);
}

static int figure_of_the_interventions(const char *fig,
                                       const PatchTally *t, int n_commuted)
{
    enum { ROWS = 5 };
    static float values[ROWS * N_SEEDS];
    static char twin[48];
    const char *rows[ROWS] = {"one head at its mean (costliest)",
        "one head alone (best)", "every head at its mean",
        "weights at their mean", twin};
    const double *row[ROWS] = {t->least, t->best, t->count[1], t->frozen,
                               t->commuted};
    const char *colours[ROWS];
    snprintf(twin, sizeof twin, "weights of b*a= (of %d)", n_commuted);
    for (int r = 0; r < ROWS; r++) {
        colours[r] = svg_palette(0);
        for (int s = 0; s < N_SEEDS; s++)
            values[r * N_SEEDS + s] = (float)row[r][s];
    }
    SvgDotChart chart = {.x_label = "problems right", .n_rows = ROWS,
                         .n_dots = N_SEEDS, .rows = rows, .values = values,
                         .none = "none", .colours = colours,
                         .x_min = 0, .x_max = N_PROBLEMS};
    Text svg[2] = {{0}, {0}};
    for (int narrow = 0; narrow < 2; narrow++)
        svg_dot_chart(&svg[narrow], &chart,
                      narrow ? NARROW_WIDTH : 760, 70 + 95 * ROWS);
    return save_figure(fig, "interventions_spread.svg", svg);
}

static int table_of_the_heads(const char *dir, const Interventions *iv,
                              int n_heads)
{
    Text md = {0};
    text_printf(&md, "| head | its mean | zeros | the partner's "
                     "| the head alone |\n|--:|--:|--:|--:|--:|\n");
    for (int h = 0; h < n_heads; h++)
        text_printf(&md, "| %d | %d | %d | %d | %d |\n", h, iv->mean[h],
                    iv->zero[h], iv->partner[h], iv->alone[h]);
    return save_table(dir, "patch_heads.md", &md);
}

static int numbers_of_interventions(const char *dir, const char *fig,
                                    Text *numbers, Claims *claims,
                                    const Interventions *iv, int n_heads)
{
    numbers_of_the_book_model(numbers, &iv[0], n_heads);
    PatchTally t = tally_the_patches(iv, n_heads);
    number(numbers, "patch_clean_lo", "%.0f", lowest_of(t.count[0], N_SEEDS));
    numbers_of_spread(numbers, "patch_least_mean", "%.0f", t.least, N_SEEDS);
    numbers_of_spread(numbers, "patch_best_alone", "%.0f", t.best, N_SEEDS);
    numbers_of_spread(numbers, "patch_frozen", "%.0f", t.frozen, N_SEEDS);
    numbers_of_spread(numbers, "patch_commuted", "%.0f", t.commuted,
                      N_SEEDS);
    numbers_of_spread(numbers, "patch_by_value", "%.0f", t.value, N_SEEDS);
    numbers_of_spread(numbers, "patch_by_key", "%.0f", t.key, N_SEEDS);
    number(numbers, "patch_short_alone", "%d", t.short_alone);
    number(numbers, "patch_short_frozen", "%d", t.short_frozen);
    number(numbers, "patch_value_more", "%d", t.value_more);
    number(numbers, "patch_all_matter", "%d", t.all_matter);
    check_the_interventions(claims, &t, iv);
    claims_about_the_book_model(claims, &iv[0], n_heads);
    numbers_of_paths(numbers, claims, iv, &t);
    int status = table_of_the_heads(dir, &iv[0], n_heads);
    return status == 0
           ? figure_of_the_interventions(fig, &t, iv[0].n_commuted)
           : status;
}

static int figure_of_the_scores(const char *fig, const HeadCircuits *c,
                                int n_heads)
{
    static float values[2 * MAX_HEADS * N_DIGITS];
    static float sides[2][MAX_HEADS * N_DIGITS];
    static char rows[2 * MAX_HEADS][24];
    static const char *row_names[2 * MAX_HEADS];
    for (int head = 0; head < n_heads; head++)
        for (int side = 0; side < 2; side++) {
            int row = 2 * head + side;
            for (int d = 0; d < N_DIGITS; d++) {
                float score = (float)c[head].qk[side][d];
                values[row * N_DIGITS + d] = score;
                sides[side][head * N_DIGITS + d] = score;
            }
            snprintf(rows[row], sizeof rows[row], "head %d, %s", head,
                     side == 0 ? "$a$ at 0" : "$b$ at 2");
            row_names[row] = rows[row];
        }
    SvgHeatmap map = {NULL, "digit", NULL, 2 * n_heads, N_DIGITS, values,
                      row_names, digit_labels, "%.1f", 0};
    SvgHeatmap apart[2] = {
        {"$a$ at position 0", "digit", "head", n_heads, N_DIGITS, sides[0],
         digit_labels, digit_labels, "%.1f", 0},
        {"$b$ at position 2", "digit", "head", n_heads, N_DIGITS, sides[1],
         digit_labels, digit_labels, "%.1f", 0}};
    Text svg[2] = {{0}, {0}};
    SvgColorScale scale = {SVG_SEQUENTIAL, 0, 0, "score"};
    svg_heatmaps(&svg[0], &map, 1, 1, scale, 760, 480);
    svg_heatmaps(&svg[1], apart, 2, 1, scale, NARROW_WIDTH, 480);
    return save_figure(fig, "circuits_qk.svg", svg);
}

static int figure_of_the_effects(const char *fig, const HeadCircuits *c,
                                 int n_heads)
{
    static float values[MAX_HEADS][N_DIGITS * N_DIGITS];
    static char titles[MAX_HEADS][32];
    SvgHeatmap maps[MAX_HEADS];
    for (int head = 0; head < n_heads; head++) {
        for (int d = 0; d < N_DIGITS; d++)
            for (int k = 0; k < N_DIGITS; k++)
                values[head][d * N_DIGITS + k] = (float)c[head].ov[0][d][k];
        snprintf(titles[head], sizeof titles[head], "head %d", head);
        maps[head] = (SvgHeatmap){titles[head], "first digit of the answer",
                                  "digit read", N_DIGITS, N_DIGITS,
                                  values[head], digit_labels, digit_labels,
                                  "%.1f", 0};
    }
    Text svg[2] = {{0}, {0}};
    SvgColorScale scale = {SVG_DIVERGING, 0, 0, "logit"};  /* fitted */
    for (int narrow = 0; narrow < 2; narrow++)
        svg_heatmaps(&svg[narrow], maps, n_heads, 2, scale,
                     narrow ? NARROW_WIDTH : 760, 760);
    return save_figure(fig, "circuits_ov.svg", svg);
}

static int circuits_of_the_book_model(const char *fig, Text *numbers,
                                      Gpt *g)
{
    HeadCircuits c[MAX_HEADS];
    if (head_circuits(g, c) != 0)
        return fail("the circuits need a model that runs 100 problems "
                    "at once");
    int sharp = 0, top = 0, bottom = 0, at[3] = {0, 0, 0};
    double range = 0, moved = 0, largest = 0;
    for (int head = 0; head < g->n_heads; head++) {
        int hi = argmax(c[head].qk[0], N_DIGITS), lo = 0;
        for (int d = 1; d < N_DIGITS; d++)
            lo = c[head].qk[0][d] < c[head].qk[0][lo] ? d : lo;
        if (c[head].qk[0][hi] - c[head].qk[0][lo] > range)
            range = c[head].qk[0][hi] - c[head].qk[0][lo],
            sharp = head, top = hi, bottom = lo;
        for (int d = 0; d < N_DIGITS; d++)
            for (int k = 0; k < N_DIGITS; k++) {
                moved = fmax(moved, fabs(c[head].ov[0][d][k]
                                         - c[head].ov[1][d][k]));
                if (fabs(c[head].ov[0][d][k]) > largest)
                    largest = fabs(c[head].ov[0][d][k]),
                    at[0] = head, at[1] = d, at[2] = k;
            }
    }
    number(numbers, "qk_book_sharp_head", "%d", sharp);
    number(numbers, "qk_book_sharp_top", "%d", top);
    number(numbers, "qk_book_sharp_top_score", "%.1f", c[sharp].qk[0][top]);
    number(numbers, "qk_book_sharp_bottom", "%d", bottom);
    number(numbers, "qk_book_sharp_bottom_score", "%.1f",
           c[sharp].qk[0][bottom]);
    number(numbers, "qk_book_sharp_ratio", "%.0f",  /* in top*bottom= */
           exp(c[sharp].qk[0][top] - c[sharp].qk[1][bottom]));
    number(numbers, "ov_book_largest", "%.1f",
           c[at[0]].ov[0][at[1]][at[2]]);
    number(numbers, "ov_book_largest_head", "%d", at[0]);
    number(numbers, "ov_book_largest_read", "%d", at[1]);
    number(numbers, "ov_book_largest_digit", "%d", at[2]);
    number(numbers, "ov_book_moved", "%.0f", 100 * moved / largest);
    int status = figure_of_the_scores(fig, c, g->n_heads);
    return status == 0 ? figure_of_the_effects(fig, c, g->n_heads) : status;
}

enum { GROW_STEPS = 6 };    /* "7*8=56": the ';' is never asked for */

static int rows_recomputed_alike(const Trace tr[GROW_STEPS], int *rows)
{
    int same = 0;
    *rows = 0;
    for (int T = 2; T <= GROW_STEPS; T++)
        for (int head = 0; head < tr[T - 1].n_heads; head++)
            for (int t = 0; t < T - 1; t++, (*rows)++)
                same += !memcmp(tr[T - 1].weights[head][t],
                                tr[T - 2].weights[head][t],
                                (size_t)(T - 1) * sizeof(real));
    return same;
}

enum { GROW_CELL = 40, GROW_NARROW_CELL = 34, GROW_LABELS = 24,
       GROW_GAP = 12, GROW_BAR = 90 };  /* the colour bar's room */

/* The head whose row of = weighs the operands (positions 0, 2) most. */
static int grow_head(const Trace *tr)
{
    int best = 0;
    for (int head = 1; head < tr->n_heads; head++) {
        const real *w = tr->weights[head][EQUALS_AT];
        const real *b = tr->weights[best][EQUALS_AT];
        best = w[0] + w[2] > b[0] + b[2] ? head : best;
    }
    return best;
}

/* The tables' boxes, in lines that wrap within `width`, each line's
   tables on one baseline; the figure's size, and the last line. */
typedef struct {
    double width, height;
    int last_line;          /* the first table of the last line */
} GrowFlow;

static GrowFlow grow_flow(const SvgHeatmap maps[GROW_STEPS], double width,
                          double cell, SvgRect box[GROW_STEPS])
{
    GrowFlow f = {0, 0, 0};
    double x = 10, y = 10, line = 0;
    for (int i = 0; i <= GROW_STEPS; i++) {
        double w = i < GROW_STEPS ? GROW_LABELS + maps[i].cols * cell : 0;
        if (i == GROW_STEPS || (x > 10 && x + w > width - GROW_BAR)) {
            for (int k = f.last_line; k < i; k++)  /* the line is done */
                box[k].y = y + line - box[k].h;
            y += line + GROW_GAP, x = 10, line = 0;
            f.last_line = i < GROW_STEPS ? i : f.last_line;
        }
        if (i < GROW_STEPS) {
            box[i] = (SvgRect){x, 0, w, svg_heatmap_height(&maps[i], cell)};
            f.width = fmax(f.width, x + w + GROW_BAR);
            x += w + GROW_GAP, line = fmax(line, box[i].h);
        }
    }
    f.height = y - GROW_GAP + 10;
    return f;
}

static void draw_growing(Text *svg, const SvgHeatmap maps[GROW_STEPS],
                         double width, double cell, SvgColorScale scale)
{
    SvgRect box[GROW_STEPS];
    GrowFlow f = grow_flow(maps, width, cell, box);
    double top = INFINITY, bottom = 0;
    svg_begin(svg, f.width, f.height);
    for (int i = 0; i < GROW_STEPS; i++) {
        SvgHeatmap untitled = maps[i];
        untitled.title = NULL;
        double labels = svg_heatmap_height(&untitled, 0);
        if (i >= f.last_line) {
            top = fmin(top, box[i].y + svg_heatmap_height(&maps[i], 0)
                                - labels);
            bottom = fmax(bottom, box[i].y + box[i].h - labels);
        }
        svg_heatmap_panel(svg, box[i], &maps[i], scale);
    }
    svg_color_bar(svg, (SvgRect){f.width - GROW_BAR + 10, top,
                                 svg_color_bar_width(scale), bottom - top},
                  scale);
    svg_end(svg);
}

static int figure_growing_tables(const char *fig, Text *numbers,
                                 const Trace tr[GROW_STEPS])
{
    static float values[GROW_STEPS][SEQ_LEN * SEQ_LEN];
    static char titles[GROW_STEPS][8], labels[SEQ_LEN][2];
    static const char *names[SEQ_LEN];
    SvgHeatmap maps[GROW_STEPS];
    Text svg[2] = {{0}, {0}};
    int head = grow_head(&tr[GROW_STEPS - 1]);
    number(numbers, "grow_head", "%d", head);
    for (int t = 0; t < GROW_STEPS; t++) {
        labels[t][0] = char_of_token(tr[GROW_STEPS - 1].tokens[t]);
        names[t] = labels[t];
    }
    for (int T = 1; T <= GROW_STEPS; T++) {
        snprintf(titles[T - 1], sizeof titles[T - 1], "%.*s", T, "7*8=56");
        for (int t = 0; t < T; t++)
            for (int u = 0; u < T; u++)
                values[T - 1][t * T + u] =
                    u > t ? NAN : (float)tr[T - 1].weights[head][t][u];
        maps[T - 1] = (SvgHeatmap){titles[T - 1], NULL, NULL, T, T,
                                   values[T - 1], names, names, "%.2f", 1};
    }
    SvgColorScale scale = {SVG_SEQUENTIAL, 0, 1, "weight"};
    draw_growing(&svg[0], maps, 760, GROW_CELL, scale);
    draw_growing(&svg[1], maps, NARROW_WIDTH, GROW_NARROW_CELL, scale);
    return save_figure(fig, "growing_tables.svg", svg);
}

static int proof_one_character_at_a_time(const char *fig, Text *numbers,
                                         Claims *claims, Gpt *g)
{
    int tokens[SEQ_LEN], rows = 0;
    Trace *tr = malloc(GROW_STEPS * sizeof *tr);
    if (tr == NULL)
        return fail("out of memory");
    problem_tokens(7 * 10 + 8, tokens);
    for (int T = 1; T <= GROW_STEPS; T++)
        gpt_trace(g, tokens, T, &tr[T - 1]);
    int same = rows_recomputed_alike(tr, &rows);
    number(numbers, "grow_rows", "%d", rows);
    number(numbers, "grow_rows_same", "%d", same);
    claim(claims, same == rows, CHAPTER_ROUTING,
          "the earlier rows come out the same bits at every step",
          "%d of %d rows do", same, rows);
    int status = figure_growing_tables(fig, numbers, tr);
    free(tr);
    return status;
}

static int figure_swap(const char *fig, Gpt *g, int a, int b)
{
    Text svg[2] = {{0}, {0}};
    view_swap(&svg[0], g, a, b, VIEW_WIDE);
    view_swap(&svg[1], g, a, b, VIEW_NARROW);
    return save_figure(fig, "swap_weights.svg", svg);
}

typedef struct {
    int a, b, head;             /* the pair moved most; its head or -1 */
    real change, least;         /* the most and the least moved */
    int least_a, least_b;       /* the pair moved least */
    int visited, small, large;  /* pairs; below a tenth, above a quarter */
    double mean;
} Swap;

static Swap swap_of(Gpt *g)
{
    Swap w = {0, 0, -1, 0, 2, 0, 1, 0, 0, 0, 0};
    w.visited = most_changed_pair(g, &w.a, &w.b, &w.change);
    w.head = head_following_a_digit(g, w.a, w.b);
    for (int first = 0; first < N_DIGITS; first++)
        for (int second = first + 1; second < N_DIGITS; second++) {
            real c = swap_change(g, first, second);
            w.mean += (double)c;
            w.small += c < (real)0.1;
            w.large += c > (real)0.25;
            if (c < w.least)
                w.least = c, w.least_a = first, w.least_b = second;
        }
    w.mean /= w.visited;
    return w;
}

static int proof_swap(const char *fig, Text *numbers, Claims *claims,
                      Gpt *g)
{
    Swap w = swap_of(g);
    number(numbers, "swap_pairs", "%d", w.visited);
    number(numbers, "swap_a", "%d", w.a);
    number(numbers, "swap_b", "%d", w.b);
    number(numbers, "swap_change", "%.2f", (double)w.change);
    number(numbers, "swap_least_a", "%d", w.least_a);
    number(numbers, "swap_least_b", "%d", w.least_b);
    number(numbers, "swap_least_change", "%.2f", (double)w.least);
    number(numbers, "swap_mean_change", "%.2f", w.mean);
    number(numbers, "swap_small", "%d", w.small);
    number(numbers, "swap_large", "%d", w.large);
    claim(claims, w.head >= 0, CHAPTER_ROUTING,
          "for the pair the program picks, a head's largest weight moves "
          "between positions 0 and 2 when the operands are swapped",
          "pair %d*%d: %s", w.a, w.b,
          w.head >= 0 ? "a head does" : "none does");
    claim(claims, w.least <= 0.05 && w.small >= 1
                  && 2 * w.large > w.visited, CHAPTER_ROUTING,
          "the swap moves most pairs' reading by more than a quarter, "
          "some by less than a tenth, and one by 0.05 or less",
          "%d of %d above a quarter, %d below a tenth, least %d*%d at %.3f",
          w.large, w.visited, w.small, w.least_a, w.least_b,
          (double)w.least);
    return figure_swap(fig, g, w.a, w.b);
}

static int table_of_own_output(const char *dir, const Trace *tr, int t)
{
    Text md = {0};
    trace_table_head(&md, tr, t, "| head |", "|--:|");
    for (int head = 0; head < tr->n_heads; head++) {
        text_printf(&md, "\n| %d |", head);
        for (int u = 0; u <= t; u++)
            text_printf(&md, u == t ? " **%.2f** |" : " %.2f |",
                        (double)tr->weights[head][t][u]);
    }
    text_printf(&md, "\n");
    return save_table(dir, "own_output.md", &md);
}

static int proof_own_output(const char *dir, Text *numbers,
                            Claims *claims, Gpt *g)
{
    int t = 4;
    Trace *tr = malloc(sizeof *tr);
    if (tr == NULL)
        return fail("out of memory");
    int top = trace_own_output(g, 7 * 10 + 8, tr);
    const int *tokens = tr->tokens;
    number(numbers, "own_digit", "%c", char_of_token(tokens[4]));
    number(numbers, "own_next", "%c",
           char_of_token(argmax(tr->logits[t], VOCAB)));
    number(numbers, "own_top_head", "%d", top);
    number(numbers, "own_top_weight", "%.2f", (double)tr->weights[top][t][t]);
    for (int head = 0; head < tr->n_heads; head++)
        number(numbers, named("own_weight_%d", head).text, "%.2f",
               (double)tr->weights[head][t][t]);
    int status = table_of_own_output(dir, tr, t);
    claim(claims, reads_own_output_most(tr, top),
          CHAPTER_ROUTING,
          "the head that weighs position 4 most in the row of the second "
          "digit weighs it more than any other position",
          "head %d, weight %.2f on position 4", top,
          (double)tr->weights[top][t][t]);
    free(tr);
    return status;
}

static int proofs_over_the_seeds(const char *model, const char *sweep,
                                 const char *dir, const char *fig,
                                 Text *numbers, Claims *claims, Gpt *book)
{
    Run *run = malloc(2 * sizeof *run);     /* the book's, a relative's */
    Trace *tr = malloc(sizeof *tr);
    Interventions *iv = malloc(N_SEEDS * sizeof *iv);
    int follows = 0, spread = 0, own = 0, status = 0;
    double mean[N_SEEDS];
    if (run == NULL || tr == NULL || iv == NULL)
        status = fail("out of memory");
    if (status == 0)
        status = load_training_log(model, &run[0]);
    Sweep sw = {sweep, &run[0], book};
    for (int s = 0; status == 0 && s < N_SEEDS; s++) {
        Gpt *g = swept(&run[1], &sw, (Relative){.n_heads = N_HEADS}, s);
        if (g == NULL) {
            status = -1;
            break;
        }
        Swap w = swap_of(g);
        follows += w.head >= 0;
        spread += 2 * w.large > w.visited;
        int top = trace_own_output(g, 7 * 10 + 8, tr);
        own += reads_own_output_most(tr, top);
        mean[s] = w.mean;
        interventions_on(g, &iv[s]);
        done_with(g, &sw);
    }
    if (status == 0) {
        number(numbers, "routing_n_seeds", "%d", N_SEEDS);
        number(numbers, "swap_sweep_follows", "%d", follows);
        number(numbers, "swap_sweep_spread", "%d", spread);
        number(numbers, "own_sweep", "%d", own);
        numbers_of_spread(numbers, "swap_sweep_mean", "%.2f", mean, N_SEEDS);
        const struct { int held, least, most; const char *says; } on[3] = {
            {follows, N_SEEDS / 2 + 1, N_SEEDS, "on more than half the seeds, a "
             "head follows a digit in the pair that changes most"},
            {spread, N_SEEDS / 2 + 1, N_SEEDS, "on more than half the seeds, the "
             "swap moves most pairs' reading by more than a quarter"},
            {own, 1, N_SEEDS - 1, "the head that weighs the model's own digit "
             "most reads it more than any other position on some seeds, not on "
             "all"}};
        for (int k = 0; k < 3; k++)     /* each counted over the seeds */
            claim_count(claims, on[k].held, N_SEEDS, on[k].least, on[k].most,
                        CHAPTER_ROUTING, on[k].says, "on %d of %d seeds",
                        on[k].held, N_SEEDS);
        status = numbers_of_interventions(dir, fig, numbers, claims, iv,
                                          book->n_heads);
    }
    free(iv);
    free(tr);
    free(run);
    return status;
}

int routing_experiments(const char *model, const char *sweep,
                        const char *dir, const char *fig, Text *numbers,
                        Claims *claims)
{
    Gpt *g = load_transformer(model);
    if (g == NULL)
        return -1;
    int status = proof_one_character_at_a_time(fig, numbers, claims, g);
    if (status == 0)
        status = proof_swap(fig, numbers, claims, g);
    if (status == 0)
        status = proof_own_output(dir, numbers, claims, g);
    if (status == 0)
        status = circuits_of_the_book_model(fig, numbers, g);
    if (status == 0)
        status = proofs_over_the_seeds(model, sweep, dir, fig, numbers,
                                       claims, g);
    delete_transformer(g);
    return status;
}

