#pragma once
// The kinds of sparsity penalty (see acquisition/sparsity_penalty.h). A light header: settings
// structs name the kind without pulling in Eigen.

#include <optional>
#include <string>

namespace sebo {

enum class PenaltyKind { L0, L1, GroupLasso };

const char* to_string(PenaltyKind kind);
std::optional<PenaltyKind> penalty_kind_from_string(const std::string& text);

}  // namespace sebo
