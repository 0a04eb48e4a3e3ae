#pragma once
// `sebo frontier`'s model estimates (issue 30 item 4; experiment/recommendations.h): the
// recommended configuration per number of changes with its posterior mean, 95 % credible interval
// and probability of beating the status quo, as text and as each JSON level's "recommended".

#include <nlohmann/json.hpp>
#include <string>

#include "experiment/experiment.h"
#include "experiment/recommendations.h"

namespace sebo::cli {

// The "recommended" member of level k: for one objective {"trial", "mean", "lower", "upper",
// "p_better_than_status_quo"} (null when there is no status quo), for several a list of such
// objects whose mean, lower, upper and p_better_than_status_quo are objects keyed by objective
// metric; with outcome constraints each also has "p_feasible". null when nothing is eligible at k.
nlohmann::ordered_json recommended_json(const Experiment& experiment, const RecommendationReport& report, int k);

// The text section: one line per k where the recommendation changes.
std::string recommendations_text(const Experiment& experiment, const RecommendationReport& report);

}  // namespace sebo::cli
