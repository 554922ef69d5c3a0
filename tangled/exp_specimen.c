/* exp_specimen.c: the book's transformer: tables, training, trace
   (tangled; edit attention.nw) */
#include "experiments.h"
#include "files.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double closest_tokens(const Gpt *g, int *a, int *b);
static void numbers_of_the_trace(Text *out, const Trace *tr, int t);
static int table_of_the_trace(const char *dir, const Trace *tr, int t);
static int figure_trace_weights(const char *fig, const Trace *tr);

static int columns_ordered_by_value(const Gpt *g)
{
    const real *e = g->model.p.table[TOK_EMB];
    int ordered = 0;
    for (int c = 0; c < WIDTH; c++) {
        int rises = 1, falls = 1;
        for (int d = 1; d < N_DIGITS; d++) {
            rises &= e[d * WIDTH + c] > e[(d - 1) * WIDTH + c];
            falls &= e[d * WIDTH + c] < e[(d - 1) * WIDTH + c];
        }
        ordered += rises || falls;
    }
    return ordered;
}

static void claims_hold(Claims *claims, Gpt *g)
{
    int a = 0, b = 0;
    double closest = closest_tokens(g, &a, &b);
    claim(claims, closest < 0.5, CHAPTER_EMBEDDING,
          "no two token vectors are close to parallel (cosine 0.5 or more)",
          "closest: '%c' and '%c', cosine %.2f", char_of_token(a),
          char_of_token(b), closest);
    int ordered = columns_ordered_by_value(g);
    claim(claims, ordered == 0, CHAPTER_EMBEDDING,
          "the rows of the ten digits are not ordered by value: no column "
          "rises or falls with the digit",
          "columns that do: %d of %d", ordered, WIDTH);
    int right = score(&g->model, NULL);
    claim(claims, right == N_PROBLEMS, CHAPTER_TRAINING,
          "the saved model answers all 100 problems", "%d of 100", right);
}

static int sweep_both_models(Text *numbers, Claims *claims,
                             const Sweep *sw)
{
    int steps[2][N_SEEDS], reached = 0, faster = 0;
    double first[N_SEEDS];      /* the transformer's steps, for spreads */
    size_t n_params;
    Run *run = malloc(sizeof *run);
    int s;
    if (run == NULL)
        return fail("out of memory");
    for (s = 0; s < N_SEEDS; s++) {
        Gpt *trained = swept(run, sw, (Relative){.n_heads = N_HEADS}, s);
        if (trained == NULL)
            break;
        done_with(trained, sw);
        first[s] = steps[0][s] = steps_to_perfect(run);
        reached += run->result.first_perfect > 0;
        if (run_mlp(run, &n_params, s) != 0)
            break;
        steps[1][s] = steps_to_perfect(run);
        reached += run->result.first_perfect > 0;
        faster += steps[0][s] < steps[1][s];
    }
    free(run);
    if (s < N_SEEDS)
        return -1;              /* a seed was not trained */
    number(numbers, "gpt_n_seeds", "%d", N_SEEDS);
    numbers_of_spread(numbers, "gpt_sweep_first", "%g", first, N_SEEDS);
    number(numbers, "gpt_sweep_faster", "%d", faster);
    claim_every(claims, reached, 2 * N_SEEDS, CHAPTER_TRAINING,
          "both models reach 100/100 from every seed",
          "first 100/100: transformer at steps %s; perceptron at %s",
          seed_list(steps[0]).text, seed_list(steps[1]).text);
    claim_every(claims, faster, N_SEEDS, CHAPTER_TRAINING,
          "the transformer reaches 100/100 in fewer steps than the "
          "perceptron from every seed", "on %d of %d seeds", faster, N_SEEDS);
    return 0;
}

static void numbers_of_the_specimen(Text *out, Gpt *g)
{
    int one_digit = 0, agree = 0;
    double per_sequence, floor = loss_floor(&per_sequence);
    for (int p = 0; p < N_PROBLEMS; p++) {
        one_digit += (p / 10) * (p % 10) < 10;
        agree += gpt_forms_agree(g, p);
    }
    number(out, "one_digit_answers", "%d", one_digit);
    number(out, "gpt_params", "%zu", g->model.p.n_params);
    number(out, "gpt_n_tables", "%d", g->model.p.n_tables);
    number(out, "gpt_loss_floor", "%.3f", floor);
    number(out, "gpt_targets_per_sequence", "%.2f", per_sequence);
    number(out, "gpt_final_loss", "%.3f",
           (double)loss_on_all_problems(&g->model));
    number(out, "gpt_final_correct", "%d", score(&g->model, NULL));
    number(out, "forms_agree", "%d", agree);
    int a = 0, b = 0;
    double closest = closest_tokens(g, &a, &b);
    number(out, "tok_emb_max_cosine", "%.2f", closest);
    number(out, "tok_emb_cosine_a", "%c", char_of_token(a));
    number(out, "tok_emb_cosine_b", "%c", char_of_token(b));
}

