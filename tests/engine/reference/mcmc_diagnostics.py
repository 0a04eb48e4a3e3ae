#!/usr/bin/env python3
"""Independent reference values for tests/engine/test_mcmc_diagnostics.cpp.

Written from the formulas of Vehtari, Gelman, Simpson, Carpenter & Buerkner (2021), "Rank-
normalization, folding, and localization: An improved R-hat for assessing convergence of MCMC"
(Bayesian Analysis 16(2)), with the Python standard library only: statistics.NormalDist for the
normal quantile (Wichura's AS 241, not Boost's), plain lists, the autocovariance as a direct sum.
Run it to print the numbers the C++ test asserts:  python3 mcmc_diagnostics.py
"""
import math
from statistics import NormalDist

# The fixed draws of the test: 3 chains of 9 iterations, and 4 chains of 12 with a tie.
DRAWS_A = [
    [0.12, -0.45, 1.30, 0.88, -1.10, 0.05, 0.67, -0.32, 1.95],
    [0.40, 0.81, 1.22, 1.75, 0.93, 1.41, 2.08, 1.13, 0.57],
    [-0.90, -0.21, 0.34, -1.48, -0.66, 0.18, -0.05, -1.02, 0.29],
]
DRAWS_B = [
    [1.0, 1.2, 1.1, 1.4, 1.3, 1.5, 1.2, 1.6, 1.4, 1.7, 1.5, 1.8],
    [0.9, 0.7, 1.0, 0.8, 1.1, 0.9, 1.2, 1.0, 1.3, 1.1, 1.4, 1.2],
    [2.0, 1.1, 1.9, 1.2, 1.8, 1.3, 1.7, 1.4, 1.6, 1.5, 1.2, 1.0],
    [0.5, 0.6, 0.55, 0.7, 0.65, 0.8, 0.75, 0.9, 0.85, 1.0, 0.95, 1.1],
]
# 4 chains of 41 iterations from a formula (the C++ test computes the same draws).
DRAWS_C = [[math.sin(0.37 * t * (c + 1)) + 0.1 * c + ((7 * t + 3 * c) % 11) / 11 for t in range(41)]
           for c in range(4)]


def mean(x):
    return sum(x) / len(x)


def var(x):  # divisor n - 1
    m = mean(x)
    return sum((v - m) ** 2 for v in x) / (len(x) - 1)


def split(chains):
    n = len(chains[0])
    half = n // 2
    return [c[:half] for c in chains] + [c[n - half:] for c in chains]


def rank_normalize(chains):
    flat = [v for c in chains for v in c]
    s = len(flat)
    ranks = []
    for v in flat:  # average rank: (number below) + (1 + number equal) / 2
        below = sum(1 for w in flat if w < v)
        equal = sum(1 for w in flat if w == v)
        ranks.append(below + (1 + equal) / 2)
    z = [NormalDist().inv_cdf((r - 3 / 8) / (s - 2 * 3 / 8 + 1)) for r in ranks]
    out, k = [], 0
    for c in chains:
        out.append(z[k:k + len(c)])
        k += len(c)
    return out


def basic_rhat(chains):
    n = len(chains[0])
    w = mean([var(c) for c in chains])
    b_over_n = var([mean(c) for c in chains]) if len(chains) > 1 else 0.0
    return math.sqrt(((n - 1) / n * w + b_over_n) / w)


def acov(c):
    n, m = len(c), mean(c)
    return [sum((c[t] - m) * (c[t + lag] - m) for t in range(n - lag)) / n for lag in range(n)]


def ess(chains):
    m, n = len(chains), len(chains[0])
    a = [acov(c) for c in chains]
    w = mean([x[0] for x in a]) * n / (n - 1)
    var_plus = w * (n - 1) / n + (var([mean(c) for c in chains]) if m > 1 else 0.0)

    def rho(lag):
        return 1 - (w - mean([x[lag] for x in a])) / var_plus

    r = [0.0] * n
    r[0], r[1] = 1.0, rho(1)
    t, even, odd = 0, 1.0, r[1]
    while t < n - 5 and even + odd > 0:
        t += 2
        even, odd = rho(t), rho(t + 1)
        if even + odd >= 0:
            r[t], r[t + 1] = even, odd
    max_t = t
    if even > 0:
        r[max_t] = even
    t = 0
    while t <= max_t - 4:
        t += 2
        if r[t] + r[t + 1] > r[t - 2] + r[t - 1]:
            r[t] = r[t + 1] = (r[t - 2] + r[t - 1]) / 2
    tau = -1 + 2 * sum(r[:max_t]) + r[max_t]
    total = m * n
    return total / max(tau, 1 / math.log10(total))


def median(x):
    s = sorted(x)
    h = len(s) // 2
    return s[h] if len(s) % 2 else (s[h - 1] + s[h]) / 2


def rhat(chains):
    bulk = basic_rhat(rank_normalize(split(chains)))
    med = median([v for c in chains for v in c])
    folded = [[abs(v - med) for v in c] for c in chains]
    return max(bulk, basic_rhat(rank_normalize(split(folded))))


def ess_bulk(chains):
    return ess(rank_normalize(split(chains)))


if __name__ == "__main__":
    for name, d in (("A", DRAWS_A), ("B", DRAWS_B), ("C", DRAWS_C)):
        print(f"{name}: basic_rhat {basic_rhat(d)!r}")
        print(f"{name}: ess {ess(d)!r}")
        print(f"{name}: split_rank_normalized_rhat {rhat(d)!r}")
        print(f"{name}: bulk_ess {ess_bulk(d)!r}")
        print(f"{name}: first rank-normalized split column {rank_normalize(split(d))[0]!r}")
