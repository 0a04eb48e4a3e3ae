// MainWindow: opening, creating, importing and saving experiment files, the recent-files and
// examples menus, the window layout, and the file dialogs (the class is in main_window.h).

#include "main_window.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMenu>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <optional>

#include "command_trust_store.h"
#include "example_catalog.h"
#include "experiment_document.h"
#include "file_locations.h"
#include "import_dialog.h"
#include "io/experiment_file.h"
#include "message_bar.h"
#include "new_experiment_dialog.h"
#include "resource_paths.h"
#include "run_controller.h"
#include "welcome_page.h"

namespace sebo::ui {

namespace {

constexpr int kMaxRecentFiles = 8;
const char* const kExperimentFilter = QT_TRANSLATE_NOOP("MainWindow", "SEBO experiments (*.sebo.json *.json);;All files (*)");

}  // namespace

// ---------------------------------------------------------------------------------------------
// Files

bool MainWindow::maybeSave() {
    if (!document_->hasExperiment() || !document_->isModified()) return true;
    const auto answer =
        ask(tr("Unsaved changes"),
            tr("%1 has changes that are not saved. Save them first?").arg(document_->displayName()),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Discard) {
        document_->discardRecovery();
        return true;
    }
    if (document_->filePath().isEmpty()) {
        const QString path = askSavePath(tr("Save experiment"), tr(kExperimentFilter), suggestedFileName());
        if (path.isEmpty()) return false;
        return saveFileAs(path);
    }
    return saveFile();
}

bool MainWindow::openFile(const QString& path) {
    if (controller_->isRunning()) {
        showError(tr("Cancel the running step before opening another experiment."));
        return false;
    }
    if (!maybeSave()) return false;
    if (auto error = document_->open(path)) {
        showError(tr("Could not open %1:\n%2\nThe current experiment is unchanged.")
                      .arg(QDir::toNativeSeparators(path), *error));
        if (!QFileInfo::exists(path)) removeRecentFile(path);
        return false;
    }
    // An opened file is someone else's until its command is approved (or trusted for it).
    controller_->revokeCommandApproval();
    message_bar_->dismiss();
    if (!document_->copySource().isEmpty()) {
        // A bundled example: the application's own file is never written.
        // One line even at 1024 pixels: a taller message bar would squeeze the frontier chart.
        showUnsavedNote(tr("A copy of the example %1 (never changed itself): new trials go to a recovery file until "
                           "Save As.")
                            .arg(QFileInfo(document_->copySource()).fileName()));
    } else {
        addRecentFile(document_->filePath());
    }
    statusBar()->showMessage(tr("Opened %1").arg(document_->displayName()), 5000);
    return true;
}

void MainWindow::showUnsavedNote(const QString& text) {
    message_bar_->showMessage(MessageBar::Kind::Information, text, kUnsavedTopic);
}

void MainWindow::offerRecovery() {
    const QStringList files = orphaned_recovery_files();
    if (files.isEmpty()) return;
    const QString path = files.first();
    // What it holds, so the person knows which experiment it is.
    QString what = QFileInfo(path).fileName();
    try {
        const Experiment e = load_experiment(path.toStdString());
        const QString name = QString::fromStdString(e.name);
        what = tr("%1 (%2)").arg(name.isEmpty() ? tr("an untitled experiment") : name,
                                 count_text(static_cast<long long>(e.trials.size()), tr("trial"), tr("trials")));
    } catch (const std::exception&) {
        // Opening it says what is wrong with it.
    }
    QString text = tr("%1 was not saved when the explorer last ended; it was kept in a recovery file, last written %2.")
                       .arg(what, QLocale().toString(QFileInfo(path).lastModified(), QLocale::ShortFormat));
    if (files.size() > 1) text += " " + tr("%1 more are offered one at a time.").arg(files.size() - 1);
    message_bar_->showMessage(MessageBar::Kind::Warning, text, "recovery");
    message_bar_->setAction(tr("Open it"), [this, path] { openRecovered(path); });
}

bool MainWindow::openRecovered(const QString& path) {
    if (controller_->isRunning()) {
        showError(tr("Cancel the running step before opening another experiment."));
        return false;
    }
    if (!maybeSave()) return false;
    if (auto error = document_->openRecovery(path)) {
        showError(tr("Could not open the recovery file %1:\n%2").arg(QDir::toNativeSeparators(path), *error));
        return false;
    }
    controller_->revokeCommandApproval();
    message_bar_->dismiss();
    showUnsavedNote(tr("Recovered %1. Save it (Ctrl+S) to keep it in a file of yours; discarding it deletes the "
                       "recovery file.")
                        .arg(document_->displayName()));
    return true;
}

bool MainWindow::newExperiment(Experiment experiment) {
    if (controller_->isRunning() || !maybeSave()) return false;
    document_->setExperiment(std::move(experiment));
    controller_->revokeCommandApproval();
    message_bar_->dismiss();
    showUnsavedNote(tr("New experiment created. Until you save it to a file (Ctrl+S) its trials are autosaved to a "
                       "recovery file; from then on every trial is written to your file as soon as it completes."));
    return true;
}

bool MainWindow::importExperiment(const QString& source) {
    if (controller_->isRunning()) {
        showError(tr("Cancel the running step before importing an experiment."));
        return false;
    }
    ImportDialog dialog(source, this);
    if (execDialog(dialog) != QDialog::Accepted) return false;
    std::optional<Experiment> experiment = dialog.experiment();
    if (!experiment || !newExperiment(std::move(*experiment))) return false;
    showUnsavedNote(tr("Imported %1. Its target: %2. Until you save it (Save As) its new trials go to a recovery file.")
                        .arg(QFileInfo(source).fileName(), dialog.targetDescription()));
    return true;
}

bool MainWindow::saveFile() {
    if (!document_->hasExperiment()) return false;
    if (document_->filePath().isEmpty()) {
        saveAsDialog();
        return !document_->isModified();
    }
    return saveFileAs(document_->filePath());
}

bool MainWindow::saveFileAs(const QString& path) {
    // Without an extension, Open's filter would hide the file: "mine" becomes "mine.sebo.json".
    const QString target = with_experiment_extension(path);
    if (target != path && QFileInfo::exists(target) &&
        ask(tr("Replace file?"), tr("%1 already exists. Replace it?").arg(QDir::toNativeSeparators(target)),
            QMessageBox::Yes | QMessageBox::No, QMessageBox::No) != QMessageBox::Yes)
        return false;
    if (auto error = document_->saveAs(target)) {
        showError(tr("Could not save %1: %2").arg(QDir::toNativeSeparators(target), *error));
        return false;
    }
    addRecentFile(document_->filePath());
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(document_->filePath())), 5000);
    return true;
}

