#include "trial_explanation_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "palette_colors.h"

namespace sebo::ui {

// One bar per single reset, from a zero line: left when the reset makes the objective worse,
// right when it improves it (in the objective's direction). Colours follow the palette.
class ExplanationBars : public QWidget {
public:
    explicit ExplanationBars(QWidget* parent) : QWidget(parent) { setMinimumHeight(0); }

    struct Bar {
        QString label;
        double gain = 0.0;  // in the objective's direction: negative = the reset hurts
    };
    void setBars(std::vector<Bar> bars) {
        bars_ = std::move(bars);
        setMinimumHeight(static_cast<int>(bars_.size()) * rowHeight());
        updateGeometry();
        update();
    }
    const std::vector<Bar>& bars() const { return bars_; }

protected:
    void paintEvent(QPaintEvent*) override {
        if (bars_.empty()) return;
        QPainter p(this);
        const QPalette& pal = palette();
        double scale = 0.0;
        for (const Bar& b : bars_) scale = std::max(scale, std::abs(b.gain));
        if (!(scale > 0.0)) scale = 1.0;
        const int label_width = width() * 2 / 5, h = rowHeight();
        const int zero = label_width + (width() - label_width) / 2, half = (width() - label_width) / 2 - 4;
        for (std::size_t i = 0; i < bars_.size(); ++i) {
            const int y = static_cast<int>(i) * h;
            p.setPen(pal.color(QPalette::Text));
            p.drawText(QRect(0, y, label_width - 4, h), Qt::AlignVCenter | Qt::AlignRight,
                       fontMetrics().elidedText(bars_[i].label, Qt::ElideMiddle, label_width - 4));
            const int length = static_cast<int>(std::lround(half * bars_[i].gain / scale));
            const QColor fill = bars_[i].gain < 0 ? error_text(pal) : pal.color(QPalette::Highlight);
            p.fillRect(QRect(std::min(zero, zero + length), y + 3, std::abs(length), h - 6), fill);
        }
        p.setPen(muted_text(pal));
        p.drawLine(zero, 0, zero, static_cast<int>(bars_.size()) * h);
    }

private:
    int rowHeight() const { return fontMetrics().height() + 6; }
    std::vector<Bar> bars_;
};

TrialExplanationView::TrialExplanationView(QWidget* parent) : QWidget(parent), job_(new SimplifyJob(this)) {
    setObjectName("trialExplanation");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    button_ = new QPushButton(tr("Explain with the model"), this);
    button_->setObjectName("explainButton");
    prediction_ = new QLabel(this);
    prediction_->setWordWrap(true);
    prediction_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row->addWidget(button_);
    row->addWidget(prediction_, 1);
    layout->addLayout(row);
    bars_ = new ExplanationBars(this);
    layout->addWidget(bars_);
    connect(button_, &QPushButton::clicked, this, &TrialExplanationView::explain);
    connect(job_, &SimplifyJob::finished, this, &TrialExplanationView::showOutcome);
    updateButton();
}

void TrialExplanationView::setSnapshot(SnapshotPtr snapshot) {
    snapshot_ = std::move(snapshot);
    updateButton();
}

void TrialExplanationView::setTrial(int trial) {
    if (trial == trial_) return;
    trial_ = trial;
    job_->cancel();
    outcome_ = {};
    prediction_->clear();
    bars_->setBars({});
    updateButton();
}

void TrialExplanationView::updateButton() {
    std::optional<std::string> why;
    if (!snapshot_ || trial_ < 0)
        why = "select a completed trial";
    else
        why = simplify_unavailable(snapshot_->experiment, trial_);
    button_->setEnabled(!why && !job_->isRunning());
    button_->setToolTip(why ? tr("Cannot explain: %1").arg(QString::fromStdString(*why))
                            : tr("Fit the model and show what it predicts for this trial, and for each changed "
                                 "parameter the effect of resetting it alone"));
}

void TrialExplanationView::explain() {
    if (!snapshot_ || trial_ < 0 || simplify_unavailable(snapshot_->experiment, trial_)) return;
    prediction_->setText(tr("Fitting the model…"));
    job_->start(snapshot_->experiment, trial_);
    updateButton();
}

void TrialExplanationView::showOutcome(const SimplifyOutcome& outcome) {
    outcome_ = outcome;
    updateButton();
    if (!outcome.ok) {
        prediction_->setText(tr("The model could not be fitted: %1").arg(outcome.message));
        return;
    }
    if (!snapshot_) return;
    const Experiment& e = snapshot_->experiment;
    // The explanation is the first objective's (experiment/simplify.h): named, and said so when
    // there are others (issue 32: it covered the first objective without saying which).
    const QString metric = QString::fromStdString(e.primary_objective().metric);
    const TrialExplanation& x = outcome.explanation;
    QString text = tr("%1: predicted %2 ± %3 · measured %4")
                       .arg(metric, display_number(x.predicted.mean), display_number(x.predicted.sd, 3),
                            x.measured ? display_number(*x.measured) : tr("–"));
    if (e.outcomes.objectives.size() > 1)
        text += " " + tr("(the first objective; resets are explained for %1 only)").arg(metric);
    prediction_->setText(text);
    std::vector<ExplanationBars::Bar> bars;
    for (const ResetEffect& r : x.resets) {
        const QString name = QString::fromStdString(e.space.parameter(r.parameter).name);
        const QString sign = r.effect >= 0 ? "+" : "";
        bars.push_back({tr("reset %1: %2 %3%4").arg(name, metric, sign, display_number(r.effect, 3)), e.to_utility(r.effect)});
    }
    bars_->setBars(std::move(bars));
}

QStringList TrialExplanationView::barLabels() const {
    QStringList labels;
    for (const auto& b : bars_->bars()) labels << b.label;
    return labels;
}

}  // namespace sebo::ui
