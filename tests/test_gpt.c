/* tests/test_gpt.c: cmocka tests of the transformer, run
   from the top of the repository (make check).  Built twice, like
   test_core.c: real = float, and real = double for the gradient check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "chapters.h"
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#include "checks.h"
#include "checkpoint.h"

static int setup(void **state)
{
    static Gpt g;
    if (gpt_create(&g, 1, N_HEADS, 128)) return -1;
    *state = &g;
    return 0;
}

static int teardown(void **state)
{
    gpt_destroy(*state);
    return 0;
}

static void test_fourteen_tables(void **state)
{
    static const char *names[] = { "tok_emb", "pos_emb", "ln1_gain", "Wq",
        "Wk", "Wv", "Wo", "ln2_gain", "W1", "b1", "W2", "b2", "lnf_gain",
        "W_out" };
    Gpt *g = *state;
    size_t total = 0;
    assert_int_equal(g->model.p.n_tables, 14);
    for (int t = 0; t < N_GPT_TABLES; t++) {
        assert_string_equal(gpt_tables[t].name, names[t]);
        total += (size_t)gpt_tables[t].rows * (size_t)gpt_tables[t].cols;
    }
    assert_int_equal(total, 9440);
    assert_int_equal(g->model.p.n_params, 9440);
}

static void test_classic_equals_production(void **state)
{
    Gpt *g = *state;
    for (int p = 0; p < N_PROBLEMS; p++)
        assert_true(gpt_forms_agree(g, p));
}

/* a row's arithmetic does not depend on the batch around it */
static void test_batch_equals_single(void **state)
{
    Gpt *g = *state;
    static real batch_logits[N_PROBLEMS * SEQ_LEN * VOCAB];
    int problems[N_PROBLEMS];
    for (int p = 0; p < N_PROBLEMS; p++) problems[p] = p;
    g->model.batch_loss(&g->model, problems, N_PROBLEMS, 0);
    memcpy(batch_logits, g->act.logits, sizeof batch_logits);
    for (int p = 0; p < N_PROBLEMS; p++) {
        int tokens[SEQ_LEN], T = problem_tokens(p, tokens);
        gpt_forward(g, tokens, 1, T);
        expect_same_reals("the logits, one problem against the batch",
                          batch_logits + p * SEQ_LEN * VOCAB, g->act.logits,
                          (size_t)T * VOCAB);
    }
}

/* changing token u changes nothing before u, and something from u on */
static void test_causal_mask(void **state)
{
    Gpt *g = *state;
    static real before[SEQ_LEN * VOCAB];
    for (int p = 0; p < N_PROBLEMS; p += 7) {
        int tokens[SEQ_LEN], T = problem_tokens(p, tokens);
        gpt_forward(g, tokens, 1, T);
        memcpy(before, g->act.logits, (size_t)T * VOCAB * sizeof(real));
        for (int u = 0; u < T; u++) {
            int changed[SEQ_LEN];
            memcpy(changed, tokens, sizeof changed);
            changed[u] = (tokens[u] + 1) % VOCAB;
            gpt_forward(g, changed, 1, T);
            expect_same_reals("the logits before the changed position",
                              before, g->act.logits, (size_t)u * VOCAB);
            assert_memory_not_equal(before + u * VOCAB, g->act.logits + u * VOCAB,
                                    (size_t)(T - u) * VOCAB * sizeof(real));
        }
    }
}

static void test_matches_pytorch(void **state)
{
    (void)state;
    int failures = compare_with_reference("tests/ref_input.bin", "tests/reference.bin",
                                          stdout);
    assert_int_not_equal(failures, -1);   /* -1: the files are missing (make reference) */
    assert_int_equal(failures, 0);
}

#ifdef ATTENTION_DOUBLE
/* Every table's gradient against finite differences (every 5th entry). */
static void test_gradcheck(void **state)
{
    Gpt *g = *state;
    int problems[16];
    Rng rng;
    rng_seed(&rng, 7);
    for (int i = 0; i < 16; i++) problems[i] = rng_below(&rng, N_PROBLEMS);
    double worst = 0;
    for (int table = 0; table < N_GPT_TABLES; table++) {
        GradcheckResult r = gradcheck_table(g, problems, 16, table, 5, 1e-4);
        printf("  gradient check %-9s %4d entries, worst relative error %.2e\n",
               gpt_tables[table].name, r.checked, r.worst_relative);
        assert_true(r.checked > 0);
        worst = r.worst_relative > worst ? r.worst_relative : worst;
    }
    assert_true(worst < 1e-6);
}
#endif

