#include "problems/alias_table.h"

#include <cassert>
#include <cmath>

namespace sebo {

AliasTable::AliasTable(const std::vector<double>& weights) {
    const std::size_t n = weights.size();
    assert(n > 0 && n < (std::size_t{1} << 31));
    double total = 0.0;
    for (double w : weights) {
        assert(std::isfinite(w) && w >= 0.0);
        total += w;
    }
    assert(total > 0.0);

    // Vose (1991): scale every weight to mean 1, then repeatedly fill an under-full column
    // with the excess of an over-full one. Exact in real arithmetic; rounding leftovers are
    // columns with scaled weight ~1 and keep themselves.
    std::vector<double> scaled(n);
    std::vector<std::size_t> small, large;
    for (std::size_t i = 0; i < n; ++i) {
        scaled[i] = weights[i] * static_cast<double>(n) / total;
        (scaled[i] < 1.0 ? small : large).push_back(i);
    }
    constexpr double kOne = 4294967296.0;  // 2^32
    threshold_.assign(n, static_cast<std::uint64_t>(kOne));
    alias_.resize(n);
    for (std::size_t i = 0; i < n; ++i) alias_[i] = static_cast<int>(i);
    while (!small.empty() && !large.empty()) {
        const std::size_t s = small.back();
        small.pop_back();
        const std::size_t l = large.back();
        threshold_[s] = static_cast<std::uint64_t>(std::llround(scaled[s] * kOne));
        alias_[s] = static_cast<int>(l);
        scaled[l] -= 1.0 - scaled[s];
        if (scaled[l] < 1.0) {
            large.pop_back();
            small.push_back(l);
        }
    }
}

double AliasTable::probability(int i) const {
    const std::size_t n = alias_.size();
    constexpr double kOne = 4294967296.0;
    double p = static_cast<double>(threshold_[static_cast<std::size_t>(i)]) / kOne;
    for (std::size_t c = 0; c < n; ++c)
        if (alias_[c] == i && static_cast<std::size_t>(i) != c) p += 1.0 - static_cast<double>(threshold_[c]) / kOne;
    return p / static_cast<double>(n);
}

}  // namespace sebo
