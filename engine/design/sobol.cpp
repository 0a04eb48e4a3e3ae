#include "design/sobol.h"

#include <bit>
#include <boost/random/sobol.hpp>
#include <cassert>
#include <random>

namespace sebo {

namespace {
using SobolEngine = boost::random::sobol_engine<std::uint32_t, 32u, boost::random::default_sobol_table>;
}  // namespace

ScrambledSobol::ScrambledSobol(int dimension, std::uint64_t seed) : dimension_(dimension) {
    assert(dimension >= 1 && dimension <= kMaxDimension);
    std::mt19937_64 rng(seed ^ 0x5EB0'50B0'1234'ABCDull);
    matrix_.resize(static_cast<std::size_t>(dimension) * 32);
    shift_.resize(static_cast<std::size_t>(dimension));
    for (int d = 0; d < dimension; ++d) {
        for (int j = 0; j < 32; ++j) {
            // Output digit j (0 = most significant) depends on input digits 0..j, with a one on
            // the diagonal: bit (31-j) set, random bits at the more significant positions.
            const std::uint32_t diagonal = 1u << (31 - j);
            const std::uint32_t higher = j == 0 ? 0u : (~0u << (32 - j));
            matrix_[static_cast<std::size_t>(d) * 32 + static_cast<std::size_t>(j)] =
                diagonal | (static_cast<std::uint32_t>(rng()) & higher);
        }
        shift_[static_cast<std::size_t>(d)] = static_cast<std::uint32_t>(rng());
    }
}

std::vector<std::vector<double>> ScrambledSobol::points(std::uint64_t index, int count) const {
    SobolEngine engine(static_cast<unsigned>(dimension_));
    // Boost's engine starts at the sequence's second point (index 1); seed(k) positions it so
    // that the next vector is point k+1, so point 0 (the origin) is produced by hand.
    std::vector<std::vector<double>> out;
    out.reserve(static_cast<std::size_t>(count));
    std::uint64_t next = index;
    if (next == 0 && count > 0) {
        out.emplace_back(static_cast<std::size_t>(dimension_), 0.0);
        ++next;
    }
    if (static_cast<int>(out.size()) < count) engine.seed(static_cast<std::uint32_t>(next - 1));
    std::vector<std::uint32_t> raw(static_cast<std::size_t>(dimension_));
    auto scramble = [&](std::vector<std::vector<double>>::value_type& point, const std::uint32_t* digits) {
        for (int d = 0; d < dimension_; ++d) {
            const std::uint32_t x = digits[d];
            std::uint32_t y = 0;
            const std::uint32_t* rows = &matrix_[static_cast<std::size_t>(d) * 32];
            for (int j = 0; j < 32; ++j)
                y |= static_cast<std::uint32_t>(std::popcount(x & rows[j]) & 1) << (31 - j);
            y ^= shift_[static_cast<std::size_t>(d)];
            // Centre of the 2^-32 cell: never exactly 0 or 1.
            point[static_cast<std::size_t>(d)] = (static_cast<double>(y) + 0.5) * 0x1p-32;
        }
    };
    if (!out.empty()) {
        std::vector<std::uint32_t> zero(static_cast<std::size_t>(dimension_), 0u);
        scramble(out.front(), zero.data());
    }
    while (static_cast<int>(out.size()) < count) {
        for (auto& r : raw) r = engine();
        out.emplace_back(static_cast<std::size_t>(dimension_));
        scramble(out.back(), raw.data());
    }
    return out;
}

}  // namespace sebo
