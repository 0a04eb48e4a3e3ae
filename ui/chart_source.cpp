#include "chart_source.h"

#include <QAction>
#include <QMetaObject>
#include <QTimer>
#include <algorithm>
#include <sstream>

#include "core/thread_pool.h"
#include "experiment/replicates.h"

namespace sebo::ui {

namespace {

// After the last change of the trials, before an estimate starts: a run of quick changes (a results
// sheet, a merge) fits once.
constexpr int kDefaultDelayMs = 400;

}  // namespace

Experiment merged_replicates_view(const Experiment& experiment, std::map<int, std::vector<int>>* replicates) {
    Experiment view = experiment;
    for (const Replicates& group : analyzed_replicates(experiment)) {
        if (group.trials.size() < 2) continue;
        const int first = group.trials.front();
        Trial& stand_in = *view.find_trial(first);
        for (const std::string& metric : experiment.outcomes.metrics) {
            const MergedMeasurement merged = merged_measurement(experiment, group.trials, metric);
            if (merged.count > 0) stand_in.values[metric] = Measurement{merged.mean, merged.sem};
            else stand_in.values.erase(metric);
        }
        for (std::size_t i = 1; i < group.trials.size(); ++i) {
            Trial& other = *view.find_trial(group.trials[i]);
            other.status = TrialStatus::Abandoned;
            other.values.clear();
            other.error = "a replicate of trial " + std::to_string(first);
        }
        if (replicates) (*replicates)[first] = group.trials;
    }
    return view;
}

Experiment model_estimates_view(const Experiment& experiment, const RecommendationReport& estimates,
                                std::map<int, std::vector<int>>* replicates) {
    Experiment view = merged_replicates_view(experiment, replicates);
    for (const ConfigurationEstimate& c : estimates.configurations) {
        Trial* t = view.find_trial(c.trial());
        if (!t) continue;
        for (const auto& [metric, estimate] : c.estimates) t->values[metric] = Measurement{estimate.mean, std::nullopt};
    }
    return view;
}

std::string model_input_key(const Experiment& experiment) {
    std::ostringstream key;
    key << std::hexfloat;
    const Outcomes& o = experiment.outcomes;
    for (const std::string& m : o.metrics) key << m << ',';
    key << '|';
    for (const Objective& objective : o.objectives) key << objective.metric << objective.minimize << ',';
    key << '|';
    for (const OutcomeConstraint& c : o.constraints) key << c.text() << ',';
    const MethodSettings& m = experiment.method;
    key << '|' << to_string(m.resolved_model()) << m.warp_objective << m.warp_check << to_string(m.nuts) << '|' << experiment.seed << '|';
    for (const Trial& t : experiment.trials) {
        if (!experiment.analyzed(t)) continue;
        key << t.index << ':';
        for (double v : t.parameters) key << v << ',';
        for (const auto& [metric, value] : t.values) key << metric << '=' << value.mean << '/' << value.sem.value_or(-1.0) << ',';
        key << ';';
    }
    return key.str();
}

ChartSource::ChartSource(QObject* parent)
    : QObject(parent), toggle_(new QAction(tr("Model estimates"), this)), delay_(new QTimer(this)),
      pool_(std::make_unique<ThreadPool>(default_thread_count())) {
    qRegisterMetaType<sebo::ui::SnapshotPtr>();
    toggle_->setObjectName("modelEstimatesAction");
    toggle_->setCheckable(true);
    toggle_->setEnabled(false);
    connect(toggle_, &QAction::triggered, this, [this] {
        user_choice_ = true;
        publish();
    });
    delay_->setSingleShot(true);
    delay_->setInterval(kDefaultDelayMs);
    connect(delay_, &QTimer::timeout, this, &ChartSource::start);
}

ChartSource::~ChartSource() { stopWorker(); }

void ChartSource::stopWorker() {
    ++generation_;
    if (worker_.joinable()) {
        worker_.request_stop();
        worker_.join();
    }
    computing_ = false;
}

void ChartSource::setDelay(int milliseconds) { delay_->setInterval(milliseconds); }

std::shared_ptr<const RecommendationReport> ChartSource::estimates() const {
    return estimates_ && estimates_key_ == key_ && estimates_->status == RecommendationReport::Status::Ok ? estimates_
                                                                                                          : nullptr;
}

void ChartSource::reset() { user_choice_ = false; }

void ChartSource::setSnapshot(SnapshotPtr document) {
    document_ = std::move(document);
    const std::string key = document_ ? model_input_key(document_->experiment) : std::string();
    const bool changed = key != key_;
    key_ = key;
    if (changed) {
        // The running fit is for data that is gone.
        stopWorker();
        emit estimatesChanged();
        schedule();
    }
    publish();
}

void ChartSource::setRunning(bool running) {
    running_ = running;
    if (running) {
        delay_->stop();
        if (computing_) stopWorker();
    } else {
        schedule();
    }
    updateToggle();
}

void ChartSource::schedule() {
    if (!document_ || key_.empty() || running_ || estimates_key_ == key_ || computing_) return;
    delay_->start();
}

void ChartSource::start() {
    if (!document_ || running_ || estimates_key_ == key_) return;
    stopWorker();
    computing_ = true;
    updateToggle();
    const std::uint64_t generation = generation_;
    worker_ = std::jthread([this, experiment = document_->experiment, key = key_, generation](std::stop_token stop) {
        StepControl control;
        control.stop = stop;
        control.pool = pool_.get();
        auto report = std::make_shared<const RecommendationReport>(recommend_configurations(experiment, control));
        if (report->status == RecommendationReport::Status::Cancelled) return;
        // The source outlives the worker (its destructor joins); the call runs on its thread.
        QMetaObject::invokeMethod(
            this, [this, report, key, generation] { finished(report, key, generation); }, Qt::QueuedConnection);
    });
}

void ChartSource::finished(std::shared_ptr<const RecommendationReport> report, std::string key, std::uint64_t generation) {
    if (generation != generation_) return;
    if (worker_.joinable()) worker_.join();
    computing_ = false;
    estimates_ = std::move(report);
    estimates_key_ = std::move(key);
    emit estimatesChanged();
    publish();
}

void ChartSource::updateToggle() {
    const std::shared_ptr<const RecommendationReport> fresh = estimates();
    if (computing_)
        status_ = tr("Fitting the model for its estimates…");
    else if (running_ && !fresh)
        status_ = tr("The model's estimates are updated when the run ends.");
    else if (estimates_ && estimates_key_ == key_ && estimates_->status != RecommendationReport::Status::Ok)
        status_ = tr("No model estimates: %1").arg(QString::fromStdString(estimates_->message));
    else if (!fresh)
        status_ = tr("The model's estimates appear once two trials are measured.");
    else
        status_.clear();
    toggle_->setEnabled(fresh != nullptr);
    if (fresh && !user_choice_) {
        const QSignalBlocker block(toggle_);
        toggle_->setChecked(fresh->noisy_objective(document_->experiment));
    }
    toggle_->setToolTip(status_.isEmpty()
                            ? tr("Show each configuration at the model's estimate with its 95 % interval, the "
                                 "frontier line through the configuration recommended for every number of changes; "
                                 "off: the measurements (replicates as their mean ± standard error)")
                            : status_);
    toggle_->setText(computing_ ? tr("Model estimates (updating…)") : tr("Model estimates"));
}

void ChartSource::publish() {
    updateToggle();
    if (!document_) return;
    const std::shared_ptr<const RecommendationReport> fresh = estimates();
    std::map<int, std::vector<int>> replicates;
    if (fresh && toggle_->isChecked()) {
        std::map<int, std::vector<int>> groups;
        Experiment merged = merged_replicates_view(document_->experiment, &groups);
        SnapshotPtr measured =
            make_view_snapshot(std::move(merged), document_->revision, ValueView::MergedReplicates, std::move(groups));
        Experiment view = model_estimates_view(document_->experiment, *fresh, &replicates);
        chart_ = make_view_snapshot(std::move(view), document_->revision, ValueView::ModelEstimates, std::move(replicates),
                                    fresh, std::move(measured));
    } else {
        Experiment view = merged_replicates_view(document_->experiment, &replicates);
        chart_ = replicates.empty() ? document_
                                    : make_view_snapshot(std::move(view), document_->revision, ValueView::MergedReplicates,
                                                         std::move(replicates));
    }
    emit chartSnapshotChanged(chart_);
}

}  // namespace sebo::ui
