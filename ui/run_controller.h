#pragma once
// Runs engine steps on a worker thread so the window never freezes (SPEC §5, DESIGN
// "Threading"), following Qt's mandelbrot example: the worker gets a COPY of the experiment,
// polls a std::stop_token inside the engine's loops, and sends its results back by value
// through queued calls; the GUI thread applies them to the ExperimentDocument.
//
// One run is a sequence of single-trial steps; while the experiment has pending trials and an
// evaluator that runs by itself, a step evaluates the first of them instead of proposing. After each step the new trials are appended
// to the document, which autosaves them, and only then is the next step started from a fresh
// copy of the document; so every completed trial is on disk before the next step begins, and
// edits made meanwhile (chosen configurations, manual results) are never overwritten.
// Cancelling leaves the experiment exactly as it was before the step (run_step's contract).

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>
#include <thread>

#include "experiment/runner.h"
#include "experiment/strategy.h"
#include "problems/problem.h"

namespace sebo {
class ThreadPool;
}

namespace sebo::ui {

class ExperimentDocument;

struct RunProgress {
    QString phase;  // from StepProgress: "fitting model", "optimizing acquisition", ...
    int current = 0;
    int total = 0;
    QString detail;
    int step = 0;         // 1-based step of the current run
    int steps_total = 0;  // steps requested in this run
};

enum class RunEnd {
    Finished,       // every requested step completed
    BudgetReached,  // stopped because the experiment has its budget of trials
    Cancelled,      // the user cancelled; the step in progress left no trace
    Failed          // a step failed (message says why); earlier steps of the run are kept
};

class RunController : public QObject {
    Q_OBJECT
public:
    // A run stops (RunEnd::Failed) after this many failed evaluations in a row, so that a broken
    // evaluator does not spend the budget on failures (as `sebo run --max-failures`).
    static constexpr int kMaxFailuresInARow = 5;

    using StrategyFactory = std::function<std::unique_ptr<Strategy>(const MethodSettings&)>;

    // The default strategy factory is the engine's make_strategy.
    explicit RunController(ExperimentDocument* document, QObject* parent = nullptr);
    RunController(ExperimentDocument* document, StrategyFactory factory, QObject* parent = nullptr);
    // Cancels a running step and waits for the worker to return.
    ~RunController() override;

    // Replaces how strategies are made (tests inject slow or endless strategies here).
    void setStrategyFactory(StrategyFactory factory);

    bool isRunning() const { return running_; }
    bool isCancelling() const { return cancelling_; }
    // Seconds since the current run / step started (0 when idle).
    double runSeconds() const;
    double stepSeconds() const;
    RunProgress lastProgress() const { return progress_; }
    // Steps of the current run: requested, finished, and the seconds each finished one took.
    int stepsRequested() const { return running_ ? steps_requested_ : 0; }
    int stepsDone() const { return running_ ? steps_done_ : 0; }
    const std::vector<double>& finishedStepSeconds() const { return step_seconds_; }
    // Seconds until the run ends, from the measured step times (run_eta.h); nothing before there
    // is any measure.
    std::optional<double> remainingSeconds() const;
    // The trials being evaluated now: proposed by the running step, not in the document yet.
    const std::vector<Trial>& runningTrials() const { return running_trials_; }

