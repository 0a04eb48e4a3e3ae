#include "core/version.h"

#include "sebo_version.h"  // generated at build time (cmake/write_version.cmake)

namespace sebo {

const char* program_version() { return SEBO_VERSION; }

const char* program_commit() { return SEBO_COMMIT; }

std::string program_version_and_commit() {
    const std::string commit = program_commit();
    return program_version() + (commit.empty() ? std::string() : " (" + commit + ")");
}

std::string program_version_text() { return "SEBO Explorer " + program_version_and_commit(); }

}  // namespace sebo
