/* trace.c: the trace command's printing (tangled; edit attention.nw) */
#include "trace.h"

#include <stdio.h>
#include <tgmath.h>         /* exp of a real, as the core computes it */

static void print_attention(const Trace *tr, int t, int last, int exact);
static void print_mixes(const Trace *tr, int t, int last);

static void print_vector(const char *label, const real *x, int n, int exact)
{
    printf("  %-14s", label);
    for (int i = 0; i < n; i++) {
        printf("%s", i > 0 && i % 8 == 0 ? "\n                 " : " ");
        printf(exact ? "%.9g" : "%+.3f", (double)x[i]);
    }
    printf("\n");
}

static const char *missing(Ablation off, Ablation part)
{
    for (int i = 0; i < N_PARTS; i++)
        if (part == 1u << i)
            return off & part ? part_table[i].label : NULL;
    return NULL;
}

static void print_heading(Ablation off, Ablation part, const char *with,
                          const char *without)
{
    if (missing(off, part) != NULL)
        printf(without, missing(off, part));
    else
        fputs(with, stdout);
}

void print_trace(const Trace *tr, Ablation off, int t, const char *text,
                 int exact)
{
    int last = off & NO_MASK ? tr->T - 1 : t;      /* the last row read */
    printf("trace of \"%s\" at position t = %d (token '%c')\n", text, t,
           text[t]);
    for (int i = 0; i < N_PARTS; i++)
        if (off >> i & 1)
            printf("the model was trained without: %s\n",
                   part_table[i].name);
    printf("\n1. input x[%d] = token vector of '%c'", t, text[t]);
    if (missing(off, NO_POSITION))
        printf(" (%s)\n", missing(off, NO_POSITION));
    else
        printf(" + position vector %d\n", t);
    print_vector("x[t]", tr->x[t], WIDTH, exact);
    print_heading(off, layernorm_switch(off, LN1_GAIN),
                  "2. after LayerNorm\n", "2. h[t] = x[t] (%s)\n");
    print_vector("h[t]", tr->ln1[t], WIDTH, exact);
    printf("3. query of row t, one line per head (d_head = %d)\n",
           WIDTH / tr->n_heads);
    print_vector("q[t]", tr->q[t], WIDTH, exact);
    print_heading(off, NO_MASK,
                  "4. keys of the rows u <= t and the scores of row t\n",
                  "4. keys of every row (%s) and the scores of row t\n");
    print_attention(tr, t, last, exact);
    print_heading(off, NO_RESIDUAL,
                  "6. the heads' mixes of v, concatenated, times Wo, "
                  "plus x[t]\n",
                  "6. the heads' mixes of v, concatenated, times Wo, "
                  "(%s)\n");
    if (exact)
        print_mixes(tr, t, last);
    print_vector("mix[t]", tr->heads[t], WIDTH, exact);
    print_vector("x2[t]", tr->x2[t], WIDTH, exact);
    printf("7. after the FFN");
    print_heading(off, NO_GELU, "", " (%s)");
    print_heading(off, NO_RESIDUAL, " and its residual\n", ", %s\n");
    print_vector("x3[t]", tr->x3[t], WIDTH, exact);
    print_heading(off, layernorm_switch(off, LNF_GAIN),
                  "8. scores for the next token (after the final LayerNorm and "
                  "W_out)\n",
                  "8. scores for the next token (after W_out only: %s)\n");
    printf("  ");
    for (int token = 0; token < VOCAB; token++)
        printf(exact ? " '%c' %.9g" : " '%c' %+.2f", char_of_token(token),
               (double)tr->logits[t][token]);
    printf("\n\nnext token: '%c'\n",
           char_of_token(argmax(tr->logits[t], VOCAB)));
}

static void print_attention(const Trace *tr, int t, int last, int exact)
{
    char label[64];
    int d_head = WIDTH / tr->n_heads;
    for (int head = 0; head < tr->n_heads; head++) {
        const real *q = tr->q[t] + head * d_head;
        for (int u = 0; u <= last; u++) {
            const real *k = tr->k[u] + head * d_head;
            real score = tr->scores[head][t][u];
            real weight = tr->weights[head][t][u];
            double dot = 0;
            for (int i = 0; i < d_head; i++)
                dot += (double)q[i] * (double)k[i];
            snprintf(label, sizeof label, "head %d k[%d]", head, u);
            print_vector(label, k, d_head, exact);
            if (exact) {
                real sum = 0, sums[WIDTH];
                for (int i = 0; i < d_head; i++)
                    sums[i] = sum += q[i] * k[i];
                print_vector("q.k by terms", sums, d_head, 1);
                printf("  %-14s /sqrt(%d) = %.9g   weight = %.9g\n", "", d_head,
                       (double)score, (double)weight);
            } else
                printf("  %-14s q.k = %+.3f   /sqrt(%d) = %+.3f   "
                       "weight = %.3f\n",
                       "", dot, d_head, (double)score, (double)weight);
        }
    }
    printf("5. weights of row t (each head's sum to 1)\n");
    for (int head = 0; head < tr->n_heads; head++) {
        printf("  head %d       ", head);
        for (int u = 0; u <= last; u++)
            printf(exact ? "  u=%d '%c' %.9g" : "  u=%d '%c' %.3f", u,
                   char_of_token(tr->tokens[u]),
                   (double)tr->weights[head][t][u]);
        printf("\n");
        if (exact) {
            real max = -INFINITY, sum = 0, maxes[MAX_T], exps[MAX_T];
            real sums[MAX_T];
            const real *score = tr->scores[head][t];
            for (int u = 0; u <= last; u++)
                maxes[u] = max = score[u] > max ? score[u] : max;
            for (int u = 0; u <= last; u++) {
                exps[u] = exp(score[u] - max);
                sums[u] = sum += exps[u];
            }
            snprintf(label, sizeof label, "head %d max", head);
            print_vector(label, maxes, last + 1, 1);
            snprintf(label, sizeof label, "head %d exp", head);
            print_vector(label, exps, last + 1, 1);
            snprintf(label, sizeof label, "head %d sum", head);
            print_vector(label, sums, last + 1, 1);
        }
    }
}

static void print_mixes(const Trace *tr, int t, int last)
{
    char label[64];
    for (int head = 0; head < tr->n_heads; head++) {
        int d_mix = WIDTH / tr->n_heads;
        real o[WIDTH] = {0};
        for (int u = 0; u <= last; u++) {
            for (int i = 0; i < d_mix; i++)
                o[i] += tr->weights[head][t][u]
                        * tr->v[u][head * d_mix + i];
            snprintf(label, sizeof label, "head %d mix u=%d", head, u);
            print_vector(label, o, d_mix, 1);
        }
    }
}

