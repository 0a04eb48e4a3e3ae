#pragma once
// Helpers for tests of the experiment files' writer locks (io/file_lock.h): what a sidecar left
// by a killed holder names.

#include <sys/wait.h>
#include <unistd.h>

#include <string>

namespace sebo::test {

// The pid of a process that has ended (and been reaped): what the sidecar of a holder killed
// with SIGKILL names. (It stays unused until the system hands it out again, which a test's
// run does not reach.)
inline long ended_process_id() {
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    int status = 0;
    ::waitpid(child, &status, 0);
    return static_cast<long>(child);
}

// This machine's name, as a sidecar records it.
inline std::string host_name() {
    char name[256] = {};
    ::gethostname(name, sizeof name - 1);
    return name;
}

}  // namespace sebo::test
