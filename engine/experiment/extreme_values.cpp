#include "experiment/extreme_values.h"

#include "core/format.h"
#include "core/robust_spread.h"

namespace sebo {

std::optional<ExtremeValue> find_extreme_value(const Experiment& experiment, int trial) {
    const Trial* candidate = experiment.find_trial(trial);
    if (!candidate || !experiment.analyzed(*candidate)) return std::nullopt;
    for (const std::string& metric : experiment.outcomes.metrics) {
        const auto value = candidate->value(metric);
        if (!value) continue;
        std::vector<double> others;
        for (const Trial& t : experiment.trials)
            if (t.index != trial && experiment.analyzed(t))
                if (const auto other = t.value(metric)) others.push_back(*other);
        const int count = static_cast<int>(others.size());
        const auto spread = robust_spread(std::move(others));
        if (!spread || !spread->extreme(*value)) continue;
        return ExtremeValue{trial,          metric,
                            *value,         spread->median,
                            spread->scale,  spread->scale_is_interquartile_range(),
                            spread->distance(*value), count};
    }
    return std::nullopt;
}

std::string describe(const ExtremeValue& extreme) {
    const std::string unit = extreme.scale_is_interquartile_range
                                 ? " interquartile ranges (" + format_short(extreme.scale, 3) + ")"
                                 : " times the median's size";
    std::string text = "trial " + std::to_string(extreme.trial) + ": " + extreme.metric + " = " +
                       format_short(extreme.value) + " lies " + format_short(extreme.distance, 2) + unit +
                       " from the median (" + format_short(extreme.median) + ") of the other " +
                       std::to_string(extreme.others) + " trials";
    if (!extreme.scale_is_interquartile_range) text += ", most of which are equal";
    return text;
}

}  // namespace sebo
