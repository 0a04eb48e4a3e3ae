#pragma once
// The method of the open experiment (SPEC §5): strategy, initial Sobol trials, budget and
// seed, plus a read-only description of the problem and evaluator. Following LabPlot's docks,
// the panel edits a copy of MethodSettings and hands it back whole (applyRequested); invalid
// input is refused with the message shown under the offending field.
//
// Each setting is one Field entry (editor + load + store), keyed by its path in the
// experiment file ("method.budget"). A new MethodSettings member (model, acquisition, advanced
// settings with the paper's defaults) is one more entry in buildFields(); MethodSettings::
// validate() messages that start with its key land under its editor automatically.

#include <QString>
#include <QWidget>
#include <functional>
#include <optional>
#include <vector>

#include "experiment_snapshot.h"

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace sebo::ui {

struct MethodChoice {
    MethodSettings method;
    std::uint64_t seed = 0;
};

class MethodPanel : public QWidget {
    Q_OBJECT
public:
    explicit MethodPanel(QWidget* parent = nullptr);
    // The problem's summary above the settings: parameters, every objective, constraint and
    // tracked metric (HTML).
    QString problemText() const;

    // Loads the experiment's settings unless the user has unapplied edits.
    void setSnapshot(SnapshotPtr snapshot);
    // Settings are locked while steps run.
    void setRunning(bool running);

    // Reads and checks every field; marks the bad ones and returns nothing when any is invalid.
    std::optional<MethodChoice> readSettings();
    bool hasPendingEdits() const { return dirty_; }

    // For tests: the editor and the message currently shown for a field key.
    QWidget* fieldEditor(const QString& key) const;
    QString fieldError(const QString& key) const;
    QPushButton* applyButton() const { return apply_; }

public slots:
    // Validates; emits applyRequested when valid.
    bool apply();
    void revert();

signals:
    void applyRequested(const sebo::ui::MethodChoice& choice);

private:
    struct Field {
        QString key;  // path in the experiment file, e.g. "method.budget"
        QWidget* editor = nullptr;
        QLabel* error = nullptr;
        std::function<void(const Experiment&)> load;
        // Parses the editor into the choice; returns a message when the text is not valid.
        std::function<std::optional<QString>(MethodChoice&)> store;
    };
    void buildFields(QFormLayout* form, QFormLayout* advanced);
    void addField(QFormLayout* form, const QString& label, const QString& tooltip, Field field);
    // An integer or real member of MethodSettings edited as text, so any typed value reaches
    // validate() and its message lands under the field.
    void addIntField(QFormLayout* form, const QString& key, const QString& label, const QString& tooltip,
                     int MethodSettings::*member);
    void addRealField(QFormLayout* form, const QString& key, const QString& label, const QString& tooltip,
                      double MethodSettings::*member);
    // An optional override (empty text: unset, the default shown as placeholder text).
    void addOptionalIntField(QFormLayout* form, const QString& key, const QString& label, const QString& tooltip,
                             std::optional<int> MethodSettings::*member);
    // The placeholders of the NUTS overrides follow the chosen mode's defaults.
    void updateNutsDefaults();
    // Settings that do not apply to the chosen strategy are disabled (they are kept, not lost).
    void updateApplicability();
    // Puts the paper's defaults into the advanced fields (not applied until Apply).
    void resetAdvanced();
    void showError(const QString& key, const QString& message);
    void clearErrors();
    void markDirty();

    SnapshotPtr snapshot_;
    std::vector<Field> fields_;
    QLabel* problem_;
    QLabel* strategy_description_;
    QWidget* advanced_box_;
    QPushButton* apply_;
    QPushButton* revert_;
    bool dirty_ = false;
    bool loading_ = false;
    bool running_ = false;
};

}  // namespace sebo::ui

Q_DECLARE_METATYPE(sebo::ui::MethodChoice)
