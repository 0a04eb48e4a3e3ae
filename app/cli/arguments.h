#pragma once
// A small command-line parser for the `sebo` subcommands: declared options with help text,
// "--name value" and "--name=value" forms, positional arguments, and usage errors that name
// the flag and the value. No Qt: the CLI links only the engine.

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace sebo::cli {

// Bad usage: exit code 2 with the message.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct OptionSpec {
    std::string name;        // without the leading dashes
    std::string value_name;  // empty for a flag
    std::string help;
    bool repeatable_rest = false;  // takes every remaining argument (e.g. --command PROG ARGS...)
    bool repeatable = false;       // may be given more than once (e.g. --allow-env NAME)
};

class Arguments {
public:
    Arguments(std::string command, std::string synopsis, std::string description, std::vector<OptionSpec> options,
              int max_positionals = 0, std::string positional_name = {});

    // Throws UsageError. Returns false when --help was asked for (help text already in help()).
    bool parse(const std::vector<std::string>& args);
    std::string help() const;

    bool has(const std::string& name) const { return values_.count(name) > 0; }
    std::optional<std::string> value(const std::string& name) const;
    // Every value given: one per occurrence of a repeatable option, or the rest of the line.
    std::vector<std::string> values(const std::string& name) const;
    const std::vector<std::string>& positionals() const { return positionals_; }

    // Typed access; throws UsageError naming the flag and the value.
    std::optional<long long> integer(const std::string& name, long long min, long long max) const;
    std::optional<double> number(const std::string& name) const;
    std::optional<std::uint64_t> unsigned_integer(const std::string& name) const;
    std::optional<std::vector<int>> integer_list(const std::string& name) const;

private:
    const OptionSpec* find(const std::string& name) const;

    std::string command_, synopsis_, description_;
    std::vector<OptionSpec> options_;
    int max_positionals_;
    std::string positional_name_;
    std::map<std::string, std::vector<std::string>> values_;
    std::vector<std::string> positionals_;
};

}  // namespace sebo::cli
