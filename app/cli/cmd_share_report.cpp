// sebo report — a report to share (issue 32 item 4): one self-contained HTML file (or its PDF) of
// an experiment's question, frontier, chosen configurations, progress, method, warnings and
// provenance (engine/report/report_html.h). Kept apart from cmd_report.cpp, which holds the
// terminal views info, frontier and export.
#include <cstdio>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "core/format.h"
#include "report/report_file.h"

namespace sebo::cli {

namespace {

bool ends_with_pdf(const std::string& path) {
    return path.size() >= 4 && lower_case(path.substr(path.size() - 4)) == ".pdf";
}

}  // namespace

int command_report(const Args& args) {
    Arguments parser("report", "FILE --out PATH [--format html|pdf]",
                     "Write a report to share: one self-contained HTML file (inline charts, nothing fetched)\n"
                     "with the question (objectives, constraints, the space), the frontier with a table per\n"
                     "number of changes, the chosen configurations compared with the status quo, the\n"
                     "hypervolume trace, which parameters the frontier changes, the method, warnings (model\n"
                     "fits that did not converge, excluded, failed and pending trials) and where it came from\n"
                     "(the file, the SHA-256 of its bytes, the trials' dates, the evaluator).\n"
                     "PDF is the HTML printed by a headless Chromium (Debian: apt install chromium).",
                     {{"out", "PATH", "the report to write (atomically)"},
                      {"format", "html|pdf", "html (the default), or pdf; without it, a PATH ending in .pdf means pdf"},
                      {"browser", "PROGRAM", "the browser that prints the PDF (default: the first of chromium,\n"
                                             "                            chromium-browser, google-chrome on PATH)"},
                      {"timeout", "S", "seconds the browser may take (default 120)"}},
                     1, "FILE");
    if (!parser.parse(args)) {
        std::fputs(parser.help().c_str(), stdout);
        return 0;
    }
    if (parser.positionals().empty()) throw UsageError("an experiment FILE is required");
    const std::optional<std::string> out = parser.value("out");
    if (!out || out->empty()) throw UsageError("--out PATH is required (the report to write)");
    ReportFormat format = ends_with_pdf(*out) ? ReportFormat::Pdf : ReportFormat::Html;
    if (const auto text = parser.value("format")) {
        const auto parsed = report_format_from_string(*text);
        if (!parsed) throw UsageError("--format: '" + *text + "' is not a report format; expected html or pdf");
        format = *parsed;
    }
    BrowserOptions browser;
    if (const auto name = parser.value("browser")) browser.browser = *name;
    if (const auto seconds = parser.number("timeout")) {
        if (!(*seconds > 0.0)) throw UsageError("--timeout: " + format_number(*seconds) + " is not a positive number of seconds");
        browser.timeout_seconds = *seconds;
    }
    // The browser is looked for before anything is read, so that a missing one is said at once.
    if (format == ReportFormat::Pdf && !find_browser(browser.browser))
        throw UsageError(browser.browser.empty() ? "--format pdf: " + browser_missing_message()
                                                 : "--browser: '" + browser.browser + "' is not an executable file on PATH");
    const LoadedReportSource loaded = load_report_source(parser.positionals().front());
    write_report(report_of(loaded.experiment, loaded.source), *out, format, browser);
    std::printf("wrote %s (%s) of %s\n", out->c_str(), to_string(format), parser.positionals().front().c_str());
    return 0;
}

}  // namespace sebo::cli
