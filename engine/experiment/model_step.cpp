#include "experiment/model_step.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "acquisition/noisy_acquisition.h"
#include "core/quantile.h"
#include "core/robust_spread.h"
#include "design/polytope_sampler.h"
#include "design/sobol.h"
#include "model/fantasy_posterior.h"
#include "model/input_encoding.h"
#include "model/noise_level.h"
#include "model/parameter_relevance.h"
#include "model/surrogate.h"
#include "space/feasible_point.h"
#include "space/polytope.h"

namespace sebo {

namespace {

Eigen::VectorXd to_unit_vector(const SearchSpace& space, const std::vector<double>& values) {
    const auto unit = space.to_unit(values);
    return Eigen::Map<const Eigen::VectorXd>(unit.data(), static_cast<Eigen::Index>(unit.size()));
}

// Every choice coordinate moved to the middle of the cell it is in (the value it stands for).
Eigen::VectorXd centre_choices(const std::vector<int>& levels, Eigen::VectorXd u) {
    for (std::size_t i = 0; i < levels.size(); ++i)
        if (levels[i] >= 2) {
            const auto c = static_cast<Eigen::Index>(i);
            u[c] = SearchSpace::choice_unit(SearchSpace::choice_of_unit(u[c], levels[i]), levels[i]);
        }
    return u;
}

}  // namespace

std::shared_ptr<const InputEncoding> input_encoding(const SearchSpace& space) {
    if (!space.has_choices()) return nullptr;
    std::vector<bool> ordered;
    for (const Parameter& p : space.parameters()) ordered.push_back(p.ordered);
    return std::make_shared<const InputEncoding>(space.choice_levels(), std::move(ordered));
}

std::string feature_name(const SearchSpace& space, const InputEncoding* encoding, int feature) {
    if (!encoding) return space.parameter(feature).name;
    const Parameter& p = space.parameter(encoding->column_of_feature(feature));
    const int value = encoding->value_of_feature(feature);
    return value < 0 ? p.name : p.name + "=" + value_text(p, value);
}

std::vector<Eigen::VectorXd> raw_samples(const SearchSpace& space, const std::vector<Eigen::VectorXd>& anchors, int count,
                                         std::uint64_t seed, bool sparse_moves) {
    const int d = space.dimension();
    const auto t = space.target_unit();
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<Eigen::VectorXd> out;
    // With linear parameter constraints, points inside their polytope (design/polytope_sampler.h);
    // the perturbations below (and Sobol points, should the sampler fail) are moved into it at the end.
    if (const Polytope* polytope = space.polytope()) out = sample_polytope(*polytope, count, seed).points;
    if (out.empty())
        for (const auto& p : ScrambledSobol(d, seed).points(0, count)) out.push_back(Eigen::Map<const Eigen::VectorXd>(p.data(), d));
    const int sampled = static_cast<int>(out.size());
    for (int k = 0; sparse_moves && k < std::min(count, sampled) / 4; ++k) {
        Eigen::VectorXd x = out[static_cast<std::size_t>(k)];
        const double keep = std::max(1.0 / d, 0.5 * uniform(rng));
        for (int i = 0; i < d; ++i)
            if (uniform(rng) >= keep) x[i] = t[static_cast<std::size_t>(i)];
        out.push_back(std::move(x));
    }
    if (!anchors.empty()) {
        const int per_anchor = std::max(8, count / 2 / static_cast<int>(anchors.size()));
        for (const Eigen::VectorXd& anchor : anchors) {
            std::vector<int> active;
            for (int i = 0; i < d; ++i)
                if (anchor[i] != t[static_cast<std::size_t>(i)]) active.push_back(i);
            for (int k = 0; k < per_anchor; ++k) {
                Eigen::VectorXd x = anchor;
                switch (k % 3) {
                case 0:  // 0.2·N(0,1) on the active coordinates
                case 1:  // 0.05·N(0,1): local refinement
                    for (int i : active) x[i] = std::clamp(x[i] + (k % 3 == 0 ? 0.2 : 0.05) * normal(rng), 0.0, 1.0);
                    break;
                case 2: {  // switch off one to three active coordinates
                    if (!sparse_moves) continue;
                    if (active.empty()) break;
                    const int drops = 1 + static_cast<int>(uniform(rng) * 3);
                    for (int j = 0; j < drops; ++j) {
                        const int i = active[static_cast<std::size_t>(uniform(rng) * static_cast<double>(active.size()))];
                        x[i] = t[static_cast<std::size_t>(i)];
                    }
                    break;
                }
                }
                out.push_back(std::move(x));
            }
        }
    }
    if (const Polytope* polytope = space.polytope()) {
        const Eigen::VectorXd target = Eigen::Map<const Eigen::VectorXd>(t.data(), d);
        for (Eigen::VectorXd& x : out) x = into_polytope(*polytope, x, target);
    }
    return out;
}

double TrainingSet::model_value(double value) const {
    return (warp.apply(utility_scale * value) - standardizer.mean()) / standardizer.scale();
}

WarpMode warp_mode(const MethodSettings& method) {
    if (!method.warp_objective) return WarpMode::Off;
    return method.warp_check && is_sebo(method.strategy) ? WarpMode::Checked : WarpMode::Always;
}

std::optional<TrainingSet> make_training_set(const Experiment& experiment, WarpMode warp_mode) {
    return make_metric_training_set(experiment, experiment.primary_objective().metric, warp_mode);
}

std::optional<TrainingSet> make_metric_training_set(const Experiment& experiment, const std::string& metric,
                                                    WarpMode warp_mode) {
    const Objective* objective = experiment.outcomes.objective_on(metric);
    std::vector<Eigen::VectorXd> x;
    std::vector<double> utility, sem;
    std::vector<int> trials;
    bool all_sem = true;
    for (const Trial& t : experiment.trials) {
        if (!experiment.analyzed(t)) continue;
        const Measurement* m = t.measurement(metric);
        if (!m) continue;
        x.push_back(to_unit_vector(experiment.space, t.parameters));
        utility.push_back(objective ? objective->to_utility(m->mean) : m->mean);
        trials.push_back(t.index);
        if (m->sem) sem.push_back(*m->sem);
        else all_sem = false;
    }
    if (x.empty()) return std::nullopt;
    const auto n = static_cast<Eigen::Index>(x.size());
    // Extreme values (an error sentinel of 1e308 among values of order 1) go onto the far-out
    // fence on their side, or onto the most distant ordinary value when that lies beyond it, so
    // they stay the best or the worst. The warp and the standardization below are scale-free, and
    // without this the other values would differ by less than the rounding of the extreme one.
    std::vector<int> winsorized;
    if (const auto spread = robust_spread(utility)) {
        double low = spread->lower_fence(), high = spread->upper_fence();
        for (double u : utility)
            if (!spread->extreme(u)) {
                low = std::min(low, u);
                high = std::max(high, u);
            }
        for (std::size_t i = 0; i < utility.size(); ++i)
            if (spread->extreme(utility[i])) {
                // Finite: an extreme value lies more than 3 S beyond its quartile, so its fence is
                // between the quartile and the value.
                utility[i] = utility[i] > spread->median ? high : low;
                winsorized.push_back(trials[i]);
            }
    }
    // Utilities beyond ±1e100 (their squares overflow in a variance) or all below 1e-100 (their
    // squares underflow) are brought to order 1 by a power of two: exact, and the warp and the
    // standardization are scale-free, so the model sees the same data.
    double scale = 1.0;
    if (const double largest = Eigen::Map<const Eigen::VectorXd>(utility.data(), n).cwiseAbs().maxCoeff();
        largest > 1e100 || (largest > 0.0 && largest < 1e-100))
        scale = std::ldexp(1.0, -std::ilogb(largest));
    const Eigen::VectorXd y = scale * Eigen::Map<const Eigen::VectorXd>(utility.data(), n);
    const auto build = [&](const PowerTransform& warp) {
        const Eigen::VectorXd warped = warp.apply(y);
        const Standardizer standardizer(warped);
        auto data = std::make_shared<TrainingData>();
        data->inputs.resize(n, experiment.space.dimension());
        for (Eigen::Index i = 0; i < n; ++i) data->inputs.row(i) = x[static_cast<std::size_t>(i)].transpose();
        data->targets = standardizer.transform(warped);
        data->encoding = input_encoding(experiment.space);
        if (all_sem) {
            data->noise_variances.resize(n);
            for (Eigen::Index i = 0; i < n; ++i) {
                // Delta method: the standard error scales with the transform's slope.
                const double s = scale * sem[static_cast<std::size_t>(i)] * warp.derivative(y[i]) / standardizer.scale();
                data->noise_variances[i] = std::max(s * s, 1e-8);
            }
        }
        return TrainingSet{std::move(data), warp, standardizer, trials, y, winsorized, scale};
    };
    if (warp_mode == WarpMode::Off) return build(PowerTransform());
    // The warp may compress the best values only when an extreme one was winsorized (a sentinel on
    // the good side); otherwise it may compress only the worst (model/power_transform.h).
    TrainingSet warped = build(PowerTransform(y, !winsorized.empty()));
    if (warp_mode == WarpMode::Always || !winsorized.empty() || warped.warp.lambda() == 1.0 || n < kWarpCheckMinimum)
        return warped;
    TrainingSet plain = build(PowerTransform());
    SurrogateOptions gp;
    gp.kind = SurrogateKind::Gp;
    const SurrogateFit fit = fit_surrogate(plain.data, gp, kWarpCheckSeed);
    const bool noisy = fit.status == SurrogateFit::Status::Ok && !noise_negligible(*fit.posterior);
    return noisy ? std::move(plain) : std::move(warped);
}

SurrogateOptions surrogate_options(const MethodSettings& m, int threads) {
    SurrogateOptions o;
    switch (m.resolved_model()) {
    case ModelKind::Gp: o.kind = SurrogateKind::Gp; break;
    case ModelKind::SaasNuts: o.kind = SurrogateKind::SaasNuts; break;
    case ModelKind::SaasMap: o.kind = SurrogateKind::SaasMap; break;
    }
    const NutsSchedule schedule = m.nuts_schedule(threads);
    o.saas_nuts.nuts.warmup = schedule.warmup;
    o.saas_nuts.nuts.samples = schedule.samples;
    o.saas_nuts.nuts.thinning = schedule.thinning;
    o.saas_nuts.nuts.max_tree_depth = schedule.max_tree_depth;
    o.saas_nuts.chains = schedule.chains;
    o.saas_nuts.warm_warmup = schedule.warm_warmup;
    o.saas_nuts.start_at_mode = schedule.mode_start;
    return o;
}

int max_added_trials(int fitted_trials) { return std::max(5, fitted_trials / 5); }

WarmStartChoice choose_warm_start(const Experiment& experiment, const std::string& metric, const TrainingSet& training,
                                  const MethodSettings& method) {
    WarmStartChoice choice;
    if (method.resolved_model() != ModelKind::SaasNuts || !method.nuts_schedule(1).warm_start) return choice;
    const MetricSamplerState* state = experiment.sampler_state ? experiment.sampler_state->find(metric) : nullptr;
    if (!state) {
        choice.cold_reason = "no sampler state from an earlier fit";
        return choice;
    }
    const MetricSamplerState& s = *state;
    if (s.warp_objective != method.warp_objective) {
        choice.cold_reason = "the objective warp changed since the last fit";
        return choice;
    }
    const std::optional<std::uint64_t> now =
        data_fingerprint(experiment.trials, modelled_sign(experiment.outcomes, metric), s.trials);
    if (!now || *now != s.fingerprint) {
        choice.cold_reason = "trials the last fit used were changed or removed";
        return choice;
    }
    const int fitted = static_cast<int>(s.trials.size());
    const int added = static_cast<int>(training.trials.size()) - fitted;
    if (added > max_added_trials(fitted)) {
        choice.cold_reason = std::to_string(added) + " trials were added since the last fit (more than " +
                             std::to_string(max_added_trials(fitted)) + ")";
        return choice;
    }
    NutsWarmStart warm;
    const auto d = static_cast<Eigen::Index>(s.dimension());
    warm.positions.resize(static_cast<Eigen::Index>(s.positions.size()), d);
    for (std::size_t c = 0; c < s.positions.size(); ++c)
        for (Eigen::Index i = 0; i < d && i < static_cast<Eigen::Index>(s.positions[c].size()); ++i)
            warm.positions(static_cast<Eigen::Index>(c), i) = s.positions[c][static_cast<std::size_t>(i)];
    warm.step_size = s.step_size;
    warm.metric = s.dense_metric ? NutsMetric::Dense : NutsMetric::Diagonal;
    if (s.dense_metric && s.inverse_metric.size() == static_cast<std::size_t>(d * d)) {
        warm.inverse_metric.resize(d, d);
        for (Eigen::Index i = 0; i < d; ++i)
            for (Eigen::Index j = 0; j < d; ++j) warm.inverse_metric(i, j) = s.inverse_metric[static_cast<std::size_t>(i * d + j)];
    } else {
        warm.inverse_metric = Eigen::Map<const Eigen::VectorXd>(s.inverse_metric.data(), static_cast<Eigen::Index>(s.inverse_metric.size()));
    }
    choice.state = std::move(warm);
    return choice;
}

MetricSamplerState make_sampler_state(const SurrogateFit& fit, const std::string& metric, const TrainingSet& training,
                                      const Experiment& experiment, const MethodSettings& method) {
    MetricSamplerState s;
    s.metric = metric;
    s.warp_objective = method.warp_objective;
    s.trials = training.trials;
    s.fingerprint = data_fingerprint(experiment.trials, modelled_sign(experiment.outcomes, metric), s.trials).value_or(0);
    s.step_size = fit.next.step_size;
    s.dense_metric = fit.next.metric == NutsMetric::Dense;
    const Eigen::MatrixXd& positions = fit.next.positions;
    for (Eigen::Index c = 0; c < positions.rows(); ++c) {
        const Eigen::VectorXd row = positions.row(c).transpose();
        s.positions.emplace_back(row.data(), row.data() + row.size());
    }
    const Eigen::MatrixXd& m = fit.next.inverse_metric;
    s.inverse_metric.reserve(static_cast<std::size_t>(m.size()));
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j) s.inverse_metric.push_back(m(i, j));
    return s;
}

