#pragma once
// What the window shows when no experiment is open: create or open one, one of the bundled
// examples (each with its description), or a recent file. It scrolls when the window is small.

#include <QStringList>
#include <QWidget>

#include "example_catalog.h"

class QListWidget;
class QVBoxLayout;

namespace sebo::ui {

class WelcomePage : public QWidget {
    Q_OBJECT
public:
    explicit WelcomePage(QWidget* parent = nullptr);

    void setExamples(const QList<BundledExample>& examples);
    void setRecentFiles(const QStringList& paths);
    QListWidget* recentList() const { return recent_; }
    // The example entries, in order (for tests).
    QList<QWidget*> exampleButtons() const { return example_buttons_; }

signals:
    void newRequested();
    void openRequested();
    void exampleRequested(const QString& path);
    void recentRequested(const QString& path);

private:
    QVBoxLayout* examples_layout_;
    QList<QWidget*> example_buttons_;
    QListWidget* recent_;
};

}  // namespace sebo::ui
