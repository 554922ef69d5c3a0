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

const char *training_stopped(char *out, size_t size, const TrainResult *r)
{
    if (r->fault_table < 0)
        snprintf(out, size, "training stopped at step %d: the loss is not "
                 "a finite number; nothing was saved", r->fault_step);
    else
        snprintf(out, size, "training stopped at step %d: table %s holds "
                 "a NaN or infinity; nothing was saved", r->fault_step,
                 gpt_tables[r->fault_table].name);
    return out;
}

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
    static const char *rows[2];
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
                                  2, 4, values[head], rows, digit_labels,
                                  "%.2f", 0};
    }
    SvgColorScale scale = {SVG_SEQUENTIAL, 0, 1, "weight"};
    if (layout == VIEW_APART)
        for (int head = 0; head < g->n_heads; head++)
            svg_heatmaps(svg, &maps[head], 1, 1, scale, 290, 190);
    else
        svg_heatmaps(svg, maps, g->n_heads, 2, scale,
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
    if (layout == VIEW_APART) {     /* the legend under the first, one a line */
        SvgRect key = svg_legend_size(shares, 2, 0);
        svg_begin(svg, 380, 380);
        svg_legend(svg, (380 - key.w) / 2, 370 - key.h, shares, 2, 0);
        svg_line_panel(svg, (SvgRect){10, 10, 360, 360 - key.h}, &panels[0]);
        svg_end(svg);
        svg_line_charts(svg, &panels[1], 1, 380, 340);
    } else {
        svg_line_charts(svg, panels, 2,
                        layout == VIEW_NARROW ? NARROW_WIDTH : 760, 340);
    }
}

enum { WIRE_PX = 2, WIRE_GAP = 14, WIRE_TURN = 20, WIRE_LINE = 21,
       WIRE_TAG = 20, WIRE_INDENT = 20 };

typedef struct {
    double width;
    int spine, branch;          /* the x of the stream, of a branch */
    int rows, pitch;            /* the x of the rows, and row to row */
    int names_above;            /* 1: a stage's name above it */
} WireLayout;

static const WireLayout wire_layouts[2] = {
    {760, 200, 330, 540, 28, 0},            /* the book's */
    {NARROW_WIDTH, 20, 60, 212, 25, 1}};    /* a phone's */

const WireStage wire_stages[] = {
    {"embedding", {TOK_EMB, POS_EMB}, 2, 0, 0},
    {"LayerNorm", {LN1_GAIN}, 1, 1, 0},
    {"q, k, v", {WQ, WK, WV}, 3, 1, 0},
    {"attention", {0}, 0, 1, 1},
    {"mix the heads", {WO}, 1, 2, 0},
    {"LayerNorm", {LN2_GAIN}, 1, 1, 0},
    {"widen", {W1}, 1, 1, 0},
    {"add a bias", {B1}, 1, 1, 0},
    {"GELU", {0}, 0, 1, 0},
    {"shrink", {W2}, 1, 1, 0},
    {"add a bias", {B2}, 1, 2, 0},
    {"LayerNorm", {LNF_GAIN}, 1, 0, 0},
    {"scores", {W_OUT}, 1, 0, 0},
};

static double table_height(int t)
{
    double h = gpt_tables[t].rows * WIRE_PX;
    return h < 4 ? 4 : h;
}

static double stage_height(const WireStage *s)
{
    double h = s->rows ? 2 * WIRE_TAG + 22 : WIRE_LINE + 10;
    for (int i = 0; i < s->n_tables; i++)
        h = fmax(h, 2 * WIRE_TAG + table_height(s->table[i]));
    return h;
}

static double stage_name_room(const WireLayout *L)
{
    return L->names_above ? WIRE_TAG + 10 : 0;
}

static void draw_table(Text *svg, int t, double x, double mid, int mark)
{
    const TableSpec *spec = &gpt_tables[t];
    double w = spec->cols * WIRE_PX, h = table_height(t), y = mid - h / 2;
    text_printf(svg, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                "height=\"%.1f\" fill=\"#e8eef5\" stroke=\"#555555\"/>\n",
                x, y, w, h);
    if (mark >= 0)
        text_printf(svg, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                    "height=\"%d\" fill=\"%s\"/>\n",
                    x, y + mark * WIRE_PX, w, WIRE_PX, svg_palette(0));
    text_printf(svg, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"17\" "
                "fill=\"#222222\">%s</text>\n", x, y - 6, spec->name);
    text_printf(svg, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"17\" "
                "fill=\"#222222\">%d \xc3\x97 %d</text>\n", x, y + h + 17,
                spec->rows, spec->cols);
}

/* z Phi(z), the variable in italic as in the text */
#define ITALIC_Z "<tspan font-style=\"italic\">z</tspan>"
#define GELU_FORMULA ITALIC_Z " \xce\xa6(" ITALIC_Z ")"

