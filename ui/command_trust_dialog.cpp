#include "command_trust_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QGroupBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "evaluators/shell_quoting.h"

namespace sebo::ui {

namespace {

std::vector<std::string> to_std(const QStringList& names) {
    std::vector<std::string> out;
    for (const QString& name : names) out.push_back(name.toStdString());
    return out;
}

}  // namespace

CommandTrustDialog::CommandTrustDialog(CommandReview review, const QString& source, bool can_trust, QWidget* parent)
    : QDialog(parent), review_(std::move(review)) {
    setWindowTitle(tr("Run an external command?"));
    auto* layout = new QVBoxLayout(this);

    intro_ = tr("%1 evaluates every trial by running this program directly (never through a shell).").arg(source);
    auto* intro = new QLabel(intro_ + " " + tr("Only run commands you trust."), this);
    intro->setTextFormat(Qt::PlainText);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    details_ = new QPlainTextEdit(QString::fromStdString(review_.text()), this);
    details_->setReadOnly(true);
    details_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    details_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    details_->setAccessibleName(tr("What will run"));
    // Wide and tall enough for the whole review when it is short; it scrolls when it is long.
    const QFontMetrics metrics(details_->font());
    const int lines = static_cast<int>(details_->toPlainText().count('\n')) + 1;
    details_->setMinimumSize(metrics.horizontalAdvance(QString(96, QChar('0'))),
                             metrics.lineSpacing() * (std::min(lines, 20) + 1));
    layout->addWidget(details_, 1);

    const std::vector<std::string> hijacking = review_.hijacking_variables();
    if (!hijacking.empty()) {
        auto* box = new QGroupBox(tr("Variables that can change what runs (refused unless you allow them)"), this);
        auto* box_layout = new QVBoxLayout(box);
        for (const ReviewedVariable& v : review_.environment) {
            if (!v.hijack) continue;
            auto* check = new QCheckBox(tr("Allow %1").arg(QString::fromStdString(shell_quoted(v.name))), box);
            check->setProperty("variable", QString::fromStdString(v.name));
            check->setToolTip(QString::fromStdString(*v.hijack));
            connect(check, &QCheckBox::toggled, this, &CommandTrustDialog::updateRefusals);
            box_layout->addWidget(check);
            allow_.push_back(check);
        }
        refusals_label_ = new QLabel(box);
        refusals_label_->setTextFormat(Qt::PlainText);
        refusals_label_->setWordWrap(true);
        box_layout->addWidget(refusals_label_);
        layout->addWidget(box);
    }

    trust_ = new QCheckBox(tr("Trust this file's command: run it without asking while it stays exactly as shown"), this);
    trust_->setEnabled(can_trust);
    trust_->setToolTip(can_trust ? tr("Remembered for this file in your settings; any change of the program, its "
                                      "arguments, folder, environment, timeout or concurrency asks again.")
                                 : tr("Save the experiment to a file first."));
    layout->addWidget(trust_);

    auto* buttons = new QDialogButtonBox(this);
    run_ = buttons->addButton(tr("Run"), QDialogButtonBox::AcceptRole);
    QPushButton* cancel = buttons->addButton(QDialogButtonBox::Cancel);
    cancel->setDefault(true);
    cancel->setFocus();
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    updateRefusals();
}

QStringList CommandTrustDialog::hijackingVariables() const {
    QStringList names;
    for (const QCheckBox* check : allow_) names << check->property("variable").toString();
    return names;
}

QStringList CommandTrustDialog::allowedVariables() const {
    QStringList names;
    for (const QCheckBox* check : allow_)
        if (check->isChecked()) names << check->property("variable").toString();
    return names;
}

bool CommandTrustDialog::setAllowed(const QString& name, bool allowed) {
    for (QCheckBox* check : allow_) {
        if (check->property("variable").toString() != name) continue;
        check->setChecked(allowed);
        return true;
    }
    return false;
}

bool CommandTrustDialog::trustRequested() const { return trust_->isEnabled() && trust_->isChecked(); }
void CommandTrustDialog::setTrustRequested(bool trust) { trust_->setChecked(trust); }

QStringList CommandTrustDialog::refusals() const {
    QStringList out;
    for (const std::string& message : hijacking_refusals(review_, to_std(allowedVariables())))
        out << QString::fromStdString(message);
    return out;
}

void CommandTrustDialog::updateRefusals() {
    const QStringList messages = refusals();
    run_->setEnabled(messages.isEmpty());
    if (refusals_label_) {
        refusals_label_->setText(messages.join("\n"));
        refusals_label_->setVisible(!messages.isEmpty());
    }
}

QString CommandTrustDialog::text() const {
    QString text = intro_ + "\n\n" + QString::fromStdString(review_.text());
    const QStringList messages = refusals();
    if (!messages.isEmpty()) text += "\n\n" + messages.join("\n");
    return text + "\n\n" + tr("Only run commands you trust. Run it?");
}

}  // namespace sebo::ui
