#include "run_progress_widget.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>
#include <QTimer>
#include <cmath>

#include "experiment_snapshot.h"
#include "run_controller.h"

namespace sebo::ui {

RunProgressWidget::RunProgressWidget(RunController* controller, QStatusBar* status_bar, QWidget* parent)
    : QWidget(parent), controller_(controller), status_bar_(status_bar) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    phase_ = new QLabel(this);
    phase_->setTextFormat(Qt::PlainText);
    // Long phase texts are cut rather than pushing the bars out of the status bar.
    phase_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    phase_->setMinimumWidth(fontMetrics().averageCharWidth() * 12);
    phase_bar_ = new QProgressBar(this);
    phase_bar_->setTextVisible(false);
    phase_bar_->setFixedWidth(fontMetrics().averageCharWidth() * 12);
    phase_bar_->setToolTip(tr("Progress of the running step's current phase"));
    overall_bar_ = new QProgressBar(this);
    overall_bar_->setTextVisible(true);
    overall_bar_->setMinimumWidth(fontMetrics().horizontalAdvance(tr("10000 of 10000 · about 59 min left")) + 24);
    overall_bar_->setToolTip(tr("Trials of this run done, and the time left estimated from the steps so far"));
    layout->addWidget(phase_, 1);
    layout->addWidget(phase_bar_);
    layout->addWidget(overall_bar_);
    timer_ = new QTimer(this);
    timer_->setInterval(250);
    connect(timer_, &QTimer::timeout, this, &RunProgressWidget::refresh);
    connect(controller_, &RunController::runningChanged, this, &RunProgressWidget::onRunningChanged);
    connect(controller_, &RunController::progressChanged, this, &RunProgressWidget::refresh);
    connect(controller_, &RunController::stepCompleted, this, &RunProgressWidget::refresh);
    hide();
}

void RunProgressWidget::onRunningChanged(bool running) {
    if (running) {
        // A message from before the run ("Opened ...", "Completed 5 steps.") must not sit over the
        // first progress text.
        if (status_bar_) status_bar_->clearMessage();
        timer_->start();
        refresh();
        show();
    } else {
        timer_->stop();
        hide();
        phase_->clear();
    }
}

QString RunProgressWidget::remainingText(std::optional<double> seconds) {
    if (!seconds) return {};
    if (*seconds < 60.0) return tr("less than a minute left");
    const long long minutes = std::llround(*seconds / 60.0);
    if (minutes < 90) return tr("about %1 left").arg(count_text(minutes, tr("minute"), tr("minutes")));
    const double hours = *seconds / 3600.0;
    return tr("about %1 h left").arg(QString::number(hours, 'f', hours < 10 ? 1 : 0));
}

void RunProgressWidget::refresh() {
    if (!controller_->isRunning()) return;
    const RunProgress p = controller_->lastProgress();
    QString text = tr("Step %1 of %2: %3").arg(p.step).arg(p.steps_total).arg(p.phase);
    if (p.total > 0) text += QString(" %1/%2").arg(p.current).arg(p.total);
    if (!p.detail.isEmpty()) text += QString(" (%1)").arg(p.detail);
    text += tr(" · %1 s").arg(QString::number(controller_->stepSeconds(), 'f', 1));
    phase_->setText(text);
    phase_->setToolTip(text);
    if (p.total > 0) {
        phase_bar_->setRange(0, p.total);
        phase_bar_->setValue(p.current);
    } else {
        phase_bar_->setRange(0, 0);  // busy
    }
    const int total = controller_->stepsRequested();
    const int done = controller_->stepsDone();
    overall_bar_->setVisible(total > 1);
    overall_bar_->setRange(0, std::max(1, total));
    overall_bar_->setValue(done);
    QString overall = tr("%1 of %2").arg(done).arg(total);
    if (const QString left = remainingText(controller_->remainingSeconds()); !left.isEmpty()) overall += " · " + left;
    else overall += " · " + tr("estimating time");
    overall_bar_->setFormat(overall);
}

QString RunProgressWidget::phaseText() const { return phase_->text(); }

QString RunProgressWidget::overallText() const { return overall_bar_->isHidden() ? QString() : overall_bar_->text(); }

}  // namespace sebo::ui
