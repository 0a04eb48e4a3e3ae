// Spreadsheet formulas in exported sheets (issue 33, item 2; io/csv_cell.h): which text cells the
// writers guard with an apostrophe (a cell beginning with =, +, -, @, tab or carriage return that
// is not a number), that the reader takes exactly that apostrophe off again, and that an
// experiment whose parameter names, metric names, choice values, generators, errors and exclusion
// reasons begin so comes back unchanged through the trial and configuration exports and the
// readers of `sebo import` and `sebo observe --csv`. Expected bytes are written out by hand.

#include "core/input_error.h"
#include "io/csv_cell.h"
#include "io/csv_export.h"
#include "io/csv_table.h"
#include "io/results_import.h"
#include "test_main.h"
#include "test_support.h"

namespace test_csv_formulas {

using namespace sebo;

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

// A parameter named like a formula that opens a link, a choice whose values begin with @ and -
// (one of them the number -2.5), and one metric whose name begins with -.
const std::string kLinkName = "=HYPERLINK(\"http://x.invalid\",\"open\")";

Experiment hostile_experiment(TrialStatus status) {
    Experiment e;
    e.outcomes = Outcomes::single("-loss", true);
    Parameter link;
    link.name = kLinkName;
    link.lower = -5.0;
    link.upper = 5.0;
    Parameter mode;
    mode.name = "mode";
    mode.kind = ParameterKind::Choice;
    mode.values = {{"@risk", std::nullopt}, {"-low", std::nullopt}, {"plain", std::nullopt}, {"-2.5", -2.5}};
    mode.lower = 0.0;
    mode.upper = 3.0;
    mode.target = 1.0;  // "-low"
    e.space = SearchSpace({link, mode});
    const auto trial = [&](int index, double x, double choice, double value) {
        Trial t;
        t.index = index;
        t.status = status;
        t.parameters = {x, choice};
        if (status == TrialStatus::Completed) t.values = {{"-loss", {value, 0.5}}};
        t.generator = "+sobol";
        return t;
    };
    e.trials = {trial(0, -2.5, 1.0, -0.25), trial(1, 1.0, 0.0, 3.0), trial(2, 0.0, 3.0, -1e-3)};
    return e;
}

}  // namespace

class TestCsvFormulas : public QObject {
    Q_OBJECT

private slots:
    // The writer: text → the cell's bytes in the file.
    void text_cells_that_would_run_as_formulas_are_guarded() {
        const std::vector<std::pair<std::string, std::string>> cases = {
            {"=HYPERLINK(\"a\",\"b\")", "\"'=HYPERLINK(\"\"a\"\",\"\"b\"\")\""},  // guarded, then quoted
            {"@SUM(1)", "'@SUM(1)"},
            {"+1+1", "'+1+1"},  // not a number: a formula
            {"-A1", "'-A1"},
            {"=1", "'=1"},
            {"-", "'-"},
            {"-inf", "'-inf"},  // not a finite number
            {"-nan", "'-nan"},
            {"\tcmd", "'\tcmd"},
            {"\r=1", "\"'\r=1\""},  // the line break is quoted as before
            {"'=x", "''=x"},        // an apostrophe before a trigger gets one more, so reading undoes exactly one
            {"''@x", "'''@x"},
            // Numbers stay numbers.
            {"-2.5", "-2.5"},
            {"+3", "+3"},
            {"-1e-3", "-1e-3"},
            {"-0", "-0"},
            // Nothing to guard.
            {"'abc", "'abc"},
            {"'", "'"},
            {"", ""},
            {"plain", "plain"},
            {"a=b", "a=b"},
            {"2-1", "2-1"},
            {"a,b", "\"a,b\""},
        };
        for (const auto& [text, written] : cases) QCOMPARE(qs(csv_text_cell(text)), qs(written));
        // csv_quote alone only quotes.
        QCOMPARE(qs(csv_quote("=1")), QString("=1"));
    }

