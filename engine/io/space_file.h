#pragma once
// A search space written by a person, for `sebo new --space FILE` (SPEC §1):
//
//   CSV, one parameter per row, header names in any order and any letter case:
//     name,kind,lower,upper,log,target,group,min_change,value,values,ordered
//     learning_rate,continuous,1e-5,1e-1,true,,,
//     n_layers,integer,1,8,,1,,2
//     timeout_s,continuous,1,60,,30,,5%
//   name, lower and upper are required; kind (continuous | integer, default continuous), log
//   (true/false, yes/no or 1/0, default false), target (default 0, or lower when 0 is outside
//   the bounds), group (default none) and min_change (the minimum meaningful change, in the
//   parameter's units or as "N%" of the range, space/min_change.h; default none: the 1 % rule)
//   are optional columns whose empty cells take the default. A parameter of kind `fixed` has a
//   `value` (required, only for that kind) and no target; its lower and upper may be empty (both)
//   or must hold the value:
//     compression_level,fixed,,,,,,,3
//   A parameter of kind `choice` has `values` (at least two, separated by |; a value that reads as
//   a number is sent to the evaluator as a JSON number), an optional `ordered` (true/false, default
//   false) and an optional target that is one of the values (default the first); its lower, upper,
//   log, min_change and value cells must be empty:
//     compression,choice,,,,none,,,,none|lz4|zstd,
//   Linear parameter constraints between the parameters come with `sebo new
//   --parameter-constraint` (space/linear_constraint.h).
//
//   JSON, the layout of an experiment file's "space": {"parameters": [{"name": ..., ...}],
//   "parameter_constraints": ["fa + fb <= 1", ...]} (the constraints optional). It
//   may also say what is measured, with "metrics", "objectives" and "constraints" as at the top
//   level of an experiment file (docs/file-format.md).
//
// Every problem is an InputError naming the file, the line and the column (CSV) or the JSON
// path, e.g. "space.csv line 4, column upper: 'ten' is not a number".

#include <optional>
#include <string>

#include "experiment/outcomes.h"
#include "space/search_space.h"

namespace sebo {

// `source` names the file in messages.
SearchSpace space_from_csv_text(const std::string& text, const std::string& source);
SearchSpace space_from_json_document_text(const std::string& text, const std::string& source);

struct SpaceFile {
    SearchSpace space;
    std::optional<Outcomes> outcomes;  // JSON files that have "objectives" (CSV files never)
};

// Reads the file at `path`: JSON when its first non-blank character is '{', CSV otherwise.
SpaceFile read_space_file(const std::string& path);
// Only the space of read_space_file.
SearchSpace load_space_file(const std::string& path);

}  // namespace sebo
