#line 4009 "attention.nw"
/* main.c: the command-line program (tangled; edit attention.nw) */
#define _POSIX_C_SOURCE 200809L
#include "attention.h"
#include "svg.h"
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#line 4055 "attention.nw"
static int fail(const char *format, ...);
static int fail_errno(const char *path, int error);
typedef struct Run Run;
static size_t disk_space_for_tests(size_t length);
static void show_progress(const TrainRecord *r, void *context);
static void report_training(const Run *run, const char *output);
static int save_training_log(const char *checkpoint, const Run *run);
static int load_training_log(const char *checkpoint, Run *run);
static void print_trace(const Trace *tr, int t, const char *text);
static int table_of_tables(const char *dir, const Params *p);
static void numbers_of_chapters_2_to_4(Text *out, Gpt *g);
static double closest_tokens(const Gpt *g, int *a, int *b);
static int claims_hold(const Run *gpt, const Run *mlp, Gpt *g);
static void numbers_of_the_flop_count(Text *out);
static void numbers_of_the_normal_functions(Text *out);
static double float_ulps(double value, double exact);
static void scientific(Text *out, const char *name, double x);
static double time_evaluation(void);
static int figure_training(const char *fig, const Run *gpt, const Run *mlp);
static int figure_token_embedding(const char *fig, const Gpt *g);
static int trace_of_chapter_5(const char *dir, const char *fig, Text *numbers, Gpt *g);
static void numbers_of_the_trace(Text *out, const Trace *tr, int t);
static int table_of_the_trace(const char *dir, const Trace *tr, int t);
static int figure_trace_weights(const char *fig, const Trace *tr);
#line 4625 "attention.nw"
enum { MAX_STEPS = 1000000, MAX_WORDS = 256 };
#line 4748 "attention.nw"
typedef struct {
    int progress;                   /* print a progress line */
    int corrupt_step, corrupt_table; /* test hook: at this record, a NaN */
    Gpt *g;
} Watcher;
static void watch_training(const TrainRecord *r, void *context);
static int training_fault(const Run *run, const Params *p);
#line 5484 "attention.nw"
static int proofs_of_chapter_6(const char *dir, const char *fig, Text *numbers, Gpt *g);
static int checks_of_chapter_7(const char *model, const char *dir, const char *fig,
                               Text *numbers, Gpt *g);
static int table_of_own_output(const char *dir, const Trace *tr, int t);
#line 6244 "attention.nw"
typedef struct Trials Trials;
static int claims_of_chapter_7(const Trials *trials, Gpt *g);
static int numbers_and_figures_of_chapter_7(const char *dir, const char *fig, Text *numbers,
                                            Trials *trials, Gpt *g);
#line 6359 "attention.nw"
typedef struct Trained Trained;
typedef struct Experiments Experiments;
typedef struct Quota Quota;
static int experiments_of_chapter_8(const char *dir, const char *fig, Text *numbers,
                                    Gpt *g, Experiments *e);
static int experiments_of_chapter_9(const char *dir, const char *fig, Text *numbers,
                                    Gpt *g, Experiments *e);
static int figure_scree(const char *fig, const double *share, int count,
                        const double *share_in);
static int claims_of_chapter_8(const Experiments *e, const Quota *quota);
static int claims_of_chapter_9(const Experiments *e, double collapse,
                               const double separations[], const int neurons[]);
#line 6552 "attention.nw"
enum { EQUALS_AT = 3 };             /* the position of the = */
#line 4082 "attention.nw"
static int write_file(const char *path, const char *data, size_t length)
{
    char temporary[4096];
    if (snprintf(temporary, sizeof temporary, "%s.tmp", path) >= (int)sizeof temporary)
        return fail_errno(path, ENAMETOOLONG);
    FILE *f = fopen(temporary, "wb");
    if (f == NULL)
        return fail_errno(temporary, errno);
    size_t limit = disk_space_for_tests(length);
    size_t written = fwrite(data, 1, limit, f);
    int error = written != length ? (limit < length ? ENOSPC : errno) : 0;
    if (fclose(f) != 0 && error == 0)
        error = errno;
    if (error == 0 && rename(temporary, path) != 0)
        error = errno;
    if (error != 0) {
        remove(temporary);
        return fail_errno(path, error);
    }
    return 0;
}
#line 4113 "attention.nw"
static size_t disk_space_for_tests(size_t length)
{
    const char *hook = getenv("ATTENTION_TEST_DISK_BYTES");
    unsigned long long space = 0;
    if (hook == NULL || sscanf(hook, "%llu", &space) != 1 || space >= length)
        return length;
    return (size_t)space;
}
#line 4128 "attention.nw"
static int fail(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fputs("attention: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    return -1;
}

static int fail_errno(const char *path, int error)
{
    return fail("cannot write %s: %s", path, strerror(error ? error : EIO));
}
#line 4146 "attention.nw"
static int make_directory(const char *path)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return fail("cannot create directory %s: %s", path, strerror(errno));
    return 0;
}
#line 4158 "attention.nw"
static int save_text(const char *dir, const char *name, Text *text)
{
    char path[4096];
    int result;
    if (text->failed)
        result = fail("out of memory while drawing %s", name);
    else if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        result = fail("path too long: %s/%s", dir, name);
    else
        result = write_file(path, text->data, text->len);
    text_free(text);
    return result;
}
#line 4181 "attention.nw"
static unsigned char *read_file(const char *path, size_t *length, size_t limit)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return fail("cannot read %s: %s", path, strerror(errno)), NULL;
    unsigned char *data = malloc(limit + 1);
    size_t n = data ? fread(data, 1, limit + 1, f) : 0;
    int error = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (data == NULL || error != 0 || n > limit) {
        if (data == NULL) fail("out of memory reading %s", path);
        else if (error) fail("cannot read %s: %s", path, strerror(error));
        else fail("cannot load %s: larger than any checkpoint (over %zu bytes)", path, limit);
        free(data);
        return NULL;
    }
    *length = n;
    return data;
}
#line 4203 "attention.nw"
static int save_checkpoint(const char *path, const Params *p, int n_heads)
{
    size_t size = checkpoint_size(p);
    unsigned char *bytes = malloc(size);
    if (bytes == NULL)
        return fail("out of memory saving %s", path);
    checkpoint_encode(bytes, p, n_heads);
    int status = write_file(path, (const char *)bytes, size);
    free(bytes);
    return status;
}

static int load_checkpoint(const char *path, Params *p, int n_heads)
{
    size_t length = 0;
    char why[256];
    unsigned char *bytes = read_file(path, &length, 2 * checkpoint_size(p));
    if (bytes == NULL)
        return -1;
    const char *problem = checkpoint_decode(p, n_heads, bytes, length, why, sizeof why);
    free(bytes);
    if (problem != NULL)
        return fail("cannot load %s: %s", path, problem);
    return 0;
}
#line 4239 "attention.nw"
static void number(Text *numbers, const char *name, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    char value[256];
    vsnprintf(value, sizeof value, format, args);
    va_end(args);
    text_printf(numbers, "%s %s\n", name, value);
}
#line 6329 "attention.nw"
static int decimals_for(double x)
{
    return x > 0 && x < 1 ? (int)ceil(-log10(x) + 1e-9) : 0;
}
#line 4517 "attention.nw"
static int usage_error(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fputs("attention: ", stderr);
    vfprintf(stderr, format, args);
    fputs("\nTry 'attention --help'.\n", stderr);
    va_end(args);
    return 2;
}

static int is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}
#line 4535 "attention.nw"
static int parse_whole(const char *option, const char *text,
                       unsigned long long min, unsigned long long max,
                       unsigned long long *value)
{
    char *end = NULL;
    errno = 0;
    if (text[0] >= '0' && text[0] <= '9')
        *value = strtoull(text, &end, 10);
    if (end == NULL || *end != '\0' || errno == ERANGE || *value < min || *value > max)
        return usage_error("%s: '%s' is not a whole number from %llu to %llu",
                           option, text, min, max);
    return 0;
}
#line 4555 "attention.nw"
typedef struct {
    uint64_t seed;
    int steps, pos;                 /* pos < 0: the last position */
    int repeat;                     /* bench: timed runs */
    const char *model, *output, *part;
    const char *words[MAX_WORDS];   /* arguments that are not options */
    int n_words;
} Arguments;
#line 4566 "attention.nw"
static int parse_arguments(int argc, char **argv, const char *accepted,
                           Arguments *a)
{
    *a = (Arguments){train_defaults().seed, train_defaults().steps, -1, 5,
                     "attention.ckpt", NULL, NULL, {NULL}, 0};
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (a->n_words == MAX_WORDS)
                return usage_error("%s: too many arguments", argv[1]);
            a->words[a->n_words++] = arg;
            continue;
        }
        
#line 4589 "attention.nw"
char wanted[32];
snprintf(wanted, sizeof wanted, " %s ", arg);
char list[128];
snprintf(list, sizeof list, " %s ", accepted);
if (strlen(arg) > 16 || strstr(list, wanted) == NULL)
    return usage_error("%s: unknown option '%s'", argv[1], arg);
if (i + 1 >= argc)
    return usage_error("%s: option %s needs a value", argv[1], arg);
const char *value = argv[++i];
unsigned long long number = 0;
int status = 0;
if (strcmp(arg, "--seed") == 0 && (status = parse_whole(arg, value, 0, UINT64_MAX, &number)) == 0)
    a->seed = number;
else if (strcmp(arg, "--steps") == 0 && (status = parse_whole(arg, value, 1, MAX_STEPS, &number)) == 0)
    a->steps = (int)number;
else if (strcmp(arg, "--pos") == 0 && (status = parse_whole(arg, value, 0, SEQ_LEN - 1, &number)) == 0)
    a->pos = (int)number;
else if (strcmp(arg, "--repeat") == 0 && (status = parse_whole(arg, value, 1, 64, &number)) == 0)
    a->repeat = (int)number;
else if (strcmp(arg, "-m") == 0)
    a->model = value;
else if (strcmp(arg, "-o") == 0)
    a->output = value;
else if (strcmp(arg, "--part") == 0)
    a->part = value;
if (status != 0)
    return status;
if (value[0] == '\0')
    return usage_error("%s: option %s needs a non-empty value", argv[1], arg);
#line 4580 "attention.nw"
    }
    return 0;
}
#line 4634 "attention.nw"
static const char *quoted(const char *text)
{
    static char out[256];
    size_t n = 0, i = 0;
    out[n++] = '\'';
    for (; text[i] != '\0' && i < 40; i++) {
        unsigned char c = (unsigned char)text[i];
        n += (size_t)snprintf(out + n, sizeof out - n, c >= 32 && c < 127 ? "%c" : "\\x%02x", c);
    }
    snprintf(out + n, sizeof out - n, "%s'", text[i] != '\0' ? "..." : "");
    return out;
}
#line 4653 "attention.nw"
static int parse_tokens(const char *text, int tokens[SEQ_LEN], int *length)
{
    size_t where = 0;
    const char *defect = tokens_parse(text, strlen(text), tokens, length, &where);
    if (defect == NULL)
        return 0;
    if (strcmp(defect, "holds a character that is not a token") == 0)
        return usage_error("%s: the character at position %zu is not a token "
                           "(the tokens are 0-9 * = ;)", quoted(text), where);
    return usage_error("%s %s: a sequence has 1 to %d tokens", quoted(text), defect, SEQ_LEN);
}
#line 4670 "attention.nw"
static int parse_question(const char *text, int *problem)
{
    int tokens[SEQ_LEN], length = 0;
    size_t where;
    if (tokens_parse(text, strlen(text), tokens, &length, &where) != NULL
        || (*problem = question_of_tokens(tokens, length)) < 0)
        return usage_error("%s is not a problem: write a digit, '*', a digit "
                           "and '=', as in 7*8=", quoted(text));
    return 0;
}
#line 4451 "attention.nw"
static Gpt *new_transformer(uint64_t seed)
{
    Gpt *g = malloc(sizeof *g);
    if (g == NULL || gpt_create(g, seed, N_HEADS, MAX_BATCH) != 0) {
        free(g);
        fail("out of memory for the transformer");
        return NULL;
    }
    return g;
}

static void delete_transformer(Gpt *g)
{
    if (g != NULL)
        gpt_destroy(g);
    free(g);
}
#line 4479 "attention.nw"
static int forms_agree_at_start_up(void)
{
    Gpt *g = new_transformer(train_defaults().seed);
    if (g == NULL)
        return -1;
    int agree = gpt_forms_agree(g, 7 * 10 + 8);
    delete_transformer(g);
    if (!agree)
        return fail("the classic and the production form of attention disagree "
                    "on 7*8=; refusing to run (see chapter 5)");
    return 0;
}
#line 4497 "attention.nw"
static Gpt *load_transformer(const char *path)
{
    Gpt *g = new_transformer(0);
    if (g != NULL && load_checkpoint(path, &g->model.p, g->n_heads) != 0) {
        delete_transformer(g);
        return NULL;
    }
    return g;
}
#line 4257 "attention.nw"
enum { MAX_RECORDS = 1024 };
struct Run {
    TrainConfig cfg;
    TrainResult result;
    TrainRecord log[MAX_RECORDS];
};
#line 4366 "attention.nw"
static void curves_of(const Run *run, float *step, float *loss, float *correct)
{
    for (int r = 0; r < run->result.n_records; r++) {
        step[r] = (float)run->log[r].step;
        loss[r] = (float)run->log[r].loss;
        correct[r] = (float)run->log[r].correct;
    }
}
#line 4404 "attention.nw"
static const char *const digit_labels[N_DIGITS] =
    {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};
