#pragma once
// Text from an experiment file shown to a person who decides whether to run it: a program, an
// argument, a folder, an environment variable. It is written as a POSIX shell would need it, so
// it can be pasted into one and reads back as the same string:
//   - as it is when no shell treats any of its characters specially (python3, --lr=0.1, é);
//   - in single quotes otherwise ('my script.py', 'it'\''s', '$(x)');
//   - in bash's $'...' with escapes when it has control characters, invisible or bidirectional
//     format characters (which can make text display in another order than it runs) or bytes that
//     are not UTF-8: $'a\nb', $'\u202Etxt.exe', $'\xFF'.
// So a file cannot make one shown line look like two, or hide or reorder text; and different
// strings always give different texts.

#include <string>
#include <string_view>

namespace sebo {

std::string shell_quoted(std::string_view text);

}  // namespace sebo
