#include "central_charts.h"

#include "frontier_chart_view.h"
#include "objective_scatter_view.h"

namespace sebo::ui {

CentralCharts::CentralCharts(QWidget* parent) : QTabWidget(parent) {
    setDocumentMode(true);
    setTabBarAutoHide(true);
    frontier_ = new FrontierChartView(this);
    scatter_ = new ObjectiveScatterView(this);
    scatter_->hide();
    addTab(frontier_, tr("&Sparsity"));
    setTabToolTip(0, tr("An objective against the number of parameters changed"));
    connect(frontier_, &FrontierChartView::trialClicked, this, &CentralCharts::trialClicked);
    connect(scatter_, &ObjectiveScatterView::trialClicked, this, &CentralCharts::trialClicked);
    connect(scatter_, &ObjectiveScatterView::levelChanged, this, &CentralCharts::onLevel);
    // The scatter's "at most k changed" filters the table only while its tab is shown: on the
    // Sparsity tab its control is hidden, and so is its filter (issue 32).
    connect(this, &QTabWidget::currentChanged, this, [this] { applyLimit(); });
}

bool CentralCharts::showsScatter() const { return indexOf(scatter_) >= 0; }

void CentralCharts::setSnapshot(SnapshotPtr snapshot) {
    const bool several = snapshot && snapshot->experiment.outcomes.objectives.size() > 1;
    snapshot_ = snapshot;
    frontier_->setSnapshot(snapshot);
    if (several && !showsScatter()) {
        insertTab(0, scatter_, tr("&Objectives"));
        setTabToolTip(0, tr("The objectives against each other, by number of parameters changed"));
        setCurrentWidget(scatter_);
    } else if (!several && showsScatter()) {
        removeTab(indexOf(scatter_));
        scatter_->hide();
    }
    scatter_->setSnapshot(std::move(snapshot));
    if (!several) onLevel(0, {});
}

void CentralCharts::setSelectedTrial(int trial) {
    frontier_->setSelectedTrial(trial);
    scatter_->setSelectedTrial(trial);
}

void CentralCharts::onLevel(int k, const QList<int>& front) {
    level_ = k;
    level_front_ = front;
    applyLimit();
}

void CentralCharts::applyLimit() {
    // Every level (k = D), one objective and another tab limit nothing.
    const bool limited = snapshot_ && snapshot_->experiment.outcomes.objectives.size() > 1 &&
                         level_ < snapshot_->experiment.max_sparsity() && currentWidget() == scatter_;
    const std::optional<int> limit = limited ? std::optional(level_) : std::nullopt;
    const QList<int> trials = limited ? level_front_ : QList<int>{};
    if (limit == limit_ && trials == front_) return;
    limit_ = limit;
    front_ = trials;
    emit activeLimitChanged(limit_, front_);
}

}  // namespace sebo::ui
