#include "report/browser_render.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/format.h"
#include "evaluators/spawn_attributes.h"

extern char** environ;

namespace sebo {

namespace {

bool executable_file(const std::string& path) {
    struct stat st{};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// As execvp(3) would find a name: a path with '/' as it is, otherwise the first executable file
// of that name in PATH.
std::optional<std::string> resolve(const std::string& name) {
    if (name.empty()) return std::nullopt;
    if (name.find('/') != std::string::npos) {
        if (!executable_file(name)) return std::nullopt;
        return std::filesystem::absolute(name).string();
    }
    const char* path = std::getenv("PATH");
    std::stringstream folders(path ? path : "/usr/local/bin:/usr/bin:/bin");
    for (std::string folder; std::getline(folders, folder, ':');) {
        if (folder.empty()) folder = ".";
        const std::string candidate = folder + "/" + name;
        if (executable_file(candidate)) return std::filesystem::absolute(candidate).string();
    }
    return std::nullopt;
}

// A file: URL of an absolute path, every byte outside the unreserved set percent-encoded.
std::string file_url(const std::string& absolute_path) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string url = "file://";
    for (unsigned char c : absolute_path) {
        if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~')
            url += static_cast<char>(c);
        else
            url += std::string("%") + kHex[c >> 4] + kHex[c & 15];
    }
    return url;
}

std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The last few lines of the browser's output, for a message.
std::string tail_of(const std::string& log) {
    std::vector<std::string> lines;
    std::stringstream in(log);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(line);
    std::string text;
    for (std::size_t i = lines.size() > 5 ? lines.size() - 5 : 0; i < lines.size(); ++i) text += "\n  " + lines[i];
    return text.empty() ? "" : "; its last output:" + text;
}

// A private folder for one rendering, removed with everything in it when the rendering ends.
class TemporaryFolder {
public:
    TemporaryFolder() {
        std::string pattern = (std::filesystem::temp_directory_path() / "sebo-report-XXXXXX").string();
        if (!::mkdtemp(pattern.data()))
            throw std::runtime_error("cannot create a temporary folder for the browser: " + std::string(std::strerror(errno)));
        path_ = pattern;
    }
    ~TemporaryFolder() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    TemporaryFolder(const TemporaryFolder&) = delete;
    TemporaryFolder& operator=(const TemporaryFolder&) = delete;
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    std::filesystem::path path_;
};

struct Finished {
    bool timed_out = false;
    int status = 0;  // waitpid's status when it exited
};

// Runs the program in its own process group, stdin from /dev/null, stdout and stderr to `log`;
// kills the whole group when it exits (whatever it left running) or when time is up.
Finished run(const std::string& program, const std::vector<std::string>& args, const std::string& log, double timeout_seconds) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    const OwnGroupSpawnAttributes attributes;
    std::vector<std::string> argv_strings = {program};
    argv_strings.insert(argv_strings.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : argv_strings) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int error = ::posix_spawn(&pid, program.c_str(), &actions, attributes.get(), argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (error != 0) throw std::runtime_error("cannot run " + program + ": " + std::strerror(error));

    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_seconds));
    Finished finished;
    for (;;) {
        // WNOWAIT: the exited browser stays a zombie, so its pid (its process group's id) cannot be
        // taken by an unrelated process before the group is killed.
        siginfo_t info{};
        if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid) break;
        if (Clock::now() >= deadline) {
            finished.timed_out = true;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ::kill(-pid, SIGKILL);
    while (::waitpid(pid, &finished.status, 0) < 0 && errno == EINTR) {
    }
    return finished;
}

}  // namespace

std::optional<std::string> find_browser(const std::string& preferred) {
    if (!preferred.empty()) return resolve(preferred);
    for (const char* name : kBrowserNames)
        if (auto path = resolve(name)) return path;
    return std::nullopt;
}

std::string browser_missing_message() {
    std::string names;
    for (const char* name : kBrowserNames) names += (names.empty() ? "" : ", ") + std::string(name);
    return "no browser to render the PDF with: none of " + names +
           " is on PATH. Install Chromium (Debian and Ubuntu: apt install chromium), or write HTML and print it "
           "from any browser";
}

std::string render_with_browser(const std::string& html, BrowserOutput output, const BrowserOptions& options) {
    const std::optional<std::string> browser = find_browser(options.browser);
    if (!browser) {
        if (options.browser.empty()) throw std::runtime_error(browser_missing_message());
        throw std::runtime_error("the browser '" + options.browser + "' is not an executable file on PATH");
    }
    TemporaryFolder folder;
    const std::string page = folder.file("report.html"), result = folder.file(output == BrowserOutput::Pdf ? "report.pdf" : "report.png"),
                      log = folder.file("browser.log");
    {
        std::ofstream out(page, std::ios::binary);
        out << html;
        if (!out.flush()) throw std::runtime_error("cannot write the page for the browser to " + page);
    }
    std::vector<std::string> args = {"--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
                                     "--no-default-browser-check", "--disable-extensions",
                                     // A profile of its own: nothing of the user's browser is read or changed.
                                     "--user-data-dir=" + folder.file("profile")};
    if (output == BrowserOutput::Pdf) {
        args.push_back("--no-pdf-header-footer");
        args.push_back("--print-to-pdf=" + result);
    } else {
        args.push_back("--hide-scrollbars");
        args.push_back("--window-size=" + std::to_string(options.width) + "," + std::to_string(options.height));
        args.push_back("--screenshot=" + result);
    }
    args.push_back(file_url(page));
    const Finished finished = run(*browser, args, log, options.timeout_seconds);
    const std::string what = *browser + (output == BrowserOutput::Pdf ? " (printing to PDF)" : " (taking a picture)");
    if (finished.timed_out)
        throw std::runtime_error(what + " did not finish within " + format_short(options.timeout_seconds) + " s" + tail_of(read_all(log)));
    if (!WIFEXITED(finished.status) || WEXITSTATUS(finished.status) != 0)
        throw std::runtime_error(what + " failed (" +
                                 (WIFEXITED(finished.status) ? "exit status " + std::to_string(WEXITSTATUS(finished.status))
                                                             : "signal " + std::to_string(WTERMSIG(finished.status))) +
                                 ")" + tail_of(read_all(log)));
    std::string bytes = read_all(result);
    const std::string magic = output == BrowserOutput::Pdf ? "%PDF-" : "\x89PNG";
    if (bytes.compare(0, magic.size(), magic) != 0)
        throw std::runtime_error(what + " wrote no " + (output == BrowserOutput::Pdf ? "PDF" : "PNG") + tail_of(read_all(log)));
    return bytes;
}

}  // namespace sebo
