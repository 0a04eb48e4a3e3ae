#include "report/report_file.h"

#include "core/sha256.h"
#include "core/timestamp.h"
#include "core/version.h"
#include "experiment/analytics.h"
#include "io/experiment_file.h"
#include "io/file_io.h"

namespace sebo {

const char* to_string(ReportFormat format) {
    switch (format) {
    case ReportFormat::Html: return "html";
    case ReportFormat::Pdf: return "pdf";
    }
    return "html";
}

std::optional<ReportFormat> report_format_from_string(const std::string& text) {
    for (ReportFormat format : {ReportFormat::Html, ReportFormat::Pdf})
        if (text == to_string(format)) return format;
    return std::nullopt;
}

LoadedReportSource load_report_source(const std::string& path) {
    // One read: the bytes hashed are the bytes parsed.
    const std::string text = read_experiment_text(path);
    return {experiment_from_json_text(text), ReportSource{path, sha256_hex(text), false}};
}

std::string report_of(const Experiment& experiment, const ReportSource& source) {
    return report_html(experiment, analyze_frontier(experiment), source, ReportOptions{utc_timestamp(), program_version_text()});
}

void write_report(const std::string& html, const std::string& out_path, ReportFormat format, const BrowserOptions& browser) {
    write_file_atomic(out_path, format == ReportFormat::Html ? html : render_with_browser(html, BrowserOutput::Pdf, browser));
}

}  // namespace sebo