static void draw_stage(Text *svg, const WireLayout *L, const WireStage *s,
                       double mid, const int mark[N_GPT_TABLES],
                       const char *box)
{
    int line = s->branch ? L->branch : L->spine;
    double x = line + WIRE_INDENT, end = x + 60;   /* to the last */
    for (int i = 0, at = (int)x; i < s->n_tables; i++) {  /* centre */
        int w = gpt_tables[s->table[i]].cols * WIRE_PX;
        end = at + w / 2.0;
        at += w + 24;
    }
    text_printf(svg, "<path d=\"M%d %.1f H%.1f\" stroke=\"%s\" "
                "stroke-width=\"3\"/>\n", line, mid, end, svg_palette(0));
    for (int i = 0; i < s->n_tables; i++) {
        double w = gpt_tables[s->table[i]].cols * WIRE_PX;
        draw_table(svg, s->table[i], x, mid, mark[s->table[i]]);
        x += w + 24;
    }
    if (s->n_tables == 0)
        text_printf(svg, "<rect x=\"%.1f\" y=\"%.1f\" width=\"120\" "
                    "height=\"%d\" rx=\"4\" fill=\"white\" stroke=\"%s\" "
                    "stroke-width=\"2\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
                    "font-size=\"17\" text-anchor=\"middle\" "
                    "fill=\"#222222\">%s</text>\n", x,
                    mid - WIRE_LINE / 2.0 - 2, WIRE_LINE + 4,
                    svg_palette(0), x + 60, mid + 6, box);
    int above = L->names_above;     /* the name: above the stage, or left */
    text_printf(svg, "<text x=\"%d\" y=\"%.1f\" font-size=\"17\" %s "
                "fill=\"#222222\">%s</text>\n",
                above ? line + WIRE_INDENT : L->spine - 30,
                above ? mid - stage_height(s) / 2 - 8 : mid + 6,
                above ? "font-style=\"italic\"" : "text-anchor=\"end\"",
                s->what);
}

static void draw_rows(Text *svg, const WireLayout *L, const int *tokens,
                      int length, int asking, double mid)
{
    double from = L->branch + WIRE_INDENT + 120;   /* the box's edge */
    for (int t = 0; t < length; t++) {
        double x = L->rows + L->pitch * t, y = mid - 11;
        int read = t <= asking;
        const char *ink = t == asking ? svg_palette(0)
                          : read ? "#777777" : "#aaaaaa";
        int thick = t == asking ? 3 : 2;
        text_printf(svg, "<rect x=\"%.1f\" y=\"%.1f\" width=\"22\" "
                    "height=\"22\" fill=\"white\" stroke=\"%s\" "
                    "stroke-width=\"%d\"%s/>\n<text x=\"%.1f\" y=\"%.1f\" "
                    "font-size=\"17\" text-anchor=\"middle\" "
                    "fill=\"#222222\">%c</text>\n", x, y, ink, thick,
                    read ? "" : " stroke-dasharray=\"3 3\"", x + 11,
                    y + 17, char_of_token(tokens[t]));
        if (read)
            text_printf(svg, "<path d=\"M%.1f %.1f C%.1f %.1f %.1f %.1f "
                        "%.1f %.1f\" stroke=\"%s\" stroke-width=\"%d\" "
                        "fill=\"none\"/>\n", from, mid, from + 30,
                        mid + 26, x + 11, mid + 26, x + 11, mid + 11, ink,
                        thick - 1);
    }
    text_printf(svg, "<text x=\"%d\" y=\"%.1f\" font-size=\"17\" "
                "fill=\"#222222\">the rows it reads</text>\n"
                "<text x=\"%d\" y=\"%.1f\" font-size=\"17\" "
                "fill=\"#222222\">masked</text>\n", L->rows, mid - 19,
                L->rows + L->pitch * (asking + 1), mid + 30);
}

static int starts_branch(int s)
{
    return wire_stages[s].branch
           && (s == 0 || wire_stages[s - 1].branch != 1);
}

