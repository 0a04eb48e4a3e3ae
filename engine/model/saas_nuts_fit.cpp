#include "model/saas_nuts_fit.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <thread>

#include "core/format.h"
#include "core/thread_pool.h"
#include "model/laplace_start.h"
#include "model/mcmc_diagnostics.h"
#include "model/parameter_relevance.h"
#include "core/portable_random.h"

namespace sebo {

std::optional<std::string> SaasNutsOptions::validate() const {
    if (auto e = nuts.validate()) return e;
    if (auto e = prior.validate()) return e;
    if (chains < 1 || chains > kMaxChains)
        return "nuts.chains: " + std::to_string(chains) + " is not between 1 and " + std::to_string(kMaxChains);
    if (chains > kept_draws())
        return "nuts.chains: " + std::to_string(chains) + " chains cannot share " + std::to_string(kept_draws()) +
               " kept draws (samples / thinning); every chain keeps at least one";
    if (warm_warmup < 0) return "nuts.warm_warmup: " + std::to_string(warm_warmup) + " is negative";
    if (!(max_rhat > 1.0 && std::isfinite(max_rhat)))
        return "nuts.max_rhat: " + format_number(max_rhat) + " is not a number above 1";
    if (diagnosed_parameters < 0)
        return "nuts.diagnosed_parameters: " + std::to_string(diagnosed_parameters) + " is negative";
    return std::nullopt;
}

int SaasNutsOptions::kept_draws() const { return (nuts.samples + nuts.thinning - 1) / nuts.thinning; }

double SaasNutsDiagnostics::max_rhat(int top) const {
    double worst = log_density.rhat;
    const int n = std::min(top, static_cast<int>(parameters.size()));
    for (int k = 0; k < n; ++k) {
        const double r = parameters[static_cast<std::size_t>(k)].rhat;
        if (std::isnan(r) || std::isnan(worst)) return std::numeric_limits<double>::quiet_NaN();
        worst = std::max(worst, r);
    }
    return worst;
}

namespace {

std::uint64_t split_mix(std::uint64_t z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Chain 0 keeps the fit's seed, so that one chain samples exactly as before chains existed.
std::uint64_t chain_seed(std::uint64_t seed, int chain) {
    return chain == 0 ? seed : split_mix(seed ^ split_mix(static_cast<std::uint64_t>(chain)));
}

struct ChainPlan {
    Eigen::VectorXd start;
    NutsOptions options;
    std::uint64_t seed = 0;
};

// Sampling iterations of each chain: one chain runs options.nuts.samples; with C chains, chain c
// keeps K/C draws (the first K mod C chains one more) and runs that many times thinning.
std::vector<int> chain_samples(const SaasNutsOptions& options) {
    const int chains = options.chains;
    if (chains == 1) return {options.nuts.samples};
    const int kept = options.kept_draws();
    std::vector<int> samples(static_cast<std::size_t>(chains));
    for (int c = 0; c < chains; ++c)
        samples[static_cast<std::size_t>(c)] = (kept / chains + (c < kept % chains ? 1 : 0)) * options.nuts.thinning;
    return samples;
}

// Runs the chains, on the pool when there is one. `progress` is called on the calling thread only
// (the caller runs chains too, and reports the iterations of all chains added up); the other
// threads only count.
std::vector<NutsResult> run_chains(const SaasLogDensity& density, const std::vector<ChainPlan>& plans,
                                   const NutsProgressCallback& progress, std::stop_token stop, ThreadPool* pool) {
    const int chains = static_cast<int>(plans.size());
    std::vector<NutsResult> results(plans.size());
    const auto done = std::make_unique<std::atomic<int>[]>(plans.size());
    const auto divergences = std::make_unique<std::atomic<int>[]>(plans.size());
    int total = 0;
    for (const ChainPlan& p : plans) total += p.options.warmup + p.options.samples;
    const std::thread::id caller = std::this_thread::get_id();
    const auto run_one = [&](int c) {
        const ChainPlan& plan = plans[static_cast<std::size_t>(c)];
        SaasLogDensity own = density;  // its own workspace; the data are shared and read-only
        const LogDensity log_density = [&own](const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
            return own(theta, gradient);
        };
        const NutsProgressCallback report = [&, c](const NutsProgress& p) {
            done[static_cast<std::size_t>(c)].store(p.iteration, std::memory_order_relaxed);
            divergences[static_cast<std::size_t>(c)].store(p.divergences, std::memory_order_relaxed);
            if (!progress || std::this_thread::get_id() != caller) return;
            NutsProgress sum = p;
            sum.iteration = 0;
            sum.divergences = 0;
            for (int k = 0; k < chains; ++k) {
                sum.iteration += done[static_cast<std::size_t>(k)].load(std::memory_order_relaxed);
                sum.divergences += divergences[static_cast<std::size_t>(k)].load(std::memory_order_relaxed);
            }
            sum.total = total;
            progress(sum);
        };
        results[static_cast<std::size_t>(c)] = run_nuts(log_density, plan.start, plan.options, plan.seed, report, stop);
    };
    if (pool && chains > 1) {
        pool->parallel_for(chains, run_one, stop);
    } else {
        for (int c = 0; c < chains; ++c) run_one(c);
    }
    // Chains the pool skipped because the stop token fired have no status of their own.
    for (std::size_t c = 0; c < results.size(); ++c)
        if (results[c].iterations.empty() && results[c].message.empty()) {
            results[c].status = NutsResult::Status::Cancelled;
            results[c].message = "cancelled before it started";
        }
    return results;
}

// R̂ and bulk-ESS over the sampling iterations (the first N of each chain, N the shortest).
SaasNutsDiagnostics diagnose(const std::vector<NutsResult>& chains, const std::vector<GpHyperparameters>& samples,
                             int warmup) {
    SaasNutsDiagnostics diagnostics;
    const auto m = static_cast<Eigen::Index>(chains.size());
    Eigen::Index n = std::numeric_limits<Eigen::Index>::max();
    for (const NutsResult& r : chains) {
        n = std::min<Eigen::Index>(n, static_cast<Eigen::Index>(r.iterations.size()) - warmup);
        diagnostics.divergences += r.divergences_sampling;
    }
    n = std::max<Eigen::Index>(n, 0);
    diagnostics.iterations = static_cast<int>(n);
    Eigen::MatrixXd values(n, m);
    for (Eigen::Index c = 0; c < m; ++c)
        for (Eigen::Index i = 0; i < n; ++i)
            values(i, c) = chains[static_cast<std::size_t>(c)].iterations[static_cast<std::size_t>(warmup + i)].log_density;
    diagnostics.log_density = {split_rank_normalized_rhat(values), bulk_effective_sample_size(values)};
    for (const ParameterRelevance& r : parameter_relevance(samples)) diagnostics.relevance_order.push_back(r.parameter);
    for (const int d : diagnostics.relevance_order) {
        // log ρ_d = log τ + log λ_d (model/saas_prior.h): R̂ is rank-based, so any monotone
        // transform of ρ_d gives the same value.
        for (Eigen::Index c = 0; c < m; ++c) {
            const Eigen::MatrixXd& trace = chains[static_cast<std::size_t>(c)].trace;
            for (Eigen::Index i = 0; i < n; ++i)
                values(i, c) = trace(warmup + i, SaasLayout::global_shrinkage_index()) +
                               trace(warmup + i, SaasLayout::local_shrinkage_index(d));
        }
        diagnostics.parameters.push_back({split_rank_normalized_rhat(values), bulk_effective_sample_size(values)});
    }
    return diagnostics;
}

// Chains that all completed: the pooled samples, diagnostics and the state for the next fit.
void collect(SaasNutsFit& fit, const SaasLogDensity& density, std::vector<NutsResult> chains, int warmup,
             const NutsOptions& nuts) {
    fit.chains = std::move(chains);
    fit.warmup = warmup;
    fit.samples.clear();
    for (const NutsResult& r : fit.chains)
        for (Eigen::Index k = 0; k < r.draws.rows(); ++k) fit.samples.push_back(density.hyperparameters(r.draws.row(k).transpose()));
    fit.diagnostics = diagnose(fit.chains, fit.samples, warmup);
    fit.next = warm_start_from_chains(fit.chains, nuts.metric, warmup / 2, nuts.dense_min_draws_per_dimension);
}

const NutsResult* first_not_completed(const std::vector<NutsResult>& chains) {
    for (const NutsResult& r : chains)
        if (r.status != NutsResult::Status::Completed) return &r;
    return nullptr;
}

}  // namespace

const char* to_string(SaasNutsStart start) {
    switch (start) {
    case SaasNutsStart::Warm: return "warm";
    case SaasNutsStart::Mode: return "mode";
    case SaasNutsStart::Full: return "full";
    }
    return "full";
}

SaasNutsFit fit_saas_nuts(std::shared_ptr<const LikelihoodData> data, const SaasNutsOptions& options, std::uint64_t seed,
                          const NutsProgressCallback& progress, std::stop_token stop, ThreadPool* pool,
                          const NutsWarmStart* warm) {
    const auto clock_start = std::chrono::steady_clock::now();
    SaasNutsFit fit;
    const SaasLogDensity density(std::move(data), options.prior);
    NutsOptions nuts = options.nuts;
    if (options.automatic_metric) {
        const bool dense = density.data().num_points() >= 50;
        nuts.metric = dense ? NutsMetric::Dense : NutsMetric::Diagonal;
        nuts.dense_min_draws_per_dimension = dense ? 2.0 : 0.0;
    }
    nuts.keep_trace = true;
    // Warm and mode starts always use a dense metric: it comes ready-made (from the state or the
    // Laplace approximation) instead of being estimated in warm-up windows, which is what makes
    // the diagonal one cheaper for small data in the full warm-up.
    NutsOptions short_run = nuts;
    short_run.metric = NutsMetric::Dense;
    const std::vector<int> samples = chain_samples(options);
    const int chains = options.chains;
    const int d = density.layout().size();
    const auto finish = [&](NutsResult::Status status, std::string message) {
        fit.status = status;
        fit.message = std::move(message);
        if (status != NutsResult::Status::Completed) {
            fit.samples.clear();
            fit.next = {};
        }
        fit.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - clock_start).count();
        return std::move(fit);
    };
    const auto count_gradients = [&fit](const std::vector<NutsResult>& results) {
        for (const NutsResult& r : results) fit.gradient_evaluations += r.gradient_evaluations;
    };
    const auto summary = [&] {
        const double rhat = fit.diagnostics.max_rhat(options.diagnosed_parameters);
        return std::to_string(chains) + (chains == 1 ? " chain, " : " chains, ") + to_string(fit.start) + " start, " +
               std::to_string(fit.warmup) + " warm-up iterations each; R-hat " + format_short(rhat, 5) + ", " +
               std::to_string(fit.diagnostics.divergences) + " divergent after warm-up";
    };
    std::vector<std::string> reasons;  // why each shorter start was not used

