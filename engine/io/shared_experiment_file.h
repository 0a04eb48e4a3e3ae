#pragma once
// One process's access to an experiment file that other processes may write too: `sebo run`, the
// explorer, `sebo observe` from a colleague's shell (docs/file-format.md, "Several writers").
//
// Two locks (io/file_lock.h), as sidecars of the file:
//   - the run lock "<file>.lock" says who runs or edits the file for a long time (`sebo run`, a
//     benchmark's run, the explorer while it has the file open). There is at most one: a second
//     `sebo run` waits or stops, a second explorer opens the file read-only. Taking it is the
//     caller's business (RunLock below).
//   - the write lock "<file>.write.lock" is held for one read-merge-write, a few milliseconds:
//     every writer takes it for every save, so saves never interleave.
// A long holder never keeps the write lock while it computes or evaluates: before each save it
// re-reads the file and merges what others recorded meanwhile (io/experiment_merge.h), so a
// result recorded by `sebo observe` during a run is never written over.
// Readers (sebo info, frontier, export, fit, the explorer's read-only mode) take no lock: saves
// are atomic renames, so a reader sees the old file or the new one, never half of one.

#include <functional>
#include <optional>
#include <string>

#include "experiment/experiment.h"
#include "io/experiment_merge.h"
#include "io/experiment_text_cache.h"
#include "io/file_lock.h"

namespace sebo {

// The file itself, symbolic links resolved (a file not there yet: its folder resolved), so that
// every name of one file shares its locks, and a save through a link keeps the link.
std::string resolved_experiment_path(const std::string& path);
std::string run_lock_path(const std::string& experiment_path);    // "<resolved file>.lock"
std::string write_lock_path(const std::string& experiment_path);  // "<resolved file>.write.lock"

// Takes the run lock of an experiment file ("c.sebo.json is being run by `sebo run` ...").
// Throws like FileLock::acquire.
FileLock acquire_run_lock(const std::string& experiment_path, const FileLockOptions& options);

// "took over the lock of c.sebo.json left by `sebo run` (pid 12) since 12:01, which ended
// without releasing it" — for a lock that previous_holder() says was taken over; empty otherwise.
std::string takeover_note(const FileLock& lock, const std::string& experiment_path);

class SharedExperimentFile {
public:
    // `write_lock`: who writes (its program) and how long to wait for another writer's save.
    // `note`: receives what is worth telling the user that is not an error (a lock taken over
    // from a process that ended without releasing it).
    SharedExperimentFile(std::string path, FileLockOptions write_lock, std::function<void(const std::string&)> note = {});

    const std::string& path() const { return path_; }  // as given

    // Reads the file without a lock and makes it the base of later merges. Throws InputError.
    Experiment load();
    // Takes `experiment` as what the file holds now (it was read elsewhere), with the file's
    // text, as the base of later merges (an empty text: the next save compares the file's
    // content with `experiment` instead).
    void adopt(const Experiment& experiment, std::string text);

    // Brings what other processes changed in the file since the base into `experiment`,
    // keeping this process's own changes, and makes the file the new base. Writes nothing.
    // A missing file, or one unchanged since the base, changes nothing. Throws InputError when
    // the file no longer loads and MergeError when it holds another problem; `experiment` is
    // then unchanged.
    MergeReport refresh(Experiment& experiment);

    // Under the write lock: merges the file's changes into `experiment` as refresh() does, writes
    // the result atomically, and makes it the base. Throws what refresh() and FileLock::acquire
    // throw, and std::runtime_error when the write fails; `experiment` is unchanged then.
    MergeReport save(Experiment& experiment);

    // Under the write lock: reads the file, lets `change` modify it, writes the result and makes
    // it the base, for a short read-modify-write (sebo observe, sebo import) that needs no merge.
    // Nothing is written when `change` throws. Returns what was written.
    Experiment edit(const std::function<void(Experiment&)>& change);

    // Under the write lock: writes `experiment` over whatever the file holds (a file the user
    // chose to replace). With `must_not_exist`, refuses an existing file instead (InputError on
    // "file"), checked under the lock so that two creators cannot both succeed.
    void replace(const Experiment& experiment, bool must_not_exist = false);

private:
    std::optional<std::string> read_if_present() const;
    FileLock lock_for_writing();
    void write_locked(const Experiment& experiment);

    std::string path_;    // as given: messages name it
    std::string target_;  // resolved: what is read, written and locked
    FileLockOptions write_lock_;
    std::function<void(const std::string&)> note_;
    std::optional<Experiment> base_;  // the file as last read or written here
    std::string base_text_;
    ExperimentTextCache text_cache_;  // a long run's saves re-serialize only the new trials
};

}  // namespace sebo
