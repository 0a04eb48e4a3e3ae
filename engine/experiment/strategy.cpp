#include "experiment/strategy.h"

#include "experiment/model_strategy.h"
#include "experiment/sobol_strategy.h"

namespace sebo {

std::unique_ptr<Strategy> make_strategy(const MethodSettings& settings) {
    if (!uses_model(settings.strategy)) return std::make_unique<SobolStrategy>();
    return std::make_unique<ModelStrategy>(settings);
}

}  // namespace sebo
