#pragma once
// Random numbers for the random restarts of the hyperparameter fits. std::mt19937_64's output
// sequence is fixed by the C++ standard but the standard distributions are not, so uniforms
// (top 53 bits · 2⁻⁵³) and normals (Marsaglia's polar method) are written here: the same seed
// gives the same starts on every standard library.

#include <cmath>
#include <cstdint>
#include <random>

namespace sebo {

class PortableRandom {
public:
    explicit PortableRandom(std::uint64_t seed) : engine_(seed) {}

    // Uniform on [0, 1).
    double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
    double uniform(double lower, double upper) { return lower + (upper - lower) * uniform(); }

    // Standard normal.
    double normal() {
        if (has_spare_) {
            has_spare_ = false;
            return spare_;
        }
        double u, v, s;
        do {
            u = 2.0 * uniform() - 1.0;
            v = 2.0 * uniform() - 1.0;
            s = u * u + v * v;
        } while (s >= 1.0 || s == 0.0);
        const double factor = std::sqrt(-2.0 * std::log(s) / s);
        spare_ = v * factor;
        has_spare_ = true;
        return u * factor;
    }

private:
    std::mt19937_64 engine_;
    double spare_ = 0.0;
    bool has_spare_ = false;
};

}  // namespace sebo
