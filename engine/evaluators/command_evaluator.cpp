#include "evaluators/command_evaluator.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <system_error>
#include <utility>

#include "core/format.h"
#include "core/input_error.h"
#include "evaluators/command_launch.h"
#include "evaluators/command_protocol.h"
#include "evaluators/output_lines.h"
#include "evaluators/shell_quoting.h"
#include "evaluators/spawn_attributes.h"

namespace sebo {
namespace {

using Clock = std::chrono::steady_clock;

// How often the poll loop wakes up to look at the stop token when nothing else happens.
constexpr auto kStopCheckInterval = std::chrono::milliseconds(50);
// Without a pidfd (kernels before 5.3) an exit is only seen by asking; ask this often.
constexpr auto kExitCheckInterval = std::chrono::milliseconds(5);
constexpr std::size_t kReadChunk = 1 << 16;

std::string system_message(int error) { return std::error_code(error, std::generic_category()).message(); }

class FileDescriptor {
public:
    FileDescriptor() = default;
    explicit FileDescriptor(int fd) : fd_(fd) {}
    FileDescriptor(FileDescriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    FileDescriptor& operator=(FileDescriptor&& other) noexcept {
        if (this != &other) {
            reset();
            fd_ = std::exchange(other.fd_, -1);
        }
        return *this;
    }
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    ~FileDescriptor() { reset(); }

    int get() const { return fd_; }
    bool is_open() const { return fd_ >= 0; }
    void reset() {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
    }

private:
    int fd_ = -1;
};

// Writing to a program that has closed its stdin raises SIGPIPE, whose default action would end
// this whole process. For write(2) the signal is sent to the writing thread, so blocking it in
// this thread (and discarding one that became pending) protects the process without touching
// process-wide signal dispositions, which belong to the application.
class SigpipeBlock {
public:
    SigpipeBlock() {
        sigemptyset(&set_);
        sigaddset(&set_, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &set_, &previous_);
    }
    SigpipeBlock(const SigpipeBlock&) = delete;
    SigpipeBlock& operator=(const SigpipeBlock&) = delete;
    ~SigpipeBlock() {
        if (!sigismember(&previous_, SIGPIPE)) {
            const timespec zero{};
            while (sigtimedwait(&set_, nullptr, &zero) > 0) {
            }
        }
        pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
    }

private:
    sigset_t set_{};
    sigset_t previous_{};
};

// Both ends close on exec: a program started for another trial of the same batch must not
// inherit them (it would hold this program's pipes open and hide their end).
bool make_pipe(FileDescriptor& read_end, FileDescriptor& write_end) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return false;
    read_end = FileDescriptor(fds[0]);
    write_end = FileDescriptor(fds[1]);
    return true;
}

void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

// A descriptor that becomes readable when the process exits, so that the poll loop wakes up at
// once instead of asking periodically; -1 where the kernel has no pidfd_open.
int open_pidfd([[maybe_unused]] pid_t pid) {
#ifdef SYS_pidfd_open
    return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
    return -1;
#endif
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
    std::vector<char*> out;
    out.reserve(strings.size() + 1);
    for (std::string& s : strings) out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

// The last `limit` bytes of stderr, starting on a UTF-8 character boundary, without the
// surrounding blank space; "..." marks a cut.
std::string stderr_tail(const std::string& text, std::size_t limit) {
    std::size_t start = text.size() > limit ? text.size() - limit : 0;
    while (start > 0 && start < text.size() && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) ++start;
    std::string tail = text.substr(start);
    const auto first = tail.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return {};
    tail = tail.substr(first, tail.find_last_not_of(" \t\r\n") - first + 1);
    return start > 0 ? "..." + tail : tail;
}

std::string seconds_text(double seconds) { return format_short(seconds, 4) + " s"; }

// One running program of a batch.
struct Child {
    std::size_t slot = 0;  // index of its trial in the batch
    int trial_index = 0;
    pid_t pid = -1;  // also its process group id
    FileDescriptor pidfd, in, out, err;
    std::string input;
    std::size_t written = 0;
    std::string output;
    bool output_overflow = false;
    std::string errors;  // the end of stderr (kept to a bounded size)
    OutputLineSplitter error_lines;  // stderr for CommandEvaluatorOptions::stderr_line
    Clock::time_point started, deadline;
    enum class Stop { None, Timeout, Cancel };
    Stop stop = Stop::None;
    std::optional<Clock::time_point> term_sent;
    bool kill_sent = false;
    std::optional<Clock::time_point> exited_at;  // seen to exit (not yet reaped)

    bool pipes_open() const { return out.is_open() || err.is_open(); }
    void signal_group(int sig) const { ::kill(-pid, sig); }
};

class Batch {
public:
    Batch(const EvaluatorSpec& spec, const SearchSpace& space, const std::vector<std::string>& metrics,
          const CommandEvaluatorOptions& options, const std::vector<Trial>& trials, const StepControl& control)
        : spec_(spec), space_(space), metrics_(metrics), options_(options), trials_(trials), control_(control),
          outcomes_(trials.size()) {}

    std::vector<EvaluationOutcome> run() {
        const SigpipeBlock sigpipe;
        // Where, what and with which environment: the plan a person was shown (command_review.h).
        launch_ = plan_launch(spec_, LaunchContext::current());
        const std::size_t n = trials_.size();
        const auto limit = static_cast<std::size_t>(std::max(1, spec_.max_concurrency));
        while (finished_ < n) {
            if (control_.cancelled()) cancel_all();
            while (!cancelled_ && next_ < n && running_.size() < limit) start(next_++);
            if (cancelled_) {
                for (; next_ < n; ++next_) finish_without_running(next_, "cancelled");
            }
            if (running_.empty()) continue;
            wait_for_events();
            const auto now = Clock::now();
            for (auto& child : running_) update(*child, now);
            // Reap and record every program that is done, keeping the others running.
            for (std::size_t i = 0; i < running_.size();) {
                if (is_done(*running_[i], now)) {
                    complete(*running_[i]);
                    running_.erase(running_.begin() + static_cast<std::ptrdiff_t>(i));
                } else {
                    ++i;
                }
            }
        }
        return std::move(outcomes_);
    }

private:
    void finish_without_running(std::size_t slot, std::string reason) {
        outcomes_[slot].ok = false;
        outcomes_[slot].error = std::move(reason);
        ++finished_;
    }

    void cancel_all() {
        if (cancelled_) return;
        cancelled_ = true;
        const auto now = Clock::now();
        for (auto& child : running_) {
            child->stop = Child::Stop::Cancel;
            if (!child->term_sent && !child->exited_at) {
                child->signal_group(SIGTERM);
                child->term_sent = now;
            }
        }
    }

    void start(std::size_t slot) {
        const Trial& trial = trials_[slot];
        control_.report({"evaluating", static_cast<int>(slot) + 1, static_cast<int>(trials_.size()),
                         "trial " + std::to_string(trial.index)});
        if (!spec_.working_directory.empty()) {
            struct stat info {};
            if (::stat(launch_.working_directory.c_str(), &info) != 0)
                return finish_without_running(slot, "working directory '" + launch_.working_directory +
                                                        "': " + system_message(errno));
            if (!S_ISDIR(info.st_mode))
                return finish_without_running(slot, "working directory '" + launch_.working_directory + "' is not a directory");
        }
        if (launch_.program.empty())
            return finish_without_running(slot, "cannot run '" + spec_.command.front() + "': " + launch_.program_error);
        auto child = std::make_unique<Child>();
        child->slot = slot;
        child->trial_index = trial.index;
        child->input = command_input_json(space_, trial);
        FileDescriptor in_read, out_write, err_write;
        if (!make_pipe(in_read, child->in) || !make_pipe(child->out, out_write) || !make_pipe(child->err, err_write))
            return finish_without_running(slot, "cannot create pipes for the command: " + system_message(errno));

        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in_read.get(), STDIN_FILENO);
        posix_spawn_file_actions_adddup2(&actions, out_write.get(), STDOUT_FILENO);
        posix_spawn_file_actions_adddup2(&actions, err_write.get(), STDERR_FILENO);
        if (!spec_.working_directory.empty())
            posix_spawn_file_actions_addchdir_np(&actions, launch_.working_directory.c_str());
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
        // Descriptors the application opened without O_CLOEXEC stay out of the program too.
        posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
#endif
        // Its own process group, clean signal state (spawn_attributes.h).
        const OwnGroupSpawnAttributes attributes;

        std::vector<std::string> argv_strings = spec_.command;
        std::vector<char*> argv = pointers(argv_strings);
        std::vector<char*> envp = pointers(launch_.environment);
        pid_t pid = -1;
        // The resolved absolute path, not a name: no second search that could find another file.
        const int error = ::posix_spawn(&pid, launch_.program.c_str(), &actions, attributes.get(), argv.data(), envp.data());
        posix_spawn_file_actions_destroy(&actions);
        if (error != 0) {
            std::string reason = "cannot run '" + spec_.command.front() + "' (" + launch_.program + "): " + system_message(error);
            if (!spec_.working_directory.empty()) reason += " (working directory '" + launch_.working_directory + "')";
            return finish_without_running(slot, reason);
        }
        child->pid = pid;
        child->pidfd = FileDescriptor(open_pidfd(pid));
        child->started = Clock::now();
        child->deadline = child->started + std::chrono::duration_cast<Clock::duration>(
                                               std::chrono::duration<double>(spec_.timeout_seconds));
        set_nonblocking(child->in.get());
        set_nonblocking(child->out.get());
        set_nonblocking(child->err.get());
        running_.push_back(std::move(child));
    }

    // Sleeps in poll until a pipe is ready, a program exits, or the next deadline (timeout,
    // kill grace, drain limit, stop-token check) comes.
    void wait_for_events() {
        auto wake = Clock::now() + kStopCheckInterval;
        std::vector<pollfd> fds;
        watched_.clear();
        for (auto& child : running_) {
            auto watch = [&](FileDescriptor& fd, short events) {
                if (!fd.is_open()) return;
                fds.push_back({fd.get(), events, 0});
                watched_.emplace_back(child.get(), &fd);
            };
            if (child->written < child->input.size()) watch(child->in, POLLOUT);
            watch(child->out, POLLIN);
            watch(child->err, POLLIN);
            if (!child->exited_at) {
                if (child->pidfd.is_open()) watch(child->pidfd, POLLIN);
                else wake = std::min(wake, Clock::now() + kExitCheckInterval);
                if (child->stop == Child::Stop::None) wake = std::min(wake, child->deadline);
                if (child->term_sent && !child->kill_sent) wake = std::min(wake, *child->term_sent + grace());
            } else {
                wake = std::min(wake, *child->exited_at + drain());
            }
        }
        const auto wait = std::chrono::ceil<std::chrono::milliseconds>(wake - Clock::now()).count();
        const int timeout = static_cast<int>(std::clamp<long long>(wait, 0, kStopCheckInterval.count()));
        const int ready = ::poll(fds.data(), fds.size(), timeout);
        if (ready <= 0) return;
        for (std::size_t i = 0; i < fds.size(); ++i)
            if (fds[i].revents != 0) transfer(*watched_[i].first, *watched_[i].second, fds[i].revents);
    }

    // Moves data between a ready descriptor and the child it belongs to.
    void transfer(Child& child, FileDescriptor& fd, short revents) {
        if (&fd == &child.in) {
            if (revents & (POLLERR | POLLNVAL)) {
                child.in.reset();  // the program closed its stdin without reading it all
                return;
            }
            write_input(child);
        } else if (&fd == &child.out) {
            read_output(child);
        } else if (&fd == &child.err) {
            read_errors(child);
        }
        // A readable pidfd needs nothing here: update() asks waitid.
    }

    void write_input(Child& child) {
        while (child.written < child.input.size()) {
            const ssize_t n = ::write(child.in.get(), child.input.data() + child.written, child.input.size() - child.written);
            if (n < 0) {
                if (errno == EINTR) continue;
                if (errno == EAGAIN || errno == EWOULDBLOCK) return;
                child.in.reset();  // EPIPE: the program does not read its input; not an error by itself
                return;
            }
            child.written += static_cast<std::size_t>(n);
        }
        child.in.reset();  // end of input
    }

    void read_output(Child& child) {
        read_into(child.out, [&](std::string_view chunk) {
            child.output.append(chunk);
            if (child.output.size() > options_.max_output_bytes) {
                child.output_overflow = true;
                child.output.resize(options_.max_output_bytes);
            }
        });
    }

    void read_errors(Child& child) {
        read_into(child.err, [&](std::string_view chunk) {
            if (options_.stderr_line)
                child.error_lines.feed(chunk, [&](std::string_view line) { options_.stderr_line(child.trial_index, line); });
            child.errors.append(chunk);
            const std::size_t keep = 2 * options_.stderr_tail_bytes;
            if (child.errors.size() > keep + kReadChunk) child.errors.erase(0, child.errors.size() - keep);
        });
    }

    // Reads what is available (the descriptors are non-blocking), handing each chunk on.
    template <class Consume>
    void read_into(FileDescriptor& fd, Consume consume) {
        char buffer[kReadChunk];
        for (;;) {
            const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
            if (n < 0) {
                if (errno == EINTR) continue;
                if (errno == EAGAIN || errno == EWOULDBLOCK) return;
                fd.reset();
                return;
            }
            if (n == 0) {
                fd.reset();
                return;
            }
            consume(std::string_view(buffer, static_cast<std::size_t>(n)));
        }
    }

    Clock::duration grace() const {
        return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options_.kill_grace_seconds));
    }
    Clock::duration drain() const {
        return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options_.drain_seconds));
    }

    // Exits, timeouts and the SIGTERM -> SIGKILL escalation.
    void update(Child& child, Clock::time_point now) {
        if (!child.exited_at) {
            // WNOWAIT: the exited program stays a zombie, so its pid (= its process group id)
            // cannot be reused by an unrelated process before the group is killed below.
            siginfo_t info{};
            if (::waitid(P_PID, static_cast<id_t>(child.pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
                info.si_pid == child.pid) {
                child.exited_at = now;
                child.signal_group(SIGKILL);  // whatever it left running
                child.in.reset();
                return;
            }
        }
        if (child.exited_at) return;
        if (child.stop == Child::Stop::None && now >= child.deadline) {
            child.stop = Child::Stop::Timeout;
            child.signal_group(SIGTERM);
            child.term_sent = now;
        }
        if (child.term_sent && !child.kill_sent && now >= *child.term_sent + grace()) {
            child.signal_group(SIGKILL);
            child.kill_sent = true;
        }
    }

    bool is_done(const Child& child, Clock::time_point now) const {
        return child.exited_at && (!child.pipes_open() || now >= *child.exited_at + drain());
    }

    void complete(Child& child) {
        int status = 0;
        while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
        }
        // Output that is still buffered in the pipes belongs to the program.
        if (child.out.is_open()) read_output(child);
        if (child.err.is_open()) read_errors(child);
        if (options_.stderr_line)
            child.error_lines.finish([&](std::string_view line) { options_.stderr_line(child.trial_index, line); });
        child.out.reset();
        child.err.reset();
        child.pidfd.reset();
        EvaluationOutcome& outcome = outcomes_[child.slot];
        outcome.seconds = std::chrono::duration<double>(*child.exited_at - child.started).count();
        std::string reason;
        if (child.stop == Child::Stop::Cancel) {
            reason = "cancelled";
        } else if (child.stop == Child::Stop::Timeout) {
            reason = "the command did not finish within the timeout of " + seconds_text(spec_.timeout_seconds) +
                     "; its process group was stopped";
        } else if (WIFSIGNALED(status)) {
            const int sig = WTERMSIG(status);
            const char* name = ::strsignal(sig);
            reason = "the command was killed by signal " + std::to_string(sig) + (name ? std::string(" (") + name + ")" : "");
        } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
            reason = "the command exited with status " + std::to_string(WEXITSTATUS(status));
        } else if (child.output_overflow) {
            reason = "the command wrote more than " + std::to_string(options_.max_output_bytes) + " bytes to stdout";
        } else {
            EvaluationOutcome parsed = parse_command_output(child.output, metrics_);
            parsed.seconds = outcome.seconds;
            outcome = std::move(parsed);
            if (outcome.ok) {
                ++finished_;
                return;
            }
            reason = outcome.error;
        }
        outcome.ok = false;
        outcome.error = reason;
        if (child.stop != Child::Stop::Cancel) {
            const std::string tail = stderr_tail(child.errors, options_.stderr_tail_bytes);
            if (!tail.empty()) outcome.error += "; stderr: " + tail;
        }
        ++finished_;
    }

    const EvaluatorSpec& spec_;
    const SearchSpace& space_;
    const std::vector<std::string>& metrics_;
    const CommandEvaluatorOptions& options_;
    const std::vector<Trial>& trials_;
    const StepControl& control_;
    std::vector<EvaluationOutcome> outcomes_;
    CommandLaunch launch_;
    std::vector<std::unique_ptr<Child>> running_;
    std::vector<std::pair<Child*, FileDescriptor*>> watched_;  // parallel to the poll list
    std::size_t next_ = 0, finished_ = 0;
    bool cancelled_ = false;
};

