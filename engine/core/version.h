#pragma once
// The program's version, one source for every executable and every file it writes (issue 33 item
// 7): the CMake project version and, for a build from a git checkout, the commit
// (`git describe --always --dirty`), e.g. "0.1.0 (3c5b440)".

#include <string>

namespace sebo {

// "0.1.0"
const char* program_version();
// The commit the build was made from; empty when it was not built from a git checkout.
const char* program_commit();
// "0.1.0 (3c5b440)", or "0.1.0" without a commit.
std::string program_version_and_commit();
// "SEBO Explorer 0.1.0 (3c5b440)": what files record as their writer and --version prints.
std::string program_version_text();

}  // namespace sebo
