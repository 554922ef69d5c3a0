/* main.c: the command-line program (tangled; edit attention.nw) */
#define _POSIX_C_SOURCE 200809L
#include "checkpoint.h"
#include "core.h"
#include "experiments.h"
#include "files.h"
#include "svg.h"
#include "trace.h"
#include "typed.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tgmath.h>         /* exp of a real, as the core computes it */
#include <time.h>
#include <unistd.h>

enum { MAX_WORDS = 256 };

typedef struct {
    int progress;                   /* print a progress line */
    int corrupt_step, corrupt_table; /* test hook: at this record, a NaN */
    Gpt *g;
} Watcher;

static const char *default_model(const char *program, char *path,
                                 size_t size)
{
    const char *slash = strrchr(program, '/');
    if (access("attention.ckpt", F_OK) == 0 || slash == NULL
        || (size_t)(slash - program) + sizeof "/model.ckpt" > size)
        return "attention.ckpt";
    memcpy(path, program, (size_t)(slash - program));
    strcpy(path + (slash - program), "/model.ckpt");
    return access(path, F_OK) == 0 ? path : "attention.ckpt";
}

static const char *quoted(const char *text)
{
    static char out[256];
    size_t n = 0, i = 0;
    out[n++] = '\'';
    for (; text[i] != '\0' && i < 40; i++) {
        unsigned char c = (unsigned char)text[i];
        n += (size_t)snprintf(out + n, sizeof out - n,
                              c >= 32 && c < 127 ? "%c" : "\\x%02x", c);
    }
    snprintf(out + n, sizeof out - n, "%s'",
             text[i] != '\0' ? "\xe2\x80\xa6" : "");  /* an ellipsis */
    return out;
}

static int training_fault(const Run *run)
{
    char why[128];
    if (run->result.fault_step == 0)
        return 0;
    return fail("%s", training_stopped(why, sizeof why, &run->result));
}

static void watch_training(const TrainRecord *r, void *context)
{
    Watcher *w = context;
    if (w->progress) {
        fprintf(stderr, "\rstep %6d   loss %.4f   score %3d/%d", r->step,
                (double)r->loss, r->correct, N_PROBLEMS);
        fflush(stderr);
    }
    if (w->corrupt_table >= 0 && r->step >= w->corrupt_step) {
        w->g->model.p.table[w->corrupt_table][0] = NAN;
        w->corrupt_table = -1;
    }
}

static void report_training(const Run *run, const char *output)
{
    const TrainRecord *last = &run->log[run->result.n_records - 1];
    if (run->result.first_perfect > 0)
        printf("first 100/100 at step %d\n", run->result.first_perfect);
    printf("saved %s after %d steps\n", output, run->result.steps_done);
    printf("%d/%d\n", last->correct, N_PROBLEMS);
}

static const char *list_of_parts(void)
{
    static char list[160];
    size_t n = 0;
    for (int i = 0; i < N_PARTS && n < sizeof list; i++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s",
                              i == 0 ? "" : i + 1 < N_PARTS ? ", " : " or ",
                              part_table[i].name);
    return list;
}

static int usage_error(const char *format, ...) PRINTF_LIKE(1, 2);

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

static int parse_whole(const char *option, const char *text,
                       unsigned long long min, unsigned long long max,
                       unsigned long long *value)
{
    if (!whole_number(text, value) || *value < min || *value > max)
        return usage_error("%s: '%s' is not a whole number from %llu "
                           "to %llu", option, text, min, max);
    return 0;
}

typedef struct {
    uint64_t seed;
    int steps, pos;                 /* pos < 0: the last position */
    int repeat;                     /* bench: timed runs */
    const char *model, *output, *part;
    const char *sweep;              /* figures: the sweep's directory */
    const char *words[MAX_WORDS];   /* arguments that are not options */
    int n_words;
    /* the default model's path, if beside the program */
    char book_model[4096];
    int exact;                      /* trace: numbers to the last bit */
    int layouts;                    /* train: on the six layouts */
    int heads;                      /* train: attention heads */
    uint32_t without;               /* train: parts switched off */
    int book;                       /* figures: the book's own build */
    Patch patch;                    /* patch: site, source and heads */
    int sites, sources;             /* patch: how many of each given */
    const char *from;               /* patch: --from's prompt */
} Arguments;

