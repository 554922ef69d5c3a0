/* exp_layouts.c: the book's transformer on problems in six layouts
   (tangled; edit attention.nw) */
#include "experiments.h"
#include "files.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { READS_A, READS_B, READS_EQUALS, READS_ELSE };
typedef struct {
    Run run[N_SEEDS];
    int right[N_SEEDS][N_LAYOUTS];  /* problems answered, by writing */
    int parsed;                     /* strings the parser reads right */
    unsigned char read[N_SEEDS][MAX_HEADS][N_PROBLEMS][N_LAYOUTS];
    int on_operand[N_SEEDS][MAX_HEADS];     /* strings, of all 600 */
    int follows[N_SEEDS][MAX_HEADS];        /* problems, a != b */
    int best[N_SEEDS];                      /* the head that follows most */
    float equals_row[N_LAYOUTS][MAX_HEADS][MAX_T];  /* 7*8=, seed 0 */
} LayoutRuns;

static void keep_the_figure_s_rows(LayoutRuns *e, Gpt *g);
static void follow_the_operands(LayoutRuns *e, int s, int n_heads);
static void follows_by_operand(const LayoutRuns *e, int s, int head,
                               int follow[2]);

static void claims_about_layouts(Claims *claims, const LayoutRuns *e,
                                 const Run *book);
static int read_in_every_layout(const LayoutRuns *e, int head);
static int numbers_of_layouts(Text *out, const LayoutRuns *e);
static int table_of_layouts(const char *dir);
static int table_of_runs(const char *dir, const LayoutRuns *e);
static int figure_layouts(const char *fig, const LayoutRuns *e);

Gpt *new_layout_transformer(uint64_t seed)
{
    LayoutGpt *l = malloc(sizeof *l);
    if (l == NULL || layout_gpt_create(l, seed) != 0) {
        free(l);
        fail("out of memory for the transformer on layouts");
        return NULL;
    }
    return &l->gpt;     /* its first member: delete_transformer frees l */
}

Gpt *train_on_layouts(Run *run, const TrainConfig *cfg)
{
    Gpt *g = new_layout_transformer(cfg->seed);
    if (g == NULL)
        return NULL;
    run->cfg = *cfg;
    run->result = train(&g->model, &run->cfg, run->log, MAX_RECORDS);
    return g;
}

static int position_of(int which, char letter)
{
    return (int)(strchr(layouts[which], letter) - layouts[which]);
}

static const real *equals_row(Gpt *g, int p, int which, int head)
{
    int tokens[MAX_T], T = (int)strlen(layouts[which]), t = T - 1;
    layout_tokens(p, which, tokens);
    gpt_forward(g, tokens, 1, T);
    return g->act.weights + (head * T + t) * T;
}

static int peak_of(const real *row, int n)
{
    int peak = 0;
    for (int u = 1; u < n; u++)
        peak = row[u] > row[peak] ? u : peak;
    return peak;
}

static void measure_layouts(LayoutRuns *e, int s, Gpt *g)
{
    for (int which = 0; which < N_LAYOUTS; which++) {
        int a = position_of(which, 'a'), b = position_of(which, 'b');
        int T = (int)strlen(layouts[which]);
        for (int p = 0; p < N_PROBLEMS; p++) {
            char want[8], got[8];
            problem_answer(p, want);
            layout_answer(g, p, which, got);
            e->right[s][which] += strcmp(want, got) == 0;
            for (int head = 0; head < g->n_heads; head++) {
                int peak = peak_of(equals_row(g, p, which, head), T);
                int read = peak == a ? READS_A : peak == b ? READS_B
                         : peak == T - 1 ? READS_EQUALS : READS_ELSE;
                e->read[s][head][p][which] = (unsigned char)read;
            }
        }
    }
}

static void follow_the_operands(LayoutRuns *e, int s, int n_heads)
{
    for (int head = 0; head < n_heads; head++) {
        for (int p = 0; p < N_PROBLEMS; p++) {
            const unsigned char *read = e->read[s][head][p];
            int same = p / 10 != p % 10 && read[0] <= READS_B;
            for (int which = 0; which < N_LAYOUTS; which++) {
                e->on_operand[s][head] += read[which] <= READS_B;
                same &= read[which] == read[0];
            }
            e->follows[s][head] += same;
        }
        if (e->follows[s][head] > e->follows[s][e->best[s]])
            e->best[s] = head;
    }
}

