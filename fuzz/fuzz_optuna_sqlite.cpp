// libFuzzer target: the Optuna SQLite importer (engine/io/optuna_sqlite.*, import_optuna.cpp) on
// arbitrary bytes as a database file: they are written to a scratch file, which is read as a
// storage, and every study in it mapped to an experiment (import_check.h). Only InputErrors may
// leave it; SQLite's own errors on a damaged file are InputErrors on "file". Keep inputs small
// (fuzz/run.sh: -max_len): a database is pages of 512 bytes and more.

#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz_support.h"
#include "import_check.h"

namespace {

// One scratch file for the whole run, removed at exit.
const std::string& scratch_path() {
    static const std::string path = [] {
        const char* dir = std::getenv("TMPDIR");
        std::string name = std::string(dir && *dir ? dir : "/tmp") + "/sebo-fuzz-optuna-XXXXXX";
        const int fd = ::mkstemp(name.data());
        if (fd < 0) sebo::fuzz::finding("cannot create a scratch file", name);
        ::close(fd);
        std::atexit([] { ::unlink(scratch_path().c_str()); });
        return name;
    }();
    return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string& path = scratch_path();
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) sebo::fuzz::finding("cannot write the scratch file", path);
    std::size_t written = 0;
    while (written < size) {
        const ssize_t n = ::write(fd, data + written, size - written);
        if (n <= 0) sebo::fuzz::finding("cannot write the scratch file", path);
        written += static_cast<std::size_t>(n);
    }
    ::close(fd);
    try {
        const std::string broken = sebo::fuzz::check_sqlite_storage(path);
        if (!broken.empty()) sebo::fuzz::finding("an imported Optuna study broke a rule", broken);
    } catch (const sebo::InputError&) {
    }
    return 0;
}
