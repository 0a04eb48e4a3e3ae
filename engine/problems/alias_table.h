#pragma once
// Walker's alias method (Vose's construction): O(n) set-up, then one categorical draw from n
// outcomes costs one 64-bit random number, a multiply and a comparison. The sourcing
// simulation draws about a million items per evaluation, so this is its inner loop.

#include <cstdint>
#include <vector>

namespace sebo {

class AliasTable {
public:
    AliasTable() = default;
    // weights: non-negative, finite, with a positive sum (asserted); need not be normalized.
    explicit AliasTable(const std::vector<double>& weights);

    int size() const { return static_cast<int>(alias_.size()); }

    // One draw from 64 uniform random bits: the high 32 bits pick a column (multiply-shift,
    // bias below n / 2^32), the low 32 bits decide between the column and its alias.
    int sample(std::uint64_t bits) const {
        const auto column = static_cast<std::size_t>(((bits >> 32) * alias_.size()) >> 32);
        return (bits & 0xFFFFFFFFull) < threshold_[column] ? static_cast<int>(column) : alias_[column];
    }

    // The probability the table draws outcome i (reconstructed from the table; for tests).
    double probability(int i) const;

private:
    // Column c keeps itself with probability threshold_[c] / 2^32, otherwise gives alias_[c].
    std::vector<std::uint64_t> threshold_;
    std::vector<int> alias_;
};

}  // namespace sebo
