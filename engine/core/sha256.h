#pragma once
// SHA-256 (FIPS 180-4) of a byte string, as lower-case hex: the report names the experiment file
// it was made from by the hash of its bytes, so that a reader can check that a file is the one
// the report describes (`sha256sum FILE` prints the same digits).

#include <string>
#include <string_view>

namespace sebo {

// 64 lower-case hex digits.
std::string sha256_hex(std::string_view bytes);

}  // namespace sebo