static void follows_by_operand(const LayoutRuns *e, int s, int head,
                               int follow[2])
{
    for (int p = 0; p < N_PROBLEMS; p++) {
        const unsigned char *read = e->read[s][head][p];
        int same = p / 10 != p % 10 && read[0] <= READS_B;
        for (int which = 1; which < N_LAYOUTS; which++)
            same &= read[which] == read[0];
        if (same)
            follow[read[0]]++;
    }
}

static int strings_parsed(void)
{
    int parsed = 0;
    for (int which = 0; which < N_LAYOUTS; which++)
        for (int p = 0; p < N_PROBLEMS; p++) {
            int tokens[MAX_T], a = -1, b = -1;
            int T = layout_tokens(p, which, tokens);
            parsed += operands_of_tokens(tokens, T, &a, &b) == 0
                      && a == p / 10 && b == p % 10;
        }
    return parsed;
}

static int run_layouts(LayoutRuns *e)
{
    for (int s = 0; s < N_SEEDS; s++) {
        TrainConfig cfg = train_defaults();
        cfg.seed += (uint64_t)s;
        Gpt *g = train_on_layouts(&e->run[s], &cfg);
        if (g == NULL)
            return -1;
        measure_layouts(e, s, g);
        follow_the_operands(e, s, g->n_heads);
        if (s == 0)
            keep_the_figure_s_rows(e, g);
        delete_transformer(g);
    }
    e->parsed = strings_parsed();
    return 0;
}

static void keep_the_figure_s_rows(LayoutRuns *e, Gpt *g)
{
    for (int which = 0; which < N_LAYOUTS; which++)
        for (int head = 0; head < g->n_heads; head++) {
            int T = (int)strlen(layouts[which]);
            const real *row = equals_row(g, 7 * 10 + 8, which, head);
            for (int u = 0; u < MAX_T; u++)
                e->equals_row[which][head][u] = u < T ? (float)row[u] : NAN;
        }
}

int layouts_experiments(const char *model, const char *dir,
                        const char *fig, Text *numbers, Claims *claims)
{
    LayoutRuns *e = calloc(1, sizeof *e);
    Run *book = calloc(1, sizeof *book);    /* the book's model's log */
    int status = e == NULL || book == NULL ? fail("out of memory") : 0;
    if (status == 0)
        status = load_training_log(model, book);
    if (status == 0)
        status = run_layouts(e);
    if (status == 0) {
        claims_about_layouts(claims, e, book);
        status = numbers_of_layouts(numbers, e);
    }
    if (status == 0)
        status = table_of_layouts(dir);
    if (status == 0)
        status = table_of_runs(dir, e);
    if (status == 0)
        status = figure_layouts(fig, e);
    free(book);
    free(e);
    return status;
}

static int worst_right(const LayoutRuns *e, int *seed, int *which)
{
    int worst = N_PROBLEMS + 1;
    for (int s = 0; s < N_SEEDS; s++)
        for (int l = 0; l < N_LAYOUTS; l++)
            if (e->right[s][l] < worst) {
                worst = e->right[s][l];
                *seed = s;
                *which = l;
            }
    return worst;
}