static void choose_patch(Arguments *a, const char *arg)
{
    static const char *const sites[N_PATCH_SITES] = {
        [PATCH_WEIGHTS] = "--weights", [PATCH_KEY] = "--key",
        [PATCH_VALUE] = "--value", [PATCH_DIRECT] = "--direct",
        [PATCH_VIA_FFN] = "--via-ffn"};
    static const char *const sources[] = {
        [PATCH_ZERO] = "--zero", [PATCH_MEAN] = "--mean",
        [PATCH_OTHER] = "--from"};
    for (int site = PATCH_WEIGHTS; site < N_PATCH_SITES; site++)
        if (strcmp(arg, sites[site]) == 0) {
            a->patch.site = site;
            a->sites++;
        }
    for (int source = PATCH_ZERO; source <= PATCH_OTHER; source++)
        if (strcmp(arg, sources[source]) == 0) {
            a->patch.source = source;
            a->sources++;
        }
}

static int read_head(Arguments *a, const char *value)
{
    unsigned long long number = 0;
    if (strcmp(value, "all") == 0)
        a->patch.heads = ~0u;
    else if (whole_number(value, &number) && number < MAX_HEADS)
        a->patch.heads |= 1u << number;
    else
        return usage_error("--head: %s is not a head: give 0 to %d, "
                           "or all", quoted(value), MAX_HEADS - 1);
    return 0;
}

static int read_part(Arguments *a, const char *value)
{
    int part = 0;
    while (part < N_PARTS && strcmp(value, part_table[part].name) != 0)
        part++;
    if (part == N_PARTS)
        return usage_error("--without: %s is not a part; use %s",
                           quoted(value), list_of_parts());
    a->without |= 1u << part;
    return 0;
}

static int read_value(const char *arg, const char *value, Arguments *a)
{
    const struct {
        const char *name;
        unsigned long long min, max;
        int *to;
    } numbers[] = {
        {"--repeat", 1, 64, &a->repeat}, {"--pos", 0, MAX_T - 1, &a->pos},
        {"--steps", 1, MAX_STEPS, &a->steps},
        {"--heads", 1, MAX_HEADS, &a->heads},
        {"--key", 0, MAX_T - 1, &a->patch.pos},
        {"--value", 0, MAX_T - 1, &a->patch.pos},
    };
    const struct {
        const char *name;
        const char **to;
    } words[] = {
        {"-m", &a->model}, {"-o", &a->output}, {"--part", &a->part},
        {"--sweep", &a->sweep}, {"--from", &a->from},
    };
    unsigned long long number = 0;
    if (strcmp(arg, "--seed") == 0) {
        if (parse_whole(arg, value, 0, UINT64_MAX, &number) != 0)
            return 2;
        a->seed = number;
    }
    for (size_t n = 0; n < sizeof numbers / sizeof numbers[0]; n++)
        if (strcmp(arg, numbers[n].name) == 0) {
            if (parse_whole(arg, value, numbers[n].min, numbers[n].max,
                            &number) != 0)
                return 2;
            *numbers[n].to = (int)number;
        }
    if (strcmp(arg, "--heads") == 0 && WIDTH % a->heads != 0)
        return usage_error("--heads: %d heads cannot share the %d "
                           "numbers of a row; use 1, 2, 4 or 8",
                           a->heads, WIDTH);
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
        if (strcmp(arg, words[w].name) == 0)
            *words[w].to = value;
    if (strcmp(arg, "--without") == 0)
        return read_part(a, value);
    if (strcmp(arg, "--head") == 0)
        return read_head(a, value);
    return 0;
}

