// Reading users' tables: the RFC 4180 reader, search spaces from CSV and JSON, results matched
// to pending trials (by index or by parameter values) and historical data imported as trials —
// with hand-written inputs and the exact message (file, line, column, value) of every problem.

#include <QTemporaryDir>

#include "core/input_error.h"
#include "io/csv_export.h"
#include "io/csv_table.h"
#include "io/results_import.h"
#include "io/space_file.h"
#include "test_main.h"
#include "test_support.h"

namespace test_results_import {

using namespace sebo;

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

// The message of the InputError thrown by f ("no error" when none).
template <class F>
QString error_of(F f) {
    try {
        f();
    } catch (const InputError& e) {
        return qs(e.what());
    }
    return "no error";
}

Parameter make_parameter(std::string name, double lo, double hi, ParameterKind kind = ParameterKind::Continuous) {
    Parameter p;
    p.name = std::move(name);
    p.lower = lo;
    p.upper = hi;
    p.kind = kind;
    return p;
}

Trial make_trial(int index, TrialStatus status, std::vector<double> values) {
    Trial t;
    t.index = index;
    t.status = status;
    t.parameters = std::move(values);
    return t;
}

// Three parameters; trials 0-1 completed, 2-4 pending (3 and 4 with the same values).
Experiment lab_experiment() {
    Experiment e;
    e.outcomes = Outcomes::single("yield", false);
    e.space = SearchSpace({make_parameter("temp", 20.0, 90.0), make_parameter("stir", 0.0, 10.0, ParameterKind::Integer),
                           make_parameter("ratio", 0.0, 1.0)});
    Trial t0 = make_trial(0, TrialStatus::Completed, {25.0, 2.0, 0.5});
    t0.values = {{"yield", {0.61, std::nullopt}}};
    Trial t1 = make_trial(1, TrialStatus::Completed, {40.0, 0.0, 0.0});
    t1.values = {{"yield", {0.72, std::nullopt}}};
    e.trials = {t0, t1, make_trial(2, TrialStatus::Pending, {30.0, 5.0, 0.1 + 0.2}),
                make_trial(3, TrialStatus::Pending, {55.5, 1.0, 0.0}), make_trial(4, TrialStatus::Pending, {55.5, 1.0, 0.0})};
    return e;
}

CsvTable table(const std::string& text) { return parse_csv_table(text, "results.csv"); }

}  // namespace

class TestResultsImport : public QObject {
    Q_OBJECT

private slots:
    void csv_reader_follows_rfc4180() {
        const CsvTable t = parse_csv_table(
            "\xEF\xBB\xBF" "a, b ,\"c,d\"\r\n"
            "1,\"two \"\"quoted\"\" words\",\"line one\nline two\"\r\n"
            "\n"
            "  3 ,  , \"x\" \r"
            "4,5,6",
            "t.csv");
        QCOMPARE(t.header, (std::vector<std::string>{"a", "b", "c,d"}));
        QCOMPARE(t.rows.size(), std::size_t{3});
        QCOMPARE(t.rows[0].line, 2);
        QCOMPARE(t.rows[0].cells, (std::vector<std::string>{"1", "two \"quoted\" words", "line one\nline two"}));
        QCOMPARE(t.rows[1].line, 5);  // after the quoted line break and the blank line
        QCOMPARE(t.rows[1].cells, (std::vector<std::string>{"3", "", "x"}));
        QCOMPARE(t.rows[2].line, 6);  // a lone CR ends a line too
        QCOMPARE(t.rows[2].cells, (std::vector<std::string>{"4", "5", "6"}));
        QVERIFY(t.column("c,d") == std::optional<std::size_t>(2));
        QVERIFY(t.column_ignoring_case("A") == std::optional<std::size_t>(0));
        QVERIFY(!t.column("A"));

        // Round trip with the exporter's quoting.
        const std::string hostile = "x,\"y\"\nz";
        const CsvTable back = parse_csv_table("h\n" + csv_quote(hostile) + "\n", "t.csv");
        QCOMPARE(qs(back.rows[0].cells[0]), qs(hostile));

        QCOMPARE(error_of([] { parse_csv_table("a,b\n1,\"open\n2,3\n", "t.csv"); }),
                 QString("t.csv line 2: a quoted field is not closed (a \" is missing)"));
        QVERIFY(error_of([] { parse_csv_table("a,b\n\"x\"y,2\n", "t.csv"); }).startsWith("t.csv line 2: unexpected 'y' after a closing quote"));
        QCOMPARE(error_of([] { parse_csv_table("a,b\n1,2\n1,2,3\n", "t.csv"); }), QString("t.csv line 3: 3 cells, but the header has 2 columns"));
        QCOMPARE(error_of([] { parse_csv_table("a,,c\n", "t.csv"); }), QString("t.csv line 1: column 2 of the header has no name"));
        QCOMPARE(error_of([] { parse_csv_table("a,b,a\n", "t.csv"); }), QString("t.csv line 1: the column 'a' appears twice in the header"));
        QCOMPARE(error_of([] { parse_csv_table(" \n\n", "t.csv"); }), QString("t.csv: the file is empty (expected a header row)"));
    }

