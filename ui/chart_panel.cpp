#include "chart_panel.h"

#include <QChart>
#include <QChartView>
#include <QFile>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QScrollArea>
#include <QStackedLayout>
#include <QValueAxis>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#ifdef SEBO_HAVE_QTSVG
#include <QSvgGenerator>
#endif

namespace sebo::ui {

ChartPanel::ChartPanel(bool scrollable, QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(2);
    // View options sit above the stack so they stay reachable when the chart is replaced by
    // its explanation (e.g. "tick Show all parameters").
    options_row_ = new QHBoxLayout;
    options_row_->setContentsMargins(6, 2, 6, 0);
    outer->addLayout(options_row_);
    stack_ = new QStackedLayout;
    stack_->setContentsMargins(0, 0, 0, 0);
    outer->addLayout(stack_, 1);

    empty_ = new QLabel(this);
    empty_->setAlignment(Qt::AlignCenter);
    empty_->setWordWrap(true);
    empty_->setMargin(24);
    empty_->setTextFormat(Qt::PlainText);
    QPalette palette = empty_->palette();
    palette.setColor(QPalette::WindowText, QColor(100, 100, 100));
    empty_->setPalette(palette);
    QFont font = empty_->font();
    font.setPointSizeF(font.pointSizeF() * 1.1);
    empty_->setFont(font);
    stack_->addWidget(empty_);

    chart_page_ = new QWidget(this);
    auto* page_layout = new QVBoxLayout(chart_page_);
    page_layout->setContentsMargins(0, 0, 0, 0);

    chart_ = new QChart;
    // Animations replay on every update and cost frames while steps stream in.
    chart_->setAnimationOptions(QChart::NoAnimation);
    chart_->setBackgroundRoundness(0);
    chart_->setMargins(QMargins(4, 4, 4, 4));
    chart_->legend()->setAlignment(Qt::AlignBottom);
    view_ = new QChartView(chart_);
    view_->setRenderHint(QPainter::Antialiasing);
    view_->setFrameShape(QFrame::NoFrame);
    if (scrollable) {
        scroll_ = new QScrollArea(chart_page_);
        scroll_->setWidgetResizable(true);
        scroll_->setFrameShape(QFrame::NoFrame);
        scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        scroll_->setWidget(view_);
        page_layout->addWidget(scroll_, 1);
    } else {
        view_->setParent(chart_page_);
        page_layout->addWidget(view_, 1);
    }
    stack_->addWidget(chart_page_);
    stack_->setCurrentWidget(empty_);
}

void ChartPanel::setEmptyText(const QString& text) {
    empty_->setText(text);
    stack_->setCurrentWidget(text.isEmpty() ? chart_page_ : static_cast<QWidget*>(empty_));
}

QString ChartPanel::emptyText() const { return isShowingChart() ? QString() : empty_->text(); }

bool ChartPanel::isShowingChart() const { return stack_->currentWidget() == chart_page_; }

QSize ChartPanel::exportSize() const {
    // A panel that is hidden (a closed dock) has no useful size: export at a readable default.
    QSize size = view_->size();
    if (size.width() < 320 || size.height() < 240) size = size.expandedTo(QSize(900, 600));
    return size;
}

std::optional<QString> ChartPanel::savePng(const QString& path) const {
    if (!isShowingChart()) return tr("There is nothing to export yet: %1").arg(empty_->text());
    const QSize size = exportSize();
    const qreal scale = 2.0;
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        view_->render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), QRect(QPoint(0, 0), view_->size()));
    }
    if (!image.save(path, "PNG")) return tr("Could not write the image %1.").arg(path);
    return std::nullopt;
}

double ChartPanel::niceInterval(double span, int ticks, double minimum) {
    if (!(span > 0.0) || !std::isfinite(span)) return std::max(1.0, minimum);
    const double raw = span / std::max(1, ticks);
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10.0 * power;
    for (double m : {1.0, 2.0, 5.0})
        if (m * power >= raw) {
            step = m * power;
            break;
        }
    return std::max(step, minimum);
}

void ChartPanel::setAxis(QValueAxis* axis, double low, double high, double interval) {
    if (interval >= axis->tickInterval()) {
        axis->setTickInterval(interval);
        axis->setRange(low, high);
    } else {
        axis->setRange(low, high);
        axis->setTickInterval(interval);
    }
}

bool ChartPanel::svgExportAvailable() {
#ifdef SEBO_HAVE_QTSVG
    return true;
#else
    return false;
#endif
}

std::optional<QString> ChartPanel::saveSvg(const QString& path) const {
#ifdef SEBO_HAVE_QTSVG
    if (!isShowingChart()) return tr("There is nothing to export yet: %1").arg(empty_->text());
    const QSize size = exportSize();
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(chart_->title());
    {
        QPainter painter(&generator);
        view_->render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), QRect(QPoint(0, 0), view_->size()));
    }
    if (!QFile::exists(path)) return tr("Could not write the image %1.").arg(path);
    return std::nullopt;
#else
    return tr("This build has no SVG support (Qt SVG was not installed when it was built); export as PNG "
              "instead. Could not write %1.")
        .arg(path);
#endif
}

}  // namespace sebo::ui
