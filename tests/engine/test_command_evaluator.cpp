// The external-command evaluator with real child processes (the /bin/sh fixtures in
// tests/fixtures/evaluators): the JSON protocol both ways, every way a program can fail (exit
// status, signal, garbage, NaN, timeout with a grandchild, cancellation), concurrency of a batch,
// no deadlock on large streams, and that no character of a name, value or argument ever reaches
// a shell.
//
// Behaviour, not speed (SPEC §8): the clock only shows that nothing happened too EARLY (a
// timeout, a kill grace), which a loaded machine cannot make fail; every upper limit is a hang
// guard (kHangGuardSeconds) far below the fixtures' `sleep 100`, so it tells "stopped" from
// "ran to its end" without timing how fast. How late the stops come is measured by
// `sebo-latency` (docs/performance.md).

#include <signal.h>
#include <unistd.h>

#include <QFile>
#include <QTemporaryDir>
#include <atomic>
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/input_error.h"
#include "evaluators/command_evaluator.h"
#include "experiment/runner.h"
#include "experiment/sobol_strategy.h"
#include "io/experiment_file.h"
#include "test_main.h"
#include "test_support.h"

namespace test_command_evaluator {

using namespace sebo;
using Clock = std::chrono::steady_clock;

namespace {

// Bounds a wait that must end; the programs the tests stop would run for 100 s.
constexpr double kHangGuardSeconds = 60.0;

std::string fixture(const std::string& name) { return test::source_path("tests/fixtures/evaluators/" + name); }

Parameter make_parameter(std::string name, double lo, double hi, ParameterKind kind = ParameterKind::Continuous) {
    Parameter p;
    p.name = std::move(name);
    p.lower = lo;
    p.upper = hi;
    p.kind = kind;
    return p;
}

SearchSpace small_space() {
    return SearchSpace({make_parameter("x", 0.0, 1.0), make_parameter("n", 0.0, 10.0, ParameterKind::Integer),
                        make_parameter("rate", 1e-4, 1.0)});
}

Trial make_trial(int index, std::vector<double> values) {
    Trial t;
    t.index = index;
    t.parameters = std::move(values);
    return t;
}

EvaluatorSpec command(std::vector<std::string> argv, double timeout = 30.0) {
    EvaluatorSpec spec;
    spec.kind = EvaluatorSpec::Kind::Command;
    spec.command = std::move(argv);
    spec.timeout_seconds = timeout;
    return spec;
}

// `sh -c SCRIPT`: the test's own choice of argv (a program with its arguments), as a user
// might configure it.
EvaluatorSpec inline_script(const std::string& script, double timeout = 30.0) {
    return command({"/bin/sh", "-c", script}, timeout);
}

EvaluationOutcome run_one(const EvaluatorSpec& spec, const Trial& trial, const SearchSpace& space = small_space(),
                          CommandEvaluatorOptions options = {}) {
    CommandEvaluator evaluator(spec, space, {"objective"}, options);
    return evaluator.evaluate(trial, StepControl{});
}

std::string read_file(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// A process is gone when it no longer exists or is a zombie nobody has reaped yet (its parent,
// the evaluator's shell, is dead; reaping is up to init).
bool process_gone(pid_t pid) {
    const std::string stat = read_file(QString("/proc/%1/stat").arg(pid));
    if (stat.empty()) return true;
    const auto close = stat.rfind(')');
    return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] == 'Z';
}

// Polls until `done()` holds or the hang guard runs out; returns whether it holds.
template <typename Condition>
bool wait_until(Condition done) {
    const auto until = Clock::now() + std::chrono::duration<double>(kHangGuardSeconds);
    while (Clock::now() < until) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return done();
}

bool wait_until_gone(pid_t pid) {
    return wait_until([pid] { return process_gone(pid); });
}

// The pid a fixture wrote to `path` once it has written it (0 when it never did).
pid_t wait_for_pid(const QString& path) {
    pid_t pid = 0;
    wait_until([&] {
        pid = static_cast<pid_t>(QString::fromStdString(read_file(path)).trimmed().toInt());
        return pid > 0;
    });
    return pid;
}

double elapsed(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

QString qs(const std::string& s) { return QString::fromStdString(s); }

const std::vector<std::string> kOneMetric = {"objective"};

}  // namespace

class TestCommandEvaluator : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

private slots:
    void input_document_uses_names_and_integers() {
        const std::string text = command_input_json(small_space(), make_trial(7, {0.25, 3.0, 1e-3}));
        QCOMPARE(qs(text), QString("{\"trial\":7,\"parameters\":{\"x\":0.25,\"n\":3,\"rate\":0.001}}\n"));
        const auto j = nlohmann::json::parse(text);
        QVERIFY(j["parameters"]["n"].is_number_integer());
        QVERIFY(j["parameters"]["x"].is_number_float());
    }

