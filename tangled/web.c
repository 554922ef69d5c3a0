/* web.c: the core as the live book's page sees it, compiled to
   WebAssembly (tangled; edit attention.nw) */
#include "core.h"
#include "checkpoint.h"
#include "dissect.h"
#include "svg.h"
#include "views.h"
#include <errno.h>
#include <math.h>                   /* NAN: a masked cell of a heatmap */
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
    int n_records, first_perfect;
    uint64_t seed;                      /* the seed the reader typed */
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
        return text_printf(&web.output,
                           "out of memory for the transformer"), 1;
    if (length < 0 || length > WEB_INPUT)
        return text_printf(&web.output, "a checkpoint larger than %d bytes",
                           WEB_INPUT), 1;
    if (checkpoint_decode(&web.g, web.input, (size_t)length, why,
                          sizeof why) != CHECKPOINT_OK)
        return text_printf(&web.output, "%s", why), 1;
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

static void training_chart(Text *svg, int steps)
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
         .x_max = steps, .y_min = 0.3, .y_max = 3,
         .legend = SVG_LEGEND_NONE},
        {.title = "Score", .x_label = "step", .y_label = "problems right",
         .series = &scores, .n_series = 1, .x_min = 0, .x_max = steps,
         .y_min = 0, .y_max = 100, .legend = SVG_LEGEND_NONE,
         .v_line = {web.first_perfect > 0, web.first_perfect, marker}},
    };
    for (int p = 0; p < 2; p++)
        svg_line_charts(svg, &panels[p], 1, NULL, WEB_PANEL, 300);
}

static void training_stopped(Text *out, const TrainResult *r)
{
    text_printf(out, "training stopped at step %d: ", r->fault_step);
    if (r->fault_table < 0)
        text_printf(out, "the loss is not a finite number; "
                    "nothing was saved");
    else
        text_printf(out, "table %s holds a NaN or infinity; "
                    "nothing was saved", gpt_tables[r->fault_table].name);
}

typedef struct { int steps; } WebRun;

static void observe(const TrainRecord *r, void *context)
{
    const WebRun *run = context;
    if (web.n_records < WEB_RECORDS)
        web.log[web.n_records++] = *r;
    if (r->correct == N_PROBLEMS && web.first_perfect < 0)
        web.first_perfect = r->step;
    clear_output();
    training_chart(&web.output, run->steps);
    page_progress(r->step, (double)r->loss, r->correct);
}

WEB_EXPORT(train) int web_train(uint64_t seed, int steps)
{
    WebRun run = {steps};
    TrainConfig cfg = train_defaults();
    cfg.seed = seed;
    cfg.steps = steps;
    cfg.observe = observe;
    cfg.context = &run;
    web.n_records = 0;
    web.first_perfect = -1;
    if (fresh_model(seed) != 0)
        return text_printf(&web.output,
                           "out of memory for the transformer"), 1;
    TrainResult result = train(&web.g.model, &cfg, NULL, 0);
    clear_output();
    if (result.fault_step != 0)
        return training_stopped(&web.output, &result), 1;
    return 0;
}

WEB_EXPORT(first_perfect) int web_first_perfect(void)
{
    return web.first_perfect;
}

WEB_EXPORT(seed_check) int web_seed_check(int length)
{
    char text[32] = "";
    unsigned long long value = 0;
    clear_output();
    if (length > 0 && length < (int)sizeof text)
        memcpy(text, web.input, (size_t)length);
    if (!whole_number(text, &value))
        return text_printf(&web.output, "the seed '%s' is not a whole "
                           "number from 0 to %llu",
                           length < (int)sizeof text ? text : "(too long)",
                           (unsigned long long)UINT64_MAX), -1;
    web.seed = value;
    return 0;
}

WEB_EXPORT(seed) uint64_t web_seed(void) { return web.seed; }

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

WEB_EXPORT(parts) int web_parts(void)
{
    clear_output();
    for (int i = 0; i < N_ABLATED; i++)
        text_printf(&web.output, "%s\n", part_table[i].what);
    return N_ABLATED;
}

static void experiment_chart(Text *svg);

static void observe_trial(const TrainRecord *r, void *context)
{
    WebTrial *run = context;
    run->n_records++;
    clear_output();
    experiment_chart(&web.output);
    page_progress(r->step, (double)r->loss, r->correct);
}

static int train_trial(WebTrial *run, uint64_t seed)
{
    Gpt g;
    if (gpt_create(&g, seed, run->n_heads, MAX_BATCH) != 0)
        return -1;
    g.ablate = run->off;
    run->cfg = train_defaults();
    run->cfg.seed = seed;
    run->cfg.observe = observe_trial;
    run->cfg.context = run;
    run->result = train(&g.model, &run->cfg, run->log, WEB_RECORDS);
    run->loss = run->result.fault_step != 0
                    ? NAN : (double)loss_on_all_problems(&g.model);
    gpt_destroy(&g);
    return 0;
}

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
         .h_line = {trials.run[1].off.no_mask, floor, floor_label}},
        {.title = "Score", .x_label = "step",
         .y_label = "problems right", .series = scores, .n_series = 2,
         .x_min = 0, .x_max = steps, .y_min = 0, .y_max = 100,
         .legend = SVG_LEGEND_NONE},
    };
    for (int p = 0; p < 2; p++)
        svg_line_charts(svg, &panels[p], 1, NULL, WEB_PANEL, 380);
}

