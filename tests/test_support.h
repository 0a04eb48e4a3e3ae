#pragma once
// Shared helpers for the QtTest suites: fuzzy comparison with a stated tolerance, temporary
// folders, and paths into the source and build trees.

#include <QtTest>
#include <cmath>
#include <string>

namespace sebo::test {

inline std::string source_path(const std::string& relative) { return std::string(SEBO_SOURCE_DIR) + "/" + relative; }

// Compares with an absolute tolerance and prints both values on failure.
#define SEBO_COMPARE_NEAR(actual, expected, tolerance)                                                     \
    do {                                                                                                   \
        const double sebo_a_ = (actual), sebo_e_ = (expected), sebo_t_ = (tolerance);                      \
        if (!(std::abs(sebo_a_ - sebo_e_) <= sebo_t_))                                                     \
            QFAIL(qPrintable(QString("%1 = %2, expected %3 within %4")                                     \
                                 .arg(#actual)                                                             \
                                 .arg(sebo_a_, 0, 'g', 17)                                                 \
                                 .arg(sebo_e_, 0, 'g', 17)                                                 \
                                 .arg(sebo_t_, 0, 'g', 3)));                                               \
    } while (false)

}  // namespace sebo::test