    void output_protocol() {
        EvaluationOutcome o = parse_command_output("{\"objective\": 1.5}", kOneMetric);
        QVERIFY(o.ok);
        QCOMPARE(o.values.at("objective").mean, 1.5);
        QVERIFY(!o.values.at("objective").sem);
        o = parse_command_output("\n  {\"objective\": -2e-3, \"sem\": 0.1, \"metadata\": {\"gpu\": \"A100\", \"n\": 2}}\n\n", kOneMetric);
        QVERIFY(o.ok);
        QCOMPARE(o.values.at("objective").mean, -2e-3);
        QCOMPARE(*o.values.at("objective").sem, 0.1);
        QCOMPARE(nlohmann::json::parse(o.metadata)["gpu"].get<std::string>(), std::string("A100"));
        QVERIFY(parse_command_output("{\"objective\": 0, \"sem\": null, \"extra\": [1]}", kOneMetric).ok);

        struct Case {
            const char* output;
            const char* fragment;
        };
        const Case bad[] = {
            {"", "wrote nothing"},
            {"  \n", "wrote nothing"},
            {"garbage", "not one JSON object"},
            {"loss=0.3\n{\"objective\": 0.3}", "write log messages to stderr"},
            {"{\"objective\": 1}{\"objective\": 2}", "not one JSON object"},
            {"{\"objective\": NaN}", "NaN and Infinity are not finite"},
            {"{\"objective\": Infinity}", "NaN and Infinity are not finite"},
            {"{\"objective\": -Infinity}", "NaN and Infinity are not finite"},
            {"{\"objective\": 1e400}", "not a finite number"},
            {"{\"objective\": \"Infinity\"}", "\"objective\" is the string \"Infinity\", not a number"},
            {"{\"objective\": true}", "\"objective\" is true, not a number"},
            {"{\"objective\": null}", "\"objective\" is null, not a number"},
            {"{\"value\": 1}", "stdout has no \"metrics\""},
            {"[1, 2]", "stdout is an array, not a JSON object"},
            {"3.5", "stdout is 3.5, not a JSON object"},
            {"{\"objective\": 1, \"sem\": -0.5}", "\"sem\" is -0.5, not a finite number >= 0"},
            {"{\"objective\": 1, \"sem\": \"small\"}", "\"sem\" is the string \"small\""},
            {"{\"objective\": 1, \"metadata\": 3}", "\"metadata\" is 3, not an object"},
        };
        for (const Case& c : bad) {
            const EvaluationOutcome r = parse_command_output(c.output, kOneMetric);
            QVERIFY2(!r.ok, c.output);
            QVERIFY2(r.error.find(c.fragment) != std::string::npos, qPrintable(qs(std::string(c.output) + " -> " + r.error)));
        }
    }

