/* checks.c: gradient check and PyTorch reference comparison */
#include "checks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "chapters.h"

void expect_same_params_at(const char *what, const Gpt *g, const real *expected,
                           const real *got, const char *file, int line)
{
    size_t n = g->model.p.n_params, start = 0;
    size_t at = chapter_first_difference(expected, got, n, sizeof *got);
    if (at == n) return;
    for (int t = 0; t < N_GPT_TABLES; t++) {
        size_t size = (size_t)g->tables[t].rows * (size_t)g->tables[t].cols;
        if (at < start + size) {
            char label[256];
            snprintf(label, sizeof label, "%s: table %s (%d rows of %d)", what,
                     g->tables[t].name, g->tables[t].rows, g->tables[t].cols);
            chapter_expect_same(label, expected + start, got + start, size,
                                sizeof *got, 'r', file, line);
            return;
        }
        start += size;
    }
    chapter_expect_same(what, expected, got, n, sizeof *got, 'r', file, line);
}

/* ------------------------------------------------------------------ */
/* gradient check                                                      */

static double loss_of(Gpt *g, const int *problems, int n)
{
    return (double)g->model.batch_loss(&g->model, problems, n, 0);
}

/* the loss with entry w moved by delta */
static double loss_moved(Gpt *g, const int *problems, int n, real *w,
                         double delta)
{
    real saved = *w;
    *w = saved + (real)delta;
    double loss = loss_of(g, problems, n);
    *w = saved;
    return loss;
}

GradcheckResult gradcheck_table(Gpt *g, const int *problems, int n,
                                int table, int stride, double h)
{
    GradcheckResult result = { 0, 0, 0 };
    Params *p = &g->model.p;
    int size = gpt_tables[table].rows * gpt_tables[table].cols;
    memset(p->grads, 0, p->n_params * sizeof(real));
    g->model.batch_loss(&g->model, problems, n, 1);
    for (int i = 0; i < size; i += stride) {
        real *w = &p->table[table][i];
        /* five-point rule: its error shrinks as h^4, not h^2 */
        double numeric = (loss_moved(g, problems, n, w, -2 * h)
                          - 8 * loss_moved(g, problems, n, w, -h)
                          + 8 * loss_moved(g, problems, n, w, h)
                          - loss_moved(g, problems, n, w, 2 * h)) / (12 * h);
        double analytic = (double)p->grad[table][i];
        double diff = fabs(numeric - analytic);
        /* below GRADCHECK_FLOOR the loss's rounding (~1e-15 / h) dominates */
        double scale = fmax(fmax(fabs(numeric), fabs(analytic)), GRADCHECK_FLOOR);
        result.worst_absolute = fmax(result.worst_absolute, diff);
        result.worst_relative = fmax(result.worst_relative, diff / scale);
        result.checked++;
    }
    return result;
}

double worst_central_difference(Model *m, const int *batch, int n, int t)
{
    memset(m->p.grads, 0, m->p.n_params * sizeof(real));
    m->batch_loss(m, batch, n, 1);
    size_t size = (size_t)m->p.specs[t].rows * (size_t)m->p.specs[t].cols;
    double worst = 0;
    for (size_t i = 0; i < size; i++) {
        real *w = &m->p.table[t][i], saved = *w, h = 1e-4;
        *w = saved + h;
        double up = m->batch_loss(m, batch, n, 0);
        *w = saved - h;
        double down = m->batch_loss(m, batch, n, 0);
        *w = saved;
        double numeric = (up - down) / (2 * h), analytic = m->p.grad[t][i];
        double err = fabs(numeric - analytic)
                     / fmax(1e-6, fabs(numeric) + fabs(analytic));
        worst = fmax(worst, err);
    }
    return worst;
}

/* ------------------------------------------------------------------ */
/* the exchange with reference.py                                      */

static void draw_problems(Rng *rng, int *problems, int n)
{
    for (int i = 0; i < n; i++) problems[i] = rng_below(rng, N_PROBLEMS);
}

static int write_int32(FILE *f, int32_t value)
{
    return fwrite(&value, sizeof value, 1, f) == 1;
}

/* Adam's learning rate, betas and epsilon, as train_defaults() has them:
   the reference reads them from its input, so they are typed once, in
   attention.nw */