#line 5222 "attention.nw"
static double loss_floor(double *targets_per_sequence)
{
    int targets = 0;
    for (int p = 0; p < N_PROBLEMS; p++) {
        int tokens[SEQ_LEN];
        targets += problem_tokens(p, tokens) - 1;
    }
    *targets_per_sequence = targets / (double)N_PROBLEMS;
    return N_PROBLEMS * log(10.0) / targets;
}
#line 5336 "attention.nw"
static double cosine(const real *x, const real *y, int n)
{
    double xy = 0, xx = 0, yy = 0;
    for (int i = 0; i < n; i++) {
        xy += (double)x[i] * (double)y[i];
        xx += (double)x[i] * (double)x[i];
        yy += (double)y[i] * (double)y[i];
    }
    return xy / sqrt(xx * yy);
}
#line 5407 "attention.nw"
static void trace_table_head(Text *md, const Trace *tr, int t,
                             const char *left, const char *left_rule)
{
    text_printf(md, "%s", left);
    for (int u = 0; u <= t; u++)
        text_printf(md, " $u = %d$ (`%c`) |", u, char_of_token(tr->tokens[u]));
    text_printf(md, "\n%s", left_rule);
    for (int u = 0; u <= t; u++)
        text_printf(md, "--:|");
}
#line 5776 "attention.nw"
enum { N_SEEDS = 3, N_VARIANTS = 5 };
typedef struct { const char *name, *label; Ablation off; } Variant;
static const Variant variants[N_VARIANTS] = {
    {"full", "book's model", {0, 0, 0, 0, 0}},
    {"no_position", "no position vectors", {1, 0, 0, 0, 0}},
    {"no_mask", "no causal mask", {0, 1, 0, 0, 0}},
    {"no_residual", "no residual", {0, 0, 1, 0, 0}},
    {"no_layernorm", "no LayerNorm", {0, 0, 0, 1, 0}},
};
struct Trials {
    Run run[N_SEEDS];
    double loss[N_SEEDS];           /* on all 100 problems, at the end */
    Gpt *first;                     /* the model of the first seed, kept */
};
#line 5798 "attention.nw"
static Gpt *train_transformer(Run *run, const TrainConfig *cfg, int n_heads,
                              Ablation off)
{
    Gpt *g = malloc(sizeof *g);
    if (g == NULL || gpt_create(g, cfg->seed, n_heads, MAX_BATCH) != 0) {
        free(g);
        fail("out of memory for a transformer");
        return NULL;
    }
    g->ablate = off;
    run->cfg = *cfg;
    run->result = train(&g->model, &run->cfg, run->log, MAX_RECORDS);
    return g;
}
#line 4266 "attention.nw"
static int run_mlp(Run *run, size_t *n_params)
{
    Mlp *mlp = malloc(sizeof *mlp);
    if (mlp == NULL || mlp_init(mlp, run->cfg.seed) != 0) {
        free(mlp);
        return fail("out of memory for the perceptron");
    }
    *n_params = mlp->model.p.n_params;
    run->result = train(&mlp->model, &run->cfg, run->log, MAX_RECORDS);
    mlp_free(mlp);
    free(mlp);
    return 0;
}
#line 4286 "attention.nw"
static void learned_at(const Run *run, int step[N_PROBLEMS])
{
    for (int p = 0; p < N_PROBLEMS; p++) {
        step[p] = -1;
        for (int r = run->result.n_records - 1; r >= 0 && run->log[r].solved[p]; r--)
            step[p] = run->log[r].step;
    }
}
#line 4302 "attention.nw"
static void numbers_of_training(Text *out, const Run *run, const char *prefix)
{
    const TrainConfig *cfg = &run->cfg;
    int first = run->result.first_perfect;
    char name[64];
    #define NUMBER(suffix, ...) \
        (snprintf(name, sizeof name, "%s_%s", prefix, suffix), number(out, name, __VA_ARGS__))
    NUMBER("seed", "%llu", (unsigned long long)cfg->seed);
    NUMBER("steps", "%d", cfg->steps);
    NUMBER("batch", "%d", cfg->batch);
    NUMBER("lr", "%g", (double)cfg->lr);
    NUMBER("eval_every", "%d", cfg->eval_every);
    NUMBER("first_perfect", "%d", first);
    NUMBER("problems_seen", "%d", first * cfg->batch);
    NUMBER("epochs", "%.0f", first * cfg->batch / (double)N_PROBLEMS);
    #undef NUMBER
}
#line 4326 "attention.nw"
static void numbers_of_chapter_1(Text *out, const Run *run, size_t n_params,
                                 const int step[N_PROBLEMS])
{
    int last = run->result.n_records - 1;
    numbers_of_training(out, run, "mlp");
    number(out, "mlp_params", "%zu", n_params);
    number(out, "mlp_final_loss", "%.4f", (double)run->log[last].loss);
    number(out, "mlp_final_correct", "%d", run->log[last].correct);
    
#line 4339 "attention.nw"
int earliest = 0, latest = 0, zeros = 0, zero_sum = 0, others = 0, other_sum = 0;
int ones = 0, one_sum = 0;
for (int p = 1; p < N_PROBLEMS; p++) {
    if (step[p] < step[earliest]) earliest = p;
    if (step[p] > step[latest]) latest = p;
}
for (int p = 0; p < N_PROBLEMS; p++) {
    int has_zero = p / 10 == 0 || p % 10 == 0;
    if (has_zero) { zeros++; zero_sum += step[p]; }
    else { others++; other_sum += step[p]; }
    if (!has_zero && (p / 10 == 1 || p % 10 == 1)) { ones++; one_sum += step[p]; }
}
number(out, "mlp_earliest_problem", "%d*%d", earliest / 10, earliest % 10);
number(out, "mlp_earliest_step", "%d", step[earliest]);
number(out, "mlp_latest_problem", "%d*%d", latest / 10, latest % 10);
number(out, "mlp_latest_step", "%d", step[latest]);
number(out, "mlp_zero_mean_step", "%.0f", zero_sum / (double)zeros);
number(out, "mlp_other_mean_step", "%.0f", other_sum / (double)others);
number(out, "mlp_one_mean_step", "%.0f", one_sum / (double)ones);
#line 4335 "attention.nw"
}
#line 4377 "attention.nw"
static int figure_mlp_training(const char *fig, const Run *run)
{
    static float step[MAX_RECORDS], loss[MAX_RECORDS], correct[MAX_RECORDS];
    char marker[64];
    Text svg = {0};
    int n = run->result.n_records;
    curves_of(run, step, loss, correct);
    snprintf(marker, sizeof marker, "100/100 at step %d", run->result.first_perfect);
    SvgSeries losses = {"perceptron", step, loss, n, 0, NULL};
    SvgSeries scores = {"perceptron", step, correct, n, 0, NULL};
    SvgLinePanel panels[2] = {
        {.title = "Loss", .x_label = "step", .y_label = "cross-entropy",
         .series = &losses, .n_series = 1, .log_y = 1, .legend = SVG_LEGEND_NONE},
        {.title = "Score", .x_label = "step", .y_label = "problems right",
         .series = &scores, .n_series = 1, .y_min = 0, .y_max = 100,
         .v_line = {run->result.first_perfect > 0, run->result.first_perfect, marker},
         .legend = SVG_LEGEND_NONE},
    };
    svg_line_charts(&svg, panels, 2, NULL, 720, 300);
    return save_text(fig, "mlp_training.svg", &svg);
}
#line 4409 "attention.nw"
static int figure_mlp_learned_at(const char *fig, const int step[N_PROBLEMS])
{
    float values[N_PROBLEMS];
    Text svg = {0};
    for (int p = 0; p < N_PROBLEMS; p++)
        values[p] = step[p] < 0 ? NAN : (float)step[p];
    SvgHeatmap map = {
        .title = NULL, .x_label = "b", .y_label = "a", .rows = N_DIGITS,
        .cols = N_DIGITS, .values = values, .row_labels = digit_labels,
        .col_labels = digit_labels, .cell_format = "%.0f",
    };
    SvgColorScale scale = {SVG_SEQUENTIAL, 0, 0, "step learned"};
    svg_heatmap(&svg, &map, scale, 520, 440);
    return save_text(fig, "mlp_learned_at.svg", &svg);
}
#line 4429 "attention.nw"
static int figures_of_chapter_1(const char *fig, Text *numbers, Run *run)
{
    int step[N_PROBLEMS];
    size_t n_params = 0;
    run->cfg = train_defaults();
    if (run_mlp(run, &n_params) != 0)
        return -1;
    learned_at(run, step);
    numbers_of_chapter_1(numbers, run, n_params, step);
    if (figure_mlp_training(fig, run) != 0 || figure_mlp_learned_at(fig, step) != 0)
        return -1;
    return 0;
}
#line 5158 "attention.nw"
static int figures_of_chapters_2_to_5(const char *model, const char *dir,
                                      const char *fig, Text *numbers, const Run *mlp)
{
    Run *run = malloc(sizeof *run);
    Gpt *g = load_transformer(model);
    int status = run == NULL ? fail("out of memory") : g == NULL ? -1 : 0;
    if (status == 0)
        status = load_training_log(model, run);
    if (status == 0)
        status = claims_hold(run, mlp, g);
    if (status == 0) {
        numbers_of_training(numbers, run, "gpt");
        numbers_of_chapters_2_to_4(numbers, g);
        numbers_of_the_flop_count(numbers);
        numbers_of_the_normal_functions(numbers);
        status = table_of_tables(dir, &g->model.p);
    }
    if (status == 0)
        status = figure_training(fig, run, mlp);
    if (status == 0)
        status = figure_token_embedding(fig, g);
    if (status == 0)
        status = trace_of_chapter_5(dir, fig, numbers, g);
    delete_transformer(g);
    free(run);
    return status;
}
#line 5196 "attention.nw"
static int claims_hold(const Run *gpt, const Run *mlp, Gpt *g)
{
    int a, b;
    if (gpt->result.first_perfect < 0 || mlp->result.first_perfect < 0)
        return fail("chapters 1 and 4 say both models reach 100/100; this run does not");
    if (gpt->result.first_perfect >= mlp->result.first_perfect)
        return fail("chapter 4 says the transformer reaches 100/100 in fewer steps than "
                    "the perceptron (%d against %d here): revise the text",
                    gpt->result.first_perfect, mlp->result.first_perfect);
    double closest = closest_tokens(g, &a, &b);
    if (closest >= 0.5)
        return fail("chapter 3 says no two token vectors are close to parallel, but "
                    "'%c' and '%c' have cosine %.2f: revise the text", char_of_token(a),
                    char_of_token(b), closest);
    if (score(&g->model, NULL) != N_PROBLEMS)
        return fail("chapter 4 says the saved model answers all 100 problems; it does not");
    return 0;
}
#line 5235 "attention.nw"
static void numbers_of_chapters_2_to_4(Text *out, Gpt *g)
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
    number(out, "gpt_final_loss", "%.3f", (double)loss_on_all_problems(&g->model));
    number(out, "gpt_final_correct", "%d", score(&g->model, NULL));
    number(out, "forms_agree", "%d", agree);
    int a = 0, b = 0;
    double closest = closest_tokens(g, &a, &b);
    number(out, "tok_emb_max_cosine", "%.2f", closest);
    number(out, "tok_emb_cosine_a", "%c", char_of_token(a));
    number(out, "tok_emb_cosine_b", "%c", char_of_token(b));
}
#line 5263 "attention.nw"
static int table_of_tables(const char *dir, const Params *p)
{
    Text md = {0};
    text_printf(&md, "| | table | rows | columns | numbers |\n|--:|:--|--:|--:|--:|\n");
    for (int i = 0; i < p->n_tables; i++)
        text_printf(&md, "| %d | `%s` | %d | %d | %d |\n", i + 1, p->specs[i].name,
                    p->specs[i].rows, p->specs[i].cols, p->specs[i].rows * p->specs[i].cols);
    text_printf(&md, "| | **all %d tables** | | | **%zu** |\n", p->n_tables, p->n_params);
    return save_text(dir, "gpt_tables.md", &md);
}
#line 5279 "attention.nw"
static int figure_training(const char *fig, const Run *gpt, const Run *mlp)
{
    static float step[2][MAX_RECORDS], loss[2][MAX_RECORDS], correct[2][MAX_RECORDS];
    char floor_label[64], marker[64];
    double per_sequence, floor = loss_floor(&per_sequence);
    Text svg = {0};
    curves_of(gpt, step[0], loss[0], correct[0]);
    curves_of(mlp, step[1], loss[1], correct[1]);
    snprintf(floor_label, sizeof floor_label, "floor %.3f", floor);
    snprintf(marker, sizeof marker, "transformer 100/100 at step %d", gpt->result.first_perfect);
    SvgSeries losses[2] = {
        {"transformer", step[0], loss[0], gpt->result.n_records, 0, NULL},
        {"perceptron", step[1], loss[1], mlp->result.n_records, 1, NULL}};
    SvgSeries scores[2] = {
        {"transformer", step[0], correct[0], gpt->result.n_records, 0, NULL},
        {"perceptron", step[1], correct[1], mlp->result.n_records, 1, NULL}};
    SvgLinePanel panels[2] = {
        {.title = "Loss", .x_label = "step", .y_label = "cross-entropy", .series = losses,
         .n_series = 2, .log_y = 1, .h_line = {1, floor, floor_label}, .legend = SVG_LEGEND_BELOW},
        {.title = "Score", .x_label = "step", .y_label = "problems right", .series = scores,
         .n_series = 2, .y_min = 0, .y_max = 100, .legend = SVG_LEGEND_NONE,
         .v_line = {gpt->result.first_perfect > 0, gpt->result.first_perfect, marker}},
    };
    svg_line_charts(&svg, panels, 2, NULL, 760, 340);
    return save_text(fig, "gpt_training.svg", &svg);
}
#line 5312 "attention.nw"
static int figure_token_embedding(const char *fig, const Gpt *g)
{
    static const char *const tokens[VOCAB] =
        {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "=", ";"};
    static const char *const columns[WIDTH] = {"0", "", "", "", "4", "", "", "", "8", "", "",
        "", "12", "", "", "", "16", "", "", "", "20", "", "", "", "24", "", "", "", "28", "", "", ""};
    float values[VOCAB * WIDTH];
    Text svg = {0};
    for (int i = 0; i < VOCAB * WIDTH; i++)
        values[i] = (float)g->model.p.table[TOK_EMB][i];
    SvgHeatmap map = {.x_label = "dimension", .y_label = "token", .rows = VOCAB,
                      .cols = WIDTH, .values = values, .row_labels = tokens,
                      .col_labels = columns};
    SvgColorScale scale = {SVG_DIVERGING, 0, 0, "value"};
    svg_heatmap(&svg, &map, scale, 760, 360);
    return save_text(fig, "token_embedding.svg", &svg);
}
#line 5349 "attention.nw"
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
#line 5368 "attention.nw"
static int trace_of_chapter_5(const char *dir, const char *fig, Text *numbers, Gpt *g)
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
#line 5386 "attention.nw"
static void numbers_of_the_trace(Text *out, const Trace *tr, int t)
{
    int top_head = 0, top_u = 0;
    for (int head = 0; head < tr->n_heads; head++)
        for (int u = 0; u <= t; u++)
            if (tr->weights[head][t][u] > tr->weights[top_head][t][top_u])
                top_head = head, top_u = u;
    number(out, "trace_next_token", "%c", char_of_token(argmax(tr->logits[t], VOCAB)));
    number(out, "trace_top_head", "%d", top_head);
    number(out, "trace_top_u", "%d", top_u);
    number(out, "trace_top_char", "%c", char_of_token(tr->tokens[top_u]));
    number(out, "trace_top_weight", "%.2f", (double)tr->weights[top_head][t][top_u]);
}
#line 5420 "attention.nw"
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
            text_printf(&md, " **%.2f** |", (double)tr->weights[head][t][u]);
    }
    text_printf(&md, "\n");
    return save_text(dir, "trace_row.md", &md);
}
#line 5438 "attention.nw"
static int figure_trace_weights(const char *fig, const Trace *tr)
{
    static float values[MAX_HEADS][SEQ_LEN * SEQ_LEN];
    static char titles[MAX_HEADS][16], labels[SEQ_LEN][2];
    static const char *names[SEQ_LEN];
    SvgHeatmap maps[MAX_HEADS];
    Text svg = {0};
    for (int t = 0; t < tr->T; t++) {
        labels[t][0] = char_of_token(tr->tokens[t]);
        names[t] = labels[t];
    }
    for (int head = 0; head < tr->n_heads; head++) {
        for (int t = 0; t < tr->T; t++)
            for (int u = 0; u < tr->T; u++)
                values[head][t * tr->T + u] = u > t ? NAN : (float)tr->weights[head][t][u];
        snprintf(titles[head], sizeof titles[head], "head %d", head);
        maps[head] = (SvgHeatmap){titles[head], "u (read)", "t (reading)", tr->T, tr->T,
                                  values[head], names, names, "%.2f", 0};
    }
    SvgColorScale scale = {SVG_SEQUENTIAL, 0, 1, "weight"};
    svg_heatmaps(&svg, maps, tr->n_heads, 2, NULL, scale, 640, 600);
    return save_text(fig, "trace_weights.svg", &svg);
}
#line 9633 "attention.nw"
static void numbers_of_the_flop_count(Text *out)
{
    number(out, "gelu_per_step", "%d", train_defaults().batch * (SEQ_LEN - 1) * HIDDEN);
    number(out, "bench_batch", "%d", train_defaults().batch);
    number(out, "bench_seq", "%d", SEQ_LEN - 1);
    number(out, "bench_mflops", "%.2f", gpt_train_flops(train_defaults().batch, SEQ_LEN - 1) / 1e6);
}
#line 9647 "attention.nw"
static double float_ulps(double value, double exact)
{
    int e;
    frexp(exact, &e);                       /* 2^(e-1) <= |exact| < 2^e */
    return fabs(value - exact) / ldexp(1, e - 24);
}

