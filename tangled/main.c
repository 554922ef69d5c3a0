#line 935 "attention.nw"
/* main.c: the command-line program (tangled; edit attention.nw) */
#define _POSIX_C_SOURCE 200809L
#include "attention.h"
#include "svg.h"
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#line 964 "attention.nw"
static int fail(const char *format, ...);
static int fail_errno(const char *path, int error);

static int write_file(const char *path, const char *data, size_t length)
{
    char temporary[4096];
    if (snprintf(temporary, sizeof temporary, "%s.tmp", path) >= (int)sizeof temporary)
        return fail_errno(path, ENAMETOOLONG);
    FILE *f = fopen(temporary, "wb");
    if (f == NULL)
        return fail_errno(temporary, errno);
    size_t written = fwrite(data, 1, length, f);
    int error = written != length ? errno : 0;
    if (fclose(f) != 0 && error == 0)
        error = errno;
    if (error == 0 && rename(temporary, path) != 0)
        error = errno;
    if (error != 0) {
        remove(temporary);
        return fail_errno(path, error ? error : EIO);
    }
    return 0;
}
#line 994 "attention.nw"
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
#line 1012 "attention.nw"
static int make_directory(const char *path)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return fail("cannot create directory %s: %s", path, strerror(errno));
    return 0;
}
#line 1024 "attention.nw"
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
#line 1048 "attention.nw"
static void number(Text *numbers, const char *name, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    char value[256];
    vsnprintf(value, sizeof value, format, args);
    va_end(args);
    text_printf(numbers, "%s %s\n", name, value);
}
#line 1066 "attention.nw"
enum { MAX_RECORDS = 1024 };
typedef struct {
    TrainConfig cfg;
    TrainResult result;
    TrainRecord log[MAX_RECORDS];
} Run;
#line 1075 "attention.nw"
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
#line 1095 "attention.nw"
static void learned_at(const Run *run, int step[N_PROBLEMS])
{
    for (int p = 0; p < N_PROBLEMS; p++) {
        step[p] = -1;
        for (int r = run->result.n_records - 1; r >= 0 && run->log[r].solved[p]; r--)
            step[p] = run->log[r].step;
    }
}
#line 1109 "attention.nw"
static void numbers_of_chapter_1(Text *out, const Run *run, size_t n_params,
                                 const int step[N_PROBLEMS])
{
    const TrainConfig *cfg = &run->cfg;
    int first = run->result.first_perfect, last = run->result.n_records - 1;
    number(out, "mlp_params", "%zu", n_params);
    number(out, "mlp_seed", "%llu", (unsigned long long)cfg->seed);
    number(out, "mlp_steps", "%d", cfg->steps);
    number(out, "mlp_batch", "%d", cfg->batch);
    number(out, "mlp_lr", "%g", (double)cfg->lr);
    number(out, "mlp_eval_every", "%d", cfg->eval_every);
    number(out, "mlp_first_perfect", "%d", first);
    number(out, "mlp_problems_seen", "%d", first * cfg->batch);
    number(out, "mlp_epochs", "%.0f", first * cfg->batch / (double)N_PROBLEMS);
    number(out, "mlp_final_loss", "%.4f", (double)run->log[last].loss);
    number(out, "mlp_final_correct", "%d", run->log[last].correct);
    
#line 1130 "attention.nw"
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
#line 1126 "attention.nw"
}
#line 1157 "attention.nw"
static void curves_of(const Run *run, float *step, float *loss, float *correct)
{
    for (int r = 0; r < run->result.n_records; r++) {
        step[r] = (float)run->log[r].step;
        loss[r] = (float)run->log[r].loss;
        correct[r] = (float)run->log[r].correct;
    }
}
#line 1168 "attention.nw"
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
#line 1195 "attention.nw"
static const char *const digit_labels[N_DIGITS] =
    {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};

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
#line 1218 "attention.nw"
static int figures_of_chapter_1(const char *fig, Text *numbers)
{
    int step[N_PROBLEMS], status = 0;
    size_t n_params = 0;
    Run *run = malloc(sizeof *run);
    if (run == NULL)
        return fail("out of memory");
    run->cfg = train_defaults();
    if (run_mlp(run, &n_params) != 0)
        status = -1;
    else {
        learned_at(run, step);
        numbers_of_chapter_1(numbers, run, n_params, step);
        if (figure_mlp_training(fig, run) != 0 || figure_mlp_learned_at(fig, step) != 0)
            status = -1;
    }
    free(run);
    return status;
}
#line 1246 "attention.nw"
static int command_figures(const char *dir)
{
    char fig[4096];
    Text numbers = {0};
    if (snprintf(fig, sizeof fig, "%s/fig", dir) >= (int)sizeof fig)
        return fail("path too long: %s", dir);
    if (make_directory(dir) != 0 || make_directory(fig) != 0)
        return -1;
    if (figures_of_chapter_1(fig, &numbers) != 0) {
        text_free(&numbers);
        return -1;
    }
    return save_text(dir, "numbers.txt", &numbers);
}
#line 1269 "attention.nw"
static const char usage[] =
    "usage: attention COMMAND [OPTIONS]\n"
    "\n"
    "Commands:\n"
    "  figures -o DIR   run the book's experiments; write DIR/numbers.txt\n"
    "                   and the figures as DIR/fig/*.svg\n"
    "\n"
    "Options:\n"
    "  -h, --help       show this help (also after a command)\n";

static int usage_error(const char *format, const char *arg)
{
    fputs("attention: ", stderr);
    fprintf(stderr, format, arg);
    fputs("\nTry 'attention --help'.\n", stderr);
    return 2;
}
#line 1289 "attention.nw"
static int is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

static int main_figures(int argc, char **argv)
{
    const char *dir = NULL;
    for (int i = 2; i < argc; i++) {
        if (is_help(argv[i]))
            return fputs(usage, stdout), 0;
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc && argv[i + 1][0] != '\0')
            dir = argv[++i];
        else if (strcmp(argv[i], "-o") == 0)
            return usage_error("option %s needs a directory", argv[i]);
        else
            return usage_error("figures: unexpected argument '%s'", argv[i]);
    }
    if (dir == NULL)
        return usage_error("%s: missing -o DIR", "figures");
    return command_figures(dir) == 0 ? 0 : 1;
}
#line 1314 "attention.nw"
int main(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("%s", "missing command");
    if (is_help(argv[1]))
        return fputs(usage, stdout), 0;
    if (strcmp(argv[1], "figures") == 0)
        return main_figures(argc, argv);
    return usage_error("unknown command '%s'", argv[1]);
}
