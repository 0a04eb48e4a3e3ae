#include "method_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include "configuration_inspector.h"
#include "method_choices.h"
#include "tinted_label.h"
#include "vertical_scroll_area.h"

namespace sebo::ui {

namespace {

QString describe_problem(const Experiment& e) {
    if (e.space.dimension() == 0) return QObject::tr("No experiment is open.");
    QString text;
    const int d = e.space.dimension();
    switch (e.evaluator.kind) {
    case EvaluatorSpec::Kind::Problem:
        text = QObject::tr("<b>%1</b>: built-in problem, %2 parameters")
                   .arg(QString::fromStdString(e.evaluator.problem.name).toHtmlEscaped())
                   .arg(d);
        break;
    case EvaluatorSpec::Kind::Manual:
        text = QObject::tr("<b>%1</b> parameters, results entered by hand").arg(d);
        break;
    case EvaluatorSpec::Kind::Command:
        text = QObject::tr("<b>%1</b> parameters, evaluated by an external command").arg(d);
        break;
    }
    if (e.space.has_groups()) text += QObject::tr(" in %1 groups").arg(e.space.group_count());
    // Every objective, constraint and tracked metric (issue 32: with several, only the first was named).
    const Outcomes& outcomes = e.outcomes;
    QStringList objectives;
    for (const Objective& o : outcomes.objectives)
        objectives << QObject::tr("%1 (%2)").arg(QString::fromStdString(o.metric).toHtmlEscaped(),
                                                 o.minimize ? QObject::tr("minimize") : QObject::tr("maximize"));
    text += "<br>" + (objectives.size() == 1 ? QObject::tr("Objective: %1") : QObject::tr("Objectives: %1"))
                         .arg(objectives.join(", "));
    QStringList constraints;
    for (const OutcomeConstraint& c : outcomes.constraints) constraints << QString::fromStdString(c.text()).toHtmlEscaped();
    if (!constraints.isEmpty())
        text += "<br>" + (constraints.size() == 1 ? QObject::tr("Constraint: %1") : QObject::tr("Constraints: %1"))
                             .arg(constraints.join(", "));
    QStringList tracked;
    for (const std::string& m : outcomes.metrics)
        if (!outcomes.objective_on(m) && !outcomes.is_constrained(m)) tracked << QString::fromStdString(m).toHtmlEscaped();
    if (!tracked.isEmpty()) text += "<br>" + QObject::tr("Tracked: %1").arg(tracked.join(", "));
    return text;
}

}  // namespace

QString MethodPanel::problemText() const { return problem_->text(); }

MethodPanel::MethodPanel(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    // Never narrower than the fields and buttons; scrolls when short.
    auto* scroll = new VerticalScrollArea(this);
    outer->addWidget(scroll);
    auto* content = new QWidget(scroll);
    scroll->setWidget(content);

    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 6, 6, 6);
    problem_ = new QLabel(content);
    problem_->setWordWrap(true);
    layout->addWidget(problem_);

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addLayout(form);

    auto* toggle = new QToolButton(content);
    toggle->setText(tr("Advanced settings"));
    toggle->setCheckable(true);
    toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toggle->setArrowType(Qt::RightArrow);
    toggle->setAutoRaise(true);
    layout->addWidget(toggle);
    advanced_box_ = new QWidget(content);
    auto* advanced_layout = new QVBoxLayout(advanced_box_);
    advanced_layout->setContentsMargins(0, 0, 0, 0);
    auto* advanced = new QFormLayout;
    advanced->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    advanced_layout->addLayout(advanced);
    auto* defaults = new QPushButton(tr("Paper defaults"), advanced_box_);
    defaults->setToolTip(tr("Put the paper's defaults into the advanced fields (then Apply)"));
    advanced_layout->addWidget(defaults, 0, Qt::AlignRight);
    advanced_box_->hide();
    layout->addWidget(advanced_box_);
    connect(toggle, &QToolButton::toggled, this, [this, toggle, scroll](bool on) {
        advanced_box_->setVisible(on);
        scroll->updateGeometry();  // the advanced fields may need more width
        toggle->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
    });
    connect(defaults, &QPushButton::clicked, this, &MethodPanel::resetAdvanced);

