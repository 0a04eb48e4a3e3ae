#pragma once
// What the window shows when no experiment is open: create or open one, one of the bundled
// examples (each with the start of its description, all of it in its tooltip), or a recent file.
// Compact, so that the examples are in view without scrolling in the room the panels leave at
// 1366×768 (issue 32); it scrolls when the window is smaller.

#include <QStringList>
#include <QWidget>

#include "example_catalog.h"

class QGridLayout;
class QListWidget;
class QScrollArea;

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
    QScrollArea* scrollArea() const { return scroll_; }

signals:
    void newRequested();
    void openRequested();
    void exampleRequested(const QString& path);
    void recentRequested(const QString& path);

private:
    QScrollArea* scroll_;
    QGridLayout* examples_layout_;
    QList<QWidget*> example_buttons_;
    QListWidget* recent_;
};

}  // namespace sebo::ui
