#pragma once
// Export of the chosen configurations (SPEC §5 "Pick ... and export them"), built on the
// engine's one-configuration exports (io/csv_export.h) so the GUI and the CLI write the same
// numbers in the user's units.
//
// JSON: {"experiment": name, "objective": {"name", "minimize"}, "configurations":
//        [ configuration_to_json(...) + "note", ... ]}
// CSV:  "trial,note,parameter,value,target,changed" — configuration_to_csv's rows, each
//        prefixed with its trial and note (a long table that spreadsheets pivot easily).

#include <QString>

#include "experiment/experiment.h"

namespace sebo::ui {

enum class ExportFormat { Json, Csv };

// The format a file name asks for (".csv" → CSV, anything else JSON).
ExportFormat export_format_for(const QString& path);

QString chosen_to_json(const Experiment& experiment, bool changed_only);
QString chosen_to_csv(const Experiment& experiment, bool changed_only);
// One configuration, as JSON or CSV (configuration_to_json / configuration_to_csv).
QString configuration_text(const Experiment& experiment, int trial, bool changed_only, ExportFormat format);

}  // namespace sebo::ui
