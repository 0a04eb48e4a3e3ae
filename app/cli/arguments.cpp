#include "cli/arguments.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace sebo::cli {

Arguments::Arguments(std::string command, std::string synopsis, std::string description,
                     std::vector<OptionSpec> options, int max_positionals, std::string positional_name)
    : command_(std::move(command)),
      synopsis_(std::move(synopsis)),
      description_(std::move(description)),
      options_(std::move(options)),
      max_positionals_(max_positionals),
      positional_name_(std::move(positional_name)) {
    options_.push_back({"help", "", "show this help and exit"});
}

const OptionSpec* Arguments::find(const std::string& name) const {
    for (const OptionSpec& o : options_)
        if (o.name == name) return &o;
    return nullptr;
}

bool Arguments::parse(const std::vector<std::string>& args) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg.size() > 2 && arg.rfind("--", 0) == 0) {
            std::string name = arg.substr(2);
            std::optional<std::string> inline_value;
            if (const auto eq = name.find('='); eq != std::string::npos) {
                inline_value = name.substr(eq + 1);
                name = name.substr(0, eq);
            }
            const OptionSpec* spec = find(name);
            if (!spec) throw UsageError("unknown option '--" + name + "' for 'sebo " + command_ + "' (see 'sebo " + command_ + " --help')");
            if (name == "help") return false;
            auto& slot = values_[name];
            if (spec->repeatable_rest) {
                if (inline_value) slot.push_back(*inline_value);
                for (++i; i < args.size(); ++i) slot.push_back(args[i]);
                if (slot.empty()) throw UsageError("--" + name + " needs " + spec->value_name);
                break;
            }
            if (spec->value_name.empty()) {
                if (inline_value) throw UsageError("--" + name + " takes no value, got '" + *inline_value + "'");
                slot.push_back("");
                continue;
            }
            if (inline_value) {
                slot.push_back(*inline_value);
            } else {
                if (i + 1 >= args.size()) throw UsageError("--" + name + " needs a value (" + spec->value_name + ")");
                slot.push_back(args[++i]);
            }
            if (slot.size() > 1 && !spec->repeatable) throw UsageError("--" + name + " given more than once");
        } else if (arg == "-h") {
            return false;
        } else {
            if (static_cast<int>(positionals_.size()) >= max_positionals_)
                throw UsageError("unexpected argument '" + arg + "' for 'sebo " + command_ + "' (see 'sebo " + command_ + " --help')");
            positionals_.push_back(arg);
        }
    }
    return true;
}

std::string Arguments::help() const {
    std::ostringstream out;
    out << "usage: sebo " << command_ << " " << synopsis_ << "\n\n" << description_ << "\n\noptions:\n";
    for (const OptionSpec& o : options_) {
        std::string left = "  --" + o.name + (o.value_name.empty() ? "" : " " + o.value_name);
        if (left.size() < 28) left.resize(28, ' ');
        else left += "\n" + std::string(28, ' ');
        out << left << o.help << "\n";
    }
    return out.str();
}

std::optional<std::string> Arguments::value(const std::string& name) const {
    const auto it = values_.find(name);
    if (it == values_.end() || it->second.empty()) return std::nullopt;
    return it->second.front();
}

std::vector<std::string> Arguments::values(const std::string& name) const {
    const auto it = values_.find(name);
    return it == values_.end() ? std::vector<std::string>{} : it->second;
}

std::optional<long long> Arguments::integer(const std::string& name, long long min, long long max) const {
    const auto text = value(name);
    if (!text) return std::nullopt;
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(text->c_str(), &end, 10);
    if (text->empty() || *end != '\0' || errno == ERANGE)
        throw UsageError("--" + name + ": '" + *text + "' is not a whole number");
    if (v < min || v > max)
        throw UsageError("--" + name + ": " + *text + " is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
    return v;
}

std::optional<std::uint64_t> Arguments::unsigned_integer(const std::string& name) const {
    const auto text = value(name);
    if (!text) return std::nullopt;
    errno = 0;
    char* end = nullptr;
    if (text->empty() || (*text)[0] == '-') throw UsageError("--" + name + ": '" + *text + "' is not a non-negative whole number");
    const unsigned long long v = std::strtoull(text->c_str(), &end, 10);
    if (*end != '\0' || errno == ERANGE) throw UsageError("--" + name + ": '" + *text + "' is not a non-negative whole number");
    return static_cast<std::uint64_t>(v);
}

std::optional<double> Arguments::number(const std::string& name) const {
    const auto text = value(name);
    if (!text) return std::nullopt;
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(text->c_str(), &end);
    if (text->empty() || *end != '\0' || !std::isfinite(v) || errno == ERANGE)
        throw UsageError("--" + name + ": '" + *text + "' is not a finite number");
    return v;
}

std::optional<std::vector<int>> Arguments::integer_list(const std::string& name) const {
    const auto text = value(name);
    if (!text) return std::nullopt;
    std::vector<int> out;
    std::stringstream stream(*text);
    std::string item;
    while (std::getline(stream, item, ',')) {
        char* end = nullptr;
        errno = 0;
        const long v = std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || errno == ERANGE || v < 0 || v > 1'000'000)
            throw UsageError("--" + name + ": '" + item + "' in '" + *text + "' is not a non-negative whole number");
        out.push_back(static_cast<int>(v));
    }
    if (out.empty()) throw UsageError("--" + name + ": empty list");
    return out;
}

}  // namespace sebo::cli