    buildFields(form, advanced);

    // Apply and Revert below the scrolling fields, so a short panel (a 1024×700 screen, the
    // advanced settings open) never hides them.
    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(6, 2, 6, 6);
    apply_ = new QPushButton(tr("Apply"), this);
    apply_->setToolTip(tr("Use these settings for the next steps"));
    revert_ = new QPushButton(tr("Revert"), this);
    revert_->setToolTip(tr("Show the experiment's current settings again"));
    buttons->addStretch(1);
    buttons->addWidget(revert_);
    buttons->addWidget(apply_);
    outer->addLayout(buttons);
    layout->addStretch(1);

    connect(apply_, &QPushButton::clicked, this, &MethodPanel::apply);
    connect(revert_, &QPushButton::clicked, this, &MethodPanel::revert);
    apply_->setEnabled(false);
    revert_->setEnabled(false);
    setEnabled(false);
}

void MethodPanel::addField(QFormLayout* form, const QString& label, const QString& tooltip, Field field) {
    auto* box = new QWidget;
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(1);
    field.editor->setParent(box);
    field.editor->setToolTip(tooltip);
    v->addWidget(field.editor);
    field.error = new TintedLabel(TintedLabel::Tint::Error, box);
    field.error->hide();
    v->addWidget(field.error);
    auto* name = new QLabel(label);
    name->setToolTip(tooltip);
    name->setBuddy(field.editor);
    form->addRow(name, box);
    fields_.push_back(std::move(field));
}

void MethodPanel::addIntField(QFormLayout* form, const QString& key, const QString& label, const QString& tooltip,
                              int MethodSettings::*member) {
    auto* edit = new QLineEdit;
    connect(edit, &QLineEdit::textEdited, this, &MethodPanel::markDirty);
    addField(form, label, tooltip,
             {key, edit, nullptr, [edit, member](const Experiment& e) { edit->setText(QString::number(e.method.*member)); },
              [edit, member](MethodChoice& c) -> std::optional<QString> {
                  bool ok = false;
                  const int value = edit->text().trimmed().toInt(&ok);
                  if (!ok) return tr("'%1' is not a whole number").arg(edit->text().trimmed());
                  c.method.*member = value;
                  return std::nullopt;
              }});
}

void MethodPanel::addRealField(QFormLayout* form, const QString& key, const QString& label, const QString& tooltip,
                               double MethodSettings::*member) {
    auto* edit = new QLineEdit;
    connect(edit, &QLineEdit::textEdited, this, &MethodPanel::markDirty);
    addField(form, label, tooltip,
             {key, edit, nullptr,
              [edit, member](const Experiment& e) { edit->setText(QString::number(e.method.*member, 'g', 10)); },
              [edit, member](MethodChoice& c) -> std::optional<QString> {
                  const std::optional<double> value = parse_user_number(edit->text());
                  if (!value) return tr("'%1' is not a number").arg(edit->text().trimmed());
                  c.method.*member = *value;
                  return std::nullopt;
              }});
}

void MethodPanel::addOptionalIntField(QFormLayout* form, const QString& key, const QString& label,
                                      const QString& tooltip, std::optional<int> MethodSettings::*member) {
    auto* edit = new QLineEdit;
    connect(edit, &QLineEdit::textEdited, this, &MethodPanel::markDirty);
    addField(form, label, tooltip,
             {key, edit, nullptr,
              [edit, member](const Experiment& e) {
                  const std::optional<int> value = e.method.*member;
                  edit->setText(value ? QString::number(*value) : QString());
              },
              [edit, member](MethodChoice& c) -> std::optional<QString> {
                  const QString text = edit->text().trimmed();
                  if (text.isEmpty()) {
                      c.method.*member = std::nullopt;
                      return std::nullopt;
                  }
                  bool ok = false;
                  const int value = text.toInt(&ok);
                  if (!ok) return tr("'%1' is not a whole number (leave it empty for the default)").arg(text);
                  c.method.*member = value;
                  return std::nullopt;
              }});
}