static int table_of_tables(const char *dir, const Params *p)
{
    Text md = {0};
    text_printf(&md, "| | table | rows | columns | numbers |\n"
                     "|--:|:--|--:|--:|--:|\n");
    for (int i = 0; i < p->n_tables; i++)
        text_printf(&md, "| %d | `%s` | %d | %d | %d |\n", i + 1,
                    p->specs[i].name, p->specs[i].rows, p->specs[i].cols,
                    p->specs[i].rows * p->specs[i].cols);
    text_printf(&md, "| | **all %d tables** | | | **%zu** |\n",
                p->n_tables, p->n_params);
    return save_table(dir, "gpt_tables.md", &md);
}

static int figure_training(const char *fig, const Run *gpt, const Run *mlp)
{
    static float step[2][MAX_RECORDS], loss[2][MAX_RECORDS],
                 correct[2][MAX_RECORDS];
    static const char *const names[2] = {"transformer", "perceptron"};
    const Run *runs[2] = {gpt, mlp};
    SvgSeries losses[2], scores[2];
    char floor_label[64], marker[64];
    double per_sequence, floor = loss_floor(&per_sequence);
    Text svg[2] = {{0}, {0}};
    for (int k = 0; k < 2; k++) {
        int n = runs[k]->result.n_records;
        curves_of(runs[k], step[k], loss[k], correct[k]);
        losses[k] = (SvgSeries){names[k], step[k], loss[k], n, k, NULL, 0};
        scores[k] = (SvgSeries){names[k], step[k], correct[k], n, k, NULL,
                                0};
    }
    snprintf(floor_label, sizeof floor_label, "floor %.3f", floor);
    snprintf(marker, sizeof marker, "100/100\nat step %d",
             gpt->result.first_perfect);
    SvgLinePanel panels[2] = {
        {.title = "Loss", .x_label = "step", .y_label = "cross-entropy",
         .series = losses, .n_series = 2, .log_y = 1,
         .h_line = {1, floor, floor_label}, .legend = SVG_LEGEND_BELOW},
        {.title = "Score", .x_label = "step", .y_label = "problems right",
         .series = scores, .n_series = 2, .y_min = 0, .y_max = 100,
         .legend = SVG_LEGEND_NONE,
         .v_line = {gpt->result.first_perfect > 0,
                    gpt->result.first_perfect, marker}},
    };
    for (int narrow = 0; narrow < 2; narrow++)
        svg_line_charts(&svg[narrow], panels, 2,
                        narrow ? NARROW_WIDTH : 760, 380);
    return save_figure(fig, "gpt_training.svg", svg);
}

static int figure_token_embedding(const char *fig, const Gpt *g)
{
    static const char *const tokens[VOCAB] =
        {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "=", ";"};
    static const char *const columns[WIDTH] = {
        "0", "", "", "", "4", "", "", "", "8", "", "", "",
        "12", "", "", "", "16", "", "", "", "20", "", "", "",
        "24", "", "", "", "28", "", "", ""};
    float values[VOCAB * WIDTH], turned[WIDTH * VOCAB];
    Text svg[2] = {{0}, {0}};
    for (int i = 0; i < VOCAB * WIDTH; i++) {
        values[i] = (float)g->model.p.table[TOK_EMB][i];
        turned[i % WIDTH * VOCAB + i / WIDTH] = values[i];
    }
    SvgHeatmap map = {.x_label = "dimension", .y_label = "token",
                      .rows = VOCAB, .cols = WIDTH, .values = values,
                      .row_labels = tokens, .col_labels = columns};
    SvgHeatmap upright = {.x_label = "token", .y_label = "dimension",
                          .rows = WIDTH, .cols = VOCAB, .values = turned,
                          .row_labels = columns, .col_labels = tokens};
    SvgColorScale scale = {SVG_DIVERGING, 0, 0, "value"};
    svg_heatmaps(&svg[0], &map, 1, 1, scale, 760, 310);
    svg_heatmaps(&svg[1], &upright, 1, 1, scale, NARROW_WIDTH, 760);
    return save_figure(fig, "token_embedding.svg", svg);
}

static double closest_tokens(const Gpt *g, int *a, int *b)
{
    const real *table = g->model.p.table[TOK_EMB];
    double best = -2;
    for (int i = 0; i < VOCAB; i++)
        for (int j = i + 1; j < VOCAB; j++) {
            double c = cosine(table + i * WIDTH, table + j * WIDTH, WIDTH);
            if (c > best)
                best = c, *a = i, *b = j;
        }
    return best;
}

static int the_trace(const char *dir, const char *fig, Text *numbers,
                     Gpt *g)
{
    int tokens[SEQ_LEN], T = 4, t = 3;
    Trace *tr = malloc(sizeof *tr);
    if (tr == NULL)
        return fail("out of memory");
    problem_tokens(7 * 10 + 8, tokens);
    gpt_trace(g, tokens, T, tr);
    numbers_of_the_trace(numbers, tr, t);
    int status = table_of_the_trace(dir, tr, t);
    if (status == 0)
        status = figure_trace_weights(fig, tr);
    free(tr);
    return status;
}

