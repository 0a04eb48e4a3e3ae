#include "io/file_lock.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <ctime>
#include <system_error>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/format.h"
#include "core/timestamp.h"

namespace sebo {

namespace {

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

// A sidecar is a few hundred bytes; anything much longer is not one of ours.
constexpr std::size_t kMaxSidecarBytes = 4096;

std::string system_message(int error) { return std::error_code(error, std::generic_category()).message(); }

std::string this_host() {
    std::array<char, 256> name{};
    if (::gethostname(name.data(), name.size() - 1) != 0) return {};
    return name.data();
}

std::string read_all(int fd) {
    std::string text;
    std::array<char, 1024> buffer{};
    off_t offset = 0;
    while (text.size() < kMaxSidecarBytes) {
        const ssize_t n = ::pread(fd, buffer.data(), buffer.size(), offset);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        text.append(buffer.data(), static_cast<std::size_t>(n));
        offset += n;
    }
    return text;
}

// The holder written in a sidecar; nothing when it is empty or not ours (a half-written
// sidecar, or a file someone else put there).
std::optional<LockHolder> parse_holder(const std::string& text) {
    if (text.empty()) return std::nullopt;
    const Json j = Json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return std::nullopt;
    LockHolder h;
    const auto string_of = [&](const char* key) {
        const auto it = j.find(key);
        return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    const auto pid = j.find("pid");
    if (pid == j.end() || !pid->is_number_integer()) return std::nullopt;
    h.pid = pid->get<long>();
    h.host = string_of("host");
    h.program = string_of("program");
    h.activity = string_of("activity");
    h.started_at = string_of("started_at");
    return h;
}

std::string holder_text(const LockHolder& h) {
    const Json j = {{"program", h.program}, {"activity", h.activity}, {"pid", h.pid},
                    {"host", h.host},       {"started_at", h.started_at}};
    return j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

// "12:01" today, "2026-11-24 12:01" on another day (local time); the text as it is when it is
// not a timestamp of ours.
std::string local_time_of(const std::string& iso) {
    std::tm utc{};
    if (iso.size() != 20 || ::strptime(iso.c_str(), "%Y-%m-%dT%H:%M:%SZ", &utc) == nullptr) return iso;
    const std::time_t when = ::timegm(&utc);
    const std::time_t now = std::time(nullptr);
    std::tm local{}, today{};
    ::localtime_r(&when, &local);
    ::localtime_r(&now, &today);
    std::array<char, 32> buffer{};
    const bool same_day = local.tm_year == today.tm_year && local.tm_yday == today.tm_yday;
    std::strftime(buffer.data(), buffer.size(), same_day ? "%H:%M" : "%Y-%m-%d %H:%M", &local);
    return buffer.data();
}

// Same file: the descriptor still names what is at `path` now (the previous holder may have
// removed the sidecar after this process opened it, and someone may have created a new one).
bool still_at_path(int fd, const std::string& path) {
    struct stat opened {}, current {};
    if (::fstat(fd, &opened) != 0 || ::stat(path.c_str(), &current) != 0) return false;
    return opened.st_dev == current.st_dev && opened.st_ino == current.st_ino;
}

}  // namespace

bool LockHolder::gone() const {
    if (pid <= 0 || pid > INT_MAX || host != this_host()) return false;
    return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

std::string describe_process(const LockHolder& holder) {
    std::string text = holder.program.empty() ? "another process" : "`" + holder.program + "`";
    std::string details;
    if (holder.pid > 0) details = "pid " + std::to_string(holder.pid);
    if (!holder.host.empty() && holder.host != this_host()) details += (details.empty() ? "on " : " on ") + holder.host;
    if (!details.empty()) text += " (" + details + ")";
    if (!holder.started_at.empty()) text += " since " + local_time_of(holder.started_at);
    return text;
}

std::string describe_holder(const std::string& file, const LockHolder& holder) {
    return file + " is " + (holder.activity.empty() ? "held by" : holder.activity) + " " + describe_process(holder);
}

std::optional<std::string> FileLockOptions::validate() const {
    if (program.empty()) return "program: the lock needs the name of the program that takes it";
    if (std::isnan(wait_seconds) || wait_seconds < 0)
        return "wait_seconds: " + format_number(wait_seconds) + " is not a number of seconds >= 0";
    if (!std::isfinite(announce_after_seconds) || announce_after_seconds < 0)
        return "announce_after_seconds: " + format_number(announce_after_seconds) + " is not a number of seconds >= 0";
    return std::nullopt;
}

FileLock FileLock::acquire(const std::string& sidecar, const std::string& file, const FileLockOptions& options) {
    if (auto error = options.validate()) throw std::invalid_argument(*error);
    const auto start = Clock::now();
    const bool forever = std::isinf(options.wait_seconds);
    const auto limit = forever ? Clock::duration::max()
                               : std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.wait_seconds));
    auto pause = std::chrono::milliseconds(5);
    bool announced = false;
    for (;;) {
        const int fd = ::open(sidecar.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd < 0) {
            const int error = errno;
            throw std::runtime_error("cannot lock " + file + ": cannot create " + sidecar + ": " + system_message(error));
        }
        if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
            if (!still_at_path(fd, sidecar)) {
                ::close(fd);  // a sidecar being removed by its releasing holder: use the new one
                continue;
            }
            FileLock lock;
            lock.fd_ = fd;
            lock.sidecar_ = sidecar;
            // Anything in the sidecar now was left by a holder that never released it.
            lock.previous_ = parse_holder(read_all(fd));
            LockHolder me;
            me.pid = static_cast<long>(::getpid());
            me.host = this_host();
            me.program = options.program;
            me.activity = options.activity;
            me.started_at = utc_timestamp();
            const std::string text = holder_text(me);
            // The details are for messages only: a failure to write them leaves the lock held.
            if (::ftruncate(fd, 0) == 0) {
                [[maybe_unused]] const ssize_t n = ::pwrite(fd, text.data(), text.size(), 0);
            }
            return lock;
        }
        const int error = errno;
        if (error != EWOULDBLOCK && error != EINTR) {
            ::close(fd);
            throw std::runtime_error("cannot lock " + file + ": " + sidecar + ": " + system_message(error));
        }
        std::optional<LockHolder> holder = parse_holder(read_all(fd));
        ::close(fd);
        if (error == EINTR) continue;
        // A sidecar whose details were not written yet (or are stale: the holder that just took
        // it has not replaced them) names no one reliably.
        if (holder && holder->gone()) holder.reset();
        const bool stopped = options.stop.stop_requested();
        const auto waited = Clock::now() - start;
        if (stopped || waited >= limit) {
            std::string message = holder ? describe_holder(file, *holder) : file + " is locked by another process";
            if (stopped) message += "; stopped waiting for it";
            else if (options.wait_seconds > 0) message += "; waited " + format_short(options.wait_seconds, 3) + " s";
            throw FileBusyError(message, holder, stopped);
        }
        if (!announced && options.on_wait && waited >= std::chrono::duration<double>(options.announce_after_seconds)) {
            announced = true;
            options.on_wait(holder.value_or(LockHolder{}));
        }
        // Short first pauses (most holders are a save of a few milliseconds), longer later.
        const auto left = limit - waited;
        std::this_thread::sleep_for(std::min<Clock::duration>(pause, left));
        pause = std::min(pause * 2, std::chrono::milliseconds(100));
    }
}

FileLock::FileLock(FileLock&& other) noexcept
    : fd_(other.fd_), sidecar_(std::move(other.sidecar_)), previous_(std::move(other.previous_)) {
    other.fd_ = -1;
}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
    if (this != &other) {
        release();
        fd_ = other.fd_;
        sidecar_ = std::move(other.sidecar_);
        previous_ = std::move(other.previous_);
        other.fd_ = -1;
    }
    return *this;
}

void FileLock::release() noexcept {
    if (fd_ < 0) return;
    // Removed while still locked, so that no one takes over an empty sidecar of ours; a waiter
    // that opened it before sees that it is gone (still_at_path) and opens a new one.
    if (still_at_path(fd_, sidecar_)) ::unlink(sidecar_.c_str());
    ::close(fd_);
    fd_ = -1;
}

std::optional<LockHolder> FileLock::current_holder(const std::string& sidecar) {
    // Read only, never locked (readers must not disturb writers): the sidecar's word, checked
    // against the process table when the holder is on this host.
    const int fd = ::open(sidecar.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) return std::nullopt;
    std::optional<LockHolder> holder = parse_holder(read_all(fd));
    ::close(fd);
    if (!holder || holder->gone()) return std::nullopt;
    return holder;
}

}  // namespace sebo
