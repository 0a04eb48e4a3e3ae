// The benchmark figures (ui/bench_plots.h) and the sebo-plot executable, on a hand-written
// results table (tests/fixtures/bench/small-results.csv): Branin in 4 dimensions (optimum
// 0.397887, effective x0 and x1), strategies "sobol" and "ei-ir/lambda=0.001", seeds 1 and 2,
// 4 trials each. With two seeds the standard error is |a − b| / 2, so every expected mean and
// ±2 SE edge below is worked out by hand from the table (comments give the two run values).

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QDir>
#include <QFileInfo>
#include <QHorizontalStackedBarSeries>
#include <QImage>
#include <QImageReader>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QProcess>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QTemporaryDir>
#include <QValueAxis>
#include <algorithm>

#include "bench/bench_results.h"
#include "bench/bench_plan.h"
#include "bench/bench_summary.h"
#include "bench_plots.h"
#include "test_support.h"
#include "test_main.h"

namespace test_bench_plots {

using namespace sebo;
using namespace sebo::ui;

namespace {

const char* kSobol = "sobol";
const char* kIr = "ei-ir/lambda=0.001";
constexpr double kOptimum = 0.397887;
constexpr double kTol = 1e-9;

QString fixture() { return QString::fromStdString(test::source_path("tests/fixtures/bench/small-results.csv")); }

template <typename Series>
QList<Series*> series_named(const QChart& chart, const QString& name) {
    QList<Series*> out;
    for (QAbstractSeries* s : chart.series())
        if (auto* typed = qobject_cast<Series*>(s); typed && s->name() == name) out << typed;
    return out;
}

// Compares the y values of points (and x rounded to the nearest integer, as strategies are
// shifted side by side in the frontier chart).
void compare_points(const QList<QPointF>& actual, const QList<QPointF>& expected, bool round_x = false) {
    QCOMPARE(actual.size(), expected.size());
    for (qsizetype i = 0; i < actual.size(); ++i) {
        if (round_x) {
            QCOMPARE(std::round(actual[i].x()), expected[i].x());
            QVERIFY(std::abs(actual[i].x() - expected[i].x()) < 0.35);
        } else {
            SEBO_COMPARE_NEAR(actual[i].x(), expected[i].x(), kTol);
        }
        SEBO_COMPARE_NEAR(actual[i].y(), expected[i].y(), 1e-9);
    }
}

// Pixels within a small distance of `color`.
int pixels_near(const QImage& image, const QColor& color) {
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (std::abs(c.red() - color.red()) + std::abs(c.green() - color.green()) +
                    std::abs(c.blue() - color.blue()) <=
                24)
                ++count;
        }
    return count;
}

struct Run {
    int code = -1;
    QString out, err;
};

Run run_sebo_plot(const QStringList& args) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    p.setProcessEnvironment(env);
    p.start(QString(SEBO_BINARY_DIR) + "/app/sebo-plot", args);
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

}  // namespace