FitRecord make_fit_record(const SurrogateFit& fit, const MethodSettings& method, const SearchSpace& space, int top) {
    const auto finite = [](double x) { return std::isfinite(x) ? std::optional<double>(x) : std::nullopt; };
    FitRecord r;
    r.nuts = to_string(method.nuts);
    r.chains = fit.chains;
    r.start = to_string(fit.start);
    r.cold_start_reason = fit.cold_start_reason;
    r.warmup = fit.warmup;
    r.draws = static_cast<int>(fit.samples.size());
    r.divergences = fit.divergences;
    r.rhat = finite(fit.diagnostics.log_density.rhat);
    r.ess_bulk = finite(fit.diagnostics.log_density.ess_bulk);
    const std::size_t shown = std::min(static_cast<std::size_t>(std::max(top, 0)), fit.diagnostics.relevance_order.size());
    for (std::size_t k = 0; k < shown; ++k) {
        const int d = fit.diagnostics.relevance_order[k];
        const Convergence& c = fit.diagnostics.parameters[k];
        const InputEncoding* encoding = fit.posterior ? fit.posterior->data().encoding.get() : nullptr;
        r.parameters.push_back({feature_name(space, encoding, d), finite(c.rhat), finite(c.ess_bulk)});
    }
    r.seconds = fit.seconds;
    return r;
}

