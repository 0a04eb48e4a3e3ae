#include "cli/method_options.h"

#include <algorithm>

#include "core/format.h"

namespace sebo::cli {

namespace {

const char* name_of(MethodFlag flag) {
    switch (flag) {
    case MethodFlag::Strategy: return "strategy";
    case MethodFlag::Model: return "model";
    case MethodFlag::Init: return "init";
    case MethodFlag::Lambda: return "lambda";
    case MethodFlag::Penalty: return "penalty";
    case MethodFlag::BonsaiTolerance: return "bonsai-tolerance";
    case MethodFlag::MaxActive: return "max-active";
    case MethodFlag::MinActive: return "min-active";
    case MethodFlag::Nuts: return "nuts";
    case MethodFlag::NoisyAcquisition: return "noisy-acquisition";
    case MethodFlag::DenseSteps: return "dense-steps";
    case MethodFlag::DenseStepsMax: return "dense-steps-max";
    case MethodFlag::DenseThompson: return "dense-thompson";
    }
    return "";
}

OptionSpec spec_of(MethodFlag flag) {
    switch (flag) {
    case MethodFlag::Strategy: return {"strategy", "NAME", "strategy (default: the file's; sebo-l0 for sebo new, sobol for sebo run); see 'sebo run --help-strategies'"};
    case MethodFlag::Model: return {"model", "NAME", "surrogate: gp, saas (SAAS + NUTS) or saas-map (default: per strategy)"};
    case MethodFlag::Init: return {"init", "M", "initial quasi-random (Sobol) trials (default 8; the status quo is one of them)"};
    case MethodFlag::Lambda: return {"lambda", "L", "regularization weight of ei-er and ei-ir (default 0.01)"};
    case MethodFlag::Penalty: return {"penalty", "NAME", "penalty of ei-er and ei-ir: l0 (default), l1 or group-lasso"};
    case MethodFlag::BonsaiTolerance:
        return {"bonsai-tolerance", "T",
                "bonsai: stop pruning before a reset loses more than this share of the candidate's expected improvement, "
                "in (0, 1] (default 0.2)"};
    case MethodFlag::MaxActive:
        return {"max-active", "M", "configurations with more than M changed parameters add no hypervolume (default: none; L0 strategies)"};
    case MethodFlag::MinActive:
        return {"min-active", "N", "fewer than N changed parameters are no better than N (default: none; L0 strategies)"};
    case MethodFlag::Nuts:
        return {"nuts", "MODE",
                "SAAS sampling: fast (chains in parallel, warm-started; the default) or paper (the paper's single chain, "
                "512 warm-up, 256 samples, every 16th kept, from scratch every step)"};
    case MethodFlag::NoisyAcquisition:
        return {"noisy-acquisition", "MODE",
                "auto (the default: integrate over the posterior at the measured configurations when the model infers "
                "noise), on, or off (trust the measured values, as before format version 7)"};
    case MethodFlag::DenseSteps:
        return {"dense-steps", "N",
                "SEBO strategies: under noise (when the noisy acquisition is used), the first N trials after the "
                "initial design are proposed by the noisy EI without sparsity, so the model learns which parameters "
                "matter (default 15; 0: sparse from the start)"};
    case MethodFlag::DenseStepsMax:
        return {"dense-steps-max", "N",
                "SEBO strategies: the dense start goes on past --dense-steps, up to N trials after the initial design, "
                "while the model knows no parameter to matter (default 30; at most --dense-steps: never)"};
    case MethodFlag::DenseThompson:
        return {"dense-thompson", "on|off",
                "SEBO strategies: on (the default), the dense start turns to Thompson sampling once the noisy EI's "
                "trials measure no better than the initial design's Sobol trials (median of 5 or more); off, the "
                "noisy EI throughout (as before format version 9)"};
    }
    return {};
}

// "--strategy: unknown strategy 'x' (known: sobol, gpei, ...)".
template <class Kind, class Parse>
Kind parsed_kind(const std::string& flag, const std::string& noun, const std::string& text, Parse parse,
                 const std::vector<Kind>& all) {
    if (const auto kind = parse(text)) return *kind;
    std::string known;
    for (Kind k : all) known += (known.empty() ? "" : ", ") + std::string(to_string(k));
    throw UsageError("--" + flag + ": unknown " + noun + " '" + text + "' (known: " + known + ")");
}

bool has(const std::vector<MethodFlag>& flags, MethodFlag flag) { return std::find(flags.begin(), flags.end(), flag) != flags.end(); }

}  // namespace

std::vector<MethodFlag> all_method_flags() {
    return {MethodFlag::Strategy,        MethodFlag::Model,     MethodFlag::Init,      MethodFlag::Lambda,
            MethodFlag::Penalty,         MethodFlag::BonsaiTolerance, MethodFlag::MaxActive, MethodFlag::MinActive,
            MethodFlag::Nuts,            MethodFlag::NoisyAcquisition, MethodFlag::DenseSteps, MethodFlag::DenseStepsMax,
            MethodFlag::DenseThompson};
}

std::vector<OptionSpec> method_option_specs(const std::vector<MethodFlag>& flags) {
    std::vector<OptionSpec> specs;
    for (MethodFlag f : flags) specs.push_back(spec_of(f));
    return specs;
}

std::vector<std::string> given_method_flags(const Arguments& parser, const std::vector<MethodFlag>& flags) {
    std::vector<std::string> given;
    for (MethodFlag f : flags)
        if (parser.has(name_of(f))) given.push_back(std::string("--") + name_of(f));
    return given;
}

bool apply_method_options(const Arguments& parser, MethodSettings& method, const std::vector<MethodFlag>& flags) {
    const auto value = [&](MethodFlag f) { return has(flags, f) ? parser.value(name_of(f)) : std::nullopt; };
    if (const auto text = value(MethodFlag::Strategy))
        method.strategy = parsed_kind("strategy", "strategy", *text, strategy_kind_from_string, all_strategy_kinds());
    if (const auto text = value(MethodFlag::Model))
        method.model = parsed_kind("model", "model", *text, model_kind_from_string, all_model_kinds());
    if (has(flags, MethodFlag::Init))
        if (const auto init = parser.integer("init", 0, 1'000'000)) method.initial_trials = static_cast<int>(*init);
    if (has(flags, MethodFlag::Lambda))
        if (const auto lambda = parser.number("lambda")) {
            if (*lambda < 0) throw UsageError("--lambda: " + format_number(*lambda) + " must not be negative");
            method.lambda = *lambda;
        }
    if (const auto text = value(MethodFlag::Penalty))
        method.penalty = parsed_kind("penalty", "penalty", *text, penalty_kind_from_string,
                                     std::vector<PenaltyKind>{PenaltyKind::L0, PenaltyKind::L1, PenaltyKind::GroupLasso});
    if (has(flags, MethodFlag::BonsaiTolerance))
        if (const auto tolerance = parser.number("bonsai-tolerance")) {
            if (!(*tolerance > 0.0 && *tolerance <= 1.0))
                throw UsageError("--bonsai-tolerance: " + format_number(*tolerance) + " is not in (0, 1]");
            method.bonsai_tolerance = *tolerance;
        }
    if (const auto text = value(MethodFlag::Nuts)) method.nuts = parsed_kind("nuts", "setting", *text, nuts_mode_from_string, all_nuts_modes());
    if (const auto text = value(MethodFlag::NoisyAcquisition))
        method.noisy_acquisition = parsed_kind("noisy-acquisition", "setting", *text, noisy_acquisition_from_string, all_noisy_acquisitions());
    if (has(flags, MethodFlag::DenseSteps))
        if (const auto n = parser.integer("dense-steps", 0, 1'000'000)) method.dense_steps = static_cast<int>(*n);
    if (has(flags, MethodFlag::DenseStepsMax))
        if (const auto n = parser.integer("dense-steps-max", 0, 1'000'000)) method.dense_steps_max = static_cast<int>(*n);
    if (const auto text = value(MethodFlag::DenseThompson)) {
        if (*text != "on" && *text != "off") throw UsageError("--dense-thompson: unknown setting '" + *text + "' (known: on, off)");
        method.dense_thompson = *text == "on";
    }
    bool range = false;
    if (has(flags, MethodFlag::MaxActive))
        if (const auto m = parser.integer("max-active", 1, 1'000'000)) {
            method.max_active = static_cast<int>(*m);
            range = true;
        }
    if (has(flags, MethodFlag::MinActive))
        if (const auto n = parser.integer("min-active", 1, 1'000'000)) {
            method.min_active = static_cast<int>(*n);
            range = true;
        }
    return range;
}

void apply_method_options(const Arguments& parser, Experiment& experiment, const std::vector<MethodFlag>& flags) {
    if (!apply_method_options(parser, experiment.method, flags)) return;
    // The engine's messages name the file fields (method.max_active); say them as the flags.
    const auto error = experiment.validate();
    if (!error) return;
    for (const auto& [field, flag] : {std::pair{"method.max_active: ", "--max-active: "}, std::pair{"method.min_active: ", "--min-active: "}})
        if (error->rfind(field, 0) == 0) throw UsageError(flag + error->substr(std::string(field).size()));
}

}  // namespace sebo::cli
