#include "experiment/extreme_values.h"

#include "core/format.h"
#include "core/robust_spread.h"

namespace sebo {

std::optional<ExtremeValue> find_extreme_value(const Experiment& experiment, int trial) {
    const Trial* candidate = experiment.find_trial(trial);
    if (!candidate || !experiment.analyzed(*candidate)) return std::nullopt;
    std::vector<double> others;
    for (const Trial& t : experiment.trials)
        if (t.index != trial && experiment.analyzed(t)) others.push_back(*t.objective);
    const int count = static_cast<int>(others.size());
    const auto spread = robust_spread(std::move(others));
    const double value = *candidate->objective;
    if (!spread || !spread->extreme(value)) return std::nullopt;
    return ExtremeValue{trial,         value, spread->median, spread->scale, spread->scale_is_interquartile_range(),
                        spread->distance(value), count};
}

std::string describe(const ExtremeValue& extreme, const Experiment& experiment) {
    const std::string unit = extreme.scale_is_interquartile_range
                                 ? " interquartile ranges (" + format_short(extreme.scale, 3) + ")"
                                 : " times the median's size";
    std::string text = "trial " + std::to_string(extreme.trial) + ": " + experiment.objective.name + " = " +
                       format_short(extreme.objective) + " lies " + format_short(extreme.distance, 2) + unit +
                       " from the median (" + format_short(extreme.median) + ") of the other " +
                       std::to_string(extreme.others) + " trials";
    if (!extreme.scale_is_interquartile_range) text += ", most of which are equal";
    return text;
}

}  // namespace sebo