    void numbers_are_read_without_the_locale() {
        QCOMPARE(*parse_number("0.1"), 0.1);
        QCOMPARE(*parse_number("+2.5e-3"), 2.5e-3);
        QCOMPARE(*parse_number("-7"), -7.0);
        QCOMPARE(*parse_number("1E3"), 1000.0);
        QCOMPARE(*parse_number("4.9406564584124654e-324"), 4.9406564584124654e-324);
        for (const char* bad : {"", "ten", "0,5", "1.2.3", "0x10", "1e", "--1", "+-1", "+", " 1"}) QVERIFY2(!parse_number(bad), bad);
        QVERIFY(std::isinf(*parse_number("1e400")));
        QVERIFY(std::isinf(*parse_number("-inf")));
        QVERIFY(std::isnan(*parse_number("nan")));
    }

    void space_from_csv() {
        const SearchSpace space = space_from_csv_text(
            "Name,kind,lower,upper,LOG,target,group\n"
            "learning_rate,continuous,1e-5,0.1,true,,\n"
            "n_layers,integer,1,8,,1,\n"
            "\"dropout, input\",,0,0.5,no,,regularization\n"
            "weight_decay,continuous,0,1,0,0.25,regularization\n",
            "space.csv");
        QCOMPARE(space.dimension(), 4);
        const Parameter& lr = space.parameter(0);
        QCOMPARE(qs(lr.name), QString("learning_rate"));
        QCOMPARE(lr.lower, 1e-5);
        QCOMPARE(lr.upper, 0.1);
        QVERIFY(lr.log_scale);
        QVERIFY(!lr.target);
        QCOMPARE(lr.resolved_target(), 1e-5);  // 0 is outside the bounds: the lower bound
        QCOMPARE(space.parameter(1).kind, ParameterKind::Integer);
        QCOMPARE(*space.parameter(1).target, 1.0);
        QCOMPARE(qs(space.parameter(2).name), QString("dropout, input"));
        QCOMPARE(space.parameter(2).kind, ParameterKind::Continuous);
        QVERIFY(!space.parameter(2).log_scale);
        QCOMPARE(qs(space.parameter(3).group), QString("regularization"));
        QCOMPARE(space.group_count(), 3);

        // The optional columns may be left out entirely.
        QCOMPARE(space_from_csv_text("name,lower,upper\nx,0,1\n", "s.csv").dimension(), 1);

        struct Case {
            const char* text;
            const char* message;
        };
        const Case bad[] = {
            {"name,kind,lower,upper\nx,continuous,0,1\ny,continuous,0,1\nz,integer,0,1\nw,continuous,0,ten\n",
             "space.csv line 5, column upper: 'ten' is not a number"},
            {"name,lower,upper\nx,0,\n", "space.csv line 2, column upper: a number is required"},
            {"name,lower,upper\nx,1,0\n", "space.csv line 2, column upper: 0 is not above lower 1"},
            {"name,lower,upper\nx,0,1e999\n", "space.csv line 2, column upper: '1e999' is not a finite number"},
            {"name,kind,lower,upper\nx,float,0,1\n",
             "space.csv line 2, column kind: 'float' is not a parameter kind; expected continuous, integer, choice or fixed"},
            {"name,kind,lower,upper\nn,integer,0.5,3\n", "space.csv line 2, column lower: 0.5 is not an integer"},
            {"name,lower,upper,log\nx,0,1,maybe\n", "space.csv line 2, column log: 'maybe' is not true or false (or yes/no, 1/0)"},
            {"name,lower,upper,log\nx,0,1,true\n", "space.csv line 2, column lower: log scale needs a positive lower bound, got 0"},
            {"name,lower,upper,target\nx,0,1,2\n", "space.csv line 2, column target: 2 is outside the bounds [0, 1]"},
            {"name,lower,upper\nx,0,1\n,0,1\n", "space.csv line 3, column name: a parameter name must not be empty"},
            {"name,lower,upper\nx,0,1\n\nx,0,2\n", "space.csv line 4, column name: duplicate parameter name 'x' (first on line 2)"},
            {"name,lower,upper,taget\nx,0,1,0\n",
             "space.csv line 1, column taget: unknown column; the columns are name, kind, lower, upper, log, target, group, min_change, value, values, ordered"},
            {"name,lower\nx,0\n", "space.csv line 1: the header has no 'upper' column"},
            {"name,lower,upper\n", "space.csv: the file has a header but no parameters"},
        };
        for (const Case& c : bad) {
            const QString message = error_of([&] { space_from_csv_text(c.text, "space.csv"); });
            QVERIFY2(message.startsWith(c.message), qPrintable(message + "\n  expected: " + c.message));
        }
    }

