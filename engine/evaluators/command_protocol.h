#pragma once
// The protocol between SEBO and an external command (evaluators/command_evaluator.h runs the
// program; this is what goes over its standard streams):
//
//   stdin  (one line, then closed):  {"trial": 7, "parameters": {"x1": 0.25, "n_layers": 3}}
//                                    values in user units; integer parameters as JSON integers
//   stdout (exactly one JSON object): {"metrics": {"throughput": 1234.5,
//                                                  "p99_ms": {"mean": 41.2, "sem": 0.8}},
//                                     "metadata": {...}}
//                                    a value per metric of the experiment, as a number or as
//                                    {"mean", "sem"}; "sem" (>= 0) and "metadata" (an object)
//                                    are optional. An experiment with one metric also takes
//                                    {"objective": 0.91, "sem": 0.02}
//   exit status 0                    anything else is a failed trial

#include <string>
#include <vector>

#include "experiment/evaluator.h"
#include "experiment/experiment.h"
#include "space/search_space.h"

namespace sebo {

// The document written to the program's stdin for a trial: one line, ending with "\n".
std::string command_input_json(const SearchSpace& space, const Trial& trial);

// Reads the program's stdout (see the protocol above) for an experiment with these metrics. ok =
// false with the reason otherwise. Which metrics were reported is not checked here.
EvaluationOutcome parse_command_output(const std::string& output, const std::vector<std::string>& metrics);

}  // namespace sebo