bool has_nul(const std::string& text) { return text.find('\0') != std::string::npos; }

}  // namespace

std::optional<std::string> CommandEvaluatorOptions::validate() const {
    if (!(kill_grace_seconds >= 0.0) || !std::isfinite(kill_grace_seconds))
        return "kill_grace_seconds: " + format_number(kill_grace_seconds) + " must be a finite number >= 0";
    if (!(drain_seconds >= 0.0) || !std::isfinite(drain_seconds))
        return "drain_seconds: " + format_number(drain_seconds) + " must be a finite number >= 0";
    if (max_output_bytes == 0) return "max_output_bytes: must be positive";
    return std::nullopt;
}

CommandEvaluator::CommandEvaluator(EvaluatorSpec spec, SearchSpace space, std::vector<std::string> metrics,
                                   CommandEvaluatorOptions options)
    : spec_(std::move(spec)), space_(std::move(space)), metrics_(std::move(metrics)), options_(options) {
    assert(!metrics_.empty());
    if (spec_.command.empty()) throw InputError("evaluator.command", "the command needs at least the program to run");
    if (spec_.command.front().empty()) throw InputError("evaluator.command[0]", "the program name must not be empty");
    for (std::size_t i = 0; i < spec_.command.size(); ++i)
        if (has_nul(spec_.command[i]))
            throw InputError("evaluator.command[" + std::to_string(i) + "]", "an argument cannot contain a NUL character");
    if (!(spec_.timeout_seconds > 0.0) || !std::isfinite(spec_.timeout_seconds))
        throw InputError("evaluator.timeout_seconds", format_number(spec_.timeout_seconds) + " is not a positive number");
    if (spec_.max_concurrency < 1 || spec_.max_concurrency > EvaluatorSpec::kMaxConcurrency)
        throw InputError("evaluator.max_concurrency", std::to_string(spec_.max_concurrency) + " is outside [1, " +
                                                          std::to_string(EvaluatorSpec::kMaxConcurrency) + "]");
    if (has_nul(spec_.working_directory))
        throw InputError("evaluator.working_directory", "the path cannot contain a NUL character");
    for (const auto& [name, value] : spec_.environment) {
        const std::string at = "evaluator.environment." + name;
        if (name.empty() || name.find('=') != std::string::npos || has_nul(name))
            throw InputError(at, "an environment variable name must be non-empty, without '=' or NUL");
        if (has_nul(value)) throw InputError(at, "the value cannot contain a NUL character");
    }
    if (auto error = options_.validate()) throw InputError("options", *error);
}

EvaluationOutcome CommandEvaluator::evaluate(const Trial& trial, const StepControl& control) {
    return evaluate_batch({trial}, control).front();
}

std::vector<EvaluationOutcome> CommandEvaluator::evaluate_batch(const std::vector<Trial>& trials,
                                                                const StepControl& control) {
    return Batch(spec_, space_, metrics_, options_, trials, control).run();
}

std::string shell_quoted_command_line(const std::vector<std::string>& argv) {
    std::string line;
    for (const std::string& arg : argv) line += (line.empty() ? "" : " ") + shell_quoted(arg);
    return line;
}

}  // namespace sebo
