#include "experiment/strategy.h"

#include "experiment/model_strategy.h"
#include "experiment/sobol_strategy.h"

namespace sebo {

std::unique_ptr<Strategy> make_strategy(const MethodSettings& settings) {
    if (!uses_model(settings.strategy)) return std::make_unique<SobolStrategy>();
    return std::make_unique<ModelStrategy>(settings);
}

std::optional<std::string> unsupported_outcomes(StrategyKind strategy, const Outcomes& outcomes) {
    if (!uses_model(strategy)) return std::nullopt;
    const std::size_t objectives = outcomes.objectives.size(), constraints = outcomes.constraints.size();
    if (objectives == 1 && constraints == 0) return std::nullopt;
    std::string has = std::to_string(objectives) + (objectives == 1 ? " objective" : " objectives");
    if (constraints > 0)
        has += " and " + std::to_string(constraints) + (constraints == 1 ? " outcome constraint" : " outcome constraints");
    return std::string(to_string(strategy)) + " with " + has +
           ": not supported yet (the model-based strategies handle one objective without outcome constraints); "
           "use the strategy sobol";
}

}  // namespace sebo
