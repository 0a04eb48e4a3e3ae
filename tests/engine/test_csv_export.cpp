// CSV/JSON export of trials and configurations, checked cell by cell against hand-written
// expectations, with an independent RFC 4180 reader for the quoted cells.

#include <nlohmann/json.hpp>

#include "core/input_error.h"
#include "io/csv_export.h"
#include "io/csv_table.h"
#include "test_main.h"
#include "test_support.h"

namespace test_csv_export {

using namespace sebo;

namespace {

using Table = std::vector<std::vector<std::string>>;

// Minimal RFC 4180 reader: quoted fields may hold commas, doubled quotes and line breaks.
Table parse_csv(const std::string& text) {
    Table rows;
    std::vector<std::string> row;
    std::string cell;
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                cell += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                cell += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            row.push_back(cell);
            cell.clear();
        } else if (c == '\n') {
            row.push_back(cell);
            cell.clear();
            rows.push_back(row);
            row.clear();
        } else {
            cell += c;
        }
    }
    if (!cell.empty() || !row.empty()) rows.push_back(row);  // a missing final line break
    return rows;
}

QStringList q(const std::vector<std::string>& cells) {
    QStringList out;
    for (const auto& c : cells) out << QString::fromStdString(c);
    return out;
}

Parameter make_parameter(std::string name, double lo, double hi) {
    Parameter p;
    p.name = std::move(name);
    p.lower = lo;
    p.upper = hi;
    return p;
}

// a: target 0; "b,c": explicit target 0.5; n: integer, target 0.
Experiment export_experiment() {
    Experiment e;
    Parameter b = make_parameter("b,c", 0.0, 1.0);
    b.target = 0.5;
    Parameter n = make_parameter("n", 0.0, 10.0);
    n.kind = ParameterKind::Integer;
    e.space = SearchSpace({make_parameter("a", -1.0, 1.0), b, n});
    Trial t0;
    t0.index = 0;
    t0.status = TrialStatus::Completed;
    t0.parameters = {0.1, 0.5, 7.0};  // active: a, n
    t0.values = {{"objective", {1.5, 0.25}}};
    t0.generator = "sobol";
    Trial t1;
    t1.index = 1;
    t1.status = TrialStatus::Failed;
    t1.parameters = {0.0, 0.75, 0.0};  // active: b,c
    t1.generator = "manual";
    t1.error = "he said \"no\", then\nleft";
    Trial t2;
    t2.index = 4;
    t2.status = TrialStatus::Pending;
    t2.parameters = {-1.0, 0.0, 10.0};  // all active
    t2.generator = "sebo-l0";
    Trial t3;
    t3.index = 2;
    t3.status = TrialStatus::Completed;
    t3.parameters = {0.0, 0.5, 0.0};  // the target itself
    t3.values = {{"objective", {-1e-300, std::nullopt}}};
    t3.generator = "sobol";
    t3.exclusion = TrialExclusion{"unit slip, \"ms\" not s", "2026-11-25T22:40:00Z"};
    e.trials = {t0, t1, t2, t3};
    return e;
}

}  // namespace

class TestCsvExport : public QObject {
    Q_OBJECT
private slots:
    void quoting() {
        QCOMPARE(QString::fromStdString(csv_quote("plain text")), QString("plain text"));
        QCOMPARE(QString::fromStdString(csv_quote("")), QString(""));
        QCOMPARE(QString::fromStdString(csv_quote("a,b")), QString("\"a,b\""));
        QCOMPARE(QString::fromStdString(csv_quote("say \"hi\"")), QString("\"say \"\"hi\"\"\""));
        QCOMPARE(QString::fromStdString(csv_quote("two\nlines")), QString("\"two\nlines\""));
        QCOMPARE(QString::fromStdString(csv_quote("cr\rhere")), QString("\"cr\rhere\""));
        QCOMPARE(QString::fromStdString(csv_quote("µ ✓ 'single'")), QString::fromUtf8("µ ✓ 'single'"));
    }