    // Several metrics: {"metrics": {NAME: v or {"mean": v, "sem": s}}}; the short form names the
    // only metric of a one-metric experiment and nothing else. Which metrics were reported is
    // the runner's check (test_runner), not the parser's.
    void output_protocol_with_several_metrics() {
        const std::vector<std::string> metrics = {"throughput", "p99_ms"};
        EvaluationOutcome o = parse_command_output(
            R"({"metrics": {"throughput": 1234.5, "p99_ms": {"mean": 41.2, "sem": 0.8}}, "metadata": {"host": "a"}})", metrics);
        QVERIFY2(o.ok, o.error.c_str());
        QCOMPARE(o.values.size(), std::size_t{2});
        QCOMPARE(o.values.at("throughput"), (Measurement{1234.5, std::nullopt}));
        QCOMPARE(o.values.at("p99_ms"), (Measurement{41.2, 0.8}));
        QCOMPARE(qs(o.metadata), QString(R"({"host":"a"})"));
        // The long form works for one metric too; a null sem is no sem.
        o = parse_command_output(R"({"metrics": {"objective": {"mean": 2, "sem": null}}})", kOneMetric);
        QVERIFY(o.ok);
        QCOMPARE(o.values.at("objective"), (Measurement{2.0, std::nullopt}));
        // Parsed as reported: an unknown name or a missing metric is left to the runner.
        o = parse_command_output(R"({"metrics": {"latency": 1}})", metrics);
        QVERIFY(o.ok);
        QCOMPARE(o.values.count("latency"), std::size_t{1});

        struct Case {
            const char* output;
            const char* fragment;
        };
        const Case bad[] = {
            {R"({"objective": 1})", "\"objective\", the short form for an experiment with one metric; this one has 2 "
                                   "(\"throughput\", \"p99_ms\"): print {\"metrics\": {\"throughput\": 1.5, \"p99_ms\": 1.5}}"},
            {R"({"metrics": {"throughput": 1}, "objective": 1})", "both \"metrics\" and \"objective\""},
            {R"({"metrics": {"throughput": 1}, "sem": 1})", "a top-level \"sem\""},
            {R"({"metrics": 3})", "\"metrics\" is 3, not an object"},
            {R"({"metrics": {"p99_ms": "x"}})", "metric \"p99_ms\" is the string \"x\", not a number"},
            {R"({"metrics": {"p99_ms": null}})", "metric \"p99_ms\" is null, not a number"},
            {R"({"metrics": {"p99_ms": {"sem": 1}}})", "metric \"p99_ms\" has no \"mean\""},
            {R"({"metrics": {"p99_ms": {"mean": 1, "sem": -1}}})", "the \"sem\" of metric \"p99_ms\" is -1"},
            {R"({"metrics": {"p99_ms": 1e999}})", "a value is not a finite number"},
            {R"({"throughput": 1})", "stdout has no \"metrics\" (expected a JSON object such as {\"metrics\""},
            {"", "wrote nothing to stdout (expected one JSON object such as {\"metrics\""},
        };
        for (const Case& c : bad) {
            const EvaluationOutcome r = parse_command_output(c.output, metrics);
            QVERIFY2(!r.ok, c.output);
            QVERIFY2(r.error.find(c.fragment) != std::string::npos, qPrintable(qs(std::string(c.output) + " -> " + r.error)));
        }
    }

    void normal_evaluation_reports_the_objective_of_the_parameters() {
        // sum_parameters.sh (awk) adds the values it reads from stdin: an independent reference.
        const std::vector<double> values = {0.1 + 0.2, 7.0, 0.0123456789};
        const EvaluationOutcome o = run_one(command({"/bin/sh", fixture("sum_parameters.sh")}), make_trial(4, values));
        QVERIFY2(o.ok, o.error.c_str());
        SEBO_COMPARE_NEAR(o.values.at("objective").mean, values[0] + values[1] + values[2], 1e-12);
        QCOMPARE(*o.values.at("objective").sem, 0.25);
        QVERIFY(o.seconds > 0.0);
        QVERIFY(o.seconds < kHangGuardSeconds);  // seconds, measured
    }