QStringList MainWindow::recentFiles() const { return make_settings()->value("recentFiles").toStringList(); }

void MainWindow::addRecentFile(const QString& path) {
    if (!remember_recent_) return;
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecentFiles) files.removeLast();
    make_settings()->setValue("recentFiles", files);
    rebuildRecentMenu();
}

void MainWindow::removeRecentFile(const QString& path) {
    QStringList files = recentFiles();
    if (files.removeAll(QFileInfo(path).absoluteFilePath()) + files.removeAll(path) == 0) return;
    make_settings()->setValue("recentFiles", files);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    const QStringList files = recentFiles();
    recent_menu_->clear();
    QStringList existing;
    for (const QString& path : files) {
        if (!QFileInfo::exists(path)) continue;  // moved or deleted since
        existing << path;
        const QString label = QString("%1  (%2)").arg(QFileInfo(path).fileName(),
                                                      QDir::toNativeSeparators(QFileInfo(path).absolutePath()));
        QAction* a = recent_menu_->addAction(label);
        connect(a, &QAction::triggered, this, [this, path] { openFile(path); });
    }
    welcome_->setRecentFiles(existing);
    if (files.isEmpty()) {
        recent_menu_->addAction(tr("(no recent files)"))->setEnabled(false);
    } else {
        recent_menu_->addSeparator();
        connect(recent_menu_->addAction(tr("Clear list")), &QAction::triggered, this, [this] {
            make_settings()->remove("recentFiles");
            rebuildRecentMenu();
        });
    }
}

void MainWindow::rebuildExamplesMenu() {
    const QList<BundledExample> examples = bundled_example_catalog();
    welcome_->setExamples(examples);
    for (QMenu* menu : {examples_menu_, help_examples_menu_}) {
        menu->clear();
        menu->setToolTipsVisible(true);
        for (const BundledExample& example : examples) {
            QAction* a = menu->addAction(example.title);
            a->setToolTip(example.description.isEmpty() ? QDir::toNativeSeparators(example.path) : example.description);
            a->setStatusTip(example.description);
            const QString path = example.path;
            connect(a, &QAction::triggered, this, [this, path] { openFile(path); });
        }
        if (examples.isEmpty()) menu->addAction(tr("(no bundled examples found)"))->setEnabled(false);
    }
}

