#pragma once
// A choice parameter's values written as one text, "none|lz4|zstd", as the space CSV's `values`
// column (io/space_file.h) and the explorer's parameter editor hold them, and a target written as
// one of the values (issue 14, items 1 and 7). One reading for both, so that a space typed into
// the editor is the space the CSV loader gives.

#include <optional>
#include <string>
#include <vector>

#include "space/parameter.h"

namespace sebo {

// The values of "none|lz4|zstd", in order. A value that reads as a finite number is that number,
// written as the files write it ("1.50" is 1.5), so that it reads back the same from an
// experiment file. Empty and repeated values are kept: SearchSpace::validate_parameter names them.
std::vector<ChoiceValue> choice_values_from_text(const std::string& list);
// The values joined by '|' (the inverse of choice_values_from_text for the values it gives).
std::string choice_values_text(const std::vector<ChoiceValue>& values);

// The index of the value `text` names among p's values (choice_index), or nothing with `error`
// set to "'brotli' is not one of the values 'none|lz4|zstd'".
std::optional<int> choice_target_index(const Parameter& p, const std::string& text, std::string& error);

}  // namespace sebo