    // The reader: a cell after unquoting → its value.
    void readers_take_exactly_one_guard_off() {
        const std::vector<std::pair<std::string, std::string>> cases = {
            {"'=x", "=x"},      {"''=x", "'=x"}, {"'''@x", "''@x"}, {"'-2.5", "-2.5"}, {"'+1+1", "+1+1"},
            {"'\tcmd", "\tcmd"}, {"'\r", "\r"},    {"'abc", "'abc"},   {"'", "'"},         {"''", "''"},
            {"", ""},           {"=x", "=x"},     {"-2.5", "-2.5"},   {"a'=b", "a'=b"},
        };
        for (const auto& [cell, value] : cases) QCOMPARE(qs(strip_formula_guard(cell)), qs(value));
    }

    // Whatever the text, the CSV reader (of import, observe --csv and the space file) gives back
    // what the writer was given, as a cell and as a header name.
    void every_text_reads_back_through_the_csv_reader() {
        for (const std::string text : {"=HYPERLINK(\"a\",\"b\")", "@SUM(1)", "+1+1", "-A1", "-", "-inf", "\tcmd", "\r=1",
                                       "'=x", "''@x", "'''-y", "-2.5", "+3", "'abc", "'", "''", "plain", "=a,\"b\"\n-c"}) {
            const CsvTable rows = parse_csv_table("h\n" + csv_text_cell(text) + "\n", "t.csv");
            QCOMPARE(qs(rows.rows.at(0).cells.at(0)), qs(text));
            const CsvTable header = parse_csv_table(csv_text_cell(text) + ",other\n1,2\n", "t.csv");
            QCOMPARE(qs(header.header.at(0)), qs(text));
        }
        // A guarded number, as a spreadsheet user may type it, reads as the number.
        QCOMPARE(*parse_number(parse_csv_table("x\n'-2.5\n", "t.csv").rows[0].cells[0]), -2.5);
    }

    // The trial export: the hostile cells guarded byte for byte, numbers untouched.
    void the_trials_export_guards_names_values_errors_and_reasons() {
        Experiment e = hostile_experiment(TrialStatus::Completed);
        e.trials[1].status = TrialStatus::Failed;
        e.trials[1].values.clear();
        e.trials[1].error = "=cmd|' /C calc'!A0";
        e.trials[2].exclusion = TrialExclusion{"@unit slip", ""};
        QVERIFY2(!e.validate(), e.validate()->c_str());
        const std::string csv = trials_to_csv(e);
        QCOMPARE(qs(csv),
                 qs("trial,status,'-loss,'-loss_sem,active,generator,\"'=HYPERLINK(\"\"http://x.invalid\"\",\"\"open\"\")\","
                    "mode,error,excluded\n"
                    "0,completed,-0.25,0.5,1,'+sobol,-2.5,'-low,,\n"
                    "1,failed,,,2,'+sobol,1,'@risk,'=cmd|' /C calc'!A0,\n"
                    "2,completed,-0.001,0.5,1,'+sobol,0,-2.5,,'@unit slip\n"));

        // Read back, every text is the experiment's own.
        const CsvTable table = parse_csv_table(csv, "trials.csv");
        QCOMPARE(qs(table.header[2]), QString("-loss"));
        QCOMPARE(qs(table.header[6]), qs(kLinkName));
        QCOMPARE(qs(table.rows[0].cells[5]), QString("+sobol"));
        QCOMPARE(qs(table.rows[0].cells[7]), QString("-low"));
        QCOMPARE(qs(table.rows[1].cells[7]), QString("@risk"));
        QCOMPARE(qs(table.rows[1].cells[8]), QString("=cmd|' /C calc'!A0"));
        QCOMPARE(qs(table.rows[2].cells[9]), QString("@unit slip"));
    }

