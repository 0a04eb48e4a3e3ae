// MainWindow: what the message bar says after the experiment changed — a chosen configuration that
// a new trial overtook (issue 32 item 5), and standard errors reported for only some measurements
// of a metric (issue 30 item 6). The class is in main_window.h.

#include "main_window.h"

#include <QTimer>
#include <map>

#include "comparison_view.h"
#include "experiment/overtaken_choices.h"
#include "experiment/standard_errors.h"
#include "experiment_document.h"
#include "message_bar.h"

namespace sebo::ui {

namespace {

constexpr const char* kOvertakenTopic = "overtaken";

QString trial_list(const std::vector<int>& trials) {
    QStringList names;
    for (int t : trials) names << QString::number(t);
    if (names.size() <= 1) return names.join(QString());
    const QString last = names.takeLast();
    return MainWindow::tr("%1 and %2").arg(names.join(", "), last);
}

}  // namespace

void MainWindow::postNotices() {
    // After the whole change: a replaced experiment (onExperimentReplaced, which follows the
    // snapshot) has marked its trials as seen, and what the action itself says (opening a file, a
    // new experiment) comes first, so the notice is the message that stays.
    if (notices_posted_) return;
    notices_posted_ = true;
    QTimer::singleShot(0, this, &MainWindow::showNotices);
}

void MainWindow::showNotices() {
    notices_posted_ = false;
    if (!document_->hasExperiment()) return;
    const Experiment& e = document_->experiment();
    if (noticeOvertaken(e)) return;
    warnPartialStandardErrors(e);
}

bool MainWindow::noticeOvertaken(const Experiment& experiment) {
    std::vector<int> arrived;
    for (const Trial& t : experiment.trials)
        if (t.status == TrialStatus::Completed && seen_completed_.insert(t.index).second) arrived.push_back(t.index);
    if (arrived.empty() || experiment.chosen.empty()) return false;
    std::map<int, std::vector<int>> by_chosen;  // chosen trial → the new trials that beat it
    std::vector<int> order;
    for (const OvertakenChoice& o : overtaken_choices(experiment, arrived)) {
        auto [it, added] = by_chosen.try_emplace(o.chosen);
        if (added) order.push_back(o.chosen);
        it->second.push_back(o.by);
    }
    if (order.empty()) return false;
    const bool constrained = !experiment.outcomes.constraints.empty();
    QStringList sentences;
    for (int chosen : order) {
        const std::vector<int>& by = by_chosen[chosen];
        QString sentence;
        if (by.size() == 1)
            sentence = constrained ? tr("Trial %1 beats chosen trial %2 on every objective and meets the constraints.")
                                   : tr("Trial %1 beats chosen trial %2 on every objective.");
        else
            sentence = constrained ? tr("Trials %1 beat chosen trial %2 on every objective and meet the constraints.")
                                   : tr("Trials %1 beat chosen trial %2 on every objective.");
        sentences << sentence.arg(trial_list(by)).arg(chosen);
    }
    sentences << tr("The choice may deserve a second look.");
    message_bar_->showMessage(MessageBar::Kind::Information, sentences.join(' '), kOvertakenTopic);
    // The first chosen configuration beside what overtook it.
    std::vector<int> compared{order.front()};
    for (int t : by_chosen[order.front()])
        if (static_cast<int>(compared.size()) < ComparisonActions::kMaxCandidates) compared.push_back(t);
    message_bar_->setAction(tr("Compare"), [this, compared] { comparison_->compare(compared); });
    return true;
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
