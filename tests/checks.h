/* checks.h: the gradient check and the comparison with the PyTorch
   reference (reference.py).  These do I/O, so they live outside gpt.c. */
#ifndef CHECKS_H
#define CHECKS_H

#include <stdio.h>
#include "core.h"
#include "dissect.h"

/* finite differences against backward for one table */
typedef struct { double worst_relative, worst_absolute; int checked; } GradcheckResult;

/* finite differences (five-point rule, step h) at every stride-th entry
   of the table, against the analytic gradient of backward; the relative
   error is |analytic - numeric| / max(|analytic|, |numeric|, FLOOR) */
#define GRADCHECK_FLOOR 1e-4
GradcheckResult gradcheck_table(Gpt *g, const int *problems, int n,
                                int table, int stride, double h);

/* the plainer check the perceptrons use, for any model: central
   differences (step 1e-4) at every entry of table t, on the batch; the
   worst relative error |analytic - numeric| / max(|analytic| + |numeric|,
   1e-6).  It runs backward once first, over zeroed gradients. */
double worst_central_difference(Model *m, const int *batch, int n, int t);

/* the exchange with reference.py, little-endian binary files:
   input:  int32 magic, n_params, batch, steps, step_batch;
           float32 lr, beta1, beta2, eps (train_defaults());
           float32 params[n_params]; int32 problems[batch];
           int32 step_problems[steps][step_batch]
   output: float32 logits[batch][SEQ_LEN][VOCAB]; loss;
           grads[n_params]; step_losses[steps]; params[n_params]   */
enum { REF_MAGIC = 0x52545047, REF_BATCH = 32, REF_STEPS = 10 };
int write_reference_input(const char *path, uint64_t seed);

/* runs the C model on the same input and prints, tensor by tensor, the
   largest absolute difference and its tolerance; returns the number of
   tensors out of tolerance, or -1 if a file cannot be read */
int compare_with_reference(const char *input_path, const char *ref_path,
                           FILE *report);

/* the exchange with patch_reference.py, the same way:
   input:  int32 magic, n_params, n_cases; float32 params[n_params] (a
           trained model); int32 cases[n_cases][6]: problem, PatchSite,
           PatchSource, heads (bits), pos, other problem
   output: float32 logits[n_cases][VOCAB], of the patched row (the '=') */
enum { PATCH_REF_MAGIC = 0x48435450 };
int write_patch_input(const char *path, const Gpt *g);

/* runs each patch with the C model and prints the largest difference of
   its logits from the reference's; returns the number of cases out of
   tolerance, or -1 if a file cannot be read */
int compare_patches_with_reference(const char *input_path,
                                   const char *ref_path, FILE *report);

/* all the parameters of g the same as in expected, bit for bit; if not,
   the test fails naming the first table that differs, its element,
   expected and got (tests/chapters.h, expect_same_reals) */
void expect_same_params_at(const char *what, const Gpt *g, const real *expected,
                           const real *got, const char *file, int line);
#define expect_same_params(what, g, expected, got) \
    expect_same_params_at((what), (g), (expected), (got), __FILE__, __LINE__)

#endif