static void test_deterministic_init(void **state)
{
    Gpt *g = *state, other;
    assert_int_equal(gpt_create(&other, 1, N_HEADS, 4), 0);
    expect_same_params("the parameters", g, g->model.p.params, other.model.p.params);
    gpt_destroy(&other);
}

/* ---------------------------------------------------------------- checkpoints */

static unsigned char *encoded(Gpt *g, size_t *size)
{
    *size = checkpoint_size(g);
    unsigned char *bytes = malloc(*size);
    assert_non_null(bytes);
    checkpoint_encode(bytes, g);
    return bytes;
}

/* Save and load into a model with other weights: the same logits, bit for bit. */
static void test_checkpoint_round_trip(void **state)
{
    Gpt *g = *state, other;
    size_t size;
    char why[256];
    static real before[N_PROBLEMS * SEQ_LEN * VOCAB];
    int problems[N_PROBLEMS];
    for (int p = 0; p < N_PROBLEMS; p++) problems[p] = p;
    /* checkpoints hold float32: in the double build, start from weights
       that float32 represents exactly */
    for (size_t i = 0; i < g->model.p.n_params; i++)
        g->model.p.params[i] = (real)(float)g->model.p.params[i];
    unsigned char *bytes = encoded(g, &size);
    assert_int_equal(size, 8 + 4 + 4 + 4 + 4 + 8 * 14 + 4 * 9440 + 8);
    assert_int_equal(gpt_create(&other, 99, N_HEADS, N_PROBLEMS), 0);
    assert_memory_not_equal(g->model.p.params, other.model.p.params, 64);
    assert_int_equal(checkpoint_decode(&other, bytes, size, why, sizeof why),
                     CHECKPOINT_OK);
    g->model.batch_loss(&g->model, problems, N_PROBLEMS, 0);
    memcpy(before, g->act.logits, sizeof before);
    other.model.batch_loss(&other.model, problems, N_PROBLEMS, 0);
    expect_same_reals("the logits", before, other.act.logits, sizeof before / sizeof *before);
    gpt_destroy(&other);
    free(bytes);
}

/* Each kind of damage is refused with a message naming it, and the model
   is left as it was. */
static void expect_refusal(Gpt *g, const unsigned char *bytes, size_t size,
                           CheckpointFault expected, const char *words)
{
    char why[256];
    real first = g->model.p.params[0];
    CheckpointFault fault = checkpoint_decode(g, bytes, size, why, sizeof why);
    assert_int_equal(fault, expected);
    if (strstr(why, words) == NULL)
        fail_msg("expected '%s' in: %s", words, why);
    assert_true(g->model.p.params[0] == first);
}

static void reseal(unsigned char *bytes, size_t size)   /* recompute the hash */
{
    uint64_t hash = 0xcbf29ce484222325u;
    for (size_t i = 0; i + 8 < size; i++) {
        hash ^= bytes[i];
        hash *= 0x100000001b3u;
    }
    for (int i = 0; i < 8; i++)
        bytes[size - 8 + i] = (unsigned char)(hash >> (8 * i));
}

