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

namespace {

QString trial_list(const std::vector<int>& trials) {
    QStringList names;
    for (int t : trials) names << QString::number(t);
    return names.join(", ");
}

// The metrics, `first` first.
std::vector<std::string> metric_order(const Experiment& e, const std::string& first) {
    std::vector<std::string> metrics{first};
    for (const std::string& m : e.outcomes.metrics)
        if (m != first) metrics.push_back(m);
    return metrics;
}

}  // namespace

QString configuration_lines(const ExperimentSnapshot& snapshot, const Trial& trial, const std::string& first) {
    const Experiment& e = snapshot.experiment;
    const std::vector<int> measurements = snapshot.measurementsOf(trial.index);
    const QString replicates = measurements.size() > 1
                                   ? tr("mean of %1 measurements (trials %2) ± its standard error")
                                         .arg(measurements.size())
                                         .arg(trial_list(measurements))
                                   : QString();
    const ConfigurationEstimate* c = snapshot.estimateOf(trial.index);
    if (!c) {
        QString text = outcome_lines(e, trial, first);
        if (!replicates.isEmpty()) text += "<br><i>" + replicates.toHtmlEscaped() + "</i>";
        return text;
    }
    QString text;
    for (const std::string& metric : metric_order(e, first)) {
        const QString name = QString::fromStdString(metric).toHtmlEscaped();
        if (const auto it = c->estimates.find(metric); it != c->estimates.end())
            text += "<br>" + tr("%1: %2 (model; 95 %: %3 – %4)")
                                 .arg(name, display_number(it->second.mean), display_number(it->second.lower, 4),
                                      display_number(it->second.upper, 4));
    }
    QStringList better;
    for (const auto& [metric, p] : c->p_better_than_status_quo)
        better << (c->p_better_than_status_quo.size() == 1 ? display_number(p, 2)
                                                           : QString("%1 %2").arg(QString::fromStdString(metric).toHtmlEscaped(),
                                                                                  display_number(p, 2)));
    if (!better.isEmpty()) text += "<br>" + tr("P(better than the status quo): %1").arg(better.join(", "));
    if (c->p_feasible) text += "<br>" + tr("P(feasible): %1").arg(display_number(*c->p_feasible, 2));
    // What was measured: the merged measurements of the configuration.
    const ExperimentSnapshot* measured = snapshot.measured.get();
    if (const Trial* m = measured ? measured->trial(trial.index) : nullptr) {
        QStringList values;
        for (const std::string& metric : metric_order(e, first))
            if (const Measurement* v = m->measurement(metric)) {
                QString value = QString::fromStdString(metric).toHtmlEscaped() + " " + display_number(v->mean);
                if (v->sem) value += QString(" ± %1").arg(display_number(*v->sem, 3));
                values << value;
            }
        text += "<br><i>" + (measurements.size() > 1 ? tr("Measured (mean of %1)").arg(measurements.size()) : tr("Measured")) +
                "</i>: " + values.join(", ");
    }
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