static void scientific(Text *out, const char *name, double x)   /* m \cdot 10^{e} */
{
    int e = (int)floor(log10(x));
    number(out, name, "%.1f \\cdot 10^{%d}", x / pow(10, e), e);
}

static void numbers_of_the_normal_functions(Text *out)
{
    double exp_worst = 0, abs_worst = 0, body = 0, tail = 0;
    for (int i = 0; i <= 2000000; i++) {
        float x = (float)(-87 + 175 * (i / 2e6));
        exp_worst = fmax(exp_worst, float_ulps(exp_lanes(x), exp((double)x)));
    }
    for (int i = 0; i <= 3000000; i++) {
        float z = (float)(-14 + 28 * (i / 3e6));
        double exact = erfc(-(double)z / sqrt(2)) / 2, ours = normal_cdf(z);
        abs_worst = fmax(abs_worst, fabs(ours - exact));
        if (exact >= FLT_MIN)
            tail = fmax(tail, float_ulps(ours, exact));
        if (z >= -4)
            body = fmax(body, float_ulps(ours, exact));
    }
    int i = 0;                      /* where the library's route reaches 0 */
    while (i < 2000 && 0.5f * (1 + erff(-0.01f * i / sqrtf(2))) > 0)
        i++;
    number(out, "exp_worst_ulp", "%.2f", exp_worst);
    scientific(out, "cdf_worst_abs", abs_worst);
    number(out, "cdf_worst_ulp", "%.1f", body);
    number(out, "cdf_worst_ulp_tail", "%.0f", tail);
    number(out, "cdf_library_zero", "%.2f", -0.01 * i);
    scientific(out, "cdf_ours_at_library_zero", normal_cdf(-0.01f * i));
}
#line 5470 "attention.nw"
static int part_6_7(const Arguments *a, const char *dir, const char *fig, Text *numbers)
{
    Gpt *g = load_transformer(a->model);
    if (g == NULL)
        return -1;
    int status = proofs_of_chapter_6(dir, fig, numbers, g);
    if (status == 0)
        status = checks_of_chapter_7(a->model, dir, fig, numbers, g);
    delete_transformer(g);
    return status;
}
#line 5498 "attention.nw"
enum { GROW_STEPS = 6 };    /* "7*8=56": the ';' is never asked for */

static int rows_recomputed_alike(const Trace tr[GROW_STEPS], int *rows)
{
    int same = 0;
    *rows = 0;
    for (int T = 2; T <= GROW_STEPS; T++)
        for (int head = 0; head < tr[T - 1].n_heads; head++)
            for (int t = 0; t < T - 1; t++, (*rows)++)
                same += !memcmp(tr[T - 1].weights[head][t], tr[T - 2].weights[head][t],
                                (size_t)(T - 1) * sizeof(real));
    return same;
}
#line 5521 "attention.nw"
enum { GROW_CELL = 17, GROW_LABELS = 40, GROW_TITLE = 25, GROW_TICKS = 21, GROW_GAP = 8 };

