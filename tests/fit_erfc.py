#!/usr/bin/python3
"""Fit the polynomial P of normal_cdf (attention.nw, appendix "Where the
time goes"):

    erfc(a) = 2 / (2 + a) * exp(P(u)) * exp(-a^2),   u = a / (2 + a),

with P(0) = 0 and P of degree 10, over 0 <= a <= 9.5, making the largest
error of P as small as it can be (Lawson's iteration: least squares,
reweighted by the errors, which tends to the minimax fit).

The exact values come from mpmath at 30 digits.  Prints the largest error
of the fit and the coefficients, rounded to float, as the C initialiser
of erfc_fit.  Needs numpy and mpmath (Debian: python3-numpy,
python3-mpmath; python3-torch brings both).

    /usr/bin/python3 tests/fit_erfc.py
"""
import mpmath
import numpy as np

DEGREE = 10
A_MAX = 9.5          # beyond it, erfc(a) is below the smallest normal float
NODES = 4000

mpmath.mp.dps = 30
u_max = A_MAX / (2 + A_MAX)
# Chebyshev nodes on [0, u_max]: dense at both ends, where errors peak
u = (1 - np.cos(np.linspace(0, np.pi, NODES))) / 2 * u_max
a = 2 * u / (1 - u)                        # the inverse of u = a / (2 + a)
target = np.array([float(mpmath.log((2 + mpmath.mpf(x)) / 2 * mpmath.erfc(x))
                         + mpmath.mpf(x) ** 2) for x in a])

powers = np.vander(u, DEGREE + 1, increasing=True)[:, 1:]    # u^1 .. u^10
weight = np.ones_like(u)
for _ in range(100):
    root = np.sqrt(weight)
    coeffs = np.linalg.lstsq(powers * root[:, None], target * root, rcond=None)[0]
    error = np.abs(powers @ coeffs - target)
    weight = weight * error
    weight /= weight.sum()

print("largest error of P: %.2g" % error.max())
c32 = [float(np.float32(c)) for c in coeffs]
print("static const real erfc_fit[%d] = {" % DEGREE)
for i in range(0, DEGREE, 4):
    print("    " + ", ".join("%.9gf" % c for c in c32[i:i + 4]) + ",")
print("};")
