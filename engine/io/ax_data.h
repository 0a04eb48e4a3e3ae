#pragma once
// An Ax experiment's measurements: "data_by_trial" as ax/storage/utils.py (data_to_data_by_trial)
// writes it, {trial index: OrderedDict [[time, Data {df: DataFrame}], ...]}, each DataFrame with
// one row per arm and metric (arm_name, metric_name, mean, sem; "step" or another map key for
// progression data). Internal to the Ax importer (io/import_ax.h).

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/ax_json.h"

namespace sebo::ax {

// One metric's value for one arm: the last one Ax fetched (for progression data, the last step).
struct Observation {
    double mean = 0.0;         // NaN when Ax recorded none (null or NaN)
    std::optional<double> sem;  // unset when unknown (null or NaN: Ax infers the noise)
    std::optional<double> step;
    std::string path;  // of the DataFrame it came from, for messages
};

// Trial index -> (arm name, metric name) -> observation.
using ArmMetric = std::pair<std::string, std::string>;
using TrialData = std::map<int, std::map<ArmMetric, Observation>>;

// Throws InputError naming the DataFrame and row of a bad value (a negative or infinite sem, a
// mean that is not a number). `warnings` gets one line when progression data are reduced to
// their last step.
TrialData read_trial_data(const Document& experiment, const std::string& path, std::vector<std::string>& warnings);

}  // namespace sebo::ax