    // Steps a run may take: the room left in the budget, and the pending trials of an evaluator
    // that runs by itself (a built-in problem, a command), which a step evaluates before it
    // proposes anything new (experiment/runner.h's evaluate_pending).
    static int stepsAvailable(const Experiment& experiment);
    // Why a run cannot start now (no experiment, already running, budget reached, an
    // evaluator kind this version cannot run), or empty when it can.
    QString cannotRunReason() const;
    // The same, leaving out the approval of an external command, which the window asks for
    // when the run is started (a reason that the person can do nothing about at once stays).
    QString cannotRunOnceApproved() const;
    // An experiment whose evaluator is an external command runs only after the user approved
    // exactly what it runs (SPEC §7: a loaded file never runs a command without confirmation).
    // The approval is the key of what was shown (command_trust_store.h: program, arguments,
    // folder, environment, timeout, concurrency); it is compared again before every step, so a
    // changed evaluator section — reloaded, merged, edited — ends the run, and the next step asks.
    void approveCommand(const QByteArray& key);
    void revokeCommandApproval();
    bool commandApproved() const;

public slots:
    bool step() { return run(1); }
    // Runs `steps` single-trial steps (stopping early at the budget).
    bool run(int steps);
    bool runToBudget();
    // Runs the given configurations (user units, the varying parameters), one trial per step, in
    // order, through the same path as run(): the experiment's evaluator, the command approval,
    // every trial saved before the next. `generator` is recorded on the trials (e.g. "simplify").
    // Refused (runFinished(BudgetReached) with the reason) when the budget has no room for all.
    bool runConfigurations(const std::vector<std::vector<double>>& points, const std::string& generator);
    // Requests cancellation; runFinished(Cancelled) follows when the worker has returned.
    void cancel();
    // Cancels and blocks until the worker has returned (closing the window).
    void cancelAndWait();

signals:
    void runningChanged(bool running);
    void progressChanged(const sebo::ui::RunProgress& progress);
    // A step completed: its trials are already in the document (and on disk when it has a file).
    void stepCompleted(const QList<int>& new_trials);
    void runFinished(sebo::ui::RunEnd end, const QString& message);
    // The trials are kept in memory but could not be written to the experiment's file.
    void autosaveFailed(const QString& message);
    // The evaluation of these trials began (runningTrials() has them) / runningTrials() changed.
    void evaluationsStarted(const QList<int>& trials);
    void runningTrialsChanged();
    // A line an external command wrote to stderr while evaluating `trial`, as it arrived.
    void evaluatorOutput(int trial, const QString& line);
    // Lines that came faster than the window took them, and were dropped.
    void evaluatorOutputDropped(int count);

private:
    struct StepOutcome;
    void startStep();
    void onStepDone(std::uint64_t generation);
    void onProgress(const RunProgress& progress, std::uint64_t generation);
    void finish(RunEnd end, const QString& message);
    void joinWorker();
    void onEvaluationsStarted(std::vector<Trial> trials, std::uint64_t generation);
    void setRunningTrials(std::vector<Trial> trials);
    // Called on the worker thread by the command's stderr sink; flushOutput() hands the lines
    // over on the GUI thread, many per event.
    void postOutput(int trial, std::string line);
    void flushOutput();

    ExperimentDocument* document_;
    StrategyFactory factory_;
    // The engine's threads for the parallel parts of a step (NUTS chains, optimizer restarts),
    // one per CPU; used by one step at a time, from the worker thread.
    std::unique_ptr<ThreadPool> pool_;
    std::jthread worker_;
    bool running_ = false;
    bool cancelling_ = false;
    int steps_requested_ = 0;
    int steps_done_ = 0;
    FailureStreak failures_;  // in the current run
    // Distinguishes results of an old run from the current one.
    std::uint64_t generation_ = 0;
    QElapsedTimer run_clock_;
    QElapsedTimer step_clock_;
    std::vector<double> step_seconds_;
    std::optional<double> prior_step_seconds_;
    std::vector<Trial> running_trials_;
    // stderr lines on their way from the worker to the GUI thread (bounded: beyond
    // kMaxPendingOutput lines they are counted and dropped).
    static constexpr std::size_t kMaxPendingOutput = 5000;
    std::mutex output_mutex_;
    std::vector<std::pair<int, std::string>> output_pending_;
    int output_dropped_ = 0;
    bool output_flush_posted_ = false;
    RunProgress progress_;
    // The built-in problem of the experiment, built once (some problems generate a world).
    std::shared_ptr<const Problem> problem_;
    std::string problem_key_;
    QByteArray approved_command_;
    // The configurations runConfigurations() still has to run, and their generator.
    std::deque<std::vector<double>> given_points_;
    std::string given_generator_;
    // The worker leaves its outcome here; the queued call that follows only says "done", so
    // cancelAndWait() can also collect it synchronously.
    std::mutex outcome_mutex_;
    std::shared_ptr<StepOutcome> outcome_;
    std::uint64_t outcome_generation_ = 0;
};

}  // namespace sebo::ui

Q_DECLARE_METATYPE(sebo::ui::RunProgress)
Q_DECLARE_METATYPE(sebo::ui::RunEnd)