static int numbers_of_layouts(Text *out, const LayoutRuns *e)
{
    int longest = layouts_longest(), question = 0, s = 0, l = 0;
    for (int which = 0; which < N_LAYOUTS; which++)
        question = fmax(question, (int)strlen(layouts[which]));
    LayoutGpt *model = malloc(sizeof *model);
    if (model == NULL || layout_gpt_create(model, 0) != 0)
        return free(model), fail("out of memory");
    size_t book = 0, params = model->gpt.model.p.n_params;
    for (int t = 0; t < N_GPT_TABLES; t++)
        book += (size_t)gpt_tables[t].rows * (size_t)gpt_tables[t].cols;
    number(out, "layouts_params", "%zu", params);
    number(out, "layouts_extra_params", "%zu", params - book);
    gpt_destroy(&model->gpt);
    free(model);
    number(out, "n_layouts", "%d", N_LAYOUTS);
    number(out, "layouts_n_seeds", "%d", N_SEEDS);
    number(out, "layouts_longest", "%d", longest);
    number(out, "layouts_longest_question", "%d", question);
    number(out, "layouts_extra_positions", "%d", longest - SEQ_LEN);
    number(out, "layouts_pairs", "%d", N_LAYOUTS * N_PROBLEMS);
    number(out, "layouts_parsed", "%d", e->parsed);
    int zero[] = {0, 7, TOK_TIMES, 8, TOK_EQUALS}, a = -1, b = -1;
    operands_of_tokens(zero, 5, &a, &b);        /* 07*8= */
    number(out, "layouts_zero_a", "%d", a);
    number(out, "layouts_zero_b", "%d", b);
    number(out, "layouts_seed", "%llu",
           (unsigned long long)e->run[0].cfg.seed);
    number(out, "layouts_last_seed", "%llu",
           (unsigned long long)e->run[N_SEEDS - 1].cfg.seed);
    number(out, "layouts_steps", "%d", e->run[0].cfg.steps);
    int worst = worst_right(e, &s, &l);
    number(out, "layouts_worst_right", "%d", worst);
    int first_lo = MAX_STEPS, first_hi = 0;
    for (int r = 0; r < N_SEEDS; r++) {
        int first = e->run[r].result.first_perfect;
        first_lo = first > 0 && first < first_lo ? first : first_lo;
        first_hi = first > first_hi ? first : first_hi;
    }
    number(out, "layouts_first_perfect_lo", "%d", first_lo);
    number(out, "layouts_first_perfect_hi", "%d", first_hi);
    int follow_lo = N_PROBLEMS, follow_hi = 0;
    int operand_lo = N_LAYOUTS * N_PROBLEMS, operand_hi = 0;
    for (int r = 0; r < N_SEEDS; r++) {
        int follows = e->follows[r][e->best[r]];
        int operand = e->on_operand[r][e->best[r]];
        follow_lo = follows < follow_lo ? follows : follow_lo;
        follow_hi = follows > follow_hi ? follows : follow_hi;
        operand_lo = operand < operand_lo ? operand : operand_lo;
        operand_hi = operand > operand_hi ? operand : operand_hi;
    }
    number(out, "layouts_distinct", "%d", N_PROBLEMS - N_DIGITS);
    number(out, "layouts_follow_lo", "%d", follow_lo);
    number(out, "layouts_follow_hi", "%d", follow_hi);
    number(out, "layouts_on_operand_lo", "%d", operand_lo);
    number(out, "layouts_on_operand_hi", "%d", operand_hi);
    number(out, "layouts_figure_head", "%d", e->best[0]);
    int token = read_in_every_layout(e, e->best[0]), other = -1;
    for (int head = 0; head < N_HEADS; head++)
        if (read_in_every_layout(e, head) == (token == READS_A
                                              ? READS_B : READS_A))
            other = other < 0 ? head : other;
    number(out, "layouts_figure_token", "%d", token == READS_A ? 7 : 8);
    number(out, "layouts_other_head", "%d", other);
    number(out, "layouts_other_token", "%d", token == READS_A ? 8 : 7);
    int follow[2] = {0, 0};
    follows_by_operand(e, 0, e->best[0], follow);
    number(out, "layouts_follow_a", "%d", follow[READS_A]);
    number(out, "layouts_follow_b", "%d", follow[READS_B]);
    number(out, "layouts_figure_follows", "%d", e->follows[0][e->best[0]]);
    return 0;
}

