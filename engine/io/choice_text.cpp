#include "io/choice_text.h"

#include <cmath>

#include "core/format.h"
#include "io/csv_table.h"

namespace sebo {

std::vector<ChoiceValue> choice_values_from_text(const std::string& list) {
    std::vector<ChoiceValue> values;
    std::size_t start = 0;
    while (true) {
        const std::size_t bar = list.find('|', start);
        std::string text = list.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
        ChoiceValue v;
        v.number = parse_number(text);
        if (v.number && !std::isfinite(*v.number)) v.number.reset();
        v.text = v.number ? format_number(*v.number) : std::move(text);
        values.push_back(std::move(v));
        if (bar == std::string::npos) break;
        start = bar + 1;
    }
    return values;
}

std::string choice_values_text(const std::vector<ChoiceValue>& values) {
    std::string text;
    for (std::size_t k = 0; k < values.size(); ++k) text += (k ? "|" : "") + values[k].text;
    return text;
}

std::optional<int> choice_target_index(const Parameter& p, const std::string& text, std::string& error) {
    if (const auto k = choice_index(p, text)) return k;
    error = "'" + text + "' is not one of the values '" + choice_values_text(p.values) + "'";
    return std::nullopt;
}

}  // namespace sebo
