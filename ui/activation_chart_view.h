#pragma once
// How often each parameter is active among the frontier configurations (SPEC §3): a sorted
// horizontal bar chart, most frequent at the top, that scrolls when there are many
// parameters (50-100 in the paper's problems). By default only parameters active somewhere on
// the frontier are listed; "Show all parameters" lists every one.

#include <QStringList>

#include "chart_panel.h"
#include "experiment_snapshot.h"

class QBarCategoryAxis;
class QBarSet;
class QCheckBox;
class QHorizontalBarSeries;
class QLabel;
class QValueAxis;

namespace sebo::ui {

class ActivationChartView : public ChartPanel {
    Q_OBJECT
public:
    explicit ActivationChartView(QWidget* parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    void setShowAll(bool show_all);
    bool showAll() const;

    // Parameter names in the order of the bars, most frequent first, and their shares in %.
    QStringList categories() const { return names_; }
    QList<double> percentages() const { return percentages_; }
    QBarSet* barSet() const { return set_; }

protected:
    void updateSeriesColors() override;
    void resetView() override;

private:
    void rebuild();

    SnapshotPtr snapshot_;
    QStringList names_;
    QList<double> percentages_;
    QCheckBox* show_all_;
    QLabel* summary_;
    QHorizontalBarSeries* series_;
    QBarSet* set_;
    QBarCategoryAxis* axis_y_;
    QValueAxis* axis_x_;
};

}  // namespace sebo::ui
