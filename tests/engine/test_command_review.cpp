// What a person approves before an experiment file's command runs (evaluators/command_review.h):
// the program resolved exactly as the evaluator starts it (checked by running it), every
// argument, folder and variable shown with text a file cannot disguise, the variables that can
// hijack the program named and refused, and a fingerprint that changes with everything shown.

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <algorithm>
#include <fstream>
#include <sstream>

#include "evaluators/command_evaluator.h"
#include "evaluators/command_launch.h"
#include "evaluators/command_review.h"
#include "evaluators/hijacking_variables.h"
#include "evaluators/shell_quoting.h"
#include "test_main.h"
#include "test_support.h"

namespace test_command_review {

using namespace sebo;

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

// Whether a rule names `name`, decided here with Qt's string functions (not the engine's).
bool rule_covers(const HijackingVariableRule& rule, const std::string& name) {
    const QString n = qs(name), pattern = QString::fromUtf8(rule.pattern.data(), static_cast<int>(rule.pattern.size()));
    switch (rule.match) {
    case NameMatch::Exact: return n == pattern;
    case NameMatch::Prefix: return n.startsWith(pattern, Qt::CaseSensitive);
    case NameMatch::PrefixIgnoringCase: return n.startsWith(pattern, Qt::CaseInsensitive);
    }
    return false;
}

// An executable /bin/sh script that reports `objective` (so a run shows which file ran).
void write_program(const QString& path, int objective) {
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QString("#!/bin/sh\ncat > /dev/null\necho '{\"objective\": %1}'\n").arg(objective).toUtf8());
    f.close();
    QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
}

EvaluatorSpec command(std::vector<std::string> argv) {
    EvaluatorSpec spec;
    spec.kind = EvaluatorSpec::Kind::Command;
    spec.command = std::move(argv);
    spec.timeout_seconds = 30;
    return spec;
}

// A context of the test's own: a known inherited environment and working directory.
LaunchContext context(std::vector<std::string> environment, std::string directory) {
    LaunchContext c;
    c.environment = std::move(environment);
    c.current_directory = std::move(directory);
    return c;
}

double run_objective(const EvaluatorSpec& spec) {
    SearchSpace space({Parameter{"x", ParameterKind::Continuous, 0.0, 1.0, false, std::nullopt, {}, {}, {}, false}});
    Trial trial;
    trial.parameters = {0.5};
    CommandEvaluator evaluator(spec, space, {"objective"});
    const EvaluationOutcome outcome = evaluator.evaluate(trial, StepControl{});
    if (!outcome.ok) qWarning("%s", outcome.error.c_str());
    return outcome.ok ? outcome.values.at("objective").mean : -1.0;
}

bool contains_line(const std::string& text, const std::string& line) {
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        if (l == line) return true;
    return false;
}

}  // namespace

class TestCommandReview : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    QString path(const QString& name) const { return QDir(dir.path()).canonicalPath() + "/" + name; }

