#include "experiment/status_quo.h"

namespace sebo {

bool status_quo_due(const Experiment& experiment) {
    return experiment.method.status_quo_first && experiment.trials.empty();
}

}  // namespace sebo
