// The report to share (report/report_html.h): every section with the numbers of a hand-built
// experiment (two objectives, an outcome constraint, a tracked metric, a choice, a fixed parameter
// and a linear constraint), user text escaped everywhere, nothing that a browser would fetch, and
// well-formed inline SVG charts — one frontier chart per objective for 1 to 4 objectives. And the
// SHA-256 the report names its file by, against the FIPS 180-4 examples and Qt's implementation.
#include <QCryptographicHash>
#include <QRegularExpression>
#include <random>
#include <set>

#include "core/format.h"
#include "core/sha256.h"
#include "experiment/analytics.h"
#include "parameter_builders.h"
#include "report/report_html.h"
#include "report/svg_chart.h"
#include "test_main.h"
#include "test_support.h"

namespace test_report_html {

using namespace sebo;

namespace {

const std::string kEvil = "<script>alert('x')</script> & co";

// cache_mb (integer, target 256), mode (plain|fast|safe), a parameter named like markup, ratio;
// region fixed at 3; evil + ratio <= 1.5. throughput (max), p99 (min), memory <= 100, cost tracked.
Experiment service() {
    Experiment e;
    e.name = "Service <tuning> & co";
    e.description = "Two objectives & a limit.";
    Parameter cache = test::integer("cache_mb", 64, 4096);
    cache.target = 256;
    LinearConstraint sum;
    sum.terms = {{2, 1.0}, {3, 1.0}};
    sum.bound = 1.5;
    e.space = SearchSpace({cache, test::choice("mode", {"plain", "fast", "safe"}), test::continuous(kEvil),
                           test::continuous("ratio"), test::fixed("region", 3)},
                          {sum});
    e.outcomes.metrics = {"throughput", "p99", "memory", "cost"};
    e.outcomes.objectives = {Objective{"throughput", false, std::nullopt}, Objective{"p99", true, std::nullopt}};
    e.outcomes.constraints = {OutcomeConstraint{"memory", ConstraintSense::AtMost, 100.0}};
    e.evaluator.kind = EvaluatorSpec::Kind::Command;
    e.evaluator.command = {"./measure.sh", "--load", "a b"};
    e.method.strategy = StrategyKind::SeboL0;
    e.method.initial_trials = 4;
    e.method.budget = 30;
    e.seed = 17;
    const auto add = [&](std::vector<double> p, TrialStatus status, std::map<std::string, double> values) {
        Trial t;
        t.index = e.next_trial_index();
        t.parameters = std::move(p);
        t.status = status;
        for (const auto& [metric, value] : values) t.values[metric] = {value, std::nullopt};
        t.generator = "sobol";
        t.created_at = "2026-11-20T10:0" + std::to_string(t.index) + ":00Z";
        if (status == TrialStatus::Completed) t.completed_at = "2026-11-20T11:0" + std::to_string(t.index) + ":00Z";
        e.trials.push_back(t);
    };
    const auto C = TrialStatus::Completed;
    add({256, 0, 0, 0}, C, {{"throughput", 1000}, {"p99", 50}, {"memory", 80}, {"cost", 5}});   // 0: status quo
    add({811, 0, 0, 0}, C, {{"throughput", 1100}, {"p99", 45}, {"memory", 90}, {"cost", 6}});   // 1: chosen
    add({811, 1, 0, 0}, C, {{"throughput", 1200}, {"p99", 40}, {"memory", 95}, {"cost", 7}});   // 2: beats 1
    add({2048, 1, 0.5, 0}, C, {{"throughput", 1500}, {"p99", 30}, {"memory", 150}});           // 3: infeasible
    add({256, 2, 0, 0}, C, {{"throughput", 5000}, {"p99", 1}, {"memory", 50}});                // 4: excluded
    add({300, 0, 0, 0}, TrialStatus::Failed, {});                                              // 5: failed
    add({400, 0, 0, 0}, TrialStatus::Pending, {});                                             // 6: pending
    add({256, 0, 0, 0.25}, C, {{"throughput", 1050}, {"p99", 48}, {"memory", 85}});            // 7: a poor fit
    e.trials[4].exclusion = TrialExclusion{"timeout <b>reported</b> as a value", "2026-11-21T08:00:00Z"};
    e.trials[5].error = "exit 3: <oops> & crash";
    e.trials[7].completed_at = "2026-11-21T09:00:00Z";
    e.trials[7].generator = "sebo-l0";
    FitRecord fit;
    fit.nuts = "fast";
    fit.chains = 4;
    fit.start = "warm";
    fit.warmup = 64;
    fit.draws = 64;
    fit.rhat = 1.3;
    fit.ess_bulk = 50;
    fit.seconds = 2;
    e.trials[7].fit = fit;
    e.chosen = {ChosenConfiguration{1, "<script>steal()</script> & keep it"}};
    return e;
}

std::string report(const Experiment& e) {
    return report_html(e, analyze_frontier(e), ReportSource{"/data/a <b>.sebo.json", std::string(64, 'f'), false},
                       ReportOptions{"2026-11-28T08:00:00Z", "SEBO Explorer 9.9"});
}

int count(const std::string& text, const std::string& what) {
    int n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
    return n;
}

// The text between the <h2> of a section and the next <h2> (or the end).
std::string section(const std::string& html, const std::string& heading) {
    const std::size_t start = html.find("<h2>" + heading + "</h2>");
    if (start == std::string::npos) return {};
    const std::size_t end = html.find("<h2>", start + 4);
    return html.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// Every start tag closed by its own end tag, in order (void elements and "/>" need none); empty
// when balanced, otherwise what went wrong.
std::string unbalanced_tags(const std::string& markup) {
    static const std::set<std::string> kVoid = {"meta", "br", "!DOCTYPE"};
    std::vector<std::string> open;
    for (std::size_t at = markup.find('<'); at != std::string::npos; at = markup.find('<', at + 1)) {
        const std::size_t close = markup.find('>', at);
        if (close == std::string::npos) return "a tag at " + std::to_string(at) + " is not closed";
        const std::string tag = markup.substr(at + 1, close - at - 1);
        const bool end = !tag.empty() && tag[0] == '/';
        std::string name = tag.substr(end ? 1 : 0);
        name = name.substr(0, name.find_first_of(" \n/"));
        if (end) {
            if (open.empty() || open.back() != name)
                return "</" + name + "> closes " + (open.empty() ? std::string("nothing") : "<" + open.back() + ">");
            open.pop_back();
        } else if (!tag.empty() && tag.back() != '/' && !kVoid.count(name)) {
            open.push_back(name);
        }
    }
    return open.empty() ? std::string() : "<" + open.back() + "> is never closed";
}

std::vector<std::string> svgs(const std::string& html) {
    std::vector<std::string> out;
    for (std::size_t at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1)) {
        const std::size_t end = html.find("</svg>", at);
        if (end == std::string::npos) break;
        out.push_back(html.substr(at, end + 6 - at));
    }
    return out;
}

}  // namespace

class TestReportHtml : public QObject {
    Q_OBJECT
private slots:
    void sha256OfTheFipsExamplesAndOfQt() {
        QCOMPARE(sha256_hex(""), std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        QCOMPARE(sha256_hex("abc"), std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QCOMPARE(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                 std::string("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
        QCOMPARE(sha256_hex(std::string(1000000, 'a')),
                 std::string("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
        // Every tail length (a one- or two-block end) against Qt's implementation.
        std::mt19937 random(5);
        for (int length = 0; length < 300; ++length) {
            std::string bytes(static_cast<std::size_t>(length), '\0');
            for (char& c : bytes) c = static_cast<char>(random() & 0xff);
            const QByteArray expected =
                QCryptographicHash::hash(QByteArray(bytes.data(), length), QCryptographicHash::Sha256).toHex();
            QCOMPARE(QByteArray::fromStdString(sha256_hex(bytes)), expected);
        }
    }

    void everySectionInOrder() {
        const std::optional<std::string> invalid = service().validate();
        QVERIFY2(!invalid, invalid.value_or("").c_str());
        const std::string html = report(service());
        std::size_t last = 0;
        for (const char* heading : {"The question", "The frontier", "Chosen configurations", "Progress", "Method", "Warnings",
                                    "Where this came from"}) {
            const std::size_t at = html.find(std::string("<h2>") + heading + "</h2>");
            QVERIFY2(at != std::string::npos && at > last, heading);
            last = at;
        }
        QVERIFY(html.find("<title>Service &lt;tuning&gt; &amp; co</title>") != std::string::npos);
    }

    void theQuestion() {
        const std::string q = section(report(service()), "The question");
        QVERIFY(q.find("throughput (maximize); p99 (minimize)") != std::string::npos);
        QVERIFY(q.find("memory &lt;= 100") != std::string::npos);
        QVERIFY(q.find("Tracked metrics:</strong> cost") != std::string::npos);
        QVERIFY(q.find("4 parameters to tune (2 continuous, 1 integer, 1 choice)") != std::string::npos);
        QVERIFY(q.find("region = 3") != std::string::npos);
        // The constraint names the markup-like parameter in quotes, escaped.
        QVERIFY2(q.find("&#39;&lt;script&gt;alert(&#39;&#39;x&#39;&#39;)&lt;/script&gt; &amp; co&#39; + ratio &lt;= 1.5") !=
                     std::string::npos,
                 q.c_str());
        // The status quo of each parameter: a choice by its value.
        QVERIFY(q.find("<td>mode</td><td>choice</td><td>plain | fast | safe</td><td>plain</td>") != std::string::npos);
        QVERIFY(q.find("<td>cache_mb</td><td>integer</td><td>64 to 4096</td><td>256</td>") != std::string::npos);
    }

    void theFrontierPerNumberOfChanges() {
        const std::string f = section(report(service()), "The frontier");
        // k = 0: the status quo; k = 1: trial 1 (chosen); k = 2 to 4: trial 2 (3 is infeasible).
        QVERIFY2(f.find("<td rowspan=\"1\">0</td><td>0</td><td class=\"number\">0</td><td class=\"number\">1000</td>"
                        "<td class=\"number\">50</td><td class=\"number\">80</td><td class=\"number\">5</td>"
                        "<td>no change (the status quo)</td>") != std::string::npos,
                 f.c_str());
        QVERIFY(f.find("<td rowspan=\"1\">1</td><td>1 <span class=\"badge\">chosen</span></td><td class=\"number\">1</td>"
                       "<td class=\"number\">1100</td><td class=\"number\">45</td><td class=\"number\">90</td>"
                       "<td class=\"number\">6</td><td>cache_mb 256 \u2192 811</td>") != std::string::npos);
        QVERIFY(f.find("<td rowspan=\"1\">2\u20134</td><td>2</td><td class=\"number\">2</td><td class=\"number\">1200</td>") !=
                std::string::npos);
        QVERIFY(f.find("cache_mb 256 \u2192 811<br>mode plain \u2192 fast") != std::string::npos);
        QCOMPARE(count(f, "<tr class=\"level\">"), 3);
        // Trials 3 (infeasible), 4 (excluded) and 7 (dominated) are in no row.
        QCOMPARE(count(f, "<td class=\"number\">1500</td>"), 0);
        QCOMPARE(count(f, "<td class=\"number\">5000</td>"), 0);
        QCOMPARE(count(f, "<td class=\"number\">1050</td>"), 0);
        // One chart per objective, its staircase through the best values, the infeasible trial hollow.
        QCOMPARE(count(f, "<svg"), 2);
        QVERIFY(f.find("trial 3: throughput 1500, 3 changed, infeasible") != std::string::npos);
        QVERIFY(f.find("trial 2: p99 40, 2 changed") != std::string::npos);
    }

    void chosenComparedWithTheStatusQuo() {
        const std::string c = section(report(service()), "Chosen configurations");
        QVERIFY(c.find("<h3>Trial 1</h3>") != std::string::npos);
        QVERIFY(c.find("<p class=\"chosen-note\">&lt;script&gt;steal()&lt;/script&gt; &amp; keep it</p>") != std::string::npos);
        QVERIFY(c.find("<p><strong>1 change</strong>:<br>cache_mb 256 \u2192 811</p>") != std::string::npos);
        QVERIFY2(c.find("<tr><td>throughput</td><td>maximize</td><td class=\"number\">1000</td><td class=\"number\">1100</td>"
                        "<td class=\"number\">+100</td><td class=\"number\">+10 %</td><td>better</td></tr>") != std::string::npos,
                 c.c_str());
        QVERIFY(c.find("<tr><td>p99</td><td>minimize</td><td class=\"number\">50</td><td class=\"number\">45</td>"
                       "<td class=\"number\">-5</td><td class=\"number\">-10 %</td><td>better</td></tr>") != std::string::npos);
        QVERIFY(c.find("<td class=\"number\">+10</td><td class=\"number\">+12.5 %</td><td>holds memory &lt;= 100</td>") !=
                std::string::npos);
        QVERIFY(c.find("<tr><td>cost</td><td>tracked</td><td class=\"number\">5</td><td class=\"number\">6</td>"
                       "<td class=\"number\">+1</td><td class=\"number\">+20 %</td><td></td></tr>") != std::string::npos);
        // Trial 2 beats it on both objectives and is feasible (experiment/overtaken_choices.h).
        QVERIFY(c.find("Trial 2 is feasible and better on every objective than this one") != std::string::npos);
    }

    void progressAndActivation() {
        const Experiment e = service();
        const std::string p = section(report(e), "Progress");
        QVERIFY(p.find("<strong>" + format_short(analyze_frontier(e).hypervolume) + "</strong>") != std::string::npos);
        QCOMPARE(count(p, "<svg"), 2);
        // The frontier's trials are 0, 1 and 2: cache_mb changed in two of three, mode in one.
        QVERIFY2(p.find("<title>cache_mb: 67 %</title>") != std::string::npos, p.c_str());
        QVERIFY(p.find("<title>mode: 33 %</title>") != std::string::npos);
        QVERIFY(p.find("Never changed on the frontier: &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co, ratio.") !=
                std::string::npos);
    }

    void methodWarningsAndSource() {
        const std::string html = report(service());
        const std::string m = section(html, "Method");
        QVERIFY(m.find("<th>strategy</th><td>sebo-l0") != std::string::npos);
        QVERIFY(m.find("<th>seed</th><td>17</td>") != std::string::npos);
        QVERIFY(m.find("largest R-hat 1.3") != std::string::npos);
        QVERIFY2(m.find("<th>dense start under noise</th><td>15 trials, up to 30 while the model knows no parameter to matter, "
                        "noisy EI, then Thompson sampling") != std::string::npos,
                 m.c_str());
        const std::string w = section(html, "Warnings");
        QVERIFY2(w.find("The model fit that proposed trial 7 did not converge: R-hat 1.3 of the log density is above 1.05") !=
                     std::string::npos,
                 w.c_str());
        QVERIFY(w.find("Trial 4 is excluded from the analysis: timeout &lt;b&gt;reported&lt;/b&gt; as a value.") != std::string::npos);
        QVERIFY(w.find("Trial 5 failed: exit 3: &lt;oops&gt; &amp; crash.") != std::string::npos);
        QVERIFY(w.find("1 trial is still waiting for a result (6).") != std::string::npos);
        QVERIFY(w.find("1 trial does not satisfy every outcome constraint (3)") != std::string::npos);
        QVERIFY(w.find("Chosen trial 1 is beaten on every objective by trial 2, which is feasible.") != std::string::npos);
        const std::string s = section(html, "Where this came from");
        QVERIFY(s.find("<code>/data/a &lt;b&gt;.sebo.json</code>") != std::string::npos);
        QVERIFY(s.find("<code class=\"hash\">" + std::string(64, 'f') + "</code>") != std::string::npos);
        QVERIFY(s.find("8: 6 completed (1 excluded), 1 failed, 1 pending, 0 abandoned") != std::string::npos);
        QVERIFY(s.find("<th>first trial</th><td>2026-11-20T10:00:00Z</td>") != std::string::npos);
        QVERIFY(s.find("<th>last recorded</th><td>2026-11-21T09:00:00Z</td>") != std::string::npos);
        QVERIFY(s.find("<code>./measure.sh --load &#39;a b&#39;</code>") != std::string::npos);
        QVERIFY(s.find("written 2026-11-28T08:00:00Z by SEBO Explorer 9.9") != std::string::npos);
    }

    void userTextNeverBecomesMarkupAndNothingIsFetched() {
        const std::string html = report(service());
        QCOMPARE(count(html, "<script"), 0);
        QCOMPARE(count(html, "<b>"), 0);
        QCOMPARE(count(html, "<oops>"), 0);
        QVERIFY(!QRegularExpression("(src|href)\\s*=", QRegularExpression::CaseInsensitiveOption).match(QString::fromStdString(html)).hasMatch());
        QVERIFY(!QString::fromStdString(html).contains("http", Qt::CaseInsensitive));
        for (const char* fetching : {"<link", "<img", "<iframe", "<object", "@import", "url("})
            QVERIFY2(html.find(fetching) == std::string::npos, fetching);
    }

    void wellFormedMarkup() {
        const std::string html = report(service());
        QCOMPARE(unbalanced_tags(html), std::string());
        const std::vector<std::string> charts = svgs(html);
        QCOMPARE(charts.size(), std::size_t{4});  // two frontiers, the hypervolume, the activation
        for (const std::string& svg : charts) {
            QCOMPARE(unbalanced_tags(svg), std::string());
            QVERIFY(svg.find("nan") == std::string::npos);
            QCOMPARE(count(svg, "<text"), count(svg, "</text>"));
        }
        // The checker itself finds a tag left open and one closed out of order.
        QVERIFY(!unbalanced_tags("<svg><text>a</svg>").empty());
        QVERIFY(!unbalanced_tags("<svg><g>").empty());
    }

    void oneFrontierChartPerObjective_data() {
        QTest::addColumn<int>("objectives");
        for (int m = 1; m <= Outcomes::kMaxObjectives; ++m) QTest::newRow(std::to_string(m).c_str()) << m;
    }
    void oneFrontierChartPerObjective() {
        QFETCH(int, objectives);
        Experiment e;
        e.space = SearchSpace({test::continuous("x"), test::continuous("y")});
        e.outcomes = Outcomes{};
        e.outcomes.metrics = {"a", "b", "c", "d"};
        for (int j = 0; j < objectives; ++j) e.outcomes.objectives.push_back(Objective{e.outcomes.metrics[static_cast<std::size_t>(j)], j % 2 == 1, std::nullopt});
        for (int i = 0; i < 5; ++i) {
            Trial t;
            t.index = i;
            t.parameters = {0.1 * i, i % 2 ? 0.5 : 0.0};
            t.status = TrialStatus::Completed;
            for (int j = 0; j < 4; ++j) t.values[e.outcomes.metrics[static_cast<std::size_t>(j)]] = {double(i * (j + 1)), std::nullopt};
            e.trials.push_back(t);
        }
        QVERIFY(!e.validate());
        const std::string html = report(e);
        QCOMPARE(count(section(html, "The frontier"), "<svg"), objectives);
        QCOMPARE(count(html, "<svg"), objectives + 2);
        for (int j = 0; j < objectives; ++j)
            QVERIFY(html.find("<title>" + e.outcomes.metrics[static_cast<std::size_t>(j)] +
                              " against the number of changed parameters</title>") != std::string::npos);
        QCOMPARE(unbalanced_tags(html), std::string());
    }

    void longChangeListsAndTrialsOnSeveralLevels() {
        // 14 parameters; trial 2 changes all of them, trial 1 is on the front at k = 1 and again at k = 14.
        Experiment e;
        std::vector<Parameter> parameters;
        for (int i = 0; i < 14; ++i) parameters.push_back(test::continuous("p" + two_digits(i)));
        e.space = SearchSpace(parameters);
        e.outcomes = Outcomes{};
        e.outcomes.metrics = {"a", "b"};
        e.outcomes.objectives = {Objective{"a", false, std::nullopt}, Objective{"b", false, std::nullopt}};
        const auto add = [&](std::vector<double> p, double a, double b) {
            Trial t;
            t.index = e.next_trial_index();
            t.parameters = std::move(p);
            t.status = TrialStatus::Completed;
            t.values = {{"a", {a, std::nullopt}}, {"b", {b, std::nullopt}}};
            e.trials.push_back(t);
        };
        std::vector<double> one(14, 0.0);
        one[0] = 0.5;
        add(std::vector<double>(14, 0.0), 1, 1);
        add(one, 1, 2);
        add(std::vector<double>(14, 0.5), 3, 0.5);
        const std::string f = section(report(e), "The frontier");
        QVERIFY2(f.find("<td rowspan=\"1\">1\u201313</td><td>1</td>") != std::string::npos, f.c_str());
        QVERIFY(f.find("<td rowspan=\"2\">14</td><td>2</td>") != std::string::npos);
        QVERIFY(f.find("p11 0 \u2192 0.5<br>and 2 more</td>") != std::string::npos);
        QCOMPARE(count(f, "p12 0 \u2192 0.5"), 0);
        QCOMPARE(count(f, "<td>as above</td>"), 1);
        QCOMPARE(count(f, "<td>p00 0 \u2192 0.5</td>"), 1);
    }

    void niceScales() {
        const AxisScale counts = nice_scale(0, 50, true, 10);
        QCOMPARE(counts.lower, 0.0);
        QCOMPARE(counts.upper, 50.0);
        QCOMPARE(counts.ticks.size(), std::size_t{11});
        const AxisScale values = nice_scale(1047.2, 1373.9, false);
        QCOMPARE(values.lower, 1000.0);
        QCOMPARE(values.upper, 1400.0);
        QCOMPARE(values.ticks, (std::vector<double>{1000, 1100, 1200, 1300, 1400}));
        // Ticks are multiples of the step, not sums that drift (0.30000000000000004).
        QCOMPARE(format_number(nice_scale(0, 0.3, false, 3).ticks.at(3)), std::string("0.3"));
        const AxisScale zero = nice_scale(0, 0, false);
        QVERIFY(zero.lower < 0 && zero.upper > 0 && zero.upper - zero.lower >= 2);
        QVERIFY(nice_scale(1e17, 1e17 + 64, false).ticks.size() <= 100);  // terminates where 1e17 + 1 == 1e17
        const AxisScale broken = nice_scale(-std::numeric_limits<double>::max(), std::numeric_limits<double>::max(), false);
        QCOMPARE(broken.lower, 0.0);
        QCOMPARE(broken.upper, 1.0);
    }

    void anExperimentWithoutResults() {
        Experiment e;
        e.space = SearchSpace({test::continuous("x")});
        const std::string html = report_html(e, analyze_frontier(e), ReportSource{});
        QVERIFY(html.find("No trial counts yet") != std::string::npos);
        QVERIFY(html.find("No configuration is chosen yet") != std::string::npos);
        QVERIFY(html.find("not saved to a file") != std::string::npos);
        QCOMPARE(unbalanced_tags(html), std::string());
    }
};

SEBO_TEST_MAIN(TestReportHtml)
}  // namespace test_report_html
#include "test_report_html.moc"