static void test_checkpoint_defects(void **state)
{
    Gpt *g = *state;
    size_t size;
    unsigned char *good = encoded(g, &size), *bad = malloc(size + 1);
    assert_non_null(bad);
    for (size_t cut = 0; cut < size; cut++)              /* truncated at every byte */
        expect_refusal(g, good, cut, CHECKPOINT_SIZE,
                       cut < 24 ? "too short" : "truncated");
    memcpy(bad, good, size); bad[size] = 0;
    expect_refusal(g, bad, size + 1, CHECKPOINT_SIZE, "extra bytes");
    memcpy(bad, good, size); bad[0] = 'X';
    expect_refusal(g, bad, size, CHECKPOINT_NOT_ONE, "not a checkpoint");
    memcpy(bad, good, size); bad[8] = 3; reseal(bad, size);
    expect_refusal(g, bad, size, CHECKPOINT_FORMAT, "version 3");
    memcpy(bad, good, size); bad[12] = 8; reseal(bad, size);
    expect_refusal(g, bad, size, CHECKPOINT_OTHER_MODEL, "8 heads");
    memcpy(bad, good, size); bad[16] = 2; reseal(bad, size);   /* no mask */
    expect_refusal(g, bad, size, CHECKPOINT_OTHER_MODEL,
                   "a model without mask, expected one without any part");
    char unknown[64];                   /* the first bit past the table */
    snprintf(unknown, sizeof unknown, "does not know (bits %#x)", 1u << N_PARTS);
    memcpy(bad, good, size);                     /* the parts' field, 32 bits */
    for (int i = 0; i < 4; i++) bad[16 + i] = (unsigned char)((1u << N_PARTS) >> 8 * i);
    reseal(bad, size);
    expect_refusal(g, bad, size, CHECKPOINT_OTHER_MODEL, unknown);
    memcpy(bad, good, size); bad[24 + 8 * 3] = 31; reseal(bad, size);
    expect_refusal(g, bad, size, CHECKPOINT_OTHER_MODEL, "Wq");
    memcpy(bad, good, size); bad[size / 2] ^= 1;
    expect_refusal(g, bad, size, CHECKPOINT_DAMAGED, "checksum");
    memcpy(bad, good, size);
    memcpy(bad + 24 + 8 * 14 + 4 * 500, "\x00\x00\xc0\x7f", 4);   /* a NaN in pos_emb */
    reseal(bad, size);
    expect_refusal(g, bad, size, CHECKPOINT_DAMAGED, "pos_emb holds a NaN");
    free(good);
    free(bad);
}

/* A file of version 1, which had no parts field (the layout of the
   appendix's table with bytes 16 to 19 taken out), still loads: into the
   same numbers as the version 2 file, with every part switched on. */
static void test_checkpoint_version_1(void **state)
{
    Gpt *g = *state;
    static Gpt from_new, from_old;
    char why[256];
    size_t size;
    unsigned char *good = encoded(g, &size), *old = malloc(size - 4);
    assert_non_null(old);
    memcpy(old, good, 16);
    memcpy(old + 16, good + 20, size - 20);
    old[8] = 1;
    reseal(old, size - 4);
    assert_int_equal(checkpoint_heads(old, size - 4), N_HEADS);
    assert_int_equal(checkpoint_parts(old, size - 4), 0);
    assert_int_equal(checkpoint_table_rows(old, size - 4, POS_EMB), SEQ_LEN);
    assert_int_equal(checkpoint_table_rows(old, size - 4, TOK_EMB), VOCAB);
    assert_int_equal(gpt_create(&from_new, 7, N_HEADS, 1), 0);
    assert_int_equal(gpt_create(&from_old, 8, N_HEADS, 1), 0);
    assert_int_equal(checkpoint_decode(&from_new, good, size, why, sizeof why),
                     CHECKPOINT_OK);
    assert_int_equal(checkpoint_decode(&from_old, old, size - 4, why, sizeof why),
                     CHECKPOINT_OK);
    expect_same_params("the parameters", &from_new, from_new.model.p.params,
                       from_old.model.p.params);
    expect_refusal(g, old, size - 5, CHECKPOINT_SIZE, "truncated");
    gpt_destroy(&from_new);
    gpt_destroy(&from_old);
    free(good);
    free(old);
}

/* A model trained without parts says so in its file: the header names
   them, a model with every part refuses the file, and one with the same
   parts switched off takes it. */
/* The limits that come with the table of parts: a checkpoint records a
   model's parts by bit, so the parts of the format as published keep
   their bits (new parts are appended); at most 31 parts, so that the
   reader's shift by N_PARTS is defined; names of PART_NAME_MAX
   characters at most, distinct, as are the tags. */
static void test_part_table_limits(void **state)
{
    (void)state;
    static const char *const published[] = {"positions", "mask", "residual", "layernorm", "gelu"};
    const int n = (int)(sizeof published / sizeof published[0]);
    assert_true(N_PARTS >= n && N_PARTS <= 31);
    for (int i = 0; i < n; i++)
        if (strcmp(part_table[i].name, published[i]))
            fail_msg("bit %d is '%s' in checkpoints saved since version 2, now '%s'",
                     i, published[i], part_table[i].name);
    for (int i = 0; i < N_PARTS; i++) {
        assert_true(strlen(part_table[i].name) <= PART_NAME_MAX);
        for (int j = 0; j < i; j++) {
            assert_string_not_equal(part_table[i].name, part_table[j].name);
            assert_string_not_equal(part_table[i].tag, part_table[j].tag);
        }
    }
    assert_int_equal(ABLATED >> N_PARTS, 0);
}

