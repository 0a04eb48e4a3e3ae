#include "experiment_document.h"

#include <QFile>
#include <QFileInfo>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <exception>
#include <set>

#include "core/format.h"
#include "core/input_error.h"
#include "core/timestamp.h"
#include "experiment/runner.h"
#include "experiment/trial_exclusion.h"
#include "file_change_watcher.h"
#include "file_locations.h"
#include "io/experiment_file.h"
#include "io/shared_experiment_file.h"

namespace sebo::ui {

namespace {

constexpr const char* kProgram = "sebo-explorer";
// How long a save waits for another process's save (they take milliseconds); the window is
// busy meanwhile, so not long.
constexpr double kSaveWaitSeconds = 5.0;

FileLockOptions save_lock_options() {
    FileLockOptions options;
    options.program = kProgram;
    options.wait_seconds = kSaveWaitSeconds;
    return options;
}

QString text(const std::exception& error) { return QString::fromStdString(error.what()); }

// The explorer holds an open file with its run lock, so that no `sebo run` runs it meanwhile
// ("c.sebo.json is open in `sebo-explorer` (pid 1234) since 12:01"). Never waits.
FileLock acquire_run_lock_of(const QString& absolute) {
    FileLockOptions options;
    options.program = kProgram;
    options.activity = "open in";
    return FileLock::acquire(run_lock_path(absolute.toStdString()), QFileInfo(absolute).fileName().toStdString(), options);
}

}  // namespace

ExperimentDocument::ExperimentDocument(QObject* parent)
    : QObject(parent), snapshot_(make_snapshot({}, 0)), watcher_(new FileChangeWatcher(this)),
      lock_poll_(new QTimer(this)) {
    connect(watcher_, &FileChangeWatcher::changed, this, [this] {
        if (access_ == Access::Writable) mergeExternalChanges();
        else if (access_ == Access::ReadOnly) emit fileChangedOnDisk();
    });
    // Read-only because another process runs the file: once it is done (its run lock is free),
    // the file is read again with write access, and the banner naming that process goes
    // (issue 32: "is being run by `sebo run` (pid …)" stayed after the run ended).
    lock_poll_->setInterval(kLockPollMs);
    connect(lock_poll_, &QTimer::timeout, this, &ExperimentDocument::pollRunLock);
}

void ExperimentDocument::pollRunLock() {
    if (access_ != Access::ReadOnly || path_.isEmpty()) {
        lock_poll_->stop();
        return;
    }
    try {
        FileLock probe = acquire_run_lock_of(path_);  // released at once: open() takes it again
    } catch (const std::exception&) {
        return;  // still run elsewhere
    }
    const QString name = QFileInfo(path_).fileName();
    if (open(path_)) return;  // not readable now; the next poll tries again
    if (access_ == Access::Writable)
        emit notice(tr("%1 is no longer run by another process: it was read again and can be changed here.").arg(name));
}

ExperimentDocument::~ExperimentDocument() = default;

QString ExperimentDocument::displayName() const {
    if (!path_.isEmpty())
        return isReadOnly() ? tr("%1 (read-only)").arg(QFileInfo(path_).fileName()) : QFileInfo(path_).fileName();
    if (!has_experiment_) return tr("No experiment");
    if (!copy_source_.isEmpty()) return tr("%1 (example copy)").arg(QFileInfo(copy_source_).fileName());
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

std::unique_ptr<SharedExperimentFile> ExperimentDocument::makeShared(const QString& path) {
    // A write lock taken over from a process that died in the middle of a save is worth a note.
    return std::make_unique<SharedExperimentFile>(path.toStdString(), save_lock_options(), [this](const std::string& note) {
        emit notice(QString::fromStdString(note));
    });
}

void ExperimentDocument::install(Experiment experiment, const QString& path, Access access, FileLock lock,
                                 std::unique_ptr<SharedExperimentFile> shared, const QString& reason,
                                 const QString& copy_source) {
    discardRecovery();
    run_lock_ = std::move(lock);
    shared_ = std::move(shared);
    access_ = access;
    read_only_reason_ = reason;
    copy_source_ = copy_source;
    last_renumbered_.clear();
    has_experiment_ = true;
    path_ = path;
    selected_ = -1;
    watcher_->watch(path);
    if (access_ == Access::ReadOnly) lock_poll_->start();
    else lock_poll_->stop();
    publish(std::move(experiment));
    setModified(path.isEmpty());
    emit filePathChanged(path_);
    emit accessChanged();
    emit experimentReplaced();
    emit selectionChanged(selected_);
}

void ExperimentDocument::setExperiment(Experiment experiment, const QString& path) {
    if (path.isEmpty()) {
        install(std::move(experiment), {}, Access::Untitled, {}, nullptr, {});
        return;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (absolute == path_ && access_ != Access::Untitled) {
        // The open file, held as it is: only the experiment is replaced.
        install(std::move(experiment), path_, access_, std::move(run_lock_), std::move(shared_), read_only_reason_);
        setModified(false);
        return;
    }
    // Another file: held as an opened one, with this experiment as what it was read to hold.
    FileLock lock;
    QString reason;
    try {
        lock = acquire_run_lock_of(absolute);
    } catch (const std::exception& error) {
        reason = text(error);
    }
    auto shared = makeShared(absolute);
    shared->adopt(experiment, {});
    const Access access = reason.isEmpty() ? Access::Writable : Access::ReadOnly;
    install(std::move(experiment), absolute, access, std::move(lock), std::move(shared), reason);
    setModified(false);
}

void ExperimentDocument::clear() {
    discardRecovery();
    run_lock_.release();
    shared_.reset();
    access_ = Access::Untitled;
    read_only_reason_.clear();
    copy_source_.clear();
    has_experiment_ = false;
    path_.clear();
    selected_ = -1;
    watcher_->watch({});
    publish({});
    setModified(false);
    emit filePathChanged(path_);
    emit accessChanged();
    emit experimentReplaced();
    emit selectionChanged(selected_);
}

void ExperimentDocument::discardRecovery() {
    if (recovery_path_.isEmpty()) return;
    QFile::remove(recovery_path_);
    recovery_path_.clear();
    recovery_lock_.release();
}

namespace {

// The lock on a recovery file that says a window autosaves to it (file_locations.h).
FileLock acquire_recovery_lock(const QString& path) {
    FileLockOptions options;
    options.program = kProgram;
    options.activity = "open in";
    return FileLock::acquire(recovery_lock_path(path).toStdString(), QFileInfo(path).fileName().toStdString(), options);
}

}  // namespace

std::optional<QString> ExperimentDocument::openRecovery(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    FileLock lock;
    Experiment loaded;
    try {
        lock = acquire_recovery_lock(absolute);
        loaded = load_experiment(absolute.toStdString());
    } catch (const FileBusyError&) {
        return tr("%1 is open in another window.").arg(QFileInfo(absolute).fileName());
    } catch (const std::exception& error) {
        return text(error);
    }
    install(std::move(loaded), {}, Access::Untitled, {}, nullptr, {});
    recovery_path_ = absolute;
    recovery_lock_ = std::move(lock);
    recovery_text_ = {};
    // Not in a file of the user's: unsaved until Save As.
    setModified(true);
    return std::nullopt;
}

std::optional<QString> ExperimentDocument::open(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (is_bundled_path(absolute)) return openCopy(absolute);
    // The run lock first: a file that another process runs opens read-only. The lock already
    // held for this very file is kept (reopening it).
    const bool reopening = absolute == path_ && access_ == Access::Writable;
    FileLock lock;
    QString reason;
    if (!reopening) {
        try {
            lock = acquire_run_lock_of(absolute);
        } catch (const FileBusyError& busy) {
            reason = text(busy);
        } catch (const std::exception& error) {
            // No lock can be taken here (a folder without write permission): nothing can be
            // saved there either.
            reason = text(error);
        }
    }
    auto shared = makeShared(absolute);
    Experiment loaded;
    try {
        loaded = shared->load();
    } catch (const std::exception& error) {
        return text(error);
    }
    const QString note = QString::fromStdString(takeover_note(lock, QFileInfo(absolute).fileName().toStdString()));
    if (reopening) lock = std::move(run_lock_);
    const Access access = reason.isEmpty() ? Access::Writable : Access::ReadOnly;
    install(std::move(loaded), absolute, access, std::move(lock), std::move(shared), reason);
    setModified(false);
    if (!note.isEmpty()) emit notice(note);
    return std::nullopt;
}

std::optional<QString> ExperimentDocument::openCopy(const QString& path) {
    Experiment loaded;
    try {
        loaded = load_experiment(path.toStdString());
    } catch (const std::exception& error) {
        return text(error);
    }
    install(std::move(loaded), {}, Access::Untitled, {}, nullptr, {}, QFileInfo(path).absoluteFilePath());
    // An unchanged copy needs no saving; its first change does.
    setModified(false);
    return std::nullopt;
}

std::optional<QString> ExperimentDocument::reload() {
    if (path_.isEmpty()) return tr("The experiment has no file to reload.");
    if (access_ == Access::Writable) {
        mergeExternalChanges();
        return std::nullopt;
    }
    return open(path_);
}

void ExperimentDocument::reportMerge(const MergeReport& report) {
    last_renumbered_ = report.renumbered;
    if (report.empty()) return;
    QStringList messages;
    for (const std::string& line : describe_merge(report, "outside the explorer", "in the explorer"))
        messages << QString::fromStdString(line);
    if (selected_ >= 0) {
        const int moved = report.new_index(selected_);
        if (moved != selected_) setSelectedTrial(moved);
    }
    emit externalChangesMerged(messages, false);
}

void ExperimentDocument::mergeExternalChanges() {
    if (access_ != Access::Writable || !shared_) return;
    Experiment mine = experiment();
    MergeReport report;
    try {
        report = shared_->refresh(mine);
    } catch (const std::exception& error) {
        emit externalChangesMerged(
            {tr("%1 was changed outside the explorer in a way that cannot be merged: %2 The explorer keeps its copy; "
                "its next save will be refused until the file is fixed, or use Save As.")
                 .arg(QFileInfo(path_).fileName(), text(error))},
            true);
        return;
    }
    // New warm starts alone are taken silently: the next step here starts from them.
    if (report.empty() && !report.sampler_states_taken) return;
    const bool modified = modified_;
    publish(std::move(mine));
    setModified(modified);
    reportMerge(report);
}

std::optional<QString> ExperimentDocument::refuseReadOnly() const {
    if (!isReadOnly()) return std::nullopt;
    return tr("Read-only: %1").arg(read_only_reason_);
}

std::optional<QString> ExperimentDocument::save() {
    if (path_.isEmpty()) return tr("The experiment has no file yet: use Save As.");
    return saveAs(path_);
}

std::optional<QString> ExperimentDocument::saveShared() {
    Experiment mine = experiment();
    MergeReport report;
    try {
        report = shared_->save(mine);
    } catch (const std::exception& error) {
        return text(error);
    }
    if (!report.empty()) publish(std::move(mine));
    setModified(false);
    reportMerge(report);
    emit autosaved(path_, false);
    return std::nullopt;
}

std::optional<QString> ExperimentDocument::saveAs(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (absolute == path_ && access_ == Access::Writable) return saveShared();
    if (auto refused = refuse_bundled_path(absolute)) return refused;
    FileLock lock;
    auto shared = makeShared(absolute);
    try {
        lock = acquire_run_lock_of(absolute);
        shared->replace(experiment());
    } catch (const std::exception& error) {
        return text(error);
    }
    discardRecovery();
    run_lock_ = std::move(lock);
    shared_ = std::move(shared);
    const bool access_changed = access_ != Access::Writable || !copy_source_.isEmpty();
    access_ = Access::Writable;
    read_only_reason_.clear();
    copy_source_.clear();
    watcher_->watch(absolute);
    if (absolute != path_) {
        path_ = absolute;
        emit filePathChanged(path_);
    }
    if (access_changed) emit accessChanged();
    setModified(false);
    return std::nullopt;
}

std::optional<QString> ExperimentDocument::autosaveNow() {
    setModified(true);
    if (!autosave_) return std::nullopt;
    if (access_ == Access::Writable) return saveShared();
    if (access_ != Access::Untitled || !recovery_enabled_ || !has_experiment_) return std::nullopt;
    // Untitled: a recovery file in the user's data folder, never the example's own file. The
    // experiment stays "modified": it is not in a file of the user's yet.
    try {
        if (recovery_path_.isEmpty()) {
            const QString path = new_recovery_path(copy_source_.isEmpty() ? QString::fromStdString(experiment().name)
                                                                          : QFileInfo(copy_source_).fileName());
            recovery_lock_ = acquire_recovery_lock(path);
            recovery_path_ = path;
        }
        save_experiment(experiment(), recovery_path_.toStdString(), &recovery_text_);
    } catch (const std::exception& error) {
        return text(error);
    }
    emit autosaved(recovery_path_, true);
    return std::nullopt;
}

std::optional<QString> ExperimentDocument::appendTrials(const std::vector<Trial>& trials, std::vector<int>* final_indices) {
    return append(trials, nullptr, final_indices);
}

std::optional<QString> ExperimentDocument::appendStep(const std::vector<Trial>& trials,
                                                      std::optional<SamplerState> sampler_state,
                                                      std::vector<int>* final_indices) {
    return append(trials, &sampler_state, final_indices);
}

std::optional<QString> ExperimentDocument::append(const std::vector<Trial>& trials,
                                                  std::optional<SamplerState>* sampler_state,
                                                  std::vector<int>* final_indices) {
    if (auto refused = refuseReadOnly()) return refused;
    Experiment next = experiment();
    // The step was computed on a copy: trials recorded elsewhere and merged in meanwhile may
    // have taken its indices.
    std::set<int> taken;
    for (const Trial& t : next.trials) taken.insert(t.index);
    std::vector<int> indices;
    for (Trial t : trials) {
        if (taken.count(t.index)) t.index = *taken.rbegin() + 1;
        taken.insert(t.index);
        indices.push_back(t.index);
        next.trials.push_back(std::move(t));
    }
    if (sampler_state) next.sampler_state = std::move(*sampler_state);
    return publishAndSaveTrials(std::move(next), std::move(indices), final_indices);
}

std::optional<QString> ExperimentDocument::publishAndSaveTrials(Experiment next, std::vector<int> indices,
                                                                std::vector<int>* final_indices) {
    publish(std::move(next));
    last_renumbered_.clear();
    std::optional<QString> error = autosaveNow();
    // Saving may merge trials another process wrote meanwhile and renumber ours.
    for (int& index : indices)
        for (const auto& [from, to] : last_renumbered_)
            if (from == index) {
                index = to;
                break;
            }
    if (final_indices) *final_indices = std::move(indices);
    return error;
}

std::optional<QString> ExperimentDocument::recordEvaluations(const std::vector<Trial>& trials,
                                                             std::vector<int>* final_indices) {
    if (auto refused = refuseReadOnly()) return refused;
    Experiment next = experiment();
    std::vector<Trial> again;  // measured here after a result was recorded elsewhere
    std::vector<int> indices;
    for (const Trial& evaluated : trials) {
        Trial* t = next.find_trial(evaluated.index);
        if (t && t->status == TrialStatus::Pending) {
            *t = evaluated;
            indices.push_back(evaluated.index);
        } else {
            again.push_back(evaluated);
            indices.push_back(-1);
        }
    }
    int next_index = next.next_trial_index();
    for (std::size_t i = 0, k = 0; i < indices.size(); ++i)
        if (indices[i] < 0) {
            again[k].index = next_index++;
            indices[i] = again[k].index;
            next.trials.push_back(again[k++]);
        }
    return publishAndSaveTrials(std::move(next), std::move(indices), final_indices);
}

std::optional<QString> ExperimentDocument::abandonTrials(const std::vector<int>& trials, const QString& reason) {
    if (auto refused = refuseReadOnly()) return refused;
    if (trials.empty()) return std::nullopt;
    Experiment next = experiment();
    std::vector<ObservedResult> results;
    for (int trial : trials) {
        const Trial* t = next.find_trial(trial);
        if (!t) return tr("There is no trial %1.").arg(trial);
        if (t->status != TrialStatus::Pending) return tr("Trial %1 is not waiting for a result.").arg(trial);
        results.push_back({trial, TrialStatus::Abandoned, {}, reason.isEmpty() ? std::string("abandoned in the explorer")
                                                                               : reason.toStdString()});
    }
    record_results(next, results, utc_timestamp());
    publish(std::move(next));
    return autosaveNow();
}

std::optional<QString> ExperimentDocument::recordResult(int trial, double objective, std::optional<double> sem) {
    if (auto refused = refuseReadOnly()) return refused;
    if (!std::isfinite(objective)) return tr("The observed value %1 is not a finite number.").arg(objective);
    if (sem && (!std::isfinite(*sem) || *sem < 0))
        return tr("The standard error %1 is not a finite non-negative number.").arg(*sem);
    Experiment next = experiment();
    Trial* t = next.find_trial(trial);
    if (!t) return tr("There is no trial %1.").arg(trial);
    if (t->status != TrialStatus::Pending) return tr("Trial %1 is not waiting for a result.").arg(trial);
    t->status = TrialStatus::Completed;
    t->values = {{next.primary_objective().metric, Measurement{objective, sem}}};
    t->error.clear();
    if (const auto error = next.validate()) return QString::fromStdString(*error);
    t->completed_at = utc_timestamp();
    publish(std::move(next));
    return autosaveNow();
}

std::optional<QString> ExperimentDocument::recordFailure(int trial, const QString& reason) {
    if (auto refused = refuseReadOnly()) return refused;
    Experiment next = experiment();
    Trial* t = next.find_trial(trial);
    if (!t) return tr("There is no trial %1.").arg(trial);
    if (t->status != TrialStatus::Pending) return tr("Trial %1 is not waiting for a result.").arg(trial);
    t->status = TrialStatus::Failed;
    t->values.clear();
    t->error = reason.isEmpty() ? std::string("marked failed by hand") : reason.toStdString();
    t->completed_at = utc_timestamp();
    publish(std::move(next));
    return autosaveNow();
}

std::optional<QString> ExperimentDocument::recordResults(const std::vector<ObservedResult>& results) {
    if (auto refused = refuseReadOnly()) return refused;
    if (results.empty()) return std::nullopt;
    Experiment next = experiment();
    for (const ObservedResult& result : results)
        if (const auto problem = check_result(next, result, false))
            return tr("Trial %1: %2").arg(result.trial).arg(QString::fromStdString(*problem));
    record_results(next, results, utc_timestamp());
    publish(std::move(next));
    return autosaveNow();
}

std::optional<QString> ExperimentDocument::importTrials(std::vector<Trial> trials) {
    const std::string now = utc_timestamp();
    for (Trial& t : trials) t.created_at = now;
    return append(trials, nullptr, nullptr);
}

std::optional<QString> ExperimentDocument::setExcluded(int trial, const std::optional<QString>& reason) {
    if (auto refused = refuseReadOnly()) return refused;
    Experiment next = experiment();
    const auto problem = reason ? exclude_trial(next, trial, reason->toStdString(), utc_timestamp())
                                : include_trial(next, trial);
    if (problem) return QString::fromStdString(*problem);
    publish(std::move(next));
    return autosaveNow();
}

void ExperimentDocument::setChosen(int trial, bool chosen, const QString& note) {
    if (isReadOnly()) return;
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
    if (auto refused = refuseReadOnly()) return refused;
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