    void receives_exact_input_arguments_environment_and_directory() {
        QTemporaryDir work;
        EvaluatorSpec spec = command({"/bin/sh", fixture("record_input.sh"), "plain", "two words", ""});
        spec.working_directory = work.path().toStdString();
        spec.environment = {{"SEBO_TEST_VAR", "value with spaces"}, {"HOME", "/nonexistent-home"}};
        const EvaluationOutcome o = run_one(spec, make_trial(2, {0.5, 4.0, 0.01}));
        QVERIFY2(o.ok, o.error.c_str());
        QCOMPARE(qs(o.metadata), QString("{\"note\":\"recorded\"}"));
        QCOMPARE(qs(read_file(work.filePath("received-stdin"))),
                 qs(command_input_json(small_space(), make_trial(2, {0.5, 4.0, 0.01}))));
        QCOMPARE(qs(read_file(work.filePath("received-argv"))), QString::fromStdString(std::string("plain\0two words\0\0", 17)));
        QCOMPARE(qs(read_file(work.filePath("received-env"))), QString("value with spaces"));
        QCOMPARE(qs(read_file(work.filePath("received-pwd"))).trimmed(), QDir(work.path()).canonicalPath());
    }

    void shell_metacharacters_are_never_interpreted() {
        QTemporaryDir work;
        const std::vector<std::string> hostile = {"; touch pwned", "$(touch pwned)", "`touch pwned`", "' \"; touch pwned; '",
                                                  "&& touch pwned", "| touch pwned", "a\nb > pwned"};
        std::vector<Parameter> parameters;
        for (std::size_t i = 0; i < hostile.size(); ++i) parameters.push_back(make_parameter(hostile[i], 0.0, 1.0));
        const SearchSpace space(parameters);
        QVERIFY(!space.validate());
        std::vector<std::string> argv = {"/bin/sh", fixture("record_input.sh")};
        argv.insert(argv.end(), hostile.begin(), hostile.end());
        EvaluatorSpec spec = command(argv);
        spec.working_directory = work.path().toStdString();
        spec.environment = {{"SEBO_TEST_VAR", "$(touch pwned); `touch pwned`"}};
        const Trial trial = make_trial(0, std::vector<double>(hostile.size(), 0.5));
        const EvaluationOutcome o = run_one(spec, trial, space);
        QVERIFY2(o.ok, o.error.c_str());
        QVERIFY(!QFile::exists(work.filePath("pwned")));
        QVERIFY(!QFile::exists("pwned"));

        // The program got the exact strings: the names in its JSON, the arguments one by one.
        const auto received = nlohmann::ordered_json::parse(read_file(work.filePath("received-stdin")));
        std::vector<std::string> names;
        for (const auto& item : received["parameters"].items()) names.push_back(item.key());
        QVERIFY(names == hostile);
        std::string expected_argv;
        for (const std::string& a : hostile) expected_argv += a + std::string(1, '\0');
        QVERIFY(read_file(work.filePath("received-argv")) == expected_argv);
        QCOMPARE(qs(read_file(work.filePath("received-env"))), QString("$(touch pwned); `touch pwned`"));
    }

