#pragma once
// Writing a report (report/report_html.h) to a file: the one implementation behind `sebo report`
// and the explorer's File › Export report…. HTML needs nothing else; PDF is the HTML printed by a
// headless browser (report/browser_render.h).

#include <optional>
#include <string>
#include <vector>

#include "experiment/experiment.h"
#include "report/browser_render.h"
#include "report/report_html.h"

namespace sebo {

enum class ReportFormat { Html, Pdf };

const char* to_string(ReportFormat format);  // "html", "pdf"
std::optional<ReportFormat> report_format_from_string(const std::string& text);

// An experiment file read once (the checked read of io/file_io.h), its bytes hashed and parsed:
// the experiment and where it came from. Throws InputError as load_experiment does.
struct LoadedReportSource {
    Experiment experiment;
    ReportSource source;
};
LoadedReportSource load_report_source(const std::string& path);

// The report of an experiment, analysed here (analyze_frontier), stamped with the current time
// and this program's version.
std::string report_of(const Experiment& experiment, const ReportSource& source);

// Writes the report as `format` to `out_path`, atomically (io/file_io.h): the HTML as it is, or
// the PDF the browser printed from it. Throws std::runtime_error when the browser fails (nothing
// is written then) or the file cannot be written.
void write_report(const std::string& html, const std::string& out_path, ReportFormat format,
                  const BrowserOptions& browser = {});

}  // namespace sebo