static int read_option(int argc, char **argv, int *i, const char *accepted,
                       Arguments *a)
{
    static const char *const without_value[] = {
        "--exact", "--layouts", "--book", "--weights", "--direct",
        "--via-ffn", "--zero", "--mean", NULL};
    const char *arg = argv[*i];
    char wanted[32], list[128];
    snprintf(wanted, sizeof wanted, " %s ", arg);
    snprintf(list, sizeof list, " %s ", accepted);
    if (strlen(arg) > 16 || strstr(list, wanted) == NULL)
        return usage_error("%s: unknown option '%s'", argv[1], arg);
    a->exact |= strcmp(arg, "--exact") == 0;
    a->layouts |= strcmp(arg, "--layouts") == 0;
    a->book |= strcmp(arg, "--book") == 0;
    choose_patch(a, arg);
    for (const char *const *name = without_value; *name != NULL; name++)
        if (strcmp(arg, *name) == 0)
            return 0;
    if (*i + 1 >= argc)
        return usage_error("%s: option %s needs a value", argv[1], arg);
    const char *value = argv[++*i];
    int status = read_value(arg, value, a);
    if (status == 0 && value[0] == '\0')
        return usage_error("%s: option %s needs a non-empty value",
                           argv[1], arg);
    return status;
}

static int parse_arguments(int argc, char **argv, const char *accepted,
                           Arguments *a)
{
    *a = (Arguments){.seed = train_defaults().seed,
                     .steps = train_defaults().steps, .pos = -1,
                     .repeat = 5, .heads = N_HEADS,
                     .patch = {PATCH_OUTPUT, PATCH_ZERO, 0, 0, 0}};
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (a->n_words == MAX_WORDS)
                return usage_error("%s: too many arguments", argv[1]);
            a->words[a->n_words++] = arg;
            continue;
        }
        int status = read_option(argc, argv, &i, accepted, a);
        if (status != 0)
            return status;
    }
    if (a->model == NULL)
        a->model = default_model(argv[0], a->book_model,
                                 sizeof a->book_model);
    return 0;
}

static int parse_tokens(const char *text, int max, int *tokens,
                        int *length)
{
    char why[512];
    if (tokens_read(text, strlen(text), max, tokens, length, quoted(text),
                    why, sizeof why) != TOKENS_OK)
        return usage_error("%s", why);
    return 0;
}

static int command_train(const Arguments *a)
{
    const char *output = a->output ? a->output : "attention.ckpt";
    if (a->n_words > 0)
        return usage_error("train: unexpected argument %s%s",
                           quoted(a->words[0]), a->layouts
                           ? " (--layouts takes no value)" : "");
    if (a->layouts && a->heads != N_HEADS)
        return usage_error("train: --layouts trains the book's %d heads; "
                           "leave out --heads", N_HEADS);
    Run *run = malloc(sizeof *run);
    Gpt *g = a->layouts ? new_layout_transformer(a->seed)
                        : new_transformer_heads(a->seed, a->heads);
    int status = run == NULL || g == NULL ? fail("out of memory") : 0;
    if (status == 0) {
        g->ablate = a->without;
        Watcher watcher = {isatty(fileno(stderr)), 0, -1, g};
        run->cfg = train_defaults();
        run->cfg.seed = a->seed;
        run->cfg.steps = a->steps;
        run->cfg.observe = watch_training;
        run->cfg.context = &watcher;
        const char *hook = getenv("ATTENTION_TEST_NAN");
        if (hook != NULL) {
            char name[32] = "";
            if (sscanf(hook, "%d:%31s", &watcher.corrupt_step, name) == 2)
                for (int t = 0; t < g->model.p.n_tables; t++)
                    if (strcmp(name, g->model.p.specs[t].name) == 0)
                        watcher.corrupt_table = t;
        }
        run->result = train(&g->model, &run->cfg, run->log, MAX_RECORDS);
        if (watcher.progress)
            fputc('\n', stderr);
        status = training_fault(run);
        if (status == 0)
            status = save_checkpoint(output, g);
        if (status == 0)
            status = save_training_log(output, run);
        if (status == 0)
            report_training(run, output);
    }
    delete_transformer(g);
    free(run);
    return status;
}

