#include "chart_panel.h"

#include <QAbstractAxis>
#include <QBarCategoryAxis>
#include <QCheckBox>
#include <QLogValueAxis>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QFile>
#include <QLegend>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QStackedLayout>
#include <QToolButton>
#include <QValueAxis>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "chart_style.h"
#include "chart_zoom.h"
#include "tick_labels.h"
#include "palette_colors.h"

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
    // Below this a chart's axes no longer have room for their labels (Qt Charts cuts them to
    // "..."); panels keep at least this much (dock_layout.h).
    view_->setMinimumSize(240, 150);
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
    zoom_ = new ChartZoom(view_, [this] { resetView(); });
    connect(zoom_, &ChartZoom::changed, this, [this] {
        rememberZoom();
        if (zoom_->isZoomed()) tickVisibleRange();
        viewChanged();
    });
    restyle();
}

void ChartPanel::resetView() { chart_->zoomReset(); }

void ChartPanel::tickVisibleRange() {
    // Ticks for the visible range (integer axes, labelled "%d", keep whole steps); the whole
    // chart comes with its own.
    for (QAbstractAxis* a : chart_->axes())
        if (auto* axis = qobject_cast<QValueAxis*>(a); axis && axis->tickType() == QValueAxis::TicksDynamic) {
            axis->setTickInterval(niceInterval(axis->max() - axis->min(), 6, isIntegerAxis(axis) ? 1.0 : 0.0));
            labelTicks(axis);
        }
}

void ChartPanel::rememberZoom() {
    zoomed_ranges_.clear();
    if (!zoom_->isZoomed()) return;
    for (QAbstractAxis* a : chart_->axes()) {
        if (auto* value = qobject_cast<QValueAxis*>(a)) zoomed_ranges_[a] = {value->min(), value->max(), {}, {}};
        else if (auto* log = qobject_cast<QLogValueAxis*>(a)) zoomed_ranges_[a] = {log->min(), log->max(), {}, {}};
        else if (auto* category = qobject_cast<QBarCategoryAxis*>(a))
            zoomed_ranges_[a] = {0.0, 0.0, category->min(), category->max()};
    }
}

void ChartPanel::keepZoom() {
    if (!zoom_->isZoomed()) return;
    for (QAbstractAxis* a : chart_->axes()) {
        const auto kept = zoomed_ranges_.constFind(a);
        if (kept == zoomed_ranges_.cend()) continue;  // an axis the chart did not show when zoomed
        if (auto* value = qobject_cast<QValueAxis*>(a)) {
            if (value->tickType() == QValueAxis::TicksDynamic)
                setAxis(value, kept->low, kept->high,
                        niceInterval(kept->high - kept->low, 6, isIntegerAxis(value) ? 1.0 : 0.0));
            else
                value->setRange(kept->low, kept->high);
        } else if (auto* log = qobject_cast<QLogValueAxis*>(a)) {
            log->setRange(kept->low, kept->high);
        } else if (auto* category = qobject_cast<QBarCategoryAxis*>(a)) {
            // The same parameters, as long as they are still listed.
            if (category->categories().contains(kept->first) && category->categories().contains(kept->last))
                category->setRange(kept->first, kept->last);
        }
    }
    viewChanged();
}

void ChartPanel::registerAxis(QAbstractAxis* axis) {
    if (!extra_axes_.contains(axis)) extra_axes_ << axis;
    restyle();
}

void ChartPanel::restyle() {
    if (restyling_) return;
    restyling_ = true;
    const QPalette p = palette();
    const QColor base = p.color(QPalette::Base);
    QPalette muted = empty_->palette();
    muted.setColor(QPalette::WindowText, muted_text(p));
    empty_->setPalette(muted);

    style_chart(chart_, p, extra_axes_);
    view_->setBackgroundBrush(base);
    updateSeriesColors();
    restyling_ = false;
}

void ChartPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange) restyle();
}

QAbstractButton* ChartPanel::addOptionAction(QAction* action) {
    if (!action->isCheckable()) {
        auto* button = new QToolButton(this);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        options_row_->insertWidget(0, button);
        return button;
    }
    auto* box = new QCheckBox(this);
    const auto follow = [box, action] {
        box->setText(action->text());
        box->setToolTip(action->toolTip());
        box->setEnabled(action->isEnabled());
        const QSignalBlocker block(box);
        box->setChecked(action->isChecked());
    };
    follow();
    connect(action, &QAction::changed, box, follow);
    connect(action, &QAction::toggled, box, follow);
    // A click goes through the action (its triggered() is what its owner acts on).
    connect(box, &QCheckBox::clicked, action, [action, follow] {
        action->trigger();
        follow();
    });
    options_row_->insertWidget(0, box);
    return box;
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
    image.fill(palette().color(QPalette::Base));
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

QValueAxis* ChartPanel::dynamicAxis(const QString& title, const QString& format) {
    auto* axis = new QValueAxis;
    if (!title.isEmpty()) axis->setTitleText(title);
    axis->setLabelFormat(format);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0.0);
    return axis;
}

void ChartPanel::setAxis(QValueAxis* axis, double low, double high, double interval) {
    if (interval >= axis->tickInterval()) {
        axis->setTickInterval(interval);
        axis->setRange(low, high);
    } else {
        axis->setRange(low, high);
        axis->setTickInterval(interval);
    }
    labelTicks(axis);
}

bool ChartPanel::isIntegerAxis(const QValueAxis* axis) { return axis->labelFormat() == "%d"; }

void ChartPanel::labelTicks(QValueAxis* axis) {
    // Whole-number ticks of an integer axis are exact sums: its labels need nothing.
    if (axis->tickType() != QValueAxis::TicksDynamic || isIntegerAxis(axis)) return;
    const TickLabels labels = tick_labels(axis->min(), axis->max(), axis->tickInterval());
    axis->setLabelFormat(QString::fromStdString(labels.format));
    axis->setTickAnchor(labels.anchor);
    if (labels.low != axis->min() || labels.high != axis->max()) axis->setRange(labels.low, labels.high);
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
