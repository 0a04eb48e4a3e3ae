#pragma once
// A fixed, documented random number generator for the built-in problems, so that a problem's
// value is the same function of (configuration, seeds) on every platform and standard library.
//
// The bits come from xoshiro256** (Blackman & Vigna 2018) seeded through splitmix64, which is
// also the mixing hash used to derive seeds. The distributions are written out here rather
// than taken from <random>, whose std::normal_distribution / std::gamma_distribution are
// implementation-defined and differ between libstdc++ and libc++.

#include <cassert>
#include <cmath>
#include <cstdint>
#include <numbers>

namespace sebo {

// One step of splitmix64 (Steele, Lea & Flood 2014): a bijective 64-bit mixer with good
// avalanche; consecutive inputs give unrelated outputs.
constexpr std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// Combines two seeds into one; order matters, and nearby pairs give unrelated results.
constexpr std::uint64_t mix_seeds(std::uint64_t a, std::uint64_t b) {
    return splitmix64(splitmix64(a) ^ (b + 0x632BE59BD9B4E019ull));
}

class RandomStream {
public:
    explicit RandomStream(std::uint64_t seed) {
        // splitmix64 of successive counters never yields the all-zero state xoshiro forbids
        // for all four words at once.
        std::uint64_t x = seed;
        for (auto& word : state_) {
            x += 0x9E3779B97F4A7C15ull;
            word = splitmix64(x);
        }
    }

    // xoshiro256**: 64 uniformly distributed bits.
    std::uint64_t next() {
        const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
        const std::uint64_t t = state_[1] << 17;
        state_[2] ^= state_[0];
        state_[3] ^= state_[1];
        state_[1] ^= state_[2];
        state_[0] ^= state_[3];
        state_[2] ^= t;
        state_[3] = rotl(state_[3], 45);
        return result;
    }

    // Uniform on [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    // Uniform on (0, 1): safe to take the logarithm of.
    double uniform_open() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }

    // Standard normal by the Box–Muller transform (one of the pair; the other is discarded so
    // that the stream has no hidden state besides the generator's).
    double normal() {
        const double u1 = uniform_open();
        const double u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    }

    // log of a Gamma(shape, 1) draw. Marsaglia & Tsang (2000) for shape >= 1; for shape < 1
    // the boost G(a) = G(a+1) U^(1/a), kept in log space because Gamma(0.2) draws underflow
    // a double easily (they are routinely below 1e-30).
    double log_gamma(double shape) {
        assert(shape > 0.0);
        if (shape < 1.0) return log_gamma(shape + 1.0) + std::log(uniform_open()) / shape;
        const double d = shape - 1.0 / 3.0;
        const double c = 1.0 / std::sqrt(9.0 * d);
        for (;;) {
            double z = 0.0, v = 0.0;
            do {
                z = normal();
                v = 1.0 + c * z;
            } while (v <= 0.0);
            v = v * v * v;
            const double u = uniform_open();
            if (std::log(u) < 0.5 * z * z + d - d * v + d * std::log(v)) return std::log(d * v);
        }
    }

private:
    static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t state_[4];
};

}  // namespace sebo
