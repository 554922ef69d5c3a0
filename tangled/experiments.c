/* experiments.c: what the experiments share (tangled; edit attention.nw) */
#define _POSIX_C_SOURCE 200809L
#include "experiments.h"
#include "checkpoint.h"
#include "exercises.h"
#include "files.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

void number(Text *numbers, const char *name, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    char value[256];
    vsnprintf(value, sizeof value, format, args);
    va_end(args);
    text_printf(numbers, "%s %s\n", name, value);
}

NumberName named(const char *format, ...)
{
    NumberName name;
    va_list args;
    va_start(args, format);
    vsnprintf(name.text, sizeof name.text, format, args);
    va_end(args);
    return name;
}

int decimals_for(double x)
{
    return x > 0 && x < 1 ? (int)ceil(-log10(x) + 1e-9) : 0;
}

SeedList seed_list(const int values[N_SEEDS])
{
    SeedList list = {""};
    size_t used = 0;
    for (int i = 0; i < N_SEEDS && used < sizeof list.text; i++) {
        int w = snprintf(list.text + used, sizeof list.text - used,
                         "%s%d", i > 0 ? ", " : "", values[i]);
        used += w > 0 ? (size_t)w : 0;
    }
    return list;
}

Gpt *new_transformer_heads(uint64_t seed, int n_heads)
{
    Gpt *g = malloc(sizeof *g);
    if (g == NULL || gpt_create(g, seed, n_heads, MAX_BATCH) != 0) {
        free(g);
        fail("out of memory for the transformer");
        return NULL;
    }
    return g;
}

Gpt *new_transformer(uint64_t seed)
{
    return new_transformer_heads(seed, N_HEADS);
}

void delete_transformer(Gpt *g)
{
    if (g != NULL)
        gpt_destroy(g);
    free(g);
}

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

int forms_agree_at_start_up(void)
{
    Gpt *g = new_transformer(train_defaults().seed);
    if (g == NULL)
        return -1;
    int agree = gpt_forms_agree(g, 7 * 10 + 8);
    delete_transformer(g);
    if (!agree)     /* the production form's row: exercises 6 and 7 */
        return fail("refusing to run: the classic and the production "
                    "form of attention disagree on 7*8= (see the "
                    "chapter 'The forward pass'). The production form's "
                    "scores and softmax of one row are exercises 6 and "
                    "7; check them with:\n  make check EXERCISE=6\n"
                    "  make check EXERCISE=7");
    return 0;
}

static int rotation_right(void)
{
    double a[9] = {2, -1, 0, -1, 2, -1, 0, -1, 2}, copy[9], values[3];
    double vectors[9];
    double root2 = sqrt(2.0), want[3] = {2 + root2, 2, 2 - root2};
    memcpy(copy, a, sizeof a);
    int right = symmetric_eigen(copy, 3, values, vectors) >= 0;
    for (int i = 0; i < 3 && right; i++) {
        const double *v = vectors + i * 3;
        double length = 0;
        right = fabs(values[i] - want[i]) <= 1e-9;
        for (int r = 0; r < 3; r++) {
            double av = 0;
            for (int j = 0; j < 3; j++)
                av += a[r * 3 + j] * v[j];
            right = right && fabs(av - want[i] * v[r]) <= 1e-9;
            length += v[r] * v[r];
        }
        right = right && fabs(length - 1) <= 1e-9;
    }
    return right;
}

/* "1", "1 and 2", "1, 2 and 5": the exercises of bits, into list */
static void exercise_list(char *list, size_t size, unsigned bits)
{
    size_t used = 0;
    list[0] = '\0';
    for (int e = 1; e < 32 && used < size; e++) {
        if (!(bits >> e & 1))
            continue;
        unsigned later = bits >> (e + 1);
        used += (size_t)snprintf(list + used, size - used, "%d%s", e,
                                 later == 0 ? ""
                                 : (later & (later - 1)) == 0 ? " and "
                                 : ", ");
    }
}

