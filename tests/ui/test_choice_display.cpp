// The explorer's side of choice parameters (issue 14, item 1): the inspector's configuration table
// shows a choice's value and target as their texts, says which values there are in the tooltip,
// counts a changed choice; the parallel coordinates label a choice's axis with its values, at their
// places, never with the indices. (The parameter editor's choice rows: test_choice_editor.cpp.)
//
// With SEBO_SCREENSHOT_DIR set, the parallel coordinates are saved there as
// gui-choices-parallel.png (to look at; nothing is compared).

#include <QDir>
#include <QtTest>
#include <array>

#include "configuration_model.h"
#include "experiment_snapshot.h"
#include "parallel_coordinates_view.h"
#include "test_main.h"
#include "test_support.h"

namespace test_choice_display {

using namespace sebo;
using namespace sebo::ui;

namespace {

// A choice of none, lz4 and zstd named `choice` and a number x in [0, 1], maximizing y; one
// completed trial per {choice index, x, y}.
Experiment choice_experiment(const std::string& choice, const std::vector<std::array<double, 3>>& trials) {
    Parameter c;
    c.name = choice;
    c.kind = ParameterKind::Choice;
    c.values = {{"none", std::nullopt}, {"lz4", std::nullopt}, {"zstd", std::nullopt}};
    Parameter x;
    x.name = "x";
    Experiment e;
    e.space = SearchSpace({c, x});
    e.outcomes = Outcomes::single("y", false);
    for (const auto& [index, value, y] : trials) {
        Trial t;
        t.index = static_cast<int>(e.trials.size());
        t.status = TrialStatus::Completed;
        t.parameters = {index, value};
        t.values["y"] = Measurement{y, std::nullopt};
        e.trials.push_back(t);
    }
    return e;
}

}  // namespace

class TestChoiceDisplay : public QObject {
    Q_OBJECT

private slots:
    void inspectorShowsTheValueAsText() {
        const Experiment e = choice_experiment("compression", {{2, 0, 1}});
        ConfigurationModel model;
        model.setTrial(make_snapshot(e, 1), 0);
        QCOMPARE(model.changedCount(), 1);
        QCOMPARE(model.index(0, ConfigurationModel::Name).data().toString(), QString("compression"));
        QCOMPARE(model.index(0, ConfigurationModel::Value).data().toString(), QString("zstd"));
        QCOMPARE(model.index(0, ConfigurationModel::Target).data().toString(), QString("none"));
        QCOMPARE(model.index(0, ConfigurationModel::Changed).data().toString(), QString("changed"));
        QCOMPARE(model.index(0, ConfigurationModel::Value).data(Qt::ToolTipRole).toString(), QString("one of none | lz4 | zstd"));
        QCOMPARE(display_value(e.space.parameter(0), 1.0), QString("lz4"));
    }

    void parallelCoordinatesLabelAChoiceAxis() {
        // Trial 0 is the target (none); trials 1 and 3 change codec to zstd, trial 2 to lz4.
        const Experiment e = choice_experiment("codec", {{0, 0, 1}, {2, 0, 3}, {1, 0.5, 2}, {2, 0.5, 3.5}});
        ParallelCoordinatesView pc;
        pc.resize(800, 500);
        pc.setSnapshot(make_snapshot(e, 1));
        std::optional<std::size_t> axis;
        for (std::size_t a = 0; a < pc.axes().size(); ++a)
            if (pc.axes()[a].name == "codec") axis = a;
        QVERIFY(axis.has_value());
        QCOMPARE(pc.axes()[*axis].categories, (QStringList{"none", "lz4", "zstd"}));
        using Ticks = std::vector<std::pair<double, QString>>;
        const auto ticks = [&](std::size_t a) {
            Ticks out;
            for (const ParallelCoordinatesView::Tick& t : pc.tickLabels(a)) out.emplace_back(t.value, t.text);
            return out;
        };
        QCOMPARE(ticks(*axis), (Ticks{{2.0, "zstd"}, {1.0, "lz4"}, {0.0, "none"}}));
        // Trial 1 (zstd) is at the top of the axis, trial 0 (none) at the bottom, trial 2 (lz4) halfway.
        QCOMPARE(pc.normalized(*axis, pc.value(1, *axis)), 1.0);
        QCOMPARE(pc.normalized(*axis, pc.value(0, *axis)), 0.0);
        QCOMPARE(pc.normalized(*axis, pc.value(2, *axis)), 0.5);
        // Zoomed onto the upper half, only the values inside are labelled.
        pc.zoomAxis(*axis, 2.0, 2.0);
        QVERIFY(pc.axes()[*axis].shown_low > 0.0);
        QCOMPARE(ticks(*axis), (Ticks{{2.0, "zstd"}, {1.0, "lz4"}}));
        // Zoomed further: the axis stops at one value's span (here it has it already: [1, 2]
        // stays), and panned between two values it still shows one, so it is always labelled.
        pc.zoomAxis(*axis, 1.4, 8.0);
        SEBO_COMPARE_NEAR(pc.axes()[*axis].shown_low, 1.0, 1e-12);
        SEBO_COMPARE_NEAR(pc.axes()[*axis].shown_high, 2.0, 1e-12);
        pc.panAxis(*axis, 0.3);
        QCOMPARE(ticks(*axis), (Ticks{{2.0, "zstd"}}));
        pc.panAxis(*axis, -0.6);
        QCOMPARE(ticks(*axis), (Ticks{{1.0, "lz4"}}));
        pc.zoomAxis(*axis, 1.2, 4.0);
        SEBO_COMPARE_NEAR(pc.axes()[*axis].shown_high - pc.axes()[*axis].shown_low, 1.0, 1e-12);
        for (const double fraction : {0.13, 0.29, 0.5, -0.77}) {
            pc.panAxis(*axis, fraction);
            QVERIFY2(!ticks(*axis).empty(), qPrintable(QString::number(pc.axes()[*axis].shown_low)));
        }
        pc.resetZoom();
        // A number axis keeps its ends as numbers.
        for (std::size_t a = 0; a < pc.axes().size(); ++a)
            if (pc.axes()[a].name == "x") QCOMPARE(ticks(a), (Ticks{{1.0, "1"}, {0.0, "0"}}));
        // Drawn without trouble (the labels beside the axis).
        const QImage image = pc.grab().toImage();
        QVERIFY(!image.isNull());
        if (const QString shots = qEnvironmentVariable("SEBO_SCREENSHOT_DIR"); !shots.isEmpty())
            QVERIFY(image.save(QDir(shots).filePath("gui-choices-parallel.png")));
    }
};

SEBO_TEST_MAIN(TestChoiceDisplay)
}  // namespace test_choice_display
#include "test_choice_display.moc"