    void space_from_json_and_file_sniffing() {
        const std::string json = R"({"parameters": [{"name": "x", "lower": 0, "upper": 2},
                                     {"name": "k", "kind": "integer", "lower": 1, "upper": 9, "target": 1}]})";
        const SearchSpace space = space_from_json_document_text(json, "space.json");
        QCOMPARE(space.dimension(), 2);
        QCOMPARE(*space.parameter(1).target, 1.0);
        QCOMPARE(error_of([] { space_from_json_document_text(R"({"parameters": [{"name": "x", "lower": 3, "upper": 2}]})", "s.json"); }),
                 QString("s.json parameters[0].upper: 2 is not above lower 3"));
        QCOMPARE(error_of([] { space_from_json_document_text(R"({"parameters": []})", "s.json"); }),
                 QString("s.json parameters: the search space has no parameters"));
        QVERIFY(error_of([] { space_from_json_document_text("{\"parameters\": [", "s.json"); }).startsWith("s.json: not valid JSON"));

        QTemporaryDir dir;
        const auto write = [&](const QString& name, const QByteArray& text) {
            QFile f(dir.filePath(name));
            f.open(QIODevice::WriteOnly);
            f.write(text);
            return dir.filePath(name).toStdString();
        };
        QCOMPARE(load_space_file(write("a.txt", QByteArray("\n  ") + json.c_str())).dimension(), 2);
        QCOMPARE(load_space_file(write("b.json", "name,lower,upper\nx,0,1\ny,0,1\nz,0,1\n")).dimension(), 3);
        const std::string missing = dir.filePath("missing.csv").toStdString();
        QCOMPARE(error_of([&] { load_space_file(missing); }), qs(missing + ": cannot open: No such file or directory"));
    }

    void results_by_trial_index() {
        const Experiment e = lab_experiment();
        const ResultsMatch m = match_results(e, table("trial,yield,sem,note\n2,0.8,0.01,first\n3,0.5,,second\n"));
        QVERIFY(m.complete());
        QCOMPARE(m.results.size(), std::size_t{2});
        QCOMPARE(m.results[0].trial, 2);
        QCOMPARE(m.results[0].values.at("yield").mean, 0.8);
        QCOMPARE(*m.results[0].values.at("yield").sem, 0.01);
        QCOMPARE(m.results[1].trial, 3);
        QVERIFY(!m.results[1].values.at("yield").sem);
        QCOMPARE(m.rows[1].line, 3);
        QCOMPARE(m.rows[1].status, ResultRow::Status::Matched);

        Experiment recorded = e;
        record_results(recorded, m.results, "2026-11-25T10:00:00Z");
        QCOMPARE(recorded.find_trial(2)->status, TrialStatus::Completed);
        QCOMPARE(*recorded.find_trial(2)->value("yield"), 0.8);
        QCOMPARE(qs(recorded.find_trial(2)->completed_at), QString("2026-11-25T10:00:00Z"));
        QCOMPARE(recorded.find_trial(4)->status, TrialStatus::Pending);
        QVERIFY(!recorded.validate());
    }

    void results_by_parameter_values() {
        const Experiment e = lab_experiment();
        // Numbers as a person types them ("0.30000000000000004" would be exact; 55.50 equals 55.5).
        // Two rows with the values of trials 3 and 4 go to each in turn.
        const ResultsMatch m = match_results(e, table("temp,stir,ratio,objective\n"
                                                      "55.50,1,0,0.4\n"
                                                      "30,5,0.30000000000000004,0.9\n"
                                                      "55.5,1.0,0e0,0.45\n"));
        QVERIFY(m.complete());
        QCOMPARE(m.results[0].trial, 3);
        QCOMPARE(m.results[1].trial, 2);
        QCOMPARE(m.results[2].trial, 4);

        const ResultsMatch near = match_results(e, table("temp,stir,ratio,objective\n30,5,0.3,0.9\n"));
        QVERIFY(!near.complete());
        QCOMPARE(near.rows[0].status, ResultRow::Status::Unmatched);
        QCOMPARE(qs(near.rows[0].message), QString("no pending trial has these parameter values"));
        const ResultsMatch done = match_results(e, table("temp,stir,ratio,objective\n25,2,0.5,0.9\n"));
        QCOMPARE(qs(done.rows[0].message),
                 QString("no pending trial has these parameter values (trial 0 has them: completed, yield 0.61)"));
    }

    void each_row_is_reported() {
        const Experiment e = lab_experiment();
        const ResultsMatch m = match_results(e, table("trial,temp,stir,ratio,yield,sem,status,error\n"
                                                      "2,30,5,0.30000000000000004,0.8,,,\n"            // 2 matched
                                                      "3,55.5,1,0,abc,,,\n"                             // 3 invalid value
                                                      "4,55.5,1,0,,,,\n"                                // 4 skipped: no value yet
                                                      "9,1,1,1,0.5,,,\n"                                // 5 no trial 9
                                                      "0,25,2,0.5,0.7,,,\n"                             // 6 has a result
                                                      "2,30,5,0.30000000000000004,0.81,,,\n"            // 7 twice
                                                      "4,55.5,1,0,,,failed,pump broke\n"                // 8 failed: matched
                                                      "3,56,1,0,0.2,,,\n"                               // 9 shifted row
                                                      "1,40,0,0,0.2,-1,,\n"                             // 10 negative sem
                                                      "1,40,0,0,0.2,,done,\n"                           // 11 bad status
                                                      "1,40,0,0,,,completed,\n"                         // 12 no value
                                                      "1.5,40,0,0,0.3,,,\n"));                          // 13 bad index
        using S = ResultRow::Status;
        const std::vector<std::pair<S, QString>> expected = {
            {S::Matched, ""},
            {S::Invalid, "column yield: 'abc' is not a number"},
            {S::Skipped, "no result yet (the yield cell is empty)"},
            {S::Unmatched, "no trial 9 in the experiment"},
            {S::Invalid, "trial 0 already has a result (completed, yield 0.61)"},
            {S::Invalid, "trial 2 already has a result on line 2"},
            {S::Matched, ""},
            {S::Invalid, "column temp: 56 differs from trial 3's value 55.5"},
            {S::Invalid, "column sem: '-1' is negative"},
            {S::Invalid, "column status: 'done' is not a status; expected completed, failed, abandoned or pending"},
            {S::Invalid, "column yield: a completed result needs a value of every objective and constrained metric"},
            {S::Invalid, "column trial: '1.5' is not a trial index (a whole number >= 0)"},
        };
        QCOMPARE(m.rows.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(m.rows[i].line, static_cast<int>(i) + 2);
            QVERIFY2(m.rows[i].status == expected[i].first, qPrintable(QString("line %1: %2").arg(i + 2).arg(to_string(m.rows[i].status))));
            QCOMPARE(qs(m.rows[i].message), expected[i].second);
        }
        QVERIFY(!m.complete());
        QCOMPARE(m.count(S::Matched), 2);
        QCOMPARE(m.results[1].status, TrialStatus::Failed);
        QCOMPARE(qs(m.results[1].error), QString("pump broke"));

        // With overwrite a completed trial takes a new value.
        const ResultsMatch again = match_results(e, table("trial,yield\n0,0.65\n"), {.overwrite = true});
        QVERIFY(again.complete());
        Experiment changed = e;
        record_results(changed, again.results, "t");
        QCOMPARE(*changed.find_trial(0)->value("yield"), 0.65);
    }

    // The sheet of every trial, exported, filled in for the pending ones and read back (issue 32's
    // walk-through): rows that repeat what their trial holds are "already recorded", not invalid,
    // so the sheet is complete; a different value for a measured trial still is invalid.
    void a_sheet_read_back_repeats_what_is_recorded() {
        Experiment e = lab_experiment();
        e.trials[1].values["yield"].sem = 0.02;
        e.trials.push_back(make_trial(5, TrialStatus::Failed, {20.0, 0.0, 0.0}));
        e.trials.back().error = "pump broke";
        using S = ResultRow::Status;
        // As a spreadsheet writes them back: 15 significant digits, the SEM in its own column.
        const ResultsMatch m = match_results(e, table("trial,yield,yield_sem,status,error\n"
                                                      "0,0.610000000000000,,completed,\n"
                                                      "1,0.72,0.02,completed,\n"
                                                      "2,0.8,,pending,\n"
                                                      "3,,,pending,\n"
                                                      "5,,,failed,pump broke\n"));
        const std::vector<std::pair<S, QString>> expected = {
            {S::Recorded, "trial 0 (completed, yield 0.61)"},
            {S::Recorded, "trial 1 (completed, yield 0.72)"},
            {S::Matched, ""},
            {S::Skipped, "no result yet (the yield cell is empty)"},
            {S::Recorded, "trial 5 (failed)"},
        };
        QCOMPARE(m.rows.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QVERIFY2(m.rows[i].status == expected[i].first, qPrintable(QString("line %1: %2").arg(i + 2).arg(to_string(m.rows[i].status))));
            QCOMPARE(qs(m.rows[i].message), expected[i].second);
        }
        QVERIFY(m.complete());
        QCOMPARE(m.results.size(), std::size_t{1});
        QCOMPARE(m.results[0].trial, 2);
        QCOMPARE(m.rows[0].trial, 0);
        QCOMPARE(qs(to_string(S::Recorded)), QString("already recorded"));

        // Not the same result: another value, a missing or another standard error, another status.
        for (const char* row : {"0,0.62,,completed,", "1,0.72,,completed,", "1,0.72,0.03,completed,", "5,0.5,,completed,"}) {
            const ResultsMatch other = match_results(e, table(std::string("trial,yield,yield_sem,status,error\n") + row + "\n"));
            QVERIFY2(other.rows[0].status == S::Invalid, row);
            QVERIFY2(other.rows[0].message.find("already has a result") != std::string::npos, row);
        }
        // With overwrite the row is a result again, even when it is the same.
        const ResultsMatch overwrite = match_results(e, table("trial,yield\n0,0.61\n"), {.overwrite = true});
        QVERIFY(overwrite.rows[0].status == S::Matched);
    }

    void unusable_sheets_are_input_errors() {
        const Experiment e = lab_experiment();
        QCOMPARE(error_of([&] { match_results(e, table("trial,value\n2,1\n")); }),
                 QString("results.csv line 1: no column for the metric 'yield'; name it 'yield' or 'objective'"));
        QCOMPARE(error_of([&] { match_results(e, table("temp,stir,objective\n1,1,1\n")); }),
                 QString("results.csv line 1: no 'trial' column and no column for parameter 'ratio': each row needs its "
                         "trial index, or the values of every parameter"));
        QCOMPARE(error_of([&] { match_results(e, table("trial,yield,objective\n2,1,1\n")); }),
                 QString("results.csv line 1: both 'yield' and 'objective' columns; keep only the one with the values of yield"));
    }

    void check_result_rules() {
        const Experiment e = lab_experiment();
        ObservedResult r;
        r.trial = 2;
        r.values = {{"yield", {1.0, std::nullopt}}};
        QVERIFY(!check_result(e, r, false));
        r.trial = 0;
        QCOMPARE(qs(*check_result(e, r, false)), QString("trial 0 already has a result (completed, yield 0.61)"));
        QVERIFY(!check_result(e, r, true));
        r.trial = 2;
        r.values["yield"].mean = std::numeric_limits<double>::quiet_NaN();
        QCOMPARE(qs(*check_result(e, r, false)), QString("nan is not a finite value of yield"));
        r.values["yield"] = {1.0, -2.0};
        QCOMPARE(qs(*check_result(e, r, false)), QString("the standard error -2 of yield is not a finite number >= 0"));
        r.values = {{"yield", {1.0, std::nullopt}}, {"latency", {2.0, std::nullopt}}};
        QCOMPARE(qs(*check_result(e, r, false)), QString("unknown metric 'latency'; the metrics are 'yield'"));
        r.values.clear();
        QCOMPARE(qs(*check_result(e, r, false)), QString("a completed result needs a value of yield (an objective)"));
        r.status = TrialStatus::Failed;
        r.values = {{"yield", {1.0, std::nullopt}}};
        QCOMPARE(qs(*check_result(e, r, false)), QString("a failed trial has no values"));
        r.values.clear();
        r.error = "spilled";
        QVERIFY(!check_result(e, r, false));
        r.trial = 77;
        QCOMPARE(qs(*check_result(e, r, false)), QString("no trial 77 in the experiment"));
    }

    // Several metrics: a column per metric ("<metric>_sem" for its standard error); objectives and
    // constrained metrics are required in a completed row, a tracked metric's cell may be empty;
    // a sheet without a column for some metric is refused as a whole.
    void a_column_per_metric() {
        Experiment e = lab_experiment();
        e.outcomes.metrics = {"yield", "cost", "notes"};
        e.outcomes.constraints = {{"cost", ConstraintSense::AtMost, 10.0}};
        e.trials[0].values["cost"] = {3.0, std::nullopt};
        e.trials[1].values["cost"] = {12.0, std::nullopt};
        QVERIFY(!e.validate());
        const ResultsMatch m = match_results(e, table("trial,yield,yield_sem,cost,notes,cost_sem\n"
                                                      "2,0.8,0.01,4,,0.5\n"   // 2 matched, notes not measured
                                                      "3,0.5,,,7,\n"          // 3 cost missing: invalid
                                                      "4,,,,,\n"              // 4 nothing yet: skipped
                                                      "4,0.4,,11,1,\n"));     // 5 matched, all three
        using S = ResultRow::Status;
        QCOMPARE(m.rows.size(), std::size_t{4});
        QCOMPARE(m.rows[0].status, S::Matched);
        QCOMPARE(m.rows[1].status, S::Invalid);
        QCOMPARE(qs(m.rows[1].message),
                 QString("column cost: a completed result needs a value of every objective and constrained metric"));
        QCOMPARE(m.rows[2].status, S::Skipped);
        QCOMPARE(qs(m.rows[2].message), QString("no result yet (the metric cells are empty)"));
        QCOMPARE(m.rows[3].status, S::Matched);
        QCOMPARE(m.results[0].values.size(), std::size_t{2});
        QCOMPARE(m.results[0].values.at("yield"), (Measurement{0.8, 0.01}));
        QCOMPARE(m.results[0].values.at("cost"), (Measurement{4.0, 0.5}));
        QCOMPARE(m.results[1].values.at("notes"), (Measurement{1.0, std::nullopt}));
        Experiment recorded = e;
        record_results(recorded, m.results, "t");
        QVERIFY(!recorded.validate());
        QCOMPARE(recorded.feasibility(*recorded.find_trial(2)), Feasibility::Feasible);
        QCOMPARE(recorded.feasibility(*recorded.find_trial(4)), Feasibility::Infeasible);

        // A failed row has no values; a standard error needs its value.
        const ResultsMatch f = match_results(e, table("trial,yield,cost,notes,notes_sem,status\n2,,5,,,failed\n3,0.1,1,,2,\n"));
        QCOMPARE(qs(f.rows[0].message), QString("column cost: a failed trial has no value; leave the cell empty"));
        QCOMPARE(qs(f.rows[1].message), QString("column notes_sem: a standard error without a value of notes"));

        // The sheet needs a column for every metric, tracked ones too; with several metrics
        // "objective" and "sem" name none of them.
        QCOMPARE(error_of([&] { match_results(e, table("trial,yield,cost\n2,1,1\n")); }),
                 QString("results.csv line 1: no column for the metric 'notes'; every metric ('yield', 'cost', 'notes') "
                         "needs a column named after it, even if its cells stay empty"));
        QCOMPARE(error_of([&] { match_results(e, table("trial,objective,cost,notes\n2,1,1,\n")); }),
                 QString("results.csv line 1: no column for the metric 'yield'; every metric ('yield', 'cost', 'notes') "
                         "needs a column named after it, even if its cells stay empty"));
        QCOMPARE(error_of([&] { import_trials(e, parse_csv_table("temp,stir,ratio,yield,notes\n1,1,1,1,\n", "past.csv")); }),
                 QString("past.csv line 1: no column for the metric 'cost'; every metric ('yield', 'cost', 'notes') "
                         "needs a column named after it, even if its cells stay empty"));
        // Historical rows follow the same rules.
        const TrialImport imported = import_trials(e, parse_csv_table("temp,stir,ratio,yield,cost,notes\n"
                                                                      "60,3,0.25,0.5,2,\n"
                                                                      "60,3,0.25,0.5,,4\n",
                                                                      "past.csv"));
        QCOMPARE(imported.trials.size(), std::size_t{1});
        QCOMPARE(imported.trials[0].values.size(), std::size_t{2});
        QCOMPARE(imported.problems, (std::vector<std::string>{
                                        "past.csv line 3, column cost: a completed result needs a value of every objective "
                                        "and constrained metric"}));
    }

    void historical_import() {
        const Experiment e = lab_experiment();
        const TrialImport ok = import_trials(e, parse_csv_table("ratio,temp,stir,yield,sem,notes\n"
                                                                "0.25,60,3,0.55,0.02,old run\n"
                                                                "1,90,10,0.7,,\n",
                                                                "past.csv"));
        QVERIFY(ok.problems.empty());
        QCOMPARE(ok.trials.size(), std::size_t{2});
        QCOMPARE(ok.trials[0].index, 5);  // after the experiment's trials
        QCOMPARE(ok.trials[0].parameters, (std::vector<double>{60.0, 3.0, 0.25}));  // space order
        QCOMPARE(ok.trials[0].values.at("yield").mean, 0.55);
        QCOMPARE(*ok.trials[0].values.at("yield").sem, 0.02);
        QCOMPARE(qs(ok.trials[0].generator), QString("import"));
        QCOMPARE(ok.trials[1].status, TrialStatus::Completed);
        Experiment merged = e;
        merged.trials.insert(merged.trials.end(), ok.trials.begin(), ok.trials.end());
        QVERIFY(!merged.validate());

        const TrialImport bad = import_trials(e, parse_csv_table("temp,stir,ratio,yield\n"
                                                                 "60,3,0.25,0.5\n"
                                                                 "95,3,0.25,0.5\n"
                                                                 "60,2.5,x,0.5\n"
                                                                 "60,3,0.25,\n"
                                                                 "60,3,0.25,nan\n",
                                                                 "past.csv"));
        QCOMPARE(bad.trials.size(), std::size_t{1});
        const std::vector<std::string> expected = {
            "past.csv line 3, column temp: 95 is above the upper bound 90",
            "past.csv line 4, column stir: 2.5 is not an integer",
            "past.csv line 4, column ratio: 'x' is not a number",
            "past.csv line 5, column yield: a completed result needs a value of every objective and constrained metric",
            "past.csv line 6, column yield: 'nan' is not a finite number",
        };
        QCOMPARE(bad.problems, expected);
        QCOMPARE(error_of([&] { import_trials(e, parse_csv_table("temp,stir,yield\n1,1,1\n", "past.csv")); }),
                 QString("past.csv line 1: no column for parameter 'ratio'; every parameter needs a column"));
    }
};

SEBO_TEST_MAIN(TestResultsImport)
}  // namespace test_results_import
#include "test_results_import.moc"