static int figure_growing_tables(const char *fig, const Trace tr[GROW_STEPS])
{
    static float values[MAX_HEADS * GROW_STEPS][SEQ_LEN * SEQ_LEN];
    static char titles[GROW_STEPS][16], heads[MAX_HEADS][16], labels[SEQ_LEN][2];
    static const char *names[SEQ_LEN];
    SvgHeatmap maps[MAX_HEADS * GROW_STEPS];
    int n_heads = tr[0].n_heads, n = 0;
    double row_h = GROW_STEPS * GROW_CELL + GROW_TICKS + GROW_GAP;
    double width = 10 + GROW_STEPS * (GROW_LABELS + GROW_GAP)
                   + GROW_CELL * GROW_STEPS * (GROW_STEPS + 1) / 2.0 + 90;
    double height = GROW_TITLE + n_heads * row_h + 10;
    Text svg = {0};
    for (int t = 0; t < GROW_STEPS; t++) {
        labels[t][0] = char_of_token(tr[GROW_STEPS - 1].tokens[t]);
        names[t] = labels[t];
    }
    
#line 5550 "attention.nw"
for (int head = 0; head < n_heads; head++) {
    snprintf(heads[head], sizeof heads[head], "head %d", head);
    for (int T = 1; T <= GROW_STEPS; T++, n++) {
        const Trace *step = &tr[T - 1];
        if (head == 0)
            snprintf(titles[T - 1], sizeof titles[T - 1], "%.*s", T, "7*8=56");
        for (int t = 0; t < T; t++)
            for (int u = 0; u < T; u++)
                values[n][t * T + u] = u > t ? NAN : (float)step->weights[head][t][u];
        maps[n] = (SvgHeatmap){head == 0 ? titles[T - 1] : NULL, NULL,
                               T == 1 ? heads[head] : NULL, T, T, values[n],
                               names, names, NULL, 1};
    }
}
#line 5540 "attention.nw"
    SvgColorScale scale = svg_fit_scale((SvgColorScale){SVG_SEQUENTIAL, 0, 1, "weight"}, maps, n);
    svg_begin(&svg, width, height);
    
#line 5567 "attention.nw"
for (int head = 0, i = 0; head < n_heads; head++) {
    double x = 10, bottom = GROW_TITLE + (head + 1) * row_h - GROW_GAP;
    for (int T = 1; T <= GROW_STEPS; T++, i++) {
        double top = head == 0 ? GROW_TITLE : 0, w = GROW_LABELS + T * GROW_CELL;
        double h = top + T * GROW_CELL + GROW_TICKS;
        svg_heatmap_panel(&svg, (SvgRect){x, bottom - h, w, h}, &maps[i], scale);
        x += w + GROW_GAP;
    }
}
#line 5543 "attention.nw"
    svg_color_bar(&svg, (SvgRect){width - 80, GROW_TITLE + 10, 70, height - GROW_TITLE - 40}, scale);
    svg_end(&svg);
    return save_text(fig, "growing_tables.svg", &svg);
}
#line 5579 "attention.nw"
static int proof_one_character_at_a_time(const char *fig, Text *numbers, Gpt *g)
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
    int status = same == rows ? figure_growing_tables(fig, tr)
        : fail("chapter 6 says the earlier rows come out the same bits at every step; "
               "%d of %d do: revise the text", same, rows);
    free(tr);
    return status;
}
#line 5606 "attention.nw"
static int figure_swap(const char *fig, Gpt *g, int a, int b)
{
    static float values[2][MAX_HEADS * 4];
    static char titles[2][8], labels[2][4][2], heads[MAX_HEADS][8];
    static const char *columns[2][4], *rows[MAX_HEADS];
    real w[MAX_HEADS][4];
    SvgHeatmap maps[2];
    Text svg = {0};
    for (int order = 0; order < 2; order++) {
        int first = order ? b : a, second = order ? a : b;
        snprintf(titles[order], sizeof titles[order], "%d*%d=", first, second);
        question_weights(g, first, second, w);
        
#line 5630 "attention.nw"
for (int u = 0; u < 4; u++) {
    labels[order][u][0] = titles[order][u];
    columns[order][u] = labels[order][u];
}
for (int head = 0; head < g->n_heads; head++) {
    snprintf(heads[head], sizeof heads[head], "%d", head);
    rows[head] = heads[head];
    for (int u = 0; u < 4; u++)
        values[order][head * 4 + u] = (float)w[head][u];
}
#line 5619 "attention.nw"
        maps[order] = (SvgHeatmap){titles[order], "u (read)", order ? NULL : "head",
                                   g->n_heads, 4, values[order], rows, columns[order],
                                   "%.2f", 0};
    }
    SvgColorScale scale = {SVG_SEQUENTIAL, 0, 1, "weight"};
    svg_heatmaps(&svg, maps, 2, 2, NULL, scale, 620, 300);
    return save_text(fig, "swap_weights.svg", &svg);
}
#line 5650 "attention.nw"
static int a_head_follows_a_digit(Gpt *g, int a, int b)
{
    real w[2][MAX_HEADS][4];
    question_weights(g, a, b, w[0]);
    question_weights(g, b, a, w[1]);
    for (int head = 0; head < g->n_heads; head++) {
        int top0 = argmax(w[0][head], 4), top1 = argmax(w[1][head], 4);
        if ((top0 == 0 && top1 == 2) || (top0 == 2 && top1 == 0))
            return 1;
    }
    return 0;
}
#line 5665 "attention.nw"
static int proof_swap(const char *fig, Text *numbers, Gpt *g)
{
    int a = 0, b = 0, least_a = 0, least_b = 1;
    real change = 0, least = 2, sum = 0;
    int visited = most_changed_pair(g, &a, &b, &change);
    for (int first = 0; first < N_DIGITS; first++)
        for (int second = first + 1; second < N_DIGITS; second++) {
            real c = swap_change(g, first, second);
            sum += c;
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
    if (!a_head_follows_a_digit(g, a, b))
        return fail("chapter 6 says a head's largest weight moves between positions 0 and 2 "
                    "when %d*%d is swapped; none does: revise the text", a, b);
    if (least < 0.005)
        return fail("chapter 6 says no pair's weights are left unchanged by the swap, but "
                    "%d*%d changes by %.3f: revise the text", least_a, least_b, (double)least);
    return figure_swap(fig, g, a, b);
}
#line 5702 "attention.nw"
static int proof_own_output(const char *dir, Text *numbers, Gpt *g)
{
    int tokens[SEQ_LEN], T = 5, t = 4, top = 0;
    Trace *tr = malloc(sizeof *tr);
    if (tr == NULL)
        return fail("out of memory");
    problem_tokens(7 * 10 + 8, tokens);
    gpt_forward(g, tokens, 1, 4);
    tokens[4] = argmax(g->act.logits + 3 * VOCAB, VOCAB);   /* its own digit */
    gpt_trace(g, tokens, T, tr);
    for (int head = 1; head < tr->n_heads; head++)
        if (tr->weights[head][t][t] > tr->weights[top][t][t])
            top = head;
    
#line 5727 "attention.nw"
number(numbers, "own_digit", "%c", char_of_token(tokens[4]));
number(numbers, "own_next", "%c", char_of_token(argmax(tr->logits[t], VOCAB)));
number(numbers, "own_top_head", "%d", top);
number(numbers, "own_top_weight", "%.2f", (double)tr->weights[top][t][t]);
for (int head = 0; head < tr->n_heads; head++) {
    char name[32];
    snprintf(name, sizeof name, "own_weight_%d", head);
    number(numbers, name, "%.2f", (double)tr->weights[head][t][t]);
}
#line 5716 "attention.nw"
    int status = table_of_own_output(dir, tr, t);
    for (int u = 0; status == 0 && u < t; u++)
        if (tr->weights[top][t][u] >= tr->weights[top][t][t])
            status = fail("chapter 6 says head %d weighs position 4 more than any other; "
                          "it does not: revise the text", top);
    free(tr);
    return status;
}
#line 5742 "attention.nw"
static int table_of_own_output(const char *dir, const Trace *tr, int t)
{
    Text md = {0};
    trace_table_head(&md, tr, t, "| head |", "|--:|");
    for (int head = 0; head < tr->n_heads; head++) {
        text_printf(&md, "\n| %d |", head);
        for (int u = 0; u <= t; u++)
            text_printf(&md, u == t ? " **%.2f** |" : " %.2f |", (double)tr->weights[head][t][u]);
    }
    text_printf(&md, "\n");
    return save_text(dir, "own_output.md", &md);
}
#line 5757 "attention.nw"
static int proofs_of_chapter_6(const char *dir, const char *fig, Text *numbers, Gpt *g)
{
    int status = proof_one_character_at_a_time(fig, numbers, g);
    if (status == 0)
        status = proof_swap(fig, numbers, g);
    if (status == 0)
        status = proof_own_output(dir, numbers, g);
    return status;
}
#line 5818 "attention.nw"
static int train_variant(Trials *trials, int s, const Variant *v, uint64_t seed)
{
    TrainConfig cfg = train_defaults();
    cfg.seed = seed;
    Gpt *g = train_transformer(&trials->run[s], &cfg, N_HEADS, v->off);
    if (g == NULL)
        return -1;
    trials->loss[s] = (double)loss_on_all_problems(&g->model);
    if (s == 0)
        trials->first = g;
    else
        delete_transformer(g);
    return 0;
}
#line 5835 "attention.nw"
static int run_trials(Trials trials[N_VARIANTS], const char *model, Gpt *book)
{
    if (load_training_log(model, &trials[0].run[0]) != 0)
        return -1;
    trials[0].loss[0] = (double)loss_on_all_problems(&book->model);
    uint64_t seed = trials[0].run[0].cfg.seed;
    for (int v = 0; v < N_VARIANTS; v++)
        for (int s = v == 0; s < N_SEEDS; s++)
            if (train_variant(&trials[v], s, &variants[v], seed + (uint64_t)s) != 0)
                return -1;
    return 0;
}
#line 5853 "attention.nw"
static int final_score(const Run *run)
{
    return run->log[run->result.n_records - 1].correct;
}

static const char *first_perfect_text(const Run *run, char buf[16])
{
    if (run->result.first_perfect < 0)
        return "never";
    snprintf(buf, 16, "%d", run->result.first_perfect);
    return buf;
}
#line 5870 "attention.nw"
static int table_of_trials(const char *dir, const Trials trials[N_VARIANTS])
{
    Text md = {0};
    char buf[16];
    text_printf(&md, "| model | seed | first 100/100 at step | final score | final loss |\n"
                     "|:--|--:|--:|--:|--:|\n");
    for (int v = 0; v < N_VARIANTS; v++)
        for (int s = 0; s < N_SEEDS; s++) {
            const Run *run = &trials[v].run[s];
            text_printf(&md, "| %s | %llu | %s | %d | %.4f |\n", s == 0 ? variants[v].label : "",
                        (unsigned long long)run->cfg.seed, first_perfect_text(run, buf),
                        final_score(run), trials[v].loss[s]);
        }
    return save_text(dir, "ablations.md", &md);
}
#line 5891 "attention.nw"
static void numbers_of_trials(Text *out, const Trials *trials, const char *name)
{
    int score_lo = N_PROBLEMS, score_hi = 0, first_lo = MAX_STEPS, first_hi = -1, never = 0;
    double loss_lo = INFINITY, loss_hi = 0;
    char key[64];
    for (int s = 0; s < N_SEEDS; s++) {
        const Run *run = &trials->run[s];
        int score = final_score(run), first = run->result.first_perfect;
        score_lo = score < score_lo ? score : score_lo;
        score_hi = score > score_hi ? score : score_hi;
        loss_lo = fmin(loss_lo, trials->loss[s]);
        loss_hi = fmax(loss_hi, trials->loss[s]);
        never += first < 0;
        first_lo = first >= 0 && first < first_lo ? first : first_lo;
        first_hi = first > first_hi ? first : first_hi;
    }
    
#line 5912 "attention.nw"
#define RANGE(suffix, ...) (snprintf(key, sizeof key, "%s_%s", name, suffix), \
                            number(out, key, __VA_ARGS__))
RANGE("score_lo", "%d", score_lo);
RANGE("score_hi", "%d", score_hi);
RANGE("loss_lo", "%.4f", loss_lo);
RANGE("loss_hi", "%.4f", loss_hi);
RANGE("first_lo", "%d", never == N_SEEDS ? -1 : first_lo);
RANGE("first_hi", "%d", first_hi);
RANGE("never", "%d", never);
#undef RANGE
#line 5908 "attention.nw"
}
#line 5929 "attention.nw"
static int figure_trials(const char *fig, const char *file, const Trials *book,
                         const Trials *off, const char *label, int with_floor)
{
    static float step[2 * N_SEEDS][MAX_RECORDS], loss[2 * N_SEEDS][MAX_RECORDS],
        correct[2 * N_SEEDS][MAX_RECORDS];
    static char labels[2 * N_SEEDS][64];
    SvgSeries losses[2 * N_SEEDS], scores[2 * N_SEEDS];
    double per_sequence, floor = loss_floor(&per_sequence);
    char floor_label[64];
    Text svg = {0};
    
#line 5954 "attention.nw"
for (int m = 0; m < 2; m++)
    for (int s = 0; s < N_SEEDS; s++) {
        int i = m * N_SEEDS + s;
        const Run *run = &(m ? off : book)->run[s];
        curves_of(run, step[i], loss[i], correct[i]);
        if (s == 0)     /* the colour names the model, the dashes the later seeds */
            snprintf(labels[i], sizeof labels[i], "%s", m ? label : "book's model");
        else
            snprintf(labels[i], sizeof labels[i], "seed %llu", (unsigned long long)run->cfg.seed);
        losses[i] = (SvgSeries){labels[i], step[i], loss[i], run->result.n_records,
                                s > 0, svg_palette(m)};
        scores[i] = losses[i];
        scores[i].y = correct[i];
    }
#line 5940 "attention.nw"
    snprintf(floor_label, sizeof floor_label, "floor %.3f", floor);
    SvgLinePanel panels[2] = {
        {.title = "Loss", .x_label = "step", .y_label = "cross-entropy", .series = losses,
         .n_series = 2 * N_SEEDS, .log_y = 1, .h_line = {with_floor, floor, floor_label},
         .legend = SVG_LEGEND_BELOW},
        {.title = "Score", .x_label = "step", .y_label = "problems right", .series = scores,
         .n_series = 2 * N_SEEDS, .y_min = 0, .y_max = 100, .legend = SVG_LEGEND_NONE},
    };
    svg_line_charts(&svg, panels, 2, NULL, 760, 380);
    return save_text(fig, file, &svg);
}
#line 5978 "attention.nw"
static int swapped_alike(Gpt *g, int a, int b, double *logit_gap)
{
    static real scores[MAX_HEADS][4], logits[VOCAB];
    int tokens[SEQ_LEN], T = 4, t = 3, same = 1;
    static const int exchanged[4] = {2, 1, 0, 3};
    problem_tokens(10 * a + b, tokens);
    gpt_forward(g, tokens, 1, T);
    for (int head = 0; head < g->n_heads; head++)
        memcpy(scores[head], g->act.scores + (head * T + t) * T, 4 * sizeof(real));
    memcpy(logits, g->act.logits + t * VOCAB, sizeof logits);
    problem_tokens(10 * b + a, tokens);
    gpt_forward(g, tokens, 1, T);
    for (int head = 0; head < g->n_heads; head++)
        for (int u = 0; u < 4; u++)
            same &= !memcmp(&scores[head][exchanged[u]],
                            g->act.scores + (head * T + t) * T + u, sizeof(real));
    *logit_gap = 0;
    for (int i = 0; i < VOCAB; i++)
        *logit_gap = fmax(*logit_gap, fabs((double)logits[i] - (double)g->act.logits[t * VOCAB + i]));
    return same;
}
#line 6002 "attention.nw"
static int count_swapped_alike(Gpt *g, double *widest, int *same_answers)
{
    int alike = 0;
    double gap;
    char x[8], y[8];
    *widest = 0;
    *same_answers = 0;
    for (int a = 0; a < N_DIGITS; a++)
        for (int b = a + 1; b < N_DIGITS; b++) {
            alike += swapped_alike(g, a, b, &gap);
            *widest = fmax(*widest, gap);
            g->model.answer(&g->model, 10 * a + b, x);
            g->model.answer(&g->model, 10 * b + a, y);
            *same_answers += strcmp(x, y) == 0;
        }
    return alike;
}

static void numbers_of_swaps(Text *out, Gpt *g, const char *name)
{
    int same_answers = 0;
    double widest = 0;
    char key[64];
    int alike = count_swapped_alike(g, &widest, &same_answers);
    snprintf(key, sizeof key, "%s_swaps_alike", name);
    number(out, key, "%d", alike);
    snprintf(key, sizeof key, "%s_swap_gap", name);
    number(out, key, "%.1e", widest);
    snprintf(key, sizeof key, "%s_swap_answers", name);
    number(out, key, "%d", same_answers);
}
#line 6043 "attention.nw"
static double length_of(const real *x, size_t n)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += (double)x[i] * (double)x[i];
    return sqrt(sum);
}

static int gradient_lane(Text *out, const char *dir, uint64_t seed)
{
    int all[N_PROBLEMS];
    double cosines[2], tokens[2];
    Text md = {0};
    for (int p = 0; p < N_PROBLEMS; p++)
        all[p] = p;
    text_printf(&md, "| | at the top, $\\partial y$ | at the bottom, $\\partial x$ "
                     "| cosine of $\\partial x$ and $\\partial y$ | token table "
                     "| position table |\n|:--|--:|--:|--:|--:|--:|\n");
    for (int off = 0; off < 2; off++) {
        
#line 6073 "attention.nw"
Gpt *g = new_transformer(seed);
if (g == NULL)
    return text_free(&md), -1;
g->ablate.no_residual = off;
memset(g->model.p.grads, 0, g->model.p.n_params * sizeof(real));
g->model.batch_loss(&g->model, all, N_PROBLEMS, 1);
size_t cells = (size_t)g->B * g->T * WIDTH;     /* the rows of that pass */
double top = length_of(g->grad.x3, cells), bottom = length_of(g->grad.x, cells);
double tok = length_of(g->model.p.grad[TOK_EMB], VOCAB * WIDTH);
double pos = length_of(g->model.p.grad[POS_EMB], SEQ_LEN * WIDTH);
double along = cosine(g->grad.x, g->grad.x3, (int)cells);
text_printf(&md, "| %s | %.4f | %.4f | %.2f | %.4f | %.4f |\n", off ? "without the residual"
            : "with the residual", top, bottom, along, tok, pos);
number(out, off ? "lane_off_cosine" : "lane_on_cosine", "%.2f", along);
cosines[off] = along;
tokens[off] = tok;
number(out, off ? "lane_off_bottom" : "lane_on_bottom", "%.4f", bottom);
number(out, off ? "lane_off_top" : "lane_on_top", "%.4f", top);
number(out, off ? "lane_off_tok" : "lane_on_tok", "%.4f", tok);
number(out, off ? "lane_off_ratio" : "lane_on_ratio", "%.2f", bottom / top);
delete_transformer(g);
#line 6063 "attention.nw"
    }
    if (!(cosines[0] > cosines[1] && tokens[1] > tokens[0] / 2 && tokens[1] < 2 * tokens[0]))
        return text_free(&md), fail("chapter 7 says the residual turns the bottom gradient "
                                    "towards the top one, and the token table gets about as "
                                    "much gradient without it: revise the text");
    return save_text(dir, "gradient_lane.md", &md);
}
#line 6105 "attention.nw"
enum { N_SCALES = 5 };
static const float scales[N_SCALES] = {0.5f, 1, 2.828427f, 8, 32};

