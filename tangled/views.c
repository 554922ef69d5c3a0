/* views.c: the figures and the text that the book's experiments and the
   live book share, no I/O (tangled; edit attention.nw) */
#include "views.h"

#include <math.h>
#include <stdio.h>

void training_curves(const TrainRecord *records, int n_records,
                     float *step, float *loss, float *correct)
{
    for (int r = 0; r < n_records; r++) {
        step[r] = (float)records[r].step;
        loss[r] = (float)records[r].loss;
        correct[r] = (float)records[r].correct;
    }
}

const char *const digit_labels[N_DIGITS] =
    {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};

void training_log_text(Text *log, const TrainConfig *c,
                       const TrainRecord *records, int n_records)
{
    text_printf(log, "# seed=%llu steps=%d batch=%d lr=%.9g "
                "eval_every=%d\n", (unsigned long long)c->seed, c->steps,
                c->batch, (double)c->lr, c->eval_every);
    text_printf(log, "# step\tloss\tcorrect\n");
    for (int r = 0; r < n_records; r++)
        text_printf(log, "%d\t%.9g\t%d\n", records[r].step,
                    (double)records[r].loss, records[r].correct);
}

void view_swap(Text *svg, Gpt *g, int a, int b, ViewLayout layout)
{
    static float values[MAX_HEADS][2 * 4];
    static char orders[2][8], titles[MAX_HEADS][8];
    static const char *rows[2], *positions[4] = {"0", "1", "2", "3"};
    real w[2][MAX_HEADS][4];
    SvgHeatmap maps[MAX_HEADS];
    for (int order = 0; order < 2; order++) {
        int first = order ? b : a, second = order ? a : b;
        snprintf(orders[order], sizeof orders[order], "%d*%d=", first, second);
        rows[order] = orders[order];
        question_weights(g, first, second, w[order]);
    }
    for (int head = 0; head < g->n_heads; head++) {
        snprintf(titles[head], sizeof titles[head], "head %d", head);
        for (int order = 0; order < 2; order++)
            for (int u = 0; u < 4; u++)
                values[head][order * 4 + u] = (float)w[order][head][u];
        maps[head] = (SvgHeatmap){titles[head], "position $u$ (read)", NULL,
                                  2, 4, values[head], rows, positions, "%.2f",
                                  0};
    }
    SvgColorScale scale = {SVG_SEQUENTIAL, 0, 1, "weight"};
    if (layout == VIEW_APART)
        for (int head = 0; head < g->n_heads; head++)
            svg_heatmaps(svg, &maps[head], 1, 1, NULL, scale, 290, 190);
    else
        svg_heatmaps(svg, maps, g->n_heads, 2, NULL, scale,
                     layout == VIEW_NARROW ? NARROW_WIDTH : 620,
                     40 + 160 * ((g->n_heads + 1) / 2));
}

NeuronTable view_neuron_table(const char *title,
                              const float values[N_PROBLEMS])
{
    NeuronTable t;
    t.map = (SvgHeatmap){title, "$b$", "$a$", N_DIGITS, N_DIGITS, values,
                         digit_labels, digit_labels, NULL, 0};
    t.scale = svg_fit_scale((SvgColorScale){SVG_SEQUENTIAL, 0, 0, NULL},
                            &t.map, 1);
    t.bar = svg_color_bar_width(t.scale);
    return t;
}

void view_scree(Text *svg, const double *share, int count,
                const double *share_in, ViewLayout layout)
{
    static float x[HIDDEN], each[2][HIDDEN], total[2][HIDDEN];
    char marker[64];
    for (int i = 0; i < HIDDEN; i++) {
        x[i] = (float)(i + 1);
        each[0][i] = (float)share[i];
        total[0][i] = (float)share[i] + (i ? total[0][i - 1] : 0);
        each[1][i] = i < WIDTH && share_in[i] > ROUNDING_SHARE
                     ? (float)share_in[i] : NAN;
        total[1][i] = i < WIDTH ? (float)share_in[i] + (i ? total[1][i - 1] : 0)
                                : NAN;
    }
    snprintf(marker, sizeof marker, "%d directions", count);
    SvgSeries shares[2] = {
        {"64 activations after GELU", x, each[0], HIDDEN, 0, NULL, 0},
        {"32 inputs of the FFN", x, each[1], WIDTH, 1, NULL, 0}};
    SvgSeries totals[2] = {
        {"64 activations after GELU", x, total[0], HIDDEN, 0, NULL, 0},
        {"32 inputs of the FFN", x, total[1], WIDTH, 1, NULL, 0}};
    SvgLinePanel panels[2] = {
        {.title = "Share of the variance",
         .x_label = "direction, largest first",
         .y_label = "share", .series = shares, .n_series = 2, .log_y = 1,
         .x_min = 0, .x_max = HIDDEN, .legend = SVG_LEGEND_BELOW},
        {.title = "Running total", .x_label = "number of directions",
         .y_label = "share", .series = totals, .n_series = 2, .x_min = 0,
         .x_max = HIDDEN, .y_min = 0, .y_max = 1, .h_line = {1, 0.9, "90 %"},
         .v_line = {1, count, marker}, .legend = SVG_LEGEND_NONE}};
    if (layout == VIEW_APART) {
        panels[0].legend = SVG_LEGEND_UNDER;
        svg_line_chart(svg, &panels[0], 380, 380);
        svg_line_chart(svg, &panels[1], 380, 340);
    } else {
        svg_line_charts(svg, panels, 2, NULL,
                        layout == VIEW_NARROW ? NARROW_WIDTH : 760, 340);
    }
}

