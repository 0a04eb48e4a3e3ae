#pragma once
// The charts in the middle of the window: the frontier chart (an objective against the number of
// active parameters) and, when the experiment has several objectives, the objectives scatter in a
// tab before it (objective_scatter_view.h), shown first. With one objective there are no tabs.
//
// The scatter's "at most k parameters changed" limits the trials table while the Objectives tab
// is shown: activeLimitChanged says which limit and which trials are on its front (unset: no
// limit — one objective, k = D, or the Sparsity tab shown).

#include <QList>
#include <QTabWidget>
#include <optional>

#include "experiment_snapshot.h"

namespace sebo::ui {

class FrontierChartView;
class ObjectiveScatterView;

class CentralCharts : public QTabWidget {
    Q_OBJECT
public:
    explicit CentralCharts(QWidget* parent = nullptr);

    FrontierChartView* frontier() const { return frontier_; }
    ObjectiveScatterView* scatter() const { return scatter_; }
    bool showsScatter() const;

    void setSnapshot(SnapshotPtr snapshot);
    void setSelectedTrial(int trial);
    std::optional<int> activeLimit() const { return limit_; }

signals:
    void trialClicked(int trial);
    void activeLimitChanged(std::optional<int> max_active, const QList<int>& front);

private:
    void onLevel(int k, const QList<int>& front);
    void applyLimit();

    FrontierChartView* frontier_;
    ObjectiveScatterView* scatter_;
    SnapshotPtr snapshot_;
    std::optional<int> limit_;
    QList<int> front_;
    // The scatter's level and its front, applied while its tab is shown.
    int level_ = 0;
    QList<int> level_front_;
};

}  // namespace sebo::ui
