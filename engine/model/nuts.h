#pragma once
// The No-U-Turn sampler (NUTS) over any differentiable log density — used to draw the SAAS GP
// hyperparameters (SEBO paper §6 "Experiments": "we use the same hyperparameters as suggested by
// Eriksson & Jankowiak (2021) and use the No-U-Turn (NUTS) sampler"; their defaults are 512
// warm-up steps, 256 samples and thinning 16, the defaults below).
//
// The algorithm is Stan's variant of NUTS (Hoffman & Gelman 2014, "The No-U-Turn Sampler";
// Betancourt 2017, "A Conceptual Introduction to Hamiltonian Monte Carlo", appendix A):
//  - the trajectory is built by repeated doubling, forwards or backwards at random, up to a
//    maximum tree depth (at most 2^depth − 1 leapfrog steps, i.e. gradient evaluations);
//  - the next state is drawn from the whole trajectory by multinomial sampling with weights
//    exp(−H): uniformly within a subtree, and biased towards the newest subtree when it is
//    merged into the trajectory ("biased progressive sampling", Betancourt 2017, app. A);
//  - doubling stops at the generalized no-U-turn criterion ρ·M⁻¹p± > 0 at both ends of every
//    subtree (Betancourt 2017, app. A), with the extra checks across the boundary between two
//    merged subtrees that Stan added in 2.26 (each half plus the neighbouring point of the other
//    half), which catch U-turns that fall between two sub-trajectories;
//  - leapfrog integration with a diagonal or dense inverse metric M⁻¹ (model/nuts_metric.h);
//  - a transition whose energy error H − H₀ exceeds max_energy_error (or is not finite,
//    including a log density that is −∞ or NaN) is a divergence: the subtree is discarded and
//    the iteration is flagged.
// Warm-up: Stan's initial step-size heuristic, dual-averaging step-size adaptation
// (model/nuts_step_size.h) and windowed metric adaptation (model/nuts_warmup_windows.h,
// model/nuts_metric.h), the step size re-initialised after every metric update.
//
// Random numbers: std::mt19937_64 seeded with `seed` (its output sequence is fixed by the C++
// standard); uniforms are its top 53 bits · 2⁻⁵³ and normals come from the Marsaglia polar
// method, both written here so that the stream does not depend on the standard library's
// distribution implementations. The same seed, log density and options therefore give the same
// draws bit for bit (on the same platform and build).

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "model/nuts_metric.h"
#include "model/nuts_step_size.h"
#include "model/nuts_warmup_windows.h"

namespace sebo {

// log p(θ) up to an additive constant; writes ∇log p(θ) into `gradient` (already sized like θ).
// May return −∞ or NaN where the density is zero or undefined; such points end the trajectory
// as a divergence. Exceptions propagate to the caller of run_nuts.
using LogDensity = std::function<double(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient)>;

struct NutsOptions {
    int warmup = 512;   // warm-up (adaptation) iterations, discarded
    int samples = 256;  // sampling iterations after warm-up
    int thinning = 16;  // keep sampling iterations 0, thinning, 2·thinning, … → ⌈samples/thinning⌉ draws
    int max_tree_depth = 6;             // at most 2^depth − 1 gradient evaluations per iteration
    double max_energy_error = 1000.0;   // H − H₀ above this is a divergence (Stan's default)
    double initial_step_size = 1.0;     // starting point of the step-size heuristic
    // Run Stan's heuristic from initial_step_size before the first iteration. Off: start from
    // initial_step_size as given — with warmup = 0 it is then the fixed sampling step size (e.g.
    // when resuming from a previous run's adapted step size and metric).
    bool tune_initial_step_size = true;
    bool adapt_metric = true;           // false: keep the unit inverse metric, tune the step size only
    // Diagonal: per-coordinate variances. Dense: the full covariance, for correlated posteriors
    // (costs a d × d matrix-vector product per leapfrog step and needs more warm-up draws than
    // dimensions in the late windows to estimate well).
    NutsMetric metric = NutsMetric::Diagonal;
    // Dense metric only. A covariance estimated from n draws in d dimensions is singular for
    // n ≤ d and, for n of a few d, its smallest eigenvalues are far too small even after Stan's
    // regularization (Marchenko–Pastur: by about (1 − √(d/n))²). The chain then barely moves along
    // those directions, so the next window's draws, and its estimate, are no better. With a
    // positive value, a slow window that ends with fewer than dense_min_draws_per_dimension · d
    // draws gives no covariance: its draws are pooled with the next window's, and meanwhile the
    // metric is the diagonal of the pooled estimate. 0 is Stan's rule (each window's own draws).
    double dense_min_draws_per_dimension = 0.0;
    // The inverse metric to start from, of the kind `metric`: a d-vector diag(M⁻¹) (or d × 1) for
    // the diagonal kind, the symmetric positive-definite d × d M⁻¹ for the dense kind; empty: the
    // identity. With adapt_metric false it is the metric of the whole run — how a fit is warm-
    // started from an earlier fit's adaptation (with initial_step_size its step size). A matrix
    // that does not fit the density (wrong size, not positive definite) fails the run.
    Eigen::MatrixXd initial_inverse_metric;
    // Record the position of every iteration, warm-up included, in NutsResult::trace (for
    // convergence diagnostics over all iterations, and for estimating a metric across chains).
    bool keep_trace = false;
    DualAveragingOptions step_size;     // used during warm-up
    WarmupWindowOptions windows;        // used during warm-up when adapt_metric