AcquisitionOptimizerOptions acquisition_optimizer_options(const MethodSettings& m) {
    AcquisitionOptimizerOptions o;
    o.raw_samples = m.raw_samples;
    o.restarts = m.restarts;
    o.homotopy.a_start = m.homotopy_a_start;
    o.homotopy.a_end = m.homotopy_a_end;
    o.homotopy.steps = m.homotopy_steps;
    if (m.strategy == StrategyKind::SeboL0FixedA) o.homotopy.fixed_a = m.fixed_a;
    return o;
}

SparsityPenalty make_sparsity_penalty(const SearchSpace& space, PenaltyKind kind, int floor) {
    std::vector<int> group_of(static_cast<std::size_t>(space.dimension()));
    for (int i = 0; i < space.dimension(); ++i) group_of[static_cast<std::size_t>(i)] = space.group_of(i);
    const auto t = space.target_unit();
    SparsityPenalty penalty(kind, Eigen::Map<const Eigen::VectorXd>(t.data(), static_cast<Eigen::Index>(t.size())),
                            std::move(group_of), space.group_count(), floor);
    if (space.has_choices()) penalty.set_discrete_levels(space.choice_levels());
    return penalty;
}

namespace {

CandidateTransforms numeric_candidate_transforms(const SearchSpace& space) {
    const auto t = space.target_unit();
    const Eigen::VectorXd target = Eigen::Map<const Eigen::VectorXd>(t.data(), static_cast<Eigen::Index>(t.size()));
    CandidateTransforms transforms;
    if (const std::shared_ptr<const Polytope> polytope = space.shared_polytope()) {
        // Linear parameter constraints: SLSQP inside the polytope, and snapping and rounding that
        // never leave it (space/feasible_snap.h). A point they cannot place stays as it was (the
        // optimizer's own points are inside; finalize's caller checks the result).
        transforms.feasible_set = polytope;
        transforms.snap = [polytope, target, rule = min_change_rule(space)](const Eigen::VectorXd& u) {
            const FeasibleSnap s = snap_feasibly(*polytope, u, target, rule);
            return s.status == FeasibleSnap::Status::Ok ? s.x : u;
        };
        transforms.finalize = [polytope, target, rule = min_change_rule(space),
                               integers = integer_columns(space)](const Eigen::VectorXd& u) {
            const FeasibleSnap s = finalize_feasibly(*polytope, u, target, rule, integers);
            return s.status == FeasibleSnap::Status::Ok ? s.x : u;
        };
        return transforms;
    }
    // Each parameter's minimum meaningful change (or the 1 % rule) decides what is snapped
    // (space/min_change.h); the user-unit snap after rounding catches an integer that rounding
    // moved below its floor.
    transforms.snap = [&space, target](const Eigen::VectorXd& u) {
        Eigen::VectorXd out = u;
        for (Eigen::Index i = 0; i < u.size(); ++i)
            if (space.within_min_change_unit(static_cast<int>(i), u[i])) out[i] = target[i];
        return out;
    };
    transforms.finalize = [&space, snap = transforms.snap](const Eigen::VectorXd& u) {
        const Eigen::VectorXd snapped = snap(u);
        const std::vector<double> user =
            space.snap(space.from_unit(std::vector<double>(snapped.data(), snapped.data() + snapped.size())));
        return to_unit_vector(space, user);
    };
    return transforms;
}

}  // namespace