static int parse_problem(const char *text, int *problem, int *layout)
{
    for (int which = 0; which < N_LAYOUTS; which++) {
        const char *c = layouts[which];
        int digits[2] = {0, 0}, same = strlen(text) == strlen(c);
        for (size_t i = 0; same && c[i] != '\0'; i++)
            if (c[i] == 'a' || c[i] == 'b') {
                same = text[i] >= '0' && text[i] <= '9';
                digits[c[i] - 'a'] = text[i] - '0';
            } else
                same = text[i] == c[i];
        if (same) {
            *problem = digits[0] * 10 + digits[1];
            *layout = which;
            return 0;
        }
    }
    return usage_error("%s is not a problem: write a digit, '*', a "
                       "digit and '=', as in 7*8=", quoted(text));
}

static int command_ask(const Arguments *a)
{
    int problems[MAX_WORDS], which[MAX_WORDS], status = 0;
    if (a->n_words == 0)
        return usage_error("ask: give at least one problem, such as 7*8=");
    for (int i = 0; i < a->n_words; i++)
        if (parse_problem(a->words[i], &problems[i], &which[i]) != 0)
            return 2;
    Gpt *g = load_transformer(a->model);
    if (g == NULL)
        return 1;
    for (int i = 0; i < a->n_words && status == 0; i++) {
        char answer[8];
        if (which[i] > 0 && g->n_positions == SEQ_LEN)
            status = usage_error("%s is in a layout of chapter 2; only a "
                                 "model trained with train --layouts "
                                 "reads it", quoted(a->words[i]));
        else
            layout_answer(g, problems[i], which[i], answer);
        if (status == 0)
            printf("%s%s\n", a->words[i], answer);
    }
    delete_transformer(g);
    return status;
}

static int command_trace(const Arguments *a)
{
    int tokens[MAX_T], T = 0;
    if (a->n_words != 1)
        return usage_error("trace: give exactly one sequence, "
                           "such as 7*8=");
    Gpt *g = load_transformer(a->model);
    if (g == NULL)
        return 1;
    int status = parse_tokens(a->words[0], g->n_positions, tokens, &T);
    if (status == 0 && a->pos >= T)
        status = usage_error("trace: --pos %d is past the end of %s "
                             "(positions 0 to %d)", a->pos,
                             quoted(a->words[0]), T - 1);
    Trace *trace = status == 0 ? malloc(sizeof *trace) : NULL;
    if (status == 0 && trace == NULL)
        status = (fail("out of memory"), 1);
    if (status == 0) {
        gpt_trace(g, tokens, T, trace);
        print_trace(trace, g->ablate, a->pos < 0 ? T - 1 : a->pos,
                    a->words[0], a->exact);
    }
    delete_transformer(g);
    free(trace);
    return status;
}

static int patch_usage(const Arguments *a)
{
    if (a->n_words != 1)
        return usage_error("patch: give exactly one problem, such as 7*8=");
    if (a->sources != 1)
        return usage_error("patch: give one of --zero, --mean or --from "
                           "PROMPT: what the numbers are replaced by");
    if (a->sites > 1)
        return usage_error("patch: give at most one of --weights, --key "
                           "POS, --value POS, --direct and --via-ffn (the "
                           "heads' output is the default)");
    if (a->patch.heads == 0)
        return usage_error("patch: name the heads to change: --head H, "
                           "again for another, or --head all");
    return 0;
}

static int patch_fits(const Arguments *a, Gpt *g, Patch *patch,
                      int which, int T, int T_other)
{
    unsigned every = (1u << g->n_heads) - 1;
    if (which > 0 && g->n_positions == SEQ_LEN)
        return usage_error("%s is in a layout of chapter 2; only a model "
                           "trained with train --layouts reads it",
                           quoted(a->words[0]));
    if (patch->heads != ~0u && (patch->heads & ~every) != 0)
        return usage_error("--head: this model has %d heads, 0 to %d",
                           g->n_heads, g->n_heads - 1);
    patch->heads &= every;
    if (patch->pos >= T)
        return usage_error("patch: position %d is past the end of %s "
                           "(positions 0 to %d)", patch->pos,
                           quoted(a->words[0]), T - 1);
    if (a->from != NULL && T_other != T)
        return usage_error("--from: %s has %d tokens and %s %d; a site "
                           "is the same site only in prompts as long",
                           quoted(a->from), T_other, a->words[0], T);
    return 0;
}

