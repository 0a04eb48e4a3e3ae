#include "evaluators/hijacking_variables.h"

#include <algorithm>

namespace sebo {
namespace {

using enum NameMatch;

constexpr HijackingVariableRule kRules[] = {
    // The dynamic loader runs before any code of the program.
    {"LD_", Prefix, "the dynamic loader reads it before the program starts: LD_PRELOAD and LD_AUDIT load libraries of its "
                    "choosing into the program, LD_LIBRARY_PATH chooses where its libraries come from"},
    {"DYLD_", Prefix, "the macOS dynamic loader reads it: DYLD_INSERT_LIBRARIES loads libraries into the program"},
    {"GLIBC_TUNABLES", Exact, "it configures the C library's loader and allocator before the program starts (and has "
                              "been used to exploit the loader)"},
    {"GCONV_PATH", Exact, "the C library loads character-set conversion modules (shared libraries) from the folders it names"},
    {"LOCPATH", Exact, "the C library reads locale data from the folders it names (crafted locale files have exploited "
                       "its parser)"},
    {"NLSPATH", Exact, "the C library reads message catalogues from the places it names (crafted catalogues have "
                       "exploited programs' formatting of messages)"},
    // Which program a name runs.
    {"PATH", Exact, "it decides which file a program name runs, for this command and for every program it starts"},
    // Shells.
    {"BASH_ENV", Exact, "bash runs the file it names before every non-interactive script"},
    {"ENV", Exact, "sh and bash in POSIX mode run the file it names when they start"},
    {"BASH_FUNC_", Prefix, "bash defines the shell function it carries, which can replace any command a script runs"},
    {"SHELLOPTS", Exact, "bash turns on the shell options it lists (xtrace makes it expand PS4, and so run commands, "
                         "before every line)"},
    {"BASHOPTS", Exact, "bash turns on the shell options it lists, which change how scripts run"},
    {"PS4", Exact, "bash expands it, running any command substitution in it, before each traced line"},
    {"IFS", Exact, "shells split words at its characters, which changes what the commands of a script are"},
    {"ZDOTDIR", Exact, "zsh runs its start-up files from the folder it names"},
    {"HOME", Exact, "programs run start-up code from the home folder (Python's user site-packages and their .pth "
                    "files, R's .Rprofile, shells' rc files)"},
    // Interpreters.
    {"PYTHON", Prefix, "Python reads it at start-up: PYTHONPATH and PYTHONHOME choose where modules come from, "
                       "PYTHONSTARTUP, PYTHONBREAKPOINT and PYTHONWARNINGS can run or import code of its choosing"},
    {"PERL5", Prefix, "Perl reads it at start-up: PERL5OPT passes options such as -M (load a module), PERL5LIB "
                      "chooses where modules come from, PERL5DB replaces the debugger"},
    {"PERLLIB", Exact, "Perl loads modules from the folders it names"},
    {"RUBY", Prefix, "Ruby reads it at start-up: RUBYOPT passes options such as -r (load a library), RUBYLIB "
                     "chooses where libraries come from"},
    {"GEM_HOME", Exact, "RubyGems loads the plugins of every gem in the folder it names when Ruby starts"},
    {"GEM_PATH", Exact, "RubyGems loads the plugins of every gem in the folders it names when Ruby starts"},
    {"NODE_OPTIONS", Exact, "Node.js takes options from it, such as --require, which loads a module before the program"},
    {"NODE_PATH", Exact, "Node.js loads modules from the folders it names"},
    {"JAVA_TOOL_OPTIONS", Exact, "the Java virtual machine takes options from it, such as -javaagent, which runs a "
                                 "jar of its choosing"},
    {"_JAVA_OPTIONS", Exact, "the Java virtual machine takes options from it, such as -javaagent, which runs a jar "
                             "of its choosing"},
    {"JDK_JAVA_OPTIONS", Exact, "the java launcher takes options from it, such as -javaagent, which runs a jar of "
                                "its choosing"},
    {"CLASSPATH", Exact, "Java loads classes from the places it names"},
    {"R_PROFILE", Prefix, "R runs the profile script it names at start-up"},
    {"R_ENVIRON", Prefix, "R reads the environment file it names at start-up, which can set any of these variables"},
    {"R_LIBS", Prefix, "R loads packages from the folders it names"},
    {"JULIA_LOAD_PATH", Exact, "Julia loads modules from the places it names"},
    {"JULIA_DEPOT_PATH", Exact, "Julia loads packages, and runs config/startup.jl, from the folders it names"},
    {"LUA_INIT", Prefix, "Lua runs the code (or the file) it holds at start-up"},
    {"LUA_PATH", Prefix, "Lua loads modules from the places it names"},
    {"LUA_CPATH", Prefix, "Lua loads C modules (shared libraries) from the places it names"},
    {"TCLLIBPATH", Exact, "Tcl loads packages from the folders it names"},
    {"MATLABPATH", Exact, "MATLAB finds functions, and runs startup.m, in the folders it names"},
    // Libraries that load plugins.
    {"OPENSSL_CONF", Exact, "OpenSSL reads the configuration it names in every program that uses it, which can load "
                            "engines and providers (shared libraries)"},
    {"OPENSSL_ENGINES", Exact, "OpenSSL loads engines (shared libraries) from the folder it names"},
    {"OPENSSL_MODULES", Exact, "OpenSSL loads providers (shared libraries) from the folder it names"},
    {"QT_PLUGIN_PATH", Exact, "Qt loads plugins (shared libraries) from the folders it names"},
    {"QT_QPA_PLATFORM_PLUGIN_PATH", Exact, "Qt loads its platform plugin (a shared library) from the folder it names"},
    {"GTK_MODULES", Exact, "GTK loads the modules (shared libraries) it names"},
    {"GTK_PATH", Exact, "GTK loads modules (shared libraries) from the folders it names"},
    {"GIO_EXTRA_MODULES", Exact, "GIO loads modules (shared libraries) from the folders it names"},
    {"OMP_TOOL_LIBRARIES", Exact, "OpenMP runtimes with the tools interface (LLVM's and Intel's libomp) load the tool "
                                  "libraries it names into every program that uses OpenMP"},
    {"CUDA_INJECTION", Prefix, "the CUDA driver loads the library CUDA_INJECTION64_PATH names (meant for profilers) "
                               "into every program that uses CUDA"},
    {"MPLBACKEND", Exact, "matplotlib imports the backend it names, and module://NAME imports any Python module"},
    {"MPLCONFIGDIR", Exact, "matplotlib reads its matplotlibrc from the folder it names, whose backend: module://NAME "
                            "imports any Python module"},
    // Tools that scripts call: version control, package managers, build tools.
    {"GIT_", Prefix, "git reads it: GIT_SSH_COMMAND, GIT_EXTERNAL_DIFF, GIT_PAGER, GIT_EDITOR and GIT_ASKPASS run "
                     "programs, GIT_EXEC_PATH chooses where git's commands come from, GIT_CONFIG_* and GIT_DIR bring "
                     "configuration (core.fsmonitor, core.sshCommand, hooks) that runs commands"},
    {"XDG_CONFIG_HOME", Exact, "programs read their configuration from the folder it names: git's (core.fsmonitor, "
                               "core.pager and aliases run commands), matplotlib's (a module:// backend) and others"},
    {"npm_config_", PrefixIgnoringCase, "npm takes its configuration from it, in any letter case: script_shell runs "
                                        "scripts through a program of its choosing, node_options passes --require to "
                                        "Node.js, userconfig names an .npmrc with more of them"},
    {"BUNDLE_", Prefix, "Bundler reads it: BUNDLE_GEMFILE names the Gemfile it evaluates (Ruby code), "
                        "BUNDLE_APP_CONFIG the folder of a configuration that can name another"},
    {"RUSTC", Prefix, "cargo runs the compiler RUSTC names, or every compiler call through the program "
                      "RUSTC_WRAPPER or RUSTC_WORKSPACE_WRAPPER names"},
    {"RUSTFLAGS", Exact, "cargo passes it to the compiler, and -C linker=PROGRAM runs a program of its choosing"},
    {"CARGO_", Prefix, "cargo takes its configuration from it: CARGO_BUILD_RUSTC_WRAPPER and "
                       "CARGO_TARGET_<triple>_RUNNER run programs of its choosing, CARGO_HOME chooses its "
                       "configuration file"},
    {"GOFLAGS", Exact, "the go command takes flags from it, such as -toolexec (runs a program around every "
                       "compiler call) and -exec (runs the built program through one)"},
    {"GOENV", Exact, "the go command reads its settings from the file it names, which can set GOFLAGS"},
};

// Letter case folded in ASCII only (as npm folds the names it reads), whatever the process locale.
char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool equal_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return ascii_lower(x) == ascii_lower(y); });
}

bool matches(const HijackingVariableRule& rule, std::string_view name) {
    switch (rule.match) {
    case Exact: return name == rule.pattern;
    case Prefix: return name.substr(0, rule.pattern.size()) == rule.pattern;
    case PrefixIgnoringCase: return equal_ignoring_case(name.substr(0, rule.pattern.size()), rule.pattern);
    }
    return false;
}

}  // namespace

std::span<const HijackingVariableRule> hijacking_variable_rules() { return kRules; }

std::optional<std::string> hijack_reason(std::string_view name) {
    for (const HijackingVariableRule& rule : kRules)
        if (matches(rule, name)) return std::string(rule.reason);
    return std::nullopt;
}

}  // namespace sebo
