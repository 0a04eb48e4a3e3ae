#pragma once
// File › Export report… (issue 32 item 4): the experiment as one self-contained HTML file, or as
// PDF when a browser to print it is installed — the same report and the same writer as
// `sebo report` (engine/report/report_file.h). The main window only places the action and hands
// in how to ask for a path.

#include <QObject>
#include <QString>
#include <functional>
#include <optional>

class QAction;
class QWidget;

namespace sebo::ui {

class ExperimentDocument;

class ReportActions : public QObject {
    Q_OBJECT
public:
    // Asks for the path to write (title, file-dialog filters, suggested file name); empty: cancelled.
    using PathChooser = std::function<QString(const QString& title, const QString& filters, const QString& suggested)>;

    ReportActions(ExperimentDocument* document, QWidget* parent);

    QAction* exportAction() const { return export_; }
    void setPathChooser(PathChooser chooser) { choose_path_ = std::move(chooser); }

    // Writes the report of the document's experiment to `path`: PDF when it ends in .pdf,
    // otherwise HTML. The report names the experiment's file and the SHA-256 of its bytes, and says
    // when the experiment has changes not saved to it. The error message, or nothing on success.
    std::optional<QString> exportTo(const QString& path);

signals:
    // A one-line summary for the status bar after a report was written.
    void exported(const QString& summary);
    // A report could not be written (the message says why).
    void failed(const QString& message);

private:
    void exportDialog();
    void update();

    ExperimentDocument* document_;
    QWidget* parent_;
    QAction* export_;
    PathChooser choose_path_;
};

}  // namespace sebo::ui