CandidateTransforms make_candidate_transforms(const SearchSpace& space) {
    CandidateTransforms transforms = numeric_candidate_transforms(space);
    if (!space.has_choices()) return transforms;
    // Choices: each coordinate on the middle of its value's cell, so that one value is one point.
    transforms.choice_levels = space.choice_levels();
    transforms.snap = [levels = transforms.choice_levels, snap = transforms.snap](const Eigen::VectorXd& u) {
        return snap(centre_choices(levels, u));
    };
    transforms.finalize = [levels = transforms.choice_levels, finalize = transforms.finalize](const Eigen::VectorXd& u) {
        return centre_choices(levels, finalize(centre_choices(levels, u)));
    };
    return transforms;
}

bool uses_noisy_acquisition(const MethodSettings& method, std::span<const std::shared_ptr<const EnsemblePosterior>> posteriors) {
    switch (method.noisy_acquisition) {
    case NoisyAcquisition::On: return true;
    case NoisyAcquisition::Off: return false;
    case NoisyAcquisition::Auto:
        return std::any_of(posteriors.begin(), posteriors.end(), [](const auto& p) { return !noise_negligible(*p); });
    }
    return false;
}

double reference_below(double worst, double best) { return worst - 0.1 * std::max(best - worst, 1.0); }

