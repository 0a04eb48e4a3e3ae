#pragma once
// Whole files read and written safely: the checked read of an experiment file (a regular file
// under a size limit, never blocking on a FIFO) and the atomic write every save uses (a
// temporary file flushed to disk, renamed over the target, the folder flushed too).

#include <cstdint>
#include <string>

namespace sebo {

// Files larger than this are refused before they are read (a real experiment with thousands of
// trials in hundreds of dimensions is a few tens of MiB).
inline constexpr std::uint64_t kMaxExperimentFileBytes = std::uint64_t{256} << 20;

// The text of an experiment file, with the checks of load_experiment before parsing (a regular
// file, not over kMaxExperimentFileBytes); throws InputError on field "file".
std::string read_experiment_text(const std::string& path);

// Writes text to a file atomically (same protocol as save_experiment): the target is either
// the old file or the complete new one, never a partial write, even after a crash. An existing
// target keeps its permission bits. Throws std::runtime_error naming the path and strerror.
// Leftover temporaries of processes killed mid-save are removed on the first save of a file.
void write_file_atomic(const std::string& path, const std::string& text);

}  // namespace sebo