class TestBenchPlots : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::vector<BenchRow> rows_;
    std::vector<ProblemSummary> problems_;

    const ProblemSummary& branin() const { return problems_.front(); }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        rows_ = read_bench_results(fixture().toStdString());
        QCOMPARE(rows_.size(), std::size_t(16));
        problems_ = summarize_bench(rows_);
        QCOMPARE(problems_.size(), std::size_t(1));
        QCOMPARE(branin().strategies.size(), std::size_t(2));
        QCOMPARE(branin().strategies[0].strategy, std::string(kSobol));
        QCOMPARE(branin().levels, (std::vector<int>{1, 2, 4}));
    }

    void fileLabels() {
        QCOMPARE(bench_file_label("ei-ir/lambda=0.001"), QString("ei-ir_lambda_0.001"));
        QCOMPARE(bench_file_label("a b:c\xC3\xA9.x_y-z"), QString("a_b_c_.x_y-z"));
        QVERIFY(bench_strategy_color(0) != bench_strategy_color(1));
    }

    // Best with at most k active per run (sobol: seed 1 −, 30, 20, 10, 10; seed 2 −, 50, 24, 24, 8.
    // ei-ir: seed 1 50, 50, 4.397887 ×3; seed 2 −, 50, 2.397887, 1.397887, 1.397887).
    void frontierMeansAndErrorBars() {
        const auto chart = bench_frontier_chart(branin());
        QVERIFY(chart);
        QVERIFY(chart->title().contains("branin"));
        const auto sobol = series_named<QLineSeries>(*chart, kSobol);
        QCOMPARE(sobol.size(), 1);
        // k = 0: no sobol run has a configuration with no active parameter — no point.
        compare_points(sobol[0]->points(), {{1, 40}, {2, 22}, {3, 17}, {4, 9}}, true);
        const auto ir = series_named<QLineSeries>(*chart, kIr);
        QCOMPARE(ir.size(), 1);
        compare_points(ir[0]->points(), {{0, 50}, {1, 50}, {2, 3.397887}, {3, 2.897887}, {4, 2.897887}}, true);
        // The two strategies are drawn side by side, not on top of each other.
        QVERIFY(sobol[0]->at(0).x() < 1.0 && ir[0]->at(1).x() > 1.0);

        // Error bars: one "I" per level with a nonzero SE, spanning mean ± 2 SE.
        const auto bar_span = [](QLineSeries* bar) {
            double lo = 1e300, hi = -1e300;
            for (const QPointF& p : bar->points()) {
                lo = std::min(lo, p.y());
                hi = std::max(hi, p.y());
            }
            return QPointF(lo, hi);
        };
        const auto sobol_bars = series_named<QLineSeries>(*chart, QString(kSobol) + " ± 2 SE");
        QCOMPARE(sobol_bars.size(), 4);
        const QList<QPointF> sobol_spans = {{20, 60}, {18, 26}, {3, 31}, {7, 11}};
        for (int i = 0; i < 4; ++i) {
            SEBO_COMPARE_NEAR(bar_span(sobol_bars[i]).x(), sobol_spans[i].x(), kTol);
            SEBO_COMPARE_NEAR(bar_span(sobol_bars[i]).y(), sobol_spans[i].y(), kTol);
            QCOMPARE(std::round(sobol_bars[i]->at(2).x()), double(i + 1));
        }
        // ei-ir at k = 0 (one run) and k = 1 (both 50) has no spread: no bar.
        const auto ir_bars = series_named<QLineSeries>(*chart, QString(kIr) + " ± 2 SE");
        QCOMPARE(ir_bars.size(), 3);
        SEBO_COMPARE_NEAR(bar_span(ir_bars[0]).x(), 1.397887, kTol);
        SEBO_COMPARE_NEAR(bar_span(ir_bars[0]).y(), 5.397887, kTol);
        SEBO_COMPARE_NEAR(bar_span(ir_bars[1]).x(), 2.897887 - 3.0, kTol);
        SEBO_COMPARE_NEAR(bar_span(ir_bars[1]).y(), 2.897887 + 3.0, kTol);

        // Only one ei-ir run found a configuration with 0 active: an open marker there only.
        const auto open = series_named<QScatterSeries>(*chart, QString(kIr) + " (not every seed)");
        QCOMPARE(open.size(), 1);
        compare_points(open[0]->points(), {{0, 50}}, true);
        QCOMPARE(ir[0]->pointConfiguration(0).value(QXYSeries::PointConfiguration::Visibility), QVariant(false));
        QVERIFY(ir[0]->pointConfiguration(1).isEmpty());
        QVERIFY(series_named<QScatterSeries>(*chart, QString(kSobol) + " (not every seed)").isEmpty());
        // The x range ends at D = 4 (sobol still improves there).
        auto* x = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).value(0));
        QVERIFY(x);
        QCOMPARE(x->max(), 4.5);
        QVERIFY(x->titleText().contains("open markers"));
    }

    // Means spanning two decades or more (Branin: hundreds at the all-target point, 0.4 at its
    // optimum) get a log axis, as in the GUI; bar ends at or below zero sit at its bottom.
    void frontierLogAxisOverDecades() {
        ProblemSummary p = branin();
        for (StrategySummary& s : p.strategies)
            for (LevelBest& level : s.frontier)
                if (level.best && level.k == 0) level.best->mean = 1000.0;
        const auto chart = bench_frontier_chart(p);
        auto* y = qobject_cast<QLogValueAxis*>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(y);
        QVERIFY(y->titleText().contains("log scale"));
        QVERIFY(y->min() <= 1.4 && y->max() >= 1000.0);
        for (QLineSeries* bar : series_named<QLineSeries>(*chart, QString(kIr) + " ± 2 SE"))
            QVERIFY(bar->at(0).y() >= y->min() * (1.0 - 1e-6));
        // Without the outlier: linear.
        QVERIFY(qobject_cast<QValueAxis*>(bench_frontier_chart(branin())->axes(Qt::Vertical).value(0)));
    }

    // Hypervolume per trial (sobol: 10 20 30 40 / 20 30 40 60; ei-ir: 10 20 50 70 / 20 30 60 90).
    void hypervolumeBands() {
        const auto chart = bench_hypervolume_chart(branin());
        QVERIFY(chart);
        const auto sobol = series_named<QLineSeries>(*chart, kSobol);
        QCOMPARE(sobol.size(), 1);
        compare_points(sobol[0]->points(), {{1, 15}, {2, 25}, {3, 35}, {4, 50}});
        const auto sobol_band = series_named<QAreaSeries>(*chart, QString(kSobol) + " ± 2 SE");
        QCOMPARE(sobol_band.size(), 1);
        compare_points(sobol_band[0]->upperSeries()->points(), {{1, 25}, {2, 35}, {3, 45}, {4, 70}});
        compare_points(sobol_band[0]->lowerSeries()->points(), {{1, 5}, {2, 15}, {3, 25}, {4, 30}});
        const auto ir = series_named<QLineSeries>(*chart, kIr);
        QCOMPARE(ir.size(), 1);
        compare_points(ir[0]->points(), {{1, 15}, {2, 25}, {3, 55}, {4, 80}});
        const auto ir_band = series_named<QAreaSeries>(*chart, QString(kIr) + " ± 2 SE");
        QCOMPARE(ir_band.size(), 1);
        compare_points(ir_band[0]->upperSeries()->points(), {{1, 25}, {2, 35}, {3, 65}, {4, 100}});
        compare_points(ir_band[0]->lowerSeries()->points(), {{1, 5}, {2, 15}, {3, 45}, {4, 60}});
        auto* y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(y);
        QCOMPARE(y->min(), 0.0);
        QVERIFY(y->max() >= 100.0);
    }

    // Regret with at most 2 active: best so far among such trials minus the optimum (sobol:
    // −, 20, 20, 20 / −, 50, 24, 24; ei-ir: −, 20, 4.397887, 4.397887 / −, 50, 2.397887, 2.397887).
    void regretAtTwoActive() {
        const auto chart = bench_regret_chart(branin(), 1);
        QVERIFY(chart);
        QVERIFY(chart->title().contains("at most 2 active"));
        const double r20 = 20 - kOptimum, r50 = 50 - kOptimum, r24 = 24 - kOptimum;
        const double first = (r20 + r50) / 2;  // 2 SE = 30; later (r20 + r24) / 2 with 2 SE = 4
        const auto sobol = series_named<QLineSeries>(*chart, kSobol);
        QCOMPARE(sobol.size(), 1);
        // Trial 1 has no configuration with at most 2 active in any run: the trace starts at 2.
        compare_points(sobol[0]->points(), {{2, first}, {3, (r20 + r24) / 2}, {4, (r20 + r24) / 2}});
        const auto sobol_band = series_named<QAreaSeries>(*chart, QString(kSobol) + " ± 2 SE");
        QCOMPARE(sobol_band.size(), 1);
        compare_points(sobol_band[0]->upperSeries()->points(), {{2, first + 30}, {3, r24 + 2}, {4, r24 + 2}});
        compare_points(sobol_band[0]->lowerSeries()->points(), {{2, first - 30}, {3, r20 - 2}, {4, r20 - 2}});
        const auto ir = series_named<QLineSeries>(*chart, kIr);
        QCOMPARE(ir.size(), 1);
        compare_points(ir[0]->points(), {{2, first}, {3, 3}, {4, 3}});
        const auto ir_band = series_named<QAreaSeries>(*chart, QString(kIr) + " ± 2 SE");
        compare_points(ir_band[0]->upperSeries()->points(), {{2, first + 30}, {3, 5}, {4, 5}});
        compare_points(ir_band[0]->lowerSeries()->points(), {{2, first - 30}, {3, 1}, {4, 1}});
        // Every mean is positive: a log axis reaching below the smallest band edge.
        auto* y = qobject_cast<QLogValueAxis*>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(y);
        // Whole decades around the band: its lowest edge is 1 and its highest first + 30 (~65).
        SEBO_COMPARE_NEAR(y->min(), 0.1, 1e-9);
        SEBO_COMPARE_NEAR(y->max(), 100.0, 1e-6);
        QVERIFY(!bench_regret_chart(branin(), 3));
    }

    // With at most 1 active, a position's mean is over the runs that found one (sobol trial 2:
    // seed 2's 50 only; then 30 / 50. ei-ir: 50 in each run that found one). Less than a
    // decade apart: a linear axis.
    void regretAtOneActive() {
        const auto chart = bench_regret_chart(branin(), 0);
        QVERIFY(chart);
        const double r30 = 30 - kOptimum, r50 = 50 - kOptimum;
        const auto sobol = series_named<QLineSeries>(*chart, kSobol);
        QCOMPARE(sobol.size(), 1);
        compare_points(sobol[0]->points(), {{2, r50}, {3, (r30 + r50) / 2}, {4, (r30 + r50) / 2}});
        const auto sobol_band = series_named<QAreaSeries>(*chart, QString(kSobol) + " ± 2 SE");
        compare_points(sobol_band[0]->upperSeries()->points(), {{2, r50}, {3, r50 + 10}, {4, r50 + 10}});
        compare_points(sobol_band[0]->lowerSeries()->points(), {{2, r50}, {3, r30 - 10}, {4, r30 - 10}});
        const auto ir = series_named<QLineSeries>(*chart, kIr);
        compare_points(ir[0]->points(), {{2, r50}, {3, r50}, {4, r50}});
        QVERIFY(qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0)));
    }

    // Activation on the final frontier, ei-ir only (sobol has no model-based trial). Seed 1's
    // frontier is {} (50) and {x0, x1} (4.397887); seed 2's {x3}, {x0, x1}, {x0, x1, x3}:
    // x0, x1 (1/2 + 2/3) / 2, x2 0, x3 (0 + 2/3) / 2.
    void activationBars() {
        QVERIFY(!bench_activation_chart(branin(), 0));
        const auto chart = bench_activation_chart(branin(), 1);
        QVERIFY(chart);
        QVERIFY(chart->title().contains(kIr));
        QCOMPARE(chart->series().size(), 1);
        auto* series = qobject_cast<QStackedBarSeries*>(chart->series().front());
        QVERIFY(series);
        QCOMPARE(series->count(), 2);
        QBarSet* effective = series->barSets()[0];
        QBarSet* other = series->barSets()[1];
        QCOMPARE(effective->label(), QString("Effective parameter"));
        QCOMPARE(effective->count(), 4);
        const double both = 100.0 * (0.5 + 2.0 / 3.0) / 2.0;
        const double x3 = 100.0 * (2.0 / 3.0) / 2.0;
        const double expected_effective[] = {both, both, 0, 0};
        const double expected_other[] = {0, 0, 0, x3};
        for (int i = 0; i < 4; ++i) {
            SEBO_COMPARE_NEAR(effective->at(i), expected_effective[i], 1e-9);
            SEBO_COMPARE_NEAR(other->at(i), expected_other[i], 1e-9);
        }
        QVERIFY(effective->color() != other->color());
        auto* x = qobject_cast<QBarCategoryAxis*>(chart->axes(Qt::Horizontal).value(0));
        QVERIFY(x);
        QCOMPARE(x->categories(), (QStringList{"x0", "x1", "x2", "x3"}));
    }

    // Many parameters: only the 20 most frequent (and every effective one), most frequent first;
    // never active ones only when effective.
    void activationTopParameters() {
        ProblemSummary p = branin();
        p.dimension = 50;
        p.effective_parameters = {0, 49};
        StrategySummary& s = p.strategies[1];
        s.activation_frequency.assign(50, 0.0);
        for (int i = 1; i <= 30; ++i) s.activation_frequency[static_cast<std::size_t>(i)] = i / 100.0;
        const auto chart = bench_activation_chart(p, 1);
        QVERIFY(chart);
        auto* x = qobject_cast<QBarCategoryAxis*>(chart->axes(Qt::Horizontal).value(0));
        QVERIFY(x);
        QStringList expected;
        for (int i = 30; i >= 11; --i) expected << QString("x%1").arg(i);
        expected << "x0" << "x49";  // effective, never active: ties keep the index order
        QCOMPARE(x->categories(), expected);
        QVERIFY(x->titleText().contains("20 most often active of 50"));
        auto* series = qobject_cast<QStackedBarSeries*>(chart->series().front());
        SEBO_COMPARE_NEAR(series->barSets()[1]->at(0), 30.0, 1e-9);
        SEBO_COMPARE_NEAR(series->barSets()[0]->at(20), 0.0, 1e-9);

        // Only 3 ever active: just those and the effective ones.
        s.activation_frequency.assign(50, 0.0);
        s.activation_frequency[7] = 0.25;
        s.activation_frequency[1] = 0.5;
        s.activation_frequency[0] = 0.75;
        const auto few = bench_activation_chart(p, 1);
        x = qobject_cast<QBarCategoryAxis*>(few->axes(Qt::Horizontal).value(0));
        QCOMPARE(x->categories(), (QStringList{"x0", "x1", "x7", "x49"}));
        QVERIFY(x->titleText().contains("3 ever active of 50"));
    }

    // A problem this program knows is labelled with its own parameters' names (results.csv has
    // indices only): the varying parameters of `mixed`, whose fixed `region` has no column; a label
    // it does not know keeps the indices.
    void activationBarsUseTheProblemsNames() {
        ProblemSummary p = branin();
        p.problem = "mixed";
        p.dimension = 19;
        p.effective_parameters = {0, 1, 3, 4};
        StrategySummary& s = p.strategies[1];
        s.activation_frequency.assign(19, 0.0);
        s.activation_frequency[0] = 1.0;
        s.activation_frequency[4] = 0.5;
        s.activation_frequency[5] = 0.25;
        // Names longer than the indices: the bars lie, a line per parameter, the first on top
        // (Qt's first category is the lowest).
        const auto chart = bench_activation_chart(p, 1);
        QVERIFY(chart);
        auto* series = qobject_cast<QHorizontalStackedBarSeries*>(chart->series().value(0));
        QVERIFY(series);
        auto* names = qobject_cast<QBarCategoryAxis*>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(names);
        QStringList categories = names->categories();
        std::reverse(categories.begin(), categories.end());
        QCOMPARE(categories.size(), 19);
        QCOMPARE(categories.mid(0, 7), (QStringList{"fa", "fb", "fc", "threads", "codec", "level", "n01"}));
        QCOMPARE(categories.back(), QString("n13"));
        QVERIFY(!categories.contains("region"));
        // The bars follow their names: fa 100 %, codec 50 % (effective), level 25 % (other).
        QBarSet* effective = series->barSets()[0];
        QBarSet* other = series->barSets()[1];
        QCOMPARE(effective->at(18), 100.0);
        QCOMPARE(effective->at(18 - 4), 50.0);
        QCOMPARE(other->at(18 - 5), 25.0);
        QCOMPARE(effective->at(18 - 5), 0.0);

        // A label this program does not know: the indices, upright as usual.
        p.problem = "no-such-problem";
        const auto unknown = bench_activation_chart(p, 1);
        QVERIFY(qobject_cast<QStackedBarSeries*>(unknown->series().value(0)));
        auto* x = qobject_cast<QBarCategoryAxis*>(unknown->axes(Qt::Horizontal).value(0));
        QCOMPARE(x->categories().mid(0, 3), (QStringList{"x0", "x1", "x2"}));
        QCOMPARE(bench_parameter_names("branin/dim=4"), (std::vector<std::string>{"x0", "x1", "x2", "x3"}));
        QVERIFY(bench_parameter_names("branin/dim=").empty());
    }

    void rendersPngFiles() {
        const QString out = dir_.filePath("plots");
        const QStringList written = render_bench_plots(problems_, out, QSize(1000, 650));
        QStringList names;
        for (const QString& path : written) names << QFileInfo(path).fileName();
        QCOMPARE(names, (QStringList{"branin-frontier.png", "branin-hypervolume.png", "branin-regret-k1.png",
                                     "branin-regret-k2.png", "branin-regret-k4.png",
                                     "branin-activation-ei-ir_lambda_0.001.png"}));
        for (const QString& path : written) {
            QImageReader reader(path);
            QCOMPARE(reader.format(), QByteArray("png"));
            const QImage image = reader.read();
            QCOMPARE(image.size(), QSize(1000, 650));
        }
        // The frontier was really drawn: both strategies' colours appear in it.
        const QImage frontier(QDir(out).filePath("branin-frontier.png"));
        QVERIFY(pixels_near(frontier, bench_strategy_color(0)) > 200);
        QVERIFY(pixels_near(frontier, bench_strategy_color(1)) > 200);
    }

    void unknownOptimumSkipsRegret() {
        std::vector<BenchRow> rows = rows_;
        for (BenchRow& row : rows) row.optimum.reset();
        const std::vector<ProblemSummary> problems = summarize_bench(rows);
        for (std::size_t level = 0; level < problems.front().levels.size(); ++level)
            QVERIFY(!bench_regret_chart(problems.front(), level));
        const QStringList written = render_bench_plots(problems, dir_.filePath("no-optimum"), QSize(640, 480));
        QCOMPARE(written.size(), 3);
        for (const QString& path : written) {
            QVERIFY2(!path.contains("-regret-"), qPrintable(path));
            QCOMPARE(QImage(path).size(), QSize(640, 480));
        }
    }

    // tests/fixtures/bench/outcomes-results.csv (its numbers are worked out in
    // tests/engine/test_bench_summary.cpp): objectives f, g minimized, reference (18, 6), D = 4,
    // effective x0, x1, one strategy "S", two seeds. Feasible non-dominated (f, g): with at most 2
    // active seed 1 (8, 3), (15, 2) and seed 2 (16, 5); with any number seed 2 has (4, 4) instead.
    void severalObjectives() {
        const std::vector<ProblemSummary> problems =
            summarize_bench(read_bench_results(test::source_path("tests/fixtures/bench/outcomes-results.csv")));
        const ProblemSummary& p = problems.front();
        QCOMPARE(p.front_levels, (std::vector<int>{2, 4}));
        QVERIFY(!bench_front_chart(branin(), 0));  // one objective: no fronts
        QVERIFY(!bench_front_chart(p, 2));

        // The frontier chart: the objectives' hypervolume with at most k active, k = 0..4.
        const auto frontier = bench_frontier_chart(p);
        QVERIFY2(frontier->title().contains("hypervolume of (f, g) with at most k active"), qPrintable(frontier->title()));
        const auto mean = series_named<QLineSeries>(*frontier, "S");
        QCOMPARE(mean.size(), 1);
        compare_points(mean[0]->points(), {{0, 0}, {1, 7.5}, {2, 17.5}, {3, 30.5}, {4, 30.5}}, true);

        const auto at_two = bench_front_chart(p, 0);
        QVERIFY2(at_two->title().contains("at most 2 parameters changed"), qPrintable(at_two->title()));
        const auto points = series_named<QScatterSeries>(*at_two, "S (2 of 2 seeds)");
        QCOMPARE(points.size(), 1);
        compare_points(points[0]->points(), {{8, 3}, {15, 2}, {16, 5}});
        // Each seed's staircase runs from the reference box's edge through its points, the corner
        // between two points at their worse values.
        const auto steps = series_named<QLineSeries>(*at_two, "S front");
        QCOMPARE(steps.size(), 2);
        compare_points(steps[0]->points(), {{8, 6}, {8, 3}, {15, 3}, {15, 2}, {18, 2}});
        compare_points(steps[1]->points(), {{16, 6}, {16, 5}, {18, 5}});
        const auto reference = series_named<QLineSeries>(*at_two, "reference point (18, 6)");
        QCOMPARE(reference.size(), 1);
        compare_points(reference[0]->points(), {{18, 2}, {18, 6}, {8, 6}});
        auto* x_axis = qobject_cast<QValueAxis*>(at_two->axes(Qt::Horizontal).value(0));
        QVERIFY(x_axis && x_axis->min() < 8 && x_axis->max() > 18);
        QVERIFY(!x_axis->titleText().contains("outside"));

        const auto any = bench_front_chart(p, 1);
        QVERIFY(any->title().contains("any number of parameters changed"));
        compare_points(series_named<QScatterSeries>(*any, "S (2 of 2 seeds)")[0]->points(), {{8, 3}, {15, 2}, {4, 4}});

        // A front point outside the reference box adds no hypervolume: left out, and counted.
        std::vector<BenchRow> rows = read_bench_results(test::source_path("tests/fixtures/bench/outcomes-results.csv"));
        for (BenchRow& row : rows)
            for (BenchObjective& o : row.objectives) o.reference = o.metric == "f" ? 14.0 : 6.0;
        const auto clipped = bench_front_chart(summarize_bench(rows).front(), 0);
        compare_points(series_named<QScatterSeries>(*clipped, "S (1 of 2 seeds)")[0]->points(), {{8, 3}});
        QVERIFY2(qobject_cast<QValueAxis*>(clipped->axes(Qt::Horizontal).value(0))
                     ->titleText()
                     .contains("2 front points outside the reference box not shown"),
                 qPrintable(clipped->axes(Qt::Horizontal).value(0)->titleText()));

        const QStringList written = render_bench_plots(problems, dir_.filePath("outcomes"), QSize(640, 480));
        QStringList names;
        for (const QString& path : written) names << QFileInfo(path).fileName();
        QVERIFY2(names.contains("bc-front-k2.png") && names.contains("bc-front-k4.png"), qPrintable(names.join(' ')));
        QVERIFY(pixels_near(QImage(dir_.filePath("outcomes/bc-front-k2.png")), bench_strategy_color(0)) > 50);
    }

    void commandLine() {
        if (!QFileInfo(QString(SEBO_BINARY_DIR) + "/app/sebo-plot").isExecutable()) QSKIP("sebo-plot is not built");
        const QString out = dir_.filePath("cli");
        Run r = run_sebo_plot({fixture(), out, "--size", "800x500"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 6);
        for (const QString& path : lines) QCOMPARE(QImage(path).size(), QSize(800, 500));

        // A bad cell: the message names the file, the line and the column.
        QFile bad(dir_.filePath("bad.csv"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        QFile good(fixture());
        QVERIFY(good.open(QIODevice::ReadOnly));
        QList<QByteArray> text = good.readAll().split('\n');
        text[2].replace(",20,2,0;2,", ",abc,2,0;2,");
        bad.write(text.join('\n'));
        bad.close();
        r = run_sebo_plot({bad.fileName(), dir_.filePath("bad-out")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("bad.csv") && r.err.contains("line 3") && r.err.contains("objective"),
                 qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(dir_.filePath("bad-out")));

        r = run_sebo_plot({fixture()});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("OUT_DIR"));
        r = run_sebo_plot({fixture(), out, "--size", "10x10"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--size"));
        r = run_sebo_plot({dir_.filePath("missing.csv"), out});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("missing.csv"));
        r = run_sebo_plot({"--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("RESULTS") || r.out.contains("results"));
    }
};

SEBO_TEST_MAIN(TestBenchPlots)
}  // namespace test_bench_plots
#include "test_bench_plots.moc"