    void failures_carry_the_reason_and_the_end_of_stderr() {
        const Trial trial = make_trial(0, {0.5, 1.0, 0.5});
        EvaluationOutcome o = run_one(inline_script("echo 'cannot open device' >&2; exit 3"), trial);
        QVERIFY(!o.ok);
        QCOMPARE(qs(o.error), QString("the command exited with status 3; stderr: cannot open device"));

        o = run_one(inline_script("kill -KILL $$"), trial);
        QVERIFY(!o.ok);
        QVERIFY2(o.error.find("killed by signal 9") != std::string::npos, o.error.c_str());

        o = run_one(inline_script("echo 'this is not json'"), trial);
        QVERIFY(!o.ok);
        QVERIFY2(o.error.find("not one JSON object") != std::string::npos, o.error.c_str());
        QVERIFY2(o.error.find("this is not json") != std::string::npos, o.error.c_str());

        o = run_one(inline_script("echo '{\"objective\": NaN}'; echo 'diverged' >&2"), trial);
        QVERIFY(!o.ok);
        QVERIFY2(o.error.find("NaN") != std::string::npos && o.error.find("stderr: diverged") != std::string::npos,
                 o.error.c_str());

        o = run_one(inline_script("echo '{\"objective\": \"Infinity\"}'"), trial);
        QVERIFY(!o.ok);
        QVERIFY2(o.error.find("not a number") != std::string::npos, o.error.c_str());

        o = run_one(inline_script("echo '{\"loss\": 1}'"), trial);
        QVERIFY(!o.ok);
        QVERIFY2(o.error.find("no \"metrics\"") != std::string::npos, o.error.c_str());

        o = run_one(command({"/nonexistent/evaluator", "--flag"}), trial);
        QVERIFY(!o.ok);
        QVERIFY2(o.error.find("cannot run '/nonexistent/evaluator'") != std::string::npos, o.error.c_str());

        EvaluatorSpec missing_dir = inline_script("true");
        missing_dir.working_directory = dir.filePath("no-such-folder").toStdString();
        o = run_one(missing_dir, trial);
        QVERIFY(!o.ok);
        QVERIFY2(o.error.find("working directory") != std::string::npos, o.error.c_str());

        // Only the end of a long stderr is quoted, starting at a character boundary.
        o = run_one(inline_script("i=0; while [ $i -lt 600 ]; do echo \"line $i é\"; i=$((i+1)); done >&2; exit 1"), trial);
        QVERIFY(!o.ok);
        QVERIFY(o.error.find("line 599 é") != std::string::npos);
        QVERIFY(o.error.find("line 0 ") == std::string::npos);
        QVERIFY(o.error.size() < 2048 + 100);
        QVERIFY(QString::fromUtf8(o.error.c_str()).toUtf8().toStdString() == o.error);  // valid UTF-8
    }

    // Each line of stderr reaches the sink while the program still runs: the program waits for
    // a file that only the sink creates when it has received the first line.
    void stderr_lines_stream_to_the_sink_as_they_arrive() {
        const QString go = dir.filePath("go-on");
        const std::string script = "printf 'loading data\\n' >&2; printf 'epoch 1: 50%%\\repoch 1: 100%%\\n' >&2; "
                                   "while [ ! -e '" + go.toStdString() + "' ]; do sleep 0.01; done; "
                                   "printf 'done, no newline' >&2; echo '{\"objective\": 2}'";
        std::vector<std::pair<int, std::string>> lines;
        CommandEvaluatorOptions options;
        options.stderr_line = [&](int trial, std::string_view line) {
            lines.emplace_back(trial, std::string(line));
            if (line == "loading data") QFile(go).open(QIODevice::WriteOnly);
        };
        const EvaluationOutcome o = run_one(inline_script(script, 60.0), make_trial(11, {0.5, 1.0, 0.5}), small_space(), options);
        QVERIFY2(o.ok, o.error.c_str());
        QCOMPARE(o.values.at("objective").mean, 2.0);
        const std::vector<std::pair<int, std::string>> expected = {
            {11, "loading data"}, {11, "epoch 1: 100%"}, {11, "done, no newline"}};
        QCOMPARE(lines, expected);

        // A failure still quotes the end of stderr; the sink saw all of it.
        lines.clear();
        const EvaluationOutcome failed =
            run_one(inline_script("echo 'out of memory' >&2; exit 4"), make_trial(12, {0.5, 1.0, 0.5}), small_space(), options);
        QVERIFY(!failed.ok);
        QCOMPARE(qs(failed.error), QString("the command exited with status 4; stderr: out of memory"));
        QCOMPARE(lines, (std::vector<std::pair<int, std::string>>{{12, "out of memory"}}));
    }