int noisy_draws_per_member(const MethodSettings& method, int members) {
    return std::max(1, (method.noisy_draws + members - 1) / std::max(members, 1));
}

namespace {

// The acquisition of a step over the measured values (paper §3–5): incumbents and the front are
// the posterior's data, observations and fantasies.
std::unique_ptr<AcquisitionFunction> measured_acquisition(const MethodSettings& method, std::shared_ptr<const EnsemblePosterior> posterior,
                                                          const SparsityPenalty& penalty, const Eigen::VectorXd& values,
                                                          const Eigen::VectorXd& sparsity) {
    const double best = values.maxCoeff(), worst = values.minCoeff();
    const double best_g = (values - method.lambda * sparsity).maxCoeff();
    auto view = std::make_shared<const EnsemblePosteriorView>(std::move(posterior));
    switch (method.strategy) {
    case StrategyKind::Gpei:
    case StrategyKind::Saasbo:
    case StrategyKind::Bonsai: return std::make_unique<LogExpectedImprovement>(view, best);
    case StrategyKind::EiEr: return std::make_unique<EiExternalRegularization>(view, best, penalty, method.lambda);
    case StrategyKind::EiIr: return std::make_unique<EiInternalRegularization>(view, best_g, penalty, method.lambda);
    default: {
        // Reference point (documented in docs/method.md): 10% of the observed range (at least
        // 1) below the worst objective, and the penalty's largest value (D, or the number of
        // groups) — or max_active + 1, so that more than max_active changes add nothing.
        const double reference_f = reference_below(worst, best);
        const double reference_xi = method.max_active ? *method.max_active + 1.0 : penalty.max_value();
        std::vector<std::pair<double, double>> front;
        for (Eigen::Index i = 0; i < values.size(); ++i) front.emplace_back(values[i], sparsity[i]);
        return std::make_unique<SeboEhvi>(view, penalty, SparseEhviFront(front, reference_f, reference_xi));
    }
    }
}

// The same acquisitions integrated over the posterior at the measured configurations (issue 30,
// acquisition/noisy_acquisition.h): each component of `fantasies` against the incumbent or front
// of its own draw of the baseline. The reference point is today's rule over the posterior means
// at the baseline (the draws' average), not over the measurements.
std::unique_ptr<AcquisitionFunction> noisy_acquisition(const MethodSettings& method,
                                                       std::shared_ptr<const FantasyPosterior> fantasies,
                                                       const SparsityPenalty& penalty, const Eigen::VectorXd& sparsity) {
    const Eigen::MatrixXd& draws = fantasies->baseline_draws();  // m×T
    const Eigen::VectorXd means = draws.rowwise().mean();
    const Eigen::Index components = draws.cols();
    auto view = std::make_shared<const FantasyPosteriorView>(fantasies);
    switch (method.strategy) {
    case StrategyKind::Gpei:
    case StrategyKind::Saasbo:
    case StrategyKind::Bonsai:
        return std::make_unique<NoisyLogExpectedImprovement>(view, draws.colwise().maxCoeff().transpose());
    case StrategyKind::EiEr:
        return std::make_unique<NoisyEiExternalRegularization>(view, draws.colwise().maxCoeff().transpose(), penalty,
                                                               method.lambda);
    case StrategyKind::EiIr: {
        const Eigen::MatrixXd g = draws.colwise() - method.lambda * sparsity;
        return std::make_unique<NoisyEiInternalRegularization>(view, g.colwise().maxCoeff().transpose(), penalty, method.lambda);
    }
    default: {
        const double best = means.maxCoeff(), worst = means.minCoeff();
        const double reference_f = reference_below(worst, best);
        const double reference_xi = method.max_active ? *method.max_active + 1.0 : penalty.max_value();
        std::vector<SparseEhviFront> fronts;
        fronts.reserve(static_cast<std::size_t>(components));
        std::vector<std::pair<double, double>> front(static_cast<std::size_t>(draws.rows()));
        for (Eigen::Index t = 0; t < components; ++t) {
            for (Eigen::Index u = 0; u < draws.rows(); ++u) front[static_cast<std::size_t>(u)] = {draws(u, t), sparsity[u]};
            fronts.emplace_back(front, reference_f, reference_xi);
        }
        return std::make_unique<NoisySeboEhvi>(view, penalty, std::move(fronts));
    }
    }
}

}  // namespace

