#include "experiment_document.h"

#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <exception>

#include "core/format.h"
#include "core/input_error.h"
#include "experiment/runner.h"
#include "experiment/trial_exclusion.h"
#include "io/experiment_file.h"

namespace sebo::ui {

ExperimentDocument::ExperimentDocument(QObject* parent) : QObject(parent), snapshot_(make_snapshot({}, 0)) {}

QString ExperimentDocument::displayName() const {
    if (!path_.isEmpty()) return QFileInfo(path_).fileName();
    if (!has_experiment_) return tr("No experiment");
    const QString name = QString::fromStdString(experiment().name);
    return name.isEmpty() ? tr("Untitled experiment") : name;
}

void ExperimentDocument::publish(Experiment experiment) {
    snapshot_ = make_snapshot(std::move(experiment), ++revision_);
    emit snapshotChanged(snapshot_);
}

void ExperimentDocument::setModified(bool modified) {
    if (modified_ == modified) return;
    modified_ = modified;
    emit modifiedChanged(modified_);
}

void ExperimentDocument::setExperiment(Experiment experiment, const QString& path) {
    has_experiment_ = true;
    path_ = path;
    selected_ = -1;
    publish(std::move(experiment));
    setModified(path.isEmpty());
    emit filePathChanged(path_);
    emit experimentReplaced();
    emit selectionChanged(selected_);
}

void ExperimentDocument::clear() {
    has_experiment_ = false;
    path_.clear();
    selected_ = -1;
    publish({});
    setModified(false);
    emit filePathChanged(path_);
    emit experimentReplaced();
    emit selectionChanged(selected_);
}

std::optional<QString> ExperimentDocument::open(const QString& path) {
    Experiment loaded;
    try {
        loaded = load_experiment(path.toStdString());
    } catch (const InputError& error) {
        return QString::fromStdString(error.what());
    } catch (const std::exception& error) {
        return QString::fromStdString(error.what());
    }
    setExperiment(std::move(loaded), QFileInfo(path).absoluteFilePath());
    setModified(false);
    return std::nullopt;
}

std::optional<QString> ExperimentDocument::save() {
    if (path_.isEmpty()) return tr("The experiment has no file yet: use Save As.");
    return saveAs(path_);
}

std::optional<QString> ExperimentDocument::saveAs(const QString& path) {
    try {
        save_experiment(experiment(), path.toStdString());
    } catch (const std::exception& error) {
        return QString::fromStdString(error.what());
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (absolute != path_) {
        path_ = absolute;
        emit filePathChanged(path_);
    }
    setModified(false);
    return std::nullopt;
}

std::optional<QString> ExperimentDocument::autosaveNow() {
    setModified(true);
    if (!autosave_ || path_.isEmpty()) return std::nullopt;
    return save();
}

std::optional<QString> ExperimentDocument::appendTrials(const std::vector<Trial>& trials) {
    Experiment next = experiment();
    for (const Trial& t : trials) next.trials.push_back(t);
    publish(std::move(next));
    return autosaveNow();
}

std::optional<QString> ExperimentDocument::appendStep(const std::vector<Trial>& trials,
                                                      std::optional<SamplerState> sampler_state) {
    Experiment next = experiment();
    for (const Trial& t : trials) next.trials.push_back(t);
    next.sampler_state = std::move(sampler_state);
    publish(std::move(next));
    return autosaveNow();
}

std::optional<QString> ExperimentDocument::recordResult(int trial, double objective, std::optional<double> sem) {
    if (!std::isfinite(objective)) return tr("The observed value %1 is not a finite number.").arg(objective);
    if (sem && (!std::isfinite(*sem) || *sem < 0))
        return tr("The standard error %1 is not a finite non-negative number.").arg(*sem);
    Experiment next = experiment();
    Trial* t = next.find_trial(trial);
    if (!t) return tr("There is no trial %1.").arg(trial);
    if (t->status != TrialStatus::Pending) return tr("Trial %1 is not waiting for a result.").arg(trial);
    t->status = TrialStatus::Completed;
    t->objective = objective;
    t->sem = sem;
    t->error.clear();
    t->completed_at = utc_timestamp();
    publish(std::move(next));
    return autosaveNow();
}

std::optional<QString> ExperimentDocument::recordFailure(int trial, const QString& reason) {
    Experiment next = experiment();
    Trial* t = next.find_trial(trial);
    if (!t) return tr("There is no trial %1.").arg(trial);
    if (t->status != TrialStatus::Pending) return tr("Trial %1 is not waiting for a result.").arg(trial);
    t->status = TrialStatus::Failed;
    t->objective.reset();
    t->sem.reset();
    t->error = reason.isEmpty() ? std::string("marked failed by hand") : reason.toStdString();
    t->completed_at = utc_timestamp();
    publish(std::move(next));
    return autosaveNow();
}

std::optional<QString> ExperimentDocument::recordResults(const std::vector<ResultRow>& rows) {
    Experiment next = experiment();
    const std::string now = utc_timestamp();
    for (const ResultRow& row : rows) {
        Trial* t = next.find_trial(row.trial);
        if (!t) return tr("There is no trial %1.").arg(row.trial);
        if (t->status != TrialStatus::Pending) return tr("Trial %1 is not waiting for a result.").arg(row.trial);
        if (row.failed) {
            t->status = TrialStatus::Failed;
            t->error = row.error;
        } else {
            if (!std::isfinite(row.objective)) return tr("Trial %1: the value is not a finite number.").arg(row.trial);
            t->status = TrialStatus::Completed;
            t->objective = row.objective;
            t->sem = row.sem;
        }
        t->completed_at = now;
    }
    if (rows.empty()) return std::nullopt;
    publish(std::move(next));
    return autosaveNow();
}

std::optional<QString> ExperimentDocument::setExcluded(int trial, const std::optional<QString>& reason) {
    Experiment next = experiment();
    const auto problem = reason ? exclude_trial(next, trial, reason->toStdString(), utc_timestamp())
                                : include_trial(next, trial);
    if (problem) return QString::fromStdString(*problem);
    publish(std::move(next));
    return autosaveNow();
}

void ExperimentDocument::setChosen(int trial, bool chosen, const QString& note) {
    Experiment next = experiment();
    if (!next.find_trial(trial)) return;
    auto it = std::find_if(next.chosen.begin(), next.chosen.end(),
                           [&](const ChosenConfiguration& c) { return c.trial == trial; });
    if (chosen) {
        if (it == next.chosen.end()) {
            next.chosen.push_back({trial, note.toStdString()});
        } else if (it->note == note.toStdString()) {
            return;
        } else {
            it->note = note.toStdString();
        }
    } else {
        if (it == next.chosen.end()) return;
        next.chosen.erase(it);
    }
    publish(std::move(next));
    setModified(true);
}

std::optional<QString> ExperimentDocument::setMethod(const MethodSettings& method, std::uint64_t seed) {
    if (auto error = method.validate()) return QString::fromStdString(*error);
    Experiment next = experiment();
    next.method = method;
    next.seed = seed;
    publish(std::move(next));
    setModified(true);
    return std::nullopt;
}

void ExperimentDocument::setSelectedTrial(int trial) {
    if (trial >= 0 && !snapshot_->trial(trial)) trial = -1;
    if (trial == selected_) return;
    selected_ = trial;
    emit selectionChanged(selected_);
}

}  // namespace sebo::ui