    // A program that outlives its timeout is stopped with its whole process group: by SIGTERM,
    // or, when it ignores SIGTERM, by SIGKILL once the grace has passed (never before).
    void timeout_stops_the_whole_process_group() {
        for (const char* mode : {"default", "ignore-term"}) {
            const bool term_ignored = QString(mode) == "ignore-term";
            const QString pid_file = dir.filePath(QString("grandchild-%1.pid").arg(mode));
            CommandEvaluatorOptions options;
            // SIGTERM alone must stop the default program: with a grace beyond the hang guard, a
            // SIGKILL would come too late to pass.
            options.kill_grace_seconds = term_ignored ? 1.0 : 10 * kHangGuardSeconds;
            const auto start = Clock::now();
            const EvaluationOutcome o = run_one(
                command({"/bin/sh", fixture("hang_with_grandchild.sh"), pid_file.toStdString(), mode}, 0.4),
                make_trial(0, {0.5, 1.0, 0.5}), small_space(), options);
            const double seconds = elapsed(start);
            QVERIFY(!o.ok);
            QVERIFY2(o.error.find("did not finish within the timeout of 0.4 s") != std::string::npos, o.error.c_str());
            const double earliest = term_ignored ? 0.4 + options.kill_grace_seconds : 0.4;
            QVERIFY2(seconds >= earliest && seconds < kHangGuardSeconds, qPrintable(QString("%1: %2 s").arg(mode).arg(seconds)));
            const pid_t grandchild = static_cast<pid_t>(QString::fromStdString(read_file(pid_file)).trimmed().toInt());
            QVERIFY(grandchild > 0);
            QVERIFY2(wait_until_gone(grandchild), qPrintable(QString("sleep %1 still runs").arg(grandchild)));
        }
    }

    void leftovers_of_a_finished_program_are_killed() {
        // The program reports and exits, leaving a background process that holds its stdout.
        const QString pid_file = dir.filePath("leftover.pid");
        const auto start = Clock::now();
        const EvaluationOutcome o = run_one(
            inline_script("sleep 100 & echo $! > '" + pid_file.toStdString() + "'; echo '{\"objective\": 5}'"),
            make_trial(0, {0.5, 1.0, 0.5}));
        QVERIFY2(o.ok, o.error.c_str());
        QCOMPARE(o.values.at("objective").mean, 5.0);
        QVERIFY(elapsed(start) < kHangGuardSeconds);  // did not wait for the leftover's end
        const pid_t leftover = static_cast<pid_t>(QString::fromStdString(read_file(pid_file)).trimmed().toInt());
        QVERIFY(leftover > 0);
        QVERIFY(wait_until_gone(leftover));
    }

    // A stop request while the program runs (it has written its grandchild's pid) kills the
    // program and its grandchild; the trial not started yet is cancelled too.
    void stop_token_kills_the_program() {
        const QString pid_file = dir.filePath("cancelled.pid");
        CommandEvaluator evaluator(command({"/bin/sh", fixture("hang_with_grandchild.sh"), pid_file.toStdString()}),
                                   small_space(), kOneMetric);
        std::stop_source source;
        StepControl control;
        control.stop = source.get_token();
        std::jthread stopper([&] {
            wait_for_pid(pid_file);
            source.request_stop();
        });
        const auto start = Clock::now();
        const auto outcomes = evaluator.evaluate_batch({make_trial(0, {0.5, 1.0, 0.5}), make_trial(1, {0.1, 2.0, 0.5})}, control);
        const double seconds = elapsed(start);
        QCOMPARE(outcomes.size(), std::size_t{2});
        QVERIFY(!outcomes[0].ok && !outcomes[1].ok);
        QCOMPARE(qs(outcomes[0].error), QString("cancelled"));
        QCOMPARE(qs(outcomes[1].error), QString("cancelled"));  // never started (concurrency 1)
        QVERIFY2(seconds < kHangGuardSeconds, qPrintable(QString::number(seconds)));  // not the sleep's 100 s
        const pid_t grandchild = static_cast<pid_t>(QString::fromStdString(read_file(pid_file)).trimmed().toInt());
        QVERIFY(grandchild > 0);
        QVERIFY(wait_until_gone(grandchild));
    }