void MethodPanel::updateNutsDefaults() {
    auto* combo = qobject_cast<QComboBox*>(fieldEditor("method.nuts"));
    if (!combo || combo->currentIndex() < 0) return;
    const auto mode = static_cast<NutsMode>(combo->currentData().toInt());
    const NutsSchedule defaults = MethodSettings::nuts_defaults(mode);
    const bool fast = mode == NutsMode::Fast;
    const auto placeholder = [this](const QString& key, const QString& text) {
        if (auto* edit = qobject_cast<QLineEdit*>(fieldEditor(key))) edit->setPlaceholderText(text);
    };
    placeholder("method.nuts_warmup", tr("default: %1").arg(defaults.warmup));
    placeholder("method.nuts_samples", tr("default: %1").arg(defaults.samples));
    placeholder("method.nuts_thinning", tr("default: %1").arg(defaults.thinning));
    placeholder("method.nuts_max_tree_depth", tr("default: %1").arg(defaults.max_tree_depth));
    placeholder("method.nuts_chains", fast ? tr("default: one per CPU, at most %1").arg(MethodSettings::kMaxAutomaticChains)
                                           : tr("paper: 1"));
    placeholder("method.nuts_warm_warmup", fast ? tr("default: %1").arg(defaults.warm_warmup) : tr("paper: none"));
}

