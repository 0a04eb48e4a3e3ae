#include "experiment/recommendations.h"

#include <algorithm>
#include <array>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <limits>

#include "acquisition/feasibility.h"
#include "acquisition/gaussian.h"
#include "experiment/replicates.h"
#include "experiment/simplify.h"
#include "model/credible_interval.h"
#include "model/noise_level.h"
#include "pareto/dominance.h"

namespace sebo {

namespace {

constexpr int kMeanPoints = 64;
constexpr double kLowerProbability = 0.025, kUpperProbability = 0.975;

double normal_quantile(double p) { return boost::math::quantile(boost::math::normal_distribution<double>(), p); }

const std::array<double, kMeanPoints>& midpoint_quantiles() {
    static const std::array<double, kMeanPoints> q = [] {
        std::array<double, kMeanPoints> out{};
        for (int k = 0; k < kMeanPoints; ++k) out[static_cast<std::size_t>(k)] = normal_quantile((k + 0.5) / kMeanPoints);
        return out;
    }();
    return q;
}

// One modelled metric: its training set (the maps back to user units) and its posterior.
struct MetricModel {
    std::string metric;
    const TrainingSet* training = nullptr;
    std::shared_ptr<const EnsemblePosterior> posterior;
    const Objective* objective = nullptr;  // when the metric is an objective
};

// The model's z back in the metric's own units and sign.
double to_user(const MetricModel& m, double z) {
    const TrainingSet& t = *m.training;
    const double warped = t.standardizer.mean() + t.standardizer.scale() * z;
    const double spread = std::max(t.utility.maxCoeff() - t.utility.minCoeff(), 1e-12);
    const double centre = 0.5 * (t.utility.maxCoeff() + t.utility.minCoeff());
    const double u = t.warp.inverse(warped, centre, spread) / t.utility_scale;
    return m.objective ? m.objective->from_utility(u) : u;
}

MetricEstimate estimate(const MetricModel& m, const Eigen::VectorXd& mean, const Eigen::VectorXd& var) {
    MetricEstimate e;
    double total = 0.0;
    for (Eigen::Index s = 0; s < mean.size(); ++s) {
        const double sd = std::sqrt(std::max(var[s], 0.0));
        for (double q : midpoint_quantiles()) total += to_user(m, mean[s] + sd * q);
    }
    e.mean = total / static_cast<double>(mean.size() * kMeanPoints);
    const double a = to_user(m, mixture_quantile(mean, var, kLowerProbability));
    const double b = to_user(m, mixture_quantile(mean, var, kUpperProbability));
    e.lower = std::min(a, b);
    e.upper = std::max(a, b);
    return e;
}

// P(z at row 0 > z at row 1) under each member's joint posterior, averaged over the members.
double probability_above(const EnsemblePosterior& posterior, const Eigen::VectorXd& x, const Eigen::VectorXd& reference) {
    Eigen::MatrixXd points(2, x.size());
    points.row(0) = x.transpose();
    points.row(1) = reference.transpose();
    const EnsembleMoments moments = posterior.predict(points);
    const std::vector<Eigen::MatrixXd> covariances = posterior.covariances(points);
    double total = 0.0;
    for (int s = 0; s < posterior.size(); ++s) {
        const Eigen::MatrixXd& c = covariances[static_cast<std::size_t>(s)];
        const double difference = moments.mean(0, s) - moments.mean(1, s);
        const double variance = c(0, 0) + c(1, 1) - 2.0 * c(0, 1);
        total += variance > 1e-300 ? normal_cdf(difference / std::sqrt(variance)) : (difference > 0.0 ? 1.0 : 0.0);
    }
    return total / static_cast<double>(posterior.size());
}

Eigen::VectorXd unit_point(const SearchSpace& space, const std::vector<double>& values) {
    const std::vector<double> unit = space.to_unit(values);
    return Eigen::Map<const Eigen::VectorXd>(unit.data(), static_cast<Eigen::Index>(unit.size()));
}

}  // namespace

bool RecommendationReport::noisy_objective(const Experiment& experiment) const {
    for (const Objective& o : experiment.outcomes.objectives)
        if (std::find(noisy_metrics.begin(), noisy_metrics.end(), o.metric) != noisy_metrics.end()) return true;
    return false;
}

const ConfigurationEstimate* RecommendationReport::find(int trial) const {
    for (const ConfigurationEstimate& c : configurations)
        if (std::find(c.trials.begin(), c.trials.end(), trial) != c.trials.end()) return &c;
    return nullptr;
}

RecommendationReport recommend_configurations(const Experiment& experiment, const StepControl& control) {
    RecommendationReport report;
    const SimplifyModelFit fit = fit_simplify_model(experiment, control);
    if (fit.status != SimplifyModelFit::Status::Ok) {
        report.status = fit.status == SimplifyModelFit::Status::Cancelled ? RecommendationReport::Status::Cancelled
                                                                          : RecommendationReport::Status::Failed;
        report.message = fit.message;
        return report;
    }
    const SimplifyModel& model = *fit.model;
    const Outcomes& outcomes = experiment.outcomes;

    std::vector<MetricModel> metrics;
    if (model.posteriors.empty()) {
        metrics.push_back({experiment.primary_objective().metric, &model.training, model.posterior, &experiment.primary_objective()});
    } else {
        for (std::size_t j = 0; j < model.metrics.metrics.size(); ++j) {
            const std::string& name = model.metrics.metrics[j];
            metrics.push_back({name, &model.metrics.sets[j], model.posteriors[j], outcomes.objective_on(name)});
        }
    }
    for (const MetricModel& m : metrics) {
        bool noisy = !noise_negligible(*m.posterior);
        for (const Trial& t : experiment.trials)
            if (experiment.analyzed(t))
                if (const Measurement* measured = t.measurement(m.metric); measured && measured->sem) noisy = true;
        if (noisy) report.noisy_metrics.push_back(m.metric);
    }

    const std::vector<Replicates> groups = analyzed_replicates(experiment);
    std::optional<Eigen::VectorXd> status_quo_point;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (control.cancelled()) {
            report.status = RecommendationReport::Status::Cancelled;
            return report;
        }
        const Trial& first = *experiment.find_trial(groups[g].trials.front());
        ConfigurationEstimate c;
        c.trials = groups[g].trials;
        c.sparsity = experiment.sparsity(first);
        if (c.sparsity == 0 && !report.status_quo) {
            report.status_quo = g;
            status_quo_point = unit_point(experiment.space, first.parameters);
        }
        const Eigen::VectorXd x = unit_point(experiment.space, first.parameters);
        std::vector<MixtureMoments> constrained;
        for (const MetricModel& m : metrics) {
            const EnsembleMoments moments = m.posterior->predict(x.transpose());
            const Eigen::VectorXd mean = moments.mean.row(0).transpose(), var = moments.variance.row(0).transpose();
            c.estimates[m.metric] = estimate(m, mean, var);
        }
        if (model.units && !model.units->constrained.empty()) {
            for (int j : model.units->constrained) {
                const EnsembleMoments moments = model.posteriors[static_cast<std::size_t>(j)]->predict(x.transpose());
                constrained.push_back({moments.mean.row(0).transpose(), moments.variance.row(0).transpose()});
            }
            const FeasibilityProbability pof(model.units->bounds, static_cast<int>(constrained.size()));
            c.p_feasible = std::exp(pof.log_value(constrained, nullptr));
        }
        report.configurations.push_back(std::move(c));
    }
    if (status_quo_point)
        for (std::size_t g = 0; g < report.configurations.size(); ++g) {
            if (g == *report.status_quo) continue;
            const Trial& first = *experiment.find_trial(report.configurations[g].trial());
            const Eigen::VectorXd x = unit_point(experiment.space, first.parameters);
            for (const MetricModel& m : metrics)
                if (m.objective)
                    report.configurations[g].p_better_than_status_quo[m.metric] =
                        probability_above(*m.posterior, x, *status_quo_point);
        }