    void batch_runs_up_to_max_concurrency_at_once() {
        for (int concurrency : {1, 2}) {
            // The programs count each other (count_running.sh): the most running at one moment.
            QTemporaryDir shared;
            EvaluatorSpec spec = command(
                {"/bin/sh", fixture("count_running.sh"), shared.path().toStdString(), std::to_string(concurrency)});
            spec.max_concurrency = concurrency;
            CommandEvaluator evaluator(spec, small_space(), {"objective"});
            std::vector<Trial> trials;
            for (int i = 0; i < 4; ++i) trials.push_back(make_trial(10 + i, {0.1 * i, 1.0 * i, 0.5}));
            const auto outcomes = evaluator.evaluate_batch(trials, StepControl{});
            for (int i = 0; i < 4; ++i) {
                QVERIFY2(outcomes[static_cast<std::size_t>(i)].ok, outcomes[static_cast<std::size_t>(i)].error.c_str());
                QCOMPARE(outcomes[static_cast<std::size_t>(i)].values.at("objective").mean, 10.0 + i);  // in the batch's order
            }
            std::istringstream lines(read_file(shared.filePath("log")));
            int trial = 0, seen = 0, programs = 0, most = 0;
            while (lines >> trial >> seen) {
                ++programs;
                most = std::max(most, seen);
            }
            QCOMPARE(programs, 4);
            QCOMPARE(most, concurrency);
        }
    }

    void large_streams_do_not_deadlock() {
        // 3000 parameters make a stdin document larger than a pipe buffer; the program writes
        // 300 KB to stderr and 200 KB of blank space to stdout before it reads anything.
        std::vector<Parameter> parameters;
        for (int i = 0; i < 3000; ++i) parameters.push_back(make_parameter("parameter_" + std::to_string(i), 0.0, 1.0));
        const SearchSpace space(parameters);
        const Trial trial = make_trial(0, std::vector<double>(3000, 0.123456789012345));
        QVERIFY(command_input_json(space, trial).size() > (1u << 16));
        QTemporaryDir work;
        EvaluatorSpec spec = inline_script("head -c 300000 /dev/zero | tr '\\0' e >&2; "
                                           "head -c 200000 /dev/zero | tr '\\0' ' '; wc -c > count; "
                                           "echo '{\"objective\": 2}'");
        spec.working_directory = work.path().toStdString();
        const EvaluationOutcome o = run_one(spec, trial, space);
        QVERIFY2(o.ok, o.error.c_str());
        QCOMPARE(o.values.at("objective").mean, 2.0);
        QCOMPARE(std::stoul(read_file(work.filePath("count"))), command_input_json(space, trial).size());

        // A program that never reads its (large) stdin: the write fails with EPIPE, which must not
        // end this process with SIGPIPE, and is not an error by itself.
        const EvaluationOutcome closed = run_one(inline_script("exec 0<&-; echo '{\"objective\": 3}'"), trial, space);
        QVERIFY2(closed.ok, closed.error.c_str());
        QCOMPARE(closed.values.at("objective").mean, 3.0);
        sigset_t mask;
        pthread_sigmask(SIG_SETMASK, nullptr, &mask);
        QVERIFY(!sigismember(&mask, SIGPIPE));  // the thread's signal mask is restored
    }

