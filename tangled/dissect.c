/* dissect.c: the dissection tools (tangled; edit attention.nw) */
#include "dissect.h"
#include "exercises.h"      /* exercise 9's stub marks itself */

#include <stdlib.h>
#include <string.h>
#include <tgmath.h>

static double separation(const real *x, int stride,
                         const unsigned char *has, int n)
{
    double sum[2] = {0, 0}, squares[2] = {0, 0}, mean[2];
    int count[2] = {0, 0};
    for (int i = 0; i < n; i++) {
        sum[has[i] != 0] += (double)x[i * stride];
        count[has[i] != 0]++;
    }
    if (count[0] == 0 || count[1] == 0)
        return 0;           /* one group is empty: nothing to separate */
    for (int k = 0; k < 2; k++)
        mean[k] = sum[k] / count[k];
    for (int i = 0; i < n; i++) {
        double deviation = (double)x[i * stride] - mean[has[i] != 0];
        squares[has[i] != 0] += deviation * deviation;
    }
    double spread = sqrt((squares[0] / count[0]
                          + squares[1] / count[1]) / 2);
    double gap = mean[1] - mean[0];
    return spread > 0 ? gap / spread
           : gap == 0 ? 0 : copysign(HUGE_VAL, gap);
}

int best_separating_column(const real *x, int n, int width,
                           const unsigned char *has, double *measure)
{
    int best = 0;
    for (int column = 0; column < width; column++) {
        double d = separation(x + column, width, has, n);
        if (column == 0 || fabs(d) > fabs(*measure)) {
            best = column;
            *measure = d;
        }
    }
    return best;
}

static double column_mean(const real *x, int n, int d, int column)
{
    double sum = 0;
    for (int row = 0; row < n; row++)
        sum += (double)x[row * d + column];
    return sum / n;
}

void centred_covariance(double *cov, const real *x, int n, int d)
{
    for (int i = 0; i < d; i++)
        for (int j = 0; j <= i; j++) {
            double mean_i = column_mean(x, n, d, i);
            double mean_j = column_mean(x, n, d, j);
            double sum = 0;
            for (int row = 0; row < n; row++)
                sum += ((double)x[row * d + i] - mean_i)
                       * ((double)x[row * d + j] - mean_j);
            cov[i * d + j] = cov[j * d + i] = sum / n;
        }
}

static void rotate(double *a, double *vectors, int n, int p, int q)
{
    double theta = (a[q * n + q] - a[p * n + p]) / (2 * a[p * n + q]);
    double t = (theta >= 0 ? 1 : -1)
               / (fabs(theta) + sqrt(theta * theta + 1));
    double c = 1 / sqrt(t * t + 1), s = t * c;
    for (int k = 0; k < n; k++) {           /* A J, and V J */
        double akp = a[k * n + p], akq = a[k * n + q];
        a[k * n + p] = c * akp - s * akq;
        a[k * n + q] = s * akp + c * akq;
        double vkp = vectors[k * n + p], vkq = vectors[k * n + q];
        vectors[k * n + p] = c * vkp - s * vkq;
        vectors[k * n + q] = s * vkp + c * vkq;
    }
    for (int k = 0; k < n; k++) {           /* then J^T (A J) */
        double apk = a[p * n + k], aqk = a[q * n + k];
        a[p * n + k] = c * apk - s * aqk;
        a[q * n + k] = s * apk + c * aqk;
    }
}

static double off_diagonal(const double *a, int n)
{
    double sum = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            sum += i != j ? a[i * n + j] * a[i * n + j] : 0;
    return sum;
}

enum { MAX_SWEEPS = 64 };

int symmetric_eigen(double *a, int n, double *values, double *vectors)
{
    double whole = off_diagonal(a, n);
    for (int i = 0; i < n; i++)
        whole += a[i * n + i] * a[i * n + i];
    for (int i = 0; i < n * n; i++)
        vectors[i] = i / n == i % n;        /* V starts as the identity */
    int sweep = 0;
    while (off_diagonal(a, n) > 1e-26 * whole && ++sweep <= MAX_SWEEPS)
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++)
                if (a[p * n + q] != 0)
                    rotate(a, vectors, n, p, q);
    for (int i = 0; i < n; i++)
        values[i] = a[i * n + i];
    for (int i = 0; i < n; i++) {
        int largest = i;
        for (int j = i + 1; j < n; j++)
            largest = values[j] > values[largest] ? j : largest;
        double value = values[i];
        values[i] = values[largest];
        values[largest] = value;
        for (int k = 0; k < n; k++) {
            double v = vectors[k * n + i];
            vectors[k * n + i] = vectors[k * n + largest];
            vectors[k * n + largest] = v;
        }
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double v = vectors[i * n + j];
            vectors[i * n + j] = vectors[j * n + i];
            vectors[j * n + i] = v;
        }
    return sweep <= MAX_SWEEPS ? sweep : -1;
}

