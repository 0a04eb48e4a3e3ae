#pragma once
// The explorer's exports of configurations: the format a file name asks for, and one configuration
// as text. What they write is the engine's (io/csv_export.h: configuration_to_csv/json, and
// chosen_to_csv/json for the chosen configurations), so the GUI and `sebo export` write the same.

#include <QString>

#include "experiment/experiment.h"

namespace sebo::ui {

enum class ExportFormat { Json, Csv };

// The format a file name asks for (".csv" → CSV, anything else JSON).
ExportFormat export_format_for(const QString& path);

// One configuration, as JSON or CSV (configuration_to_json / configuration_to_csv).
QString configuration_text(const Experiment& experiment, int trial, bool changed_only, ExportFormat format);

}  // namespace sebo::ui