static void name_trial(WebTrial *run, int n_heads, int part, int book)
{
    run->n_heads = n_heads;
    run->off = ablation_of_parts(part == 0 ? 0 : 1u << (part - 1));
    run->n_records = 0;
    run->cfg = train_defaults();
    if (part != 0 || book)
        snprintf(run->label, sizeof run->label, "%s",
                 part == 0 ? "book's model" : part_table[part - 1].label);
    else
        snprintf(run->label, sizeof run->label, "%d head%s", n_heads,
                 n_heads > 1 ? "s" : "");
}

WEB_EXPORT(experiment)
int web_experiment(uint64_t seed, int n_heads, int part)
{
    clear_output();
    if (part < 0 || part > N_ABLATED || n_heads < 1
        || n_heads > MAX_HEADS || WIDTH % n_heads != 0)
        return text_printf(&web.output, "no such experiment: %d heads, "
                           "part %d", n_heads, part), 2;
    name_trial(&trials.run[0], N_HEADS, 0, 1);
    name_trial(&trials.run[1], n_heads, part, 0);
    for (trials.now = 0; trials.now < 2; trials.now++)
        if (train_trial(&trials.run[trials.now], seed) != 0)
            return clear_output(), text_printf(&web.output,
                "out of memory for the transformer"), 1;
    clear_output();
    for (int m = 0; m < 2; m++)
        if (trials.run[m].result.fault_step != 0) {
            text_printf(&web.output, "%s, seed %llu: ", trials.run[m].label,
                        (unsigned long long)seed);
            training_stopped(&web.output, &trials.run[m].result);
            return 1;
        }
    return 0;
}

WEB_EXPORT(experiment_run) int web_experiment_run(void)
{
    return trials.now;
}

WEB_EXPORT(experiment_results) void web_experiment_results(void)
{
    clear_output();
    for (int m = 0; m < 2; m++) {
        const WebTrial *run = &trials.run[m];
        int n = run->result.n_records;
        text_printf(&web.output, "%s\t", run->label);
        if (run->result.first_perfect < 0)
            text_printf(&web.output, "never\t");
        else
            text_printf(&web.output, "%d\t", run->result.first_perfect);
        text_printf(&web.output, "%d\t%.4f\t%.9g\n",
                    n > 0 ? run->log[n - 1].correct : 0, run->loss,
                    run->loss);
    }
}

WEB_EXPORT(experiment_log) void web_experiment_log(int m)
{
    const WebTrial *run = &trials.run[m != 0];
    clear_output();
    training_log_text(&web.output, &run->cfg, run->log,
                      run->result.n_records);
}

int attention_stepping;

void attention_step(int line, const char *name, int t, int u, int i,
                    double value)
{
    if (u == 0 && i == 0 && strcmp(name, "dot") == 0)
        web.block++;
    if (t == web.pos)
        text_printf(&web.output, "%d\t%s\t%d\t%d\t%d\t%d\t%.9g\t%+.3f\n",
                    line, name,
                    (web.block - 1) / web.T, t, u, i, value, value);
}

static void quote_input(const char *text, int length)
{
    int n = 0, chars = 0;
    while (n < length && chars < 40) {
        n++;
        while (n < length && (text[n] & 0xC0) == 0x80)
            n++;                        /* the rest of a UTF-8 character */
        chars++;
    }
    text_printf(&web.output, "'%.*s%s'", n, text,
                n < length ? "\xe2\x80\xa6" : "");    /* an ellipsis */
}

