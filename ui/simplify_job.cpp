#include "simplify_job.h"

#include <QMetaObject>

namespace sebo::ui {

SimplifyJob::SimplifyJob(QObject* parent) : QObject(parent) {}

SimplifyJob::~SimplifyJob() { stopWorker(); }

void SimplifyJob::stopWorker() {
    if (worker_.joinable()) {
        worker_.request_stop();
        worker_.join();
    }
}

void SimplifyJob::cancel() {
    ++generation_;
    stopWorker();
    running_ = false;
}

void SimplifyJob::start(const Experiment& experiment, int trial, const SimplifyOptions& options) {
    cancel();
    running_ = true;
    const int generation = generation_;
    worker_ = std::jthread([this, experiment, trial, options, generation](std::stop_token stop) {
        SimplifyOutcome outcome;
        StepControl control;
        control.stop = stop;
        const SimplifyModelFit fit = fit_simplify_model(experiment, control);
        if (fit.status == SimplifyModelFit::Status::Cancelled) return;
        if (fit.status == SimplifyModelFit::Status::Failed) {
            outcome.message = QString::fromStdString(fit.message);
        } else {
            outcome.ok = true;
            outcome.path = simplify_path(experiment, *fit.model, trial, options);
            outcome.explanation = explain_trial(experiment, *fit.model, trial);
        }
        // The job outlives the worker (its destructor joins), so `this` is valid here; the call
        // runs on the job's thread.
        QMetaObject::invokeMethod(
            this,
            [this, generation, outcome = std::move(outcome)] {
                if (generation != generation_) return;
                running_ = false;
                emit finished(outcome);
            },
            Qt::QueuedConnection);
    });
}

}  // namespace sebo::ui
