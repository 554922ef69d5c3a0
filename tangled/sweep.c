/* sweep.c: every seed's model of every kind the book compares, trained
   once and saved, or trained where it is needed (tangled; edit
   attention.nw) */
#include "checkpoint.h"
#include "experiments.h"
#include "files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_RELATIVES = MAX_HEADS + N_PARTS + 1 };

static int relatives_of_the_sweep(Relative r[MAX_RELATIVES])
{
    int n = 0;
    for (int h = 1; h <= MAX_HEADS; h++)
        if (WIDTH % h == 0)
            r[n++] = (Relative){.n_heads = h};
    for (int i = 0; i < N_PARTS; i++)
        r[n++] = (Relative){.n_heads = N_HEADS, .off = 1u << i};
    r[n++] = (Relative){.n_heads = N_HEADS, .layouts = 1};
    return n;
}

static int is_the_book(Relative r)
{
    return r.n_heads == N_HEADS && r.off == 0 && !r.layouts;
}

static int path_of(char *path, size_t size, const char *dir, Relative r,
                   uint64_t seed)
{
    int n = snprintf(path, size, "%s/", dir);
    n += snprintf(path + n, n < (int)size ? size - (size_t)n : 0,
                  r.layouts ? "layouts" : "heads%d", r.n_heads);
    for (int i = 0; i < N_PARTS; i++)
        if (r.off >> i & 1)
            n += snprintf(path + n, n < (int)size ? size - (size_t)n : 0,
                          "-without-%s", part_table[i].name);
    n += snprintf(path + n, n < (int)size ? size - (size_t)n : 0,
                  "-seed%llu.ckpt", (unsigned long long)seed);
    return n < (int)size ? 0 : fail("path too long: %s", dir);
}

static TrainConfig settings_of(const Sweep *sw, int s)
{
    TrainConfig cfg = sw->book->cfg;
    cfg.seed += (uint64_t)s;
    return cfg;
}

static Gpt *train_here(Run *run, Relative r, const TrainConfig *cfg)
{
    Gpt *g = r.layouts ? new_layout_transformer(cfg->seed)
                       : new_transformer_heads(cfg->seed, r.n_heads);
    if (g == NULL)
        return NULL;
    g->ablate = r.off;
    run->cfg = *cfg;
    run->result = train(&g->model, &run->cfg, run->log, MAX_RECORDS);
    return g;
}

static int same_settings(const TrainConfig *a, const TrainConfig *b)
{
    return a->seed == b->seed && a->steps == b->steps
           && a->batch == b->batch && a->lr == b->lr
           && a->eval_every == b->eval_every;
}

static Gpt *load_relative(Run *run, const char *path, Relative r,
                          const TrainConfig *cfg)
{
    Gpt *g = load_transformer(path);
    if (g == NULL || load_training_log(path, run) != 0)
        fail("the sweep has no usable %s: run attention sweep again", path);
    else if (g->n_heads != r.n_heads || g->ablate != r.off
             || (g->n_positions != SEQ_LEN) != r.layouts
             || !same_settings(&run->cfg, cfg))
        fail("%s was trained for another model than this one: run "
             "attention sweep again", path);
    else {
        run->result.fault_step = 0;
        run->result.fault_table = -1;
        return g;
    }
    delete_transformer(g);
    return NULL;
}

Gpt *swept(Run *run, const Sweep *sw, Relative r, int s)
{
    TrainConfig cfg = settings_of(sw, s);
    char path[4096];
    if (is_the_book(r) && s == 0 && sw->model != NULL) {
        *run = *sw->book;
        return sw->model;
    }
    if (sw->dir == NULL)
        return train_here(run, r, &cfg);
    if (path_of(path, sizeof path, sw->dir, r, cfg.seed) != 0)
        return NULL;
    return load_relative(run, path, r, &cfg);
}

Gpt *swept_measured(Trained *t, const Sweep *sw, Relative r, int s)
{
    Gpt *g = swept(&t->run, sw, r, s);
    if (g != NULL) {
        t->loss = (double)loss_on_all_problems(&g->model);
        t->correct = score(&g->model, NULL);
    }
    return g;
}

void done_with(Gpt *relative, const Sweep *sw)
{
    if (relative != sw->model)
        delete_transformer(relative);
}

int sweep_all(const char *model, const char *dir)
{
    Relative r[MAX_RELATIVES];
    int n = relatives_of_the_sweep(r), status = 0, saved = 0;
    Run *book = malloc(sizeof *book), *run = malloc(sizeof *run);
    if (book == NULL || run == NULL)
        status = fail("out of memory");
    if (status == 0)
        status = load_training_log(model, book);
    if (status == 0)
        status = make_directory(dir);
    Sweep sw = {dir, book, NULL};
    for (int k = 0; status == 0 && k < n; k++)
        for (int s = is_the_book(r[k]); status == 0 && s < N_SEEDS; s++) {
            TrainConfig cfg = settings_of(&sw, s);
            char path[4096];
            status = path_of(path, sizeof path, dir, r[k], cfg.seed);
            Gpt *g = status == 0 ? train_here(run, r[k], &cfg) : NULL;
            status = g == NULL ? -1 : save_checkpoint(path, g);
            if (status == 0)
                status = save_training_log(path, run);
            saved += status == 0;
            delete_transformer(g);
        }
    if (status == 0)
        printf("%d models saved in %s\n", saved, dir);
    free(book);
    free(run);
    return status;
}

