#include "io/shared_experiment_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <filesystem>
#include <stdexcept>
#include <utility>

#include "core/input_error.h"
#include "io/experiment_file.h"

namespace sebo {

std::string resolved_experiment_path(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code error;
    const fs::path given(path);
    fs::path real = fs::canonical(given, error);
    if (!error) return real.string();
    // Not there yet (or a dangling link): the folder resolved, the name as given.
    const fs::path folder = given.has_parent_path() ? given.parent_path() : fs::path(".");
    real = fs::canonical(folder, error);
    return error ? path : (real / given.filename()).string();
}

std::string run_lock_path(const std::string& experiment_path) { return resolved_experiment_path(experiment_path) + ".lock"; }
std::string write_lock_path(const std::string& experiment_path) {
    return resolved_experiment_path(experiment_path) + ".write.lock";
}

FileLock acquire_run_lock(const std::string& experiment_path, const FileLockOptions& options) {
    return FileLock::acquire(run_lock_path(experiment_path), experiment_path, options);
}

std::string takeover_note(const FileLock& lock, const std::string& experiment_path) {
    if (!lock.previous_holder()) return {};
    return "took over the lock of " + experiment_path + " left by " + describe_process(*lock.previous_holder()) +
           ", which ended without releasing it";
}

SharedExperimentFile::SharedExperimentFile(std::string path, FileLockOptions write_lock,
                                           std::function<void(const std::string&)> note)
    : path_(std::move(path)), target_(resolved_experiment_path(path_)), write_lock_(std::move(write_lock)),
      note_(std::move(note)) {
    write_lock_.activity = "being written by";
    if (auto error = write_lock_.validate()) throw std::invalid_argument(*error);
}

std::optional<std::string> SharedExperimentFile::read_if_present() const {
    struct stat info {};
    if (::stat(target_.c_str(), &info) != 0 && errno == ENOENT) return std::nullopt;
    return read_experiment_text(target_);
}

Experiment SharedExperimentFile::load() {
    std::string text = read_experiment_text(target_);
    Experiment experiment = experiment_from_json_text(text);
    adopt(experiment, std::move(text));
    return experiment;
}

void SharedExperimentFile::adopt(const Experiment& experiment, std::string text) {
    base_ = experiment;
    base_text_ = std::move(text);
    // Serialized once now, while the file is opened, so that the first autosave after it
    // re-serializes only what changed, like every later one.
    (void)text_cache_.text(experiment);
}

MergeReport SharedExperimentFile::refresh(Experiment& experiment) {
    const std::optional<std::string> text = read_if_present();
    if (!text || (base_ && *text == base_text_)) return {};
    Experiment theirs = experiment_from_json_text(*text);
    MergeResult merged = merge_experiments(base_ ? &*base_ : nullptr, experiment, theirs);
    experiment = std::move(merged.experiment);
    base_ = std::move(theirs);
    base_text_ = *text;
    return merged.report;
}

FileLock SharedExperimentFile::lock_for_writing() {
    FileLock lock = FileLock::acquire(target_ + ".write.lock", path_, write_lock_);
    if (note_) {
        if (const std::string note = takeover_note(lock, path_); !note.empty()) note_(note);
    }
    return lock;
}

void SharedExperimentFile::write_locked(const Experiment& experiment) {
    if (auto error = experiment.validate())
        throw std::runtime_error("cannot save " + path_ + ": the experiment is not valid (" + *error + ")");
    std::string text = text_cache_.text(experiment);
    write_file_atomic(target_, text);
    base_ = experiment;
    base_text_ = std::move(text);
}

MergeReport SharedExperimentFile::save(Experiment& experiment) {
    const FileLock lock = lock_for_writing();
    const std::optional<std::string> text = read_if_present();
    MergeReport report;
    Experiment merged;
    const Experiment* out = &experiment;
    if (!text) {
        report.file_was_missing = base_.has_value();
    } else if (!base_ || *text != base_text_) {
        const Experiment theirs = experiment_from_json_text(*text);
        MergeResult result = merge_experiments(base_ ? &*base_ : nullptr, experiment, theirs);
        merged = std::move(result.experiment);
        report = std::move(result.report);
        out = &merged;
    }
    write_locked(*out);
    if (out == &merged) experiment = std::move(merged);
    return report;
}

Experiment SharedExperimentFile::edit(const std::function<void(Experiment&)>& change) {
    const FileLock lock = lock_for_writing();
    Experiment experiment = experiment_from_json_text(read_experiment_text(target_));
    change(experiment);
    write_locked(experiment);
    return experiment;
}

void SharedExperimentFile::replace(const Experiment& experiment, bool must_not_exist) {
    const FileLock lock = lock_for_writing();
    struct stat info {};
    if (must_not_exist && ::lstat(path_.c_str(), &info) == 0) throw InputError("file", path_ + " already exists");
    write_locked(experiment);
}

}  // namespace sebo
