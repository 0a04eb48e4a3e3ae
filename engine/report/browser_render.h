#pragma once
// A report as PDF (or a PNG picture of it) through a real browser engine run headless: Chromium
// (Debian: package chromium) lays the HTML out and prints it, so the PDF is what a reader's browser
// would show, not a second rendering of our own. The browser runs as a child process with a
// private, temporary profile, its output to a log, and a time limit; when it is missing, fails,
// or writes something that is not a PDF/PNG, the call throws and nothing is written.
// Used by `sebo report --format pdf` and the explorer's File › Export report… alike.

#include <optional>
#include <string>

namespace sebo {

// Looked for on PATH in this order.
inline constexpr const char* kBrowserNames[] = {"chromium", "chromium-browser", "google-chrome"};

struct BrowserOptions {
    std::string browser;            // a program name (looked up on PATH) or path; empty: kBrowserNames
    double timeout_seconds = 120.0;  // the browser is killed (with its children) after this
    int width = 1200, height = 1600;  // the window of a PNG picture, in pixels
};

enum class BrowserOutput { Pdf, Png };

// The absolute path of the browser to run (`preferred`, or the first of kBrowserNames found on
// PATH); unset when there is none.
std::optional<std::string> find_browser(const std::string& preferred = {});

// One sentence for messages: which browsers were looked for and how to install one.
std::string browser_missing_message();

// The bytes of the HTML document rendered by the browser, as PDF (A4, no header or footer) or as
// a PNG of options.width × options.height. Throws std::runtime_error when no browser is found
// (browser_missing_message()), it cannot be started, does not finish within the time limit, exits
// with an error, or writes no PDF/PNG — the message names the browser and ends with the last
// lines of its output.
std::string render_with_browser(const std::string& html, BrowserOutput output, const BrowserOptions& options = {});

}  // namespace sebo
