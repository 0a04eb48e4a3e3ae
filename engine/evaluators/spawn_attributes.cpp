#include "evaluators/spawn_attributes.h"

#include <csignal>

namespace sebo {

OwnGroupSpawnAttributes::OwnGroupSpawnAttributes() {
    posix_spawnattr_init(&attributes_);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    posix_spawnattr_setpgroup(&attributes_, 0);
    posix_spawnattr_setsigmask(&attributes_, &none);
    posix_spawnattr_setsigdefault(&attributes_, &all);
    posix_spawnattr_setflags(&attributes_, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
}

OwnGroupSpawnAttributes::~OwnGroupSpawnAttributes() { posix_spawnattr_destroy(&attributes_); }

}  // namespace sebo
