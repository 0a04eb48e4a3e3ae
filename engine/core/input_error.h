#pragma once
// Bad user input (files, CSV, flags) is reported as an InputError that names the offending
// field by its path (e.g. "trials[3].parameters.x7") and says what is wrong with the value.
// Programming errors are asserts; numerical trouble is a returned status (see STYLE.md).

#include <stdexcept>
#include <string>

namespace sebo {

class InputError : public std::runtime_error {
public:
    InputError(std::string field, const std::string& message)
        : std::runtime_error(field.empty() ? message : field + ": " + message),
          field_(std::move(field)) {}

    const std::string& field() const noexcept { return field_; }

private:
    std::string field_;
};

}  // namespace sebo