static int figure_softmax_scale(const char *fig, Text *numbers, Gpt *g)
{
    static const char *const groups[N_SCALES] =
        {"x 1/2", "x 1 (the model)", "x sqrt 8 (no division)", "x 8", "x 32"};
    static const char *const positions[4] = {"7", "*", "8", "="};
    float values[N_SCALES * 4];
    Trace *tr = malloc(sizeof *tr);
    int tokens[SEQ_LEN], t = 3, head = 0;
    Text svg = {0};
    if (tr == NULL)
        return fail("out of memory");
    problem_tokens(7 * 10 + 8, tokens);
    gpt_trace(g, tokens, 4, tr);
    
#line 6132 "attention.nw"
float largest[MAX_HEADS];
for (int h = 0; h < tr->n_heads; h++) {
    largest[h] = 0;
    for (int u = 0; u <= t; u++)
        largest[h] = fmaxf(largest[h], (float)tr->weights[h][t][u]);
    if (largest[h] < largest[head])
        head = h;
}
number(numbers, "scale_head", "%d", head);
#line 6122 "attention.nw"
    
#line 6144 "attention.nw"
for (int k = 0; k < N_SCALES; k++) {
    double max = -INFINITY, sum = 0, top = 0;
    for (int u = 0; u <= t; u++)
        max = fmax(max, scales[k] * (double)tr->scores[head][t][u]);
    for (int u = 0; u <= t; u++)
        sum += exp(scales[k] * (double)tr->scores[head][t][u] - max);
    for (int u = 0; u <= t; u++) {
        values[k * 4 + u] = (float)(exp(scales[k] * (double)tr->scores[head][t][u] - max) / sum);
        top = fmax(top, values[k * 4 + u]);
    }
    char name[32];
    snprintf(name, sizeof name, "scale_top_%d", k);
    number(numbers, name, "%.2f", top);
}
#line 6123 "attention.nw"
    SvgBarChart chart = {NULL, "position read", "weight", 4, N_SCALES, positions,
                         groups, values, NULL, 0, 1};
    svg_bar_chart(&svg, &chart, 760, 340);
    free(tr);
    return save_text(fig, "softmax_scale.svg", &svg);
}
#line 6166 "attention.nw"
static double saturation(Gpt *g, double *widest_score)
{
    int rows = 0, saturated = 0, T = SEQ_LEN;
    double widest = 0;
    loss_on_all_problems(&g->model);
    for (int b = 0; b < N_PROBLEMS; b++)
        for (int head = 0; head < g->n_heads; head++)
            for (int t = 1; t < T; t++) {
                int cell = ((b * g->n_heads + head) * T + t) * T;
                double top = 0;
                for (int u = 0; u <= t; u++) {
                    widest = fmax(widest, fabs((double)g->act.scores[cell + u]));
                    top = fmax(top, (double)g->act.weights[cell + u]);
                }
                rows++;
                saturated += top > 0.99;
            }
    *widest_score = widest;
    return 100.0 * saturated / rows;
}

static void numbers_of_saturation(Text *out, Gpt *g, const char *name)
{
    double widest, share = saturation(g, &widest);
    char key[64];
    snprintf(key, sizeof key, "%s_widest_score", name);
    number(out, key, "%.1f", widest);
    snprintf(key, sizeof key, "%s_saturated", name);
    number(out, key, "%.0f", share);
}
#line 6201 "attention.nw"
static int checks_of_chapter_7(const char *model, const char *dir, const char *fig,
                               Text *numbers, Gpt *g)
{
    Trials *trials = calloc(N_VARIANTS, sizeof *trials);
    int status = trials == NULL ? fail("out of memory") : run_trials(trials, model, g);
    if (status == 0)
        status = claims_of_chapter_7(trials, g);
    if (status == 0)
        status = numbers_and_figures_of_chapter_7(dir, fig, numbers, trials, g);
    for (int v = 0; trials != NULL && v < N_VARIANTS; v++)
        delete_transformer(trials[v].first);
    free(trials);
    return status;
}
#line 6218 "attention.nw"
static int numbers_and_figures_of_chapter_7(const char *dir, const char *fig, Text *numbers,
                                            Trials *trials, Gpt *g)
{
    number(numbers, "ablation_seeds", "%d", N_SEEDS);
    number(numbers, "ablation_runs", "%d", N_VARIANTS * N_SEEDS - 1);
    for (int v = 0; v < N_VARIANTS; v++)
        numbers_of_trials(numbers, &trials[v], variants[v].name);
    numbers_of_swaps(numbers, g, "full");
    numbers_of_swaps(numbers, trials[1].first, "no_position");
    numbers_of_saturation(numbers, g, "full");
    numbers_of_saturation(numbers, trials[4].first, "no_layernorm");
    int status = table_of_trials(dir, trials);
    if (status == 0)
        status = gradient_lane(numbers, dir, trials[0].run[0].cfg.seed);
    if (status == 0)
        status = figure_softmax_scale(fig, numbers, g);
    for (int v = 1; status == 0 && v < N_VARIANTS; v++) {
        char file[64];
        snprintf(file, sizeof file, "%s.svg", variants[v].name);
        status = figure_trials(fig, file, &trials[0], &trials[v], variants[v].label, v == 2);
    }
    return status;
}
#line 6255 "attention.nw"
static int all_perfect_once(const Trials *trials)
{
    for (int s = 0; s < N_SEEDS; s++)
        if (trials->run[s].result.first_perfect < 0)
            return 0;
    return 1;
}

static int first_perfect_range(const Trials *trials, int *lo, int *hi)
{
    *lo = MAX_STEPS, *hi = -1;
    for (int s = 0; s < N_SEEDS; s++) {
        int first = trials->run[s].result.first_perfect;
        *lo = first < *lo ? first : *lo;
        *hi = first > *hi ? first : *hi;
    }
    return *lo;
}
#line 6276 "attention.nw"
static int claims_of_chapter_7(const Trials *trials, Gpt *g)
{
    int book_lo, book_hi, lo, hi, same;
    double gap_book, gap_blind, wide_book, wide_off;
    first_perfect_range(&trials[0], &book_lo, &book_hi);
    
#line 6289 "attention.nw"
int alike_book = count_swapped_alike(g, &gap_book, &same);
int alike_blind = count_swapped_alike(trials[1].first, &gap_blind, &same);
if (alike_blind != 45 || alike_book != 0 || gap_blind > 1e-4 || gap_book < 0.1)
    return fail("chapter 7 says that without position vectors the scores of a*b= and "
                "b*a= are the same bits, exchanged, for all 45 pairs and for none with them, "
                "and the outputs differ only by rounding: revise the text");
first_perfect_range(&trials[1], &lo, &hi);
if (!all_perfect_once(&trials[1]) || hi >= book_lo)
    return fail("chapter 7 says the model without position vectors reaches 100/100, "
                "sooner than the book's model, for every seed: revise the text");
#line 6282 "attention.nw"
    
#line 6302 "attention.nw"
double per_sequence, floor = loss_floor(&per_sequence);
for (int s = 0; s < N_SEEDS; s++)
    if (trials[2].loss[s] >= floor / 10 || final_score(&trials[2].run[s]) >= 10
        || trials[2].run[s].result.first_perfect >= 0)
        return fail("chapter 7 says that without the mask the loss falls to a tenth of the "
                    "floor or less while fewer than 10 problems are answered: revise the text");
#line 6283 "attention.nw"
    
#line 6311 "attention.nw"
first_perfect_range(&trials[3], &lo, &hi);
if (!all_perfect_once(&trials[3]) || hi > book_hi)
    return fail("chapter 7 says the model without the residual reaches 100/100 no later "
                "than the book's model: revise the text");
first_perfect_range(&trials[4], &lo, &hi);
double rare = fmax(saturation(g, &wide_book), saturation(trials[4].first, &wide_off));
if (!all_perfect_once(&trials[4]) || lo <= book_hi || wide_off <= wide_book || rare > 20)
    return fail("chapter 7 says the model without LayerNorm reaches 100/100 later than the "
                "book's model, with larger scores, saturated rows staying rare (under 20 %%): "
                "revise the text");
#line 6284 "attention.nw"
    return 0;
}
#line 6345 "attention.nw"
enum { N_HEAD_CHOICES = 4 };   /* N_SEEDS is chapter 7's: the same three seeds */
static const int head_choices[N_HEAD_CHOICES] = {1, 2, 4, 8};
struct Trained {
    Run run;
    double loss;            /* on all 100 problems, after training */
    int correct;            /* score after training */
};
struct Experiments {
    Run book;               /* the book's model, as [[attention train]] made it */
    Trained heads[N_HEAD_CHOICES][N_SEEDS], no_gelu[N_SEEDS];
};
#line 6377 "attention.nw"
static void measure_trained(Trained *t, Gpt *g)
{
    t->loss = (double)loss_on_all_problems(&g->model);
    t->correct = score(&g->model, NULL);
}
#line 6388 "attention.nw"
static int train_relative(Trained *t, const TrainConfig *book, int seed_index,
                          int n_heads, int no_gelu)
{
    TrainConfig cfg = *book;
    cfg.seed = book->seed + (uint64_t)seed_index;
    Gpt *g = train_transformer(&t->run, &cfg, n_heads, (Ablation){.no_gelu = no_gelu});
    if (g == NULL)
        return -1;
    measure_trained(t, g);
    delete_transformer(g);
    return 0;
}
#line 6406 "attention.nw"
static int part_8_to_10(const Arguments *a, const char *dir, const char *fig,
                        Text *numbers)
{
    Experiments *e = calloc(1, sizeof *e);
    Gpt *g = load_transformer(a->model);
    int status = g == NULL ? -1 : e == NULL ? fail("out of memory") : 0;
    if (status == 0)
        status = load_training_log(a->model, &e->book);
    if (status == 0)
        status = experiments_of_chapter_8(dir, fig, numbers, g, e);
    if (status == 0)
        status = experiments_of_chapter_9(dir, fig, numbers, g, e);
    delete_transformer(g);
    free(e);
    return status;
}
#line 6433 "attention.nw"
static int head_of_column(int n_heads, int column)
{
    real q[2 * WIDTH] = {0}, k[2 * WIDTH] = {0}, v[2 * WIDTH] = {0};
    real out[2 * WIDTH], scores[MAX_HEADS * 4], weights[MAX_HEADS * 4];
    q[WIDTH + column] = 1;          /* the query of row 1 */
    k[column] = 1;                  /* the key of row 0 */
    attention_forward(out, scores, weights, q, k, v, 1, 2, WIDTH, n_heads, 1);
    for (int head = 0; head < n_heads; head++)
        if (scores[(head * 2 + 1) * 2] != 0)    /* row 1 reading row 0 */
            return head;
    return -1;
}
#line 6451 "attention.nw"
static int figure_the_cut(const char *fig)
{
    static float owner[N_HEAD_CHOICES][MAX_HEADS * WIDTH];
    static char titles[N_HEAD_CHOICES][64];
    static const char *const heads[MAX_HEADS] = {"head 0", "head 1", "head 2",
        "head 3", "head 4", "head 5", "head 6", "head 7"};
    SvgHeatmap maps[N_HEAD_CHOICES];
    Text svg = {0};
    
#line 6466 "attention.nw"
for (int c = 0; c < N_HEAD_CHOICES; c++) {
    int n = head_choices[c], first_head = 0;
    for (int head = 0; head < n; head++)
        for (int i = 0; i < WIDTH; i++) {
            int owns = head_of_column(n, i) == head;
            owner[c][head * WIDTH + i] = owns ? (float)head : NAN;
            first_head += owns && head == 0;
        }
    snprintf(titles[c], sizeof titles[c], "%d head%s of %d number%s%s", n,
             n > 1 ? "s" : "", first_head, first_head > 1 ? "s" : "",
             n == N_HEADS ? " (the book's model)" : "");
    maps[c] = (SvgHeatmap){titles[c], c == N_HEAD_CHOICES - 1 ? "dimension" : NULL,
                           NULL, n, WIDTH, owner[c], heads, NULL, NULL, 0};
}
#line 6460 "attention.nw"
    
#line 6483 "attention.nw"
double cell = 21, width = 760, extra = 48, height = 10;
for (int c = 0; c < N_HEAD_CHOICES; c++)
    height += head_choices[c] * cell + extra + (c == N_HEAD_CHOICES - 1 ? 24 : 0);
svg_begin(&svg, width, height);
SvgColorScale scale = {SVG_SEQUENTIAL, 0, MAX_HEADS - 1, NULL};
for (int c = 0, top = 10; c < N_HEAD_CHOICES; c++) {
    double h = head_choices[c] * cell + extra + (c == N_HEAD_CHOICES - 1 ? 24 : 0);
    svg_heatmap_panel(&svg, (SvgRect){10, top, width - 20, h}, &maps[c], scale);
    top += (int)h;
}
svg_end(&svg);
#line 6461 "attention.nw"
    return save_text(fig, "heads_cut.svg", &svg);
}
#line 6506 "attention.nw"
struct Quota {
    double worst_sum;           /* largest |sum of a row's weights - 1| */
    double least_a, least_b;    /* over problems, of the most any head reads there */
    double largest_gap;         /* over heads, of |mean weight on a - on b| */
    double mean[MAX_HEADS][4];  /* each head's mean weight on u = 0..3 at the = */
};

static const real *weights_of(const Gpt *g, int p, int head, int t)
{
    return g->act.weights + ((p * g->n_heads + head) * SEQ_LEN + t) * SEQ_LEN;
}
#line 6520 "attention.nw"
static void quota_at_equals(Gpt *g, Quota *q)
{
    loss_on_all_problems(&g->model);
    *q = (Quota){0, 1, 1, 0, {{0}}};
    for (int p = 0; p < N_PROBLEMS; p++) {
        double most_a = 0, most_b = 0;
        for (int head = 0; head < g->n_heads; head++) {
            
#line 6538 "attention.nw"
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
#line 6528 "attention.nw"
        }
        q->least_a = fmin(q->least_a, most_a);
        q->least_b = fmin(q->least_b, most_b);
    }
    for (int head = 0; head < g->n_heads; head++)
        q->largest_gap = fmax(q->largest_gap, fabs(q->mean[head][0] - q->mean[head][2]));
}
#line 6556 "attention.nw"
static int the_quota(const char *dir, Text *numbers, Gpt *g, Quota *q)
{
    Text md = {0};
    quota_at_equals(g, q);
    text_printf(&md, "| head | $u = 0$ (`a`) | $u = 1$ (`*`) | $u = 2$ (`b`) "
                "| $u = 3$ (`=`) |\n|--:|--:|--:|--:|--:|\n");
    for (int head = 0; head < g->n_heads; head++)
        text_printf(&md, "| %d | %.2f | %.2f | %.2f | %.2f |\n", head, q->mean[head][0],
                    q->mean[head][1], q->mean[head][2], q->mean[head][3]);
    number(numbers, "quota_worst_sum", "%.*f", decimals_for(q->worst_sum), q->worst_sum);
    number(numbers, "quota_least_a", "%.2f", q->least_a);
    number(numbers, "quota_least_b", "%.2f", q->least_b);
    number(numbers, "quota_largest_gap", "%.2f", q->largest_gap);
    return save_text(dir, "quota.md", &md);
}
#line 6580 "attention.nw"
static int train_the_heads(Gpt *g, Experiments *e)
{
    for (int c = 0; c < N_HEAD_CHOICES; c++)
        for (int s = 0; s < N_SEEDS; s++) {
            Trained *t = &e->heads[c][s];
            if (head_choices[c] == N_HEADS && s == 0) {
                t->run = e->book;
                measure_trained(t, g);
            } else if (train_relative(t, &e->book.cfg, s, head_choices[c], 0) != 0)
                return -1;
        }
    return 0;
}
#line 6600 "attention.nw"
static int steps_to_perfect(const Trained *t)
{
    int first = t->run.result.first_perfect;
    return first > 0 ? first : t->run.cfg.steps;
}

