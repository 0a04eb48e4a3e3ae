#include "experiment_snapshot.h"

#include <QObject>
#include <algorithm>
#include <cmath>

namespace sebo::ui {

bool ExperimentSnapshot::isPareto(int trial) const {
    return std::binary_search(pareto_sorted_.begin(), pareto_sorted_.end(), trial);
}

int ExperimentSnapshot::position(int trial) const {
    const auto it = position_.find(trial);
    return it == position_.end() ? -1 : it->second;
}

const Trial* ExperimentSnapshot::trial(int index) const {
    const int at = position(index);
    return at < 0 ? nullptr : &experiment.trials[static_cast<std::size_t>(at)];
}

int ExperimentSnapshot::sparsityOf(int trial) const {
    const int at = position(trial);
    return at < 0 ? -1 : sparsity[static_cast<std::size_t>(at)];
}

const ChosenConfiguration* ExperimentSnapshot::chosen(int trial) const {
    for (const ChosenConfiguration& c : experiment.chosen)
        if (c.trial == trial) return &c;
    return nullptr;
}

QStringList ExperimentSnapshot::activeNames(int trial) const {
    QStringList names;
    const Trial* t = this->trial(trial);
    if (!t || static_cast<int>(t->parameters.size()) != experiment.space.dimension()) return names;
    const std::vector<bool> mask = experiment.space.active_mask(t->parameters);
    for (int i = 0; i < experiment.space.dimension(); ++i)
        if (mask[static_cast<std::size_t>(i)]) names << QString::fromStdString(experiment.space.parameter(i).name);
    return names;
}

int ExperimentSnapshot::completedCount() const { return experiment.count(TrialStatus::Completed); }

int ExperimentSnapshot::standIn(int trial) const {
    for (const auto& [first, trials] : replicates)
        if (std::find(trials.begin(), trials.end(), trial) != trials.end()) return first;
    return trial;
}

std::vector<int> ExperimentSnapshot::measurementsOf(int trial) const {
    const auto it = replicates.find(standIn(trial));
    return it == replicates.end() ? std::vector<int>{trial} : it->second;
}

const ConfigurationEstimate* ExperimentSnapshot::estimateOf(int trial) const {
    return estimates && values == ValueView::ModelEstimates ? estimates->find(trial) : nullptr;
}

SnapshotPtr make_snapshot(Experiment experiment, int revision) {
    return make_view_snapshot(std::move(experiment), revision, ValueView::Measured, {});
}

SnapshotPtr make_view_snapshot(Experiment experiment, int revision, ValueView values, std::map<int, std::vector<int>> replicates,
                               std::shared_ptr<const RecommendationReport> estimates, SnapshotPtr measured) {
    auto snapshot = std::make_shared<ExperimentSnapshot>();
    snapshot->revision = revision;
    snapshot->values = values;
    snapshot->replicates = std::move(replicates);
    snapshot->estimates = std::move(estimates);
    snapshot->measured = std::move(measured);
    snapshot->experiment = std::move(experiment);
    const Experiment& e = snapshot->experiment;
    snapshot->report = analyze_frontier(e);
    snapshot->sparsity.reserve(e.trials.size());
    for (std::size_t i = 0; i < e.trials.size(); ++i) {
        const Trial& t = e.trials[i];
        snapshot->position_[t.index] = static_cast<int>(i);
        const bool sized = static_cast<int>(t.parameters.size()) == e.space.dimension();
        snapshot->sparsity.push_back(sized ? e.sparsity(t) : -1);
        if (t.status == TrialStatus::Completed) snapshot->newest_completed = t.index;
    }
    snapshot->pareto_sorted_ = snapshot->report.pareto_trials;
    std::sort(snapshot->pareto_sorted_.begin(), snapshot->pareto_sorted_.end());
    return snapshot;
}

QString display_number(double value, int significant) {
    if (!std::isfinite(value)) return QString::number(value);
    return QString::number(value, 'g', significant);
}

QString display_duration(double seconds) {
    if (!(seconds >= 0.001)) return QStringLiteral("< 1 ms");
    if (seconds < 1.0) return QString("%1 ms").arg(static_cast<int>(std::lround(seconds * 1000.0)));
    if (seconds < 60.0) return QString("%1 s").arg(seconds, 0, 'f', 1);
    const long long whole = std::llround(seconds);
    return QString("%1 min %2 s").arg(whole / 60).arg(whole % 60);
}

QString count_text(long long n, const QString& singular, const QString& plural) {
    return QString("%1 %2").arg(n).arg(n == 1 ? singular : plural);
}

QString display_value(const Parameter& parameter, double value) {
    if (parameter.kind == ParameterKind::Choice) return QString::fromStdString(value_text(parameter, value));
    if (parameter.kind == ParameterKind::Integer && std::isfinite(value))
        return QString::number(static_cast<long long>(std::llround(value)));
    return display_number(value);
}

QString display_changes(const SearchSpace& space, const std::vector<ParameterChange>& changes, const QString& separator) {
    if (changes.empty()) return QObject::tr("no change");
    QStringList parts;
    for (const ParameterChange& c : changes) {
        const Parameter& p = space.parameter(c.parameter);
        parts << QString("%1 %2 \u2192 %3").arg(QString::fromStdString(c.name), display_value(p, c.from), display_value(p, c.to));
    }
    return parts.join(separator);
}

}  // namespace sebo::ui
