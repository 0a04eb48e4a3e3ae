#pragma once
// One test runner per area (engine, cli, ui) instead of one executable per test file: every
// tests/<area>/test_*.cpp registers its QtTest class here, and the area's runner
// (tests/test_runner.cpp) runs the one named on its command line, so CTest still runs, names and
// times every file on its own (`<area>_tests test_sobol [QtTest options]`). Linking and
// moc-compiling ~100 executables took about a fifth of a cold build (docs/reliability.md, "CI").
//
// The files of an area are compiled in batches (a unity build, SEBO_UNITY_TESTS), so each test
// file puts everything after its includes, SEBO_TEST_MAIN included, in a namespace named after
// its stem (namespace test_sobol { ... }), and its moc include after that: two files' helpers of
// the same name (qs, fixture, make_parameter) and their `using namespace` lines do not meet.

#include <QObject>
#include <memory>

namespace sebo::test {

using TestFactory = std::unique_ptr<QObject> (*)();

// Registers a test class under the stem of the file that defines it (test_sobol for
// tests/engine/test_sobol.cpp). Two files with one stem in an area are refused at start-up.
struct TestRegistration {
    TestRegistration(const char* source_file, TestFactory make);
};

}  // namespace sebo::test

// Ends a test file in place of QTEST_MAIN / QTEST_GUILESS_MAIN / QTEST_APPLESS_MAIN. The area's
// runner makes the application object (QApplication for the ui area, QCoreApplication otherwise).
#define SEBO_TEST_MAIN(TestClass)                                                                  \
    namespace {                                                                                    \
    const ::sebo::test::TestRegistration sebo_test_registration_{                                  \
        __FILE__, []() -> std::unique_ptr<QObject> { return std::make_unique<TestClass>(); }};     \
    }
