#include "outcome_text.h"

#include <QCoreApplication>
#include <QStringList>

#include "experiment_snapshot.h"

namespace sebo::ui {

QString objective_axis_title(const Objective& objective) {
    return QString::fromStdString(objective.metric) + (objective.minimize ? QString::fromUtf8(" \u2193") : QString::fromUtf8(" \u2191"));
}

namespace {
QString tr(const char* text) { return QCoreApplication::translate("sebo::ui::OutcomeText", text); }
}  // namespace

QString outcome_lines(const Experiment& experiment, const Trial& trial, const std::string& first) {
    std::vector<std::string> metrics{first};
    for (const std::string& m : experiment.outcomes.metrics)
        if (m != metrics.front()) metrics.push_back(m);
    QString text;
    for (const std::string& metric : metrics) {
        const Measurement* value = trial.measurement(metric);
        if (!value) continue;
        text += "<br>" + QString::fromStdString(metric).toHtmlEscaped() + ": " + display_number(value->mean);
        if (value->sem) text += QString(" ± %1").arg(display_number(*value->sem, 3));
    }
    if (const QString infeasible = infeasibility_text(experiment, trial); !infeasible.isEmpty())
        text += "<br><b>" + infeasible.toHtmlEscaped() + "</b>";
    return text;
}

QString infeasibility_text(const Experiment& experiment, const Trial& trial) {
    if (trial.status != TrialStatus::Completed || experiment.outcomes.constraints.empty()) return {};
    QStringList broken, missing;
    for (const OutcomeConstraint& c : experiment.outcomes.constraints) {
        const std::optional<double> value = trial.value(c.metric);
        if (!value) missing << QString::fromStdString(c.metric);
        else if (!c.holds(*value)) broken << QString::fromStdString(c.text());
    }
    missing.removeDuplicates();
    if (!broken.isEmpty()) return tr("Infeasible: %1 does not hold").arg(broken.join(", "));
    if (!missing.isEmpty()) return tr("Feasibility unknown: %1 was not recorded").arg(missing.join(", "));
    return {};
}

}  // namespace sebo::ui
