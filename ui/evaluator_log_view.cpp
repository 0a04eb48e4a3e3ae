#include "evaluator_log_view.h"

#include <QCheckBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>
#include <QVBoxLayout>
#include <algorithm>

#include "palette_colors.h"
#include "tinted_label.h"

namespace sebo::ui {

namespace {

// Terminal colour and cursor sequences (ESC [ ... letter) are dropped; other control characters
// would show as boxes or move the text, so they become "?".
QString printable(const QString& line) {
    static const QRegularExpression csi(QStringLiteral("\\x1B\\[[0-9;?]*[ -/]*[@-~]"));
    QString text = line;
    text.remove(csi);
    for (QChar& c : text)
        if (c.category() == QChar::Other_Control && c != QLatin1Char('\t')) c = QLatin1Char('?');
    return text;
}

}  // namespace

EvaluatorLogView::EvaluatorLogView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 4);
    auto* header = new QHBoxLayout;
    explanation_ = new TintedLabel(TintedLabel::Tint::Muted, this);
    explanation_->setTextFormat(Qt::PlainText);
    follow_ = new QCheckBox(tr("Follow"), this);
    follow_->setChecked(true);
    follow_->setToolTip(tr("Keep the newest line in view"));
    clear_ = new QPushButton(tr("Clear"), this);
    clear_->setToolTip(tr("Empty the log (the trials keep the end of stderr of failed evaluations)"));
    header->addWidget(explanation_, 1);
    header->addWidget(follow_);
    header->addWidget(clear_);
    layout->addLayout(header);
    text_ = new QPlainTextEdit(this);
    text_->setReadOnly(true);
    text_->setLineWrapMode(QPlainTextEdit::NoWrap);
    text_->setMaximumBlockCount(kMaxLines);
    text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text_->setPlaceholderText(tr("Nothing yet."));
    layout->addWidget(text_, 1);
    connect(clear_, &QPushButton::clicked, this, &EvaluatorLogView::clear);
    connect(follow_, &QCheckBox::toggled, this, [this](bool on) {
        if (on) text_->verticalScrollBar()->setValue(text_->verticalScrollBar()->maximum());
    });
    setSnapshot(nullptr);
}

void EvaluatorLogView::setSnapshot(const SnapshotPtr& snapshot) {
    command_ = snapshot && snapshot->experiment.space.dimension() > 0 &&
               snapshot->experiment.evaluator.kind == EvaluatorSpec::Kind::Command;
    explanation_->setText(command_ ? tr("What the command writes to stderr, as it arrives")
                                  : tr("An external command's stderr appears here while it evaluates a trial; "
                                       "this experiment has no command."));
    explanation_->setToolTip(explanation_->text());
}

void EvaluatorLogView::append(const QString& text, Style style) {
    QTextCharFormat format;
    const QPalette p = text_->palette();
    switch (style) {
    case Style::Heading: format.setFontWeight(QFont::Bold); break;
    case Style::Output: break;
    case Style::Success: format.setForeground(muted_text(p)); break;
    case Style::Failure:
        format.setForeground(error_text(p));
        format.setFontWeight(QFont::Bold);
        break;
    case Style::Note:
        format.setForeground(muted_text(p));
        format.setFontItalic(true);
        break;
    }
    QScrollBar* bar = text_->verticalScrollBar();
    const bool at_end = bar->value() == bar->maximum();
    QTextCursor cursor(text_->document());
    cursor.movePosition(QTextCursor::End);
    if (!text_->document()->isEmpty()) cursor.insertBlock(QTextBlockFormat(), format);
    cursor.insertText(text, format);
    if (follow_->isChecked() && (at_end || style == Style::Heading)) bar->setValue(bar->maximum());
}

void EvaluatorLogView::beginEvaluations(const QList<int>& trials, const QDateTime& when) {
    if (!command_) return;
    for (int trial : trials) {
        open_.insert(trial);
        append(tr("── Trial %1 · started %2").arg(trial).arg(when.toString("HH:mm:ss")), Style::Heading);
    }
}

void EvaluatorLogView::appendLine(int trial, const QString& line) {
    append(QString("%1 │ %2").arg(trial, 4).arg(printable(line)), Style::Output);
}

void EvaluatorLogView::endEvaluation(const Trial& trial) {
    if (!open_.remove(trial.index)) return;
    const QString seconds = display_duration(trial.evaluation_seconds);
    if (trial.status == TrialStatus::Completed && !trial.values.empty()) {
        QStringList values;
        for (const auto& [metric, measurement] : trial.values)
            values << QString::fromStdString(metric) + " = " + display_number(measurement.mean);
        append(tr("── Trial %1 · completed in %2: %3").arg(trial.index).arg(seconds, values.join(", ")), Style::Success);
    } else {
        // The end of stderr that a failure quotes is already above, line by line.
        QString reason = QString::fromStdString(trial.error);
        if (const qsizetype cut = reason.indexOf(QStringLiteral("; stderr: ")); cut >= 0) reason.truncate(cut);
        append(tr("── Trial %1 · %2 after %3: %4")
                   .arg(trial.index)
                   .arg(QString::fromLatin1(to_string(trial.status)), seconds, printable(reason)),
               Style::Failure);
    }
}

void EvaluatorLogView::endOpenEvaluations(const QString& how) {
    QList<int> open(open_.begin(), open_.end());
    std::sort(open.begin(), open.end());
    for (int trial : open) append(tr("── Trial %1 · %2").arg(trial).arg(how), Style::Note);
    open_.clear();
}

void EvaluatorLogView::noteDropped(int count) {
    append(tr("(%1 not shown: they came faster than the window could show them)")
               .arg(count_text(count, tr("line"), tr("lines"))),
           Style::Note);
}

void EvaluatorLogView::clear() { text_->clear(); }

QString EvaluatorLogView::text() const { return text_->toPlainText(); }

int EvaluatorLogView::lineCount() const { return text_->document()->isEmpty() ? 0 : text_->blockCount(); }

}  // namespace sebo::ui