void MethodPanel::buildFields(QFormLayout* form, QFormLayout* advanced) {
    {
        auto* combo = new QComboBox;
        add_strategy_items(combo);
        connect(combo, &QComboBox::currentIndexChanged, this, &MethodPanel::markDirty);
        connect(combo, &QComboBox::currentIndexChanged, this, &MethodPanel::updateApplicability);
        addField(form, tr("&Strategy"), tr("How the next trials are proposed"),
                 {"method.strategy", combo, nullptr,
                  [combo](const Experiment& e) {
                      const int at = combo->findData(static_cast<int>(e.method.strategy));
                      if (at >= 0) combo->setCurrentIndex(at);
                  },
                  [combo](MethodChoice& c) -> std::optional<QString> {
                      if (combo->currentIndex() < 0) return tr("choose a strategy");
                      c.method.strategy = static_cast<StrategyKind>(combo->currentData().toInt());
                      return std::nullopt;
                  }});
        strategy_description_ = new QLabel(this);
        strategy_description_->setWordWrap(true);
        QFont small = strategy_description_->font();
        small.setPointSizeF(small.pointSizeF() * 0.9);
        strategy_description_->setFont(small);
        form->addRow(QString(), strategy_description_);
    }
    {
        auto* spin = new QSpinBox;
        spin->setRange(0, 100000);
        connect(spin, &QSpinBox::valueChanged, this, &MethodPanel::markDirty);
        addField(form, tr("&Initial trials"),
                 tr("Quasi-random (scrambled Sobol) trials before any model is used"),
                 {"method.initial_trials", spin, nullptr,
                  [spin](const Experiment& e) { spin->setValue(e.method.initial_trials); },
                  [spin](MethodChoice& c) -> std::optional<QString> {
                      c.method.initial_trials = spin->value();
                      return std::nullopt;
                  }});
    }
    {
        auto* spin = new QSpinBox;
        spin->setRange(1, 100000);
        connect(spin, &QSpinBox::valueChanged, this, &MethodPanel::markDirty);
        addField(form, tr("&Budget"), tr("Total number of trials to run to"),
                 {"method.budget", spin, nullptr, [spin](const Experiment& e) { spin->setValue(e.method.budget); },
                  [spin](MethodChoice& c) -> std::optional<QString> {
                      c.method.budget = spin->value();
                      return std::nullopt;
                  }});
    }
    {
        auto* edit = new QLineEdit;
        connect(edit, &QLineEdit::textEdited, this, &MethodPanel::markDirty);
        addField(form, tr("S&eed"),
                 tr("Seeds the Sobol design and every random choice; the same seed and data give the same trials"),
                 {"seed", edit, nullptr, [edit](const Experiment& e) { edit->setText(QString::number(e.seed)); },
                  [edit](MethodChoice& c) -> std::optional<QString> {
                      bool ok = false;
                      const qulonglong seed = edit->text().trimmed().toULongLong(&ok);
                      if (!ok)
                          return tr("'%1' is not a whole number from 0 to 18446744073709551615")
                              .arg(edit->text().trimmed());
                      c.seed = seed;
                      return std::nullopt;
                  }});
    }
    {
        auto* combo = new QComboBox;
        add_model_items(combo);
        connect(combo, &QComboBox::currentIndexChanged, this, &MethodPanel::markDirty);
        addField(form, tr("&Model"),
                 tr("Surrogate model: gp (standard GP, MAP), saas (SAAS prior sampled with NUTS, the paper's "
                    "default) or saas-map (fast approximation)"),
                 {"method.model", combo, nullptr,
                  [combo](const Experiment& e) {
                      combo->setCurrentIndex(std::max(0, combo->findData(e.method.model ? static_cast<int>(*e.method.model) : -1)));
                  },
                  [combo](MethodChoice& c) -> std::optional<QString> {
                      const int data = combo->currentData().toInt();
                      c.method.model = data < 0 ? std::nullopt : std::optional<ModelKind>(static_cast<ModelKind>(data));
                      return std::nullopt;
                  }});
    }
    {
        auto* combo = new QComboBox;
        combo->addItem(tr("strategy default"), -1);
        for (PenaltyKind kind : {PenaltyKind::L0, PenaltyKind::L1, PenaltyKind::GroupLasso})
            combo->addItem(QString::fromLatin1(to_string(kind)), static_cast<int>(kind));
        connect(combo, &QComboBox::currentIndexChanged, this, &MethodPanel::markDirty);
        addField(form, tr("&Penalty"), tr("Sparsity penalty of EI-ER / EI-IR (paper §4)"),
                 {"method.penalty", combo, nullptr,
                  [combo](const Experiment& e) {
                      combo->setCurrentIndex(
                          std::max(0, combo->findData(e.method.penalty ? static_cast<int>(*e.method.penalty) : -1)));
                  },
                  [combo](MethodChoice& c) -> std::optional<QString> {
                      const int data = combo->currentData().toInt();
                      c.method.penalty =
                          data < 0 ? std::nullopt : std::optional<PenaltyKind>(static_cast<PenaltyKind>(data));
                      return std::nullopt;
                  }});
    }
    addRealField(form, "method.lambda", tr("&λ (weight)"),
                 tr("EI-ER / EI-IR regularization weight, in standardized objective units per unit of penalty"),
                 &MethodSettings::lambda);
    addRealField(form, "method.bonsai_tolerance", tr("BONSAI to&lerance"),
                 tr("bonsai only: the pruning resets parameters to their targets while the candidate keeps at least "
                    "1 − this share of its expected improvement, in (0, 1] (default 0.2)"),
                 &MethodSettings::bonsai_tolerance);
    addOptionalIntField(form, "method.max_active", tr("Ma&x changes"),
                        tr("Sparsity range of interest: configurations with more changed parameters than this add no "
                           "hypervolume (empty: no limit). Needs the L0 penalty."),
                        &MethodSettings::max_active);
    addOptionalIntField(form, "method.min_active", tr("Mi&n changes"),
                        tr("Sparsity range of interest: fewer changed parameters than this are no better than this "
                           "many (empty: no floor). Needs the L0 penalty."),
                        &MethodSettings::min_active);
    for (const char* key : {"method.max_active", "method.min_active"})
        if (auto* edit = qobject_cast<QLineEdit*>(fieldEditor(key))) edit->setPlaceholderText(tr("none"));
    addIntField(form, "method.dense_steps", tr("Dense start"),
                tr("SEBO strategies, while the model sees noise: the first this many trials after the initial design "
                   "are proposed by the noisy EI without sparsity (by Thompson sampling once five or more of the EI's "
                   "trials measure no better than the initial design's), so that the model learns which parameters "
                   "matter before the sparse steps (default 15; 0: sparse from the start; not with Max changes)"),
                &MethodSettings::dense_steps);
    addIntField(form, "method.dense_steps_max", tr("Dense start, at most"),
                tr("SEBO strategies: the dense start goes on past its first trials, up to this many after the initial "
                   "design, while the model knows no parameter to matter (in 90 % of its samples none has a "
                   "lengthscale within about three times its range): a sparse step would choose which parameters to "
                   "change blindly (default 30; at most Dense start: never)"),
                &MethodSettings::dense_steps_max);
    {
        auto* check = new QCheckBox(tr("when the EI lags"));
        connect(check, &QCheckBox::clicked, this, &MethodPanel::markDirty);
        addField(form, tr("Then Thompson"),
                 tr("SEBO strategies: once five or more of the dense start's noisy-EI trials measure no better (by "
                    "their median) than the initial design's Sobol trials, the rest of the dense start is Thompson "
                    "sampling (default on; off: the noisy EI throughout, as files of format version 8 and older)"),
                 {"method.dense_thompson", check, nullptr,
                  [check](const Experiment& e) { check->setChecked(e.method.dense_thompson); },
                  [check](MethodChoice& c) -> std::optional<QString> {
                      c.method.dense_thompson = check->isChecked();
                      return std::nullopt;
                  }});
    }

    // Advanced: acquisition optimization (paper appendix E.1) and NUTS (paper §3).
    addIntField(advanced, "method.raw_samples", tr("Raw samples"),
                tr("Random candidates scored before picking the optimizer's starting points (default 1024)"),
                &MethodSettings::raw_samples);
    addIntField(advanced, "method.restarts", tr("Restarts"),
                tr("Starting points of the multi-start L-BFGS-B optimizer (default 20)"), &MethodSettings::restarts);
    addRealField(advanced, "method.homotopy_a_start", tr("Homotopy a from"),
                 tr("First smoothing a of the L0 approximation (paper: 10^-0.5)"), &MethodSettings::homotopy_a_start);
    addRealField(advanced, "method.homotopy_a_end", tr("Homotopy a to"),
                 tr("Last smoothing a (paper: 10^-3)"), &MethodSettings::homotopy_a_end);
    addIntField(advanced, "method.homotopy_steps", tr("Homotopy steps"),
                tr("Number of log-spaced a values (paper: 30)"), &MethodSettings::homotopy_steps);
    addRealField(advanced, "method.fixed_a", tr("Fixed a"), tr("sebo-l0-fixed-a only: the one smoothing a"),
                 &MethodSettings::fixed_a);
    {
        auto* combo = new QComboBox;
        for (NutsMode mode : all_nuts_modes()) combo->addItem(QString::fromLatin1(to_string(mode)), static_cast<int>(mode));
        combo->setItemData(0, tr("Chains in parallel on every CPU, warm-started from the previous step"), Qt::ToolTipRole);
        combo->setItemData(1, tr("The paper's single chain: 512 warm-up, 256 samples, every 16th kept, from scratch"),
                           Qt::ToolTipRole);
        connect(combo, &QComboBox::currentIndexChanged, this, &MethodPanel::markDirty);
        connect(combo, &QComboBox::currentIndexChanged, this, &MethodPanel::updateApplicability);
        connect(combo, &QComboBox::currentIndexChanged, this, &MethodPanel::updateNutsDefaults);
        addField(advanced, tr("NUTS sampling"),
                 tr("fast: several chains side by side, each step warm-started from the previous one (R-hat "
                    "checked); paper: the paper's single chain from scratch at every step, for reproducing it"),
                 {"method.nuts", combo, nullptr,
                  [combo](const Experiment& e) {
                      const int at = combo->findData(static_cast<int>(e.method.nuts));
                      if (at >= 0) combo->setCurrentIndex(at);
                  },
                  [combo](MethodChoice& c) -> std::optional<QString> {
                      c.method.nuts = static_cast<NutsMode>(combo->currentData().toInt());
                      return std::nullopt;
                  }});
    }
    addOptionalIntField(advanced, "method.nuts_warmup", tr("NUTS warm-up"),
                        tr("Full warm-up iterations of each chain (paper: 512); empty: the default"),
                        &MethodSettings::nuts_warmup);
    addOptionalIntField(advanced, "method.nuts_samples", tr("NUTS samples"),
                        tr("Samples after warm-up, all chains together (paper: 256); empty: the default"),
                        &MethodSettings::nuts_samples);
    addOptionalIntField(advanced, "method.nuts_thinning", tr("NUTS thinning"),
                        tr("Keep every n-th sample (paper: 16, giving 16 posterior samples); empty: the default"),
                        &MethodSettings::nuts_thinning);
    addOptionalIntField(advanced, "method.nuts_max_tree_depth", tr("NUTS tree depth"),
                        tr("Maximum tree depth of the No-U-Turn sampler (reference implementation: 6); empty: the default"),
                        &MethodSettings::nuts_max_tree_depth);
    addOptionalIntField(advanced, "method.nuts_chains", tr("NUTS chains"),
                        tr("fast only: chains run side by side, each keeping its share of the samples; empty: one per "
                           "CPU, at most 4"),
                        &MethodSettings::nuts_chains);
    addOptionalIntField(advanced, "method.nuts_warm_warmup", tr("Warm-start warm-up"),
                        tr("fast only: warm-up iterations of a chain started from the previous step's state or the "
                           "posterior mode (step size only); empty: the default (128)"),
                        &MethodSettings::nuts_warm_warmup);
    updateNutsDefaults();
}

