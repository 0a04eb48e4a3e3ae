#pragma once
// The progress of a run in the status bar (issue 17, item 9): what the running step does, with
// its own bar ("Step 3 of 10: fitting model 120/256 · 4.1 s"), and, for a run of several trials,
// one overall bar with done/total and the time left estimated from the measured step times
// (run_eta.h). It sits among the status bar's permanent widgets, so a passing status message
// never covers it, and it clears a message left from before the run when one starts.

#include <QWidget>
#include <optional>

class QLabel;
class QProgressBar;
class QStatusBar;
class QTimer;

namespace sebo::ui {

class RunController;

class RunProgressWidget : public QWidget {
    Q_OBJECT
public:
    explicit RunProgressWidget(RunController* controller, QStatusBar* status_bar, QWidget* parent = nullptr);

    QString phaseText() const;
    QProgressBar* phaseBar() const { return phase_bar_; }
    QProgressBar* overallBar() const { return overall_bar_; }
    QString overallText() const;

    // "about 2 min left", "less than a minute left", ...; empty without an estimate.
    static QString remainingText(std::optional<double> seconds);

private:
    void onRunningChanged(bool running);
    void refresh();

    RunController* controller_;
    QStatusBar* status_bar_;
    QLabel* phase_;
    QProgressBar* phase_bar_;
    QProgressBar* overall_bar_;
    QTimer* timer_;
};

}  // namespace sebo::ui
