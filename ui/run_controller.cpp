#include "run_controller.h"

#include <QMetaObject>
#include <chrono>
#include <exception>
#include <functional>
#include <mutex>
#include <utility>

#include "command_trust_store.h"
#include "core/thread_pool.h"
#include "evaluators/command_evaluator.h"
#include "experiment/given_points_strategy.h"
#include "experiment/runner.h"
#include "experiment_document.h"
#include "problems/problem_catalog.h"
#include "run_eta.h"

namespace sebo::ui {

namespace {

// Identifies a built-in problem spec, so the cached problem is rebuilt only when it changes.
std::string problem_key(const ProblemSpec& spec) {
    std::string key = spec.name + "|" + std::to_string(spec.dimension) + "|";
    for (int e : spec.effective) key += std::to_string(e) + ",";
    key += "|" + (spec.target ? std::to_string(*spec.target) : std::string("-"));
    key += "|" + std::to_string(spec.repetitions) + "|" + std::to_string(spec.world_seed);
    return key;
}

// Tells the GUI thread which trials an evaluator starts on, then lets the evaluator work: the
// trials table shows them as running while their programs run.
class ObservedEvaluator final : public Evaluator {
public:
    using Started = std::function<void(const std::vector<Trial>&)>;
    ObservedEvaluator(std::unique_ptr<Evaluator> inner, Started started)
        : inner_(std::move(inner)), started_(std::move(started)) {}
    EvaluationOutcome evaluate(const Trial& trial, const StepControl& control) override {
        started_({trial});
        return inner_->evaluate(trial, control);
    }
    std::vector<EvaluationOutcome> evaluate_batch(const std::vector<Trial>& trials, const StepControl& control) override {
        started_(trials);
        return inner_->evaluate_batch(trials, control);
    }

private:
    std::unique_ptr<Evaluator> inner_;
    Started started_;
};

// The GUI needs at most a few progress updates per second; the engine may report thousands
// (every NUTS iteration), so unchanged phases are forwarded at most this often.
constexpr auto kProgressInterval = std::chrono::milliseconds(50);

}  // namespace

struct RunController::StepOutcome {
    StepResult::Status status = StepResult::Status::Failed;
    // The step evaluated pending trials (evaluate_pending) instead of proposing new ones.
    bool evaluated_pending = false;
    std::string message;
    std::vector<Trial> trials;
    bool sampler_state_changed = false;
    std::optional<SamplerState> sampler_state;
    std::shared_ptr<const Problem> problem;
    std::string problem_key;
};

RunController::RunController(ExperimentDocument* document, QObject* parent)
    : RunController(document, [](const MethodSettings& m) { return make_strategy(m); }, parent) {}

RunController::RunController(ExperimentDocument* document, StrategyFactory factory, QObject* parent)
    : QObject(parent), document_(document), factory_(std::move(factory)),
      pool_(std::make_unique<ThreadPool>(default_thread_count())) {
    qRegisterMetaType<sebo::ui::RunProgress>();
    qRegisterMetaType<sebo::ui::RunEnd>();
}

RunController::~RunController() {
    ++generation_;
    if (worker_.joinable()) {
        worker_.request_stop();
        worker_.join();
    }
}

void RunController::setStrategyFactory(StrategyFactory factory) { factory_ = std::move(factory); }

void RunController::approveCommand(const QByteArray& key) { approved_command_ = key; }

void RunController::revokeCommandApproval() { approved_command_.clear(); }

bool RunController::commandApproved() const {
    if (!document_->hasExperiment() || approved_command_.isEmpty()) return false;
    return command_approval_key(document_->experiment().evaluator) == approved_command_;
}

double RunController::runSeconds() const { return running_ ? run_clock_.elapsed() / 1000.0 : 0.0; }
double RunController::stepSeconds() const { return running_ ? step_clock_.elapsed() / 1000.0 : 0.0; }

QString RunController::cannotRunReason() const {
    const QString reason = cannotRunOnceApproved();
    if (!reason.isEmpty()) return reason;
    if (document_->experiment().evaluator.kind == EvaluatorSpec::Kind::Command && !commandApproved())
        return tr("This experiment runs an external command for every trial; it runs only after you "
                  "approve exactly what it runs (program, arguments, folder, environment).");
    return {};
}

int RunController::stepsAvailable(const Experiment& e) {
    // Pending trials of an evaluator that runs by itself are evaluated first, within the budget
    // they already count in.
    const int pending = e.evaluator.kind == EvaluatorSpec::Kind::Manual ? 0 : e.count(TrialStatus::Pending);
    return std::max(0, e.method.budget - static_cast<int>(e.trials.size())) + pending;
}

QString RunController::cannotRunOnceApproved() const {
    if (!document_->hasExperiment()) return tr("Open or create an experiment first.");
    if (running_) return tr("A run is in progress; wait for it to end or cancel it.");
    if (document_->isReadOnly())
        return tr("%1. The explorer shows it read-only; reload it when that process is done.")
            .arg(document_->readOnlyReason());
    const Experiment& e = document_->experiment();
    if (auto error = e.space.validate()) return QString::fromStdString(*error);
    if (auto error = e.method.validate()) return QString::fromStdString(*error);
    if (stepsAvailable(e) == 0)
        return tr("The experiment has its budget of %1 trials. Raise the budget in the Method panel to go on.")
            .arg(e.method.budget);
    return {};
}

bool RunController::run(int steps) {
    if (running_ || steps <= 0) return false;
    const QString reason = cannotRunReason();
    if (!reason.isEmpty()) {
        const bool budget = document_->hasExperiment() && stepsAvailable(document_->experiment()) == 0;
        emit runFinished(budget ? RunEnd::BudgetReached : RunEnd::Failed, reason);
        return false;
    }
    const Experiment& e = document_->experiment();
    steps_requested_ = std::min(steps, stepsAvailable(e));
    steps_done_ = 0;
    step_seconds_.clear();
    prior_step_seconds_ = recent_trial_seconds(e);
    failures_ = FailureStreak();
    running_ = true;
    cancelling_ = false;
    ++generation_;
    run_clock_.start();
    emit runningChanged(true);
    startStep();
    return true;
}

bool RunController::runToBudget() {
    if (!document_->hasExperiment()) return run(1);
    return run(std::max(1, stepsAvailable(document_->experiment())));
}

bool RunController::runConfigurations(const std::vector<std::vector<double>>& points, const std::string& generator) {
    if (running_ || points.empty()) return false;
    if (document_->hasExperiment()) {
        const Experiment& e = document_->experiment();
        const int room = e.method.budget - static_cast<int>(e.trials.size());
        if (static_cast<int>(points.size()) > room) {
            emit runFinished(RunEnd::BudgetReached,
                             tr("The experiment has room for %n more trial(s) within its budget of %1; raise the budget in "
                                "the Method panel to run these %2.",
                                nullptr, std::max(room, 0))
                                 .arg(e.method.budget)
                                 .arg(points.size()));
            return false;
        }
    }
    given_points_.assign(points.begin(), points.end());
    given_generator_ = generator;
    if (run(static_cast<int>(points.size()))) return true;
    given_points_.clear();
    return false;
}

void RunController::startStep() {
    Experiment copy = document_->experiment();
    // Checked on the copy the step runs: the command that runs is the one approved.
    if (copy.evaluator.kind == EvaluatorSpec::Kind::Command &&
        (approved_command_.isEmpty() || command_approval_key(copy.evaluator) != approved_command_)) {
        finish(RunEnd::Failed, tr("The experiment's command (program, arguments, folder, environment, timeout or "
                                  "concurrency) is not the one you approved; it did not run. The next step asks "
                                  "you again."));
        return;
    }
    // Trials waiting for a result come before new proposals (added by Simplify, by hand, or by
    // `sebo suggest` into an experiment whose evaluator runs by itself).
    const bool pending_first = given_points_.empty() && copy.evaluator.kind != EvaluatorSpec::Kind::Manual &&
                               copy.count(TrialStatus::Pending) > 0;
    std::unique_ptr<Strategy> strategy;
    try {
        if (pending_first) {
            // No strategy: the step evaluates.
        } else if (!given_points_.empty()) {
            strategy = std::make_unique<GivenPointsStrategy>(std::vector<std::vector<double>>{given_points_.front()},
                                                             given_generator_);
            given_points_.pop_front();
        } else {
            strategy = factory_(copy.method);
        }
    } catch (const std::exception& error) {
        finish(RunEnd::Failed, QString::fromStdString(error.what()));
        return;
    }
    if (!strategy && !pending_first) {
        finish(RunEnd::Failed, tr("No strategy is available for these method settings."));
        return;
    }
    std::string key;
    std::shared_ptr<const Problem> problem;
    if (copy.evaluator.kind == EvaluatorSpec::Kind::Problem) {
        key = problem_key(copy.evaluator.problem);
        if (key == problem_key_) problem = problem_;
    }

    progress_ = RunProgress{tr("starting"), 0, 0, {}, steps_done_ + 1, steps_requested_};
    emit progressChanged(progress_);
    step_clock_.start();

    const std::uint64_t generation = generation_;
    worker_ = std::jthread([this, generation, key, problem, pending_first, copy = std::move(copy),
                            strategy = std::move(strategy), step = steps_done_ + 1,
                            total = steps_requested_](std::stop_token stop) mutable {
        auto outcome = std::make_shared<StepOutcome>();
        outcome->problem_key = key;
        try {
            std::unique_ptr<Evaluator> evaluator;
            if (copy.evaluator.kind == EvaluatorSpec::Kind::Problem) {
                if (!problem) problem = make_problem(copy.evaluator.problem);
                evaluator = std::make_unique<ProblemEvaluator>(problem, copy.seed);
            } else if (copy.evaluator.kind == EvaluatorSpec::Kind::Command) {
                CommandEvaluatorOptions options;
                options.stderr_line = [this](int trial, std::string_view line) { postOutput(trial, std::string(line)); };
                evaluator = std::make_unique<CommandEvaluator>(copy.evaluator, copy.space, copy.outcomes.metrics, options);
            }
            if (evaluator)
                evaluator = std::make_unique<ObservedEvaluator>(
                    std::move(evaluator), [this, generation](const std::vector<Trial>& trials) {
                        QMetaObject::invokeMethod(
                            this, [this, trials, generation] { onEvaluationsStarted(trials, generation); },
                            Qt::QueuedConnection);
                    });
            outcome->problem = problem;

            using Clock = std::chrono::steady_clock;
            std::string last_phase;
            Clock::time_point last_post{};
            StepControl control;
            control.stop = stop;
            control.progress = [&](const StepProgress& p) {
                const auto now = Clock::now();
                if (p.phase == last_phase && now - last_post < kProgressInterval) return;
                last_phase = p.phase;
                last_post = now;
                RunProgress report{QString::fromStdString(p.phase), p.current, p.total,
                                   QString::fromStdString(p.detail), step, total};
                QMetaObject::invokeMethod(
                    this, [this, report, generation] { onProgress(report, generation); }, Qt::QueuedConnection);
            };
            control.pool = pool_.get();
            outcome->evaluated_pending = pending_first;
            StepResult result = pending_first ? evaluate_pending(copy, *evaluator, control, 1)
                                              : run_step(copy, *strategy, evaluator.get(), control, 1);
            outcome->status = result.status;
            outcome->message = result.message;
            outcome->sampler_state_changed = result.sampler_state_changed;
            if (result.sampler_state_changed) outcome->sampler_state = std::move(copy.sampler_state);
            for (int index : result.new_trials)
                if (const Trial* t = copy.find_trial(index)) outcome->trials.push_back(*t);
        } catch (const std::exception& error) {
            outcome->status = stop.stop_requested() ? StepResult::Status::Cancelled : StepResult::Status::Failed;
            outcome->message = error.what();
        }
        {
            std::lock_guard lock(outcome_mutex_);
            outcome_ = outcome;
            outcome_generation_ = generation;
        }
        QMetaObject::invokeMethod(this, [this, generation] { onStepDone(generation); }, Qt::QueuedConnection);
    });
}

std::optional<double> RunController::remainingSeconds() const {
    if (!running_) return std::nullopt;
    return remaining_run_seconds(step_seconds_, stepSeconds(), steps_requested_ - steps_done_, prior_step_seconds_);
}

void RunController::onEvaluationsStarted(std::vector<Trial> trials, std::uint64_t generation) {
    if (generation != generation_ || !running_) return;
    QList<int> indices;
    for (const Trial& t : trials) indices << t.index;
    setRunningTrials(std::move(trials));
    emit evaluationsStarted(indices);
}

void RunController::setRunningTrials(std::vector<Trial> trials) {
    if (trials.empty() && running_trials_.empty()) return;
    running_trials_ = std::move(trials);
    for (Trial& t : running_trials_) t.status = TrialStatus::Pending;
    emit runningTrialsChanged();
}

void RunController::postOutput(int trial, std::string line) {
    std::lock_guard lock(output_mutex_);
    if (output_pending_.size() >= kMaxPendingOutput) {
        ++output_dropped_;
    } else {
        output_pending_.emplace_back(trial, std::move(line));
    }
    if (!output_flush_posted_) {
        output_flush_posted_ = true;
        QMetaObject::invokeMethod(this, [this] { flushOutput(); }, Qt::QueuedConnection);
    }
}

void RunController::flushOutput() {
    std::vector<std::pair<int, std::string>> lines;
    int dropped = 0;
    {
        std::lock_guard lock(output_mutex_);
        lines.swap(output_pending_);
        dropped = std::exchange(output_dropped_, 0);
        output_flush_posted_ = false;
    }
    for (const auto& [trial, line] : lines) emit evaluatorOutput(trial, QString::fromUtf8(line.data(), static_cast<qsizetype>(line.size())));
    if (dropped > 0) emit evaluatorOutputDropped(dropped);
}

void RunController::onProgress(const RunProgress& progress, std::uint64_t generation) {
    if (generation != generation_ || !running_ || cancelling_) return;
    progress_ = progress;
    emit progressChanged(progress_);
}

void RunController::joinWorker() {
    if (worker_.joinable()) worker_.join();
}

void RunController::onStepDone(std::uint64_t generation) {
    if (generation != generation_ || !running_) return;
    std::shared_ptr<StepOutcome> outcome;
    {
        std::lock_guard lock(outcome_mutex_);
        if (outcome_generation_ != generation || !outcome_) return;
        outcome = std::move(outcome_);
        outcome_.reset();
    }
    joinWorker();
    // Lines still on their way belong before the step's end.
    flushOutput();
    if (outcome->problem) {
        problem_ = outcome->problem;
        problem_key_ = outcome->problem_key;
    }
    switch (outcome->status) {
    case StepResult::Status::Completed: {
        // The indices the trials got in the document (trials recorded elsewhere and merged in
        // meanwhile may have taken the ones the step chose).
        std::vector<int> new_trials;
        const std::optional<QString> save_error =
            outcome->evaluated_pending ? document_->recordEvaluations(outcome->trials, &new_trials)
            : outcome->sampler_state_changed
                ? document_->appendStep(outcome->trials, std::move(outcome->sampler_state), &new_trials)
                : document_->appendTrials(outcome->trials, &new_trials);
        setRunningTrials({});
        step_seconds_.push_back(step_clock_.elapsed() / 1000.0);
        ++steps_done_;
        QList<int> indices;
        for (int index : new_trials) indices << index;
        failures_.add(document_->experiment(), new_trials);
        emit stepCompleted(indices);
        if (save_error) {
            emit autosaveFailed(*save_error);
            finish(RunEnd::Failed, tr("Stopped: the new trial could not be saved to %1: %2")
                                       .arg(document_->filePath(), *save_error));
        } else if (failures_.length() >= kMaxFailuresInARow) {
            finish(RunEnd::Failed, tr("Stopped after %1 failed evaluations in a row; the last (trial %2): %3. Fix the "
                                      "evaluator and run again: every trial so far is kept.")
                                       .arg(failures_.length())
                                       .arg(failures_.last_trial())
                                       .arg(QString::fromStdString(failures_.last_error())));
        } else if (cancelling_) {
            finish(RunEnd::Cancelled, tr("Cancelled after %1.").arg(count_text(steps_done_, tr("step"), tr("steps"))));
        } else if (steps_done_ >= steps_requested_) {
            finish(RunEnd::Finished, tr("Completed %1.").arg(count_text(steps_done_, tr("step"), tr("steps"))));
        } else {
            startStep();
        }
        return;
    }
    case StepResult::Status::BudgetReached:
        finish(RunEnd::BudgetReached, QString::fromStdString(outcome->message));
        return;
    case StepResult::Status::Cancelled:
        finish(RunEnd::Cancelled,
               steps_done_ > 0 ? tr("Cancelled after %1; the step in progress was discarded.")
                                     .arg(count_text(steps_done_, tr("step"), tr("steps")))
                               : tr("Cancelled; the experiment is unchanged."));
        return;
    case StepResult::Status::Failed:
        finish(RunEnd::Failed, tr("The step failed: %1").arg(QString::fromStdString(outcome->message)));
        return;
    }
}

void RunController::cancel() {
    if (!running_ || cancelling_) return;
    cancelling_ = true;
    worker_.request_stop();
    progress_.phase = tr("cancelling");
    progress_.detail.clear();
    progress_.current = progress_.total = 0;
    emit progressChanged(progress_);
}

void RunController::cancelAndWait() {
    if (!running_) return;
    cancel();
    joinWorker();
    // Handle the outcome now instead of waiting for the queued call (which then finds the
    // outcome taken and does nothing).
    onStepDone(generation_);
}

void RunController::finish(RunEnd end, const QString& message) {
    given_points_.clear();
    setRunningTrials({});
    running_ = false;
    cancelling_ = false;
    ++generation_;
    emit runningChanged(false);
    emit runFinished(end, message);
}

}  // namespace sebo::ui