static double mean_steps(const Trained *runs, int n)
{
    double sum = 0;
    for (int s = 0; s < n; s++)
        sum += steps_to_perfect(&runs[s]);
    return sum / n;
}
#line 6616 "attention.nw"
static int table_of_heads(const char *dir, const Experiments *e)
{
    Text md = {0};
    text_printf(&md, "| heads | $d_{\\mathrm{head}}$ | steps to 100/100, by seed | "
                "mean | final score | final loss |\n|--:|--:|:--|--:|:--|:--|\n");
    for (int c = 0; c < N_HEAD_CHOICES; c++) {
        const Trained *t = e->heads[c];
        text_printf(&md, "| %d | %d | ", head_choices[c], WIDTH / head_choices[c]);
        for (int s = 0; s < N_SEEDS; s++)
            if (t[s].run.result.first_perfect > 0)
                text_printf(&md, "%s%d", s ? ", " : "", t[s].run.result.first_perfect);
            else
                text_printf(&md, "%snone", s ? ", " : "");
        text_printf(&md, " | %.0f | ", mean_steps(t, N_SEEDS));
        for (int s = 0; s < N_SEEDS; s++)
            text_printf(&md, "%s%d", s ? ", " : "", t[s].correct);
        text_printf(&md, " | ");
        for (int s = 0; s < N_SEEDS; s++)
            text_printf(&md, "%s%.3f", s ? ", " : "", t[s].loss);
        text_printf(&md, " |\n");
    }
    return save_text(dir, "heads.md", &md);
}
#line 6645 "attention.nw"
static void numbers_of_heads(Text *out, const Experiments *e)
{
    char name[64];
    number(out, "heads_seeds", "%d", N_SEEDS);
    number(out, "heads_first_seed", "%llu", (unsigned long long)e->book.cfg.seed);
    number(out, "heads_last_seed", "%llu", (unsigned long long)e->book.cfg.seed + N_SEEDS - 1);
    for (int c = 0; c < N_HEAD_CHOICES; c++) {
        int fewest = steps_to_perfect(&e->heads[c][0]), most = fewest;
        for (int s = 1; s < N_SEEDS; s++) {
            fewest = fmin(fewest, steps_to_perfect(&e->heads[c][s]));
            most = fmax(most, steps_to_perfect(&e->heads[c][s]));
        }
        snprintf(name, sizeof name, "heads_%d_mean", head_choices[c]);
        number(out, name, "%.0f", mean_steps(e->heads[c], N_SEEDS));
        snprintf(name, sizeof name, "heads_%d_fewest", head_choices[c]);
        number(out, name, "%d", fewest);
        snprintf(name, sizeof name, "heads_%d_most", head_choices[c]);
        number(out, name, "%d", most);
    }
}
#line 6671 "attention.nw"
static int figure_heads(const char *fig, const Experiments *e)
{
    static float step[N_HEAD_CHOICES][N_SEEDS][MAX_RECORDS];
    static float loss[N_HEAD_CHOICES][N_SEEDS][MAX_RECORDS];
    static float correct[N_HEAD_CHOICES][N_SEEDS][MAX_RECORDS];
    static char titles[N_HEAD_CHOICES][32], labels[N_SEEDS][32];
    SvgSeries series[N_HEAD_CHOICES][N_SEEDS];
    Text svg = {0};
    double width = 760, height = 560, legend_h = 36;
    
#line 6687 "attention.nw"
for (int s = 0; s < N_SEEDS; s++)
    snprintf(labels[s], sizeof labels[s], "seed %llu",
             (unsigned long long)e->book.cfg.seed + (unsigned long long)s);
svg_begin(&svg, width, height);
for (int c = 0; c < N_HEAD_CHOICES; c++) {
    for (int s = 0; s < N_SEEDS; s++) {
        const Run *run = &e->heads[c][s].run;
        curves_of(run, step[c][s], loss[c][s], correct[c][s]);
        series[c][s] = (SvgSeries){labels[s], step[c][s], correct[c][s],
                                   run->result.n_records, 0, NULL};
    }
    snprintf(titles[c], sizeof titles[c], "%d head%s", head_choices[c],
             head_choices[c] > 1 ? "s" : "");
    SvgLinePanel panel = {.title = titles[c], .x_label = "step",
        .y_label = "problems right", .series = series[c], .n_series = N_SEEDS,
        .y_min = 0, .y_max = 100, .legend = SVG_LEGEND_NONE};
    SvgRect box = {10 + (c % 2) * (width - 20) / 2, 10 + (c / 2) * (height - 20 - legend_h) / 2,
                   (width - 20) / 2, (height - 20 - legend_h) / 2};
    svg_line_panel(&svg, box, &panel);
}
SvgRect size = svg_legend_size(series[0], N_SEEDS, 1);
svg_legend(&svg, (width - size.w) / 2, height - 10 - size.h, series[0], N_SEEDS, 1);
#line 6681 "attention.nw"
    svg_end(&svg);
    return save_text(fig, "heads_training.svg", &svg);
}
#line 6712 "attention.nw"
static int experiments_of_chapter_8(const char *dir, const char *fig, Text *numbers,
                                    Gpt *g, Experiments *e)
{
    Quota quota;
    int status = figure_the_cut(fig);
    if (status == 0)
        status = the_quota(dir, numbers, g, &quota);
    if (status == 0)
        status = train_the_heads(g, e);
    if (status == 0)
        status = claims_of_chapter_8(e, &quota);
    if (status == 0) {
        numbers_of_heads(numbers, e);
        status = table_of_heads(dir, e);
    }
    if (status == 0)
        status = figure_heads(fig, e);
    return status;
}
#line 6740 "attention.nw"
static int claims_of_chapter_8(const Experiments *e, const Quota *q)
{
    if (q->worst_sum > 1e-5)
        return fail("chapter 8 says every head's weights add up to 1; they do not");
    if (q->largest_gap > 0.1)
        return fail("chapter 8 says no head favours a or b on average by more than "
                    "0.1; one does by %.2f: revise the text", q->largest_gap);
    if (q->least_a < 0.2 || q->least_b < 0.2)
        return fail("chapter 8 says every problem is read at a and at b with a "
                    "weight of at least 0.2: revise the text");
    for (int c = 0; c < N_HEAD_CHOICES; c++)
        for (int s = 0; s < N_SEEDS; s++)
            if (e->heads[c][s].run.result.first_perfect < 0 || e->heads[c][s].correct != N_PROBLEMS)
                return fail("chapter 8 says every run of the heads experiment ends at "
                            "100/100; %d heads, seed %d does not", head_choices[c], s);
    
#line 6761 "attention.nw"
int fewest = steps_to_perfect(&e->heads[0][0]), most = fewest;
for (int s = 1; s < N_SEEDS; s++) {
    fewest = fmin(fewest, steps_to_perfect(&e->heads[0][s]));
    most = fmax(most, steps_to_perfect(&e->heads[0][s]));
}
double gap = mean_steps(e->heads[0], N_SEEDS) - mean_steps(e->heads[N_HEAD_CHOICES - 1], N_SEEDS);
for (int c = 1; c < N_HEAD_CHOICES; c++)
    if (mean_steps(e->heads[c], N_SEEDS) >= mean_steps(e->heads[c - 1], N_SEEDS))
        return fail("chapter 8 says more heads took fewer steps on average: revise");
if (most - fewest < gap)
    return fail("chapter 8 says the spread between one head's seeds exceeds the gap "
                "between one head and eight: revise the text");
#line 6756 "attention.nw"
    return 0;
}
#line 6784 "attention.nw"
static double no_gelu_collapse(Text *numbers, Gpt *g)
{
    static real map[WIDTH * WIDTH], shift[WIDTH], one[WIDTH];
    int rows = 0;
    double worst = 0, largest = 0;
    gpt_ffn_as_one_map(g, map, shift);
    g->ablate.no_gelu = 1;
    loss_on_all_problems(&g->model);
    g->ablate.no_gelu = 0;
    
#line 6802 "attention.nw"
for (int p = 0; p < N_PROBLEMS; p++) {
    int tokens[SEQ_LEN], T = problem_tokens(p, tokens);
    for (int t = 0; t < T; t++, rows++) {
        const real *ffn = g->act.ffn + (p * SEQ_LEN + t) * WIDTH;
        matmul_forward(one, g->act.ln2 + (p * SEQ_LEN + t) * WIDTH, map, shift,
                       1, WIDTH, WIDTH);
        for (int i = 0; i < WIDTH; i++) {
            worst = fmax(worst, fabs((double)one[i] - (double)ffn[i]));
            largest = fmax(largest, fabs((double)ffn[i]));
        }
    }
}
#line 6794 "attention.nw"
    number(numbers, "collapse_rows", "%d", rows);
    number(numbers, "collapse_max_diff", "%.*f", decimals_for(worst), worst);
    number(numbers, "collapse_largest", "%.1f", largest);
    return worst;
}
#line 6820 "attention.nw"
static int lowest_after_perfect(const Trained runs[N_SEEDS])
{
    int lowest = N_PROBLEMS;
    for (int s = 0; s < N_SEEDS; s++) {
        const Run *run = &runs[s].run;
        for (int r = 0; r < run->result.n_records; r++)
            if (run->result.first_perfect > 0 && run->log[r].step > run->result.first_perfect)
                lowest = run->log[r].correct < lowest ? run->log[r].correct : lowest;
    }
    return lowest;
}
#line 6837 "attention.nw"
static int train_without_gelu(Text *numbers, Experiments *e)
{
    const Trained *with = e->heads[N_HEAD_CHOICES - 2];    /* four heads */
    for (int s = 0; s < N_SEEDS; s++)
        if (train_relative(&e->no_gelu[s], &e->book.cfg, s, N_HEADS, 1) != 0)
            return -1;
    double loss = 0, loss_with = 0;
    for (int s = 0; s < N_SEEDS; s++) {
        loss += e->no_gelu[s].loss / N_SEEDS;
        loss_with += with[s].loss / N_SEEDS;
    }
    number(numbers, "nogelu_mean_loss", "%.3f", loss);
    number(numbers, "gelu_mean_loss", "%.3f", loss_with);
    number(numbers, "nogelu_mean_steps", "%.0f", mean_steps(e->no_gelu, N_SEEDS));
    number(numbers, "gelu_mean_steps", "%.0f", mean_steps(with, N_SEEDS));
    number(numbers, "nogelu_relapse", "%d", lowest_after_perfect(e->no_gelu));
    number(numbers, "gelu_relapse", "%d", lowest_after_perfect(with));
    return 0;
}
#line 6862 "attention.nw"
static int figure_without_gelu(const char *fig, const Experiments *e)
{
    static float step[2][N_SEEDS][MAX_RECORDS], loss[2][N_SEEDS][MAX_RECORDS];
    static float correct[2][N_SEEDS][MAX_RECORDS];
    SvgSeries losses[2 * N_SEEDS], scores[2 * N_SEEDS];
    SvgSeries key[2] = {{"with GELU", NULL, NULL, 0, 0, svg_palette(0)},
                        {"without GELU", NULL, NULL, 0, 1, svg_palette(1)}};
    double per_sequence, floor = loss_floor(&per_sequence);
    Text svg = {0};
    
#line 6884 "attention.nw"
for (int kind = 0; kind < 2; kind++)
    for (int s = 0; s < N_SEEDS; s++) {
        const Run *run = kind ? &e->no_gelu[s].run : &e->heads[N_HEAD_CHOICES - 2][s].run;
        int n = run->result.n_records, i = kind * N_SEEDS + s;
        curves_of(run, step[kind][s], loss[kind][s], correct[kind][s]);
        losses[i] = (SvgSeries){NULL, step[kind][s], loss[kind][s], n, kind, svg_palette(kind)};
        scores[i] = (SvgSeries){NULL, step[kind][s], correct[kind][s], n, kind,
                                svg_palette(kind)};
    }
#line 6872 "attention.nw"
    SvgLinePanel panels[2] = {
        {.title = "Loss", .x_label = "step", .y_label = "cross-entropy", .series = losses,
         .n_series = 2 * N_SEEDS, .log_y = 1, .h_line = {1, floor, "floor"},
         .legend = SVG_LEGEND_NONE},
        {.title = "Score", .x_label = "step", .y_label = "problems right", .series = scores,
         .n_series = 2 * N_SEEDS, .y_min = 0, .y_max = 100, .legend = SVG_LEGEND_NONE}};
    
#line 6896 "attention.nw"
double width = 760, height = 340;
SvgRect size = svg_legend_size(key, 2, 1);
svg_begin(&svg, width, height);
for (int k = 0; k < 2; k++)
    svg_line_panel(&svg, (SvgRect){10 + k * (width - 20) / 2, 10, (width - 20) / 2,
                                   height - 20 - size.h}, &panels[k]);
svg_legend(&svg, (width - size.w) / 2, height - 10 - size.h, key, 2, 1);
svg_end(&svg);
#line 6879 "attention.nw"
    return save_text(fig, "no_gelu_training.svg", &svg);
}
#line 6913 "attention.nw"
typedef struct {
    const char *name;
    int (*holds)(int a, int b);
} Concept;
static int a_is_7(int a, int b) { (void)b; return a == 7; }
static int two_digits(int a, int b) { return a * b >= 10; }
static int tens_digit_is_5(int a, int b) { return a * b / 10 == 5; }
static int answer_is_0(int a, int b) { return a * b == 0; }
static int b_is_7(int a, int b) { (void)a; return b == 7; }
static const Concept concepts[] = {
    {"a is 7", a_is_7}, {"the answer has two digits", two_digits},
    {"the tens digit is 5", tens_digit_is_5}, {"the answer is 0", answer_is_0},
    {"b is 7", b_is_7},
};
enum { N_CONCEPTS = sizeof concepts / sizeof concepts[0], N_DRAWN = 4 };
#line 6934 "attention.nw"
static void activations_at_equals(Gpt *g, real h[N_PROBLEMS * HIDDEN])
{
    loss_on_all_problems(&g->model);
    for (int p = 0; p < N_PROBLEMS; p++)
        memcpy(h + p * HIDDEN, g->act.hidden + (p * SEQ_LEN + EQUALS_AT) * HIDDEN,
               HIDDEN * sizeof(real));
}
#line 6949 "attention.nw"
static int best_threshold(const real *h, const unsigned char *has, double d)
{
    int best = 0;
    for (int cut = 0; cut < N_PROBLEMS; cut++) {    /* threshold at h[cut] */
        int right = 0;
        for (int p = 0; p < N_PROBLEMS; p++) {
            int above = d > 0 ? h[p * HIDDEN] >= h[cut * HIDDEN]
                              : h[p * HIDDEN] <= h[cut * HIDDEN];
            right += above == (has[p] != 0);
        }
        best = right > best ? right : best;
    }
    return best;
}
#line 6966 "attention.nw"
static int search_neurons(const char *dir, Text *numbers, const real *h,
                          int neuron[], double d[])
{
    Text md = {0};
    text_printf(&md, "| concept | problems with it | neuron | separation $d$ | "
                "right by one threshold |\n|:--|--:|--:|--:|--:|\n");
    for (int c = 0; c < (int)N_CONCEPTS; c++) {
        unsigned char has[N_PROBLEMS];
        int count = 0;
        for (int p = 0; p < N_PROBLEMS; p++)
            count += has[p] = (unsigned char)concepts[c].holds(p / 10, p % 10);
        neuron[c] = best_separating_column(h, N_PROBLEMS, HIDDEN, has, &d[c]);
        text_printf(&md, "| %s | %d | %d | %.2f | %d |\n", concepts[c].name, count,
                    neuron[c], d[c], best_threshold(h + neuron[c], has, d[c]));
        
#line 6987 "attention.nw"
char name[64];
snprintf(name, sizeof name, "neuron_%d", c + 1);
number(numbers, name, "%d", neuron[c]);
snprintf(name, sizeof name, "neuron_%d_d", c + 1);
number(numbers, name, "%.2f", d[c]);
#line 6981 "attention.nw"
    }
    return save_text(dir, "neurons.md", &md);
}
#line 6999 "attention.nw"
static int figure_neurons(const char *fig, const real *h, const int neuron[],
                          const double d[])
{
    static float values[N_DRAWN][N_PROBLEMS];
    static char titles[N_DRAWN][96];
    Text svg = {0};
    double width = 760, height = 700, w = (width - 20) / 2, hh = (height - 20) / 2;
    svg_begin(&svg, width, height);
    for (int c = 0; c < N_DRAWN; c++) {
        for (int p = 0; p < N_PROBLEMS; p++)
            values[c][p] = (float)h[p * HIDDEN + neuron[c]];
        snprintf(titles[c], sizeof titles[c], "%s: neuron %d, d = %.2f",
                 concepts[c].name, neuron[c], d[c]);
        
#line 7020 "attention.nw"
SvgHeatmap map = {titles[c], "b", "a", N_DIGITS, N_DIGITS, values[c], digit_labels,
                  digit_labels, NULL, 0};
SvgColorScale scale = svg_fit_scale((SvgColorScale){SVG_DIVERGING, 0, 0, NULL}, &map, 1);
double bar = svg_color_bar_width(scale);
SvgRect box = {10 + (c % 2) * w, 10 + (c / 2) * hh, w - bar - 16, hh};
svg_heatmap_panel(&svg, box, &map, scale);
svg_color_bar(&svg, (SvgRect){box.x + box.w + 4, box.y + 40, bar, hh - 100}, scale);
#line 7013 "attention.nw"
    }
    svg_end(&svg);
    return save_text(fig, "neurons.svg", &svg);
}
#line 7038 "attention.nw"
static int directions_for_90(const real *x, int d, double *share)
{
    static double cov[HIDDEN * HIDDEN], vectors[HIDDEN * HIDDEN];
    double total = 0, sum = 0;
    int count = 0;
    centred_covariance(cov, x, N_PROBLEMS, d);
    if (symmetric_eigen(cov, d, share, vectors) < 0)
        return -1;
    for (int i = 0; i < d; i++)
        total += share[i];
    for (int i = 0; i < d; i++) {
        share[i] /= total;
        count += sum < 0.9;
        sum += share[i];
    }
    return count;
}
#line 7058 "attention.nw"
static int principal_directions(const char *fig, Text *numbers, Gpt *g, const real *h)
{
    static real in[N_PROBLEMS * WIDTH];
    double share[HIDDEN], share_in[WIDTH];
    for (int p = 0; p < N_PROBLEMS; p++)    /* h left the batch's ln2 in place */
        memcpy(in + p * WIDTH, g->act.ln2 + (p * SEQ_LEN + EQUALS_AT) * WIDTH,
               WIDTH * sizeof(real));
    int count = directions_for_90(h, HIDDEN, share);
    int count_in = directions_for_90(in, WIDTH, share_in);
    if (count < 0 || count_in < 0)
        return fail("the eigen-solver did not converge");
    if (count > HIDDEN / 4 || count <= count_in)
        return fail("chapter 9 says the activations need more directions than the "
                    "inputs (%d against %d) but at most a quarter of 64: revise", count, count_in);
    number(numbers, "pca_90", "%d", count);
    number(numbers, "pca_90_input", "%d", count_in);
    number(numbers, "pca_first_share", "%.0f", 100 * share[0]);
    return figure_scree(fig, share, count, share_in);
}
#line 7083 "attention.nw"
static int figure_scree(const char *fig, const double *share, int count,
                        const double *share_in)
{
    static float x[HIDDEN], each[2][HIDDEN], total[2][HIDDEN];
    char marker[64];
    Text svg = {0};
    for (int i = 0; i < HIDDEN; i++) {
        x[i] = (float)(i + 1);
        each[0][i] = (float)share[i];
        total[0][i] = (float)share[i] + (i ? total[0][i - 1] : 0);
        each[1][i] = i < WIDTH && share_in[i] > 1e-7 ? (float)share_in[i] : NAN;
        total[1][i] = i < WIDTH ? (float)share_in[i] + (i ? total[1][i - 1] : 0) : NAN;
    }
    snprintf(marker, sizeof marker, "%d directions", count);
    
#line 7103 "attention.nw"
SvgSeries shares[2] = {{"64 activations after GELU", x, each[0], HIDDEN, 0, NULL},
                       {"32 inputs of the FFN", x, each[1], WIDTH, 1, NULL}};
SvgSeries totals[2] = {{"64 activations after GELU", x, total[0], HIDDEN, 0, NULL},
                       {"32 inputs of the FFN", x, total[1], WIDTH, 1, NULL}};
SvgLinePanel panels[2] = {
    {.title = "Share of the variance", .x_label = "direction", .y_label = "share",
     .series = shares, .n_series = 2, .log_y = 1, .x_min = 0, .x_max = HIDDEN,
     .legend = SVG_LEGEND_BELOW},
    {.title = "Running total", .x_label = "directions", .y_label = "share",
     .series = totals, .n_series = 2, .x_min = 0, .x_max = HIDDEN, .y_min = 0, .y_max = 1,
     .h_line = {1, 0.9, "90 %"}, .v_line = {1, count, marker}, .legend = SVG_LEGEND_NONE}};
svg_line_charts(&svg, panels, 2, NULL, 760, 340);
#line 7098 "attention.nw"
    return save_text(fig, "pca.svg", &svg);
}
#line 7118 "attention.nw"
static int experiments_of_chapter_9(const char *dir, const char *fig, Text *numbers,
                                    Gpt *g, Experiments *e)
{
    static real h[N_PROBLEMS * HIDDEN];
    int neuron[N_CONCEPTS];
    double d[N_CONCEPTS], collapse = no_gelu_collapse(numbers, g);
    int status = train_without_gelu(numbers, e);
    if (status == 0)
        status = figure_without_gelu(fig, e);
    activations_at_equals(g, h);
    if (status == 0)
        status = search_neurons(dir, numbers, h, neuron, d);
    if (status == 0)
        status = claims_of_chapter_9(e, collapse, d, neuron);
    if (status == 0)
        status = figure_neurons(fig, h, neuron, d);
    if (status == 0)
        status = principal_directions(fig, numbers, g, h);
    return status;
}
#line 7148 "attention.nw"
static int claims_of_chapter_9(const Experiments *e, double collapse,
                               const double separations[], const int neurons[])
{
    if (!(collapse < 1e-4))
        return fail("chapter 9 says the FFN without GELU is one map, to 1e-4; the "
                    "largest difference is %.1e", collapse);
    for (int s = 0; s < N_SEEDS; s++)
        if (e->no_gelu[s].correct != N_PROBLEMS
            || steps_to_perfect(&e->no_gelu[s]) <= steps_to_perfect(&e->heads[N_HEAD_CHOICES - 2][s]))
            return fail("chapter 9 says the model without GELU ends at 100/100 but needs "
                        "more steps than with GELU, from every seed; seed %d does not", s);
    if (lowest_after_perfect(e->no_gelu) >= lowest_after_perfect(e->heads[N_HEAD_CHOICES - 2]))
        return fail("chapter 9 says the model without GELU falls back further after its "
                    "first perfect score than the model with GELU: revise the text");
    for (int c = 1; c < N_DRAWN; c++)
        if (fabs(separations[c]) <= fabs(separations[0]))
            return fail("chapter 9 says 'a is 7' is the concept worst separated: revise");
    if (neurons[0] != neurons[N_CONCEPTS - 1])
        return fail("chapter 9 says one neuron is best for 'a is 7' and 'b is 7': revise");
    return 0;
}
#line 4691 "attention.nw"
static int command_train(const Arguments *a)
{
    const char *output = a->output ? a->output : "attention.ckpt";
    Run *run = malloc(sizeof *run);
    Gpt *g = new_transformer(a->seed);
    int status = run == NULL || g == NULL ? fail("out of memory") : 0;
    if (status == 0) {
        
#line 4714 "attention.nw"
Watcher watcher = {isatty(fileno(stderr)), 0, -1, g};
run->cfg = train_defaults();
run->cfg.seed = a->seed;
run->cfg.steps = a->steps;
run->cfg.observe = watch_training;
run->cfg.context = &watcher;
#line 4777 "attention.nw"
const char *hook = getenv("ATTENTION_TEST_NAN");
if (hook != NULL) {
    char name[32] = "";
    if (sscanf(hook, "%d:%31s", &watcher.corrupt_step, name) == 2)
        for (int t = 0; t < g->model.p.n_tables; t++)
            if (strcmp(name, g->model.p.specs[t].name) == 0)
                watcher.corrupt_table = t;
}
#line 4721 "attention.nw"
run->result = train(&g->model, &run->cfg, run->log, MAX_RECORDS);
if (watcher.progress)
    fputc('\n', stderr);
#line 4699 "attention.nw"
        status = training_fault(run, &g->model.p);
        if (status == 0)
            status = save_checkpoint(output, &g->model.p, g->n_heads);
        if (status == 0)
            status = save_training_log(output, run);
        if (status == 0)
            report_training(run, output);
    }
    delete_transformer(g);
    free(run);
    return status;
}
#line 4730 "attention.nw"
static int training_fault(const Run *run, const Params *p)
{
    int step = run->result.fault_step, table = run->result.fault_table;
    if (step == 0)
        return 0;
    if (table < 0)
        return fail("training stopped at step %d: the loss is not a finite number; "
                    "nothing was saved", step);
    return fail("training stopped at step %d: table %s holds a NaN or infinity; "
                "nothing was saved", step, p->specs[table].name);
}
#line 4758 "attention.nw"
static void watch_training(const TrainRecord *r, void *context)
{
    Watcher *w = context;
    if (w->progress)
        show_progress(r, NULL);
    if (w->corrupt_table >= 0 && r->step >= w->corrupt_step) {
        w->g->model.p.table[w->corrupt_table][0] = NAN;
        w->corrupt_table = -1;
    }
}
#line 4791 "attention.nw"
static void show_progress(const TrainRecord *r, void *context)
{
    (void)context;
    fprintf(stderr, "\rstep %6d   loss %.4f   score %3d/%d", r->step,
            (double)r->loss, r->correct, N_PROBLEMS);
    fflush(stderr);
}