static void test_checkpoint_parts(void **state)
{
    (void)state;
    static Gpt without, book, same;
    char why[256];
    size_t size;
    assert_int_equal(gpt_create(&without, 3, N_HEADS, 1), 0);
    without.ablate = NO_MASK | NO_GELU;
    unsigned char *bytes = encoded(&without, &size);
    assert_int_equal(checkpoint_parts(bytes, size), 2 | 16);
    assert_int_equal(gpt_create(&book, 4, N_HEADS, 1), 0);
    assert_int_equal(checkpoint_decode(&book, bytes, size, why, sizeof why),
                     CHECKPOINT_OTHER_MODEL);
    assert_string_equal(why, "a model without mask and gelu, expected "
                             "one without any part");
    assert_int_equal(gpt_create(&same, 5, N_HEADS, 1), 0);
    same.ablate = 2 | 16;                       /* the bits as stored */
    assert_int_equal(same.ablate, NO_MASK | NO_GELU);
    assert_int_equal(checkpoint_decode(&same, bytes, size, why, sizeof why),
                     CHECKPOINT_OK);
    for (size_t i = 0; i < without.model.p.n_params; i++)   /* as float32 */
        assert_true(same.model.p.params[i]
                    == (real)(float)without.model.p.params[i]);
    free(bytes);
    /* a model without every part: the refusal names each in full (the
       buffers hold every name joined, each of PART_NAME_MAX characters
       at most: test_part_table_limits) */
    without.ablate = (1u << N_PARTS) - 1;
    bytes = encoded(&without, &size);
    assert_int_equal(checkpoint_decode(&book, bytes, size, why, sizeof why),
                     CHECKPOINT_OTHER_MODEL);
    for (int i = 0; i < N_PARTS; i++) {
        assert_non_null(strstr(why, part_table[i].name));
    }
    assert_non_null(strstr(why, ", expected one without any part"));
    free(bytes);
    gpt_destroy(&without);
    gpt_destroy(&book);
    gpt_destroy(&same);
}

/* ---------------------------------------------------------------- training */

/* A NaN that appears in a table stops training before the next step, naming
   the step and the table. */
static void corrupt_wv(const TrainRecord *r, void *context)
{
    Gpt *g = context;
    if (r->step == 20)
        g->model.p.table[WV][5] = NAN;
}

static void test_nan_stops_training(void **state)
{
    (void)state;
    static Gpt g;
    static TrainRecord log[20];
    assert_int_equal(gpt_create(&g, 1, N_HEADS, 32), 0);
    TrainConfig cfg = train_defaults();
    cfg.steps = 100;
    cfg.observe = corrupt_wv;
    cfg.context = &g;
    TrainResult r = train(&g.model, &cfg, log, 20);
    assert_int_equal(r.fault_step, 21);
    assert_int_equal(r.fault_table, WV);
    assert_int_equal(r.steps_done, 20);
    gpt_destroy(&g);
}


/* The one-pass grading of the training chapter (teacher forcing, all
   hundred problems in one batch) gives the same verdicts as writing every
   answer token by token, at every evaluation of a training run, from 0
   to 100 correct; also with positions or LayerNorm switched off.  Without
   the mask the shortcut does not hold, and the model declines it. */
typedef struct {
    Gpt *g;
    int compared, mixed;
} GradeWatch;

static void compare_grades(const TrainRecord *record, void *context)
{
    GradeWatch *w = context;
    unsigned char slow[N_PROBLEMS];
    int (*grade)(Model *, unsigned char *) = w->g->model.grade;
    w->g->model.grade = NULL;                   /* the long way */
    int correct = score(&w->g->model, slow);
    w->g->model.grade = grade;
    assert_int_equal(correct, record->correct);
    expect_same_bytes("the problems solved", slow, record->solved, N_PROBLEMS);
    w->compared++;
    w->mixed += correct > 0 && correct < N_PROBLEMS;
}

