#pragma once
// The status bar's permanent word on where the open experiment is saved: "Autosaves to
// c.sebo.json", "Autosaved to a recovery file at 12:01:07" (an untitled experiment, or a copy
// of a bundled example), "Read-only". The full path is in its tooltip.

#include <QLabel>
#include <QString>

namespace sebo::ui {

class ExperimentDocument;

class SaveStatusLabel : public QLabel {
    Q_OBJECT
public:
    explicit SaveStatusLabel(ExperimentDocument* document, QWidget* parent = nullptr);

private:
    void refresh();

    ExperimentDocument* document_;
    QString saved_at_;  // time of the last autosave, "" before the first
};

}  // namespace sebo::ui