double loss_floor(double *targets_per_sequence)
{
    int targets = 0;
    for (int p = 0; p < N_PROBLEMS; p++) {
        int tokens[SEQ_LEN];
        targets += problem_tokens(p, tokens) - 1;
    }
    *targets_per_sequence = targets / (double)N_PROBLEMS;
    return N_PROBLEMS * log(10.0) / targets;
}

int head_following_a_digit(Gpt *g, int a, int b)
{
    real w[2][MAX_HEADS][4];
    question_weights(g, a, b, w[0]);
    question_weights(g, b, a, w[1]);
    for (int head = 0; head < g->n_heads; head++) {
        int top0 = argmax(w[0][head], 4), top1 = argmax(w[1][head], 4);
        if ((top0 == 0 && top1 == 2) || (top0 == 2 && top1 == 0))
            return head;
    }
    return -1;
}

int trace_own_output(Gpt *g, int problem, Trace *tr)
{
    int tokens[SEQ_LEN], T = 5, t = 4, top = 0;
    problem_tokens(problem, tokens);
    gpt_forward(g, tokens, 1, 4);
    tokens[4] = argmax(g->act.logits + 3 * VOCAB, VOCAB);  /* its own */
    gpt_trace(g, tokens, T, tr);
    for (int head = 1; head < tr->n_heads; head++)
        if (tr->weights[head][t][t] > tr->weights[top][t][t])
            top = head;
    return top;
}

int reads_own_output_most(const Trace *tr, int head)
{
    return argmax(tr->weights[head][4], 5) == 4;
}

static int a_is_7(int a, int b) { (void)b; return a == 7; }
static int two_digits(int a, int b) { return a * b >= 10; }
static int tens_digit_is_5(int a, int b) { return a * b / 10 == 5; }
static int answer_is_0(int a, int b) { return a * b == 0; }
static int b_is_7(int a, int b) { (void)a; return b == 7; }
const Concept concepts[N_CONCEPTS] = {
    {"a is 7", a_is_7}, {"the answer has two digits", two_digits},
    {"the tens digit is 5", tens_digit_is_5},
    {"the answer is 0", answer_is_0}, {"b is 7", b_is_7},
};

void activations_at_equals(Gpt *g, real h[N_PROBLEMS * HIDDEN],
                           real in[N_PROBLEMS * WIDTH])
{
    loss_on_all_problems(&g->model);
    for (int p = 0; p < N_PROBLEMS; p++) {
        int row = p * SEQ_LEN + EQUALS_AT;
        memcpy(h + p * HIDDEN, g->act.hidden + row * HIDDEN,
               HIDDEN * sizeof(real));
        if (in != NULL)
            memcpy(in + p * WIDTH, g->act.ln2 + row * WIDTH,
                   WIDTH * sizeof(real));
    }
}

