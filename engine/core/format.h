#pragma once
// Shortest round-trip text for numbers in messages and files, and small text helpers of messages.

#include <string>

namespace sebo {

// Shortest decimal text that reads back to the same double ("0.1", "1e+300", "nan", "inf").
std::string format_number(double value);

// Compact text for tables and progress lines: `digits` significant digits ("3.94448", "1.2e-05").
std::string format_short(double value, int digits = 6);

// 'text' in single quotes, as messages quote what the user wrote.
std::string single_quoted(const std::string& text);
// ASCII letters in lower case (file headers and keywords are matched without case).
std::string lower_case(std::string text);
// 0 → "00", 7 → "07", 12 → "12": the numbered names of the built-in problems' parameters.
std::string two_digits(int number);

}  // namespace sebo