static void draw_the_stream(Text *svg, const WireLayout *L,
                            const double mid[], double end)
{
    const char *blue = svg_palette(0);
    double leave = 0;
    text_printf(svg, "<path d=\"M%d %.1f L%d %.1f\" stroke=\"%s\" "
                "stroke-width=\"3\"/>\n", L->spine, mid[0], L->spine,
                end, blue);
    for (int s = 0; s < N_WIRE_STAGES; s++) {
        const WireStage *st = &wire_stages[s];
        double turn = stage_height(st) / 2 + (WIRE_GAP + WIRE_TURN) / 2.0;
        if (starts_branch(s))
            leave = mid[s] - turn;
        if (st->branch == 2) {
            double back = mid[s] + turn;
            text_printf(svg, "<path d=\"M%d %.1f H%d V%.1f H%d\" "
                        "stroke=\"%s\" stroke-width=\"3\" fill=\"none\"/>"
                        "\n<circle cx=\"%d\" cy=\"%.1f\" r=\"11\" "
                        "fill=\"white\" stroke=\"%s\" stroke-width=\"3\"/>"
                        "\n<text x=\"%d\" y=\"%.1f\" font-size=\"17\" "
                        "text-anchor=\"middle\" fill=\"%s\">+</text>\n",
                        L->spine, leave, L->branch, back, L->spine + 11,
                        blue, L->spine, back, blue, L->spine, back + 6,
                        blue);
        }
    }
}

/* Where each stage stands, from the top down: the middle of each, and
   where the last one ends. */
static double stage_places(const WireLayout *L, double mid[N_WIRE_STAGES])
{
    double y = 40;
    for (int s = 0; s < N_WIRE_STAGES; s++) {
        const WireStage *st = &wire_stages[s];
        y += starts_branch(s) ? WIRE_TURN : 0;      /* room to turn */
        y += s > 0 ? stage_name_room(L) : 0;
        mid[s] = y + stage_height(st) / 2;
        y += stage_height(st) + WIRE_GAP
             + (st->branch == 2 ? WIRE_TURN : 0);       /* and back */
    }
    return y;
}

/* A stage's band, from its name to its shapes. */
static WireBand stage_band(const WireLayout *L, int s, double mid)
{
    double half = stage_height(&wire_stages[s]) / 2;
    return (WireBand){mid - half - stage_name_room(L) - 4, mid + half + 4};
}

void wiring_bands(ViewLayout layout, WireBand band[N_WIRE_STAGES])
{
    const WireLayout *L = &wire_layouts[layout == VIEW_WIDE ? 0 : 1];
    double mid[N_WIRE_STAGES];
    stage_places(L, mid);
    for (int s = 0; s < N_WIRE_STAGES; s++)
        band[s] = stage_band(L, s, mid[s]);
}

static void draw_wiring(Text *svg, const WireLayout *L, const int *tokens,
                        int length, int asking, int n_heads, int lit)
{
    int mark[N_GPT_TABLES];
    double mid[N_WIRE_STAGES], y = stage_places(L, mid);
    char heads[32];
    snprintf(heads, sizeof heads, "%d head%s of %d", n_heads,
             n_heads > 1 ? "s" : "", WIDTH / n_heads);
    for (int t = 0; t < N_GPT_TABLES; t++)
        mark[t] = -1;
    mark[TOK_EMB] = tokens[asking];
    mark[POS_EMB] = asking;
    svg_begin(svg, L->width, y + 30);
    if (lit >= 0 && lit < N_WIRE_STAGES) {      /* the reader's stage */
        WireBand b = stage_band(L, lit, mid[lit]);
        text_printf(svg, "<rect x=\"0\" y=\"%.1f\" width=\"%.1f\" "
                    "height=\"%.1f\" fill=\"#ffe9a8\"/>\n", b.top,
                    L->width, b.bottom - b.top);
    }
    draw_the_stream(svg, L, mid, y);
    for (int s = 0; s < N_WIRE_STAGES; s++)
        draw_stage(svg, L, &wire_stages[s], mid[s], mark,
                   wire_stages[s].rows ? heads : GELU_FORMULA);
    for (int s = 0; s < N_WIRE_STAGES; s++)
        if (wire_stages[s].rows)
            draw_rows(svg, L, tokens, length - 1, asking, mid[s]);
    text_printf(svg, "<text x=\"%d\" y=\"%.1f\" font-size=\"17\" "
                "text-anchor=\"%s\" fill=\"#222222\">the next token"
                "</text>\n", L->names_above ? L->spine - 10 : L->spine,
                y + 16, L->names_above ? "start" : "middle");
    svg_end(svg);
}

int view_wiring(Text *svg, int n_heads, int lit, ViewLayout layout)
{
    int seen[N_GPT_TABLES] = {0}, tokens[SEQ_LEN];
    int length = problem_tokens(7 * 10 + 8, tokens), asking = 0;
    while (tokens[asking] != TOK_EQUALS)        /* 7*8=56: the row of = */
        asking++;
    for (int s = 0; s < N_WIRE_STAGES; s++)
        for (int i = 0; i < wire_stages[s].n_tables; i++)
            seen[wire_stages[s].table[i]]++;
    for (int t = 0; t < N_GPT_TABLES; t++)
        if (seen[t] != 1)
            return -1;
    draw_wiring(svg, &wire_layouts[layout == VIEW_WIDE ? 0 : 1], tokens,
                length, asking, n_heads, lit);
    return asking;
}

