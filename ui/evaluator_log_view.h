#pragma once
// The Evaluator log (issue 17, item 7): what an external command writes to stderr, line by line
// while it runs, under a heading per evaluation ("Trial 7 — started 14:03:12"), and how each
// evaluation ended. The lines come from the engine's sink (CommandEvaluatorOptions::stderr_line)
// through the RunController; this view only shows them. It keeps the last kMaxLines lines.

#include <QDateTime>
#include <QSet>
#include <QWidget>

#include "experiment_snapshot.h"

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace sebo::ui {

class EvaluatorLogView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxLines = 20000;

    explicit EvaluatorLogView(QWidget* parent = nullptr);

    // Says what the log shows for this experiment's evaluator (nothing for built-in problems).
    void setSnapshot(const SnapshotPtr& snapshot);

    // The evaluations of a batch start (their programs may run at the same time); ignored unless
    // the experiment's evaluator is a command.
    void beginEvaluations(const QList<int>& trials, const QDateTime& when = QDateTime::currentDateTime());
    // One line of a program's stderr.
    void appendLine(int trial, const QString& line);
    // How the evaluation of a trial ended, from the trial as it was recorded.
    void endEvaluation(const Trial& trial);
    // Evaluations that ended without a recorded trial (the step was cancelled or failed).
    void endOpenEvaluations(const QString& how);
    // A note that `count` lines were dropped because they came faster than they could be shown.
    void noteDropped(int count);
    void clear();

    // The log as plain text, and the number of lines in it (for tests and copying).
    QString text() const;
    int lineCount() const;
    QPlainTextEdit* textView() const { return text_; }

private:
    enum class Style { Heading, Output, Success, Failure, Note };
    void append(const QString& text, Style style);

    QLabel* explanation_;
    QPlainTextEdit* text_;
    QCheckBox* follow_;
    QPushButton* clear_;
    QSet<int> open_;  // trials whose evaluation has begun and not ended
    bool command_ = false;  // the experiment's evaluator is an external command
};

}  // namespace sebo::ui
