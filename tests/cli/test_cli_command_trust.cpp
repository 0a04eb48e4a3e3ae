// `sebo run FILE` with a file whose evaluator runs a command, driven as a real child process:
// without --evaluator command it shows everything that would run and stops; with it, a variable
// of the file's environment that can hijack the program (one of every class: loader, PATH,
// shells, interpreters, plugin loaders) stops it with exit 2, naming the variable, until that
// variable is allowed by name with --allow-env.
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "cli/cli_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_cli_command_trust {

namespace {

using sebo::test::read_bytes;
using sebo::test::read_json;
using sebo::test::run_sebo;
using sebo::test::write_bytes;
using Result = sebo::test::CliResult;

QString fixture(const QString& name) {
    return QString::fromStdString(sebo::test::source_path("tests/fixtures/evaluators/" + name.toStdString()));
}

int trial_count(const QString& path) { return read_json(path)["trials"].toArray().size(); }

}  // namespace

class TestCliCommandTrust : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString path(const QString& name) const { return QDir(dir.path()).filePath(name); }

    // A command experiment made by `sebo new` (the record_input.sh fixture, run in a folder of
    // its own), with `environment` set in its evaluator section as a file from elsewhere would.
    QString make_experiment(const QString& name, const QJsonObject& environment, const QStringList& command = {}) {
        write_bytes(path("space.csv"), "name,lower,upper\nx,0,1\ny,0,1\n");
        QDir().mkpath(path("work"));
        const QString file = path(name);
        QStringList args = {"new", "--space", path("space.csv"), "--objective", "score", "--strategy", "sobol",
                            "--trials", "20", "--timeout", "60", "--workdir", path("work"), "--out", file,
                            "--force", "--quiet", "--command"};
        args << (command.isEmpty() ? QStringList{"/bin/sh", fixture("record_input.sh")} : command);
        const Result made = run_sebo(args);
        if (made.code != 0) qWarning("%s", qPrintable(made.err));
        QJsonObject e = read_json(file);
        QJsonObject evaluator = e["evaluator"].toObject();
        evaluator["environment"] = environment;
        e["evaluator"] = evaluator;
        write_bytes(file, QJsonDocument(e).toJson());
        return file;
    }