    // `sebo import`: the completed trials of the export become the same trials of a fresh
    // experiment (the parameter found by its name, the choice by its value, the metric by its name).
    void the_trials_export_imports_back_exactly() {
        const Experiment source = hostile_experiment(TrialStatus::Completed);
        QVERIFY2(!source.validate(), source.validate()->c_str());
        Experiment fresh = source;
        fresh.trials.clear();
        const TrialImport imported = import_trials(fresh, parse_csv_table(trials_to_csv(source), "trials.csv"));
        QVERIFY2(imported.problems.empty(), imported.problems.empty() ? "" : imported.problems.front().c_str());
        QCOMPARE(imported.trials.size(), source.trials.size());
        for (std::size_t i = 0; i < source.trials.size(); ++i) {
            QCOMPARE(imported.trials[i].parameters, source.trials[i].parameters);
            QCOMPARE(imported.trials[i].values.at("-loss").mean, source.trials[i].values.at("-loss").mean);
            QCOMPARE(imported.trials[i].values.at("-loss").sem, std::optional<double>(0.5));
        }
    }

    // `sebo observe --csv`: the export matched to pending trials by their index (and the values
    // beside it checked against theirs), and a sheet without a trial column by the values of
    // every parameter column.
    void the_trials_export_matches_pending_trials() {
        const Experiment measured = hostile_experiment(TrialStatus::Completed);
        const Experiment pending = hostile_experiment(TrialStatus::Pending);
        const std::string csv = trials_to_csv(measured);
        const ResultsMatch by_index = match_results(pending, parse_csv_table(csv, "results.csv"));
        QVERIFY(by_index.complete());
        QCOMPARE(by_index.results.size(), std::size_t{3});
        // A sheet without the trial column, as a person might keep it.
        const std::string sheet = "'-loss,\"'=HYPERLINK(\"\"http://x.invalid\"\",\"\"open\"\")\",mode\n"
                                  "-0.25,-2.5,'-low\n"
                                  "3,1,'@risk\n"
                                  "-0.001,0,-2.5\n";
        const ResultsMatch by_values = match_results(pending, parse_csv_table(sheet, "results.csv"));
        QVERIFY(by_values.complete());
        QCOMPARE(by_values.results.size(), std::size_t{3});
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(by_values.results[static_cast<std::size_t>(i)].trial, i);
            QCOMPARE(by_values.results[static_cast<std::size_t>(i)].values.at("-loss").mean,
                     measured.trials[static_cast<std::size_t>(i)].values.at("-loss").mean);
        }
    }

    // One configuration: name, value and target guarded; read back as they were.
    void the_configuration_export_round_trips() {
        const Experiment e = hostile_experiment(TrialStatus::Completed);
        const std::string csv = configuration_to_csv(e, 1, false);
        QCOMPARE(qs(csv), qs("parameter,value,target,changed\n"
                             "\"'=HYPERLINK(\"\"http://x.invalid\"\",\"\"open\"\")\",1,0,true\n"
                             "mode,'@risk,'-low,true\n"));
        const CsvTable table = parse_csv_table(csv, "chosen.csv");
        QCOMPARE(qs(table.rows[0].cells[0]), qs(kLinkName));
        QCOMPARE(qs(table.rows[1].cells[1]), QString("@risk"));
        QCOMPARE(qs(table.rows[1].cells[2]), QString("-low"));
        // The number value of the choice and a negative parameter value are written as numbers.
        QCOMPARE(qs(configuration_to_csv(e, 0, false)), qs("parameter,value,target,changed\n"
                                                           "\"'=HYPERLINK(\"\"http://x.invalid\"\",\"\"open\"\")\",-2.5,0,true\n"
                                                           "mode,'-low,'-low,false\n"));
        QCOMPARE(qs(configuration_to_csv(e, 2, true)), QString("parameter,value,target,changed\nmode,-2.5,'-low,true\n"));
    }
};

SEBO_TEST_MAIN(TestCsvFormulas)
}  // namespace test_csv_formulas
#include "test_csv_formulas.moc"
