// The explorer's side of choice parameters (issue 14, item 1): the inspector's configuration table
// shows a choice's value and target as their texts, says which values there are in the tooltip,
// counts a changed choice. (The parameter editor's choice rows: test_choice_editor.cpp.)

#include <QtTest>

#include "configuration_model.h"
#include "experiment_snapshot.h"

using namespace sebo;
using namespace sebo::ui;

class TestChoiceDisplay : public QObject {
    Q_OBJECT

private slots:
    void inspectorShowsTheValueAsText() {
        Parameter compression;
        compression.name = "compression";
        compression.kind = ParameterKind::Choice;
        compression.values = {{"none", std::nullopt}, {"lz4", std::nullopt}, {"zstd", std::nullopt}};
        Parameter x;
        x.name = "x";
        Experiment e;
        e.space = SearchSpace({compression, x});
        e.outcomes = Outcomes::single("y", false);
        Trial t;
        t.index = 0;
        t.status = TrialStatus::Completed;
        t.parameters = {2.0, 0.0};
        t.values["y"] = Measurement{1.0, std::nullopt};
        e.trials.push_back(t);
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
};

QTEST_MAIN(TestChoiceDisplay)
#include "test_choice_display.moc"