    // Chains from a given state with its metric, tuning the step size only. Returns whether the
    // run passed its diagnostics (then `fit` holds it); otherwise `reasons` says why not.
    const auto run_from = [&](const NutsWarmStart& state, bool tune_step_size, const std::string& what) {
        std::vector<ChainPlan> plans(static_cast<std::size_t>(chains));
        for (int c = 0; c < chains; ++c) {
            ChainPlan& plan = plans[static_cast<std::size_t>(c)];
            plan.start = state.positions.row(c % state.positions.rows()).transpose();
            plan.options = short_run;
            plan.options.warmup = options.warm_warmup;
            plan.options.samples = samples[static_cast<std::size_t>(c)];
            plan.options.adapt_metric = false;
            plan.options.initial_inverse_metric = state.inverse_metric;
            plan.options.initial_step_size = state.step_size;
            plan.options.tune_initial_step_size = tune_step_size;
            plan.seed = chain_seed(seed, c);
        }
        std::vector<NutsResult> results = run_chains(density, plans, progress, stop, pool);
        count_gradients(results);
        if (stop.stop_requested()) return false;
        if (const NutsResult* failed = first_not_completed(results)) {
            reasons.push_back("a chain could not start from " + what + ": " + failed->message);
            return false;
        }
        collect(fit, density, std::move(results), options.warm_warmup, short_run);
        if (fit.diagnostics.divergences > 0) {
            reasons.push_back("the chains from " + what + " had " + std::to_string(fit.diagnostics.divergences) +
                              " divergent transitions after warm-up");
            return false;
        }
        const double rhat = fit.diagnostics.max_rhat(options.diagnosed_parameters);
        if (!(rhat <= options.max_rhat)) {
            reasons.push_back("the chains from " + what + " did not agree (R-hat " + format_short(rhat, 5) + ", above " +
                              format_short(options.max_rhat, 3) + ")");
            return false;
        }
        return true;
    };
    const auto reason_text = [&reasons] {
        std::string text;
        for (const std::string& r : reasons) text += (text.empty() ? "" : "; ") + r;
        return text;
    };