static void test_grade_equals_writing_answers(void **state)
{
    (void)state;
    static Gpt g;
    unsigned char solved[N_PROBLEMS];
    for (int variant = 0; variant < 3; variant++) {
        GradeWatch watch = {&g, 0, 0};
        TrainConfig cfg = train_defaults();
        assert_int_equal(gpt_create(&g, 1 + variant, N_HEADS, 128), 0);
        g.ablate = variant == 1   ? NO_POSITION
                   : variant == 2 ? NO_LAYERNORM : 0;
        cfg.seed = 1 + variant;
        cfg.steps = 300;
        cfg.observe = compare_grades;
        cfg.context = &watch;
        train(&g.model, &cfg, NULL, 0);
        assert_int_equal(watch.compared, 30);
        assert_true(watch.mixed >= 5);
        g.ablate |= NO_MASK;
        assert_int_equal(g.model.grade(&g.model, solved), -1);
        gpt_destroy(&g);
    }
}

#ifndef ATTENTION_DOUBLE
/* From the default seed the transformer reaches 100/100 with the training
   loop of the perceptron, and a checkpoint of it answers all 100 problems. */
static void test_trains_to_perfect_score(void **state)
{
    (void)state;
    static Gpt g, loaded;
    static TrainRecord log[200];
    char why[256];
    size_t size;
    assert_int_equal(gpt_create(&g, train_defaults().seed, N_HEADS, 128), 0);
    TrainConfig cfg = train_defaults();
    cfg.stop_at_perfect = 1;
    TrainResult r = train(&g.model, &cfg, log, 200);
    printf("  transformer: 100/100 at step %d\n", r.first_perfect);
    assert_true(r.first_perfect > 0);
    assert_int_equal(score(&g.model, NULL), N_PROBLEMS);
    unsigned char *bytes = encoded(&g, &size);
    assert_int_equal(gpt_create(&loaded, 5, N_HEADS, 128), 0);
    assert_int_equal(checkpoint_decode(&loaded, bytes, size, why, sizeof why),
                     CHECKPOINT_OK);
    assert_int_equal(score(&loaded.model, NULL), N_PROBLEMS);
    free(bytes);
    gpt_destroy(&g);
    gpt_destroy(&loaded);
}
#endif

/* the chapter of each test, by its topic (tests/chapters.awk), and the
   function or chunk it checks; tests of the whole forward or backward
   pass need every exercise: "+whole" (tests/chapters.h) */
static const ChapterTest tests[] = {
    CHAPTER_TEST("training", "gpt_create", test_fourteen_tables),
    CHAPTER_TEST("training", "gpt_init_params", test_deterministic_init),
    CHAPTER_TEST("forward-pass+whole", "gpt_forms_agree", test_classic_equals_production),
    CHAPTER_TEST("forward-pass+whole", "gpt_forward", test_batch_equals_single),
    CHAPTER_TEST("forward-pass+whole", "attention_forward", test_causal_mask),
    CHAPTER_TEST("training+whole", "gpt_backward", test_matches_pytorch),
#ifdef ATTENTION_DOUBLE
    CHAPTER_TEST("training+whole", "gpt_backward", test_gradcheck),
#endif
    CHAPTER_TEST("training", "checkpoint_encode", test_checkpoint_round_trip),
    CHAPTER_TEST("training", "checkpoint_decode", test_checkpoint_defects),
    CHAPTER_TEST("training", "checkpoint_decode", test_checkpoint_version_1),
    CHAPTER_TEST("training", "checkpoint_parts", test_checkpoint_parts),
    CHAPTER_TEST("training", "the switches of the ablations", test_part_table_limits),
    CHAPTER_TEST("perceptron", "first_nonfinite_table", test_nan_stops_training),
    CHAPTER_TEST("training+whole", "gpt_grade", test_grade_equals_writing_answers),
#ifndef ATTENTION_DOUBLE
    CHAPTER_TEST("training+whole", "train", test_trains_to_perfect_score),
#endif
};

int main(int argc, char **argv)
{
#ifdef ATTENTION_DOUBLE
    const char *suite = "transformer (double)";
#else
    const char *suite = "transformer";
#endif
    return run_chapter_tests(argc, argv, suite, tests, sizeof tests / sizeof tests[0],
                             setup, teardown);
}
