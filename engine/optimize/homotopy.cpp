#include "optimize/homotopy.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>

#include "core/format.h"
#include "core/thread_pool.h"

namespace sebo {

std::optional<std::string> HomotopyOptions::validate() const {
    if (fixed_a) {
        if (!(*fixed_a > 0) || !std::isfinite(*fixed_a)) return "homotopy.fixed_a: " + format_number(*fixed_a) + " must be positive";
        return std::nullopt;
    }
    if (!(a_start > 0) || !std::isfinite(a_start)) return "homotopy.a_start: " + format_number(a_start) + " must be positive";
    if (!(a_end > 0) || !std::isfinite(a_end)) return "homotopy.a_end: " + format_number(a_end) + " must be positive";
    if (!(a_end <= a_start)) return "homotopy.a_end: " + format_number(a_end) + " must not exceed a_start " + format_number(a_start);
    if (steps < 1 || steps > 1000) return "homotopy.steps: " + std::to_string(steps) + " is outside [1, 1000]";
    return std::nullopt;
}

std::vector<double> HomotopyOptions::schedule() const {
    if (fixed_a) return {*fixed_a};
    if (steps == 1) return {a_end};
    std::vector<double> a(static_cast<std::size_t>(steps));
    const double lo = std::log10(a_end), hi = std::log10(a_start);
    for (int k = 0; k < steps; ++k) a[static_cast<std::size_t>(k)] = std::pow(10.0, hi + (lo - hi) * k / (steps - 1));
    return a;
}

std::optional<std::string> AcquisitionOptimizerOptions::validate() const {
    if (raw_samples < 1) return "raw_samples: " + std::to_string(raw_samples) + " must be at least 1";
    if (restarts < 1) return "restarts: " + std::to_string(restarts) + " must be at least 1";
    if (!(duplicate_tolerance >= 0)) return "duplicate_tolerance must not be negative";
    if (auto e = homotopy.validate()) return e;
    if (auto e = lbfgsb.validate()) return "lbfgsb." + *e;
    if (auto e = slsqp.validate()) return "slsqp." + *e;
    return std::nullopt;
}

namespace {

// Drops points within `tolerance` (max-norm) of an earlier one.
std::vector<Eigen::VectorXd> prune_duplicates(std::vector<Eigen::VectorXd> points, double tolerance) {
    std::vector<Eigen::VectorXd> kept;
    for (auto& p : points) {
        const bool duplicate = std::any_of(kept.begin(), kept.end(), [&](const Eigen::VectorXd& q) {
            return (p - q).lpNorm<Eigen::Infinity>() <= tolerance;
        });
        if (!duplicate) kept.push_back(std::move(p));
    }
    return kept;
}

// The acquisition at every raw sample, in blocks of kScreenBlock rows that run side by side on
// the pool. The blocks do not depend on the threads, so neither do the values.
Eigen::VectorXd screen(const AcquisitionFunction& acquisition, const Eigen::MatrixXd& raw, double a,
                       const StepControl& control) {
    constexpr Eigen::Index kScreenBlock = 128;
    const Eigen::Index n = raw.rows();
    const int blocks = static_cast<int>((n + kScreenBlock - 1) / kScreenBlock);
    Eigen::VectorXd values(n);
    const auto block = [&](int b) {
        const Eigen::Index first = b * kScreenBlock, rows = std::min(kScreenBlock, n - first);
        values.segment(first, rows) = acquisition.batch_values(raw.middleRows(first, rows), a);
    };
    if (control.pool) {
        control.pool->parallel_for(blocks, block);
    } else {
        for (int b = 0; b < blocks; ++b) block(b);
    }
    return values;
}

// One stage's local optima: L-BFGS-B in the unit box (its starts side by side on the pool), or
// SLSQP inside the constraints' polytope.
// Adds the acquisition evaluations they took to `evaluations`, and how they ended to `endings`.
std::vector<Eigen::VectorXd> local_optima(const SmoothObjective& objective, const std::vector<Eigen::VectorXd>& starts,
                                          const CandidateTransforms& transforms, const AcquisitionOptimizerOptions& options,
                                          std::stop_token stop, ThreadPool* pool, int& evaluations, LocalEndings& endings) {
    std::vector<Eigen::VectorXd> optima;
    if (transforms.feasible_set) {
        for (auto& o : maximize_in_polytope(objective, starts, *transforms.feasible_set, options.slsqp, stop)) {
            evaluations += o.evaluations;
            if (o.ending == PolytopeOptimum::Ending::Converged) {
                ++endings.converged;
            } else if (o.ending == PolytopeOptimum::Ending::EvaluationLimit) {
                ++endings.limit;
            } else {
                ++endings.failed;
            }
            optima.push_back(std::move(o.x));
        }
    } else {
        for (auto& o : maximize_in_unit_box(objective, starts, options.lbfgsb, stop, pool)) {
            evaluations += o.evaluations;
            endings.restarted += o.restarts > 0;
            if (o.line_search_failed) {
                ++endings.failed;
            } else if (o.iteration_limit) {
                ++endings.limit;
            } else {
                ++endings.converged;
            }
            optima.push_back(std::move(o.x));
        }
    }
    return optima;
}

// A finalized candidate, its exact acquisition value and whether it repeats a known configuration.
struct Scored {
    Eigen::VectorXd x;
    double value = 0.0;
    bool known = false;
};

// The preference of the final choice: a new configuration over a known one, then the higher value.
bool preferred(const Scored& a, const Scored& b) {
    if (a.known != b.known) return !a.known;
    return a.value > b.value;
}

Scored score(const AcquisitionFunction& acquisition, const CandidateTransforms& transforms, const Eigen::VectorXd& x) {
    Scored s;
    s.x = transforms.finalize(x);
    s.value = acquisition.exact_value(s.x);
    s.known = transforms.is_known && transforms.is_known(s.x);
    return s;
}

// The local search over choice values (see the header) from `start`.
Scored search_choices(const AcquisitionFunction& acquisition, Scored start, const CandidateTransforms& transforms,
                      const AcquisitionOptimizerOptions& options, double a, const StepControl& control, OptimizedCandidate& counts) {
    const SmoothObjective objective = [&](const Eigen::VectorXd& x, Eigen::VectorXd* grad) { return acquisition.value(x, a, grad); };
    Scored current = std::move(start);
    for (int round = 0; round < kChoiceSearchRounds; ++round) {
        Scored best = current;
        for (std::size_t c = 0; c < transforms.choice_levels.size(); ++c) {
            const int levels = transforms.choice_levels[c];
            if (levels < 2) continue;
            const auto column = static_cast<Eigen::Index>(c);
            const int now = std::min(static_cast<int>(current.x[column] * levels), levels - 1);
            for (int k = 0; k < levels; ++k) {
                if (k == now || control.cancelled()) continue;
                Eigen::VectorXd y = current.x;
                y[column] = (k + 0.5) / levels;
                // The value as it is, and with the continuous parameters re-optimized around it.
                std::vector<Scored> tried{score(acquisition, transforms, y)};
                for (const auto& x : local_optima(objective, {y}, transforms, options, control.stop, nullptr, counts.evaluations,
                                                   counts.endings))
                    tried.push_back(score(acquisition, transforms, transforms.snap(x)));
                ++counts.local_optimizations;
                for (Scored& s : tried)
                    if (std::isfinite(s.value) && preferred(s, best)) best = std::move(s);
            }
        }
        if (!preferred(best, current)) break;
        current = std::move(best);
    }
    return current;
}

}  // namespace

OptimizedCandidate optimize_acquisition(const AcquisitionFunction& acquisition, const std::vector<Eigen::VectorXd>& raw,
                                        const CandidateTransforms& transforms, const AcquisitionOptimizerOptions& options,
                                        const StepControl& control) {
    assert(!raw.empty());
    assert(!options.validate());
    OptimizedCandidate result;
    const std::vector<double> schedule =
        acquisition.uses_l0_surrogate() ? options.homotopy.schedule() : std::vector<double>{1.0};

    // Screen the raw samples at the first stage and keep the best distinct ones as starts.
    Eigen::MatrixXd raw_matrix(static_cast<Eigen::Index>(raw.size()), raw.front().size());
    for (std::size_t i = 0; i < raw.size(); ++i) raw_matrix.row(static_cast<Eigen::Index>(i)) = raw[i].transpose();
    const Eigen::VectorXd raw_values = screen(acquisition, raw_matrix, schedule.front(), control);
    std::vector<int> order(raw.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const double va = raw_values[a], vb = raw_values[b];
        return std::isnan(vb) ? !std::isnan(va) : va > vb;
    });
    std::vector<Eigen::VectorXd> starts;
    for (int i : order) {
        if (static_cast<int>(starts.size()) >= options.restarts) break;
        starts.push_back(raw[static_cast<std::size_t>(i)]);
    }
    starts = prune_duplicates(std::move(starts), options.duplicate_tolerance);