static int best_threshold(const real *h, const unsigned char *has,
                          double d)
{
    int best = 0;
    for (int cut = 0; cut < N_PROBLEMS; cut++) {  /* threshold at h[cut] */
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

NeuronFound search_neuron(const real h[N_PROBLEMS * HIDDEN],
                          const Concept *concept)
{
    unsigned char has[N_PROBLEMS];
    NeuronFound found = {0, 0, 0, 0};
    for (int p = 0; p < N_PROBLEMS; p++)
        found.count += has[p] =
            (unsigned char)concept->holds(p / 10, p % 10);
    found.neuron = best_separating_column(h, N_PROBLEMS, HIDDEN, has,
                                          &found.d);
    found.right = best_threshold(h + found.neuron, has, found.d);
    return found;
}

int directions_for_90(const real *x, int d, double *share)
{
    double total = 0, sum = 0;
    int count = 0;
    double *cov = malloc(2 * (size_t)d * (size_t)d * sizeof *cov);
    if (cov == NULL)
        return -2;
    centred_covariance(cov, x, N_PROBLEMS, d);
    int sweeps = symmetric_eigen(cov, d, share, cov + d * d);
    free(cov);
    if (sweeps < 0)
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

int directions_with_variance(const double *share, int n)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        if (share[i] > ROUNDING_SHARE / 100
            && share[i] < ROUNDING_SHARE * 100)
            return -1;                  /* too close to call */
        count += share[i] > ROUNDING_SHARE;
    }
    return count;
}

static int patch_width(const Gpt *g, const Patch *patch)
{
    if (patch->site != PATCH_WEIGHTS)
        return WIDTH / g->n_heads;
    return g->ablate & NO_MASK ? g->T : patch->row + 1;
}

static real *patch_site(Gpt *g, const Patch *patch, int b, int head)
{
    Activations *a = &g->act;
    int T = g->T, column = head * (WIDTH / g->n_heads);
    switch (patch->site) {
    case PATCH_OUTPUT:
    case PATCH_DIRECT:
    case PATCH_VIA_FFN:
        return a->heads + (b * T + patch->row) * WIDTH + column;
    case PATCH_WEIGHTS:
        return a->weights + ((b * g->n_heads + head) * T + patch->row) * T;
    case PATCH_KEY:
        return a->k + (b * T + patch->pos) * WIDTH + column;
    case PATCH_VALUE:
        return a->v + (b * T + patch->pos) * WIDTH + column;
    }
    return NULL;
}

static int forward_every_problem(Gpt *g, const int *tokens, int T)
{
    int batch[N_PROBLEMS * MAX_T], at[2], found = 0;
    for (int t = 0; t < T; t++)
        if (tokens[t] < N_DIGITS) {
            if (found == 2)
                return -1;
            at[found++] = t;
        }
    if (found != 2 || g->max_batch < N_PROBLEMS)
        return -1;
    for (int p = 0; p < N_PROBLEMS; p++) {
        memcpy(batch + p * T, tokens, (size_t)T * sizeof *tokens);
        batch[p * T + at[0]] = p / 10;
        batch[p * T + at[1]] = p % 10;
    }
    gpt_forward(g, batch, N_PROBLEMS, T);
    return 0;
}

static int mean_over_problems(Gpt *g, const Patch *patch,
                              const int *tokens, int T, PatchNumbers *out)
{
    if (forward_every_problem(g, tokens, T) != 0)
        return -1;
    for (int head = 0; head < g->n_heads; head++)
        for (int i = 0; i < patch_width(g, patch); i++) {
            double sum = 0;
            for (int p = 0; p < N_PROBLEMS; p++)
                sum += patch_site(g, patch, p, head)[i];
            out->at[head][i] = (real)(sum / N_PROBLEMS);
        }
    return 0;
}

int patch_numbers(Gpt *g, const Patch *patch, const int *tokens, int T,
                  const int *other, PatchNumbers *out)
{
    memset(out, 0, sizeof *out);
    if (T < 1 || T > g->n_positions || patch->row < 0 || patch->row >= T
        || patch->pos < 0 || patch->pos >= T)
        return -1;
    if (patch->source == PATCH_MEAN)
        return mean_over_problems(g, patch, tokens, T, out);
    if (patch->source == PATCH_OTHER) {
        if (other == NULL)
            return -1;
        gpt_forward(g, other, 1, T);
        for (int head = 0; head < g->n_heads; head++)
            memcpy(out->at[head], patch_site(g, patch, 0, head),
                   (size_t)patch_width(g, patch) * sizeof(real));
    }
    return 0;
}

void gpt_forward_patched(Gpt *g, const Patch *patch,
                         const PatchNumbers *with, const int *tokens, int T)
{
    Activations *a = &g->act;
    int d_head = WIDTH / g->n_heads, causal = !(g->ablate & NO_MASK);
    int by_path = patch->site == PATCH_DIRECT
                  || patch->site == PATCH_VIA_FFN;
    real kept[MAX_T * WIDTH];   /* the path left as computed */
    gpt_forward_to_heads(g, tokens, 1, T);
    if (by_path) {
        gpt_forward_from_heads(g);
        memcpy(kept, patch->site == PATCH_DIRECT ? a->ffn : a->x2,
               (size_t)T * WIDTH * sizeof(real));
    }
    for (int head = 0; head < g->n_heads; head++)
        if (patch->heads >> head & 1)
            memcpy(patch_site(g, patch, 0, head), with->at[head],
                   (size_t)patch_width(g, patch) * sizeof(real));
    if (patch->site == PATCH_KEY || patch->site == PATCH_VALUE)
        attention_forward(a->heads, a->scores, a->weights, a->q, a->k, a->v,
                          1, T, WIDTH, g->n_heads, causal);
    if (patch->site == PATCH_WEIGHTS)
        for (int head = 0; head < g->n_heads; head++)
            if (patch->heads >> head & 1)
                attention_mix(a->heads + patch->row * WIDTH + head * d_head,
                              patch_site(g, patch, 0, head),
                              a->v + head * d_head,
                              patch_width(g, patch) - 1, WIDTH, d_head);
    gpt_forward_from_heads(g);
    if (by_path) {
        memcpy(patch->site == PATCH_DIRECT ? a->ffn : a->x2, kept,
               (size_t)T * WIDTH * sizeof(real));
        gpt_forward_to_logits(g);
    }
}

int gpt_continue_patched(Gpt *g, const Patch *patch,
                         const PatchNumbers *with, int tokens[MAX_T], int T,
                         char out[8])
{
    int length = 0;
    while (T > patch->row && T < g->n_positions && length < 7) {
        gpt_forward_patched(g, patch, with, tokens, T);
        if (gpt_write_next(g, tokens, T++, out, length++) == TOK_END)
            break;
    }
    out[length] = '\0';
    return length;
}

double logit_difference(const Gpt *g, int row, int right)
{
    const real *logit = g->act.logits + row * VOCAB;
    double rival = -INFINITY;
    for (int token = 0; token < VOCAB; token++)
        if (token != right && logit[token] > rival)
            rival = logit[token];
    return logit[right] - rival;
}

int patch_run(Gpt *g, const Patch *patch, const int *tokens, int T,
              const int *other, int right, PatchRun *out)
{
    PatchNumbers with;
    if (patch_numbers(g, patch, tokens, T, other, &with) != 0)
        return -1;
    for (int run = 0; run < 2; run++) {
        Patch as_run = *patch;
        int growing[MAX_T];
        as_run.heads = run == 0 ? 0 : patch->heads;  /* run 0: no head */
        gpt_forward_patched(g, &as_run, &with, tokens, T);
        out->difference[run] = logit_difference(g, patch->row, right);
        for (int head = 0; head < g->n_heads; head++)
            memcpy(out->weights[run][head],
                   g->act.weights + (head * T + patch->row) * T,
                   (size_t)T * sizeof(real));
        memcpy(growing, tokens, (size_t)T * sizeof *tokens);
        gpt_continue_patched(g, &as_run, &with, growing, T,
                             out->answer[run]);
    }
    return 0;
}

static void direct_effect(const Gpt *g, const real *value, int head,
                          real rstd, real logit[N_DIGITS])
{
    real *const *w = g->model.p.table;
    int d_head = WIDTH / g->n_heads;
    real in[WIDTH] = {0}, out[WIDTH], logits[VOCAB], mean = 0;
    memcpy(in + head * d_head, value, (size_t)d_head * sizeof(real));
    matmul_forward(out, in, w[WO], NULL, 1, WIDTH, WIDTH);
    if (!layernorm_switch(g->ablate, LNF_GAIN)) {
        for (int c = 0; c < WIDTH; c++)
            mean += out[c] / WIDTH;
        for (int c = 0; c < WIDTH; c++)
            out[c] = (out[c] - mean) * rstd * w[LNF_GAIN][c];
    }
    matmul_forward(logits, out, w[W_OUT], NULL, 1, WIDTH, VOCAB);
    mean = 0;
    for (int d = 0; d < N_DIGITS; d++)
        mean += logits[d] / N_DIGITS;
    for (int d = 0; d < N_DIGITS; d++)
        logit[d] = logits[d] - mean;
}

int head_circuits(Gpt *g, HeadCircuits circuits[MAX_HEADS])
{
    int tokens[MAX_T], T = 4, d_head = WIDTH / g->n_heads;
    problem_tokens(0, tokens);
    if (forward_every_problem(g, tokens, T) != 0)
        return -1;
    const Activations *a = &g->act;
    double rstd = 0;
    for (int p = 0; p < N_PROBLEMS; p++)
        rstd += a->lnf_rstd[p * T + EQUALS_AT] / N_PROBLEMS;
    for (int head = 0; head < g->n_heads; head++)
        for (int side = 0; side < 2; side++)
            for (int d = 0; d < N_DIGITS; d++) {
                int p = side == 0 ? d * 10 : d, pos = 2 * side;
                int cell = ((p * g->n_heads + head) * T + EQUALS_AT) * T;
                circuits[head].qk[side][d] = a->scores[cell + pos];
                direct_effect(g, a->v + (p * T + pos) * WIDTH
                                 + head * d_head,
                              head, (real)rstd, circuits[head].ov[side][d]);
            }
    return 0;
}

