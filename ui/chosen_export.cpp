#include "chosen_export.h"

#include "io/csv_export.h"

namespace sebo::ui {

ExportFormat export_format_for(const QString& path) {
    return path.endsWith(".csv", Qt::CaseInsensitive) ? ExportFormat::Csv : ExportFormat::Json;
}

QString configuration_text(const Experiment& experiment, int trial, bool changed_only, ExportFormat format) {
    return QString::fromStdString(format == ExportFormat::Csv ? configuration_to_csv(experiment, trial, changed_only)
                                                              : configuration_to_json(experiment, trial, changed_only));
}

}  // namespace sebo::ui