int exercises_solved_at_start_up(void)
{
    ExerciseCheck c = check_exercises();
    unsigned ran_before = exercise_stubs_ran;
    exercise_stubs_ran = 0;
    exercise_verdict(&c, 9, rotation_right(), 0);
    exercise_stubs_ran = ran_before;
    unsigned all = c.stubs | c.wrong | c.marked;
    if (all == 0)
        return 0;
    char said[1024] = "", list[128], commands[512] = "";
    size_t used = 0, listed = 0;
    const struct { unsigned bits; const char *one, *more; } kinds[] = {
        {c.stubs, "is still a stub", "are still stubs"},
        {c.wrong, "gives a wrong answer on a small case",
         "give wrong answers on a small case"},
        {c.marked, "still holds its stub's marking line "
         "(exercise_stubs_ran): delete it", "still hold their stubs' "
         "marking lines (exercise_stubs_ran): delete them"}};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        if (kinds[k].bits == 0)
            continue;
        exercise_list(list, sizeof list, kinds[k].bits);
        int one = (kinds[k].bits & (kinds[k].bits - 1)) == 0;
        used += (size_t)snprintf(said + used, sizeof said - used,
                                 "%sexercise%s %s %s", used ? "; " : "",
                                 one ? "" : "s", list,
                                 one ? kinds[k].one : kinds[k].more);
    }
    for (int e = 1; e < 32; e++)
        if (all >> e & 1)
            listed += (size_t)snprintf(commands + listed,
                                       sizeof commands - listed,
                                       "\n  make check EXERCISE=%d", e);
    fail("refusing to run: %s%s. Check %s with:%s", said,
         c.stubs | c.wrong ? ", and the program would give wrong answers"
         : "", (all & (all - 1)) == 0 ? "it" : "each", commands);
    return -1;
}

Gpt *load_transformer(const char *path)
{
    unsigned char head[64];
    size_t n = checkpoint_head_of_file(path, head, sizeof head);
    int rows = checkpoint_table_rows(head, n, POS_EMB);
    int heads = checkpoint_heads(head, n);
    long parts = checkpoint_parts(head, n);
    if (heads < 1 || WIDTH % heads != 0)
        heads = N_HEADS;
    Gpt *g = rows == layouts_longest() && rows != SEQ_LEN
             ? new_layout_transformer(0) : new_transformer_heads(0, heads);
    if (g != NULL && parts > 0)
        g->ablate = (Ablation)parts;
    if (g != NULL && load_checkpoint(path, g) != 0) {
        delete_transformer(g);
        return NULL;
    }
    return g;
}

