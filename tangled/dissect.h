/* dissect.h: tools that take a trained model apart: separation of two
   groups, covariance, eigenvectors; no I/O (tangled; edit attention.nw) */
#ifndef DISSECT_H
#define DISSECT_H
#include "core.h"

double separation(const real *x, int stride, const unsigned char *has,
                  int n);
int    best_separating_column(const real *x, int n, int width,
                              const unsigned char *has, double *measure);

void centred_covariance(double *cov, const real *x, int n, int d);
int  symmetric_eigen(double *a, int n, double *values, double *vectors);


#endif
