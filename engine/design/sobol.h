#pragma once
// Scrambled Sobol points in [0,1)^dim (SPEC §2 "Initial design").
//
// The unscrambled Joe–Kuo Sobol sequence (Boost.Random's tables) is randomized per seed by a
// linear matrix scramble plus a digital shift (Matoušek 1998): each coordinate's 32 binary
// digits are multiplied by a random lower-triangular non-singular matrix over GF(2) and XORed
// with a random shift. This keeps the (t,m,s)-net stratification of the sequence (every 2^m
// consecutive points from the start fill each elementary interval equally) while giving
// different point sets for different seeds and identical ones for the same seed.

#include <cstdint>
#include <vector>

namespace sebo {

class ScrambledSobol {
public:
    static constexpr int kMaxDimension = 3667;  // Boost's direction-number tables

    ScrambledSobol(int dimension, std::uint64_t seed);

    int dimension() const { return dimension_; }
    // Points index, index+1, ..., index+count-1 of the scrambled sequence (row-major, one
    // std::vector per point). Independent of what was drawn before.
    std::vector<std::vector<double>> points(std::uint64_t index, int count) const;

private:
    int dimension_;
    // Per dimension: 32 row masks of the scramble matrix and the digital shift.
    std::vector<std::uint32_t> matrix_;
    std::vector<std::uint32_t> shift_;
};

}  // namespace sebo
