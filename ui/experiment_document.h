#pragma once
// The open experiment of a window: the single owner of the Experiment value, its file, the
// unsaved-changes flag and the selected trial. Every change goes through here and ends in a
// new immutable snapshot (experiment_snapshot.h) published with snapshotChanged().
//
// Keeping work safe (SPEC §5, §7): with a file, new or changed trials are written to it at
// once (atomic save), so every completed trial is on disk before the next step starts; a
// file that fails to load leaves the current experiment untouched.

#include <QObject>
#include <QString>
#include <optional>
#include <vector>

#include "experiment/experiment.h"
#include "experiment_snapshot.h"
#include "results_import.h"

namespace sebo::ui {

class ExperimentDocument : public QObject {
    Q_OBJECT
public:
    explicit ExperimentDocument(QObject* parent = nullptr);

    bool hasExperiment() const { return has_experiment_; }
    const Experiment& experiment() const { return snapshot_->experiment; }
    SnapshotPtr snapshot() const { return snapshot_; }
    QString filePath() const { return path_; }
    bool isModified() const { return modified_; }
    // The file name, or the experiment name for an unsaved experiment.
    QString displayName() const;

    // Replaces the experiment (a new one, or one read elsewhere); not yet saved when path is empty.
    void setExperiment(Experiment experiment, const QString& path = {});
    void clear();

    // Reads and validates a file. On failure returns the engine's message (it names the field
    // path and the value) and keeps the current experiment as it was.
    std::optional<QString> open(const QString& path);
    std::optional<QString> save();
    std::optional<QString> saveAs(const QString& path);

    // Adds the trials of a completed step and autosaves. Returns the autosave error, if any
    // (the trials are kept in memory and the document stays modified).
    std::optional<QString> appendTrials(const std::vector<Trial>& trials);
    // The same, for a step that also replaced the sampler state (StepResult::sampler_state_changed):
    // both change together, in one snapshot and one save.
    std::optional<QString> appendStep(const std::vector<Trial>& trials, std::optional<SamplerState> sampler_state);
    // Manual evaluation of a pending trial (SPEC §1 "manual"): its observed value or a failure.
    std::optional<QString> recordResult(int trial, double objective, std::optional<double> sem = std::nullopt);
    std::optional<QString> recordFailure(int trial, const QString& reason);
    // Several results at once (an imported file): applied together and saved once; nothing
    // is applied when any row does not fit (its trial is missing or no longer pending).
    std::optional<QString> recordResults(const std::vector<ResultRow>& rows);

    // Leaves a completed trial out of the analysis with a reason, or (no reason) counts it again
    // (experiment/trial_exclusion.h), and autosaves. Returns why it cannot be done (no such
    // trial, not completed, an empty reason) or the autosave error.
    std::optional<QString> setExcluded(int trial, const std::optional<QString>& reason);

    // Picks (or un-picks) a trial, with a note, into Experiment::chosen.
    void setChosen(int trial, bool chosen, const QString& note = {});
    // Method settings and seed; refuses (returns the message) what does not validate.
    std::optional<QString> setMethod(const MethodSettings& method, std::uint64_t seed);

    int selectedTrial() const { return selected_; }
    void setSelectedTrial(int trial);

    // Autosave after trial changes when the experiment has a file (on by default).
    void setAutosave(bool on) { autosave_ = on; }
    bool autosave() const { return autosave_; }

signals:
    void snapshotChanged(sebo::ui::SnapshotPtr snapshot);
    void selectionChanged(int trial);
    void modifiedChanged(bool modified);
    void filePathChanged(const QString& path);
    // A new experiment replaced the previous one (open, new): views reset zoom, selection...
    void experimentReplaced();

private:
    void publish(Experiment experiment);
    void setModified(bool modified);
    std::optional<QString> autosaveNow();

    SnapshotPtr snapshot_;
    bool has_experiment_ = false;
    QString path_;
    bool modified_ = false;
    bool autosave_ = true;
    int selected_ = -1;
    int revision_ = 0;
};

}  // namespace sebo::ui