    SaasLogDensity own = density;  // for the Laplace approximations, on this thread
    const LogDensity log_density = [&own](const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
        return own(theta, gradient);
    };
    // For the Laplace Hessian's columns on the pool: each task evaluates its own copy.
    const auto density_copy = [&density]() -> LogDensity {
        return [copy = density](const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) mutable {
            return copy(theta, gradient);
        };
    };
    const std::uint64_t laplace_seed = split_mix(seed ^ 0x4c61706c61636521ull);
    if (warm) {
        if (auto unfit = warm->check(d, warm->metric)) {
            reasons.push_back("the stored sampler state does not fit: " + *unfit);
        } else {
            // The previous metric was estimated from a few hundred draws in d dimensions, which
            // shrinks its small eigenvalues (and so the step size); the Laplace covariance at the new
            // mode, searched from where the chains ended, is sharper and follows the new data.
            // Used only when that search converged; otherwise the stored metric is kept.
            NutsWarmStart state = *warm;
            if (state.metric == NutsMetric::Diagonal) {  // left by a full warm-up with the diagonal metric
                state.metric = NutsMetric::Dense;
                state.inverse_metric = Eigen::MatrixXd(warm->inverse_metric.col(0).asDiagonal());
            }
            if (options.start_at_mode) {
                const Eigen::VectorXd centre = warm->positions.colwise().mean().transpose();
                const LaplaceStart laplace =
                    laplace_start(log_density, centre, 1, NutsMetric::Dense, laplace_seed, options.laplace, stop, pool,
                                  density_copy);
                fit.gradient_evaluations += laplace.evaluations;
                if (laplace.ok && laplace.status == FitStatus::Converged) state.inverse_metric = laplace.state.inverse_metric;
            }
            if (!stop.stop_requested() && run_from(state, false, "the stored sampler state")) {
                fit.start = SaasNutsStart::Warm;
                return finish(NutsResult::Status::Completed, summary());
            }
        }
        if (stop.stop_requested()) return finish(NutsResult::Status::Cancelled, "cancelled");
    }
    if (options.start_at_mode) {
        const LaplaceStart laplace =
            laplace_start(log_density, density.initial_point(), chains, NutsMetric::Dense, laplace_seed, options.laplace,
                          stop, pool, density_copy);
        fit.gradient_evaluations += laplace.evaluations;
        if (stop.stop_requested()) return finish(NutsResult::Status::Cancelled, "cancelled");
        if (!laplace.ok) {
            reasons.push_back("no start at the posterior mode: " + laplace.message);
        } else if (run_from(laplace.state, true, "the posterior mode")) {
            fit.start = SaasNutsStart::Mode;
            fit.cold_start_reason = reason_text();
            return finish(NutsResult::Status::Completed, summary());
        }
        if (stop.stop_requested()) return finish(NutsResult::Status::Cancelled, "cancelled");
    }

