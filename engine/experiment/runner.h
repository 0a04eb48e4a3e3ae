#pragma once
// The stepping API every client (CLI, GUI) uses: propose, evaluate, record.

#include <optional>
#include <string>
#include <vector>

#include "experiment/evaluator.h"
#include "experiment/experiment.h"
#include "experiment/strategy.h"

namespace sebo {

struct StepResult {
    enum class Status {
        Completed,       // new trials were added (completed or failed, or pending when manual)
        BudgetReached,   // nothing to do: the experiment has its budget of trials
        Cancelled,       // the stop token fired; the experiment is unchanged
        Failed           // the strategy could not propose; the experiment is unchanged
    };
    Status status = Status::Completed;
    std::vector<int> new_trials;
    std::string message;
    // The step replaced Experiment::sampler_state (clients that copy the new trials back into
    // their own experiment copy the state too).
    bool sampler_state_changed = false;
    // Set when an evaluation reported a set of metrics that differs from the experiment's (one
    // missing, or one the experiment does not have): "trial 9: the evaluator did not report the
    // metric 'p99_ms' (constrained: p99_ms <= 50)". That trial is recorded as failed like any
    // other, but the evaluator and the experiment disagree about what is measured, so every later
    // trial would fail the same way: clients stop the run (sebo run exits with status 2).
    std::optional<std::string> misreport;
};

// Runs one step: the strategy proposes `count` configurations, each becomes a trial, and when
// an evaluator is given each trial is evaluated (failures are recorded on the trial; the run
// goes on; a "successful" outcome without a value of every metric of the experiment, with a metric
// it does not have, or with a non-finite value or standard error is recorded as a failure with
// the reason, so no NaN ever enters the experiment). Without an evaluator the
// new trials stay pending (manual evaluation). The experiment is modified only when the step
// completes: a cancelled step leaves it as it was. A completed step also stores the sampler
// state the strategy left for the next step (Proposal::replaces_sampler_state). When the status
// quo is due (experiment/status_quo.h), the first new trial is the target configuration
// (generator "status-quo") and the strategy proposes count − 1.
StepResult run_step(Experiment& experiment, Strategy& strategy, Evaluator* evaluator,
                    const StepControl& control, int count = 1);

// Evaluates up to `count` pending trials (the first ones, in the experiment's order) with the
// evaluator, instead of proposing new ones: trials added by hand, by `sebo suggest`, by
// Simplify's "add as pending" or by "confirm with more measurements", in an experiment whose
// evaluator runs by itself (a built-in problem or a command). Each outcome is checked and recorded
// on the existing trial exactly as run_step records a new trial's (a failure with its reason; a
// misreport sets StepResult::misreport); `new_trials` lists the trials evaluated. The experiment is
// modified only when every evaluation ended: a cancelled call leaves it as it was. Failed, with a
// message, when no trial is pending. The budget is not consulted: these trials are already in it.
StepResult evaluate_pending(Experiment& experiment, Evaluator& evaluator, const StepControl& control, int count = 1);

// Failed evaluations in a row, over the trials of successive steps (in the order they were
// added). Clients stop a run when it gets long, so that a broken evaluator (a typo in the
// command, a missing licence, a full disk) does not spend the whole budget on failures.
class FailureStreak {
public:
    // Counts the new trials of one step; `experiment` is the one the step added them to.
    void add(const Experiment& experiment, const std::vector<int>& new_trials);
    int length() const { return length_; }
    // Index and reason of the last failure counted (meaningful when length() > 0).
    int last_trial() const { return last_trial_; }
    const std::string& last_error() const { return last_error_; }

private:
    int length_ = 0;
    int last_trial_ = -1;
    std::string last_error_;
};

}  // namespace sebo
