#include "chart_style.h"

#include <QAbstractAxis>
#include <QChart>
#include <QLegend>

#include "palette_colors.h"

namespace sebo::ui {

void style_chart(QChart* chart, const QPalette& palette, const QList<QAbstractAxis*>& extra_axes) {
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    chart->setBackgroundBrush(base);
    chart->setBackgroundPen(Qt::NoPen);
    chart->setPlotAreaBackgroundVisible(false);
    chart->setTitleBrush(text);
    chart->legend()->setLabelColor(text);
    chart->legend()->setBrush(Qt::NoBrush);
    chart->legend()->setPen(Qt::NoPen);
    QList<QAbstractAxis*> axes = chart->axes();
    for (QAbstractAxis* a : extra_axes)
        if (!axes.contains(a)) axes << a;
    for (QAbstractAxis* axis : axes) {
        axis->setLabelsBrush(text);
        axis->setTitleBrush(text);
        axis->setGridLineColor(chart_color(palette, ChartRole::Grid));
        axis->setMinorGridLineColor(mix(chart_color(palette, ChartRole::Grid), base, 0.5));
        axis->setLinePenColor(chart_color(palette, ChartRole::AxisLine));
        axis->setShadesVisible(false);
    }
}

}  // namespace sebo::ui
