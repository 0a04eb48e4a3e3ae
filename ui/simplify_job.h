#pragma once
// Runs "simplify this configuration" and "explain this trial" (experiment/simplify.h) off the GUI
// thread, as Qt's mandelbrot example does: the worker copies the experiment, polls a stop token
// inside the model fit, and hands its result back by value through a queued call. Destroying the
// job cancels the fit and waits for the worker.

#include <QObject>
#include <QString>
#include <optional>
#include <stop_token>
#include <thread>

#include "experiment/simplify.h"

namespace sebo::ui {

struct SimplifyOutcome {
    bool ok = false;
    QString message;  // why not, when !ok
    SimplifyPath path;
    TrialExplanation explanation;
};

class SimplifyJob : public QObject {
    Q_OBJECT
public:
    explicit SimplifyJob(QObject* parent = nullptr);
    ~SimplifyJob() override;

    // Starts computing for `trial` (which must pass simplify_unavailable); a job still running is
    // cancelled first. finished() follows on this object's thread.
    void start(const Experiment& experiment, int trial, const SimplifyOptions& options = {});
    bool isRunning() const { return running_; }
    void cancel();

signals:
    void finished(const sebo::ui::SimplifyOutcome& outcome);

private:
    void stopWorker();

    std::jthread worker_;
    bool running_ = false;
    int generation_ = 0;  // results of a cancelled run are dropped
};

}  // namespace sebo::ui