static void adam_constants(float constants[4])
{
    TrainConfig cfg = train_defaults();
    constants[0] = (float)cfg.lr;
    constants[1] = (float)cfg.beta1;
    constants[2] = (float)cfg.beta2;
    constants[3] = (float)cfg.eps;
}

/* initial weights of seed; the batches train() would draw with seed */
int write_reference_input(const char *path, uint64_t seed)
{
    Gpt g;
    Rng rng;
    int problems[REF_BATCH], ok = 1;
    float constants[4];
    adam_constants(constants);
    if (gpt_create(&g, seed, N_HEADS, REF_BATCH)) return -1;
    FILE *f = fopen(path, "wb");
    if (!f) { gpt_destroy(&g); return -1; }
    ok &= write_int32(f, REF_MAGIC) && write_int32(f, (int32_t)g.model.p.n_params)
       && write_int32(f, REF_BATCH) && write_int32(f, REF_STEPS)
       && write_int32(f, REF_BATCH)
       && fwrite(constants, sizeof constants, 1, f) == 1;
    for (size_t i = 0; i < g.model.p.n_params; i++) {
        float value = (float)g.model.p.params[i];
        ok &= fwrite(&value, sizeof value, 1, f) == 1;
    }
    rng_seed(&rng, seed ^ 0xBA7C4u);       /* the batch to compare on */
    draw_problems(&rng, problems, REF_BATCH);
    for (int i = 0; i < REF_BATCH; i++) ok &= write_int32(f, problems[i]);
    rng_seed(&rng, seed);                  /* as train() draws them */
    for (int s = 0; s < REF_STEPS; s++) {
        draw_problems(&rng, problems, REF_BATCH);
        for (int i = 0; i < REF_BATCH; i++) ok &= write_int32(f, problems[i]);
    }
    ok &= fclose(f) == 0;
    gpt_destroy(&g);
    return ok ? 0 : -1;
}

typedef struct {
    int32_t header[5];
    float constants[4];             /* Adam's lr, beta1, beta2, eps */
    float *params;
    int32_t problems[REF_BATCH], step_problems[REF_STEPS][REF_BATCH];
} RefInput;

typedef struct {
    float logits[REF_BATCH * SEQ_LEN * VOCAB], loss;
    float *grads, step_losses[REF_STEPS], *params;
} RefOutput;

/* The input must be the one `make reference` writes today: a reference
   computed with other Adam constants than train_defaults() is stale. */
static int read_input(const char *path, RefInput *in, size_t n_params)
{
    float constants[4];
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    adam_constants(constants);
    int ok = fread(in->header, sizeof in->header, 1, f) == 1
          && in->header[0] == REF_MAGIC && in->header[1] == (int32_t)n_params
          && in->header[2] == REF_BATCH && in->header[3] == REF_STEPS
          && in->header[4] == REF_BATCH
          && fread(in->constants, sizeof in->constants, 1, f) == 1
          && memcmp(in->constants, constants, sizeof constants) == 0
          && fread(in->params, sizeof(float), n_params, f) == n_params
          && fread(in->problems, sizeof in->problems, 1, f) == 1
          && fread(in->step_problems, sizeof in->step_problems, 1, f) == 1;
    fclose(f);
    return ok ? 0 : -1;
}

static int read_output(const char *path, RefOutput *out, size_t n_params)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    int ok = fread(out->logits, sizeof out->logits, 1, f) == 1
          && fread(&out->loss, sizeof out->loss, 1, f) == 1
          && fread(out->grads, sizeof(float), n_params, f) == n_params
          && fread(out->step_losses, sizeof out->step_losses, 1, f) == 1
          && fread(out->params, sizeof(float), n_params, f) == n_params;
    fclose(f);
    return ok ? 0 : -1;
}

/* prints one tensor's largest difference; returns 1 if out of tolerance */
static int compare(FILE *report, const char *what, const real *ours,
                   const float *theirs, size_t n, double tolerance)
{
    double worst = 0, largest = 0;
    for (size_t i = 0; i < n; i++) {
        worst = fmax(worst, fabs((double)ours[i] - (double)theirs[i]));
        largest = fmax(largest, fabs((double)theirs[i]));
    }
    int bad = !(worst <= tolerance);
    if (report)
        fprintf(report, "%-22s max|diff| %.3e  (max|ref| %.3e, tol %.0e)%s\n",
                what, worst, largest, tolerance, bad ? "  FAIL" : "");
    return bad;
}