    // The full warm-up, as in the paper: every chain adapts its own metric in Stan's windows.
    std::vector<ChainPlan> plans(static_cast<std::size_t>(chains));
    const Eigen::VectorXd centre = density.initial_point();
    for (int c = 0; c < chains; ++c) {
        ChainPlan& plan = plans[static_cast<std::size_t>(c)];
        plan.start = centre;
        if (c > 0) {
            // Overdispersed starts, so that R̂ can see chains that have not yet forgotten where
            // they began; a jittered start where the density is not finite falls back to the centre.
            PortableRandom jitter(split_mix(chain_seed(seed, c)));
            for (Eigen::Index i = 0; i < plan.start.size(); ++i) plan.start[i] += jitter.uniform(-1.0, 1.0);
            SaasLogDensity probe = density;
            Eigen::VectorXd gradient(plan.start.size());
            if (!std::isfinite(probe(plan.start, gradient)) || !gradient.allFinite()) plan.start = centre;
        }
        plan.options = nuts;
        plan.options.samples = samples[static_cast<std::size_t>(c)];
        plan.seed = chain_seed(seed, c);
    }
    std::vector<NutsResult> results = run_chains(density, plans, progress, stop, pool);
    count_gradients(results);
    if (stop.stop_requested()) return finish(NutsResult::Status::Cancelled, "cancelled");
    if (const NutsResult* failed = first_not_completed(results)) {
        fit.chains = std::move(results);
        const NutsResult::Status status = failed->status;
        return finish(status, failed->message);
    }
    collect(fit, density, std::move(results), nuts.warmup, nuts);
    fit.start = SaasNutsStart::Full;
    fit.cold_start_reason = reason_text();
    return finish(NutsResult::Status::Completed, summary());
}

}  // namespace sebo
