#include "acquisition/box_decomposition.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace sebo {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Boxes of the non-dominated region of `points` (each of size m) above `reference`, appended to
// lower/upper (stride m). Every point is strictly above the reference.
void decompose(const std::vector<std::vector<double>>& points, std::span<const double> reference,
               std::vector<double>& lower, std::vector<double>& upper) {
    const std::size_t m = reference.size();
    if (m == 1) {
        double top = reference[0];
        for (const auto& p : points) top = std::max(top, p[0]);
        lower.push_back(top);
        upper.push_back(kInfinity);
        return;
    }
    std::vector<double> levels;
    for (const auto& p : points) levels.push_back(p[m - 1]);
    std::sort(levels.begin(), levels.end());
    levels.erase(std::unique(levels.begin(), levels.end()), levels.end());

    std::vector<double> previous_lower, previous_upper;  // the open slab's sub-boxes
    double slab_start = reference[m - 1];
    auto close_slab = [&](double slab_end) {
        for (std::size_t b = 0; b < previous_lower.size() / (m - 1); ++b) {
            lower.insert(lower.end(), previous_lower.begin() + std::ptrdiff_t(b * (m - 1)),
                         previous_lower.begin() + std::ptrdiff_t((b + 1) * (m - 1)));
            lower.push_back(slab_start);
            upper.insert(upper.end(), previous_upper.begin() + std::ptrdiff_t(b * (m - 1)),
                         previous_upper.begin() + std::ptrdiff_t((b + 1) * (m - 1)));
            upper.push_back(slab_end);
        }
    };
    for (std::size_t i = 0; i <= levels.size(); ++i) {
        // Slab [v_i, v_{i+1}): the points whose last coordinate reaches v_{i+1}.
        std::vector<std::vector<double>> reaching;
        if (i < levels.size())
            for (const auto& p : points)
                if (p[m - 1] >= levels[i]) reaching.emplace_back(p.begin(), p.end() - 1);
        std::vector<double> sub_lower, sub_upper;
        decompose(reaching, reference.first(m - 1), sub_lower, sub_upper);
        const double start = i == 0 ? reference[m - 1] : levels[i - 1];
        if (i > 0 && sub_lower == previous_lower && sub_upper == previous_upper) continue;  // same slab goes on
        if (i > 0) close_slab(start);
        previous_lower = std::move(sub_lower);
        previous_upper = std::move(sub_upper);
        slab_start = start;
    }
    close_slab(kInfinity);
}

}  // namespace

NondominatedBoxes::NondominatedBoxes(const std::vector<std::vector<double>>& front,
                                     const std::vector<double>& reference)
    : objectives_(static_cast<int>(reference.size())), reference_(reference) {
    assert(objectives_ >= 1 && objectives_ <= 4);
    std::vector<std::vector<double>> inside;
    for (const auto& p : front) {
        assert(p.size() == reference.size());
        bool better = true;
        for (std::size_t d = 0; d < p.size(); ++d) better = better && p[d] > reference[d];
        if (better) inside.push_back(p);
    }
    decompose(inside, reference_, lower_, upper_);
}

std::span<const double> NondominatedBoxes::lower(std::size_t i) const {
    return std::span<const double>(lower_).subspan(i * static_cast<std::size_t>(objectives_),
                                                   static_cast<std::size_t>(objectives_));
}

std::span<const double> NondominatedBoxes::upper(std::size_t i) const {
    return std::span<const double>(upper_).subspan(i * static_cast<std::size_t>(objectives_),
                                                   static_cast<std::size_t>(objectives_));
}

double NondominatedBoxes::improvement(std::span<const double> y) const {
    assert(y.size() == static_cast<std::size_t>(objectives_));
    double total = 0.0;
    for (std::size_t i = 0; i < size(); ++i) {
        double box = 1.0;
        for (std::size_t d = 0; d < y.size() && box > 0.0; ++d) {
            const double lo = lower_[i * y.size() + d], hi = upper_[i * y.size() + d];
            box *= std::max(0.0, std::min(hi, y[d]) - lo);
        }
        total += box;
    }
    return total;
}

}  // namespace sebo
