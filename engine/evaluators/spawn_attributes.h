#pragma once
// The posix_spawn attributes of a child process this program supervises (the evaluator's commands,
// the report's browser): its own process group, so that a timeout or Ctrl-C can reach everything
// it started by killing the group and the terminal's Ctrl-C does not reach it directly; no blocked
// signals (the calling thread may block SIGPIPE) and default dispositions (the application may
// ignore some).

#include <spawn.h>

namespace sebo {

class OwnGroupSpawnAttributes {
public:
    OwnGroupSpawnAttributes();
    ~OwnGroupSpawnAttributes();
    OwnGroupSpawnAttributes(const OwnGroupSpawnAttributes&) = delete;
    OwnGroupSpawnAttributes& operator=(const OwnGroupSpawnAttributes&) = delete;

    const posix_spawnattr_t* get() const { return &attributes_; }

private:
    posix_spawnattr_t attributes_;
};

}  // namespace sebo
