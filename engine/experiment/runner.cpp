#include "experiment/runner.h"

#include <cassert>
#include <chrono>
#include <cmath>

#include "core/format.h"
#include "core/timestamp.h"
#include "experiment/status_quo.h"

namespace sebo {

namespace {

// An evaluator that reports success with values that do not fit the experiment must not put them
// into it: such an outcome becomes a failed trial with the reason. A missing or unknown metric
// means the evaluator and the experiment disagree about what is measured (`misreport`); a
// non-finite value or standard error is one that forgot to check its measurement (no NaN ever
// enters the experiment). Empty when the outcome can be recorded as it is.
struct OutcomeProblem {
    std::string reason;
    bool misreport = false;
};

OutcomeProblem check_outcome(const EvaluationOutcome& outcome, const Outcomes& outcomes) {
    if (!outcome.ok) return {};
    for (const auto& [metric, m] : outcome.values)
        if (!outcomes.has_metric(metric))
            return {"the evaluator reported the metric '" + metric + "', which the experiment does not have (its metrics: " +
                        outcomes.metric_list() + ")",
                    true};
    for (const std::string& metric : outcomes.metrics) {
        const Measurement* m = nullptr;
        if (const auto it = outcome.values.find(metric); it != outcome.values.end()) m = &it->second;
        if (!m) {
            std::string role = outcomes.objective_on(metric) ? "an objective" : "a tracked metric";
            for (const OutcomeConstraint& c : outcomes.constraints)
                if (c.metric == metric) role = "constrained: " + c.text();
            return {"the evaluator did not report the metric '" + metric + "' (" + role + ")", true};
        }
        if (!std::isfinite(m->mean))
            return {"the evaluator reported " + metric + " = " + format_number(m->mean) + ", which is not a finite number"};
        if (m->sem && !(std::isfinite(*m->sem) && *m->sem >= 0.0))
            return {"the evaluator reported the standard error " + format_number(*m->sem) + " of " + metric +
                    ", which is not a finite number >= 0"};
    }
    return {};
}

// Evaluates the trials (the whole batch at once, so that an evaluator can run several trials
// concurrently) and records each outcome on its trial. False (result: Cancelled) when the stop
// token fired meanwhile.
bool evaluate_into(std::vector<Trial>& trials, const Outcomes& outcomes_of_experiment, Evaluator& evaluator,
                   const StepControl& control, StepResult& result) {
    const std::vector<EvaluationOutcome> outcomes = evaluator.evaluate_batch(trials, control);
    if (control.cancelled()) {
        result.status = StepResult::Status::Cancelled;
        result.message = "cancelled while evaluating";
        return false;
    }
    assert(outcomes.size() == trials.size());
    for (std::size_t i = 0; i < trials.size(); ++i) {
        Trial& trial = trials[i];
        const EvaluationOutcome& outcome = outcomes[i];
        trial.evaluation_seconds = outcome.seconds;
        trial.completed_at = utc_timestamp();
        trial.values.clear();
        trial.error.clear();
        if (const OutcomeProblem bad = check_outcome(outcome, outcomes_of_experiment); !bad.reason.empty()) {
            trial.status = TrialStatus::Failed;
            trial.error = bad.reason;
            if (bad.misreport && !result.misreport) result.misreport = "trial " + std::to_string(trial.index) + ": " + bad.reason;
        } else if (outcome.ok) {
            trial.status = TrialStatus::Completed;
            trial.values = outcome.values;
            trial.noise_free = outcome.noise_free;
        } else {
            trial.status = TrialStatus::Failed;
            trial.error = outcome.error.empty() ? std::string("the evaluator reported a failure without a reason")
                                                : outcome.error;
        }
    }
    return true;
}

}  // namespace

StepResult evaluate_pending(Experiment& experiment, Evaluator& evaluator, const StepControl& control, int count) {
    StepResult result;
    std::vector<Trial> pending;
    for (const Trial& t : experiment.trials)
        if (t.status == TrialStatus::Pending && static_cast<int>(pending.size()) < count) pending.push_back(t);
    if (pending.empty()) {
        result.status = StepResult::Status::Failed;
        result.message = "no trial is pending";
        return result;
    }
    if (!evaluate_into(pending, experiment.outcomes, evaluator, control, result)) return result;
    for (Trial& evaluated : pending) {
        result.new_trials.push_back(evaluated.index);
        *experiment.find_trial(evaluated.index) = std::move(evaluated);
    }
    return result;
}

StepResult run_step(Experiment& experiment, Strategy& strategy, Evaluator* evaluator, const StepControl& control,
                    int count) {
    using Clock = std::chrono::steady_clock;
    StepResult result;
    const int room = experiment.method.budget - static_cast<int>(experiment.trials.size());
    if (room <= 0) {
        result.status = StepResult::Status::BudgetReached;
        result.message = "the experiment has its budget of " + std::to_string(experiment.method.budget) + " trials";
        return result;
    }
    count = std::min(count, room);

    // Status quo first (experiment/status_quo.h): the target point, then count − 1 from the
    // strategy, which sees the experiment as it is (no trial yet).
    const bool status_quo = status_quo_due(experiment);
    const auto start = Clock::now();
    Proposal proposal;
    if (count > (status_quo ? 1 : 0)) proposal = strategy.propose(experiment, count - (status_quo ? 1 : 0), control);
    const double generation_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (proposal.status == Proposal::Status::Cancelled || control.cancelled()) {
        result.status = StepResult::Status::Cancelled;
        result.message = "cancelled while proposing";
        return result;
    }
    if (proposal.status == Proposal::Status::Failed || (proposal.points.empty() && !status_quo)) {
        result.status = StepResult::Status::Failed;
        result.message = proposal.message.empty() ? "the strategy proposed nothing" : proposal.message;
        return result;
    }

    // Build the new trials aside; the experiment changes only when the whole step is done.
    std::vector<Trial> fresh;
    int next_index = experiment.next_trial_index();
    if (status_quo) {
        Trial trial;
        trial.index = next_index++;
        trial.parameters = experiment.space.target();
        trial.generator = kStatusQuoGenerator;
        trial.created_at = utc_timestamp();
        fresh.push_back(std::move(trial));
    }
    for (const auto& point : proposal.points) {
        Trial trial;
        trial.index = next_index++;
        trial.parameters = point;
        trial.generator = proposal.generator;
        trial.generation_seconds = generation_seconds / static_cast<double>(proposal.points.size());
        trial.created_at = utc_timestamp();
        trial.fit = proposal.fit;
        fresh.push_back(std::move(trial));
    }
    if (evaluator && !evaluate_into(fresh, experiment.outcomes, *evaluator, control, result)) return result;
    for (Trial& trial : fresh) {
        result.new_trials.push_back(trial.index);
        experiment.trials.push_back(std::move(trial));
    }
    if (proposal.replaces_sampler_state) {
        experiment.sampler_state = std::move(proposal.sampler_state);
        result.sampler_state_changed = true;
    }
    return result;
}

void FailureStreak::add(const Experiment& experiment, const std::vector<int>& new_trials) {
    for (int index : new_trials) {
        const Trial* t = experiment.find_trial(index);
        if (t && t->status == TrialStatus::Failed) {
            ++length_;
            last_trial_ = t->index;
            last_error_ = t->error;
        } else {
            length_ = 0;
        }
    }
}

}  // namespace sebo
