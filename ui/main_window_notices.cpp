// MainWindow: what the message bar says after the experiment changed — standard errors reported
// for only some measurements of a metric (issue 30 item 6). The class is in main_window.h.

#include "main_window.h"

#include <QTimer>

#include "experiment/standard_errors.h"
#include "experiment_document.h"
#include "message_bar.h"

namespace sebo::ui {

void MainWindow::postNotices() {
    // After the whole change: what the action itself says (opening a file, a new experiment) comes
    // first, so the notice is the message that stays.
    if (notices_posted_) return;
    notices_posted_ = true;
    QTimer::singleShot(0, this, &MainWindow::showNotices);
}

void MainWindow::showNotices() {
    notices_posted_ = false;
    if (!document_->hasExperiment()) return;
    warnPartialStandardErrors(document_->experiment());
}

void MainWindow::warnPartialStandardErrors(const Experiment& experiment) {
    // Once per metric and experiment (issue 30 item 6): the model then infers the noise and does not
    // use the standard errors reported, which nothing in the data shows.
    for (const PartialStandardErrors& partial : partial_standard_errors(experiment)) {
        const QString metric = QString::fromStdString(partial.metric);
        if (warned_partial_.contains(metric)) continue;
        warned_partial_ << metric;
        message_bar_->showMessage(MessageBar::Kind::Warning,
                                  tr("Standard errors: %1.").arg(QString::fromStdString(describe(partial))), "partial-sem");
        return;
    }
}

}  // namespace sebo::ui