int run_mlp(Run *run, size_t *n_params, int seed_index)
{
    run->cfg = train_defaults();
    run->cfg.seed += (uint64_t)seed_index;
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

void numbers_of_training(Text *out, const Run *run, const char *prefix)
{
    const TrainConfig *cfg = &run->cfg;
    int first = run->result.first_perfect;
    number(out, named("%s_seed", prefix).text, "%llu",
           (unsigned long long)cfg->seed);
    number(out, named("%s_steps", prefix).text, "%d", cfg->steps);
    number(out, named("%s_batch", prefix).text, "%d", cfg->batch);
    number(out, named("%s_lr", prefix).text, "%g", (double)cfg->lr);
    number(out, named("%s_eval_every", prefix).text, "%d",
           cfg->eval_every);
    number(out, named("%s_first_perfect", prefix).text, "%d", first);
    number(out, named("%s_problems_seen", prefix).text, "%d",
           first * cfg->batch);
    number(out, named("%s_epochs", prefix).text, "%.0f",
           first * cfg->batch / (double)N_PROBLEMS);
}

void curves_of(const Run *run, float *step, float *loss, float *correct)
{
    training_curves(run->log, run->result.n_records, step, loss, correct);
}

static double kth_smallest(const double *values, int n, int k)
{
    for (int i = 0; i < n; i++) {
        int less = 0, equal = 0;
        for (int j = 0; j < n; j++) {
            less += values[j] < values[i];
            equal += values[j] == values[i];
        }
        if (less <= k && k < less + equal)
            return values[i];
    }
    return values[0];                   /* not reached: 0 <= k < n */
}

double median_of(const double *values, int n)
{
    return (kth_smallest(values, n, (n - 1) / 2)
            + kth_smallest(values, n, n / 2)) / 2;
}

double lowest_of(const double *values, int n)
{
    return kth_smallest(values, n, 0);
}

double highest_of(const double *values, int n)
{
    return kth_smallest(values, n, n - 1);
}

int count_below(const double *values, int n, double bound)
{
    int count = 0;
    for (int i = 0; i < n; i++)
        count += values[i] < bound;
    return count;
}

void numbers_of_spread(Text *numbers, const char *prefix,
                       const char *format, const double *values, int n)
{
    static const char *const suffix[3] = {"median", "lo", "hi"};
    double value[3] = {median_of(values, n), kth_smallest(values, n, 0),
                       kth_smallest(values, n, n - 1)};
    for (int i = 0; i < 3; i++)
        number(numbers, named("%s_%s", prefix, suffix[i]).text, format,
               value[i]);
}

double cosine(const real *x, const real *y, int n)
{
    double xy = 0, xx = 0, yy = 0;
    for (int i = 0; i < n; i++) {
        xy += (double)x[i] * (double)y[i];
        xx += (double)x[i] * (double)x[i];
        yy += (double)y[i] * (double)y[i];
    }
    return xy / sqrt(xx * yy);
}

void trace_table_head(Text *md, const Trace *tr, int t,
                      const char *left, const char *left_rule)
{
    text_printf(md, "%s", left);
    for (int u = 0; u <= t; u++)
        text_printf(md, " $u = %d$ (`%c`) |", u,
                    char_of_token(tr->tokens[u]));
    text_printf(md, "\n%s", left_rule);
    for (int u = 0; u <= t; u++)
        text_printf(md, "--:|");
}

void seed_by_seed(const int *these, const int *those, int n, int count[3])
{
    count[0] = count[1] = count[2] = 0;     /* sooner, as soon, later */
    for (int s = 0; s < n; s++)
        count[these[s] < those[s] ? 0 : these[s] == those[s] ? 1 : 2]++;
}

double median_of_ints(const int *values, int n)
{
    double as_doubles[N_SEEDS] = {0};   /* a sweep has N_SEEDS at most */
    n = n < N_SEEDS ? n : N_SEEDS;
    for (int i = 0; i < n; i++)
        as_doubles[i] = values[i];
    return median_of(as_doubles, n);
}

int lowest_of_ints(const int *values, int n)
{
    int lowest = values[0];
    for (int i = 1; i < n; i++)
        lowest = values[i] < lowest ? values[i] : lowest;
    return lowest;
}

int highest_of_ints(const int *values, int n)
{
    int highest = values[0];
    for (int i = 1; i < n; i++)
        highest = values[i] > highest ? values[i] : highest;
    return highest;
}

void runs_table_head(Text *md)
{
    text_printf(md, "| model | seed | first 100/100 at step "
                    "| final score | final loss |\n"
                    "|:--|--:|--:|--:|--:|\n");
}

void runs_table_row(Text *md, const char *model, const Run *run,
                    int score, double loss)
{
    text_printf(md, "| %s | %llu | ", model,
                (unsigned long long)run->cfg.seed);
    if (run->result.first_perfect >= 0)
        text_printf(md, "%d", run->result.first_perfect);
    else
        text_printf(md, "never");
    text_printf(md, " | %d | %.4f |\n", score, loss);
}

int steps_to_perfect(const Run *run)
{
    int first = run->result.first_perfect;
    return first > 0 ? first : run->cfg.steps;
}

int lowest_after_perfect(const Run *run)
{
    int lowest = N_PROBLEMS;
    for (int r = 0; r < run->result.n_records; r++)
        if (run->result.first_perfect > 0
            && run->log[r].step > run->result.first_perfect
            && run->log[r].correct < lowest)
            lowest = run->log[r].correct;
    return lowest;
}

int answered_at_mean(Gpt *g, PatchSite site)
{
    unsigned every = (1u << g->n_heads) - 1;
    Patch mean = {site, PATCH_MEAN, every, 3, 0};
    int counted = 0;
    return answered_under(g, mean, 0, 0, NULL, &counted);
}

int partner_of(int p)
{
    return (p / 10 + 5) % 10 * 10 + (p % 10 + 5) % 10;
}

int answered_under(Gpt *g, Patch patch, int which, int from,
                   int (*other)(int p), int *counted)
{
    int right = 0, T = (int)strlen(layouts[which]);
    PatchNumbers with;
    patch.row = T - 1;                  /* the = */
    *counted = 0;
    for (int p = 0; p < N_PROBLEMS; p++) {
        int tokens[MAX_T], theirs[MAX_T], q = other ? other(p) : p;
        char got[8], want[8];
        if (patch.source == PATCH_OTHER && q == p && from == which)
            continue;
        layout_tokens(p, which, tokens);
        layout_tokens(q, from, theirs);
        if (*counted == 0 || patch.source == PATCH_OTHER)
            patch_numbers(g, &patch, tokens, T, theirs, &with);
        gpt_continue_patched(g, &patch, &with, tokens, T, got);
        problem_answer(p, want);
        right += strcmp(got, want) == 0;
        (*counted)++;
    }
    return right;
}

int save_training_log(const char *checkpoint, const Run *run)
{
    char path[4096];
    Text log = {0};
    if (snprintf(path, sizeof path, "%s.log", checkpoint)
        >= (int)sizeof path)
        return fail("path too long: %s.log", checkpoint);
    training_log_text(&log, &run->cfg, run->log, run->result.n_records);
    if (log.failed)
        return text_free(&log), fail("out of memory writing %s", path);
    int status = write_file(path, log.data, log.len);
    text_free(&log);
    return status;
}

int load_training_log(const char *checkpoint, Run *run)
{
    char path[4096], line[256];
    snprintf(path, sizeof path, "%s.log", checkpoint);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return fail("cannot read %s (written by attention train): %s",
                    path, strerror(errno));
    unsigned long long seed = 0;
    double lr = 0;
    run->cfg = train_defaults();
    int settings = fgets(line, sizeof line, f) != NULL
        && sscanf(line, "# seed=%llu steps=%d batch=%d lr=%lf eval_every=%d",
                  &seed, &run->cfg.steps, &run->cfg.batch, &lr,
                  &run->cfg.eval_every) == 5;
    run->cfg.seed = seed;
    run->cfg.lr = (real)lr;
    int n = 0, bad = fgets(line, sizeof line, f) == NULL
                     || line[0] != '#' || !settings;
    while (!bad && n < MAX_RECORDS && fgets(line, sizeof line, f) != NULL) {
        TrainRecord *r = &run->log[n++];
        double loss;
        bad = sscanf(line, "%d\t%lf\t%d", &r->step, &loss, &r->correct)
              != 3;
        r->loss = (real)loss;
    }
    bad = bad || n == 0 || !feof(f);
    fclose(f);
    run->result.n_records = n;
    run->result.first_perfect = -1;
    for (int r = n - 1; r >= 0; r--)
        if (run->log[r].correct == N_PROBLEMS)
            run->result.first_perfect = run->log[r].step;
    run->result.steps_done = n > 0 ? run->log[n - 1].step : 0;
    return bad ? fail("%s is not a training log written by attention "
                      "train", path) : 0;
}

static const struct {
    const char *name;
    Topic *run;
} topics[] = {
    {"perceptron", perceptron_experiments},
    {"specimen", specimen_experiments},
    {"routing", routing_experiments},
    {"ablations", ablation_experiments},
    {"heads", heads_experiments},
    {"ffn", ffn_experiments},
    {"speed", speed_experiments},
    {"layouts", layouts_experiments},
    {"heldout", heldout_experiments},
    {"longer", longer_experiments},
};

static int report_claims(const Claims *c, int book)
{
    int false_claims = 0;
    if (c->overflow)
        return fail("a topic made more than %d claim checks; raise "
                    "MAX_CLAIMS", MAX_CLAIMS);
    for (int i = 0; i < c->n; i++) {
        const Claim *k = &c->claim[i];
        if (k->holds)
            continue;
        false_claims++;
        if (book && k->misfiled[0] != '\0')
            fail("the check of '%s' in chapter '%s' breaks the rule for "
                 "extremes: %s", k->says, k->chapter, k->misfiled);
        else if (book)
            fail("the chapter '%s' says %s; measured: %s: revise the "
                 "text", k->chapter, k->says, k->measured);
        else
            printf("for this model: the chapter '%s' says %s; here: "
                   "%s%s%s\n", k->chapter, k->says, k->measured,
                   k->misfiled[0] ? "; " : "", k->misfiled);
    }
    return book && false_claims > 0 ? -1 : 0;
}

static const char *scientific_as_maths(Text *md, const char *s)
{
    char *end;
    strtod(s, &end);
    const char *e = memchr(s, 'e', (size_t)(end - s));
    if (e == NULL)
        return NULL;
    text_printf(md, "$%.*s \\times 10^{%d}$", (int)(e - s), s, atoi(e + 1));
    return end;
}

static void markdown_escaped(Text *md, const char *s)
{
    for (const char *start = s; *s != '\0'; s++) {
        const char *after = NULL;
        if (isdigit((unsigned char)*s)
            && (s == start || !isalnum((unsigned char)s[-1])))
            after = scientific_as_maths(md, s);
        if (after != NULL)
            s = after - 1;
        else
            text_printf(md, strchr("\\`*_{}[]<>#|$~^", *s) != NULL
                            ? "\\%c" : "%c", *s);
    }
}

static void reach_of(Text *md, const Claim *k)
{
    if (k->reach == ON_EVERY)
        text_printf(md, "all %d", k->of);
    else if (k->reach == ON_SOME && k->most == k->of)
        text_printf(md, "%d/%d, ≥ %d", k->held, k->of, k->least);
    else if (k->reach == ON_SOME && k->least == 0)
        text_printf(md, "%d/%d, ≤ %d", k->held, k->of, k->most);
    else if (k->reach == ON_SOME)
        text_printf(md, "%d/%d, %d to %d", k->held, k->of, k->least,
                    k->most);
}

static int save_claims(const char *dir, const char *topic,
                       const Claims *c)
{
    Text md = {0};
    for (int i = 0; i < c->n; i++) {
        const Claim *k = &c->claim[i];
        text_printf(&md, "| ");
        markdown_escaped(&md, k->chapter);
        text_printf(&md, " | ");
        markdown_escaped(&md, k->says);
        text_printf(&md, " | ");
        markdown_escaped(&md, k->measured);
        text_printf(&md, "%s | ", k->holds ? "" : " (does not hold)");
        reach_of(&md, k);
        text_printf(&md, " |\n");
    }
    return save_table(dir, named("claims-%s.md", topic).text, &md);
}

static int join_claims(const char *dir)
{
    Text md = {0}, numbers = {0};
    int rows = 0;
    text_printf(&md, "| Chapter | The text says | Measured | Reach |\n"
                     "|:----|:--------|:--------|:----|\n");
    for (size_t i = 0; i < sizeof topics / sizeof topics[0]; i++) {
        char path[4096];
        size_t length;
        snprintf(path, sizeof path, "%s/claims-%s.md", dir, topics[i].name);
        unsigned char *part = read_file(path, &length, 1 << 20);
        if (part == NULL)
            return text_free(&md), fail("run every topic before 'claims'");
        for (size_t j = 0; j < length; j++)
            rows += part[j] == '\n';
        text_printf(&md, "%.*s", (int)length, (const char *)part);
        free(part);
    }
    number(&numbers, "claim_checks", "%d", rows);
    int status = save_table(dir, "claims.md", &md);
    return status != 0 ? text_free(&numbers), status
                       : save_text(dir, "numbers-claims.txt", &numbers);
}

int run_topics(const char *model, const char *sweep, const char *dir,
               const char *part, int book)
{
    char fig[4096], name[64];
    int found = 0;
    if (snprintf(fig, sizeof fig, "%s/fig", dir) >= (int)sizeof fig)
        return fail("path too long: %s", dir);
    if (make_directory(dir) != 0 || make_directory(fig) != 0)
        return -1;
    for (size_t i = 0; i < sizeof topics / sizeof topics[0]; i++) {
        if (part != NULL && strcmp(part, topics[i].name) != 0)
            continue;
        Text numbers = {0};
        found = 1;
        snprintf(name, sizeof name, "numbers-%s.txt", topics[i].name);
        Claims *claims = calloc(1, sizeof *claims);
        int status = claims == NULL ? fail("out of memory")
                     : topics[i].run(model, sweep, dir, fig, &numbers,
                                      claims);
        if (status == 0)
            status = report_claims(claims, book);
        if (status == 0)
            status = save_text(dir, name, &numbers);
        if (status == 0)
            status = save_claims(dir, topics[i].name, claims);
        text_free(&numbers);
        free(claims);
        if (status != 0)
            return -1;
    }
    if (part == NULL || strcmp(part, "claims") == 0)
        return join_claims(dir);
    return found ? 0 : NO_SUCH_TOPIC;
}

