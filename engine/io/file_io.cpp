#include "io/file_io.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <filesystem>
#include <mutex>
#include <set>
#include <stdexcept>
#include <system_error>

#include "core/input_error.h"

namespace sebo {

namespace {

std::string system_message(int error) { return std::error_code(error, std::generic_category()).message(); }

[[noreturn]] void fail(const std::string& field, const std::string& message) { throw InputError(field, message); }

// Closes a file descriptor on every path out of a function.
struct FileDescriptor {
    int fd = -1;
    explicit FileDescriptor(int f) : fd(f) {}
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    ~FileDescriptor() {
        if (fd >= 0) ::close(fd);
    }
    // Closes now and reports the result (close can report a delayed write error).
    int close_now() {
        const int result = ::close(fd);
        fd = -1;
        return result;
    }
};

}  // namespace

std::string read_experiment_text(const std::string& path) {
    // O_NONBLOCK: opening a FIFO must not hang waiting for a writer; it is then refused below.
    FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (file.fd < 0) fail("file", "cannot open " + path + ": " + system_message(errno));
    struct stat info {};
    if (::fstat(file.fd, &info) != 0) fail("file", "cannot read " + path + ": " + system_message(errno));
    if (!S_ISREG(info.st_mode)) fail("file", path + " is not a regular file");
    const auto too_big = [&](std::uint64_t size) {
        fail("file", path + " is " + std::to_string(size) + " bytes; experiment files over " +
                         std::to_string(kMaxExperimentFileBytes >> 20) + " MiB are refused");
    };
    const auto size = static_cast<std::uint64_t>(info.st_size);
    if (size > kMaxExperimentFileBytes) too_big(size);
    std::string text;
    text.reserve(static_cast<std::size_t>(size));
    std::array<char, 1 << 16> buffer{};
    for (;;) {
        const ssize_t n = ::read(file.fd, buffer.data(), buffer.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            fail("file", "cannot read " + path + ": " + system_message(errno));
        }
        if (n == 0) break;
        text.append(buffer.data(), static_cast<std::size_t>(n));
        // The file may grow while it is read; the limit holds for what is actually read.
        if (text.size() > kMaxExperimentFileBytes) too_big(text.size());
    }
    return text;
}

namespace {

// Removes the "<name>.tmp-<pid>" files that saves killed mid-write left next to `path`, when
// their process no longer exists (a live one may be saving right now; a reused pid only delays
// the clean-up). Nothing else is touched, and failures are ignored: this is tidying, not saving.
// The folder is listed on a process's first save of each file only: the leftovers come from
// processes killed earlier, and an autosave after every trial should not list it every time.
void remove_stale_temporaries(const std::filesystem::path& path, const std::filesystem::path& folder) {
    {
        static std::mutex mutex;
        static std::set<std::string> tidied;
        const std::lock_guard lock(mutex);
        std::error_code error;
        const std::filesystem::path key = std::filesystem::absolute(path, error);
        if (!tidied.insert((error ? path : key).lexically_normal().string()).second) return;
    }
    const std::string prefix = path.filename().string() + ".tmp-";
    std::error_code error;
    for (std::filesystem::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
        const std::string digits = name.substr(prefix.size());
        if (digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
            continue;
        const pid_t pid = static_cast<pid_t>(std::stol(digits));
        if (pid <= 0 || pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
        std::error_code ignored;
        if (it->is_regular_file(ignored)) std::filesystem::remove(it->path(), ignored);
    }
}

}  // namespace

void write_file_atomic(const std::string& path, const std::string& text) {
    const std::string temporary = path + ".tmp-" + std::to_string(::getpid());
    const auto failure = [&](const std::string& step, int error) {
        ::unlink(temporary.c_str());
        return std::runtime_error("cannot save " + path + ": " + step + ": " + system_message(error));
    };
    FileDescriptor file(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666));
    if (file.fd < 0) {
        const int error = errno;
        throw std::runtime_error("cannot save " + path + ": cannot create " + temporary + ": " + system_message(error));
    }
    // Replacing a file keeps its permission bits (the new inode would otherwise get the umask's).
    struct stat existing {};
    if (::stat(path.c_str(), &existing) == 0 && S_ISREG(existing.st_mode)) ::fchmod(file.fd, existing.st_mode & 0777);
    // write(2) directly: there is no user-space buffer to flush, fsync then forces the data to disk
    // before the rename makes it visible, so a crash leaves either the old or the new file.
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(file.fd, text.data() + written, text.size() - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw failure("write", errno);
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(file.fd) != 0) throw failure("fsync", errno);
    if (file.close_now() != 0) throw failure("close", errno);
    if (::rename(temporary.c_str(), path.c_str()) != 0) throw failure("rename", errno);
    // Make the rename itself durable. The new file is already in place, so a failure here (some
    // file systems do not support fsync on a directory) is not reported as a failed save.
    std::filesystem::path folder = std::filesystem::path(path).parent_path();
    if (folder.empty()) folder = ".";
    FileDescriptor directory(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (directory.fd >= 0) ::fsync(directory.fd);
    remove_stale_temporaries(path, folder);
}

}  // namespace sebo
