#pragma once
// How a trial's generator is shown: the recorded names as they are ("sobol", "sebo-l0",
// "import"), except the status quo (experiment/status_quo.h), which reads "status quo".

#include <QString>
#include <string>

namespace sebo::ui {

QString generator_label(const std::string& generator);
bool is_status_quo(const std::string& generator);

}  // namespace sebo::ui