    static constexpr int kMaxTreeDepth = 16;

    // Empty when valid; otherwise a message naming the field ("nuts.thinning: 0 is not positive").
    std::optional<std::string> validate() const;
};

enum class NutsPhase { Warmup, Sampling };
const char* to_string(NutsPhase phase);

// Reported after every iteration (warm-up and sampling).
struct NutsProgress {
    int iteration = 0;  // iterations completed, 1 … total
    int total = 0;      // warmup + samples
    NutsPhase phase = NutsPhase::Warmup;
    int divergences = 0;  // so far, both phases
    double step_size = 0.0;
};
using NutsProgressCallback = std::function<void(const NutsProgress&)>;

// One iteration's transition, as Stan reports it.
struct NutsIteration {
    NutsPhase phase = NutsPhase::Warmup;
    double step_size = 0.0;   // step size used by this iteration
    int tree_depth = 0;       // number of completed doublings
    int leapfrog_steps = 0;   // gradient evaluations of this iteration
    double acceptance = 0.0;  // mean Metropolis acceptance probability over the trajectory
    bool divergent = false;
    double energy = 0.0;       // Hamiltonian at the selected state
    double log_density = 0.0;  // log p at the selected state
};

struct NutsResult {
    enum class Status {
        Completed,  // every iteration ran
        Cancelled,  // the stop token fired; the fields below describe the iterations done so far
        Failed      // the log density or its gradient is not finite at the initial point
    };
    Status status = Status::Completed;
    std::string message;

    Eigen::MatrixXd draws;        // kept draws, one per row (⌈samples/thinning⌉ when completed)
    Eigen::VectorXd log_density;  // log p of each kept draw
    // With NutsOptions::keep_trace: the position after every completed iteration, one per row
    // (warm-up first, as `iterations`); otherwise empty.
    Eigen::MatrixXd trace;

    double step_size = 0.0;          // adapted step size used for sampling
    // Adapted inverse metric used for sampling: its diagonal (both kinds), and for the dense kind
    // the whole matrix (empty for the diagonal kind).
    Eigen::VectorXd inverse_metric;
    Eigen::MatrixXd inverse_metric_dense;
    // Over the sampling iterations done (NaN when there are none).
    double mean_tree_depth = 0.0;
    double mean_acceptance = 0.0;
    // Energy Bayesian fraction of missing information (Betancourt 2016, "Diagnosing suboptimal
    // cotangent disintegrations in Hamiltonian Monte Carlo"; Betancourt 2017, §6) over the sampling
    // iterations; values below ~0.3 indicate heavy tails the momentum resampling cannot explore.
    // NaN with fewer than two sampling iterations.
    double energy_bfmi = 0.0;
    int divergences_warmup = 0;
    int divergences_sampling = 0;
    long long gradient_evaluations = 0;  // every call of the log density, warm-up included
    std::vector<NutsIteration> iterations;  // every completed iteration, warm-up first
};

const char* to_string(NutsResult::Status status);

// Runs NUTS from `initial` (finite, non-empty): options.warmup adaptation iterations, then
// options.samples sampling iterations with the adapted step size and metric, keeping every
// options.thinning-th. Precondition: options.validate() is empty (check user input first).
// `progress` (optional) is called after every iteration; `stop` is polled before every
// gradient evaluation, so a cancelled run returns within one evaluation of the log density.
NutsResult run_nuts(const LogDensity& log_density, const Eigen::VectorXd& initial, const NutsOptions& options,
                    std::uint64_t seed, const NutsProgressCallback& progress = {}, std::stop_token stop = {});

}  // namespace sebo
