#pragma once
// A parameter's minimum meaningful change (issue 14, item 4): a change of the parameter away from
// its target that is smaller than this counts as no change, so every proposal sets it exactly onto
// the target ("snapping", SPEC §9). Given in user units (0.5 s of a timeout) or as a percentage of
// the range ("2%": of upper − lower, or of the log range for a log-scale parameter — the unit-cube
// scale the models work on). Without one, the reference implementation's rule stays: a change of
// at most 1 % of the range (unit scale, SearchSpace::kDefaultSnapTolerance) is snapped.

#include <optional>
#include <string>

namespace sebo {

struct MinChange {
    double amount = 0.0;   // user units, or percent of the range when `percent`
    bool percent = false;

    bool operator==(const MinChange&) const = default;
};

// "0.5", "1e-3" (user units) or "2%", "0.5%" (of the range); surrounding blanks are ignored.
// Empty when the text is neither; the value is not range-checked here (SearchSpace::validate does).
std::optional<MinChange> min_change_from_text(const std::string& text);

// The text min_change_from_text reads back to the same value ("0.5", "2%").
std::string to_text(const MinChange& change);

}  // namespace sebo
