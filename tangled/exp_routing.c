/* exp_routing.c: the three proofs that routing is computed live
   (tangled; edit attention.nw) */
#include "experiments.h"
#include "files.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int table_of_own_output(const char *dir, const Trace *tr, int t);

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

enum { GROW_CELL = 20, GROW_LABELS = 24, GROW_HEAD = 26, GROW_GAP = 8,
       GROW_BAR = 80 };

static int figure_growing_tables(const char *fig,
                                 const Trace tr[GROW_STEPS])
{
    static float values[MAX_HEADS * GROW_STEPS][SEQ_LEN * SEQ_LEN];
    static char titles[GROW_STEPS][16], heads[MAX_HEADS][16];
    static char labels[SEQ_LEN][2];
    static const char *names[SEQ_LEN];
    SvgHeatmap maps[MAX_HEADS * GROW_STEPS];
    int n_heads = tr[0].n_heads, n = 0;
    double width = 10 + GROW_HEAD + GROW_STEPS * (GROW_LABELS + GROW_GAP)
                   + GROW_CELL * GROW_STEPS * (GROW_STEPS + 1) / 2.0
                   + GROW_BAR;
    Text svg = {0};
    for (int t = 0; t < GROW_STEPS; t++) {
        labels[t][0] = char_of_token(tr[GROW_STEPS - 1].tokens[t]);
        names[t] = labels[t];
    }
    for (int head = 0; head < n_heads; head++) {
        snprintf(heads[head], sizeof heads[head], "head %d", head);
        for (int T = 1; T <= GROW_STEPS; T++, n++) {
            const Trace *step = &tr[T - 1];
            if (head == 0)
                snprintf(titles[T - 1], sizeof titles[T - 1], "%.*s", T,
                         "7*8=56");
            for (int t = 0; t < T; t++)
                for (int u = 0; u < T; u++)
                    values[n][t * T + u] =
                        u > t ? NAN : (float)step->weights[head][t][u];
            maps[n] = (SvgHeatmap){head == 0 ? titles[T - 1] : NULL, NULL,
                                   T == 1 ? heads[head] : NULL, T, T, values[n],
                                   names, names, NULL, 1};
        }
    }
    SvgColorScale scale = svg_fit_scale(
        (SvgColorScale){SVG_SEQUENTIAL, 0, 1, "weight"}, maps, n);
    double grid = GROW_STEPS * GROW_CELL;  /* the largest table's side */
    double first = svg_heatmap_height(&maps[GROW_STEPS - 1], GROW_CELL);
    double other = svg_heatmap_height(&maps[n - 1], GROW_CELL);
    double height = 10 + first + (n_heads - 1) * other
                    + n_heads * GROW_GAP;
    svg_begin(&svg, width, height);
    for (int head = 0, i = 0; head < n_heads; head++) {
        double x = 10, bottom = 10 + first + head * (other + GROW_GAP);
        for (int T = 1; T <= GROW_STEPS; T++, i++) {
            double w = GROW_LABELS + (T == 1 ? GROW_HEAD : 0) + T * GROW_CELL;
            double h = svg_heatmap_height(&maps[i], GROW_CELL);
            svg_heatmap_panel(&svg, (SvgRect){x, bottom - h, w, h}, &maps[i],
                              scale);
            x += w + GROW_GAP;
        }
    }
    double grids = (n_heads - 1) * (other + GROW_GAP) + grid;
    svg_color_bar(&svg, (SvgRect){width - GROW_BAR, 10 + first - other,
                                  GROW_BAR - 10, grids}, scale);
    svg_end(&svg);
    return save_text(fig, "growing_tables.svg", &svg);
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
    claim(claims, same == rows, "Routing is computed live",
          "the earlier rows come out the same bits at every step",
          "%d of %d rows do", same, rows);
    int status = figure_growing_tables(fig, tr);
    free(tr);
    return status;
}

static int figure_swap(const char *fig, Gpt *g, int a, int b)
{
    Text text = {0};
    view_swap(&text, g, a, b, 0);
    return save_text(fig, "swap_weights.svg", &text);
}