/* tolerances for float32: the two sides sum in different orders */
static const double TOL_LOGITS = 1e-5, TOL_LOSS = 1e-5, TOL_GRAD = 5e-6,
                    TOL_STEP_LOSS = 1e-5, TOL_PARAMS = 1e-5;

static int compare_tables(FILE *report, const char *kind, Params *p,
                          const real *const *ours, const float *theirs,
                          double tolerance)
{
    int failures = 0;
    size_t offset = 0;
    for (int t = 0; t < p->n_tables; t++) {
        char what[64];
        size_t n = (size_t)p->specs[t].rows * (size_t)p->specs[t].cols;
        snprintf(what, sizeof what, "%s %s", kind, p->specs[t].name);
        failures += compare(report, what, ours[t], theirs + offset, n,
                            tolerance);
        offset += n;
    }
    return failures;
}

static int run_comparison(Gpt *g, RefInput *in, RefOutput *ref, FILE *report)
{
    Params *p = &g->model.p;
    int failures = 0;
    real loss, step_losses[REF_STEPS];
    TrainConfig cfg = train_defaults();   /* the constants of the input */
    for (size_t i = 0; i < p->n_params; i++) p->params[i] = (real)in->params[i];
    /* the logits of all seven rows, from a pass without gradients */
    loss = g->model.batch_loss(&g->model, in->problems, REF_BATCH, 0);
    failures += compare(report, "logits", g->act.logits, ref->logits,
                        REF_BATCH * SEQ_LEN * VOCAB, TOL_LOGITS);
    failures += compare(report, "loss", &loss, &ref->loss, 1, TOL_LOSS);
    /* the training pass, which leaves out the seventh row, must give
       PyTorch's loss and gradients of all seven */
    memset(p->grads, 0, p->n_params * sizeof(real));
    loss = g->model.batch_loss(&g->model, in->problems, REF_BATCH, 1);
    failures += compare(report, "loss of the training pass", &loss, &ref->loss, 1, TOL_LOSS);
    failures += compare_tables(report, "grad", p, (const real *const *)p->grad,
                               ref->grads, TOL_GRAD);
    for (int s = 0; s < REF_STEPS; s++) {
        memset(p->grads, 0, p->n_params * sizeof(real));
        step_losses[s] = g->model.batch_loss(&g->model, in->step_problems[s],
                                             REF_BATCH, 1);
        adam_step(p, s + 1, &cfg);
    }
    failures += compare(report, "losses of 10 Adam steps", step_losses,
                        ref->step_losses, REF_STEPS, TOL_STEP_LOSS);
    failures += compare_tables(report, "after 10 steps", p,
                               (const real *const *)p->table, ref->params,
                               TOL_PARAMS);
    return failures;
}

int compare_with_reference(const char *input_path, const char *ref_path,
                           FILE *report)
{
    Gpt g;
    RefInput in;
    RefOutput ref;
    int result = -1;
    if (gpt_create(&g, 1, N_HEADS, REF_BATCH)) return -1;
    size_t n = g.model.p.n_params;
    in.params = malloc(n * sizeof(float));
    ref.grads = malloc(n * sizeof(float));
    ref.params = malloc(n * sizeof(float));
    if (in.params && ref.grads && ref.params
        && read_input(input_path, &in, n) == 0
        && read_output(ref_path, &ref, n) == 0)
        result = run_comparison(&g, &in, &ref, report);
    free(in.params);
    free(ref.grads);
    free(ref.params);
    gpt_destroy(&g);
    return result;
}

/* ---------------------------------------------------------------- patches */

/* problem, site, source, heads, pos, other problem: every site with
   every source, one head, two or all, over problems of both digits */