private slots:
    void initTestCase() { QVERIFY(dir.isValid()); }

    // Without --evaluator command: the program resolved to its path, every argument, the folder,
    // timeout, concurrency and each variable on its own line; nothing runs.
    void the_message_shows_everything_that_would_run() {
        const QString file = make_experiment("plain.sebo.json", {{"OMP_NUM_THREADS", "1"}},
                                             {"sh", fixture("record_input.sh"), "two words"});
        const QByteArray before = read_bytes(file);
        const Result shown = run_sebo({"run", file, "--trials", "1"});
        SEBO_EXPECT(shown, 2, file + " evaluates every trial by running this program (directly, never through a shell):\n");
        QVERIFY2(shown.err.contains(QRegularExpression("\n  Program      sh → (/usr)?/bin/sh( \\(a link to [^)]+\\))?\n")), qPrintable(shown.err));
        QVERIFY2(shown.err.contains("\n  Arguments    1. " + fixture("record_input.sh") + "\n               2. 'two words'\n"),
                 qPrintable(shown.err));
        QVERIFY2(shown.err.contains("\n  Folder       " + QDir(path("work")).canonicalPath() + " (exists)\n"), qPrintable(shown.err));
        QVERIFY2(shown.err.contains("\n  Timeout      60 s per evaluation\n"), qPrintable(shown.err));
        QVERIFY2(shown.err.contains("\n  Concurrency  1 evaluation at a time\n"), qPrintable(shown.err));
        QVERIFY2(shown.err.contains("\n  Environment  OMP_NUM_THREADS=1 (added)\n"), qPrintable(shown.err));
        QVERIFY2(shown.err.contains("It runs only if you ask for it: add --evaluator command\n"), qPrintable(shown.err));
        QCOMPARE(read_bytes(file), before);
        // Not a hook: with --evaluator command it runs.
        const Result ran = run_sebo({"run", file, "--trials", "1", "--evaluator", "command", "--quiet"});
        QVERIFY2(ran.code == 0, qPrintable(ran.err));
        QCOMPARE(trial_count(file), 1);
    }

    // The confirmation for a file with a PATH override and an LD_PRELOAD names both, with the
    // PATH it replaces, and says how to allow them.
    void path_override_and_preload_are_shown_and_refused() {
        const QString bin = path("bin");
        QDir().mkpath(bin);
        const QString file = make_experiment("hooked.sebo.json",
                                             {{"PATH", bin + ":/usr/bin:/bin"}, {"LD_PRELOAD", path("hook.so")}});
        const QByteArray before = read_bytes(file);
        const Result shown = run_sebo({"run", file, "--trials", "1"});
        // The variables in the order the file has them (JSON objects are read sorted by name).
        SEBO_EXPECT(shown, 2, "\n  Environment  LD_PRELOAD=" + path("hook.so") + " (added)   [refused unless allowed]\n");
        QVERIFY2(shown.err.contains(QRegularExpression("\n               PATH: .* → " + QRegularExpression::escape(bin) +
                                                       ":/usr/bin:/bin   \\[refused unless allowed\\]\n")),
                 qPrintable(shown.err));
        QVERIFY2(shown.err.contains("evaluator.environment.PATH is refused: it decides which file a program name runs"),
                 qPrintable(shown.err));
        QVERIFY2(shown.err.contains("evaluator.environment.LD_PRELOAD is refused: the dynamic loader"), qPrintable(shown.err));
        QVERIFY2(shown.err.contains("If you trust all of it: --allow-env LD_PRELOAD --allow-env PATH --evaluator command") ||
                     shown.err.contains("If you trust all of it: --allow-env PATH --allow-env LD_PRELOAD --evaluator command"),
                 qPrintable(shown.err));

        const Result refused = run_sebo({"run", file, "--trials", "1", "--evaluator", "command", "--allow-env", "PATH"});
        SEBO_EXPECT(refused, 2, "evaluator.environment.LD_PRELOAD is refused");
        QVERIFY2(!refused.err.contains("evaluator.environment.PATH is refused"), qPrintable(refused.err));
        QVERIFY2(refused.err.contains("If you trust it, allow each variable by name: --allow-env LD_PRELOAD"),
                 qPrintable(refused.err));
        QCOMPARE(read_bytes(file), before);
    }

    // One variable of every class of hook: refused by default (exit 2, named), run when allowed.
    void each_class_of_hijacking_variable_is_refused_until_allowed() {
        const QList<QPair<QString, QString>> variables = {
            {"LD_PRELOAD", ""},                     // the dynamic loader
            {"DYLD_INSERT_LIBRARIES", "x.dylib"},   // the macOS loader
            {"GCONV_PATH", "/nonexistent"},         // the C library's modules
            {"LOCPATH", "/nonexistent"},
            {"PATH", "/usr/bin:/bin"},              // which program a name runs
            {"BASH_ENV", "/nonexistent"},           // shells
            {"ENV", "/nonexistent"},
            {"IFS", " "},
            {"SHELLOPTS", "braceexpand"},
            {"BASH_FUNC_cat%%", "() { :; }"},
            {"HOME", "/nonexistent"},
            {"PYTHONPATH", "/nonexistent"},         // interpreters
            {"PYTHONSTARTUP_MARK", "1"},
            {"PERL5OPT", "-w"},
            {"PERLLIB", "/nonexistent"},
            {"RUBYOPT", "-w"},
            {"NODE_OPTIONS", "--no-warnings"},
            {"JAVA_TOOL_OPTIONS", "-Xss1m"},
            {"R_PROFILE_USER", "/nonexistent"},
            {"OPENSSL_CONF", "/nonexistent"},      // libraries that load plugins
        };
        for (const auto& [name, value] : variables) {
            const QString file = make_experiment("hook.sebo.json", {{name, value}, {"SEBO_TEST_VAR", "seen"}});
            const Result refused = run_sebo({"run", file, "--trials", "1", "--evaluator", "command"});
            SEBO_EXPECT(refused, 2, "evaluator.environment." + name + " is refused: ");
            QCOMPARE(trial_count(file), 0);
            const Result ran = run_sebo({"run", file, "--trials", "1", "--evaluator", "command", "--allow-env", name, "--quiet"});
            QVERIFY2(ran.code == 0, qPrintable(name + ": " + ran.err));
            const QJsonObject trial = read_json(file)["trials"].toArray()[0].toObject();
            QVERIFY2(trial["status"].toString() == "completed", qPrintable(name + ": " + trial["error"].toString()));
            QCOMPARE(read_bytes(path("work/received-env")), QByteArray("seen"));
        }
    }

    void allow_env_is_checked() {
        const QString file = make_experiment("allow.sebo.json", {{"LD_PRELOAD", ""}, {"OMP_NUM_THREADS", "2"}});
        SEBO_EXPECT(run_sebo({"run", file, "--trials", "1", "--evaluator", "command", "--allow-env", "LD_PRELAOD"}), 2,
                    "--allow-env: LD_PRELAOD is not a variable of the evaluator environment of " + file +
                        " (it sets LD_PRELOAD, OMP_NUM_THREADS)");
        // Repeatable; a variable that is not a hook may be named too.
        const Result ran = run_sebo({"run", file, "--trials", "1", "--evaluator", "command", "--allow-env", "LD_PRELOAD",
                                     "--allow-env", "OMP_NUM_THREADS", "--quiet"});
        QVERIFY2(ran.code == 0, qPrintable(ran.err));
        // Only for files that run a command.
        QCOMPARE(run_sebo({"run", "--problem", "branin", "--dim", "4", "--trials", "1", "--out", path("p.sebo.json"),
                           "--quiet"})
                     .code,
                 0);
        SEBO_EXPECT(run_sebo({"run", path("p.sebo.json"), "--trials", "2", "--allow-env", "PATH"}), 2,
                    "--allow-env: " + path("p.sebo.json") + " does not evaluate trials by running a command");
        QCOMPARE(trial_count(path("p.sebo.json")), 1);
    }
};

SEBO_TEST_MAIN(TestCliCommandTrust)
}  // namespace test_cli_command_trust
#include "test_cli_command_trust.moc"
