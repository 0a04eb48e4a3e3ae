#pragma once
// The main window's prompts in UI tests: a handler that answers every question (save changes
// before closing, replacing or opening another experiment?) with Discard.

#include <QMessageBox>

#include "main_window.h"

namespace sebo::test {

inline ui::MainWindow::PromptHandler discard() {
    return [](const QString&, const QString&, QMessageBox::StandardButtons, QMessageBox::StandardButton) {
        return QMessageBox::Discard;
    };
}

}  // namespace sebo::test
