#include "activation_chart_view.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLegend>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "palette_colors.h"

namespace sebo::ui {

ActivationChartView::ActivationChartView(QWidget* parent) : ChartPanel(true, parent) {
    show_all_ = new QCheckBox(tr("Show all parameters"), this);
    show_all_->setToolTip(tr("List every parameter, also those never active on the frontier."));
    summary_ = new QLabel(this);
    summary_->setTextFormat(Qt::PlainText);
    summary_->setWordWrap(true);  // a narrow panel wraps it rather than growing wider
    optionsRow()->addWidget(summary_, 1);
    optionsRow()->addWidget(show_all_);
    connect(show_all_, &QCheckBox::toggled, this, [this] { rebuild(); });

    set_ = new QBarSet(tr("Share of frontier configurations (%)"));
    series_ = new QHorizontalBarSeries;
    series_->append(set_);
    series_->setBarWidth(0.7);
    series_->setLabelsVisible(true);
    series_->setLabelsFormat("@value%");
    series_->setLabelsPosition(QAbstractBarSeries::LabelsInsideEnd);
    chart()->addSeries(series_);
    chart()->legend()->hide();
    axis_y_ = new QBarCategoryAxis;
    axis_x_ = new QValueAxis;
    axis_x_->setRange(0, 100);
    // Few ticks and a short title: the panel is often narrow, and Qt Charts cuts what does not fit.
    axis_x_->setTickCount(5);
    axis_x_->setLabelFormat("%d%%");
    axis_x_->setTitleText(tr("% of frontier configurations"));
    chart()->addAxis(axis_y_, Qt::AlignLeft);
    chart()->addAxis(axis_x_, Qt::AlignBottom);
    series_->attachAxis(axis_y_);
    series_->attachAxis(axis_x_);
    setEmptyText(tr("No experiment is open."));
    restyle();
}

void ActivationChartView::updateSeriesColors() {
    const QColor bar = chart_color(palette(), ChartRole::Activation);
    set_->setColor(bar);
    set_->setBorderColor(bar);
    // The share is written inside the end of its bar: black or white, whichever reads better there.
    set_->setLabelColor(contrast_ratio(Qt::black, bar) >= contrast_ratio(Qt::white, bar) ? QColor(Qt::black)
                                                                                          : QColor(Qt::white));
}

void ActivationChartView::setSnapshot(SnapshotPtr snapshot) {
    snapshot_ = std::move(snapshot);
    rebuild();
}

void ActivationChartView::setShowAll(bool show_all) { show_all_->setChecked(show_all); }
bool ActivationChartView::showAll() const { return show_all_->isChecked(); }

void ActivationChartView::resetView() {
    // The share axis is always 0-100 %; the bars' axis comes back with the categories.
    chart()->zoomReset();
    axis_x_->setRange(0, 100);
    rebuild();
}

void ActivationChartView::rebuild() {
    names_.clear();
    percentages_.clear();
    if (!snapshot_) return;
    const Experiment& e = snapshot_->experiment;
    const std::vector<double>& frequency = snapshot_->report.activation_frequency;
    const int d = e.space.dimension();
    const int frontier_size = static_cast<int>(snapshot_->report.pareto_trials.size());

    std::vector<int> order(static_cast<std::size_t>(std::min<int>(d, static_cast<int>(frequency.size()))));
    std::iota(order.begin(), order.end(), 0);
    // Most frequent first; ties keep the order of the search space.
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return frequency[static_cast<std::size_t>(a)] > frequency[static_cast<std::size_t>(b)];
    });
    int never = 0;
    for (int i : order) {
        const double f = frequency[static_cast<std::size_t>(i)];
        if (f <= 0.0) ++never;
        if (f <= 0.0 && !showAll()) continue;
        names_ << QString::fromStdString(e.space.parameter(i).name);
        percentages_ << std::round(f * 1000.0) / 10.0;
    }

    // A horizontal bar chart draws its first category at the bottom: feed it reversed so the
    // most frequent parameter is on top.
    QStringList categories;
    QList<qreal> values;
    for (qsizetype i = names_.size() - 1; i >= 0; --i) {
        categories << names_[i];
        values << percentages_[i];
    }
    set_->remove(0, set_->count());
    set_->append(values);
    axis_y_->clear();
    axis_y_->append(categories);
    keepZoom();

    summary_->setVisible(d > 0);
    show_all_->setVisible(d > 0);
    summary_->setText(count_text(frontier_size, tr("frontier configuration"), tr("frontier configurations")) +
                      (never > 0 && !showAll()
                           ? "; " + count_text(never, tr("parameter never active"), tr("parameters never active"))
                           : QString()));

    // One readable row per parameter; the scroll area takes over beyond the panel's height.
    // Qt Charts elides a category label to "..." when its row is not clearly taller than the text.
    const int row = fontMetrics().height() * 2;
    chartView()->setMinimumHeight(static_cast<int>(categories.size()) * row + 4 * fontMetrics().height() + 40);

    if (d == 0)
        setEmptyText(tr("No experiment is open."));
    else if (frontier_size == 0)
        setEmptyText(tr("Activation frequencies appear once a trial has completed."));
    else if (names_.isEmpty())
        setEmptyText(tr("No parameter is active on the frontier yet: every frontier configuration is the "
                        "target point itself. Tick \"Show all parameters\" to list them anyway."));
    else
        setEmptyText({});
}

}  // namespace sebo::ui