bool knows_a_relevant_parameter(const EnsemblePosterior& posterior) {
    if (posterior.size() < kCredibleRelevanceMembers) return true;
    std::vector<GpHyperparameters> members;
    members.reserve(static_cast<std::size_t>(posterior.size()));
    for (const GaussianProcess& member : posterior.members()) members.push_back(member.hyperparameters());
    const std::vector<ParameterRelevance> relevance = parameter_relevance(members, 0.1, 0.9);
    return std::any_of(relevance.begin(), relevance.end(), [](const ParameterRelevance& r) { return r.low >= kCredibleRelevance; });
}

bool in_dense_start(const Experiment& experiment, const MethodSettings& method, const EnsemblePosterior* posterior) {
    if (!is_sebo(method.strategy) || method.dense_steps <= 0 || method.max_active) return false;
    const std::size_t trials = experiment.trials.size(), initial = static_cast<std::size_t>(method.initial_trials);
    if (trials < initial + static_cast<std::size_t>(method.dense_steps)) return true;
    return posterior && trials < initial + static_cast<std::size_t>(method.dense_steps_max) && !knows_a_relevant_parameter(*posterior);
}

DenseStart dense_start(const Experiment& experiment, const MethodSettings& method, const EnsemblePosterior* posterior) {
    if (!in_dense_start(experiment, method, posterior)) return DenseStart::Off;
    if (!method.dense_thompson) return DenseStart::ExpectedImprovement;
    // The measured values, as utilities (larger is better), of the completed trials counted in the
    // analysis: the initial design's quasi-random ones, and the dense start's by the noisy EI.
    const Objective& objective = experiment.outcomes.objectives.front();
    const std::string ei_generator = dense_start_generator(method.strategy, DenseStart::ExpectedImprovement);
    std::vector<double> design, ei;
    for (const Trial& t : experiment.trials) {
        if (t.status != TrialStatus::Completed || t.exclusion) continue;
        const auto value = t.values.find(objective.metric);
        if (value == t.values.end()) continue;
        if (t.generator == "sobol") design.push_back(objective.to_utility(value->second.mean));
        if (t.generator == ei_generator) ei.push_back(objective.to_utility(value->second.mean));
    }
    if (static_cast<int>(ei.size()) < kDenseJudgeAfter || design.size() < 2) return DenseStart::ExpectedImprovement;
    return quantile(ei, 0.5) > quantile(design, 0.5) ? DenseStart::ExpectedImprovement : DenseStart::Thompson;
}