    void trials_cell_by_cell() {
        const Experiment e = export_experiment();
        QVERIFY(!e.validate());
        const std::string csv = trials_to_csv(e);
        const Table t = parse_csv(csv);
        QCOMPARE(t.size(), std::size_t{5});
        QCOMPARE(q(t[0]), (QStringList{"trial", "status", "objective", "objective_sem", "active", "generator", "a", "b,c", "n",
                                       "error", "excluded"}));
        QCOMPARE(q(t[1]), (QStringList{"0", "completed", "1.5", "0.25", "2", "sobol", "0.1", "0.5", "7", "", ""}));
        QCOMPARE(q(t[2]), (QStringList{"1", "failed", "", "", "1", "manual", "0", "0.75", "0", "he said \"no\", then\nleft", ""}));
        QCOMPARE(q(t[3]), (QStringList{"4", "pending", "", "", "3", "sebo-l0", "-1", "0", "10", "", ""}));
        // An excluded trial keeps its value; the last cell says why it does not count.
        QCOMPARE(q(t[4]), (QStringList{"2", "completed", "-1e-300", "", "0", "sobol", "0", "0.5", "0", "",
                                       "unit slip, \"ms\" not s"}));
        // The raw text: quoted header name and error cell, one "\n" per row.
        QVERIFY(csv.rfind("trial,status,objective,objective_sem,active,generator,a,\"b,c\",n,error,excluded\n", 0) == 0);
        QVERIFY(csv.find("1,failed,,,1,manual,0,0.75,0,\"he said \"\"no\"\", then\nleft\",\n") != std::string::npos);
        QVERIFY(csv.back() == '\n');
    }

    void active_counts_groups_when_the_space_has_groups() {
        Experiment e = export_experiment();
        std::vector<Parameter> ps = e.space.parameters();
        ps[0].group = "g";
        ps[2].group = "g";  // a and n form one group: t0 (a, n active) has 1 active group
        e.space = SearchSpace(ps);
        const Table t = parse_csv(trials_to_csv(e));
        QCOMPARE(QString::fromStdString(t[1][4]), QString("1"));
        QCOMPARE(QString::fromStdString(t[2][4]), QString("1"));  // b,c
        QCOMPARE(QString::fromStdString(t[3][4]), QString("2"));  // both groups
    }

    void configuration_csv() {
        const Experiment e = export_experiment();
        const Table all = parse_csv(configuration_to_csv(e, 0, false));
        QCOMPARE(all.size(), std::size_t{4});
        QCOMPARE(q(all[0]), (QStringList{"parameter", "value", "target", "changed"}));
        QCOMPARE(q(all[1]), (QStringList{"a", "0.1", "0", "true"}));
        QCOMPARE(q(all[2]), (QStringList{"b,c", "0.5", "0.5", "false"}));
        QCOMPARE(q(all[3]), (QStringList{"n", "7", "0", "true"}));
        const Table changed = parse_csv(configuration_to_csv(e, 0, true));
        QCOMPARE(changed.size(), std::size_t{3});
        QCOMPARE(q(changed[1]), (QStringList{"a", "0.1", "0", "true"}));
        QCOMPARE(q(changed[2]), (QStringList{"n", "7", "0", "true"}));
        // The target configuration with changed_only has a header and nothing else.
        QCOMPARE(QString::fromStdString(configuration_to_csv(e, 2, true)), QString("parameter,value,target,changed\n"));
        QCOMPARE(QString::fromStdString(configuration_to_csv(e, 1, true)),
                 QString("parameter,value,target,changed\n\"b,c\",0.75,0.5,true\n"));
    }

