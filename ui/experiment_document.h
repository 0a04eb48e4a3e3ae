#pragma once
// The open experiment of a window: the single owner of the Experiment value, its file, the
// unsaved-changes flag and the selected trial. Every change goes through here and ends in a
// new immutable snapshot (experiment_snapshot.h) published with snapshotChanged().
//
// Keeping work safe (SPEC §5, §7): with a file, new or changed trials are written to it at
// once (atomic save), so every completed trial is on disk before the next step starts; a
// file that fails to load leaves the current experiment untouched.
//
// Sharing the file with other processes (docs/file-format.md, "Several writers"): an open file
// is held with its run lock, so no `sebo run` runs it meanwhile; `sebo observe` or `sebo
// suggest` may still record in it, and what they wrote is merged in as soon as the file changes
// (and again before every save), never written over. A file that another process runs opens
// read-only. The application's own files (the bundled examples) open as untitled copies, which
// autosave to a recovery file when that is enabled (file_locations.h).

#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <vector>

#include "experiment/experiment.h"
#include "experiment_snapshot.h"
#include "io/experiment_text_cache.h"
#include "io/file_lock.h"
#include "io/results_import.h"

class QTimer;

namespace sebo {
class SharedExperimentFile;
struct MergeReport;
}

namespace sebo::ui {

class FileChangeWatcher;

class ExperimentDocument : public QObject {
    Q_OBJECT
public:
    // How the open experiment is tied to a file.
    enum class Access {
        Untitled,  // no file (new, or a copy of a bundled example): autosaves to a recovery file when enabled
        Writable,  // the file, held with its run lock; changes made elsewhere are merged in
        ReadOnly   // the file, run by another process: shown as it is; reload() when it changes
    };

    explicit ExperimentDocument(QObject* parent = nullptr);
    ~ExperimentDocument() override;

    bool hasExperiment() const { return has_experiment_; }
    Access access() const { return access_; }
    bool isReadOnly() const { return access_ == Access::ReadOnly; }
    // Who runs the file, when read-only: "c.sebo.json is being run by `sebo run` (pid 1234) since 12:01".
    QString readOnlyReason() const { return read_only_reason_; }
    // The bundled file an untitled copy was made from (empty otherwise).
    QString copySource() const { return copy_source_; }
    // Where an untitled experiment is autosaved (empty until its first autosave).
    QString recoveryPath() const { return recovery_path_; }
    // Untitled experiments autosave to a recovery file in the user's data folder (off by default;
    // the main window turns it on).
    void setRecoveryEnabled(bool on) { recovery_enabled_ = on; }
    // Deletes the recovery file (the user discarded the untitled experiment).
    void discardRecovery();
    const Experiment& experiment() const { return snapshot_->experiment; }
    SnapshotPtr snapshot() const { return snapshot_; }
    QString filePath() const { return path_; }
    bool isModified() const { return modified_; }
    // The file name, or the experiment name for an unsaved experiment.
    QString displayName() const;

    // Replaces the experiment: a new, untitled one (not saved yet) when path is empty, else one
    // read elsewhere for the file at `path` (the open file stays held as it is; another file is
    // held as open() would).
    void setExperiment(Experiment experiment, const QString& path = {});
    void clear();

    // Reads and validates a file. On failure returns the engine's message (it names the field
    // path and the value) and keeps the current experiment as it was. A file in the
    // application's own folders opens as an untitled copy; one that another process runs opens
    // read-only.
    std::optional<QString> open(const QString& path);
    // Opens an untitled copy of a file (a bundled example): the file itself is never written.
    std::optional<QString> openCopy(const QString& path);
    // Opens a recovery file left by an explorer that ended without saving it (file_locations.h's
    // orphaned_recovery_files): the untitled, unsaved experiment it was, autosaving to the same
    // recovery file until it is saved (Save As) or discarded, which deletes the file.
    std::optional<QString> openRecovery(const QString& path);
    // Reads the open file again; read-only, it also tries to get write access again.
    std::optional<QString> reload();
    // Refuses the application's own folders and files that another process runs.
    std::optional<QString> save();
    std::optional<QString> saveAs(const QString& path);
    // Merges what other processes recorded in the file since it was last read or written (the
    // file watcher calls this when the file changes); externalChangesMerged() tells what.
    void mergeExternalChanges();