    void invalid_specs_are_input_errors() {
        const auto field_of = [](const EvaluatorSpec& spec) -> QString {
            try {
                CommandEvaluator evaluator(spec, small_space(), {"objective"});
            } catch (const InputError& e) {
                return qs(e.field());
            }
            return "no error";
        };
        QCOMPARE(field_of(command({})), QString("evaluator.command"));
        QCOMPARE(field_of(command({""})), QString("evaluator.command[0]"));
        QCOMPARE(field_of(command({"run", std::string("a\0b", 3)})), QString("evaluator.command[1]"));
        QCOMPARE(field_of(command({"run"}, 0.0)), QString("evaluator.timeout_seconds"));
        EvaluatorSpec spec = command({"run"});
        spec.max_concurrency = 0;
        QCOMPARE(field_of(spec), QString("evaluator.max_concurrency"));
        spec = command({"run"});
        spec.environment = {{"A=B", "x"}};
        QCOMPARE(field_of(spec), QString("evaluator.environment.A=B"));
    }

    void run_step_evaluates_a_batch_and_cancels_cleanly() {
        Experiment e;
        e.space = small_space();
        e.method.budget = 10;
        e.evaluator = command({"/bin/sh", fixture("sum_parameters.sh")});
        e.evaluator.max_concurrency = 2;
        CommandEvaluator evaluator(e.evaluator, e.space, e.outcomes.metrics);
        SobolStrategy sobol;
        const StepResult step = run_step(e, sobol, &evaluator, StepControl{}, 3);
        QCOMPARE(step.status, StepResult::Status::Completed);
        QCOMPARE(e.trials.size(), std::size_t{3});
        for (const Trial& t : e.trials) {
            QCOMPARE(t.status, TrialStatus::Completed);
            SEBO_COMPARE_NEAR(*t.value("objective"), t.parameters[0] + t.parameters[1] + t.parameters[2], 1e-12);
            QVERIFY(t.evaluation_seconds > 0.0);
            QVERIFY(!t.completed_at.empty());
        }

        // Cancelled while the programs run (once one has written its pid): the experiment is
        // exactly as it was.
        const QString pid_file = dir.filePath("step.pid");
        e.evaluator = command({"/bin/sh", "-c", "echo $$ > '" + pid_file.toStdString() + "'; exec sleep 100"});
        CommandEvaluator slow(e.evaluator, e.space, e.outcomes.metrics);
        std::stop_source source;
        StepControl control;
        control.stop = source.get_token();
        std::jthread stopper([&] {
            wait_for_pid(pid_file);
            source.request_stop();
        });
        const std::string before = experiment_to_json_text(e);
        const auto start = Clock::now();
        const StepResult cancelled = run_step(e, sobol, &slow, control, 2);
        QCOMPARE(cancelled.status, StepResult::Status::Cancelled);
        QCOMPARE(e.trials.size(), std::size_t{3});
        QVERIFY(experiment_to_json_text(e) == before);
        QVERIFY(elapsed(start) < kHangGuardSeconds);  // not the sleep's 100 s
        QVERIFY(wait_until_gone(wait_for_pid(pid_file)));
    }

    void quoted_command_line_reads_back_in_a_shell() {
        const std::vector<std::string> argv = {"python3", "my script.py", "it's", "$(x) `y`", "", "--lr=0.1", "a\"b"};
        const std::string line = shell_quoted_command_line(argv);
        QCOMPARE(qs(line), QString("python3 'my script.py' 'it'\\''s' '$(x) `y`' '' --lr=0.1 'a\"b'"));
        // Independent check: a POSIX shell splits the shown line back into the same arguments.
        QTemporaryDir work;
        const std::string out = work.filePath("args").toStdString();
        const EvaluationOutcome o = run_one(
            inline_script("for a in " + line + "; do printf '%s\\0' \"$a\"; done > '" + out + "'; echo '{\"objective\": 0}'"),
            make_trial(0, {0.5, 1.0, 0.5}));
        QVERIFY2(o.ok, o.error.c_str());
        std::string expected;
        for (const std::string& a : argv) expected += a + std::string(1, '\0');
        QVERIFY(read_file(qs(out)) == expected);
    }
};

SEBO_TEST_MAIN(TestCommandEvaluator)
}  // namespace test_command_evaluator
#include "test_command_evaluator.moc"
