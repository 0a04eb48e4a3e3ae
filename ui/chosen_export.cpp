#include "chosen_export.h"

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "io/csv_export.h"

namespace sebo::ui {

ExportFormat export_format_for(const QString& path) {
    return path.endsWith(".csv", Qt::CaseInsensitive) ? ExportFormat::Csv : ExportFormat::Json;
}

QString chosen_to_json(const Experiment& experiment, bool changed_only) {
    nlohmann::ordered_json out;
    out["experiment"] = experiment.name;
    out["objective"] = {{"name", experiment.primary_objective().metric}, {"minimize", experiment.primary_objective().minimize}};
    out["changed_only"] = changed_only;
    out["configurations"] = nlohmann::ordered_json::array();
    for (const ChosenConfiguration& c : experiment.chosen) {
        nlohmann::ordered_json one = nlohmann::ordered_json::parse(configuration_to_json(experiment, c.trial, changed_only));
        one["note"] = c.note;
        out["configurations"].push_back(std::move(one));
    }
    return QString::fromStdString(out.dump(2) + "\n");
}

QString chosen_to_csv(const Experiment& experiment, bool changed_only) {
    std::string out = "trial,note,parameter,value,target,changed\n";
    for (const ChosenConfiguration& c : experiment.chosen) {
        std::istringstream rows(configuration_to_csv(experiment, c.trial, changed_only));
        std::string line;
        std::getline(rows, line);  // configuration_to_csv's own header
        const std::string prefix = std::to_string(c.trial) + "," + csv_text_cell(c.note) + ",";
        while (std::getline(rows, line)) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (!line.empty()) out += prefix + line + "\n";
        }
    }
    return QString::fromStdString(out);
}

QString configuration_text(const Experiment& experiment, int trial, bool changed_only, ExportFormat format) {
    return QString::fromStdString(format == ExportFormat::Csv ? configuration_to_csv(experiment, trial, changed_only)
                                                              : configuration_to_json(experiment, trial, changed_only));
}

}  // namespace sebo::ui