static void print_patch(const Arguments *a, const Patch *patch, int T,
                        const PatchRun *run, int n_heads)
{
    static const char *const site[N_PATCH_SITES] = {
        "output", "weights", "key", "value", "output", "output"};
    const char *word = a->words[0];
    printf("%s%s  as the model writes it\n", word, run->answer[0]);
    int count = 0, seen = 0;
    for (int head = 0; head < n_heads; head++)
        count += patch->heads >> head & 1;
    printf("%s%s  with the %s of head%s", word, run->answer[1],
           site[patch->site], count > 1 ? "s" : "");
    for (int head = 0; head < n_heads; head++)
        if (patch->heads >> head & 1)
            printf("%s%d", seen++ == 0 ? " " : seen == count ? " and "
                                                             : ", ", head);
    if (patch->site == PATCH_KEY || patch->site == PATCH_VALUE)
        printf(" at position %d ('%c')", patch->pos, word[patch->pos]);
    else
        printf(" at row %d ('%c')", patch->row, word[patch->row]);
    if (patch->site == PATCH_DIRECT || patch->site == PATCH_VIA_FFN)
        printf(patch->site == PATCH_DIRECT ? ", on the direct path only,"
               : ", on the path through the FFN only,");
    if (patch->source == PATCH_OTHER)
        printf(" taken from %s\n", a->from);
    else
        printf(patch->source == PATCH_ZERO ? " set to zero\n"
               : " replaced by its mean over the 100 problems\n");
    printf("logit difference of the right first token: %.3f, patched "
           "%.3f\n", run->difference[0], run->difference[1]);
    printf("weights of row %d, as the model computes them and patched:\n",
           T - 1);
    for (int head = 0; head < n_heads; head++)
        for (int patched = 0; patched < 2; patched++) {
            printf(patched ? "         " : "  head %d ", head);
            for (int u = 0; u < T; u++)
                printf(" %.3f", (double)run->weights[patched][head][u]);
            printf("\n");
        }
}

static int command_patch(const Arguments *a)
{
    int problem = 0, which = 0, tokens[MAX_T], other[MAX_T], T = 0;
    int T_other = 0;
    int status = patch_usage(a);
    if (status == 0)
        status = parse_problem(a->words[0], &problem, &which);
    if (status != 0)
        return status;
    Gpt *g = load_transformer(a->model);
    if (g == NULL)
        return 1;
    Patch patch = a->patch;
    status = parse_tokens(a->words[0], g->n_positions, tokens, &T);
    if (status == 0 && a->from != NULL)
        status = parse_tokens(a->from, g->n_positions, other, &T_other);
    if (status == 0)
        status = patch_fits(a, g, &patch, which, T, T_other);
    if (status == 0) {
        patch.row = T - 1;
        PatchRun run;
        char right[8];
        problem_answer(problem, right);
        if (patch_run(g, &patch, tokens, T, other, token_of_char(right[0]), &run)
            != 0)
            status = fail("patch: no numbers for this patch of %s",
                          quoted(a->words[0]));
        else
            print_patch(a, &patch, T, &run, g->n_heads);
    }
    delete_transformer(g);
    return status;
}

static int command_figures(const Arguments *a)
{
    if (a->output == NULL)
        return usage_error("figures: missing -o DIR");
    int status = run_topics(a->model, a->sweep, a->output, a->part,
                            a->book);
    return status == NO_SUCH_TOPIC
           ? usage_error("figures: no topic named '%s'", a->part)
           : status != 0;
}

