#pragma once
// The Branin–Currin two-objective test problem as BoTorch defines it
// (botorch/test_functions/multi_objective.py, class BraninCurrin; from Belakaria, Deshwal & Doppa
// 2019, "Max-value entropy search for multi-objective Bayesian optimization"). On the unit square,
// both objectives minimized:
//     f1(u) = Branin(15 u1 − 5, 15 u2)   (the standard Branin of problems/synthetic_functions.h on
//                                         [−5, 10] × [0, 15]: BoTorch's code rescales the inputs and
//                                         calls its Branin; its docstring's "− 5" inside the square
//                                         is a typo for the standard r = 6)
//     f2(u) = (1 − exp(−1/(2 u2))) · (2300 u1³ + 1900 u1² + 2092 u1 + 60) / (100 u1³ + 500 u1² + 4 u1 + 20)
// with the reference point (18, 6) (BoTorch's _ref_point; its _max_hv, 59.36, was estimated with
// NSGA-II). At u2 = 0 the Currin factor 1 − exp(−1/(2 u2)) takes its limit 1.

#include <array>

namespace sebo {

struct BraninCurrinValue {
    double branin = 0.0;  // f1, minimized
    double currin = 0.0;  // f2, minimized
};

// u1, u2 in [0, 1].
BraninCurrinValue branin_currin(double u1, double u2);

// The reference point (f1, f2) in minimization form: values worse than it add no hypervolume.
inline constexpr std::array<double, 2> kBraninCurrinReference = {18.0, 6.0};
// BoTorch's estimate of the largest attainable hypervolume against that reference.
inline constexpr double kBraninCurrinMaxHypervolume = 59.36011874867746;

}  // namespace sebo