void MethodPanel::updateApplicability() {
    auto* combo = qobject_cast<QComboBox*>(fieldEditor("method.strategy"));
    if (!combo || combo->currentIndex() < 0) return;
    const auto kind = static_cast<StrategyKind>(combo->currentData().toInt());
    strategy_description_->setText(QString::fromLatin1(describe(kind)));
    const bool model = uses_model(kind);
    const bool regularized = kind == StrategyKind::EiEr || kind == StrategyKind::EiIr;
    const bool homotopy = kind == StrategyKind::SeboL0;
    const auto* nuts = qobject_cast<QComboBox*>(fieldEditor("method.nuts"));
    const bool fast = !nuts || static_cast<NutsMode>(nuts->currentData().toInt()) == NutsMode::Fast;
    for (const Field& f : fields_) {
        bool applies = true;
        if (f.key == "method.nuts_chains" || f.key == "method.nuts_warm_warmup")
            applies = model && fast;
        else if (f.key == "method.model" || f.key == "method.raw_samples" || f.key == "method.restarts" ||
                 f.key.startsWith("method.nuts"))
            applies = model;
        else if (f.key == "method.penalty" || f.key == "method.lambda")
            applies = regularized;
        else if (f.key.startsWith("method.homotopy_"))
            applies = homotopy;
        else if (f.key == "method.fixed_a")
            applies = kind == StrategyKind::SeboL0FixedA;
        else if (f.key == "method.bonsai_tolerance")
            applies = kind == StrategyKind::Bonsai;
        else if (f.key == "method.dense_steps" || f.key == "method.dense_steps_max" || f.key == "method.dense_thompson")
            applies = is_sebo(kind);
        if (f.key == "seed") continue;  // governed by whether the experiment has trials
        f.editor->setEnabled(applies);
    }
}

