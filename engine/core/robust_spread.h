#pragma once
// Where the bulk of a sample lies, measured so that one absurd value cannot move it: the median,
// the quartiles and a robust scale. Four rules are built on it, all about a value that is not
// like the others (an error sentinel such as 1e9 or 1e308, a timeout reported as a latency, a
// unit slip):
//  - the default hypervolume reference point ignores values outside the far-out fences
//    (experiment/analytics.h);
//  - the model winsorizes extreme values to the far-out fence (experiment/model_step.h);
//  - the CLI and the GUI warn about a new extreme value (experiment/extreme_values.h);
//  - the charts take their axis ranges from the values within the far-out fences (ui/).
//
// Definitions (n values, quartiles by core/quantile.h):
//  - scale S: the interquartile range Q3 − Q1; when it is 0 (half the values or more are
//    equal), |median|, the magnitude of the typical value; when that is 0 too there is no scale
//    and no rule applies.
//  - far-out fences: Q1 − 3 S and Q3 + 3 S (Tukey 1977, "far out"); within them is the bulk.
//  - extreme: more than 1e3 S from the median.
// With fewer than kRobustMinimumCount values there is no spread: with 5 values the quartiles are
// order statistics that the largest and the smallest value do not enter, so one value alone can
// never move them; with 4 the upper quartile is a quarter of the way to the maximum.

#include <optional>
#include <vector>

namespace sebo {

inline constexpr int kRobustMinimumCount = 5;
inline constexpr double kFarOutFactor = 3.0;
inline constexpr double kExtremeFactor = 1e3;

struct RobustSpread {
    int count = 0;
    double median = 0.0;
    double lower_quartile = 0.0;
    double upper_quartile = 0.0;
    double scale = 1.0;  // > 0; may be +inf when the quartiles are ±1e308 apart

    // Whether the scale is the interquartile range (otherwise it is |median|).
    bool scale_is_interquartile_range() const { return upper_quartile > lower_quartile; }

    // Q1 − 3 S and Q3 + 3 S; ±inf when they are beyond the range of a double.
    double lower_fence() const;
    double upper_fence() const;
    bool within_fences(double value) const { return value >= lower_fence() && value <= upper_fence(); }
    // |value − median| / S (may be +inf, never NaN for finite values).
    double distance(double value) const;
    bool extreme(double value) const { return distance(value) > kExtremeFactor; }
};

// Unset with fewer than kRobustMinimumCount values or without a scale. Values must be finite.
std::optional<RobustSpread> robust_spread(std::vector<double> values);

}  // namespace sebo