    void configuration_json() {
        using Json = nlohmann::ordered_json;
        const Experiment e = export_experiment();
        const Json all = Json::parse(configuration_to_json(e, 0, false));
        QCOMPARE(all["trial"].get<int>(), 0);
        QCOMPARE(all["objective"].get<double>(), 1.5);
        QCOMPARE(all["active"].get<int>(), 2);
        const Json& p = all["parameters"];
        QCOMPARE(p.size(), std::size_t{3});
        // The order of the search space, not alphabetical.
        std::vector<std::string> keys;
        for (auto it = p.begin(); it != p.end(); ++it) keys.push_back(it.key());
        QCOMPARE(q(keys), (QStringList{"a", "b,c", "n"}));
        QCOMPARE(p["a"].get<double>(), 0.1);
        QCOMPARE(p["b,c"].get<double>(), 0.5);
        QVERIFY(p["n"].is_number_integer());  // 7, not 7.0
        QCOMPARE(p["n"].get<int>(), 7);
        // Top-level key order as documented.
        std::vector<std::string> top;
        for (auto it = all.begin(); it != all.end(); ++it) top.push_back(it.key());
        QCOMPARE(q(top), (QStringList{"trial", "objective", "metrics", "active", "parameters"}));
        QCOMPARE(QString::fromStdString(all["metrics"].dump()), QString(R"({"objective":{"mean":1.5,"sem":0.25}})"));

        const Json changed = Json::parse(configuration_to_json(e, 4, true));
        QVERIFY(changed["objective"].is_null());  // pending: no value
        QVERIFY(changed["metrics"].empty());
        QCOMPARE(changed["active"].get<int>(), 3);
        QCOMPARE(changed["parameters"].size(), std::size_t{3});
        QCOMPARE(changed["parameters"]["b,c"].get<double>(), 0.0);
        const Json sparse = Json::parse(configuration_to_json(e, 1, true));
        QCOMPARE(sparse["parameters"].size(), std::size_t{1});
        QCOMPARE(sparse["parameters"]["b,c"].get<double>(), 0.75);
        QVERIFY(sparse["objective"].is_null());  // failed
        // An excluded trial says so, before its parameters.
        const Json excluded = Json::parse(configuration_to_json(e, 2, false));
        QCOMPARE(QString::fromStdString(excluded["excluded"].get<std::string>()), QString("unit slip, \"ms\" not s"));
        std::vector<std::string> order;
        for (auto it = excluded.begin(); it != excluded.end(); ++it) order.push_back(it.key());
        QCOMPARE(q(order), (QStringList{"trial", "objective", "metrics", "active", "excluded", "parameters"}));
        QVERIFY(!all.contains("excluded"));
    }

    void missing_trial_is_an_input_error() {
        const Experiment e = export_experiment();
        for (int bad : {3, -1, 99}) {
            try {
                (void)configuration_to_json(e, bad, false);
                QFAIL("a missing trial was exported");
            } catch (const InputError& error) {
                QCOMPARE(QString::fromStdString(error.field()), QString("trial"));
                QVERIFY(QString(error.what()).contains(QString::number(bad)));
            }
            QVERIFY_THROWS_EXCEPTION(InputError, (void)configuration_to_csv(e, bad, true));
        }
    }

    void empty_experiment_has_only_the_header() {
        Experiment e;
        e.space = SearchSpace({make_parameter("x", 0, 1)});
        QCOMPARE(QString::fromStdString(trials_to_csv(e)),
                 QString("trial,status,objective,objective_sem,active,generator,x,error,excluded\n"));
    }

    // Several metrics: two columns each (value, standard error) in the experiment's order, and
    // a feasibility column with outcome constraints; the JSON of a configuration has every
    // recorded metric and its feasibility, and no "objective" with two objectives.
    void several_metrics() {
        using Json = nlohmann::ordered_json;
        Experiment e = export_experiment();
        e.outcomes.metrics = {"objective", "p99, ms", "cost"};
        e.outcomes.objectives.push_back({"p99, ms", true, std::nullopt});
        e.outcomes.constraints = {{"cost", ConstraintSense::AtMost, 10.0}};
        e.trials[0].values["p99, ms"] = {41.2, 0.8};
        e.trials[0].values["cost"] = {12.0, std::nullopt};
        e.trials[3].values["p99, ms"] = {40.0, std::nullopt};
        QVERIFY(!e.validate());
        const Table t = parse_csv(trials_to_csv(e));
        QCOMPARE(q(t[0]), (QStringList{"trial", "status", "objective", "objective_sem", "p99, ms", "p99, ms_sem", "cost",
                                       "cost_sem", "active", "feasible", "generator", "a", "b,c", "n", "error", "excluded"}));
        QCOMPARE(q(t[1]).mid(0, 10), (QStringList{"0", "completed", "1.5", "0.25", "41.2", "0.8", "12", "", "2", "false"}));
        QCOMPARE(q(t[2]).mid(0, 10), (QStringList{"1", "failed", "", "", "", "", "", "", "1", ""}));
        QCOMPARE(q(t[4]).mid(0, 10), (QStringList{"2", "completed", "-1e-300", "", "40", "", "", "", "0", "unknown"}));

        const Json j = Json::parse(configuration_to_json(e, 0, true));
        std::vector<std::string> top;
        for (auto it = j.begin(); it != j.end(); ++it) top.push_back(it.key());
        QCOMPARE(q(top), (QStringList{"trial", "metrics", "active", "feasible", "parameters"}));
        QCOMPARE(QString::fromStdString(j["metrics"].dump()),
                 QString(R"({"objective":{"mean":1.5,"sem":0.25},"p99, ms":{"mean":41.2,"sem":0.8},"cost":{"mean":12.0}})"));
        QCOMPARE(j["feasible"].get<bool>(), false);
        QCOMPARE(Json::parse(configuration_to_json(e, 2, true))["feasible"].get<std::string>(), std::string("unknown"));
        e.trials[0].values["cost"].mean = 10.0;  // the bound itself is allowed
        QCOMPARE(Json::parse(configuration_to_json(e, 0, true))["feasible"].get<bool>(), true);
    }

