/* web.c: the core as the live book's page sees it, compiled to
   WebAssembly (tangled; edit attention.nw) */
#include "core.h"
#include "checkpoint.h"
#include "dissect.h"
#include "svg.h"
#include "typed.h"
#include "views.h"
#include <math.h>                   /* NAN: a masked cell of a heatmap */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __wasm__
#define WEB_EXPORT(name) __attribute__((export_name(#name)))
__attribute__((import_module("page"), import_name("progress")))
void page_progress(int step, double loss, int correct);
#else
#define WEB_EXPORT(name)

static void page_progress(int step, double loss, int correct)
{
    (void)step, (void)loss, (void)correct;
}
#endif

enum { WEB_INPUT = 1 << 16, WEB_RECORDS = 1024 };
static struct {
    Gpt g;                              /* the model every widget uses */
    int has_model;
    unsigned char input[WEB_INPUT];     /* the page writes here */
    Text output;                        /* and reads here */
    TrainRecord log[WEB_RECORDS];       /* the run being trained */
    int steps, n_records, first_perfect;
    int T, pos, block;                  /* the stepper's sequence */
} web;

WEB_EXPORT(input) unsigned char *web_input(void) { return web.input; }
WEB_EXPORT(input_size) int web_input_size(void) { return WEB_INPUT; }
WEB_EXPORT(output) const char *web_output(void) { return web.output.data; }
WEB_EXPORT(output_length)
int web_output_length(void) { return (int)web.output.len; }

static void clear_output(void)
{
    web.output.len = 0;
    web.output.failed = 0;
}

