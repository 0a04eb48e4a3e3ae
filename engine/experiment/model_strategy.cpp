#include "experiment/model_strategy.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "acquisition/acquisition.h"
#include "design/sobol.h"
#include "experiment/sobol_strategy.h"
#include "model/power_transform.h"
#include "model/standardizer.h"
#include "model/surrogate.h"
#include "optimize/homotopy.h"

namespace sebo {

namespace {

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
    std::uint64_t z = a + 0x9E3779B97F4A7C15ull * (b + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

Eigen::VectorXd to_unit_vector(const SearchSpace& space, const std::vector<double>& values) {
    const auto unit = space.to_unit(values);
    return Eigen::Map<const Eigen::VectorXd>(unit.data(), static_cast<Eigen::Index>(unit.size()));
}

// Completed trials in the unit cube with their utilities (maximization form).
struct Observations {
    std::vector<Eigen::VectorXd> x;
    std::vector<double> utility;
    std::vector<double> sem;  // empty unless every completed trial reported one
};

Observations completed_observations(const Experiment& e) {
    Observations obs;
    bool all_sem = true;
    for (const Trial& t : e.trials) {
        const auto u = e.utility(t);
        if (!u) continue;
        obs.x.push_back(to_unit_vector(e.space, t.parameters));
        obs.utility.push_back(*u);
        if (t.sem) obs.sem.push_back(*t.sem);
        else all_sem = false;
    }
    if (!all_sem) obs.sem.clear();
    return obs;
}

SparsityPenalty make_penalty(const SearchSpace& space, PenaltyKind kind) {
    std::vector<int> group_of(static_cast<std::size_t>(space.dimension()));
    for (int i = 0; i < space.dimension(); ++i) group_of[static_cast<std::size_t>(i)] = space.group_of(i);
    const auto t = space.target_unit();
    return SparsityPenalty(kind, Eigen::Map<const Eigen::VectorXd>(t.data(), static_cast<Eigen::Index>(t.size())),
                           std::move(group_of), space.group_count());
}

CandidateTransforms make_transforms(const SearchSpace& space) {
    const auto t = space.target_unit();
    const Eigen::VectorXd target = Eigen::Map<const Eigen::VectorXd>(t.data(), static_cast<Eigen::Index>(t.size()));
    CandidateTransforms transforms;
    transforms.snap = [target](const Eigen::VectorXd& u) {
        Eigen::VectorXd out = u;
        for (Eigen::Index i = 0; i < u.size(); ++i)
            if (std::abs(u[i] - target[i]) <= SearchSpace::kDefaultSnapTolerance) out[i] = target[i];
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

// Screening points (paper appendix E; SPEC §9): Sobol points; Sobol points with a random share
// of coordinates set to the target; and around good configurations (the frontier and the best
// few), Gaussian perturbations of their active coordinates and copies with a few active
// coordinates switched off — the moves that discover sparser configurations.
std::vector<Eigen::VectorXd> raw_samples(const SearchSpace& space, const std::vector<Eigen::VectorXd>& anchors, int count,
                                         std::uint64_t seed) {
    const int d = space.dimension();
    const auto t = space.target_unit();
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<Eigen::VectorXd> out;
    const auto sobol = ScrambledSobol(d, seed).points(0, count);
    for (const auto& p : sobol) out.push_back(Eigen::Map<const Eigen::VectorXd>(p.data(), d));
    for (int k = 0; k < count / 4; ++k) {
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
    return out;
}

SurrogateOptions surrogate_options(const MethodSettings& m) {
    SurrogateOptions o;
    switch (m.resolved_model()) {
    case ModelKind::Gp: o.kind = SurrogateKind::Gp; break;
    case ModelKind::SaasNuts: o.kind = SurrogateKind::SaasNuts; break;
    case ModelKind::SaasMap: o.kind = SurrogateKind::SaasMap; break;
    }
    o.saas_nuts.nuts.warmup = m.nuts_warmup;
    o.saas_nuts.nuts.samples = m.nuts_samples;
    o.saas_nuts.nuts.thinning = m.nuts_thinning;
    o.saas_nuts.nuts.max_tree_depth = m.nuts_max_tree_depth;
    return o;
}

AcquisitionOptimizerOptions optimizer_options(const MethodSettings& m) {
    AcquisitionOptimizerOptions o;
    o.raw_samples = m.raw_samples;
    o.restarts = m.restarts;
    o.homotopy.a_start = m.homotopy_a_start;
    o.homotopy.a_end = m.homotopy_a_end;
    o.homotopy.steps = m.homotopy_steps;
    if (m.strategy == StrategyKind::SeboL0FixedA) o.homotopy.fixed_a = m.fixed_a;
    return o;
}

}  // namespace

ModelStrategy::ModelStrategy(MethodSettings settings) : settings_(std::move(settings)) {}

Proposal ModelStrategy::propose(const Experiment& experiment, int count, const StepControl& control) {
    Proposal proposal;
    const SearchSpace& space = experiment.space;
    const Observations obs = completed_observations(experiment);
    // The initial design — and, when fewer than two trials have completed (all failed, say),
    // quasi-random points until a model can be fitted.
    if (static_cast<int>(experiment.trials.size()) < settings_.initial_trials || obs.x.size() < 2) {
        control.report({"generating initial design", 0, 0, {}});
        proposal.generator = "sobol";
        proposal.points = next_sobol_points(experiment, count);
        return proposal;
    }
    proposal.generator = to_string(settings_.strategy);
    const int d = space.dimension();
    const auto n = static_cast<Eigen::Index>(obs.x.size());
    const std::uint64_t step_seed = mix(experiment.seed, experiment.trials.size());

    Eigen::VectorXd y(n);
    for (Eigen::Index i = 0; i < n; ++i) y[i] = obs.utility[static_cast<std::size_t>(i)];
    const PowerTransform warp = settings_.warp_objective ? PowerTransform(y) : PowerTransform();
    const Eigen::VectorXd warped = warp.apply(y);
    const Standardizer standardizer(warped);
    auto data = std::make_shared<TrainingData>();
    data->inputs.resize(n, d);
    for (Eigen::Index i = 0; i < n; ++i) data->inputs.row(i) = obs.x[static_cast<std::size_t>(i)].transpose();
    data->targets = standardizer.transform(warped);
    if (!obs.sem.empty()) {
        data->noise_variances.resize(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            // Delta method: the standard error scales with the transform's slope.
            const double s = obs.sem[static_cast<std::size_t>(i)] * warp.derivative(y[i]) / standardizer.scale();
            data->noise_variances[i] = std::max(s * s, 1e-8);
        }
    }

    control.report({"fitting model", 0, 0, to_string(settings_.resolved_model())});
    const SurrogateOptions model_options = surrogate_options(settings_);
    const SurrogateFit fit = fit_surrogate(
        data, model_options, mix(step_seed, 1),
        [&](int i, int total) { control.report({"fitting model", i, total, to_string(settings_.resolved_model())}); },
        control.stop);
    if (fit.status == SurrogateFit::Status::Cancelled || control.cancelled()) {
        proposal.status = Proposal::Status::Cancelled;
        return proposal;
    }
    if (fit.status == SurrogateFit::Status::Failed) {
        proposal.status = Proposal::Status::Failed;
        proposal.message = "model fit failed: " + fit.message;
        return proposal;
    }

    const PenaltyKind penalty_kind = settings_.resolved_penalty();
    const SparsityPenalty penalty = make_penalty(space, penalty_kind);
    CandidateTransforms transforms = make_transforms(space);
    std::vector<Eigen::VectorXd> known;
    for (const Trial& t : experiment.trials)
        if (t.status == TrialStatus::Completed || t.status == TrialStatus::Pending) known.push_back(to_unit_vector(space, t.parameters));
    transforms.is_known = [&known](const Eigen::VectorXd& x) {
        return std::any_of(known.begin(), known.end(), [&](const Eigen::VectorXd& k) { return (k - x).lpNorm<Eigen::Infinity>() <= 1e-12; });
    };
    const AcquisitionOptimizerOptions optimizer = optimizer_options(settings_);

    // Data with fantasies: pending trials first, then this batch's earlier candidates.
    auto augmented = std::make_shared<TrainingData>(*data);
    std::shared_ptr<const EnsemblePosterior> posterior = fit.posterior;
    auto add_fantasy = [&](const Eigen::VectorXd& x) {
        const PosteriorMoments m = posterior->mixture(x.transpose());
        const Eigen::Index rows = augmented->inputs.rows();
        augmented->inputs.conservativeResize(rows + 1, Eigen::NoChange);
        augmented->inputs.row(rows) = x.transpose();
        augmented->targets.conservativeResize(rows + 1);
        augmented->targets[rows] = m.mean[0];
        if (augmented->noise_variances.size() > 0) {
            augmented->noise_variances.conservativeResize(rows + 1);
            augmented->noise_variances[rows] = 1e-6;
        }
        posterior = std::make_shared<const EnsemblePosterior>(augmented, fit.samples);
    };
    for (const Trial& t : experiment.trials)
        if (t.status == TrialStatus::Pending) add_fantasy(to_unit_vector(space, t.parameters));

    for (int k = 0; k < count; ++k) {
        const Eigen::Index rows = augmented->inputs.rows();
        // The front and incumbents over observations and fantasies (standardized units).
        std::vector<std::pair<double, double>> front;
        double best = -std::numeric_limits<double>::infinity(), worst = std::numeric_limits<double>::infinity();
        double best_g = -std::numeric_limits<double>::infinity();
        for (Eigen::Index i = 0; i < rows; ++i) {
            const Eigen::VectorXd xi = augmented->inputs.row(i).transpose();
            const double f = augmented->targets[i], sparsity = penalty.exact(xi);
            front.emplace_back(f, sparsity);
            best = std::max(best, f);
            worst = std::min(worst, f);
            best_g = std::max(best_g, f - settings_.lambda * sparsity);
        }
        auto view = std::make_shared<const EnsemblePosteriorView>(posterior);
        std::unique_ptr<AcquisitionFunction> acquisition;
        switch (settings_.strategy) {
        case StrategyKind::Gpei:
        case StrategyKind::Saasbo: acquisition = std::make_unique<LogExpectedImprovement>(view, best); break;
        case StrategyKind::EiEr:
            acquisition = std::make_unique<EiExternalRegularization>(view, best, penalty, settings_.lambda);
            break;
        case StrategyKind::EiIr:
            acquisition = std::make_unique<EiInternalRegularization>(view, best_g, penalty, settings_.lambda);
            break;
        default: {
            // Reference point (documented in docs/method.md): 10% of the observed range below
            // the worst objective, and the penalty's largest value (D, or the number of groups).
            const double reference_f = worst - 0.1 * std::max(best - worst, 1e-6);
            acquisition = std::make_unique<SeboEhvi>(view, penalty, SparseEhviFront(front, reference_f, penalty.max_value()));
        }
        }

        // Anchors for the raw samples: every non-dominated observation and the five best.
        std::vector<std::pair<double, int>> by_value;
        for (Eigen::Index i = 0; i < rows; ++i) by_value.emplace_back(augmented->targets[i], static_cast<int>(i));
        std::sort(by_value.rbegin(), by_value.rend());
        std::vector<Eigen::VectorXd> anchors;
        for (std::size_t j = 0; j < by_value.size() && j < 5; ++j)
            anchors.push_back(augmented->inputs.row(by_value[j].second).transpose());
        for (Eigen::Index i = 0; i < rows; ++i) {
            bool dominated = false;
            for (Eigen::Index j = 0; j < rows && !dominated; ++j)
                dominated = front[static_cast<std::size_t>(j)].first >= front[static_cast<std::size_t>(i)].first &&
                            front[static_cast<std::size_t>(j)].second <= front[static_cast<std::size_t>(i)].second &&
                            front[static_cast<std::size_t>(j)] != front[static_cast<std::size_t>(i)];
            if (!dominated) anchors.push_back(augmented->inputs.row(i).transpose());
        }
        const auto raw = raw_samples(space, anchors, settings_.raw_samples, mix(step_seed, 100 + static_cast<std::uint64_t>(k)));

        const OptimizedCandidate candidate = optimize_acquisition(*acquisition, raw, transforms, optimizer, control);
        if (candidate.status == OptimizedCandidate::Status::Cancelled || control.cancelled()) {
            proposal.status = Proposal::Status::Cancelled;
            proposal.points.clear();
            return proposal;
        }
        proposal.points.push_back(
            space.snap(space.from_unit(std::vector<double>(candidate.x.data(), candidate.x.data() + candidate.x.size()))));
        known.push_back(candidate.x);
        if (k + 1 < count) add_fantasy(candidate.x);
    }
    proposal.message = "model fit " + std::to_string(fit.seconds) + " s";
    return proposal;
}

}  // namespace sebo