static int read_sequence(int length, int tokens[SEQ_LEN], int *T)
{
    size_t where = 0;
    const char *text = (const char *)web.input;
    clear_output();
    if (length < 0 || length > WEB_INPUT)
        length = 0;
    TokensFault defect = tokens_parse(text, (size_t)length, SEQ_LEN, tokens,
                                      T, &where);
    char name[32];
    if (defect == TOKENS_NOT_A_TOKEN) {
        size_t position = char_named(name, text, (size_t)length, where);
        quote_input(text, length);
        return text_printf(&web.output, ": %s at position %zu is not a "
                           "token (the tokens are 0-9 * = ;)", name,
                           position), 2;
    }
    if (defect != TOKENS_OK)
        return quote_input(text, length),
               text_printf(&web.output, " %s: this model reads 1 to %d "
                           "tokens", tokens_fault_text(defect), SEQ_LEN), 2;
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

WEB_EXPORT(weights) int web_weights(int length)
{
    static Trace tr;
    static float values[MAX_HEADS][SEQ_LEN * SEQ_LEN];
    static char titles[MAX_HEADS][16], labels[SEQ_LEN][2];
    static const char *names[SEQ_LEN];
    SvgHeatmap maps[MAX_HEADS];
    int tokens[SEQ_LEN], T = 0;
    if (read_sequence(length, tokens, &T) != 0)
        return -1;
    gpt_trace(&web.g, tokens, T, &tr);
    for (int t = 0; t < T; t++) {
        labels[t][0] = char_of_token(tokens[t]);
        names[t] = labels[t];
    }
    for (int head = 0; head < tr.n_heads; head++) {
        for (int t = 0; t < T; t++)
            for (int u = 0; u < T; u++)
                values[head][t * T + u] =
                    u > t ? NAN : (float)tr.weights[head][t][u];
        snprintf(titles[head], sizeof titles[head], "head %d", head);
        maps[head] = (SvgHeatmap){titles[head], "u (read)", "t (reading)",
                                  T, T,
                                  values[head], names, names, "%.2f", 1};
    }
    SvgColorScale scale = {SVG_SEQUENTIAL, 0, 1, "weight"};
    for (int head = 0; head < tr.n_heads; head++)
        svg_heatmaps(&web.output, &maps[head], 1, 1, NULL, scale,
                     WEB_PANEL, 300);
    return char_of_token(argmax(tr.logits[T - 1], VOCAB));
}

static int read_question(int length, int *problem)
{
    int tokens[SEQ_LEN], T = 0;
    size_t where = 0;
    const char *text = (const char *)web.input;
    clear_output();
    if (length < 0 || length > WEB_INPUT)
        length = 0;
    if (tokens_parse(text, (size_t)length, SEQ_LEN, tokens, &T, &where)
            != TOKENS_OK
        || (*problem = question_of_tokens(tokens, T)) < 0)
        return quote_input(text, length),
               text_printf(&web.output, " is not a problem: write a "
                           "digit, '*', a digit and '=', as in 7*8="), 2;
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
    text_printf(&web.output, "%d\t%d\t%.2f\t%d\t%d\t%d\t%d\t%.2f\n", a, b,
                (double)swap_change(&web.g, a, b),
                head_following_a_digit(&web.g, a, b), visited, pick_a,
                pick_b, (double)pick);
    view_swap(&web.output, &web.g, a, b, 1);
    return 0;
}

WEB_EXPORT(own_output) int web_own_output(int length)
{
    static Trace tr;
    int problem = 0;
    if (read_question(length, &problem) != 0)
        return 2;
    int top = trace_own_output(&web.g, problem, &tr);
    for (int u = 0; u < 5; u++)
        text_printf(&web.output, "%c", char_of_token(tr.tokens[u]));
    text_printf(&web.output, "\t%c\t%d\t%d\n",
                char_of_token(argmax(tr.logits[4], VOCAB)), top,
                reads_own_output_most(&tr, top));
    for (int head = 0; head < tr.n_heads; head++)
        for (int u = 0; u < 5; u++)
            text_printf(&web.output, "%.2f%c",
                        (double)tr.weights[head][4][u],
                        u < 4 ? '\t' : '\n');
    return 0;
}

WEB_EXPORT(concepts) int web_concepts(void)
{
    clear_output();
    for (int c = 0; c < N_CONCEPTS; c++)
        text_printf(&web.output, "%s\n", concepts[c].name);
    return N_CONCEPTS;
}

WEB_EXPORT(neuron) int web_neuron(int c)
{
    static real h[N_PROBLEMS * HIDDEN];
    static float values[N_CONCEPTS][N_PROBLEMS];
    static char titles[N_CONCEPTS][96];
    clear_output();
    if (c < 0 || c >= N_CONCEPTS)
        return text_printf(&web.output, "concept %d: the concepts are 0 to "
                           "%d", c, N_CONCEPTS - 1), 2;
    activations_at_equals(&web.g, h, NULL);
    NeuronFound found = search_neuron(h, &concepts[c]);
    text_printf(&web.output, "%d\t%d\t%.2f\t%d\n", found.count,
                found.neuron, found.d, found.right);
    for (int p = 0; p < N_PROBLEMS; p++) {
        values[c][p] = (float)h[p * HIDDEN + found.neuron];
        text_printf(&web.output, "%.2f%c", (double)values[c][p],
                    p + 1 < N_PROBLEMS ? '\t' : '\n');
    }
    snprintf(titles[c], sizeof titles[c], "%s\nneuron %d, d = %.2f",
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
        return text_printf(&web.output, count == -2 || count_in == -2
                           ? "out of memory"
                           : "the eigen-solver did not converge"), 1;
    text_printf(&web.output, "%d\t%d\t%.0f\n", count, count_in,
                100 * share[0]);
    view_scree(&web.output, share, count, share_in, 1);
    return 0;
}