static void numbers_of_the_trace(Text *out, const Trace *tr, int t)
{
    int top_head = 0, top_u = 0;
    for (int head = 0; head < tr->n_heads; head++)
        for (int u = 0; u <= t; u++)
            if (tr->weights[head][t][u] > tr->weights[top_head][t][top_u])
                top_head = head, top_u = u;
    number(out, "trace_next_token", "%c",
           char_of_token(argmax(tr->logits[t], VOCAB)));
    number(out, "trace_top_head", "%d", top_head);
    number(out, "trace_top_u", "%d", top_u);
    number(out, "trace_top_char", "%c", char_of_token(tr->tokens[top_u]));
    number(out, "trace_top_weight", "%.2f",
           (double)tr->weights[top_head][t][top_u]);
}

static int table_of_the_trace(const char *dir, const Trace *tr, int t)
{
    Text md = {0};
    trace_table_head(&md, tr, t, "| head | |", "|--:|:--|");
    for (int head = 0; head < tr->n_heads; head++) {
        text_printf(&md, "\n| %d | score |", head);
        for (int u = 0; u <= t; u++)
            text_printf(&md, " %.2f |", (double)tr->scores[head][t][u]);
        text_printf(&md, "\n| | weight |");
        for (int u = 0; u <= t; u++)
            text_printf(&md, " **%.2f** |",
                        (double)tr->weights[head][t][u]);
    }
    text_printf(&md, "\n");
    return save_table(dir, "trace_row.md", &md);
}

static int figure_trace_weights(const char *fig, const Trace *tr)
{
    static float values[MAX_HEADS][SEQ_LEN * SEQ_LEN];
    static char titles[MAX_HEADS][16], labels[SEQ_LEN][2];
    static const char *names[SEQ_LEN];
    SvgHeatmap maps[MAX_HEADS];
    Text svg[2] = {{0}, {0}};
    for (int t = 0; t < tr->T; t++) {
        labels[t][0] = char_of_token(tr->tokens[t]);
        names[t] = labels[t];
    }
    for (int head = 0; head < tr->n_heads; head++) {
        for (int t = 0; t < tr->T; t++)
            for (int u = 0; u < tr->T; u++)
                values[head][t * tr->T + u] =
                    u > t ? NAN : (float)tr->weights[head][t][u];
        snprintf(titles[head], sizeof titles[head], "head %d", head);
        maps[head] = (SvgHeatmap){titles[head], "$u$ (read)",
                                  "$t$ (reading)", tr->T, tr->T,
                                  values[head], names, names, "%.2f", 0};
    }
    SvgColorScale scale = {SVG_SEQUENTIAL, 0, 1, "weight"};
    for (int narrow = 0; narrow < 2; narrow++)
        svg_heatmaps(&svg[narrow], maps, tr->n_heads, 2, scale,
                     narrow ? NARROW_WIDTH : 640, 600);
    return save_figure(fig, "trace_weights.svg", svg);
}

static int figure_wiring(const char *fig, Text *numbers)
{
    Text svg[2] = {{0}, {0}};
    int asking = view_wiring(&svg[0], N_HEADS, -1, VIEW_WIDE);
    if (asking < 0 || view_wiring(&svg[1], N_HEADS, -1, VIEW_NARROW) < 0)
        return fail("the wiring figure shows a table in no stage, or in "
                    "two");
    number(numbers, "wiring_position", "%d", asking);
    return save_figure(fig, "wiring.svg", svg);
}

int specimen_experiments(const char *model, const char *sweep,
                         const char *dir, const char *fig, Text *numbers,
                         Claims *claims)
{
    Run *run = malloc(sizeof *run), *mlp = malloc(sizeof *mlp);
    Gpt *g = load_transformer(model);
    size_t n_params;
    int status = run == NULL || mlp == NULL ? fail("out of memory")
                 : g == NULL ? -1 : 0;
    if (status == 0)
        status = load_training_log(model, run);
    if (status == 0)
        status = run_mlp(mlp, &n_params, 0);  /* to compare */
    if (status == 0)
        claims_hold(claims, g);
    if (status == 0)
        status = sweep_both_models(numbers, claims,
                                   &(Sweep){sweep, run, g});
    if (status == 0) {
        numbers_of_training(numbers, run, "gpt");
        numbers_of_the_specimen(numbers, g);
        status = table_of_tables(dir, &g->model.p);
    }
    if (status == 0)
        status = figure_training(fig, run, mlp);
    if (status == 0)
        status = figure_token_embedding(fig, g);
    if (status == 0)
        status = figure_wiring(fig, numbers);
    if (status == 0)
        status = the_trace(dir, fig, numbers, g);
    delete_transformer(g);
    free(mlp);
    free(run);
    return status;
}

