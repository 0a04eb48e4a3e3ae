#include "evaluators/hijacking_variables.h"

namespace sebo {
namespace {

constexpr HijackingVariableRule kRules[] = {
    // The dynamic loader runs before any code of the program.
    {"LD_", true, "the dynamic loader reads it before the program starts: LD_PRELOAD and LD_AUDIT load libraries of its "
                  "choosing into the program, LD_LIBRARY_PATH chooses where its libraries come from"},
    {"DYLD_", true, "the macOS dynamic loader reads it: DYLD_INSERT_LIBRARIES loads libraries into the program"},
    {"GLIBC_TUNABLES", false, "it configures the C library's loader and allocator before the program starts (and has "
                              "been used to exploit the loader)"},
    {"GCONV_PATH", false, "the C library loads character-set conversion modules (shared libraries) from the folders it names"},
    {"LOCPATH", false, "the C library reads locale data from the folders it names (crafted locale files have exploited "
                       "its parser)"},
    {"NLSPATH", false, "the C library reads message catalogues from the places it names (crafted catalogues have "
                       "exploited programs' formatting of messages)"},
    // Which program a name runs.
    {"PATH", false, "it decides which file a program name runs, for this command and for every program it starts"},
    // Shells.
    {"BASH_ENV", false, "bash runs the file it names before every non-interactive script"},
    {"ENV", false, "sh and bash in POSIX mode run the file it names when they start"},
    {"BASH_FUNC_", true, "bash defines the shell function it carries, which can replace any command a script runs"},
    {"SHELLOPTS", false, "bash turns on the shell options it lists (xtrace makes it expand PS4, and so run commands, "
                         "before every line)"},
    {"BASHOPTS", false, "bash turns on the shell options it lists, which change how scripts run"},
    {"PS4", false, "bash expands it, running any command substitution in it, before each traced line"},
    {"IFS", false, "shells split words at its characters, which changes what the commands of a script are"},
    {"ZDOTDIR", false, "zsh runs its start-up files from the folder it names"},
    {"HOME", false, "programs run start-up code from the home folder (Python's user site-packages and their .pth "
                    "files, R's .Rprofile, shells' rc files)"},
    // Interpreters.
    {"PYTHON", true, "Python reads it at start-up: PYTHONPATH and PYTHONHOME choose where modules come from, "
                     "PYTHONSTARTUP, PYTHONBREAKPOINT and PYTHONWARNINGS can run or import code of its choosing"},
    {"PERL5", true, "Perl reads it at start-up: PERL5OPT passes options such as -M (load a module), PERL5LIB "
                    "chooses where modules come from, PERL5DB replaces the debugger"},
    {"PERLLIB", false, "Perl loads modules from the folders it names"},
    {"RUBY", true, "Ruby reads it at start-up: RUBYOPT passes options such as -r (load a library), RUBYLIB "
                   "chooses where libraries come from"},
    {"GEM_HOME", false, "RubyGems loads the plugins of every gem in the folder it names when Ruby starts"},
    {"GEM_PATH", false, "RubyGems loads the plugins of every gem in the folders it names when Ruby starts"},
    {"NODE_OPTIONS", false, "Node.js takes options from it, such as --require, which loads a module before the program"},
    {"NODE_PATH", false, "Node.js loads modules from the folders it names"},
    {"JAVA_TOOL_OPTIONS", false, "the Java virtual machine takes options from it, such as -javaagent, which runs a "
                                 "jar of its choosing"},
    {"_JAVA_OPTIONS", false, "the Java virtual machine takes options from it, such as -javaagent, which runs a jar "
                             "of its choosing"},
    {"JDK_JAVA_OPTIONS", false, "the java launcher takes options from it, such as -javaagent, which runs a jar of "
                                "its choosing"},
    {"CLASSPATH", false, "Java loads classes from the places it names"},
    {"R_PROFILE", true, "R runs the profile script it names at start-up"},
    {"R_ENVIRON", true, "R reads the environment file it names at start-up, which can set any of these variables"},
    {"R_LIBS", true, "R loads packages from the folders it names"},
    {"JULIA_LOAD_PATH", false, "Julia loads modules from the places it names"},
    {"JULIA_DEPOT_PATH", false, "Julia loads packages, and runs config/startup.jl, from the folders it names"},
    {"LUA_INIT", true, "Lua runs the code (or the file) it holds at start-up"},
    {"LUA_PATH", true, "Lua loads modules from the places it names"},
    {"LUA_CPATH", true, "Lua loads C modules (shared libraries) from the places it names"},
    {"TCLLIBPATH", false, "Tcl loads packages from the folders it names"},
    {"MATLABPATH", false, "MATLAB finds functions, and runs startup.m, in the folders it names"},
    // Libraries that load plugins.
    {"OPENSSL_CONF", false, "OpenSSL reads the configuration it names in every program that uses it, which can load "
                            "engines and providers (shared libraries)"},
    {"OPENSSL_ENGINES", false, "OpenSSL loads engines (shared libraries) from the folder it names"},
    {"OPENSSL_MODULES", false, "OpenSSL loads providers (shared libraries) from the folder it names"},
    {"QT_PLUGIN_PATH", false, "Qt loads plugins (shared libraries) from the folders it names"},
    {"QT_QPA_PLATFORM_PLUGIN_PATH", false, "Qt loads its platform plugin (a shared library) from the folder it names"},
    {"GTK_MODULES", false, "GTK loads the modules (shared libraries) it names"},
    {"GTK_PATH", false, "GTK loads modules (shared libraries) from the folders it names"},
    {"GIO_EXTRA_MODULES", false, "GIO loads modules (shared libraries) from the folders it names"},
};

}  // namespace

std::span<const HijackingVariableRule> hijacking_variable_rules() { return kRules; }

std::optional<std::string> hijack_reason(std::string_view name) {
    for (const HijackingVariableRule& rule : kRules)
        if (rule.prefix ? name.substr(0, rule.pattern.size()) == rule.pattern : name == rule.pattern)
            return std::string(rule.reason);
    return std::nullopt;
}

}  // namespace sebo