    // Every candidate met on the way, with the stage that produced it.
    std::vector<std::pair<Eigen::VectorXd, int>> pool;
    for (const auto& s : starts) pool.emplace_back(s, -1);

    for (std::size_t stage = 0; stage < schedule.size(); ++stage) {
        if (control.cancelled()) {
            result.status = OptimizedCandidate::Status::Cancelled;
            return result;
        }
        control.report({"optimizing acquisition", static_cast<int>(stage) + 1, static_cast<int>(schedule.size()),
                        "a = " + format_short(schedule[stage], 3)});
        const double a = schedule[stage];
        const SmoothObjective objective = [&](const Eigen::VectorXd& x, Eigen::VectorXd* grad) {
            return acquisition.value(x, a, grad);
        };
        int evaluations = 0;
        const std::vector<Eigen::VectorXd> optima =
            local_optima(objective, starts, transforms, options, control.stop, control.pool, evaluations, result.endings);
        result.local_optimizations += static_cast<int>(optima.size());
        result.evaluations += evaluations;
        result.stage_paths.push_back(static_cast<int>(starts.size()));
        result.stage_evaluations.push_back(evaluations);
        if (control.cancelled()) {
            result.status = OptimizedCandidate::Status::Cancelled;
            return result;
        }
        std::vector<Eigen::VectorXd> next;
        next.reserve(optima.size());
        for (const auto& x : optima) next.push_back(transforms.snap(x));
        starts = prune_duplicates(std::move(next), options.duplicate_tolerance);
        for (const auto& s : starts) pool.emplace_back(s, static_cast<int>(stage));
        result.stages = static_cast<int>(stage) + 1;
    }

