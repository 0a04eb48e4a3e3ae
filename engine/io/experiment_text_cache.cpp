#include "io/experiment_text_cache.h"

#include <algorithm>
#include <utility>

#include "io/experiment_file.h"

namespace sebo {

void ExperimentTextCache::clear() {
    names_.clear();
    metrics_.clear();
    entries_.clear();
    serialized_ = 0;
}

std::string ExperimentTextCache::text(const Experiment& experiment) {
    // A trial's text names its parameters and lists its values in the metrics' order: another
    // space or other metrics make every kept text stale.
    std::vector<std::string> names;
    names.reserve(static_cast<std::size_t>(experiment.space.dimension()));
    for (const Parameter& p : experiment.space.parameters()) names.push_back(p.name);
    if (names != names_ || experiment.outcomes.metrics != metrics_) {
        entries_.clear();
        names_ = std::move(names);
        metrics_ = experiment.outcomes.metrics;
    }
    serialized_ = 0;
    entries_.resize(std::min(entries_.size(), experiment.trials.size()));
    for (std::size_t i = 0; i < experiment.trials.size(); ++i) {
        const Trial& trial = experiment.trials[i];
        if (i == entries_.size()) {
            entries_.push_back({trial, trial_json_text(trial, experiment.space, experiment.outcomes.metrics)});
            ++serialized_;
        } else if (!(entries_[i].trial == trial)) {
            entries_[i] = {trial, trial_json_text(trial, experiment.space, experiment.outcomes.metrics)};
            ++serialized_;
        }
    }
    // Pointers only now: the entries may have moved while they grew.
    std::vector<const std::string*> texts;
    texts.reserve(entries_.size());
    for (const Entry& entry : entries_) texts.push_back(&entry.text);
    return experiment_json_text(experiment, texts);
}

}  // namespace sebo
