#include "model/nuts.h"

#include "core/portable_random.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <random>

#include "core/format.h"
#include "model/nuts_metric.h"

namespace sebo {

std::optional<std::string> NutsOptions::validate() const {
    if (warmup < 0) return "nuts.warmup: " + std::to_string(warmup) + " is negative";
    if (samples < 1) return "nuts.samples: " + std::to_string(samples) + " is not positive";
    if (thinning < 1) return "nuts.thinning: " + std::to_string(thinning) + " is not positive";
    if (max_tree_depth < 1 || max_tree_depth > kMaxTreeDepth)
        return "nuts.max_tree_depth: " + std::to_string(max_tree_depth) + " is not between 1 and " +
               std::to_string(kMaxTreeDepth);
    if (!(max_energy_error > 0.0 && std::isfinite(max_energy_error)))
        return "nuts.max_energy_error: " + format_number(max_energy_error) + " is not a positive number";
    if (!(initial_step_size > 0.0 && std::isfinite(initial_step_size)))
        return "nuts.initial_step_size: " + format_number(initial_step_size) + " is not a positive number";
    if (auto error = step_size.validate()) return "nuts.step_size." + *error;
    if (auto error = windows.validate()) return "nuts.windows." + *error;
    if (metric != NutsMetric::Diagonal && metric != NutsMetric::Dense)
        return "nuts.metric: " + std::to_string(static_cast<int>(metric)) + " is not a metric kind";
    if (initial_inverse_metric.size() > 0 && !initial_inverse_metric.allFinite())
        return "nuts.initial_inverse_metric: has a value that is not finite";
    if (!(dense_min_draws_per_dimension >= 0.0 && dense_min_draws_per_dimension <= 1e6))
        return "nuts.dense_min_draws_per_dimension: " + format_number(dense_min_draws_per_dimension) +
               " is not between 0 and 1e6";
    return std::nullopt;
}

const char* to_string(NutsPhase phase) {
    switch (phase) {
        case NutsPhase::Warmup: return "warm-up";
        case NutsPhase::Sampling: return "sampling";
    }
    return "?";
}

const char* to_string(NutsResult::Status status) {
    switch (status) {
        case NutsResult::Status::Completed: return "completed";
        case NutsResult::Status::Cancelled: return "cancelled";
        case NutsResult::Status::Failed: return "failed";
    }
    return "?";
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// mt19937_64 with our own uniform and normal transforms (core/portable_random.h), so that
// the draws are the same on every standard library.
using NutsRandom = PortableRandom;

double log_add_exp(double a, double b) {
    if (a == -kInf) return b;
    if (b == -kInf) return a;
    const double high = std::max(a, b);
    return high + std::log1p(std::exp(-std::abs(a - b)));
}

// A point in phase space with the log density and gradient at its position, so that a
// trajectory can continue from it without re-evaluating the log density.
struct PhasePoint {
    Eigen::VectorXd theta;
    Eigen::VectorXd p;
    Eigen::VectorXd grad;
    double log_density = 0.0;

    explicit PhasePoint(int d)
        : theta(Eigen::VectorXd::Zero(d)), p(Eigen::VectorXd::Zero(d)), grad(Eigen::VectorXd::Zero(d)) {}
};

// The generalized no-U-turn criterion for a trajectory whose summed momentum is a + b and whose
// end points have velocities M⁻¹p₋, M⁻¹p₊ (Betancourt 2017, app. A): keep going while both ends
// still move along ρ. Taking ρ as a sum of two parts spares a temporary vector.
bool no_u_turn(const Eigen::VectorXd& p_sharp_minus, const Eigen::VectorXd& p_sharp_plus, const Eigen::VectorXd& a,
               const Eigen::VectorXd& b) {
    return p_sharp_plus.dot(a) + p_sharp_plus.dot(b) > 0.0 && p_sharp_minus.dot(a) + p_sharp_minus.dot(b) > 0.0;
}

struct TransitionStats {
    bool cancelled = false;
    int tree_depth = 0;
    int leapfrog_steps = 0;
    double acceptance = 0.0;
    bool divergent = false;
    double energy = 0.0;
};

// The NUTS transition kernel for a fixed step size and the current metric (owned by the
// caller and updated in place between transitions). All vectors are allocated once here, so a
// transition allocates nothing; the log density is the only expensive call.
class NutsKernel {
public:
    NutsKernel(const LogDensity& log_density, const EuclideanMetric& metric, const NutsOptions& options,
               NutsRandom& rng, std::stop_token stop, long long& gradient_evaluations)
        : log_density_(log_density),
          metric_(metric),
          max_tree_depth_(options.max_tree_depth),
          max_energy_error_(options.max_energy_error),
          rng_(rng),
          stop_(std::move(stop)),
          gradient_evaluations_(gradient_evaluations),
          d_(metric.dimension()),
          z_(d_),
          front_(d_),
          back_(d_),
          sample_(d_),
          proposal_(d_),
          trial_(d_) {
        for (Eigen::VectorXd* v : {&velocity_, &rho_, &rho_fwd_, &rho_bck_, &p_ff_, &p_fb_, &p_bf_, &p_bb_, &p_sharp_ff_,
                                   &p_sharp_fb_, &p_sharp_bf_, &p_sharp_bb_})
            v->setZero(d_);
        // Level k holds the scratch of a subtree of depth k; the top-level call uses depth
        // max_tree_depth − 1 at most.
        levels_.reserve(static_cast<std::size_t>(max_tree_depth_));
        for (int k = 0; k < max_tree_depth_; ++k) levels_.emplace_back(d_);
    }

    // Evaluates the log density at z.theta into z.log_density and z.grad. Returns whether both
    // are finite; a non-finite position is not passed to the log density at all.
    bool evaluate(PhasePoint& z) {
        if (!z.theta.allFinite()) {
            z.log_density = kNaN;
            return false;
        }
        z.log_density = log_density_(z.theta, z.grad);
        ++gradient_evaluations_;
        assert(z.grad.size() == d_ && "the log density must not resize its gradient");
        return std::isfinite(z.log_density) && z.grad.size() == d_ && z.grad.allFinite();
    }

    // Hamiltonian H = −log p(θ) + ½ pᵀM⁻¹p; +∞ for an invalid point. Writes the velocity M⁻¹p
    // into `velocity` (valid points only), which the tree needs too.
    double hamiltonian(const PhasePoint& z, bool valid, Eigen::VectorXd& velocity) const {
        if (!valid) return kInf;
        const double h = -z.log_density + metric_.kinetic_energy(z.p, velocity);
        return std::isnan(h) ? kInf : h;
    }
    double hamiltonian(const PhasePoint& z, bool valid) { return hamiltonian(z, valid, velocity_); }

    // One leapfrog step of size eps (negative: backwards in time). Returns whether the new point
    // is valid (finite log density and gradient).
    bool leapfrog(PhasePoint& z, double eps) {
        z.p += (0.5 * eps) * z.grad;
        metric_.velocity(z.p, velocity_);
        z.theta += eps * velocity_;
        if (!evaluate(z)) return false;
        z.p += (0.5 * eps) * z.grad;
        return true;
    }

    void sample_momentum(PhasePoint& z) {
        for (int i = 0; i < d_; ++i) z.p[i] = rng_.normal();
        metric_.momentum_from_standard_normal(z.p);
    }

    // Stan's heuristic for a first step size (Hoffman & Gelman 2014, Algorithm 4): from `at`,
    // double or halve eps until the acceptance probability of one leapfrog step with a fresh
    // momentum crosses 0.8. Unlike Stan, a step size that runs off to 1e7 or down to 1e-12 is
    // returned rather than thrown: dual averaging or the divergence count will then show it.
    // Returns nullopt when cancelled.
    std::optional<double> initial_step_size(const PhasePoint& at, double eps) {
        constexpr double kMaxStepSize = 1e7;
        constexpr double kMinStepSize = 1e-12;
        const double log_threshold = std::log(0.8);
        auto energy_change = [&](double step) -> std::optional<double> {
            if (stop_.stop_requested()) return std::nullopt;
            trial_ = at;
            sample_momentum(trial_);
            const double h0 = hamiltonian(trial_, true);
            const bool valid = leapfrog(trial_, step);
            return h0 - hamiltonian(trial_, valid);
        };
        std::optional<double> delta = energy_change(eps);
        if (!delta) return std::nullopt;
        const bool grow = *delta > log_threshold;
        while (true) {
            if (grow ? !(*delta > log_threshold) : !(*delta < log_threshold)) break;
            eps = grow ? 2.0 * eps : 0.5 * eps;
            if (eps >= kMaxStepSize) return kMaxStepSize;
            if (eps <= kMinStepSize) return kMinStepSize;
            delta = energy_change(eps);
            if (!delta) return std::nullopt;
        }
        return eps;
    }

    // One NUTS transition from `current` (valid, with its log density and gradient). On return
    // `current` holds the new state (unchanged when cancelled).
    TransitionStats transition(PhasePoint& current, double eps) {
        eps_ = eps;
        divergent_ = false;
        cancelled_ = false;
        n_leapfrog_ = 0;
        sum_metro_prob_ = 0.0;

        sample_momentum(current);
        front_ = current;
        back_ = current;
        sample_ = current;
        const double h0 = hamiltonian(current, true, p_sharp_ff_);
        p_sharp_fb_ = p_sharp_ff_;
        p_sharp_bf_ = p_sharp_ff_;
        p_sharp_bb_ = p_sharp_ff_;
        p_ff_ = current.p;
        p_fb_ = current.p;
        p_bf_ = current.p;
        p_bb_ = current.p;
        rho_ = current.p;
        double log_sum_weight = 0.0;  // log of the initial point's weight exp(H₀ − H₀)

        int depth = 0;
        while (depth < max_tree_depth_) {
            rho_fwd_.setZero();
            rho_bck_.setZero();
            double log_sum_weight_subtree = -kInf;
            bool valid = false;
            if (rng_.uniform() > 0.5) {
                // Extend forwards: the trajectory so far becomes the backward half, whose
                // forward end is the old forward end.
                rho_bck_ = rho_;
                p_bf_ = p_ff_;
                p_sharp_bf_ = p_sharp_ff_;
                z_ = front_;
                valid = build_tree(depth, proposal_, p_sharp_fb_, p_sharp_ff_, rho_fwd_, p_fb_, p_ff_, h0, 1.0,
                                   log_sum_weight_subtree);
                front_ = z_;
            } else {
                rho_fwd_ = rho_;
                p_fb_ = p_bb_;
                p_sharp_fb_ = p_sharp_bb_;
                z_ = back_;
                valid = build_tree(depth, proposal_, p_sharp_bf_, p_sharp_bb_, rho_bck_, p_bf_, p_bb_, h0, -1.0,
                                   log_sum_weight_subtree);
                back_ = z_;
            }
            if (!valid) break;  // divergence, U-turn inside the new subtree, or cancellation
            ++depth;

            // Biased progressive sampling: move to the new subtree with probability
            // min(1, w_new / w_old), which favours states far from the start (Betancourt 2017, app. A).
            if (log_sum_weight_subtree > log_sum_weight ||
                rng_.uniform() < std::exp(log_sum_weight_subtree - log_sum_weight))
                sample_ = proposal_;
            log_sum_weight = log_add_exp(log_sum_weight, log_sum_weight_subtree);

            rho_ = rho_bck_ + rho_fwd_;
            // The merged trajectory, then each half extended by the neighbouring point of the
            // other half (Stan ≥ 2.26).
            bool persist = no_u_turn(p_sharp_bb_, p_sharp_ff_, rho_bck_, rho_fwd_);
            persist = persist && no_u_turn(p_sharp_bb_, p_sharp_fb_, rho_bck_, p_fb_);
            persist = persist && no_u_turn(p_sharp_bf_, p_sharp_ff_, rho_fwd_, p_bf_);
            if (!persist) break;
        }

        TransitionStats stats;
        if (cancelled_) {
            stats.cancelled = true;
            return stats;
        }
        current = sample_;
        stats.tree_depth = depth;
        stats.leapfrog_steps = n_leapfrog_;
        stats.acceptance = n_leapfrog_ > 0 ? sum_metro_prob_ / n_leapfrog_ : 0.0;
        stats.divergent = divergent_;
        stats.energy = hamiltonian(current, true);
        return stats;
    }

private:
    // Scratch for one level of the recursion: the two halves of a subtree of depth k.
    struct Level {
        PhasePoint proposal_final;
        Eigen::VectorXd p_init_end, p_sharp_init_end, rho_init;
        Eigen::VectorXd p_final_beg, p_sharp_final_beg, rho_final;
        explicit Level(int d)
            : proposal_final(d),
              p_init_end(Eigen::VectorXd::Zero(d)),
              p_sharp_init_end(Eigen::VectorXd::Zero(d)),
              rho_init(Eigen::VectorXd::Zero(d)),
              p_final_beg(Eigen::VectorXd::Zero(d)),
              p_sharp_final_beg(Eigen::VectorXd::Zero(d)),
              rho_final(Eigen::VectorXd::Zero(d)) {}
    };

    // Builds a subtree of 2^depth leapfrog steps from z_ in direction `sign`. On success, returns
    // true with: `proposal` a multinomial draw from the subtree, the momenta and velocities
    // (p_sharp = M⁻¹p) at its first and last points, its summed momentum added to `rho`, and the
    // log of its summed weights exp(H₀ − H) added to `log_sum_weight`. Returns false when the
    // subtree diverged, made a U-turn, or the run was cancelled; the caller then discards it.
    bool build_tree(int depth, PhasePoint& proposal, Eigen::VectorXd& p_sharp_beg, Eigen::VectorXd& p_sharp_end,
                    Eigen::VectorXd& rho, Eigen::VectorXd& p_beg, Eigen::VectorXd& p_end, double h0, double sign,
                    double& log_sum_weight) {
        if (depth == 0) {
            // Polled before every gradient evaluation so that a long trajectory over an
            // expensive density can be abandoned (DESIGN.md: cancel within about a second).
            if (stop_.stop_requested()) {
                cancelled_ = true;
                return false;
            }
            const bool valid = leapfrog(z_, sign * eps_);
            ++n_leapfrog_;
            const double h = hamiltonian(z_, valid, p_sharp_beg);
            if (!valid || h - h0 > max_energy_error_) divergent_ = true;
            log_sum_weight = log_add_exp(log_sum_weight, h0 - h);
            sum_metro_prob_ += h0 - h > 0.0 ? 1.0 : std::exp(h0 - h);
            if (divergent_) return false;
            proposal = z_;
            p_sharp_end = p_sharp_beg;
            rho += z_.p;
            p_beg = z_.p;
            p_end = z_.p;
            return true;
        }

        Level& level = levels_[static_cast<std::size_t>(depth)];
        double log_sum_weight_init = -kInf;
        level.rho_init.setZero();
        if (!build_tree(depth - 1, proposal, p_sharp_beg, level.p_sharp_init_end, level.rho_init, p_beg,
                        level.p_init_end, h0, sign, log_sum_weight_init))
            return false;

        double log_sum_weight_final = -kInf;
        level.rho_final.setZero();
        if (!build_tree(depth - 1, level.proposal_final, level.p_sharp_final_beg, p_sharp_end, level.rho_final,
                        level.p_final_beg, p_end, h0, sign, log_sum_weight_final))
            return false;

        // Within a subtree the draw is plain multinomial: the second half wins with
        // probability w_final / (w_init + w_final).
        const double log_sum_weight_subtree = log_add_exp(log_sum_weight_init, log_sum_weight_final);
        log_sum_weight = log_add_exp(log_sum_weight, log_sum_weight_subtree);
        if (rng_.uniform() < std::exp(log_sum_weight_final - log_sum_weight_subtree)) proposal = level.proposal_final;

        bool persist = no_u_turn(p_sharp_beg, p_sharp_end, level.rho_init, level.rho_final);
        persist = persist && no_u_turn(p_sharp_beg, level.p_sharp_final_beg, level.rho_init, level.p_final_beg);
        persist = persist && no_u_turn(level.p_sharp_init_end, p_sharp_end, level.rho_final, level.p_init_end);
        rho += level.rho_init;
        rho += level.rho_final;
        return persist;
    }

    const LogDensity& log_density_;
    const EuclideanMetric& metric_;
    const int max_tree_depth_;
    const double max_energy_error_;
    NutsRandom& rng_;
    std::stop_token stop_;
    long long& gradient_evaluations_;
    const int d_;

    // Per-transition state.
    double eps_ = 0.0;
    bool divergent_ = false;
    bool cancelled_ = false;
    int n_leapfrog_ = 0;
    double sum_metro_prob_ = 0.0;
    PhasePoint z_;                  // the integrator's moving point
    PhasePoint front_, back_;       // the trajectory's two ends
    PhasePoint sample_, proposal_;  // current draw, and the new subtree's draw
    PhasePoint trial_;              // step-size heuristic
    Eigen::VectorXd velocity_;      // scratch for M⁻¹p
    // Momenta p and velocities p_sharp at the ends of the backward (b) and forward (f) halves:
    // p_fb_ is the backward end of the forward half, and so on.
    Eigen::VectorXd rho_, rho_fwd_, rho_bck_;
    Eigen::VectorXd p_ff_, p_fb_, p_bf_, p_bb_;
    Eigen::VectorXd p_sharp_ff_, p_sharp_fb_, p_sharp_bf_, p_sharp_bb_;
    std::vector<Level> levels_;
};

double mean_or_nan(double sum, int count) { return count > 0 ? sum / count : kNaN; }

// How the end of a slow window changed the metric.
enum class WindowUpdate {
    Estimate,          // the window's estimate is the new metric
    CholeskyFallback,  // dense: the covariance did not factor, its diagonal is the new metric
    Kept,              // the estimate was not finite; the metric is unchanged
    Pooled             // dense: too few draws, pooled with the next window; the diagonal meanwhile
};

// Collects the draws of the slow warm-up windows and turns them into the metric for the next
// phase, with the estimator and scratch that match the metric's kind (a dense estimator for a
// diagonal metric would waste d² memory and time).
class MetricAdaptation {
public:
    MetricAdaptation(NutsMetric kind, int dimension, double dense_min_draws_per_dimension) {
        if (kind == NutsMetric::Dense) {
            dense_.emplace(dimension);
            covariance_.setZero(dimension, dimension);
            diagonal_of_covariance_.setZero(dimension, dimension);
            // Never fewer than 2 draws: a covariance needs them.
            min_dense_draws_ = std::max(2.0, std::ceil(dense_min_draws_per_dimension * dimension));
        } else {
            diagonal_.emplace(dimension);
            variance_.setZero(dimension);
        }
    }

    void add(const Eigen::VectorXd& theta) {
        if (dense_) dense_->add(theta);
        else diagonal_->add(theta);
    }

    int count() const { return dense_ ? dense_->count() : diagonal_->count(); }

    // Installs the regularized estimate in `metric` at the end of a window and, unless the draws
    // are pooled into the next window, forgets them.
    WindowUpdate update(EuclideanMetric& metric) {
        if (diagonal_) {
            diagonal_->regularized_variance(variance_);
            diagonal_->restart();
            metric.set_diagonal(variance_);
            return WindowUpdate::Estimate;
        }
        dense_->regularized_covariance(covariance_);
        if (dense_->count() < min_dense_draws_) {
            diagonal_of_covariance_.diagonal() = covariance_.diagonal();
            return metric.set_dense(diagonal_of_covariance_) ? WindowUpdate::Pooled : WindowUpdate::Kept;
        }
        dense_->restart();
        switch (metric.set_from_covariance(covariance_)) {
            case EuclideanMetric::CovarianceUpdate::Full: return WindowUpdate::Estimate;
            case EuclideanMetric::CovarianceUpdate::Diagonal: return WindowUpdate::CholeskyFallback;
            case EuclideanMetric::CovarianceUpdate::Kept: return WindowUpdate::Kept;
        }
        return WindowUpdate::Kept;
    }

private:
    double min_dense_draws_ = 0.0;
    std::optional<DiagonalMetricEstimator> diagonal_;
    std::optional<DenseMetricEstimator> dense_;
    Eigen::VectorXd variance_;
    Eigen::MatrixXd covariance_;
    Eigen::MatrixXd diagonal_of_covariance_;  // off-diagonal stays zero
};

// "window 2" / "windows 1, 3" for the result message.
std::string window_list(const std::vector<int>& windows) {
    std::string text = windows.size() == 1 ? "window " : "windows ";
    for (std::size_t i = 0; i < windows.size(); ++i) text += (i > 0 ? ", " : "") + std::to_string(windows[i]);
    return text;
}

}  // namespace

NutsResult run_nuts(const LogDensity& log_density, const Eigen::VectorXd& initial, const NutsOptions& options,
                    std::uint64_t seed, const NutsProgressCallback& progress, std::stop_token stop) {
    assert(!options.validate());
    assert(initial.size() >= 1 && initial.allFinite());
    const int d = static_cast<int>(initial.size());
    const int total = options.warmup + options.samples;
    const int kept = (options.samples + options.thinning - 1) / options.thinning;

    NutsResult result;
    result.iterations.reserve(static_cast<std::size_t>(total));
    EuclideanMetric metric(options.metric, d);
    // For the message: 1-based numbers of the slow windows whose dense estimate did not factor or
    // whose estimate was not finite, and the draws behind a final metric left diagonal by pooling.
    std::vector<int> diagonal_fallbacks, kept_metrics;
    int final_window_pooled_draws = 0;
    Eigen::MatrixXd draws(kept, d);
    Eigen::MatrixXd trace(options.keep_trace ? total : 0, d);
    Eigen::VectorXd draw_log_density(kept);
    int n_kept = 0;

    auto finish = [&](NutsResult::Status status, std::string message) {
        result.status = status;
        result.message = std::move(message);
        if (!diagonal_fallbacks.empty())
            result.message += "; the dense metric estimate of warm-up " + window_list(diagonal_fallbacks) +
                              " was not positive definite, so its diagonal was used";
        if (!kept_metrics.empty())
            result.message += "; the metric estimate of warm-up " + window_list(kept_metrics) +
                              " was not finite, so the previous metric was kept";
        if (final_window_pooled_draws > 0)
            result.message += "; the dense metric's last estimate rests on only " + std::to_string(final_window_pooled_draws) +
                              " warm-up draws (below nuts.dense_min_draws_per_dimension), so its diagonal was used";
        result.inverse_metric = metric.inverse_diagonal();
        if (metric.kind() == NutsMetric::Dense) result.inverse_metric_dense = metric.inverse_dense();
        result.draws = draws.topRows(n_kept);
        if (options.keep_trace) result.trace = trace.topRows(static_cast<Eigen::Index>(result.iterations.size()));
        result.log_density = draw_log_density.head(n_kept);
        int n_sampling = 0;
        double depth_sum = 0.0, acceptance_sum = 0.0, energy_sum = 0.0;
        for (const NutsIteration& it : result.iterations) {
            if (it.phase != NutsPhase::Sampling) continue;
            ++n_sampling;
            depth_sum += it.tree_depth;
            acceptance_sum += it.acceptance;
            energy_sum += it.energy;
        }
        result.mean_tree_depth = mean_or_nan(depth_sum, n_sampling);
        result.mean_acceptance = mean_or_nan(acceptance_sum, n_sampling);
        result.energy_bfmi = kNaN;
        if (n_sampling >= 2) {
            const double energy_mean = energy_sum / n_sampling;
            double numerator = 0.0, denominator = 0.0, previous = kNaN;
            for (const NutsIteration& it : result.iterations) {
                if (it.phase != NutsPhase::Sampling) continue;
                if (!std::isnan(previous)) numerator += (it.energy - previous) * (it.energy - previous);
                denominator += (it.energy - energy_mean) * (it.energy - energy_mean);
                previous = it.energy;
            }
            result.energy_bfmi = denominator > 0.0 ? numerator / denominator : kNaN;
        }
        return std::move(result);
    };

    if (const Eigen::MatrixXd& given = options.initial_inverse_metric; given.size() > 0) {
        const std::string shape = std::to_string(given.rows()) + " x " + std::to_string(given.cols());
        if (options.metric == NutsMetric::Dense) {
            if (given.rows() != d || given.cols() != d)
                return finish(NutsResult::Status::Failed, "the initial inverse metric is " + shape + ", the density has " +
                                                              std::to_string(d) + " dimensions");
            if (!metric.set_dense(given))
                return finish(NutsResult::Status::Failed, "the initial inverse metric is not positive definite");
        } else {
            if (given.size() != d || (given.rows() != d && given.cols() != d))
                return finish(NutsResult::Status::Failed, "the initial inverse metric is " + shape + ", the density has " +
                                                              std::to_string(d) + " dimensions");
            const Eigen::VectorXd diagonal = Eigen::Map<const Eigen::VectorXd>(given.data(), d);
            if (!(diagonal.array() > 0.0).all())
                return finish(NutsResult::Status::Failed, "the initial inverse metric has an entry that is not positive");
            metric.set_diagonal(diagonal);
        }
    }

    NutsRandom rng(seed);
    NutsKernel kernel(log_density, metric, options, rng, stop, result.gradient_evaluations);

    PhasePoint current(d);
    current.theta = initial;
    if (stop.stop_requested()) return finish(NutsResult::Status::Cancelled, "cancelled before the first iteration");
    if (!kernel.evaluate(current))
        return finish(NutsResult::Status::Failed, "the log density or its gradient is not finite at the initial point "
                                                  "(log density " + format_number(current.log_density) + ")");

    std::optional<double> eps = options.initial_step_size;
    if (options.tune_initial_step_size) {
        eps = kernel.initial_step_size(current, options.initial_step_size);
        if (!eps) return finish(NutsResult::Status::Cancelled, "cancelled while choosing the initial step size");
    }
    result.step_size = *eps;
    DualAveraging adaptation(options.step_size, *eps);
    const std::vector<AdaptationWindow> windows =
        options.adapt_metric ? metric_adaptation_windows(options.warmup, options.windows) : std::vector<AdaptationWindow>{};
    std::size_t window = 0;
    MetricAdaptation estimator(options.metric, d, options.dense_min_draws_per_dimension);
    diagonal_fallbacks.reserve(windows.size());
    kept_metrics.reserve(windows.size());
    int divergences = 0;

    for (int iteration = 0; iteration < total; ++iteration) {
        const bool warmup = iteration < options.warmup;
        const double step_size = *eps;
        const TransitionStats stats = kernel.transition(current, step_size);
        if (stats.cancelled) {
            return finish(NutsResult::Status::Cancelled, std::string("cancelled during ") +
                                                             (warmup ? "warm-up" : "sampling") + " iteration " +
                                                             std::to_string(iteration + 1) + " of " + std::to_string(total));
        }

        NutsIteration record;
        record.phase = warmup ? NutsPhase::Warmup : NutsPhase::Sampling;
        record.step_size = step_size;
        record.tree_depth = stats.tree_depth;
        record.leapfrog_steps = stats.leapfrog_steps;
        record.acceptance = stats.acceptance;
        record.divergent = stats.divergent;
        record.energy = stats.energy;
        record.log_density = current.log_density;
        result.iterations.push_back(record);
        if (options.keep_trace) trace.row(iteration) = current.theta.transpose();
        if (stats.divergent) {
            ++divergences;
            ++(warmup ? result.divergences_warmup : result.divergences_sampling);
        }

        if (warmup) {
            eps = adaptation.update(stats.acceptance);
            if (window < windows.size() && iteration >= windows[window].begin) {
                estimator.add(current.theta);
                if (iteration == windows[window].end - 1) {
                    // New metric: the old step size no longer fits it, so find a new starting
                    // point and restart dual averaging from it (as Stan does).
                    ++window;
                    const int draws_used = estimator.count();
                    final_window_pooled_draws = 0;
                    switch (estimator.update(metric)) {
                        case WindowUpdate::Estimate: break;
                        case WindowUpdate::CholeskyFallback:
                            diagonal_fallbacks.push_back(static_cast<int>(window));
                            break;
                        case WindowUpdate::Kept: kept_metrics.push_back(static_cast<int>(window)); break;
                        case WindowUpdate::Pooled:
                            if (window == windows.size()) final_window_pooled_draws = draws_used;
                            break;
                    }
                    eps = kernel.initial_step_size(current, *eps);
                    if (!eps) {
                        return finish(NutsResult::Status::Cancelled,
                                      "cancelled while re-initialising the step size after warm-up iteration " +
                                          std::to_string(iteration + 1));
                    }
                    adaptation.restart(*eps);
                }
            }
            if (iteration == options.warmup - 1) eps = adaptation.final_step_size();
        } else {
            const int s = iteration - options.warmup;
            if (s % options.thinning == 0) {
                draws.row(n_kept) = current.theta.transpose();
                draw_log_density[n_kept] = current.log_density;
                ++n_kept;
            }
        }
        result.step_size = *eps;

        if (progress) {
            NutsProgress report;
            report.iteration = iteration + 1;
            report.total = total;
            report.phase = record.phase;
            report.divergences = divergences;
            report.step_size = step_size;
            progress(report);
        }
    }
    result.step_size = *eps;
    return finish(NutsResult::Status::Completed, "completed " + std::to_string(total) + " iterations (" +
                                                     std::to_string(result.divergences_warmup) + " divergent in warm-up, " +
                                                     std::to_string(result.divergences_sampling) + " in sampling)");
}

}  // namespace sebo
