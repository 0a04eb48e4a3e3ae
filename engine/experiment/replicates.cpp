#include "experiment/replicates.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/input_error.h"

namespace sebo {

std::vector<Replicates> analyzed_replicates(const Experiment& experiment) {
    std::vector<Replicates> groups;
    std::map<std::vector<double>, std::size_t> group_of;
    for (const Trial& t : experiment.trials) {
        if (!experiment.analyzed(t)) continue;
        const auto [it, added] = group_of.emplace(t.parameters, groups.size());
        if (added) groups.emplace_back();
        groups[it->second].trials.push_back(t.index);
    }
    return groups;
}

MergedMeasurement merged_measurement(const Experiment& experiment, const std::vector<int>& trials, const std::string& metric) {
    MergedMeasurement merged;
    double sum = 0.0, squares_of_sem = 0.0;
    bool every_sem = true;
    std::vector<double> values;
    for (int index : trials) {
        const Trial* t = experiment.find_trial(index);
        const Measurement* m = t ? t->measurement(metric) : nullptr;
        if (!m) continue;
        values.push_back(m->mean);
        sum += m->mean;
        if (m->sem)
            squares_of_sem += *m->sem * *m->sem;
        else
            every_sem = false;
    }
    merged.count = static_cast<int>(values.size());
    if (values.empty()) return merged;
    const double n = static_cast<double>(values.size());
    merged.mean = sum / n;
    if (every_sem) {
        merged.sem = std::sqrt(squares_of_sem) / n;
    } else if (values.size() >= 2) {
        double squares = 0.0;
        for (double v : values) squares += (v - merged.mean) * (v - merged.mean);
        merged.sem = std::sqrt(squares / (n - 1.0)) / std::sqrt(n);
    }
    return merged;
}

Trial merged_trial(const Experiment& experiment, const std::vector<int>& trials) {
    Trial out = *experiment.find_trial(trials.front());
    for (auto& [metric, measurement] : out.values) {
        const MergedMeasurement m = merged_measurement(experiment, trials, metric);
        measurement = Measurement{m.mean, m.sem};
    }
    return out;
}

bool has_replicates(const Experiment& experiment) {
    for (const Replicates& group : analyzed_replicates(experiment))
        if (group.trials.size() > 1) return true;
    return false;
}

std::vector<std::vector<double>> replicate_points(const Experiment& experiment, const std::vector<int>& trials, int repeats) {
    if (repeats < 1 || repeats > 1000) throw InputError("repeats", std::to_string(repeats) + " is outside [1, 1000]");
    if (trials.empty()) throw InputError("trials", "no trial to confirm");
    std::vector<int> seen;
    std::vector<std::vector<double>> points;
    for (int index : trials) {
        if (std::find(seen.begin(), seen.end(), index) != seen.end()) continue;
        seen.push_back(index);
        const Trial* t = experiment.find_trial(index);
        const std::string field = "trials[" + std::to_string(index) + "]";
        if (!t) throw InputError(field, "trial " + std::to_string(index) + " does not exist");
        if (t->status != TrialStatus::Completed)
            throw InputError(field, "trial " + std::to_string(index) + " is " + to_string(t->status) +
                                        "; only a measured configuration can be confirmed");
        if (const auto problem = experiment.space.check_point(t->parameters))
            throw InputError(field, "trial " + std::to_string(index) + " is not a configuration of the space: " + *problem);
        for (int r = 0; r < repeats; ++r) points.push_back(t->parameters);
    }
    return points;
}

}  // namespace sebo
