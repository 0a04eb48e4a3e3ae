#pragma once
// The strip above the chart while the open file is read-only because another process runs it
// (docs/file-format.md, "Several writers"): who runs it, since when, and — once the file changed
// on disk — a Reload button, which reads it again (and gets write access back when that
// process is done).

#include <QFrame>
#include <QString>

class QLabel;
class QPushButton;

namespace sebo::ui {

class ExperimentDocument;

class ReadOnlyBanner : public QFrame {
    Q_OBJECT
public:
    explicit ReadOnlyBanner(ExperimentDocument* document, QWidget* parent = nullptr);

    QString text() const;
    QPushButton* reloadButton() const { return reload_; }

signals:
    // Reload could not read the file (it names the reason).
    void reloadFailed(const QString& message);

private:
    void refresh();

    ExperimentDocument* document_;
    QLabel* label_;
    QPushButton* reload_;
    bool changed_ = false;
};

}  // namespace sebo::ui
