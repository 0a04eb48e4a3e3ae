#pragma once
// An exclusive advisory lock on a sidecar file ("c.sebo.json.lock"), so that processes that write
// the same experiment file take turns (docs/file-format.md, "Several writers").
//
// The lock is flock(2) on the sidecar: the kernel releases it when its holder ends in any way
// (exit, crash, SIGKILL), so a lock can never outlive its process, on this host or, over NFS, on
// another. The sidecar also holds who took the lock (pid, host, program, time, as JSON), so that
// a process that finds the lock taken can name the holder ("c.sebo.json is being run by
// `sebo run` (pid 1234) since 12:01"). Release removes the sidecar; a sidecar that is still
// there when the lock is free was left by a holder that ended without releasing it, and is
// taken over (previous_holder() says by whom).
//
// No Qt, no printing: waiting is reported through a callback, failures are exceptions.

#include <functional>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <string>

namespace sebo {

// Who holds (or held) a lock, as written in the sidecar.
struct LockHolder {
    long pid = 0;
    std::string host;
    std::string program;     // "sebo run", "sebo observe", "sebo-explorer", ...
    std::string activity;    // how messages put it: "being run by", "open in", "being written by"
    std::string started_at;  // ISO-8601 UTC ("2026-11-25T12:01:07Z")

    // Same host and the process no longer exists (a pid that is alive again may be reused).
    bool gone() const;
};

// "c.sebo.json is being run by `sebo run` (pid 1234) since 12:01": the time in local time (with
// the date when it is not today), the host when it is not this one.
std::string describe_holder(const std::string& file, const LockHolder& holder);
// The holder alone: "`sebo run` (pid 1234) since 12:01".
std::string describe_process(const LockHolder& holder);

struct FileLockOptions {
    std::string program;                       // written into the sidecar; required
    std::string activity = "being written by";  // see LockHolder::activity
    // How long to wait for another holder, in seconds: 0 tries once, infinity waits until
    // `stop` is requested.
    double wait_seconds = 0.0;
    std::stop_token stop;
    // Called once, when the lock has been found taken for `announce_after_seconds` of the wait
    // (to say "waiting for ..."; most waits are for another process's save of a few milliseconds).
    std::function<void(const LockHolder&)> on_wait;
    double announce_after_seconds = 0.0;

    std::optional<std::string> validate() const;
};

// The lock stayed taken for the whole wait (or the wait was stopped). `holder` is who had it,
// when the sidecar said so. The CLI turns this into exit code 3.
class FileBusyError : public std::runtime_error {
public:
    FileBusyError(const std::string& message, std::optional<LockHolder> holder, bool stopped)
        : std::runtime_error(message), holder_(std::move(holder)), stopped_(stopped) {}
    const std::optional<LockHolder>& holder() const { return holder_; }
    bool stopped() const { return stopped_; }

private:
    std::optional<LockHolder> holder_;
    bool stopped_;
};

class FileLock {
public:
    // Not holding anything.
    FileLock() = default;
    // Takes the lock on `sidecar` (created if missing), waiting as `options` say. `file` is the
    // name messages use for what the lock protects. Throws FileBusyError when it stays taken,
    // std::invalid_argument for invalid options, std::runtime_error naming the sidecar and the
    // reason when it cannot be created or locked (a read-only folder, ...).
    static FileLock acquire(const std::string& sidecar, const std::string& file, const FileLockOptions& options);

    FileLock(FileLock&& other) noexcept;
    FileLock& operator=(FileLock&& other) noexcept;
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;
    ~FileLock() { release(); }

    bool held() const { return fd_ >= 0; }
    const std::string& sidecar() const { return sidecar_; }
    // The holder recorded in a sidecar that was left behind by a process that ended without
    // releasing its lock, and that this lock took over.
    const std::optional<LockHolder>& previous_holder() const { return previous_; }
    // Removes the sidecar and releases the lock; does nothing when not held.
    void release() noexcept;

    // Who holds the lock on `sidecar` as far as the sidecar says, without locking anything (for
    // readers that only show it): nothing when there is no sidecar, it names no one, or it names
    // a process on this host that no longer exists.
    static std::optional<LockHolder> current_holder(const std::string& sidecar);

private:
    int fd_ = -1;
    std::string sidecar_;
    std::optional<LockHolder> previous_;
};

}  // namespace sebo