static void field_list(const char *name, const char *format, va_list ap)
{
    char value[512];
    vsnprintf(value, sizeof value, format, ap);
    for (char *c = value; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    text_printf(&web.output, "%s=%s\n", name, value);
}

static void field(const char *name, const char *format, ...)
    PRINTF_LIKE(2, 3);

static void field(const char *name, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    field_list(name, format, ap);
    va_end(ap);
}

static int web_fail(int status, const char *format, ...)
    PRINTF_LIKE(2, 3);

static int web_fail(int status, const char *format, ...)
{
    va_list ap;
    clear_output();
    va_start(ap, format);
    field_list("error", format, ap);
    va_end(ap);
    return status;
}

static void drawing_follows(void) { text_printf(&web.output, "\n"); }

WEB_EXPORT(about) int web_about(void)
{
    TrainConfig cfg = train_defaults();
    clear_output();
    field("positions", "%d", SEQ_LEN);
    field("problems", "%d", N_PROBLEMS);
    field("digits", "%d", N_DIGITS);
    field("neurons", "%d", HIDDEN);
    field("inputs", "%d", WIDTH);
    field("steps", "%d", cfg.steps);
    field("seed", "%llu", (unsigned long long)cfg.seed);
    field("equals", "%d", EQUALS_AT);
    field("a_at", "%d", 0);             /* a*b=: where a and b stand */
    field("b_at", "%d", 2);
    field("book_heads", "%d", N_HEADS);
    for (int n = 1; n <= MAX_HEADS; n++)
        if (WIDTH % n == 0) {
            field("heads[]", "%d", n);
            field("heads_name[]", "%d head%s", n, n > 1 ? "s" : "");
        }
    for (int k = 0, i; (i = ablated_part(k)) >= 0; k++)
        field("part_label[]", "%s", part_table[i].label);
    for (int c = 0; c < N_CONCEPTS; c++)
        field("concept[]", "%s", concepts[c].name);
    return 0;
}

static int fresh_model(uint64_t seed)
{
    if (web.has_model)
        gpt_destroy(&web.g);
    web.has_model = gpt_create(&web.g, seed, N_HEADS, MAX_BATCH) == 0;
    return web.has_model ? 0 : 1;
}

WEB_EXPORT(load) int web_load(int length)
{
    char why[256];
    clear_output();
    if (fresh_model(0) != 0)
        return web_fail(1, "out of memory for the transformer");
    if (length < 0 || length > WEB_INPUT)
        return web_fail(1, "a checkpoint larger than %d bytes", WEB_INPUT);
    if (checkpoint_decode(&web.g, web.input, (size_t)length, why,
                          sizeof why) != CHECKPOINT_OK)
        return web_fail(1, "%s", why);
    return 0;
}

WEB_EXPORT(save) int web_save(void)
{
    size_t n = checkpoint_size(&web.g);
    clear_output();
    text_printf(&web.output, "%*s", (int)n, "");
    if (web.output.failed)
        return -1;
    checkpoint_encode((unsigned char *)web.output.data, &web.g);
    return (int)n;
}

enum { WEB_PANEL = 320 };      /* the width of a panel, in SVG pixels */

static void training_chart(Text *svg)
{
    static float step[WEB_RECORDS], loss[WEB_RECORDS], correct[WEB_RECORDS];
    char marker[64];
    training_curves(web.log, web.n_records, step, loss, correct);
    snprintf(marker, sizeof marker, "100/100\nat step %d",
             web.first_perfect);
    SvgSeries losses = {"transformer", step, loss, web.n_records, 0, NULL,
                        0};
    SvgSeries scores = {"transformer", step, correct, web.n_records, 0,
                        NULL, 0};
    SvgLinePanel panels[2] = {
        {.title = "Loss", .x_label = "step", .y_label = "cross-entropy",
         .series = &losses, .n_series = 1, .log_y = 1, .x_min = 0,
         .x_max = web.steps, .y_min = 0.3, .y_max = 3,
         .legend = SVG_LEGEND_NONE},
        {.title = "Score", .x_label = "step", .y_label = "problems right",
         .series = &scores, .n_series = 1, .x_min = 0, .x_max = web.steps,
         .y_min = 0, .y_max = 100, .legend = SVG_LEGEND_NONE,
         .v_line = {web.first_perfect > 0, web.first_perfect, marker}},
    };
    for (int p = 0; p < 2; p++)
        svg_line_charts(svg, &panels[p], 1, WEB_PANEL, 300);
}

static void observe(const TrainRecord *r, void *context)
{
    (void)context;                  /* the run under way is web's */
    if (web.n_records < WEB_RECORDS)
        web.log[web.n_records++] = *r;
    if (r->correct == N_PROBLEMS && web.first_perfect < 0)
        web.first_perfect = r->step;
    clear_output();
    drawing_follows();
    training_chart(&web.output);
    page_progress(r->step, (double)r->loss, r->correct);
}

WEB_EXPORT(train) int web_train(uint64_t seed, int steps)
{
    TrainConfig cfg = train_defaults();
    cfg.seed = seed;
    cfg.steps = steps;
    cfg.observe = observe;
    char why[128];
    web.steps = steps;
    web.n_records = 0;
    web.first_perfect = -1;
    if (fresh_model(seed) != 0)
        return web_fail(1, "out of memory for the transformer");
    TrainResult result = train(&web.g.model, &cfg, NULL, 0);
    clear_output();
    if (result.fault_step != 0)
        return web_fail(1, "%s",
                        training_stopped(why, sizeof why, &result));
    field("first_perfect", "%d", web.first_perfect);
    return 0;
}

WEB_EXPORT(seed_check) int web_seed_check(int length)
{
    char text[32] = "";
    unsigned long long value = 0;
    clear_output();
    if (length > 0 && length < (int)sizeof text)
        memcpy(text, web.input, (size_t)length);
    if (!whole_number(text, &value))
        return web_fail(-1, "the seed '%s' is not a whole number from 0 "
                        "to %llu",
                        length < (int)sizeof text ? text : "(too long)",
                        (unsigned long long)UINT64_MAX);
    field("seed", "%llu", value);
    return 0;
}

typedef struct {
    char label[32];
    int n_heads;
    Ablation off;
    TrainConfig cfg;
    TrainRecord log[WEB_RECORDS];
    int n_records;                  /* so far, while it trains */
    TrainResult result;
    double loss;                    /* on all 100 problems, at the end */
} WebTrial;

static struct {
    WebTrial run[2];                /* the book's model, the other */
    int now;                        /* the run under way */
} trials;

static void experiment_chart(Text *svg)
{
    static float step[2][WEB_RECORDS], loss[2][WEB_RECORDS],
        correct[2][WEB_RECORDS];
    SvgSeries losses[2], scores[2];
    for (int m = 0; m < 2; m++) {
        const WebTrial *run = &trials.run[m];
        training_curves(run->log, run->n_records, step[m], loss[m],
                        correct[m]);
        losses[m] = (SvgSeries){run->label, step[m], loss[m],
                                run->n_records, m, svg_palette(m), 0};
        scores[m] = losses[m];
        scores[m].y = correct[m];
    }
    double steps = trials.run[0].cfg.steps;
    double per_sequence, floor = loss_floor(&per_sequence);
    char floor_label[64];
    snprintf(floor_label, sizeof floor_label, "floor %.3f", floor);
    SvgLinePanel panels[2] = {
        {.title = "Loss", .x_label = "step", .y_label = "cross-entropy",
         .series = losses, .n_series = 2, .log_y = 1, .x_min = 0,
         .x_max = steps, .legend = SVG_LEGEND_BELOW,
         .h_line = {(trials.run[1].off & NO_MASK) != 0, floor,
                    floor_label}},
        {.title = "Score", .x_label = "step",
         .y_label = "problems right", .series = scores, .n_series = 2,
         .x_min = 0, .x_max = steps, .y_min = 0, .y_max = 100,
         .legend = SVG_LEGEND_NONE},
    };
    for (int p = 0; p < 2; p++)
        svg_line_charts(svg, &panels[p], 1, WEB_PANEL, 380);
}

static void observe_trial(const TrainRecord *r, void *context)
{
    WebTrial *run = context;
    run->n_records++;
    clear_output();
    field("run", "%d", trials.now);
    drawing_follows();
    experiment_chart(&web.output);
    page_progress(r->step, (double)r->loss, r->correct);
}

static int train_trial(WebTrial *run, uint64_t seed)
{
    Gpt g;
    if (gpt_create(&g, seed, run->n_heads, MAX_BATCH) != 0)
        return -1;
    g.ablate = run->off;
    run->cfg.seed = seed;
    run->cfg.observe = observe_trial;
    run->cfg.context = run;
    run->result = train(&g.model, &run->cfg, run->log, WEB_RECORDS);
    run->loss = run->result.fault_step != 0
                    ? NAN : (double)loss_on_all_problems(&g.model);
    gpt_destroy(&g);
    return 0;
}

static void name_trial(WebTrial *run, int n_heads, int part, int book)
{
    run->n_heads = n_heads;
    int row = part == 0 ? -1 : ablated_part(part - 1);
    run->off = row < 0 ? 0 : 1u << row;
    run->n_records = 0;
    run->cfg = train_defaults();
    if (part != 0 || book)
        snprintf(run->label, sizeof run->label, "%s",
                 row < 0 ? "book's model" : part_table[row].label);
    else
        snprintf(run->label, sizeof run->label, "%d head%s", n_heads,
                 n_heads > 1 ? "s" : "");
}

WEB_EXPORT(experiment)
int web_experiment(uint64_t seed, int n_heads, int part)
{
    char why[128];
    clear_output();
    if (part < 0 || (part > 0 && ablated_part(part - 1) < 0) || n_heads < 1
        || n_heads > MAX_HEADS || WIDTH % n_heads != 0)
        return web_fail(2, "no such experiment: %d heads, part %d",
                        n_heads, part);
    name_trial(&trials.run[0], N_HEADS, 0, 1);
    name_trial(&trials.run[1], n_heads, part, 0);
    for (trials.now = 0; trials.now < 2; trials.now++)
        if (train_trial(&trials.run[trials.now], seed) != 0)
            return web_fail(1, "out of memory for the transformer");
    clear_output();
    for (int m = 0; m < 2; m++)
        if (trials.run[m].result.fault_step != 0)
            return web_fail(1, "%s, seed %llu: %s", trials.run[m].label,
                            (unsigned long long)seed,
                            training_stopped(why, sizeof why,
                                             &trials.run[m].result));
    return 0;
}

WEB_EXPORT(experiment_results) void web_experiment_results(void)
{
    clear_output();
    for (int m = 0; m < 2; m++) {
        const WebTrial *run = &trials.run[m];
        int n = run->result.n_records;
        field("name[]", "%s", run->label);
        if (run->result.first_perfect < 0)
            field("first[]", "never");
        else
            field("first[]", "%d", run->result.first_perfect);
        field("score[]", "%d", n > 0 ? run->log[n - 1].correct : 0);
        field("loss[]", "%.4f", run->loss);
        field("exact[]", "%.9g", run->loss);
    }
}

WEB_EXPORT(experiment_log) void web_experiment_log(int m)
{
    const WebTrial *run = &trials.run[m != 0];
    clear_output();
    drawing_follows();
    training_log_text(&web.output, &run->cfg, run->log,
                      run->result.n_records);
}

int attention_stepping;

void attention_step(int line, const char *name, int t, int u, int i,
                    double value)
{
    if (u == 0 && i == 0 && strcmp(name, "dot") == 0)
        web.block++;
    if (t != web.pos)
        return;
    field("line[]", "%d", line);
    field("name[]", "%s", name);
    field("head[]", "%d", (web.block - 1) / web.T);
    field("t[]", "%d", t);
    field("u[]", "%d", u);
    field("i[]", "%d", i);
    field("exact[]", "%.9g", value);
    field("shown[]", "%+.3f", value);
}

enum { QUOTED = 176 };

static const char *quoted(char out[QUOTED], const char *text, int length)
{
    int n = 0, chars = 0;
    while (n < length && chars < 40) {
        n++;
        while (n < length && (text[n] & 0xC0) == 0x80)
            n++;                        /* the rest of a UTF-8 character */
        chars++;
    }
    snprintf(out, QUOTED, "'%.*s%s'", n, text,
             n < length ? "\xe2\x80\xa6" : "");    /* an ellipsis */
    return out;
}

static const char *typed_text(int *length)
{
    clear_output();
    if (*length < 0 || *length > WEB_INPUT)
        *length = 0;
    return (const char *)web.input;
}

static int read_sequence(int length, int tokens[SEQ_LEN], int *T)
{
    const char *text = typed_text(&length);
    char quote[QUOTED], why[512];
    if (tokens_read(text, (size_t)length, SEQ_LEN, tokens, T,
                    quoted(quote, text, length), why, sizeof why)
        != TOKENS_OK)
        return web_fail(2, "%s", why);
    return 0;
}

WEB_EXPORT(step) int web_step(int length, int pos)
{
    int tokens[SEQ_LEN], T = 0;
    if (read_sequence(length, tokens, &T) != 0)
        return 2;
    web.T = T;
    web.pos = pos < 0 || pos >= T ? T - 1 : pos;
    web.block = 0;
    attention_stepping = 1;
    gpt_forward(&web.g, tokens, 1, T);
    attention_stepping = 0;
    return 0;
}

static void weight_fields(const Trace *tr, int from, int to)
{
    for (int head = 0; head < tr->n_heads; head++)
        for (int t = from; t <= to; t++) {
            char row[8 * SEQ_LEN];
            for (int u = 0, n = 0; u <= t; u++)
                n += snprintf(row + n, sizeof row - (size_t)n, "%s%.2f",
                              u > 0 ? " " : "",
                              (double)tr->weights[head][t][u]);
            field("weights[]", "%s", row);
        }
}

/* The values of head 0 in map, those of each next head after them; the
   tokens label the columns, and the rows if map does not label them. */
static void head_drawings(SvgHeatmap map, int n_heads, const int *tokens,
                          double height)
{
    static char labels[MAX_T][2];
    static const char *names[MAX_T];
    const float *values = map.values;
    char title[16];
    for (int t = 0; t < map.cols; t++) {
        labels[t][0] = char_of_token(tokens[t]);
        names[t] = labels[t];
    }
    map.col_labels = names;
    map.row_labels = map.row_labels ? map.row_labels : names;
    drawing_follows();
    for (int head = 0; head < n_heads; head++) {
        snprintf(title, sizeof title, "head %d", head);
        map.title = title;
        map.values = values + head * map.rows * map.cols;
        svg_heatmaps(&web.output, &map, 1, 1,
                     (SvgColorScale){SVG_SEQUENTIAL, 0, 1, "weight"},
                     WEB_PANEL, height);
    }
}

WEB_EXPORT(weights) int web_weights(int length)
{
    static Trace tr;
    static float values[MAX_HEADS * SEQ_LEN * SEQ_LEN];
    int tokens[SEQ_LEN], T = 0;
    if (read_sequence(length, tokens, &T) != 0)
        return 2;
    gpt_trace(&web.g, tokens, T, &tr);
    for (int head = 0; head < tr.n_heads; head++)
        for (int t = 0; t < T; t++)
            for (int u = 0; u < T; u++)
                values[(head * T + t) * T + u] =
                    u > t ? NAN : (float)tr.weights[head][t][u];
    field("next", "%c", char_of_token(argmax(tr.logits[T - 1], VOCAB)));
    weight_fields(&tr, 0, T - 1);
    head_drawings((SvgHeatmap){NULL, "$u$ (read)", "$t$ (reading)", T, T,
                               values, NULL, NULL, "%.2f", 1},
                  tr.n_heads, tokens, 300);
    return 0;
}

static int read_question(int length, int *problem)
{
    int tokens[SEQ_LEN], T = 0;
    size_t where = 0;
    const char *text = typed_text(&length);
    char quote[QUOTED];
    if (tokens_parse(text, (size_t)length, SEQ_LEN, tokens, &T, &where)
            != TOKENS_OK
        || (*problem = question_of_tokens(tokens, T)) < 0)
        return web_fail(2, "%s is not a problem: write a digit, '*', a "
                        "digit and '=', as in 7*8=",
                        quoted(quote, text, length));
    return 0;
}

static int read_patch(int length, Patch *patch, int tokens[MAX_T],
                      int other[MAX_T], int *problem)
{
    const char *text = typed_text(&length);
    int T = EQUALS_AT + 1, T_other = 0;
    const char *space = memchr(text, ' ', (size_t)length);
    int first = space ? (int)(space - text) : length;
    if (read_question(first, problem) != 0)
        return 2;
    problem_tokens(*problem, tokens);
    if (patch->source == PATCH_OTHER) {
        size_t where = 0;
        int from = space ? (int)(text + length - space - 1) : 0;
        if (tokens_parse(space ? space + 1 : "", (size_t)from, SEQ_LEN,
                         other, &T_other, &where) != TOKENS_OK
            || T_other != T)
            return web_fail(2, "the other problem must be as long as the "
                            "question, as in 3*6=");
    }
    if (patch->heads == (1u << MAX_HEADS) - 1)      /* every head */
        patch->heads = (1u << web.g.n_heads) - 1;
    if (patch->heads >> web.g.n_heads != 0)
        return web_fail(2, "this model has %d heads, 0 to %d",
                        web.g.n_heads, web.g.n_heads - 1);
    if (patch->site > PATCH_VALUE || patch->source > PATCH_OTHER
        || patch->heads == 0 || patch->pos < 0 || patch->pos >= T)
        return web_fail(2, "no such patch");
    patch->row = T - 1;
    return 0;
}

WEB_EXPORT(patch)
int web_patch(int length, int site, int source, int heads, int pos)
{
    static float values[MAX_HEADS * 2 * MAX_T];
    static const char *const runs[2] = {"computed", "patched"};
    Patch patch = {(PatchSite)site, (PatchSource)source, (unsigned)heads,
                   0, pos};
    int tokens[MAX_T], other[MAX_T], problem = 0;
    PatchRun run;
    char right[8];
    if (site < 0 || source < 0 || heads < 0)
        return web_fail(2, "no such patch");
    if (read_patch(length, &patch, tokens, other, &problem) != 0)
        return 2;
    int T = patch.row + 1;
    problem_answer(problem, right);
    if (patch_run(&web.g, &patch, tokens, T, other, token_of_char(right[0]),
                  &run) != 0)
        return web_fail(2, "no numbers for this patch");
    field("right", "%s", right);
    field("clean", "%s", run.answer[0]);
    field("patched", "%s", run.answer[1]);
    field("diff_clean", "%.3f", run.difference[0]);
    field("diff_patched", "%.3f", run.difference[1]);
    for (int head = 0; head < web.g.n_heads; head++)
        for (int k = 0; k < 2; k++)
            for (int u = 0; u < T; u++)
                values[(head * 2 + k) * T + u] = (float)run.weights[k][head][u];
    head_drawings((SvgHeatmap){NULL, "$u$ (read)", NULL, 2, T, values, runs,
                               NULL, "%.2f", 0}, web.g.n_heads, tokens, 190);
    return 0;
}

WEB_EXPORT(swap) int web_swap(int length)
{
    int problem = 0, pick_a = 0, pick_b = 0;
    real pick = 0;
    if (read_question(length, &problem) != 0)
        return 2;
    int a = problem / 10, b = problem % 10;
    int visited = most_changed_pair(&web.g, &pick_a, &pick_b, &pick);
    field("a", "%d", a);
    field("b", "%d", b);
    field("change", "%.2f", (double)swap_change(&web.g, a, b));
    field("head", "%d", head_following_a_digit(&web.g, a, b));
    field("visited", "%d", visited);
    field("pick_a", "%d", pick_a);
    field("pick_b", "%d", pick_b);
    field("pick_change", "%.2f", (double)pick);
    for (int order = 0; order < 2; order++) {   /* a*b=, then b*a= */
        real w[MAX_HEADS][4];
        question_weights(&web.g, order ? b : a, order ? a : b, w);
        for (int head = 0; head < web.g.n_heads; head++)
            field("weights[]", "%.2f %.2f %.2f %.2f", (double)w[head][0],
                  (double)w[head][1], (double)w[head][2],
                  (double)w[head][3]);
    }
    drawing_follows();
    view_swap(&web.output, &web.g, a, b, VIEW_APART);
    return 0;
}

WEB_EXPORT(own_output) int web_own_output(int length)
{
    static Trace tr;
    int problem = 0;
    if (read_question(length, &problem) != 0)
        return 2;
    int top = trace_own_output(&web.g, problem, &tr), row = EQUALS_AT + 1;
    char tokens[SEQ_LEN + 1] = "";
    for (int u = 0; u <= row; u++)
        tokens[u] = char_of_token(tr.tokens[u]);
    field("tokens", "%s", tokens);
    field("next", "%c", char_of_token(argmax(tr.logits[row], VOCAB)));
    field("row", "%d", row);
    field("top", "%d", top);
    field("most", "%d", reads_own_output_most(&tr, top));
    weight_fields(&tr, row, row);
    return 0;
}

WEB_EXPORT(neuron) int web_neuron(int c)
{
    static real h[N_PROBLEMS * HIDDEN];
    static float values[N_CONCEPTS][N_PROBLEMS];
    static char titles[N_CONCEPTS][96];
    clear_output();
    if (c < 0 || c >= N_CONCEPTS)
        return web_fail(2, "concept %d: the concepts are 0 to %d", c,
                        N_CONCEPTS - 1);
    activations_at_equals(&web.g, h, NULL);
    NeuronFound found = search_neuron(h, &concepts[c]);
    field("count", "%d", found.count);
    field("neuron", "%d", found.neuron);
    field("d", "%.2f", found.d);
    field("right", "%d", found.right);
    for (int p = 0; p < N_PROBLEMS; p++) {
        values[c][p] = (float)h[p * HIDDEN + found.neuron];
        field("value[]", "%.2f", (double)values[c][p]);
    }
    drawing_follows();
    snprintf(titles[c], sizeof titles[c], "%s\nneuron %d, $d$ = %.2f",
             concepts[c].name, found.neuron, found.d);
    NeuronTable table = view_neuron_table(titles[c], values[c]);
    double right = WEB_PANEL - 16;     /* the colour bar ends here */
    double bar = table.bar;
    svg_begin(&web.output, WEB_PANEL, 300);
    svg_heatmap_panel(&web.output, (SvgRect){10, 10, right - bar - 16, 290},
                      &table.map, table.scale);
    svg_color_bar(&web.output, (SvgRect){right - bar - 2, 45, bar, 205},
                  table.scale);
    svg_end(&web.output);
    return 0;
}

WEB_EXPORT(scree) int web_scree(void)
{
    static real h[N_PROBLEMS * HIDDEN], in[N_PROBLEMS * WIDTH];
    double share[HIDDEN], share_in[WIDTH];
    clear_output();
    activations_at_equals(&web.g, h, in);
    int count = directions_for_90(h, HIDDEN, share);
    int count_in = directions_for_90(in, WIDTH, share_in);
    if (count < 0 || count_in < 0)
        return web_fail(1, "%s", count == -2 || count_in == -2
                        ? "out of memory"
                        : "the eigen-solver did not converge");
    field("count", "%d", count);
    field("count_in", "%d", count_in);
    field("first", "%.0f", 100 * share[0]);
    drawing_follows();
    view_scree(&web.output, share, count, share_in, VIEW_APART);
    return 0;
}

WEB_EXPORT(wiring) int web_wiring(int lit)
{
    WireBand band[N_WIRE_STAGES];
    clear_output();
    if (lit < 0 || lit >= N_WIRE_STAGES)
        return web_fail(2, "there is no stage %d: the block has %d", lit,
                        N_WIRE_STAGES);
    const WireStage *s = &wire_stages[lit];
    for (int k = 0; k < N_WIRE_STAGES; k++)
        field("stage[]", "%s", wire_stages[k].what);
    field("what", "%s", s->what);
    field("branch", "%d", s->branch);
    for (int i = 0; i < s->n_tables; i++)
        field("table[]", "%s %d %d", gpt_tables[s->table[i]].name,
              gpt_tables[s->table[i]].rows, gpt_tables[s->table[i]].cols);
    wiring_bands(VIEW_NARROW, band);
    for (int k = 0; k < N_WIRE_STAGES; k++)
        field("band[]", "%.1f %.1f", band[k].top, band[k].bottom);
    drawing_follows();
    int heads = web.has_model ? web.g.n_heads : N_HEADS;
    return view_wiring(&web.output, heads, lit, VIEW_NARROW) < 0;
}