static int command_sweep(const Arguments *a)
{
    if (a->output == NULL)
        return usage_error("sweep: missing -o DIR");
    return sweep_all(a->model, a->output) != 0;
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double time_training(const TrainConfig *cfg, int *first_perfect)
{
    static TrainRecord log[MAX_RECORDS];
    Gpt *g = new_transformer(cfg->seed);
    if (g == NULL)
        return -1;
    double start = seconds_now();
    if (first_perfect == NULL)
        score(&g->model, NULL);
    else
        *first_perfect = train(&g->model, cfg, log, MAX_RECORDS)
                             .first_perfect;
    double elapsed = seconds_now() - start;
    delete_transformer(g);
    return elapsed;
}

static int command_bench(const Arguments *a)
{
    enum { MAX_REPEAT = 64 };
    double per_step[MAX_REPEAT], to_perfect[MAX_REPEAT];
    int repeat = a->repeat, perfect = -1, ignored;
    TrainConfig timed = train_defaults(), until = train_defaults();
    timed.steps = a->steps;
    timed.eval_every = a->steps + 1;  /* evaluate only at the last step */
    until.stop_at_perfect = 1;
    for (int r = 0; r < repeat; r++) {
        double eval = time_training(&timed, NULL);
        double t = time_training(&timed, &ignored);
        double u = time_training(&until, &perfect);
        if (t < 0 || u < 0 || eval < 0)
            return fail("out of memory");
        per_step[r] = (t - eval) / timed.steps;
        to_perfect[r] = u;
    }
    double ms = 1e3 * median_of(per_step, repeat);
    double flops = gpt_train_flops(timed.batch, SEQ_LEN - 1);     /* six rows */
    printf("c_ms_per_step %.3f   (median of %d runs of %d steps, batch %d; "
           "min %.3f, max %.3f)\n", ms, repeat, timed.steps, timed.batch,
           1e3 * lowest_of(per_step, repeat),
           1e3 * highest_of(per_step, repeat));
    printf("c_seconds_to_perfect %.3f   (100/100 at step %d, evaluating "
           "every %d steps)\n", median_of(to_perfect, repeat), perfect,
           until.eval_every);
    printf("c_gflops %.2f   (%.2f MFLOP per step)\n",
           flops / (ms * 1e-3) / 1e9, flops / 1e6);
    return 0;
}

static const char usage[] =
    "usage: attention COMMAND [OPTIONS]\n"
    "\n"
    "Commands:\n"
    "  train [--seed N] [--steps N] [-o FILE] [--heads N] [--layouts]\n"
    "        [--without PART]...\n"
    "        train the transformer; save it to FILE"
    " (default attention.ckpt)\n"
    "        and its training log to FILE.log; print the final score\n"
    "  ask [-m FILE] PROBLEM...\n"
    "        answer problems such as 7*8= with the model in FILE; a\n"
    "        model trained with --layouts also answers ;;7*8= and the\n"
    "        other layouts\n"
    "  trace [-m FILE] SEQUENCE [--pos N] [--exact]\n"
    "        print every number of the forward pass of SEQUENCE (such as\n"
    "        7*8=) at position N (default: the last); with --exact, every\n"
    "        number to the last bit (%.9g), and the running sums of the\n"
    "        loops of attention step by step\n"
    "  patch [-m FILE] PROBLEM --head H... [--weights | --key POS |\n"
    "        --value POS | --direct | --via-ffn]\n"
    "        (--zero | --mean | --from PROMPT)\n"
    "        run PROBLEM (such as 7*8=) with the output of heads H (or\n"
    "        their weights at the last row, or their key or value at\n"
    "        POS, or their output on the direct path or on the path\n"
    "        through the FFN only) set to zero, to the mean over the 100\n"
    "        problems, or to those of PROMPT; print both answers, the\n"
    "        logit difference of the right first token and the last\n"
    "        row's weights; --head all changes every head\n"
    "  sweep [-m FILE] -o DIR\n"
    "        train every relative of the model in FILE that the\n"
    "        experiments compare (its other seeds; 1, 2 and 8 heads;\n"
    "        each part switched off; the layouts); save each, with its\n"
    "        log, in DIR\n"
    "  figures [-m FILE] -o DIR [--sweep DIR] [--part TOPIC] [--book]\n"
    "        run the book's experiments with the model in FILE"
    " (all topics, or\n"
    "        one: perceptron, specimen, routing, ablations, heads, ffn,\n"
    "        speed, layouts, heldout, longer, or claims, which joins\n"
    "        the others' claim checks); write DIR/numbers-TOPIC.txt,\n"
    "        DIR/claims-TOPIC.md, the tables DIR/*.md and the figures\n"
    "        DIR/fig/*.svg; print each claim of the book that does not\n"
    "        hold for this model; with --sweep, load the relatives from\n"
    "        the sweep's DIR instead of training them\n"
    "        (with --book, the book's own build: such a claim is an\n"
    "        error)\n"
    "  bench [--steps N] [--repeat N]\n"
    "        time training: median milliseconds per step over N runs"
    " (default\n"
    "        5), seconds to the first 100/100, GFLOP/s\n"
    "\n"
    "Options:\n"
    "  --seed N    seed of the initial weights and batches (default 1)\n"
    "  --steps N   training steps, 1 to 1000000 (default 1000)\n"
    "  --heads N   attention heads: 1, 2, 4 or 8 (default 4); ask and\n"
    "              trace read them from the checkpoint\n"
    "  --layouts   train on the problems in the six layouts of\n"
    "              chapter 2 (a, b: the operands; ';' fills gaps):\n"
    "              a*b= ;;a*b= a;*b= a*;;b= ;a;;*b= ;;;a*;b=\n"
    "              a score of 100/100: every problem in every layout\n"
    "  --without PART\n";
static const char usage_end[] =
    "  -m FILE     the model to use (default attention.ckpt, or if"
    " there is\n"
    "              none, model.ckpt beside the program: the book's model)\n"
    "  -h, --help  show this help (also after a command)\n"
    "\n"
    "Exit status: 0 on success, 1 on a failure while running, 2 on bad"
    " usage.\n";

static void print_wrapped(const char *text, int indent, int width)
{
    size_t n = strlen(text);
    while (n > 0) {
        size_t cut = n, skip = 0;
        if (n > (size_t)width) {            /* the last space that fits */
            cut = (size_t)width;
            while (cut > 0 && text[cut] != ' ')
                cut--;
            skip = 1;
        }
        printf("%*s%.*s\n", indent, "", (int)cut, text);
        text += cut + skip;
        n -= cut + skip;
    }
}

static void print_usage(void)
{
    char without[512];
    snprintf(without, sizeof without, "train with a part of the block "
             "switched off, as in chapters 7 and 9: %s; give it again for "
             "another part; ask and trace read them from the checkpoint",
             list_of_parts());
    fputs(usage, stdout);
    print_wrapped(without, 14, 52);
    fputs(usage_end, stdout);
}

static const struct {
    const char *name, *options;
    int (*run)(const Arguments *a);
} commands[] = {
    {"train", "--seed --steps -o --layouts --heads --without",
     command_train},
    {"ask", "-m", command_ask},
    {"trace", "-m --pos --exact", command_trace},
    {"patch", "-m --head --weights --key --value --direct --via-ffn "
              "--zero --mean --from", command_patch},
    {"sweep", "-m -o", command_sweep},
    {"figures", "-m -o --sweep --part --book", command_figures},
    {"bench", "--steps --repeat", command_bench},
};

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("missing command");
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            return print_usage(), 0;
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        if (strcmp(argv[1], commands[c].name) != 0)
            continue;
        Arguments a;
        int status = parse_arguments(argc, argv, commands[c].options, &a);
        if (status != 0)
            return status;
        if (exercises_solved_at_start_up() != 0
            || forms_agree_at_start_up() != 0)
            return 1;
        status = commands[c].run(&a);
        return status == 0 ? 0 : status == 2 ? 2 : 1;
    }
    return usage_error("unknown command '%s'", argv[1]);
}

