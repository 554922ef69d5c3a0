/* exp_perceptron.c: the perceptron of chapter 1, trained and drawn
   (tangled; edit attention.nw) */
#include "experiments.h"
#include "files.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void learned_at(const Run *run, int step[N_PROBLEMS])
{
    for (int p = 0; p < N_PROBLEMS; p++) {
        step[p] = -1;
        for (int r = run->result.n_records - 1;
             r >= 0 && run->log[r].solved[p]; r--)
            step[p] = run->log[r].step;
    }
}

static void numbers_of_the_perceptron(Text *out, const Run *run,
                                      size_t n_params,
                                      const int step[N_PROBLEMS])
{
    int last = run->result.n_records - 1;
    numbers_of_training(out, run, "mlp");
    number(out, "mlp_params", "%zu", n_params);
    number(out, "mlp_final_loss", "%.4f", (double)run->log[last].loss);
    number(out, "mlp_final_correct", "%d", run->log[last].correct);
    int earliest = 0, latest = 0;
    int zeros = 0, zero_sum = 0, others = 0, other_sum = 0;
    int ones = 0, one_sum = 0;
    for (int p = 1; p < N_PROBLEMS; p++) {
        if (step[p] < step[earliest]) earliest = p;
        if (step[p] > step[latest]) latest = p;
    }
    for (int p = 0; p < N_PROBLEMS; p++) {
        int has_zero = p / 10 == 0 || p % 10 == 0;
        if (has_zero) { zeros++; zero_sum += step[p]; }
        else { others++; other_sum += step[p]; }
        if (!has_zero && (p / 10 == 1 || p % 10 == 1)) {
            ones++;
            one_sum += step[p];
        }
    }
    number(out, "mlp_earliest_problem", "%d*%d", earliest / 10, earliest % 10);
    number(out, "mlp_earliest_step", "%d", step[earliest]);
    number(out, "mlp_latest_problem", "%d*%d", latest / 10, latest % 10);
    number(out, "mlp_latest_step", "%d", step[latest]);
    number(out, "mlp_zero_mean_step", "%.0f", zero_sum / (double)zeros);
    number(out, "mlp_other_mean_step", "%.0f", other_sum / (double)others);
    number(out, "mlp_one_mean_step", "%.0f", one_sum / (double)ones);
}

static int figure_mlp_training(const char *fig, const Run *run)
{
    static float step[MAX_RECORDS], loss[MAX_RECORDS], correct[MAX_RECORDS];
    char marker[64];
    Text svg = {0};
    int n = run->result.n_records;
    curves_of(run, step, loss, correct);
    snprintf(marker, sizeof marker, "100/100 at step %d",
             run->result.first_perfect);
    SvgSeries losses = {"perceptron", step, loss, n, 0, NULL};
    SvgSeries scores = {"perceptron", step, correct, n, 0, NULL};
    SvgLinePanel panels[2] = {
        {.title = "Loss", .x_label = "step", .y_label = "cross-entropy",
         .series = &losses, .n_series = 1, .log_y = 1,
         .legend = SVG_LEGEND_NONE},
        {.title = "Score", .x_label = "step", .y_label = "problems right",
         .series = &scores, .n_series = 1, .y_min = 0, .y_max = 100,
         .v_line = {run->result.first_perfect > 0,
                    run->result.first_perfect, marker},
         .legend = SVG_LEGEND_NONE},
    };
    svg_line_charts(&svg, panels, 2, NULL, 720, 300);
    return save_text(fig, "mlp_training.svg", &svg);
}

static int figure_mlp_learned_at(const char *fig,
                                 const int step[N_PROBLEMS])
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

int perceptron_experiments(const char *model, const char *dir,
                           const char *fig, Text *numbers, Claims *claims)
{
    (void)model, (void)dir;   /* it trains its own model, writes no table */
    (void)claims;             /* checked with the specimen's claims */
    int step[N_PROBLEMS];
    size_t n_params = 0;
    Run *run = malloc(sizeof *run);
    int status = run == NULL ? fail("out of memory")
                             : run_mlp(run, &n_params);
    if (status == 0) {
        learned_at(run, step);
        numbers_of_the_perceptron(numbers, run, n_params, step);
        status = figure_mlp_training(fig, run);
    }
    if (status == 0)
        status = figure_mlp_learned_at(fig, step);
    free(run);
    return status;
}