    // The final choice uses the exact penalty on snapped, rounded candidates, preferring
    // configurations that have not been tried yet.
    bool best_known = true;
    for (const auto& [x, stage] : pool) {
        const Eigen::VectorXd candidate = transforms.finalize(x);
        const bool known = transforms.is_known && transforms.is_known(candidate);
        const double v = acquisition.exact_value(candidate);
        const bool better = result.x.size() == 0 || (best_known && !known) || (known == best_known && v > result.value);
        if (better) {
            best_known = known;
            result.x = candidate;
            result.value = v;
            result.best_stage = stage;
        }
    }
    // Every optimum repeats a known configuration (a flat acquisition — a constant objective, say —
    // sends all restarts to the same point): take the best screened raw sample that is new
    // instead, so that a batch never proposes the same configuration twice while others are left.
    if (best_known && transforms.is_known) {
        for (int i : order) {
            const Eigen::VectorXd candidate = transforms.finalize(raw[static_cast<std::size_t>(i)]);
            if (transforms.is_known(candidate)) continue;
            best_known = false;
            result.x = candidate;
            result.value = acquisition.exact_value(candidate);
            result.best_stage = -1;
            break;
        }
    }
    // Choice parameters: the exact local search over their values from the best candidates.
    if (std::any_of(transforms.choice_levels.begin(), transforms.choice_levels.end(), [](int k) { return k >= 2; })) {
        std::vector<Scored> finalists;
        for (const auto& [x, stage] : pool) {
            Scored s = score(acquisition, transforms, x);
            if (!std::isfinite(s.value)) continue;
            const bool repeat = std::any_of(finalists.begin(), finalists.end(), [&](const Scored& f) { return f.x == s.x; });
            if (!repeat) finalists.push_back(std::move(s));
        }
        std::stable_sort(finalists.begin(), finalists.end(), preferred);
        if (finalists.size() > static_cast<std::size_t>(kChoiceSearchStarts)) finalists.resize(kChoiceSearchStarts);
        Scored best{result.x, result.value, best_known && transforms.is_known};
        for (Scored& f : finalists) {
            if (control.cancelled()) break;
            Scored found = search_choices(acquisition, std::move(f), transforms, options, schedule.back(), control, result);
            if (preferred(found, best)) {
                best = std::move(found);
                result.best_stage = static_cast<int>(schedule.size()) - 1;
            }
        }
        result.x = best.x;
        result.value = best.value;
        best_known = best.known;
        if (control.cancelled()) {
            result.status = OptimizedCandidate::Status::Cancelled;
            return result;
        }
    }
    result.repeats_known = best_known && transforms.is_known;
    return result;
}

}  // namespace sebo
