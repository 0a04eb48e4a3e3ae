#include "cli/recommendation_output.h"

#include <algorithm>

#include "core/format.h"

namespace sebo::cli {

namespace {

using Json = nlohmann::ordered_json;

const RecommendationReport::Level* level_at(const RecommendationReport& report, int k) {
    for (const RecommendationReport::Level& level : report.levels)
        if (level.k == k) return &level;
    return nullptr;
}

Json one_recommendation(const Experiment& e, const ConfigurationEstimate& c) {
    const auto& objectives = e.outcomes.objectives;
    Json out = Json{{"trial", c.trial()}};
    if (c.trials.size() > 1) out["replicates"] = c.trials;
    out["active"] = c.sparsity;
    if (objectives.size() == 1) {
        const MetricEstimate& m = c.estimates.at(objectives.front().metric);
        out["mean"] = m.mean;
        out["lower"] = m.lower;
        out["upper"] = m.upper;
        const auto p = c.p_better_than_status_quo.find(objectives.front().metric);
        out["p_better_than_status_quo"] = p == c.p_better_than_status_quo.end() ? Json(nullptr) : Json(p->second);
    } else {
        Json mean = Json::object(), lower = Json::object(), upper = Json::object(), better = Json::object();
        for (const Objective& o : objectives) {
            const MetricEstimate& m = c.estimates.at(o.metric);
            mean[o.metric] = m.mean;
            lower[o.metric] = m.lower;
            upper[o.metric] = m.upper;
            const auto p = c.p_better_than_status_quo.find(o.metric);
            better[o.metric] = p == c.p_better_than_status_quo.end() ? Json(nullptr) : Json(p->second);
        }
        out["mean"] = std::move(mean);
        out["lower"] = std::move(lower);
        out["upper"] = std::move(upper);
        out["p_better_than_status_quo"] = std::move(better);
    }
    if (c.p_feasible) out["p_feasible"] = *c.p_feasible;
    return out;
}

}  // namespace

Json recommended_json(const Experiment& experiment, const RecommendationReport& report, int k) {
    const RecommendationReport::Level* level = level_at(report, k);
    if (!level || level->recommended.empty()) return nullptr;
    if (experiment.outcomes.objectives.size() == 1)
        return one_recommendation(experiment, report.configurations[level->recommended.front()]);
    Json list = Json::array();
    for (std::size_t g : level->recommended) list.push_back(one_recommendation(experiment, report.configurations[g]));
    return list;
}

std::string recommendations_text(const Experiment& experiment, const RecommendationReport& report) {
    const auto& objectives = experiment.outcomes.objectives;
    std::string text = report.noisy_objective(experiment)
                           ? "The measurements are noisy: the model's recommendation per number of changes (posterior mean\n"
                             "and 95 % credible interval of the noise-free value"
                           : "The model's recommendation per number of changes (posterior mean and 95 % credible interval";
    text += report.status_quo ? "; P: the probability that it beats the status quo):\n" : "):\n";
    std::vector<std::size_t> previous;
    for (const RecommendationReport::Level& level : report.levels) {
        if (level.recommended == previous) continue;  // the levels where it changes
        previous = level.recommended;
        bool first = true;
        for (std::size_t g : level.recommended) {
            const ConfigurationEstimate& c = report.configurations[g];
            std::string line = first ? "  at most " + std::to_string(level.k) + ": " : "  " + std::string(10 + std::to_string(level.k).size(), ' ');
            first = false;
            line += "trial " + std::to_string(c.trial());
            if (c.trials.size() > 1) line += " (" + std::to_string(c.trials.size()) + " measurements)";
            for (const Objective& o : objectives) {
                const MetricEstimate& m = c.estimates.at(o.metric);
                line += ", " + o.metric + " " + format_short(m.mean) + " [" + format_short(m.lower) + ", " + format_short(m.upper) + "]";
                if (const auto p = c.p_better_than_status_quo.find(o.metric); p != c.p_better_than_status_quo.end())
                    line += " P " + format_short(p->second, 2);
            }
            if (c.p_feasible) line += ", P(feasible) " + format_short(*c.p_feasible, 2);
            text += line + "\n";
        }
    }
    if (!report.noisy_metrics.empty()) {
        std::string names;
        for (const std::string& m : report.noisy_metrics) names += (names.empty() ? "" : ", ") + m;
        text += "noisy metrics: " + names + " (a standard error was reported, or the model infers noise of at least 5 % of "
                "the metric's spread)\n";
    }
    return text;
}

}  // namespace sebo::cli