    // The levels: per k, the best (one objective) or non-dominated (several) posterior means among
    // the configurations with at most k changes that are likely feasible.
    const auto& objectives = outcomes.objectives;
    const auto utility_of = [&](const ConfigurationEstimate& c, std::size_t d) {
        return objectives[d].to_utility(c.estimates.at(objectives[d].metric).mean);
    };
    for (int k = 0; k <= experiment.max_sparsity(); ++k) {
        std::vector<std::size_t> eligible;
        for (std::size_t g = 0; g < report.configurations.size(); ++g) {
            const ConfigurationEstimate& c = report.configurations[g];
            if (c.sparsity <= k && (!c.p_feasible || *c.p_feasible >= 0.5)) eligible.push_back(g);
        }
        if (eligible.empty()) continue;
        RecommendationReport::Level level;
        level.k = k;
        if (objectives.size() == 1) {
            level.recommended.push_back(*std::max_element(eligible.begin(), eligible.end(), [&](std::size_t a, std::size_t b) {
                return utility_of(report.configurations[a], 0) < utility_of(report.configurations[b], 0);
            }));
        } else {
            std::vector<std::vector<double>> points;
            for (std::size_t g : eligible) {
                std::vector<double> p;
                for (std::size_t d = 0; d < objectives.size(); ++d) p.push_back(utility_of(report.configurations[g], d));
                points.push_back(std::move(p));
            }
            for (std::size_t i : non_dominated_positions(points)) level.recommended.push_back(eligible[i]);
            std::stable_sort(level.recommended.begin(), level.recommended.end(), [&](std::size_t a, std::size_t b) {
                return utility_of(report.configurations[a], 0) > utility_of(report.configurations[b], 0);
            });
        }
        report.levels.push_back(std::move(level));
    }
    report.status = RecommendationReport::Status::Ok;
    return report;
}

}  // namespace sebo