static int proof_swap(const char *fig, Text *numbers, Claims *claims,
                      Gpt *g)
{
    int a = 0, b = 0, least_a = 0, least_b = 1, small = 0, large = 0;
    real change = 0, least = 2, sum = 0;
    int visited = most_changed_pair(g, &a, &b, &change);
    for (int first = 0; first < N_DIGITS; first++)
        for (int second = first + 1; second < N_DIGITS; second++) {
            real c = swap_change(g, first, second);
            sum += c;
            small += c < (real)0.1;
            large += c > (real)0.25;
            if (c < least)
                least = c, least_a = first, least_b = second;
        }
    number(numbers, "swap_pairs", "%d", visited);
    number(numbers, "swap_a", "%d", a);
    number(numbers, "swap_b", "%d", b);
    number(numbers, "swap_change", "%.2f", (double)change);
    number(numbers, "swap_least_a", "%d", least_a);
    number(numbers, "swap_least_b", "%d", least_b);
    number(numbers, "swap_least_change", "%.2f", (double)least);
    number(numbers, "swap_mean_change", "%.2f", (double)sum / visited);
    number(numbers, "swap_small", "%d", small);
    number(numbers, "swap_large", "%d", large);
    int head = head_following_a_digit(g, a, b);
    claim(claims, head >= 0, "Routing is computed live",
          "for the pair the program picks, a head's largest weight moves "
          "between positions 0 and 2 when the operands are swapped",
          "pair %d*%d: %s", a, b, head >= 0 ? "a head does" : "none does");
    claim(claims, least <= 0.05 && small >= 1 && 2 * large > visited,
          "Routing is computed live",
          "the swap moves most pairs' reading by more than a quarter, "
          "some by less than a tenth, and one by 0.05 or less",
          "%d of %d above a quarter, %d below a tenth, least %d*%d at %.3f",
          large, visited, small, least_a, least_b, (double)least);
    return figure_swap(fig, g, a, b);
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
    for (int head = 0; head < tr->n_heads; head++) {
        char name[32];
        snprintf(name, sizeof name, "own_weight_%d", head);
        number(numbers, name, "%.2f", (double)tr->weights[head][t][t]);
    }
    int status = table_of_own_output(dir, tr, t);
    claim(claims, reads_own_output_most(tr, top),
          "Routing is computed live",
          "the head that weighs position 4 most in the row of the second "
          "digit weighs it more than any other position",
          "head %d, weight %.2f on position 4", top,
          (double)tr->weights[top][t][t]);
    free(tr);
    return status;
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

typedef struct { int follows, spread, own; double mean; } ProofsHold;

static ProofsHold proofs_on(Gpt *g, Trace *tr)
{
    ProofsHold h = {0, 0, 0, 0};
    int a = 0, b = 0, large = 0, visited = 0;
    real change = 0;
    most_changed_pair(g, &a, &b, &change);
    h.follows = head_following_a_digit(g, a, b) >= 0;
    for (int first = 0; first < N_DIGITS; first++)
        for (int second = first + 1; second < N_DIGITS; second++) {
            real c = swap_change(g, first, second);
            large += c > (real)0.25;
            h.mean += (double)c;
            visited++;
        }
    h.mean /= visited;
    h.spread = 2 * large > visited;
    h.own = reads_own_output_most(tr, trace_own_output(g, 7 * 10 + 8, tr));
    return h;
}

static int proofs_over_the_seeds(const char *model, Text *numbers,
                                 Claims *claims, Gpt *book)
{
    Run *run = malloc(sizeof *run);
    Trace *tr = malloc(sizeof *tr);
    int follows = 0, spread = 0, own = 0, status = 0;
    double mean[N_SEEDS];
    if (run == NULL || tr == NULL)
        status = fail("out of memory");
    if (status == 0)
        status = load_training_log(model, run);
    TrainConfig cfg = run != NULL ? run->cfg : train_defaults();
    for (int s = 0; status == 0 && s < N_SEEDS; s++) {
        TrainConfig seed = cfg;
        seed.seed += (uint64_t)s;
        Gpt *g = s == 0 ? book
                 : train_transformer(run, &seed, N_HEADS, 0);
        if (g == NULL) {
            status = -1;
            break;
        }
        ProofsHold h = proofs_on(g, tr);
        follows += h.follows, spread += h.spread, own += h.own;
        mean[s] = h.mean;
        if (g != book)
            delete_transformer(g);
    }
    if (status == 0) {
        number(numbers, "routing_n_seeds", "%d", N_SEEDS);
        number(numbers, "swap_sweep_follows", "%d", follows);
        number(numbers, "swap_sweep_spread", "%d", spread);
        number(numbers, "own_sweep", "%d", own);
        numbers_of_spread(numbers, "swap_sweep_mean", "%.2f", mean, N_SEEDS);
        claim(claims, 2 * follows > N_SEEDS && 2 * spread > N_SEEDS,
              "Routing is computed live",
              "on more than half the seeds, a head follows a digit in the pair "
              "that changes most, and the swap moves most pairs' reading by more "
              "than a quarter", "on %d and %d of %d seeds", follows, spread,
              N_SEEDS);
        claim(claims, own < N_SEEDS, "Routing is computed live",
              "the head that weighs the model's own digit most reads it more "
              "than any other position on some seeds, not on all",
              "on %d of %d seeds", own, N_SEEDS);
    }
    free(tr);
    free(run);
    return status;
}

int routing_experiments(const char *model, const char *dir, const char *fig,
                        Text *numbers, Claims *claims)
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
        status = proofs_over_the_seeds(model, numbers, claims, g);
    delete_transformer(g);
    return status;
}

