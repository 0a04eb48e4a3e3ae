// What a configuration changes, "name old → new" (experiment/configuration_changes.h): only the
// parameters that differ, in the space's order, a choice by its value, numbers in full, from the
// targets or between two configurations.
#include "experiment/configuration_changes.h"
#include "parameter_builders.h"
#include "test_main.h"
#include "test_support.h"

namespace test_configuration_changes {

using namespace sebo;

namespace {

SearchSpace service_space() {
    Parameter cache = test::integer("cache_mb", 64, 4096);
    cache.target = 256;
    Parameter mode = test::choice("mode", {"plain", "fast", "safe"});
    mode.target = 0;
    Parameter prefetch = test::continuous("prefetch");
    return SearchSpace({cache, mode, prefetch, test::fixed("region", 3)});
}

}  // namespace

class TestConfigurationChanges : public QObject {
    Q_OBJECT
private slots:
    void changesFromTheTargets() {
        const SearchSpace space = service_space();
        const std::vector<ParameterChange> changes = changes_from_target(space, {811, 1, 0.0});
        QCOMPARE(changes.size(), std::size_t{2});
        QCOMPARE(changes[0].parameter, 0);
        QCOMPARE(changes[0].from, 256.0);
        QCOMPARE(changes[0].to, 811.0);
        QCOMPARE(changes[1].from_text, std::string("plain"));
        QCOMPARE(changes[1].to_text, std::string("fast"));
        QCOMPARE(describe(changes), std::string("cache_mb 256 \u2192 811, mode plain \u2192 fast"));
        QCOMPARE(describe(changes, "\n"), std::string("cache_mb 256 \u2192 811\nmode plain \u2192 fast"));
        QCOMPARE(describe(changes_from_target(space, space.target())), std::string("no change"));
        // Numbers in full, not rounded to a few digits.
        QCOMPARE(describe(changes_from_target(space, {256, 0, 0.123456789})), std::string("prefetch 0 \u2192 0.123456789"));
    }

    void changesBetweenTwoConfigurations() {
        const SearchSpace space = service_space();
        const std::vector<ParameterChange> changes = parameter_changes(space, {811, 1, 0.5}, {811, 2, 0.25});
        QCOMPARE(describe(changes), std::string("mode fast \u2192 safe, prefetch 0.5 \u2192 0.25"));
        QVERIFY(parameter_changes(space, {811, 1, 0.5}, {811, 1, 0.5}).empty());
    }
};

SEBO_TEST_MAIN(TestConfigurationChanges)
}  // namespace test_configuration_changes
#include "test_configuration_changes.moc"
