#include "acquisition/multi_ehvi.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "pareto/dominance.h"
#include "pareto/hypervolume_nd.h"

namespace sebo {

namespace {

bool useful(const std::vector<double>& f, const std::vector<double>& reference) {
    assert(f.size() == reference.size());
    for (std::size_t d = 0; d < f.size(); ++d)
        if (!std::isfinite(f[d]) || !(f[d] > reference[d])) return false;
    return true;
}

// The non-dominated rows (first of identical rows kept), in input order.
std::vector<std::vector<double>> front_of(const std::vector<std::vector<double>>& rows) {
    std::vector<std::vector<double>> front;
    for (const std::size_t i : non_dominated_positions(rows)) front.push_back(rows[i]);
    return front;
}

}  // namespace

// ---- MultiEhvi ----------------------------------------------------------------------------------

MultiEhvi::MultiEhvi(const std::vector<std::vector<double>>& observed, const std::vector<double>& reference)
    : front_([&] {
          std::vector<std::vector<double>> inside;
          for (const auto& f : observed)
              if (useful(f, reference)) inside.push_back(f);
          return front_of(inside);
      }()),
      boxes_(front_, reference),
      ehvi_(static_cast<int>(reference.size())),
      hypervolume_(hypervolume_nd(front_, reference)) {
    ehvi_.add_group(boxes_);
}

double MultiEhvi::log_ehvi(std::span<const MixtureMoments> objectives, std::vector<MixtureGradient>* gradient) const {
    const double unit_weight = 0.0;
    return ehvi_.log_value(objectives, std::span<const double>(&unit_weight, 1), gradient, nullptr);
}

// ---- SparseMultiEhvi ----------------------------------------------------------------------------

SparseMultiEhvi::SparseMultiEhvi(const std::vector<Observation>& observed, std::vector<double> reference_f,
                                 double reference_xi)
    : reference_f_(std::move(reference_f)), reference_xi_(reference_xi), ehvi_(static_cast<int>(reference_f_.size())) {
    std::vector<const Observation*> inside;
    for (const Observation& o : observed)
        if (useful(o.f, reference_f_) && std::isfinite(o.xi) && o.xi < reference_xi_) inside.push_back(&o);
    std::stable_sort(inside.begin(), inside.end(),
                     [](const Observation* a, const Observation* b) { return a->xi < b->xi; });

    // Walk ξ upwards; a strip ends where a point joins the front (as SparseEhviFront's cover rises).
    double lo = -std::numeric_limits<double>::infinity();
    std::vector<std::vector<double>> front;
    for (std::size_t i = 0; i < inside.size();) {
        const double xi = inside[i]->xi;
        std::vector<std::vector<double>> candidates = front;
        for (; i < inside.size() && inside[i]->xi == xi; ++i) candidates.push_back(inside[i]->f);
        std::vector<std::vector<double>> next = front_of(candidates);
        // The old front's rows come first among the candidates, so they keep their places and an
        // unchanged front compares equal.
        if (next == front) continue;
        strips_.push_back({lo, xi, std::move(front)});
        lo = xi;
        front = std::move(next);
    }
    strips_.push_back({lo, reference_xi_, std::move(front)});
    for (const Strip& strip : strips_) ehvi_.add_group(NondominatedBoxes(strip.front, reference_f_));
}

double SparseMultiEhvi::hypervolume() const {
    double volume = 0.0;
    for (const Strip& s : strips_)
        if (std::isfinite(s.lo)) volume += (s.hi - s.lo) * hypervolume_nd(s.front, reference_f_);
    return volume;
}

double SparseMultiEhvi::log_ehvi(std::span<const MixtureMoments> objectives, double xi,
                                 std::vector<MixtureGradient>* gradient, double* dxi) const {
    assert(objectives.size() == reference_f_.size());
    if (dxi) *dxi = 0.0;
    if (!(xi < reference_xi_)) {
        if (gradient) {
            gradient->resize(objectives.size());
            for (std::size_t d = 0; d < objectives.size(); ++d) {
                (*gradient)[d].dmean.setZero(objectives[d].mean.size());
                (*gradient)[d].dvar.setZero(objectives[d].var.size());
            }
        }
        return kLogZero;
    }
    // Strip widths above xi: only the strip that contains xi is cut.
    thread_local std::vector<double> log_width, dlog_width;
    log_width.assign(strips_.size(), -std::numeric_limits<double>::infinity());
    std::size_t first = strips_.size();
    for (std::size_t j = 0; j < strips_.size(); ++j) {
        if (strips_[j].hi <= xi) continue;
        if (first == strips_.size()) first = j;
        log_width[j] = std::log(strips_[j].hi - std::max(strips_[j].lo, xi));
    }
    const double value = ehvi_.log_value(objectives, log_width, gradient, dxi ? &dlog_width : nullptr);
    // d log w/dξ = −1/(hi − ξ) for the strip that contains ξ (when ξ is inside it, not at its start).
    if (dxi && xi > strips_[first].lo) *dxi = -dlog_width[first] / (strips_[first].hi - xi);
    return value;
}

}  // namespace sebo
