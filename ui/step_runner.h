#pragma once
// How a view outside the main window runs configurations it proposes (the steps of a simplified
// path, issue 16 item 3) with the experiment's evaluator: through the main window's run path —
// the command-trust confirmation, the run controller, every trial saved as it completes.

#include <QString>
#include <functional>
#include <vector>

namespace sebo::ui {

struct StepRunner {
    // Why a run cannot start now, leaving out the command approval that run() asks for (empty:
    // it can); unset: there is no runner.
    std::function<QString()> cannot_run;
    // Starts running the configurations (user units); false when refused or not confirmed.
    std::function<bool(const std::vector<std::vector<double>>&)> run;

    bool available() const { return cannot_run && run; }
};

}  // namespace sebo::ui
