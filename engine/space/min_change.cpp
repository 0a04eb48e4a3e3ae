#include "space/min_change.h"

#include <charconv>

#include "core/format.h"

namespace sebo {

std::optional<MinChange> min_change_from_text(const std::string& text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos) return std::nullopt;
    std::string body = text.substr(first, text.find_last_not_of(" \t") - first + 1);
    MinChange change;
    if (body.back() == '%') {
        change.percent = true;
        body.pop_back();
    }
    // Locale-independent, like every number of the space files; a leading '+' is allowed.
    const std::size_t start = !body.empty() && body[0] == '+' ? 1 : 0;
    if (start == body.size()) return std::nullopt;
    const char* begin = body.data() + start;
    const char* end = body.data() + body.size();
    const auto [stop, error] = std::from_chars(begin, end, change.amount);
    if (error != std::errc() || stop != end) return std::nullopt;
    return change;
}

std::string to_text(const MinChange& change) {
    return format_number(change.amount) + (change.percent ? "%" : "");
}

}  // namespace sebo