static void report_training(const Run *run, const char *output)
{
    const TrainRecord *last = &run->log[run->result.n_records - 1];
    if (run->result.first_perfect > 0)
        printf("first 100/100 at step %d\n", run->result.first_perfect);
    printf("saved %s after %d steps\n", output, run->result.steps_done);
    printf("%d/%d\n", last->correct, N_PROBLEMS);
}
#line 4815 "attention.nw"
static int save_training_log(const char *checkpoint, const Run *run)
{
    char path[4096];
    Text log = {0};
    if (snprintf(path, sizeof path, "%s.log", checkpoint) >= (int)sizeof path)
        return fail("path too long: %s.log", checkpoint);
    const TrainConfig *c = &run->cfg;
    text_printf(&log, "# seed=%llu steps=%d batch=%d lr=%.9g eval_every=%d\n",
                (unsigned long long)c->seed, c->steps, c->batch, (double)c->lr, c->eval_every);
    text_printf(&log, "# step\tloss\tcorrect\n");
    for (int r = 0; r < run->result.n_records; r++)
        text_printf(&log, "%d\t%.9g\t%d\n", run->log[r].step,
                    (double)run->log[r].loss, run->log[r].correct);
    if (log.failed)
        return text_free(&log), fail("out of memory writing %s", path);
    int status = write_file(path, log.data, log.len);
    text_free(&log);
    return status;
}
#line 4840 "attention.nw"
static int load_training_log(const char *checkpoint, Run *run)
{
    char path[4096], line[256];
    snprintf(path, sizeof path, "%s.log", checkpoint);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return fail("cannot read %s (written by attention train): %s", path, strerror(errno));
    
#line 4864 "attention.nw"
unsigned long long seed = 0;
double lr = 0;
run->cfg = train_defaults();
int settings = fgets(line, sizeof line, f) != NULL
    && sscanf(line, "# seed=%llu steps=%d batch=%d lr=%lf eval_every=%d", &seed,
              &run->cfg.steps, &run->cfg.batch, &lr, &run->cfg.eval_every) == 5;
run->cfg.seed = seed;
run->cfg.lr = (real)lr;
#line 4848 "attention.nw"
    int n = 0, bad = fgets(line, sizeof line, f) == NULL || line[0] != '#' || !settings;
    while (!bad && n < MAX_RECORDS && fgets(line, sizeof line, f) != NULL) {
        TrainRecord *r = &run->log[n++];
        double loss;
        bad = sscanf(line, "%d\t%lf\t%d", &r->step, &loss, &r->correct) != 3;
        r->loss = (real)loss;
    }
    bad = bad || n == 0 || !feof(f);
    fclose(f);
    run->result.n_records = n;
    
#line 4875 "attention.nw"
run->result.first_perfect = -1;
for (int r = n - 1; r >= 0; r--)
    if (run->log[r].correct == N_PROBLEMS)
        run->result.first_perfect = run->log[r].step;
run->result.steps_done = n > 0 ? run->log[n - 1].step : 0;
#line 4859 "attention.nw"
    return bad ? fail("%s is not a training log written by attention train", path) : 0;
}
#line 4888 "attention.nw"
static int command_ask(const Arguments *a)
{
    int problems[MAX_WORDS];
    if (a->n_words == 0)
        return usage_error("ask: give at least one problem, such as 7*8=");
    for (int i = 0; i < a->n_words; i++)
        if (parse_question(a->words[i], &problems[i]) != 0)
            return 2;
    Gpt *g = load_transformer(a->model);
    if (g == NULL)
        return 1;
    for (int i = 0; i < a->n_words; i++) {
        char answer[8];
        g->model.answer(&g->model, problems[i], answer);
        printf("%s%s\n", a->words[i], answer);
    }
    delete_transformer(g);
    return 0;
}
#line 4918 "attention.nw"
static void print_vector(const char *label, const real *x, int n)
{
    printf("  %-14s", label);
    for (int i = 0; i < n; i++)
        printf("%s%+.3f", i > 0 && i % 8 == 0 ? "\n                 " : " ", (double)x[i]);
    printf("\n");
}
#line 4928 "attention.nw"
static int command_trace(const Arguments *a)
{
    int tokens[SEQ_LEN], T = 0;
    if (a->n_words != 1)
        return usage_error("trace: give exactly one sequence, such as 7*8=");
    if (parse_tokens(a->words[0], tokens, &T) != 0)
        return 2;
    if (a->pos >= T)
        return usage_error("trace: --pos %d is past the end of '%s' (positions 0 to %d)",
                           a->pos, a->words[0], T - 1);
    Gpt *g = load_transformer(a->model);
    Trace *trace = malloc(sizeof *trace);
    if (g == NULL || trace == NULL) {
        delete_transformer(g);
        free(trace);
        return g == NULL ? 1 : (fail("out of memory"), 1);
    }
    gpt_trace(g, tokens, T, trace);
    print_trace(trace, a->pos < 0 ? T - 1 : a->pos, a->words[0]);
    delete_transformer(g);
    free(trace);
    return 0;
}
#line 4956 "attention.nw"
static void print_trace(const Trace *tr, int t, const char *text)
{
    char label[64];
    printf("trace of \"%s\" at position t = %d (token '%c')\n\n", text, t, text[t]);
    printf("1. input x[%d] = token vector of '%c' + position vector %d\n", t, text[t], t);
    print_vector("x[t]", tr->x[t], WIDTH);
    printf("2. after LayerNorm\n");
    print_vector("h[t]", tr->ln1[t], WIDTH);
    printf("3. query of row t, one line per head (d_head = %d)\n", WIDTH / tr->n_heads);
    print_vector("q[t]", tr->q[t], WIDTH);
    
#line 4982 "attention.nw"
int d_head = WIDTH / tr->n_heads;
printf("4. keys of the rows u <= t and the scores of row t\n");
for (int head = 0; head < tr->n_heads; head++) {
    const real *q = tr->q[t] + head * d_head;
    for (int u = 0; u <= t; u++) {
        double dot = 0;
        for (int i = 0; i < d_head; i++)
            dot += (double)q[i] * (double)tr->k[u][head * d_head + i];
        snprintf(label, sizeof label, "head %d k[%d]", head, u);
        print_vector(label, tr->k[u] + head * d_head, d_head);
        printf("  %-14s q.k = %+.3f   /sqrt(%d) = %+.3f   weight = %.3f\n", "",
               dot, d_head, (double)tr->scores[head][t][u], (double)tr->weights[head][t][u]);
    }
}
printf("5. weights of row t (each head's sum to 1)\n");
for (int head = 0; head < tr->n_heads; head++) {
    printf("  head %d       ", head);
    for (int u = 0; u <= t; u++)
        printf("  u=%d '%c' %.3f", u, char_of_token(tr->tokens[u]), (double)tr->weights[head][t][u]);
    printf("\n");
}
#line 4967 "attention.nw"
    printf("6. the heads' mixes of v, concatenated, times Wo, plus x[t]\n");
    print_vector("mix[t]", tr->heads[t], WIDTH);
    print_vector("x2[t]", tr->x2[t], WIDTH);
    printf("7. after the FFN and its residual\n");
    print_vector("x3[t]", tr->x3[t], WIDTH);
    
#line 5006 "attention.nw"
printf("8. scores for the next token (after the final LayerNorm and W_out)\n");
printf("  ");
for (int token = 0; token < VOCAB; token++)
    printf(" '%c' %+.2f", char_of_token(token), (double)tr->logits[t][token]);
printf("\n\nnext token: '%c'\n", char_of_token(argmax(tr->logits[t], VOCAB)));
#line 4973 "attention.nw"
}
#line 5028 "attention.nw"
static int part_1_to_5(const Arguments *a, const char *dir, const char *fig, Text *numbers)
{
    Run *mlp = malloc(sizeof *mlp);
    int status = mlp == NULL ? fail("out of memory") : figures_of_chapter_1(fig, numbers, mlp);
    if (status == 0)
        status = figures_of_chapters_2_to_5(a->model, dir, fig, numbers, mlp);
    free(mlp);
    return status;
}