static int table_of_runs(const char *dir, const LayoutRuns *e)
{
    Text md = {0};
    text_printf(&md, "| layout |");
    for (int r = 0; r < N_SEEDS; r++)
        text_printf(&md, " seed %llu |",
                    (unsigned long long)e->run[r].cfg.seed);
    text_printf(&md, "\n|:--|");
    for (int r = 0; r < N_SEEDS; r++)
        text_printf(&md, "--:|");
    for (int which = 0; which < N_LAYOUTS; which++) {
        text_printf(&md, "\n| `%s` |", layouts[which]);
        for (int r = 0; r < N_SEEDS; r++)
            text_printf(&md, " %d |", e->right[r][which]);
    }
    text_printf(&md, "\n| first all right at step |");
    for (int r = 0; r < N_SEEDS; r++)
        text_printf(&md, " %d |", e->run[r].result.first_perfect);
    text_printf(&md, "\n| head that follows most |");
    for (int r = 0; r < N_SEEDS; r++)
        text_printf(&md, " %d |", e->best[r]);
    text_printf(&md, "\n| problems it follows on, of %d |",
                N_PROBLEMS - N_DIGITS);
    for (int r = 0; r < N_SEEDS; r++)
        text_printf(&md, " %d |", e->follows[r][e->best[r]]);
    text_printf(&md, "\n| strings it peaks on an operand, of %d |",
                N_LAYOUTS * N_PROBLEMS);
    for (int r = 0; r < N_SEEDS; r++)
        text_printf(&md, " %d |", e->on_operand[r][e->best[r]]);
    text_printf(&md, "\n");
    return save_text(dir, "layouts_runs.md", &md);
}

static int table_of_layouts(const char *dir)
{
    Text md = {0};
    text_printf(&md, "| layout | `7*8` in it | $a$ at | $b$ at "
                     "| `=` at |\n|:--|:--|--:|--:|--:|\n");
    for (int which = 0; which < N_LAYOUTS; which++) {
        char written[MAX_T];
        int n = (int)strlen(layouts[which]);
        for (int t = 0; t <= n; t++)
            written[t] = layouts[which][t] == 'a' ? '7'
                       : layouts[which][t] == 'b' ? '8' : layouts[which][t];
        text_printf(&md, "| `%s` | `%s` | %d | %d | %d |\n",
                    layouts[which], written, position_of(which, 'a'),
                    position_of(which, 'b'), n - 1);
    }
    return save_text(dir, "layouts.md", &md);
}

static int read_in_every_layout(const LayoutRuns *e, int head)
{
    const unsigned char *read = e->read[0][head][7 * 10 + 8];
    for (int which = 1; which < N_LAYOUTS; which++)
        if (read[which] != read[0])
            return READS_ELSE;
    return read[0];
}

static int follows_in_the_figure(const LayoutRuns *e)
{
    return read_in_every_layout(e, e->best[0]) <= READS_B;
}

