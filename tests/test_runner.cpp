// The main() of an area's test runner (tests/test_main.h): `<area>_tests TEST [QtTest options]`
// runs the test class registered by tests/<area>/TEST.cpp, exactly as that file's own QTEST_MAIN
// would have (the application object, 96-dpi fonts, the source path for QFINDTESTDATA);
// `<area>_tests --list` prints the registered names.
#include <QtTest>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#ifdef SEBO_TEST_GUI_APPLICATION
#include <QApplication>
using TestApplication = QApplication;
#else
using TestApplication = QCoreApplication;
#endif

#include "test_main.h"

namespace sebo::test {
namespace {

struct RegisteredTest {
    std::string name;
    std::string source_file;
    TestFactory make;
};

std::vector<RegisteredTest>& registry() {
    static std::vector<RegisteredTest> tests;
    return tests;
}

std::string file_stem(const std::string& path) {
    const std::size_t slash = path.find_last_of('/');
    std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    const std::size_t dot = name.find('.');
    return dot == std::string::npos ? name : name.substr(0, dot);
}

}  // namespace

TestRegistration::TestRegistration(const char* source_file, TestFactory make) {
    registry().push_back({file_stem(source_file), source_file, make});
}

}  // namespace sebo::test

int main(int argc, char* argv[]) {
    using sebo::test::registry;
    std::vector<sebo::test::RegisteredTest>& tests = registry();
    std::sort(tests.begin(), tests.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    for (std::size_t i = 1; i < tests.size(); ++i)
        if (tests[i].name == tests[i - 1].name) {
            std::fprintf(stderr, "two test files named %s: %s and %s\n", tests[i].name.c_str(),
                         tests[i - 1].source_file.c_str(), tests[i].source_file.c_str());
            return 2;
        }
    const std::string requested = argc > 1 ? argv[1] : "";
    if (requested.empty() || requested == "--list" || requested == "--help") {
        std::FILE* out = requested.empty() ? stderr : stdout;
        if (requested != "--list")
            std::fprintf(out, "usage: %s TEST [QtTest options]   (TEST: one of the names below)\n", argv[0]);
        for (const auto& t : tests) std::fprintf(out, "%s\n", t.name.c_str());
        return requested.empty() ? 2 : 0;
    }
    const auto found = std::find_if(tests.begin(), tests.end(), [&](const auto& t) { return t.name == requested; });
    if (found == tests.end()) {
        std::fprintf(stderr, "%s: no test named '%s' (--list names them)\n", argv[0], requested.c_str());
        return 2;
    }
    // QtTest sees the program name followed by the options after TEST.
    std::vector<char*> qtest_argv{argv[0]};
    for (int i = 2; i < argc; ++i) qtest_argv.push_back(argv[i]);
    int qtest_argc = static_cast<int>(qtest_argv.size());
    qtest_argv.push_back(nullptr);

    TestApplication app(qtest_argc, qtest_argv.data());
    app.setAttribute(Qt::AA_Use96Dpi, true);
    const std::unique_ptr<QObject> test = found->make();
    QTest::setMainSourcePath(found->source_file.c_str(), QT_TESTCASE_BUILDDIR);
    return QTest::qExec(test.get(), qtest_argc, qtest_argv.data());
}