    // Adds the trials of a completed step and autosaves. Returns the autosave error, if any
    // (the trials are kept in memory and the document stays modified). A trial whose index was
    // taken meanwhile (by a trial recorded elsewhere) gets the next free one: `final_indices`
    // receives the indices the trials have in the document.
    std::optional<QString> appendTrials(const std::vector<Trial>& trials, std::vector<int>* final_indices = nullptr);
    // The same, for a step that also replaced the sampler state (StepResult::sampler_state_changed):
    // both change together, in one snapshot and one save.
    std::optional<QString> appendStep(const std::vector<Trial>& trials, std::optional<SamplerState> sampler_state,
                                      std::vector<int>* final_indices = nullptr);
    // Pending trials evaluated by a step (experiment/runner.h's evaluate_pending), and saved. A
    // trial that got a result elsewhere meanwhile keeps it, and this evaluation is added as a new
    // trial with the same configuration (two measurements of it): `final_indices` receives where
    // each evaluation went.
    std::optional<QString> recordEvaluations(const std::vector<Trial>& trials, std::vector<int>* final_indices = nullptr);
    // Gives up on pending trials (status "abandoned", with the reason), as `sebo observe` does with
    // the status abandoned: they stay in the file, count nowhere, and no step evaluates them.
    std::optional<QString> abandonTrials(const std::vector<int>& trials, const QString& reason);
    // Manual evaluation of a pending trial (SPEC §1 "manual"): its observed value or a failure.
    std::optional<QString> recordResult(int trial, double objective, std::optional<double> sem = std::nullopt);
    std::optional<QString> recordFailure(int trial, const QString& reason);
    // Several results at once (an imported sheet, every metric typed by hand): applied together
    // with the engine's record_results (io/results_import.h) and saved once; nothing is applied
    // when any does not fit (check_result: its trial is missing or no longer pending, a value is
    // missing or not finite).
    std::optional<QString> recordResults(const std::vector<ObservedResult>& results);
    // Past measurements (import_trials, as `sebo import` adds them): appended as completed trials
    // and saved; a trial whose index was taken meanwhile gets the next free one.
    std::optional<QString> importTrials(std::vector<Trial> trials);

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
    // access() or readOnlyReason() changed.
    void accessChanged();
    // Changes made by other processes were merged in: one sentence each ("Trial 12's result
    // was recorded outside the explorer."), or why they could not be.
    void externalChangesMerged(const QStringList& messages, bool failed);
    // Read-only: the file changed on disk (reload() shows the new content).
    void fileChangedOnDisk();
    // An autosave wrote the experiment to `path` (the recovery file when `recovery`).
    void autosaved(const QString& path, bool recovery);
    // Something worth a line in the status bar (a lock taken over from a crashed process).
    void notice(const QString& text);

private:
    void publish(Experiment experiment);
    void setModified(bool modified);
    std::optional<QString> autosaveNow();
    // Publishes `next`, which holds new or newly measured trials `indices`, saves it, and gives
    // their indices after the save (which may renumber them) in *final_indices.
    std::optional<QString> publishAndSaveTrials(Experiment next, std::vector<int> indices, std::vector<int>* final_indices);
    std::optional<QString> saveShared();
    std::optional<QString> refuseReadOnly() const;
    // appendTrials and appendStep: `sampler_state` null keeps the experiment's sampler state.
    std::optional<QString> append(const std::vector<Trial>& trials, std::optional<SamplerState>* sampler_state,
                                  std::vector<int>* final_indices);
    std::unique_ptr<SharedExperimentFile> makeShared(const QString& path);
    // Replaces the experiment and how it is held; the previous lock is released.
    void install(Experiment experiment, const QString& path, Access access, FileLock lock,
                 std::unique_ptr<SharedExperimentFile> shared, const QString& reason, const QString& copy_source = {});
    void reportMerge(const MergeReport& report);

    SnapshotPtr snapshot_;
    bool has_experiment_ = false;
    QString path_;
    bool modified_ = false;
    bool autosave_ = true;
    ExperimentTextCache recovery_text_;  // the recovery file's autosaves re-serialize only new trials
    int selected_ = -1;
    int revision_ = 0;
    Access access_ = Access::Untitled;
    QString read_only_reason_;
    QString copy_source_;
    QString recovery_path_;
    bool recovery_enabled_ = false;
    FileLock run_lock_;
    FileLock recovery_lock_;  // held on the recovery file while this document autosaves to it
    std::unique_ptr<SharedExperimentFile> shared_;
    FileChangeWatcher* watcher_;
    // While read-only, how often the run lock of the file is tried (pollRunLock).
    static constexpr int kLockPollMs = 1000;
    QTimer* lock_poll_;
    void pollRunLock();
    // Renumbering done by the last save's merge (mine's trial -> its new index).
    std::vector<std::pair<int, int>> last_renumbered_;
};

}  // namespace sebo::ui