private slots:
    void initTestCase() { QVERIFY(dir.isValid()); }

    // Shown text reads back as the same string in a shell, and hides nothing.
    void shell_quoting_hides_nothing() {
        QCOMPARE(qs(shell_quoted("python3")), QString("python3"));
        QCOMPARE(qs(shell_quoted("--lr=0.1")), QString("--lr=0.1"));
        QCOMPARE(qs(shell_quoted("café")), QString("café"));
        QCOMPARE(qs(shell_quoted("")), QString("''"));
        QCOMPARE(qs(shell_quoted("two words")), QString("'two words'"));
        QCOMPARE(qs(shell_quoted("it's")), QString("'it'\\''s'"));
        QCOMPARE(qs(shell_quoted("$(x)")), QString("'$(x)'"));
        // A newline would make one shown line look like two.
        QCOMPARE(qs(shell_quoted("evaluate.py\nFolder       /safe")), QString("$'evaluate.py\\nFolder       /safe'"));
        // U+202E (right-to-left override) would display "txt.exe" backwards.
        QCOMPARE(qs(shell_quoted("a\u202Eexe.txt")), QString("$'a\\u202Eexe.txt'"));
        QCOMPARE(qs(shell_quoted("zero\u200Bwidth")), QString("$'zero\\u200Bwidth'"));
        QCOMPARE(qs(shell_quoted("no\u00A0break")), QString("$'no\\u00A0break'"));
        QCOMPARE(qs(shell_quoted("tag\U000E0041")), QString("$'tag\\U000E0041'"));
        QCOMPARE(qs(shell_quoted("it's\t")), QString("$'it\\'s\\t'"));
        QCOMPARE(qs(shell_quoted("back\\slash\x01")), QString("$'back\\\\slash\\x01'"));
        // Bytes that are not UTF-8 are kept apart from the characters of the same number.
        const std::string invalid = "a\x85";
        const std::string next_line = "a\xC2\x85";  // U+0085, well-formed
        QCOMPARE(qs(shell_quoted(invalid)), QString("$'a\\x85'"));
        QCOMPARE(qs(shell_quoted(next_line)), QString("$'a\\u0085'"));

        // Independent check: bash reads every shown form back as the original bytes.
        const std::vector<std::string> samples = {"two words", "it's", "$(x) `y`", "", "a\nb", "a\u202Eb", "q'\t\\", invalid};
        std::string script = "for a in";
        for (const std::string& s : samples) script += " " + shell_quoted(s);
        const std::string out = path("bash-args").toStdString();
        script += "; do printf '%s\\0' \"$a\"; done > " + shell_quoted(out);
        QVERIFY(QFile::exists("/bin/bash"));
        QCOMPARE(std::system(("LC_ALL=C.UTF-8 /bin/bash -c " + shell_quoted(script)).c_str()), 0);
        std::ifstream in(out, std::ios::binary);
        std::stringstream got;
        got << in.rdbuf();
        std::string expected;
        for (const std::string& s : samples) expected += s + std::string(1, '\0');
        QVERIFY(got.str() == expected);
    }

    // A name is looked up in the PATH the program gets, inside its working folder, as execvp
    // would; a path is taken inside the working folder.
    void the_program_is_resolved_as_it_will_start() {
        write_program(path("first/tool"), 1);
        write_program(path("second/tool"), 2);
        QFile plain(path("nonexec/tool"));
        QDir().mkpath(path("nonexec"));
        QVERIFY(plain.open(QIODevice::WriteOnly));
        plain.close();
        const std::string first = path("first").toStdString(), second = path("second").toStdString();
        const LaunchContext inherited = context({"HOME=/home/me", "PATH=" + second}, "/");

        EvaluatorSpec spec = command({"tool", "--fast"});
        CommandLaunch launch = plan_launch(spec, inherited);
        QCOMPARE(qs(launch.program), path("second/tool"));
        QCOMPARE(qs(launch.working_directory), QString("/"));

        // The file's PATH decides, not the inherited one; a non-executable file is passed over.
        spec.environment = {{"PATH", path("nonexec").toStdString() + ":" + first + ":" + second}};
        launch = plan_launch(spec, inherited);
        QCOMPARE(qs(launch.program), path("first/tool"));
        QVERIFY(std::find(launch.environment.begin(), launch.environment.end(), "PATH=" + spec.environment[0].second) !=
                launch.environment.end());
        QVERIFY(std::find(launch.environment.begin(), launch.environment.end(), "PATH=" + second) == launch.environment.end());
        QVERIFY(std::find(launch.environment.begin(), launch.environment.end(), "HOME=/home/me") != launch.environment.end());

        // Empty and relative PATH entries are folders inside the working folder.
        spec.environment = {{"PATH", "nowhere::"}};
        spec.working_directory = first;
        QCOMPARE(qs(plan_launch(spec, inherited).program), path("first/tool"));
        spec.environment = {{"PATH", "../second"}};
        QCOMPARE(qs(plan_launch(spec, inherited).program), path("first/../second/tool"));

        // A relative working folder is inside the current one; a relative path inside it.
        spec = command({"./tool"});
        spec.working_directory = "second/.";
        launch = plan_launch(spec, context({}, QDir(dir.path()).canonicalPath().toStdString()));
        QCOMPARE(qs(launch.working_directory), path("second"));
        QCOMPARE(qs(launch.program), path("second/tool"));

        // Nothing found: the reason, and nothing to start.
        spec = command({"no-such-tool"});
        spec.environment = {{"PATH", path("nonexec").toStdString() + ":" + first}};
        launch = plan_launch(spec, inherited);
        QVERIFY(launch.program.empty());
        QVERIFY2(launch.program_error.find("no executable file named no-such-tool") != std::string::npos,
                 launch.program_error.c_str());
        spec = command({"tool"});
        spec.environment = {{"PATH", path("nonexec").toStdString()}};
        launch = plan_launch(spec, inherited);
        QVERIFY(launch.program.empty());
        QVERIFY2(launch.program_error.find(path("nonexec/tool").toStdString() + ": it is not executable") != std::string::npos,
                 launch.program_error.c_str());
        // Without any PATH, the C library's default (which has /bin).
        QVERIFY(plan_launch(command({"sh"}), context({}, "/")).program == "/bin/sh" ||
                plan_launch(command({"sh"}), context({}, "/")).program == "/usr/bin/sh");
    }

    // The evaluator starts the program the review shows: both take the file's PATH.
    void the_evaluator_runs_what_the_review_shows() {
        write_program(path("first/tool"), 1);
        write_program(path("second/tool"), 2);
        EvaluatorSpec spec = command({"tool"});
        spec.environment = {{"PATH", path("second").toStdString() + ":" + path("first").toStdString() + ":/usr/bin:/bin"}};
        QCOMPARE(qs(review_command(spec).resolved_program), path("second/tool"));
        QCOMPARE(run_objective(spec), 2.0);
        spec.environment = {{"PATH", path("first").toStdString() + ":" + path("second").toStdString() + ":/usr/bin:/bin"}};
        QCOMPARE(qs(review_command(spec).resolved_program), path("first/tool"));
        QCOMPARE(run_objective(spec), 1.0);

        // Without a PATH of its own, the inherited one (this process's) decides, for both.
        const QByteArray saved = qgetenv("PATH");
        qputenv("PATH", (path("second") + ":" + saved).toUtf8());
        spec.environment.clear();
        const std::string shown = review_command(spec).resolved_program;
        const double ran = run_objective(spec);
        qputenv("PATH", saved);
        QCOMPARE(qs(shown), path("second/tool"));
        QCOMPARE(ran, 2.0);
    }

    void the_review_lists_everything_that_will_run() {
        write_program(path("bin/python3"), 0);
        QVERIFY(QFile::link(path("bin/python3"), path("bin/python")));
        EvaluatorSpec spec = command({"python", "evaluate.py", "two words", "line\nbreak"});
        spec.working_directory = path("bin").toStdString();
        spec.timeout_seconds = 600;
        spec.max_concurrency = 3;
        spec.environment = {{"PATH", path("bin").toStdString()},
                            {"OMP_NUM_THREADS", "1"},
                            {"LANG", "C"},
                            {"LD_PRELOAD", "/tmp/hook.so"}};
        const CommandReview review =
            review_command(spec, context({"PATH=/usr/bin:/bin", "LANG=C", "HOME=/home/me"}, "/"));
        QCOMPARE(qs(review.resolved_program), path("bin/python"));
        QCOMPARE(qs(review.link_target), path("bin/python3"));
        QVERIFY(review.found_through_file_path);
        QVERIFY(review.working_directory_exists);
        QCOMPARE(review.hijacking_variables(), (std::vector<std::string>{"PATH", "LD_PRELOAD"}));
        const std::string text = review.text();
        const std::string bin = path("bin").toStdString();
        const std::vector<std::string> expected = {
            "Program      python → " + bin + "/python (a link to " + bin + "/python3) (found through the PATH the file sets)",
            "Arguments    1. evaluate.py",
            "             2. 'two words'",
            "             3. $'line\\nbreak'",
            "Folder       " + bin + " (exists)",
            "Timeout      600 s per evaluation",
            "Concurrency  up to 3 evaluations at once",
            "Environment  PATH: /usr/bin:/bin → " + bin + "   [refused unless allowed]",
            "             OMP_NUM_THREADS=1 (added)",
            "             LANG=C (as inherited)",
            "             LD_PRELOAD=/tmp/hook.so (added)   [refused unless allowed]",
        };
        for (const std::string& line : expected) QVERIFY2(contains_line(text, line), (line + "\nin:\n" + text).c_str());
        QCOMPARE(std::count(text.begin(), text.end(), '\n'), static_cast<long>(expected.size() - 1));

        // Nothing found, no folder, nothing added.
        EvaluatorSpec missing = command({"./absent"});
        missing.working_directory = path("no-such-folder").toStdString();
        const std::string missing_text = review_command(missing, context({}, "/")).text();
        QVERIFY2(missing_text.find("Program      ./absent → not found: ") != std::string::npos, missing_text.c_str());
        QVERIFY2(contains_line(missing_text, "Arguments    none"), missing_text.c_str());
        QVERIFY2(contains_line(missing_text, "Folder       " + path("no-such-folder").toStdString() +
                                                 " (does not exist: every evaluation would fail)"),
                 missing_text.c_str());
        QVERIFY2(contains_line(missing_text, "Concurrency  1 evaluation at a time"), missing_text.c_str());
        QVERIFY2(contains_line(missing_text, "Environment  inherited, nothing added or changed"), missing_text.c_str());

        // No folder named: the process's folder, and the review says where it comes from.
        const CommandReview unnamed = review_command(command({"./absent"}), context({}, path("bin").toStdString()));
        QVERIFY(!unnamed.working_directory_named);
        QVERIFY2(contains_line(unnamed.text(), "Folder       " + bin +
                                                   " (exists) — the folder sebo was started in: the file names none"),
                 unnamed.text().c_str());
    }

    // One variable of each class of hook is refused, naming it; ordinary ones are not.
    void hijacking_variables_are_named_and_refused() {
        const std::vector<std::string> hijacking = {
            "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "GLIBC_TUNABLES", "GCONV_PATH",
            "LOCPATH", "NLSPATH", "PATH", "BASH_ENV", "ENV", "BASH_FUNC_python3%%", "SHELLOPTS", "BASHOPTS", "PS4",
            "IFS", "ZDOTDIR", "HOME", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONSTARTUP_MARK", "PYTHONHOME", "PERL5LIB",
            "PERL5OPT", "PERLLIB", "RUBYOPT", "RUBYLIB", "GEM_PATH", "GEM_HOME", "NODE_OPTIONS", "NODE_PATH",
            "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH", "R_PROFILE_USER", "R_ENVIRON_USER",
            "R_LIBS_USER", "JULIA_LOAD_PATH", "JULIA_DEPOT_PATH", "LUA_INIT_5_4", "LUA_PATH", "LUA_CPATH_5_4",
            "TCLLIBPATH", "MATLABPATH", "OPENSSL_CONF", "OPENSSL_ENGINES", "OPENSSL_MODULES", "QT_PLUGIN_PATH",
            "QT_QPA_PLATFORM_PLUGIN_PATH", "GTK_MODULES", "GTK_PATH", "GIO_EXTRA_MODULES",
            // Issue 33, item 3: hooks of libraries and tools that evaluation scripts use.
            "OMP_TOOL_LIBRARIES", "CUDA_INJECTION64_PATH", "CUDA_INJECTION32_PATH", "MPLBACKEND", "MPLCONFIGDIR",
            "GIT_SSH_COMMAND", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_GLOBAL", "GIT_EXEC_PATH", "XDG_CONFIG_HOME",
            "npm_config_script_shell", "NPM_CONFIG_USERCONFIG", "Npm_Config_node_options", "BUNDLE_GEMFILE",
            "BUNDLE_APP_CONFIG", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "RUSTC", "RUSTFLAGS",
            "CARGO_BUILD_RUSTC_WRAPPER", "CARGO_HOME", "GOFLAGS", "GOENV"};
        for (const std::string& name : hijacking) QVERIFY2(hijack_reason(name).has_value(), name.c_str());
        // Every rule is exercised by some name above.
        for (const HijackingVariableRule& rule : hijacking_variable_rules())
            QVERIFY2(std::any_of(hijacking.begin(), hijacking.end(), [&](const std::string& n) { return rule_covers(rule, n); }),
                     std::string(rule.pattern).c_str());
        // Near misses of the families, and the everyday settings of the same tools, run unasked.
        for (const std::string name : {"OMP_NUM_THREADS", "CUDA_VISIBLE_DEVICES", "LANG", "path", "PATHS", "MYPATH",
                                       "LD", "ENVIRONMENT", "NODE_ENV", "MY_PYTHONPATH", "TMPDIR", "OMP_TOOL",
                                       "CUDA_DEVICE_ORDER", "MPLBACKEND_X", "GIT", "GITHUB_TOKEN", "XDG_RUNTIME_DIR",
                                       "npm_package_name", "NPM_TOKEN", "npm_config", "BUNDLER_VERSION", "RUST_LOG",
                                       "RUST_BACKTRACE", "CARGO", "GOMAXPROCS", "GOGC", "GOFLAGS_X"})
            QVERIFY2(!hijack_reason(name).has_value(), name.c_str());
        // The reason names the program that reads the variable.
        QVERIFY(hijack_reason("NPM_CONFIG_SCRIPT_SHELL")->rfind("npm takes its configuration", 0) == 0);
        QVERIFY(hijack_reason("GIT_SSH_COMMAND")->find("GIT_SSH_COMMAND") != std::string::npos);
        QVERIFY(hijack_reason("MPLBACKEND")->find("module://") != std::string::npos);
        QVERIFY(hijack_reason("GOFLAGS")->find("-toolexec") != std::string::npos);

        EvaluatorSpec spec = command({"/bin/sh", "-c", "true"});
        spec.environment = {{"OMP_NUM_THREADS", "1"}, {"LD_PRELOAD", "/tmp/hook.so"}, {"PYTHONSTARTUP_MARK", "x"}};
        const CommandReview review = review_command(spec);
        std::vector<std::string> refusals = hijacking_refusals(review, {});
        QCOMPARE(refusals.size(), std::size_t{2});
        QVERIFY2(refusals[0].rfind("evaluator.environment.LD_PRELOAD is refused: the dynamic loader", 0) == 0,
                 refusals[0].c_str());
        QVERIFY2(refusals[1].rfind("evaluator.environment.PYTHONSTARTUP_MARK is refused: Python", 0) == 0,
                 refusals[1].c_str());
        refusals = hijacking_refusals(review, {"LD_PRELOAD"});
        QCOMPARE(refusals.size(), std::size_t{1});
        QVERIFY(refusals[0].find("PYTHONSTARTUP_MARK") != std::string::npos);
        QVERIFY(hijacking_refusals(review, {"LD_PRELOAD", "PYTHONSTARTUP_MARK"}).empty());
    }

    // Equal fingerprints mean the same thing runs: each shown item changes it; the order of the
    // variables in the file and the inherited values do not.
    void the_fingerprint_covers_everything_shown() {
        write_program(path("one/tool"), 1);
        write_program(path("two/tool"), 2);
        EvaluatorSpec base = command({"tool", "a"});
        base.working_directory = path("one").toStdString();
        base.environment = {{"PATH", path("one").toStdString() + ":" + path("two").toStdString()}, {"X", "1"}};
        const LaunchContext here = context({"X=0"}, "/");
        const std::string print = review_command(base, here).fingerprint;

        std::vector<EvaluatorSpec> changed(9, base);
        changed[0].command = {"tool", "b"};
        changed[1].command = {"tool", "a", ""};
        changed[2].working_directory = path("two").toStdString();
        changed[3].environment[1].second = "2";
        changed[4].environment.push_back({"Y", "1"});
        changed[5].environment.pop_back();
        changed[6].timeout_seconds = 31;
        changed[7].max_concurrency = 2;
        // The same text in the file, another program: PATH's folders swapped.
        changed[8].environment[0].second = path("two").toStdString() + ":" + path("one").toStdString();
        for (std::size_t i = 0; i < changed.size(); ++i)
            QVERIFY2(review_command(changed[i], here).fingerprint != print, std::to_string(i).c_str());

        EvaluatorSpec reordered = base;
        std::reverse(reordered.environment.begin(), reordered.environment.end());
        QCOMPARE(qs(review_command(reordered, here).fingerprint), qs(print));
        QCOMPARE(qs(review_command(base, context({"X=5", "HOME=/x"}, "/")).fingerprint), qs(print));
        // Bytes that a lossy encoding would merge stay apart.
        EvaluatorSpec a = base, b = base;
        a.command = {"tool", "\xFF"};
        b.command = {"tool", "\xFE"};
        QVERIFY(review_command(a, here).fingerprint != review_command(b, here).fingerprint);
    }

    // README's evaluator section names every refused variable (or family).
    void the_readme_lists_every_refused_variable() {
        QFile readme(QString::fromStdString(test::source_path("README.md")));
        QVERIFY(readme.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(readme.readAll());
        for (const HijackingVariableRule& rule : hijacking_variable_rules()) {
            const QString shown = QString::fromUtf8(rule.pattern.data(), static_cast<int>(rule.pattern.size())) +
                                  (rule.match == NameMatch::Exact ? "" : "*");
            QVERIFY2(text.contains("`" + shown + "`"), qPrintable(shown));
        }
    }
};

SEBO_TEST_MAIN(TestCommandReview)
}  // namespace test_command_review
#include "test_command_review.moc"