static const struct {
    const char *name;
    int (*run)(const Arguments *a, const char *dir, const char *fig, Text *numbers);
} parts[] = {
    {"1-5", part_1_to_5},
    {"6-7", part_6_7},
    {"8-10", part_8_to_10},
};
#line 5049 "attention.nw"
static int command_figures(const Arguments *a)
{
    char fig[4096], name[64];
    const char *dir = a->output;
    int found = 0;
    if (dir == NULL)
        return usage_error("figures: missing -o DIR");
    if (snprintf(fig, sizeof fig, "%s/fig", dir) >= (int)sizeof fig)
        return fail("path too long: %s", dir), 1;
    if (make_directory(dir) != 0 || make_directory(fig) != 0)
        return 1;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (a->part != NULL && strcmp(a->part, parts[i].name) != 0)
            continue;
        Text numbers = {0};
        found = 1;
        snprintf(name, sizeof name, "numbers-%s.txt", parts[i].name);
        if (parts[i].run(a, dir, fig, &numbers) != 0)
            return text_free(&numbers), 1;
        if (save_text(dir, name, &numbers) != 0)
            return 1;
    }
    return found ? 0 : usage_error("figures: no part named '%s'", a->part);
}
#line 9543 "attention.nw"
static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
#line 9562 "attention.nw"
static double time_training(const TrainConfig *cfg, int *first_perfect)
{
    static TrainRecord log[MAX_RECORDS];
    Gpt *g = new_transformer(cfg->seed);
    if (g == NULL)
        return -1;
    double start = seconds_now();
    TrainResult r = train(&g->model, cfg, log, MAX_RECORDS);
    double elapsed = seconds_now() - start;
    if (first_perfect)
        *first_perfect = r.first_perfect;
    delete_transformer(g);
    return elapsed;
}
#line 9579 "attention.nw"
static int command_bench(const Arguments *a)
{
    enum { MAX_REPEAT = 64 };
    double per_step[MAX_REPEAT], to_perfect[MAX_REPEAT];
    int repeat = a->repeat, perfect = -1;
    TrainConfig timed = train_defaults(), until = train_defaults();
    timed.steps = a->steps;
    timed.eval_every = a->steps + 1;        /* evaluate only at the last step */
    until.stop_at_perfect = 1;
    for (int r = 0; r < repeat; r++) {
        double eval = time_evaluation();
        double t = time_training(&timed, NULL), u = time_training(&until, &perfect);
        if (t < 0 || u < 0 || eval < 0)
            return fail("out of memory");
        per_step[r] = (t - eval) / timed.steps;
        to_perfect[r] = u;
    }
    
#line 9619 "attention.nw"
qsort(per_step, (size_t)repeat, sizeof per_step[0], compare_doubles);
qsort(to_perfect, (size_t)repeat, sizeof to_perfect[0], compare_doubles);
double ms = 1e3 * per_step[repeat / 2];
double flops = gpt_train_flops(timed.batch, SEQ_LEN - 1);     /* six rows */
printf("c_ms_per_step %.3f   (median of %d runs of %d steps, batch %d; min %.3f, max %.3f)\n",
       ms, repeat, timed.steps, timed.batch, 1e3 * per_step[0], 1e3 * per_step[repeat - 1]);
printf("c_seconds_to_perfect %.3f   (100/100 at step %d, evaluating every %d steps)\n",
       to_perfect[repeat / 2], perfect, until.eval_every);
printf("c_gflops %.2f   (%.2f MFLOP per step)\n", flops / (ms * 1e-3) / 1e9, flops / 1e6);
#line 9597 "attention.nw"
    return 0;
}
#line 9602 "attention.nw"
static double time_evaluation(void)
{
    Gpt *g = new_transformer(1);
    if (g == NULL)
        return -1;
    double start = seconds_now();
    score(&g->model, NULL);
    double elapsed = seconds_now() - start;
    delete_transformer(g);
    return elapsed;
}
#line 5082 "attention.nw"
static const char usage[] =
    "usage: attention COMMAND [OPTIONS]\n"
    "\n"
    "Commands:\n"
    "  train [--seed N] [--steps N] [-o FILE]\n"
    "        train the transformer; save it to FILE (default attention.ckpt)\n"
    "        and its training log to FILE.log; print the final score\n"
    "  ask [-m FILE] PROBLEM...\n"
    "        answer problems such as 7*8= with the model in FILE\n"
    "  trace [-m FILE] SEQUENCE [--pos N]\n"
    "        print every number of the forward pass of SEQUENCE (such as\n"
    "        7*8=) at position N (default: the last)\n"
    "  figures [-m FILE] -o DIR [--part PART]\n"
    "        run the book's experiments with the model in FILE (all parts, or\n"
    "        one: 1-5, 6-7 or 8-10); write DIR/numbers-PART.txt, the tables DIR/*.md and\n"
    "        the figures DIR/fig/*.svg\n"
    "  bench [--steps N] [--repeat N]\n"
    "        time training: median milliseconds per step over N runs (default\n"
    "        5), seconds to the first 100/100, GFLOP/s\n"
    "\n"
    "Options:\n"
    "  --seed N    seed of the initial weights and batches (default 1)\n"
    "  --steps N   training steps, 1 to 1000000 (default 1000)\n"
    "  -m FILE     the model to use (default attention.ckpt)\n"
    "  -h, --help  show this help (also after a command)\n"
    "\n"
    "Exit status: 0 on success, 1 on a failure while running, 2 on bad usage.\n";
#line 5115 "attention.nw"
static const struct {
    const char *name, *options;
    int (*run)(const Arguments *a);
} commands[] = {
    {"train", "--seed --steps -o", command_train},
    {"ask", "-m", command_ask},
    {"trace", "-m --pos", command_trace},
    {"figures", "-m -o --part", command_figures},
    {"bench", "--steps --repeat", command_bench},
};
#line 5128 "attention.nw"
int main(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("missing command");
    for (int i = 1; i < argc; i++)
        if (is_help(argv[i]))
            return fputs(usage, stdout), 0;
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        if (strcmp(argv[1], commands[c].name) != 0)
            continue;
        Arguments a;
        int status = parse_arguments(argc, argv, commands[c].options, &a);
        if (status != 0)
            return status;
        if (forms_agree_at_start_up() != 0)
            return 1;
        status = commands[c].run(&a);
        return status == 0 ? 0 : status == 2 ? 2 : 1;
    }
    return usage_error("unknown command '%s'", argv[1]);
}
