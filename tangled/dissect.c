/* dissect.c: the dissection tools (tangled; edit attention.nw) */
#include "dissect.h"

#include <tgmath.h>

double separation(const real *x, int stride, const unsigned char *has, int n)
{
    double sum[2] = {0, 0}, squares[2] = {0, 0}, mean[2];
    int count[2] = {0, 0};
    for (int i = 0; i < n; i++) {
        sum[has[i] != 0] += (double)x[i * stride];
        count[has[i] != 0]++;
    }
    if (count[0] == 0 || count[1] == 0)
        return 0;                   /* one group is empty: nothing to separate */
    for (int k = 0; k < 2; k++)
        mean[k] = sum[k] / count[k];
    for (int i = 0; i < n; i++) {
        double deviation = (double)x[i * stride] - mean[has[i] != 0];
        squares[has[i] != 0] += deviation * deviation;
    }
    double spread = sqrt((squares[0] / count[0] + squares[1] / count[1]) / 2);
    double gap = mean[1] - mean[0];
    return spread > 0 ? gap / spread : gap == 0 ? 0 : copysign(HUGE_VAL, gap);
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
            double mean_i = column_mean(x, n, d, i), mean_j = column_mean(x, n, d, j);
            double sum = 0;
            for (int row = 0; row < n; row++)
                sum += ((double)x[row * d + i] - mean_i) * ((double)x[row * d + j] - mean_j);
            cov[i * d + j] = cov[j * d + i] = sum / n;
        }
}

static void rotate(double *a, double *vectors, int n, int p, int q)
{
    double theta = (a[q * n + q] - a[p * n + p]) / (2 * a[p * n + q]);
    double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
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

