#pragma once
// The SAAS GP fitted by NUTS (paper §6 "Experimental setup"; Eriksson & Jankowiak 2021): the
// SAAS log posterior (model/saas_prior.h) in its unconstrained parameterization is sampled with
// the No-U-Turn sampler (model/nuts.h); the kept draws become the hyperparameter samples of an
// equally weighted GP ensemble (paper defaults: one chain, 512 warm-up, 256 samples, every 16th
// kept → 16).
//
// Several chains (issue 15). With `chains` = C > 1 the chains run side by side on the engine's
// thread pool (core/thread_pool.h), each keeping its share of the ⌈samples/thinning⌉ draws
// (16/C for the defaults), pooled chain by chain. Chain 0 starts where the single chain does,
// the others from points jittered around it; chain c ≥ 1 draws its random numbers from a seed
// derived from (seed, c), so the result depends on the seed and C only, never on the threads.
// R̂ and bulk-ESS (model/mcmc_diagnostics.h) over every iteration after warm-up — of the log
// density and of log ρ_d for every input — say whether the chains agree.
//
// Starts, tried in this order (SaasNutsStart; cold_start_reason says why a start was passed over):
//  1. Warm: given the state an earlier fit left (model/nuts_warm_start.h), each chain starts from
//     a previous chain's last position with the previous step size, and its warm-up is
//     warm_warmup iterations that tune the step size only. The metric is the previous one, or —
//     with start_at_mode — the Laplace covariance at the new data's mode searched from where the
//     chains ended, when that search converges: the previous metric, estimated from a few hundred
//     draws in d dimensions, has its small eigenvalues shrunk (Marchenko–Pastur), which forces a
//     smaller step size (at n = 100, D = 50: mean tree depth 3.3 against 3.9). Not used when the
//     state does not fit this model (another dimension, values that are not finite, a metric that
//     is not positive definite).
//  2. Mode (start_at_mode): chains from draws of the Laplace approximation at the posterior mode,
//     with its covariance as the metric (model/laplace_start.h), warm_warmup iterations tuning the
//     step size from Stan's initial heuristic.
//  3. Full: the paper's warm-up of nuts.warmup iterations with windowed metric adaptation.
// Starts 1 and 2 always use a dense metric. A run from start 1 or 2 is thrown away, and the next
// start tried, when it fails: a chain could not start, a transition diverged after warm-up, or R̂
// of the log density or of one of the `diagnosed_parameters` most relevant inputs is above
// max_rhat. The full warm-up is kept whatever its diagnostics say (they are reported).

#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "model/gp_hyperparameters.h"
#include "model/laplace_start.h"
#include "model/marginal_likelihood.h"
#include "model/nuts.h"
#include "model/nuts_warm_start.h"
#include "model/saas_prior.h"

namespace sebo {

class ThreadPool;

struct SaasNutsOptions {
    // The sampler of each chain. nuts.samples counts the sampling iterations of all chains
    // together; nuts.warmup is the full (cold) warm-up of each chain.
    NutsOptions nuts;
    SaasPriorOptions prior;
    // Choose the mass matrix from the data size: with n ≥ 50 points the SAAS posterior couples
    // log τ with every relevant log λ_d (correlations near −0.97), and a dense metric — adapted
    // only from warm-up windows with at least 2 draws per dimension — cuts the gradient count
    // by ~45% at n = 100, D = 50; below that the posterior is close to the prior and the
    // diagonal metric is cheaper. When false, `nuts.metric` is used as given.
    bool automatic_metric = true;
    // Chains, at most the number of kept draws ⌈samples/thinning⌉ (each keeps at least one).
    int chains = 1;
    // Warm-up iterations of each chain when warm-started (step size only). 48, not 128 (issue 34):
    // the chains start in the typical set, so the warm-up only re-tunes the step size, and at
    // n = 100, D = 50 the shorter one gave as many effective draws per gradient or more, R-hat
    // passing as often and 17 % fewer gradients (docs/method.md §10).
    int warm_warmup = 48;
    // A warm-started run is redone cold when R̂ exceeds this or a transition diverged after warm-up.
    double max_rhat = 1.05;
    // How many of the most relevant inputs (largest posterior median ρ_d) the R̂ check covers.
    int diagnosed_parameters = 3;
    // Without a usable warm start, first try chains started at the posterior mode with the Laplace
    // metric (model/laplace_start.h) and warm_warmup iterations, before the full warm-up.
    bool start_at_mode = false;
    LaplaceStartOptions laplace;

    static constexpr int kMaxChains = 64;

    std::optional<std::string> validate() const;
    // ⌈samples/thinning⌉: the draws kept by all chains together.
    int kept_draws() const;
};

// R̂ and bulk-ESS of one quantity over the chains, after warm-up.
struct Convergence {
    double rhat = 0.0;      // rank-normalized split R̂ (NaN when undefined)
    double ess_bulk = 0.0;  // bulk effective sample size
};

struct SaasNutsDiagnostics {
    Convergence log_density;
    // Of log ρ_d for every input d, in the order of `relevance_order`.
    std::vector<Convergence> parameters;
    // The inputs by decreasing posterior median of ρ_d over the kept draws (ties by index).
    std::vector<int> relevance_order;
    int divergences = 0;  // after warm-up, all chains
    int iterations = 0;   // sampling iterations per chain the diagnostics are over

    // The largest R̂ of the log density and the `top` most relevant inputs (NaN when one is NaN).
    double max_rhat(int top) const;
};

// Where the chains of a fit started.
enum class SaasNutsStart {
    Warm,  // from an earlier fit's state, warm_warmup iterations tuning the step size
    Mode,  // from draws of the Laplace approximation at the posterior mode, likewise
    Full   // the full warm-up of nuts.warmup iterations, the metric adapted in windows (the paper's)
};
const char* to_string(SaasNutsStart start);

struct SaasNutsFit {
    NutsResult::Status status = NutsResult::Status::Failed;
    std::string message;
    std::vector<GpHyperparameters> samples;  // one per kept draw: chain 0's, then chain 1's, …
    std::vector<NutsResult> chains;          // draws (unconstrained), traces and diagnostics per chain
    SaasNutsDiagnostics diagnostics;
    int warmup = 0;               // warm-up iterations of each chain of the run that made the samples
    SaasNutsStart start = SaasNutsStart::Full;  // of the run that made the samples
    // Why shorter starts were not used (a warm start that did not fit or failed its diagnostics,
    // a mode start that failed); empty when the first start tried was used.
    std::string cold_start_reason;
    NutsWarmStart next;           // for the next fit (empty unless completed)
    long long gradient_evaluations = 0;  // all chains, a discarded warm-started run included
    double seconds = 0.0;
};

// `pool` (optional) runs the chains; `warm` (optional) is an earlier fit's state. `progress`
// is called on the calling thread only, with the iterations of all chains added up.
SaasNutsFit fit_saas_nuts(std::shared_ptr<const LikelihoodData> data, const SaasNutsOptions& options, std::uint64_t seed,
                          const NutsProgressCallback& progress = {}, std::stop_token stop = {}, ThreadPool* pool = nullptr,
                          const NutsWarmStart* warm = nullptr);

}  // namespace sebo
