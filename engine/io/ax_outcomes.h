#pragma once
// What an Ax experiment optimizes (its optimization config and tracking metrics, as
// ax/storage/json_store/encoders.py writes them) as SEBO's metrics, objectives and outcome
// constraints. Internal to the Ax importer (io/import_ax.h); docs/file-format.md, "Imports":
//
//   Objective {metric, minimize} (Ax <= 1.2) or {expression: "acc" | "-loss" | "acc, -loss"} (1.3)
//   MultiObjective {objectives}          one objective each, thresholds from objective_thresholds
//   OutcomeConstraint {metric, op, bound} metric <= bound or >= bound
//   tracking_metrics                     tracked metrics
//
// A weighted sum of metrics (ScalarizedObjective, a scalarized expression or constraint) and
// preference-learning configs are refused. A bound relative to the status quo (relative: true,
// a percentage) becomes absolute once the status quo's measured value is known (import_ax.cpp).

#include <cstddef>
#include <string>
#include <vector>

#include "experiment/outcomes.h"
#include "io/ax_json.h"

namespace sebo::ax {

// A threshold or constraint bound that Ax states in percent of the status quo's value.
struct RelativeBound {
    bool threshold = false;  // objective threshold (index into objectives) or outcome constraint
    std::size_t index = 0;
    double percent = 0.0;
    std::string path;  // of the element in the snapshot
};

struct AxOutcomes {
    Outcomes outcomes;  // relative bounds hold their percentage until resolved
    std::vector<RelativeBound> relative;
};

// Reads experiment.optimization_config and experiment.tracking_metrics. Throws InputError.
AxOutcomes read_outcomes(const Document& experiment, const std::string& path);

}  // namespace sebo::ax
