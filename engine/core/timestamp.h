#pragma once
// The time stamps the experiment files record (trial created and completed, who holds a lock).

#include <string>

namespace sebo {

// Current UTC time as ISO-8601 ("2026-11-25T22:31:07Z").
std::string utc_timestamp();

}  // namespace sebo
