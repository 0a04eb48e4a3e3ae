#include "experiment/fit_record.h"

#include <algorithm>
#include <cmath>

#include "core/format.h"

namespace sebo {

std::optional<double> FitRecord::max_rhat() const {
    std::optional<double> worst = rhat;
    for (const ParameterConvergenceRecord& p : parameters)
        if (p.rhat) worst = worst ? std::max(*worst, *p.rhat) : *p.rhat;
    return worst;
}

std::string FitRecord::warning() const {
    std::string text;
    const std::optional<double> worst = max_rhat();
    if (worst && *worst > kRhatWarning) {
        std::string where = rhat && *rhat == *worst ? "the log density" : "";
        for (const ParameterConvergenceRecord& p : parameters)
            if (where.empty() && p.rhat && *p.rhat == *worst) where = p.parameter;
        text = "R-hat " + format_short(*worst, 5) + " of " + where + " is above " + format_short(kRhatWarning, 3) +
               ": the " + std::to_string(chains) + " chain" + (chains == 1 ? "" : "s") + " did not agree";
    }
    if (divergences > 0) {
        if (!text.empty()) text += "; ";
        text += std::to_string(divergences) + " divergent transition" + (divergences == 1 ? "" : "s") + " after warm-up";
    }
    return text;
}

std::optional<std::string> FitRecord::validate(const std::string& path) const {
    if (nuts != "fast" && nuts != "paper")
        return path + ".nuts: \"" + nuts + "\" is not a sampler setting; expected fast or paper";
    if (start != "warm" && start != "mode" && start != "full")
        return path + ".start: \"" + start + "\" is not a start; expected warm, mode or full";
    if (chains < 1) return path + ".chains: " + std::to_string(chains) + " is not positive";
    if (warmup < 0) return path + ".warmup: " + std::to_string(warmup) + " is negative";
    if (draws < 0) return path + ".draws: " + std::to_string(draws) + " is negative";
    if (divergences < 0) return path + ".divergences: " + std::to_string(divergences) + " is negative";
    if (!(seconds >= 0.0 && std::isfinite(seconds))) return path + ".seconds: " + format_number(seconds) + " is not a number >= 0";
    const auto check = [](const std::optional<double>& value, const std::string& at) -> std::optional<std::string> {
        if (value && !(std::isfinite(*value) && *value >= 0.0)) return at + ": " + format_number(*value) + " is not a number >= 0";
        return std::nullopt;
    };
    if (auto e = check(rhat, path + ".rhat")) return e;
    if (auto e = check(ess_bulk, path + ".ess_bulk")) return e;
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        const std::string at = path + ".parameters[" + std::to_string(i) + "]";
        if (auto e = check(parameters[i].rhat, at + ".rhat")) return e;
        if (auto e = check(parameters[i].ess_bulk, at + ".ess_bulk")) return e;
    }
    return std::nullopt;
}

}  // namespace sebo
