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

typedef struct { double zero, other, one, neither; } LearnedBy;

static LearnedBy mean_step_learned(const int step[N_PROBLEMS])
{
    double sum[3] = {0, 0, 0};      /* with a 0; a 1; neither */
    int count[3] = {0, 0, 0};
    for (int p = 0; p < N_PROBLEMS; p++) {
        int a = p / 10, b = p % 10;
        int group = a == 0 || b == 0 ? 0 : a == 1 || b == 1 ? 1 : 2;
        sum[group] += step[p];
        count[group]++;
    }
    return (LearnedBy){sum[0] / count[0],
                       (sum[1] + sum[2]) / (count[1] + count[2]),
                       sum[1] / count[1], sum[2] / count[2]};
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
    for (int p = 1; p < N_PROBLEMS; p++) {
        if (step[p] < step[earliest]) earliest = p;
        if (step[p] > step[latest]) latest = p;
    }
    LearnedBy by = mean_step_learned(step);
    number(out, "mlp_earliest_problem", "%d*%d", earliest / 10, earliest % 10);
    number(out, "mlp_earliest_step", "%d", step[earliest]);
    number(out, "mlp_latest_problem", "%d*%d", latest / 10, latest % 10);
    number(out, "mlp_latest_step", "%d", step[latest]);
    number(out, "mlp_zero_mean_step", "%.0f", by.zero);
    number(out, "mlp_other_mean_step", "%.0f", by.other);
    number(out, "mlp_one_mean_step", "%.0f", by.one);
    number(out, "mlp_neither_mean_step", "%.0f", by.neither);
}

static int figure_mlp_training(const char *fig, const Run *run)
{
    static float step[MAX_RECORDS], loss[MAX_RECORDS], correct[MAX_RECORDS];
    char marker[64];
    Text svg[2] = {{0}, {0}};
    int n = run->result.n_records;
    curves_of(run, step, loss, correct);
    snprintf(marker, sizeof marker, "100/100\nat step %d",
             run->result.first_perfect);
    SvgSeries losses = {"perceptron", step, loss, n, 0, NULL, 0};
    SvgSeries scores = {"perceptron", step, correct, n, 0, NULL, 0};
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
    for (int narrow = 0; narrow < 2; narrow++)
        svg_line_charts(&svg[narrow], panels, 2,
                        narrow ? NARROW_WIDTH : 760, 360);
    return save_figure(fig, "mlp_training.svg", svg);
}

static int figure_mlp_learned_at(const char *fig,
                                 const int step[N_PROBLEMS])
{
    float values[N_PROBLEMS];
    Text svg[2] = {{0}, {0}};
    for (int p = 0; p < N_PROBLEMS; p++)
        values[p] = step[p] < 0 ? NAN : (float)step[p];
    SvgHeatmap map = {
        .title = NULL, .x_label = "$b$", .y_label = "$a$", .rows = N_DIGITS,
        .cols = N_DIGITS, .values = values, .row_labels = digit_labels,
        .col_labels = digit_labels, .cell_format = "%.0f",
    };
    SvgColorScale scale = {SVG_SEQUENTIAL, 0, 0, "step learned"};
    for (int narrow = 0; narrow < 2; narrow++)
        svg_heatmaps(&svg[narrow], &map, 1, 1, scale,
                     narrow ? NARROW_WIDTH : 600, 520);
    return save_figure(fig, "mlp_learned_at.svg", svg);
}

static int perceptron_sweep(Text *numbers, Claims *claims, Run *run)
{
    int steps[N_SEEDS], reached = 0, zeros_first = 0, ones_sooner = 0;
    int smaller_lead = 0;
    double first[N_SEEDS], zero_lead[N_SEEDS], one_lead[N_SEEDS];
    int step[N_PROBLEMS];
    size_t n_params;
    for (int s = 0; s < N_SEEDS; s++) {
        if (s > 0 && run_mlp(run, &n_params, s) != 0)
            return -1;
        first[s] = steps[s] = steps_to_perfect(run);
        reached += run->result.first_perfect > 0;
        learned_at(run, step);
        LearnedBy by = mean_step_learned(step);
        zeros_first += by.zero < by.other;
        ones_sooner += by.one < by.neither;
        zero_lead[s] = by.other - by.zero;
        one_lead[s] = by.neither - by.one;
        smaller_lead += one_lead[s] < zero_lead[s] / 4;
    }
    char leads[N_SEEDS * 16] = "";
    for (int s = 0, used = 0; s < N_SEEDS; s++)
        used += snprintf(leads + used, sizeof leads - (size_t)used,
                         "%s%.0f and %.0f", s ? "; " : "", zero_lead[s],
                         one_lead[s]);
    number(numbers, "mlp_n_seeds", "%d", N_SEEDS);
    numbers_of_spread(numbers, "mlp_sweep_first", "%g", first, N_SEEDS);
    number(numbers, "mlp_sweep_ones_sooner", "%d", ones_sooner);
    numbers_of_spread(numbers, "mlp_sweep_zero_lead", "%.0f", zero_lead,
                      N_SEEDS);
    numbers_of_spread(numbers, "mlp_sweep_one_lead", "%.0f", one_lead,
                      N_SEEDS);
    claim_every(claims, reached, N_SEEDS, CHAPTER_PERCEPTRON,
          "the perceptron reaches 100/100 from every seed",
          "first 100/100 at steps %s", seed_list(steps).text);
    claim_every(claims, zeros_first, N_SEEDS, CHAPTER_PERCEPTRON,
          "the problems with a 0 are learned first, on average, from every "
          "seed", "on %d of %d seeds", zeros_first, N_SEEDS);
    claim_every(claims, smaller_lead, N_SEEDS, CHAPTER_PERCEPTRON,
          "the lead of the problems with a factor 1 is less than a quarter "
          "of the lead of the problems with a 0, on every seed",
          "leads in steps, seed by seed: %s", leads);
    return 0;
}

int perceptron_experiments(const char *model, const char *sweep,
                           const char *dir, const char *fig,
                           Text *numbers, Claims *claims)
{
    (void)model, (void)sweep;   /* it trains its own model, */
    (void)dir;                  /* and writes no table */
    int step[N_PROBLEMS];
    size_t n_params = 0;
    Run *run = malloc(sizeof *run);
    int status = run == NULL ? fail("out of memory")
                             : run_mlp(run, &n_params, 0);
    if (status == 0) {
        learned_at(run, step);
        numbers_of_the_perceptron(numbers, run, n_params, step);
        status = figure_mlp_training(fig, run);
    }
    if (status == 0)
        status = figure_mlp_learned_at(fig, step);
    if (status == 0)
        status = perceptron_sweep(numbers, claims, run);
    free(run);
    return status;
}