    // The chosen configurations in one sheet (issue 33 item 1): a note and a name over several lines
    // stay one cell each, every row has the trial and note in front, and the sheet reads back with
    // the engine's own reader (and the independent one above) to the same cells.
    void chosen_csv_keeps_multi_line_fields() {
        Experiment e = export_experiment();
        Parameter lines = make_parameter("first line\nsecond, line", 0.0, 1.0);
        e.space = SearchSpace({e.space.parameter(0), e.space.parameter(1), e.space.parameter(2), lines});
        for (Trial& t : e.trials) t.parameters.push_back(t.index == 0 ? 0.25 : 0.0);
        e.chosen = {{0, "fast, but check\nthe \"cold\" start"}, {2, "=the target"}};
        const std::string text = chosen_to_csv(e, false);
        const Table rows = parse_csv(text);
        QCOMPARE(rows.size(), std::size_t{1 + 4 + 4});
        QCOMPARE(q(rows[0]), (QStringList{"trial", "note", "parameter", "value", "target", "changed"}));
        for (std::size_t r = 1; r < rows.size(); ++r) QCOMPARE(rows[r].size(), std::size_t{6});
        QCOMPARE(q(rows[1]), (QStringList{"0", "fast, but check\nthe \"cold\" start", "a", "0.1", "0", "true"}));
        QCOMPARE(q(rows[4]), (QStringList{"0", "fast, but check\nthe \"cold\" start", "first line\nsecond, line", "0.25", "0", "true"}));
        // A note a spreadsheet would run as a formula is guarded (io/csv_cell.h).
        QCOMPARE(q(rows[5]), (QStringList{"2", "'=the target", "a", "0", "0", "false"}));
        QCOMPARE(q(rows[8]), (QStringList{"2", "'=the target", "first line\nsecond, line", "0", "0", "false"}));

        const CsvTable table = parse_csv_table(text, "chosen.csv");
        QCOMPARE(table.rows.size(), std::size_t{8});
        QCOMPARE(table.rows[3].cells[2], std::string("first line\nsecond, line"));
        QCOMPARE(table.rows[4].cells[1], std::string("=the target"));  // the reader removes the guard

        // Changed only: the rows of the parameters that differ from their targets.
        const Table changed = parse_csv(chosen_to_csv(e, true));
        QCOMPARE(changed.size(), std::size_t{1 + 3});
        QCOMPARE(q(changed[3]), (QStringList{"0", "fast, but check\nthe \"cold\" start", "first line\nsecond, line", "0.25", "0", "true"}));
    }

    void chosen_json_has_every_objective_and_the_notes() {
        using Json = nlohmann::ordered_json;
        Experiment e = export_experiment();
        e.chosen = {{0, "line one\nline two"}};
        const Json out = Json::parse(chosen_to_json(e, true));
        QCOMPARE(out["objective"]["name"].get<std::string>(), std::string("objective"));
        QCOMPARE(out["objectives"].size(), std::size_t{1});
        QCOMPARE(out["changed_only"].get<bool>(), true);
        QCOMPARE(out["configurations"].size(), std::size_t{1});
        QCOMPARE(out["configurations"][0]["note"].get<std::string>(), std::string("line one\nline two"));
        QCOMPARE(out["configurations"][0]["parameters"].size(), std::size_t{2});  // a and n changed
        QCOMPARE(out["configurations"][0]["trial"].get<int>(), 0);
    }
};

SEBO_TEST_MAIN(TestCsvExport)
}  // namespace test_csv_export
#include "test_csv_export.moc"