static void claims_about_layouts(Claims *claims, const LayoutRuns *e,
                                 const Run *book)
{
    claim(claims, e->parsed == N_LAYOUTS * N_PROBLEMS, "The turn",
          "the hand-written parser reads every string of the six layouts",
          "%d of %d", e->parsed, N_LAYOUTS * N_PROBLEMS);
    int zero[] = {0, 7, TOK_TIMES, 8, TOK_EQUALS}, a = -1, b = -1;
    int misread = operands_of_tokens(zero, 5, &a, &b) == 0
                  && !(a == 7 && b == 8);
    claim(claims, misread, "The turn", "the parser misreads 07*8=",
          misread ? "it reads a = %d, b = %d" : "it reads it right", a, b);
    claim(claims, position_of(0, 'b') == 2 && position_of(1, 'a') == 2,
          "The turn",
          "position 2 holds b in the first layout and a in the second",
          "position 2 holds %s, then %s",
          position_of(0, 'b') == 2 ? "b" : "not b",
          position_of(1, 'a') == 2 ? "a" : "not a");
    int always = -1;
    for (int t = 0; t < MAX_T; t++) {
        int every = 1;
        for (int which = 0; which < N_LAYOUTS; which++)
            every &= position_of(which, 'a') == t
                     || position_of(which, 'b') == t;
        if (every && always < 0)
            always = t;
    }
    claim(claims, always < 0, "The turn",
          "no position holds an operand in every layout",
          always < 0 ? "none does" : "position %d does", always);
    int answered = 0;
    for (int r = 0; r < N_SEEDS; r++)
        for (int which = 0; which < N_LAYOUTS; which++)
            answered += e->right[r][which];
    claim(claims, answered == N_SEEDS * N_LAYOUTS * N_PROBLEMS,
          "Train it first",
          "every run answers every problem in every layout",
          "%d of %d strings over the seeds", answered,
          N_SEEDS * N_LAYOUTS * N_PROBLEMS);
    int peaks = 0, follows[N_SEEDS], on_operand[N_SEEDS];
    char follows_list[160], on_operand_list[160];
    for (int r = 0; r < N_SEEDS; r++) {
        int head = e->best[r], distinct = N_PROBLEMS - N_DIGITS;
        follows[r] = e->follows[r][head];
        on_operand[r] = e->on_operand[r][head];
        peaks += 2 * e->follows[r][head] > distinct
                 && 10 * e->on_operand[r][head] > 9 * N_LAYOUTS * N_PROBLEMS;
    }
    list_values(follows_list, sizeof follows_list, follows, N_SEEDS);
    list_values(on_operand_list, sizeof on_operand_list, on_operand, N_SEEDS);
    claim(claims, peaks == N_SEEDS, "Train it first",
          "in every run the best head follows an operand through the six "
          "layouts on more than half of the 90 problems, and peaks on an "
          "operand in more than nine in ten of the 600 strings",
          "problems followed: %s; strings peaking on an operand: %s",
          follows_list, on_operand_list);
    claim(claims, follows_in_the_figure(e), "Train it first",
          "in the figure, the best head follows an operand of 7*8 in every "
          "layout", "head %d", e->best[0]);
    int first = read_in_every_layout(e, e->best[0]), other = 0;
    int follow[2] = {0, 0};
    for (int head = 0; head < N_HEADS; head++) {
        int read = read_in_every_layout(e, head);
        other += read <= READS_B && read != first;
    }
    claim(claims, other > 0, "Train it first",
          "another head of the figure follows the other operand of 7*8",
          "%d heads do", other);
    follows_by_operand(e, 0, e->best[0], follow);
    claim(claims, follow[READS_A] > 0 && follow[READS_B] > 0, "Train it first",
          "the head that follows best follows a on some problems, b on others",
          "a on %d, b on %d", follow[READS_A], follow[READS_B]);
    int longer = 0, first_perfect[N_SEEDS];
    char first_list[160];
    for (int r = 0; r < N_SEEDS; r++) {
        first_perfect[r] = e->run[r].result.first_perfect;
        longer += first_perfect[r] > book->result.first_perfect;
    }
    list_values(first_list, sizeof first_list, first_perfect, N_SEEDS);
    claim(claims, longer == N_SEEDS, "Train it first",
          "every run on layouts needs more steps than the book's model",
          "first 100/100 on layouts: %s; the book's model: %d", first_list,
          book->result.first_perfect);
}

static int figure_layouts(const char *fig, const LayoutRuns *e)
{
    static float values[MAX_HEADS][N_LAYOUTS * MAX_T];
    static char rows[N_LAYOUTS][MAX_T + 1], cols[MAX_T][4];
    static char titles[MAX_HEADS][48];
    static const char *row_names[N_LAYOUTS], *col_names[MAX_T];
    SvgHeatmap maps[MAX_HEADS];
    int width = 0;
    for (int which = 0; which < N_LAYOUTS; which++) {
        int n = (int)strlen(layouts[which]);
        for (int t = 0; t <= n; t++)
            rows[which][t] = layouts[which][t] == 'a' ? '7'
                           : layouts[which][t] == 'b' ? '8'
                           : layouts[which][t];
        row_names[which] = rows[which];
        width = n > width ? n : width;
    }
    for (int u = 0; u < width; u++) {
        snprintf(cols[u], sizeof cols[u], "%d", u);
        col_names[u] = cols[u];
    }
    for (int head = 0; head < N_HEADS; head++) {
        for (int which = 0; which < N_LAYOUTS; which++)
            for (int u = 0; u < width; u++)
                values[head][which * width + u] =
                    e->equals_row[which][head][u];
        static const char *const peak_on[] = {": peak on the 7",
            ": peak on the 8", ": peak on the =", ""};
        snprintf(titles[head], sizeof titles[head], "head %d%s", head,
                 peak_on[read_in_every_layout(e, head)]);
        maps[head] = (SvgHeatmap){titles[head], "position u", NULL,
                                  N_LAYOUTS, width, values[head],
                                  row_names, col_names, "%.2f", 0};
    }
    Text svg = {0};
    SvgColorScale scale = {SVG_SEQUENTIAL, 0, 1, "weight"};
    svg_heatmaps(&svg, maps, N_HEADS, 2, NULL, scale, 760, 520);
    return save_text(fig, "layouts_equals_row.svg", &svg);
}

