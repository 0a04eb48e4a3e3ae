#pragma once
// Shortest round-trip text for numbers in messages and files.

#include <string>

namespace sebo {

// Shortest decimal text that reads back to the same double ("0.1", "1e+300", "nan", "inf").
std::string format_number(double value);

// Compact text for tables and progress lines: `digits` significant digits ("3.94448", "1.2e-05").
std::string format_short(double value, int digits = 6);

}  // namespace sebo
