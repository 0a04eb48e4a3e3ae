#include "experiment/trial_exclusion.h"

namespace sebo {

namespace {

std::string trimmed(const std::string& text) {
    const char* blanks = " \t\r\n";
    const auto first = text.find_first_not_of(blanks);
    if (first == std::string::npos) return {};
    return text.substr(first, text.find_last_not_of(blanks) - first + 1);
}

}  // namespace

std::optional<std::string> exclude_trial(Experiment& experiment, int trial, const std::string& reason,
                                         const std::string& timestamp) {
    Trial* t = experiment.find_trial(trial);
    if (!t) return "there is no trial " + std::to_string(trial);
    if (t->status != TrialStatus::Completed)
        return "trial " + std::to_string(trial) + " is " + to_string(t->status) +
               ": only completed trials can be excluded (failed, abandoned and pending trials never count)";
    const std::string text = trimmed(reason);
    if (text.empty()) return "the reason for excluding trial " + std::to_string(trial) + " is empty; say why it is excluded";
    t->exclusion = TrialExclusion{text, timestamp};
    return std::nullopt;
}

std::optional<std::string> include_trial(Experiment& experiment, int trial) {
    Trial* t = experiment.find_trial(trial);
    if (!t) return "there is no trial " + std::to_string(trial);
    t->exclusion.reset();
    return std::nullopt;
}

}  // namespace sebo