void MainWindow::restoreLayout(QSize available) {
    if (!available.isValid() && screen()) available = screen()->availableGeometry().size();
    auto settings = make_settings();
    const DockLayout::Restored restored = DockLayout::restore(this, docks_, *settings, available);
    // A window sized to the whole free area is that size without its frame: where the window
    // manager adds a title bar, the status bar (the save status, the progress, "Wrote the report")
    // ends up beyond the screen's edge (issue 32's walk-through at 1366×768 and 1024×700).
    // Maximized, the window manager fits the window with its frame. A saved layout keeps its state.
    if (restored != DockLayout::Restored::Saved && DockLayout::initialWindowSize(available) == available)
        setWindowState(windowState() | Qt::WindowMaximized);
    switch (restored) {
    case DockLayout::Restored::Nothing: return;
    case DockLayout::Restored::Saved: arrangement_ = DockLayout::arrangementFor(size()); break;
    case DockLayout::Restored::DefaultForSmallerScreen:
        statusBar()->showMessage(tr("The saved layout was made for a larger screen; the panels are placed for this "
                                    "one (View › Reset layout places them again)."),
                                 10000);
        arrangement_ = DockLayout::arrangementFor(size());
        break;
    }
    layout_placed_ = true;
}

void MainWindow::saveLayout() const {
    auto settings = make_settings();
    DockLayout::save(this, docks_, *settings, screen() ? screen()->availableGeometry().size() : QSize());
}

void MainWindow::resetLayout() {
    arrangement_ = DockLayout::arrangementFor(size());
    DockLayout::apply(this, docks_, arrangement_);
    layout_placed_ = true;
}

void MainWindow::setVisible(bool visible) {
    if (visible && !layout_placed_) resetLayout();
    QMainWindow::setVisible(visible);
}

void MainWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    if (!layout_placed_ || rearrange_posted_ || DockLayout::arrangementFor(size()) == arrangement_) return;
    // After the resize has been laid out, not inside it.
    rearrange_posted_ = true;
    QTimer::singleShot(0, this, [this] {
        rearrange_posted_ = false;
        if (DockLayout::arrangementFor(size()) != arrangement_) resetLayout();
    });
}

// ---------------------------------------------------------------------------------------------
// File dialogs (thin: ask for a path, then call the functions above)

QString MainWindow::dialogDirectory() const {
    return dialog_directory(document_->filePath(), make_settings()->value("lastDirectory").toString());
}

QString MainWindow::suggestedFileName() const {
    if (!document_->copySource().isEmpty()) return QFileInfo(document_->copySource()).fileName();
    QString name = QString::fromStdString(document_->experiment().name).simplified().replace(' ', '-');
    if (name.isEmpty()) name = "experiment";
    return with_experiment_extension(name);
}

QString MainWindow::askSavePath(const QString& title, const QString& filters, const QString& suggested) {
    auto settings = make_settings();
    const QString dir = dialogDirectory();
    const QString path = QFileDialog::getSaveFileName(this, title, QDir(dir).filePath(suggested), filters);
    if (!path.isEmpty()) settings->setValue("lastDirectory", QFileInfo(path).absolutePath());
    return path;
}

void MainWindow::openDialog() {
    auto settings = make_settings();
    const QString dir = dialogDirectory();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open experiment"), dir, tr(kExperimentFilter));
    if (path.isEmpty()) return;
    settings->setValue("lastDirectory", QFileInfo(path).absolutePath());
    openFile(path);
}

void MainWindow::importDialog() {
    auto settings = make_settings();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Import experiment"), dialogDirectory(),
        tr("Ax snapshots and Optuna storages (*.json *.db *.sqlite *.sqlite3 *.log *.jsonl);;All files (*)"));
    if (path.isEmpty()) return;
    settings->setValue("lastDirectory", QFileInfo(path).absolutePath());
    importExperiment(path);
}

void MainWindow::saveAsDialog() {
    if (!document_->hasExperiment()) return;
    const QString suggested = document_->filePath().isEmpty() ? suggestedFileName() : document_->filePath();
    const QString path = askSavePath(tr("Save experiment as"), tr(kExperimentFilter), QFileInfo(suggested).fileName());
    if (!path.isEmpty()) saveFileAs(path);
}

void MainWindow::newDialog() {
    if (controller_->isRunning()) return;
    NewExperimentDialog dialog(this);
    if (execDialog(dialog) != QDialog::Accepted || !newExperiment(dialog.experiment())) return;
    // The person just typed this command: it is theirs, and runs in this session without asking.
    const sebo::EvaluatorSpec& spec = document_->experiment().evaluator;
    if (spec.kind == sebo::EvaluatorSpec::Kind::Command) controller_->approveCommand(command_approval_key(spec));
}

}  // namespace sebo::ui