void MethodPanel::resetAdvanced() {
    Experiment defaults;
    defaults.method = MethodSettings{};
    defaults.method.nuts = NutsMode::Paper;  // the paper's sampler too (the program's default is the fast one)
    for (Field& f : fields_) {
        const bool advanced = f.key == "method.raw_samples" || f.key == "method.restarts" ||
                              f.key.startsWith("method.homotopy_") || f.key == "method.fixed_a" ||
                              f.key.startsWith("method.nuts");
        if (advanced) f.load(defaults);
    }
    markDirty();
}

QWidget* MethodPanel::fieldEditor(const QString& key) const {
    for (const Field& f : fields_)
        if (f.key == key) return f.editor;
    return nullptr;
}

QString MethodPanel::fieldError(const QString& key) const {
    for (const Field& f : fields_)
        if (f.key == key) return f.error->isHidden() ? QString() : f.error->text();
    return {};
}

void MethodPanel::setSnapshot(SnapshotPtr snapshot) {
    snapshot_ = std::move(snapshot);
    const Experiment& e = snapshot_->experiment;
    problem_->setText(describe_problem(e));
    setEnabled(e.space.dimension() > 0 && !running_);
    if (dirty_) return;
    loading_ = true;
    for (Field& f : fields_) f.load(e);
    loading_ = false;
    updateApplicability();
    clearErrors();
    if (auto* seed = fieldEditor("seed")) {
        // The seed defines the whole Sobol sequence; changing it mid-run would mix two designs.
        seed->setEnabled(e.trials.empty());
        seed->setToolTip(e.trials.empty() ? tr("Seeds the Sobol design and every random choice")
                                          : tr("The seed is fixed once the experiment has trials"));
    }
}