static const int patch_cases[][6] = {
    {78, PATCH_OUTPUT, PATCH_ZERO, 1 << 0, 0, 0},
    {78, PATCH_OUTPUT, PATCH_MEAN, 1 << 3, 0, 0},
    {78, PATCH_OUTPUT, PATCH_OTHER, 1 << 2, 0, 36},
    {78, PATCH_OUTPUT, PATCH_MEAN, 0xF, 0, 0},
    {45, PATCH_WEIGHTS, PATCH_ZERO, 1 << 1, 0, 0},
    {45, PATCH_WEIGHTS, PATCH_MEAN, 1 << 0 | 1 << 2, 0, 0},
    {45, PATCH_WEIGHTS, PATCH_OTHER, 0xF, 0, 54},
    {92, PATCH_KEY, PATCH_ZERO, 1 << 1, 0, 0},
    {92, PATCH_KEY, PATCH_MEAN, 1 << 2, 2, 0},
    {92, PATCH_KEY, PATCH_OTHER, 0xF, 0, 32},
    {9, PATCH_VALUE, PATCH_ZERO, 1 << 3, 2, 0},
    {9, PATCH_VALUE, PATCH_MEAN, 0xF, 1, 0},
    {9, PATCH_VALUE, PATCH_OTHER, 1 << 0, 0, 59},
    {63, PATCH_VALUE, PATCH_OTHER, 1 << 1, 3, 18},
    {78, PATCH_DIRECT, PATCH_MEAN, 0xF, 0, 0},
    {78, PATCH_VIA_FFN, PATCH_MEAN, 0xF, 0, 0},
    {27, PATCH_DIRECT, PATCH_OTHER, 1 << 3, 0, 81},
    {27, PATCH_VIA_FFN, PATCH_ZERO, 1 << 0 | 1 << 1, 0, 0},
};
enum { N_PATCH_CASES = sizeof patch_cases / sizeof patch_cases[0] };

int write_patch_input(const char *path, const Gpt *g)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int ok = write_int32(f, PATCH_REF_MAGIC)
          && write_int32(f, (int32_t)g->model.p.n_params)
          && write_int32(f, N_PATCH_CASES);
    for (size_t i = 0; i < g->model.p.n_params; i++) {
        float value = (float)g->model.p.params[i];
        ok &= fwrite(&value, sizeof value, 1, f) == 1;
    }
    for (int c = 0; c < N_PATCH_CASES; c++)
        for (int i = 0; i < 6; i++)
            ok &= write_int32(f, patch_cases[c][i]);
    ok &= fclose(f) == 0;
    return ok ? 0 : -1;
}

static const double TOL_PATCHED_LOGITS = 2e-5;

int compare_patches_with_reference(const char *input_path,
                                   const char *ref_path, FILE *report)
{
    static float params[1 << 14], ref[N_PATCH_CASES][VOCAB];
    int32_t header[3], cases[N_PATCH_CASES][6];
    Gpt g;
    if (gpt_create(&g, 1, N_HEADS, N_PROBLEMS)) return -1;
    size_t n = g.model.p.n_params;
    FILE *in = fopen(input_path, "rb"), *out = fopen(ref_path, "rb");
    int ok = in && out && n <= sizeof params / sizeof *params
          && fread(header, sizeof header, 1, in) == 1
          && header[0] == PATCH_REF_MAGIC && header[1] == (int32_t)n
          && header[2] == N_PATCH_CASES
          && fread(params, sizeof(float), n, in) == n
          && fread(cases, sizeof cases, 1, in) == 1
          && fread(ref, sizeof ref, 1, out) == 1;
    if (in) fclose(in);
    if (out) fclose(out);
    if (!ok) { gpt_destroy(&g); return -1; }
    for (size_t i = 0; i < n; i++) g.model.p.params[i] = (real)params[i];
    int failures = 0;
    for (int c = 0; c < N_PATCH_CASES; c++) {
        int tokens[MAX_T], other[MAX_T];
        Patch patch = {(PatchSite)cases[c][1], (PatchSource)cases[c][2],
                       (unsigned)cases[c][3], 3, cases[c][4]};
        PatchNumbers with;
        problem_tokens(cases[c][0], tokens);
        problem_tokens(cases[c][5], other);
        if (patch_numbers(&g, &patch, tokens, 4, other, &with) != 0) {
            failures++;
            continue;
        }
        gpt_forward_patched(&g, &patch, &with, tokens, 4);
        char what[64];
        snprintf(what, sizeof what, "patch %d (problem %d, site %d, source %d)",
                 c, cases[c][0], cases[c][1], cases[c][2]);
        failures += compare(report, what, g.act.logits + 3 * VOCAB, ref[c],
                            VOCAB, TOL_PATCHED_LOGITS);
    }
    gpt_destroy(&g);
    return failures;
}