std::string dense_start_generator(StrategyKind strategy, DenseStart kind) {
    return std::string(to_string(strategy)) + (kind == DenseStart::Thompson ? " (dense start, Thompson)" : " (dense start)");
}

AcquisitionProblem make_acquisition_problem(const SearchSpace& space, const MethodSettings& method,
                                            std::shared_ptr<const EnsemblePosterior> posterior,
                                            const SparsityPenalty& penalty, std::uint64_t seed, DenseStart dense) {
    const bool dense_start = dense != DenseStart::Off;
    const TrainingData& data = posterior->data();
    AcquisitionProblem problem;
    // The points the incumbents and the front are made of, with their values (standardized): the
    // posterior's data rows (observations, then fantasies) as measured; with the noisy acquisition
    // the distinct configurations, valued by the posterior mean.
    Eigen::MatrixXd points = data.inputs;
    Eigen::VectorXd values = data.targets;
    if (uses_noisy_acquisition(method, std::span(&posterior, 1))) {
        FantasyOptions options;
        options.draws_per_member = noisy_draws_per_member(method, posterior->size());
        options.seed = seed ^ 0x6E6F69737944ull;  // "noisyD": independent of the raw samples' seed
        auto fantasies = std::make_shared<const FantasyPosterior>(posterior, options);
        points = fantasies->baseline();
        values = fantasies->baseline_draws().rowwise().mean();
        Eigen::VectorXd sparsity(points.rows());
        for (Eigen::Index u = 0; u < points.rows(); ++u) sparsity[u] = penalty.exact(points.row(u).transpose());
        // The dense start (docs/method.md §13): under noise a sparse change's effect near the
        // status quo is below the noise and teaches the model nothing, so the first steps measure
        // what SAASBO would, from the same posterior.
        MethodSettings step_method = method;
        if (dense_start) step_method.strategy = StrategyKind::Saasbo;
        problem.acquisition = noisy_acquisition(step_method, std::move(fantasies), penalty, sparsity);
        problem.noisy = true;
        problem.dense = dense_start;
        problem.thompson = dense == DenseStart::Thompson;
    } else {
        Eigen::VectorXd sparsity(points.rows());
        for (Eigen::Index i = 0; i < points.rows(); ++i) sparsity[i] = penalty.exact(points.row(i).transpose());
        problem.acquisition = measured_acquisition(method, std::move(posterior), penalty, values, sparsity);
    }

    // Anchors for the raw samples: every non-dominated point and the five best.
    const Eigen::Index rows = points.rows();
    std::vector<std::pair<double, double>> front;
    for (Eigen::Index i = 0; i < rows; ++i) front.emplace_back(values[i], penalty.exact(points.row(i).transpose()));
    std::vector<std::pair<double, int>> by_value;
    for (Eigen::Index i = 0; i < rows; ++i) by_value.emplace_back(values[i], static_cast<int>(i));
    std::sort(by_value.rbegin(), by_value.rend());
    std::vector<Eigen::VectorXd> anchors;
    for (std::size_t j = 0; j < by_value.size() && j < 5; ++j) anchors.push_back(points.row(by_value[j].second).transpose());
    // Thompson sampling's candidates: Sobol points and perturbations of the five best, dense moves
    // only (the sparse ones would pull the choice to the status quo, whose draw is as good as any
    // where the model knows nothing).
    if (problem.thompson) {
        problem.raw_samples = raw_samples(space, anchors, method.raw_samples, seed, false);
        return problem;
    }
    for (Eigen::Index i = 0; i < rows; ++i) {
        bool dominated = false;
        for (Eigen::Index j = 0; j < rows && !dominated; ++j)
            dominated = front[static_cast<std::size_t>(j)].first >= front[static_cast<std::size_t>(i)].first &&
                        front[static_cast<std::size_t>(j)].second <= front[static_cast<std::size_t>(i)].second &&
                        front[static_cast<std::size_t>(j)] != front[static_cast<std::size_t>(i)];
        if (!dominated) anchors.push_back(points.row(i).transpose());
    }
    problem.raw_samples = raw_samples(space, anchors, method.raw_samples, seed);
    return problem;
}

}  // namespace sebo