void MethodPanel::setRunning(bool running) {
    running_ = running;
    setEnabled(!running && snapshot_ && snapshot_->experiment.space.dimension() > 0);
}

void MethodPanel::markDirty() {
    if (loading_) return;
    dirty_ = true;
    apply_->setEnabled(true);
    revert_->setEnabled(true);
}

void MethodPanel::clearErrors() {
    for (Field& f : fields_) {
        f.error->hide();
        f.editor->setStyleSheet({});
    }
}

void MethodPanel::showError(const QString& key, const QString& message) {
    for (Field& f : fields_) {
        if (f.key != key) continue;
        f.error->setText(message);
        f.error->show();
        f.editor->setStyleSheet(error_outline_style(f.editor->palette()));
        return;
    }
    // A message for a setting without its own editor: show it under the first field.
    if (!fields_.empty()) showError(fields_.front().key, key + ": " + message);
}

std::optional<MethodChoice> MethodPanel::readSettings() {
    clearErrors();
    if (!snapshot_) return std::nullopt;
    const Experiment& e = snapshot_->experiment;
    MethodChoice choice{e.method, e.seed};
    bool ok = true;
    for (Field& f : fields_) {
        if (auto error = f.store(choice)) {
            showError(f.key, *error);
            ok = false;
        }
    }
    if (!ok) return std::nullopt;
    if (auto error = choice.method.validate()) {
        // Engine messages are "<field path>: <what is wrong>".
        const QString message = QString::fromStdString(*error);
        const qsizetype colon = message.indexOf(QStringLiteral(": "));
        const QString key = colon > 0 ? message.left(colon) : QString();
        showError(key, colon > 0 ? message.mid(colon + 2) : message);
        return std::nullopt;
    }
    for (const auto& [key, value] : {std::pair{"method.max_active", choice.method.max_active},
                                     std::pair{"method.min_active", choice.method.min_active}})
        if (value && *value > e.max_sparsity()) {
            showError(key, tr("%1 is above the %2 %3 of the space")
                               .arg(*value)
                               .arg(e.max_sparsity())
                               .arg(e.space.has_groups() ? tr("parameter groups") : tr("parameters")));
            return std::nullopt;
        }
    const int trials = static_cast<int>(e.trials.size());
    if (choice.method.budget < trials) {
        showError("method.budget", tr("%1 is below the %2 trials the experiment already has")
                                       .arg(choice.method.budget)
                                       .arg(trials));
        return std::nullopt;
    }
    if (choice.method.initial_trials > choice.method.budget) {
        showError("method.initial_trials", tr("%1 initial trials exceed the budget of %2")
                                               .arg(choice.method.initial_trials)
                                               .arg(choice.method.budget));
        return std::nullopt;
    }
    return choice;
}

bool MethodPanel::apply() {
    const std::optional<MethodChoice> choice = readSettings();
    if (!choice) return false;
    dirty_ = false;
    apply_->setEnabled(false);
    revert_->setEnabled(false);
    emit applyRequested(*choice);
    return true;
}

void MethodPanel::revert() {
    dirty_ = false;
    apply_->setEnabled(false);
    revert_->setEnabled(false);
    if (snapshot_) setSnapshot(snapshot_);
}

}  // namespace sebo::ui
