/* exp_speed.c: the numbers of the appendix on speed
   (tangled; edit attention.nw) */
#include "experiments.h"

#include <float.h>
#include <math.h>

static double float_ulps(double value, double exact)
{
    int e;
    frexp(exact, &e);                       /* 2^(e-1) <= |exact| < 2^e */
    return fabs(value - exact) / ldexp(1, e - 24);
}

/* x as m \cdot 10^{e} */
static void scientific(Text *out, const char *name, double x)
{
    int e = (int)floor(log10(x));
    number(out, name, "%.1f \\cdot 10^{%d}", x / pow(10, e), e);
}

static void numbers_of_the_normal_functions(Text *out)
{
    double exp_worst = 0, abs_worst = 0, body = 0, tail = 0;
    for (int i = 0; i <= 2000000; i++) {
        float x = (float)(-87 + 175 * (i / 2e6));
        exp_worst = fmax(exp_worst,
                         float_ulps(exp_lanes(x), exp((double)x)));
    }
    for (int i = 0; i <= 3000000; i++) {
        float z = (float)(-14 + 28 * (i / 3e6));
        double exact = erfc(-(double)z / sqrt(2)) / 2, ours = normal_cdf(z);
        abs_worst = fmax(abs_worst, fabs(ours - exact));
        if (exact >= FLT_MIN)
            tail = fmax(tail, float_ulps(ours, exact));
        if (z >= -4)
            body = fmax(body, float_ulps(ours, exact));
    }
    int i = 0;  /* where the library's route reaches 0 */
    while (i < 2000 && 0.5f * (1 + erff(-0.01f * i / sqrtf(2))) > 0)
        i++;
    number(out, "exp_worst_ulp", "%.2f", exp_worst);
    scientific(out, "cdf_worst_abs", abs_worst);
    number(out, "cdf_worst_ulp", "%.1f", body);
    number(out, "cdf_worst_ulp_tail", "%.0f", tail);
    number(out, "cdf_library_zero", "%.2f", -0.01 * i);
    scientific(out, "cdf_ours_at_library_zero", normal_cdf(-0.01f * i));
}

int speed_experiments(const char *model, const char *sweep,
                      const char *dir, const char *fig, Text *numbers,
                      Claims *claims)
{
    int batch = train_defaults().batch, rows = SEQ_LEN - 1;
    (void)model, (void)sweep;           /* no model, */
    (void)dir, (void)fig;               /* no table, no figure */
    (void)claims;                       /* and no claim about a model */
    number(numbers, "gelu_per_step", "%d", batch * rows * HIDDEN);
    number(numbers, "bench_batch", "%d", batch);
    number(numbers, "bench_seq", "%d", rows);
    number(numbers, "bench_mflops", "%.2f",
           gpt_train_flops(batch, rows) / 1e6);
    numbers_of_the_normal_functions(numbers);
    return 0;
}

