// Merging a file another process changed (io/experiment_merge.h) and the shared-file protocol
// built on it (io/shared_experiment_file.h): each rule of the three-way merge on hand-built
// cases (results recorded elsewhere, new trials on either side, clashing indices, clashing
// results, a file replaced by an older copy, exclusions, settings, chosen configurations, fit
// records and the sampler state, another problem),
// then the save/refresh/edit/replace protocol on real files.

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <algorithm>

#include "core/input_error.h"
#include "experiment/trial_exclusion.h"
#include "io/experiment_file.h"
#include "io/experiment_merge.h"
#include "io/shared_experiment_file.h"
#include "test_main.h"
#include "test_support.h"

namespace test_experiment_merge {

using namespace sebo;

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

Parameter parameter(std::string name) {
    Parameter p;
    p.name = std::move(name);
    p.lower = 0.0;
    p.upper = 10.0;
    return p;
}

Trial pending(int index, double x, double y) {
    Trial t;
    t.index = index;
    t.parameters = {x, y};
    t.generator = "manual";
    t.created_at = "2026-11-25T10:00:00Z";
    return t;
}

Trial completed(int index, double x, double y, double value) {
    Trial t = pending(index, x, y);
    t.status = TrialStatus::Completed;
    t.values["yield"] = {value, std::nullopt};
    t.completed_at = "2026-11-25T11:00:00Z";
    return t;
}

// A manual experiment with trial 0 completed and trials 1, 2 pending.
Experiment base_experiment() {
    Experiment e;
    e.name = "lab";
    e.space = SearchSpace({parameter("x"), parameter("y")});
    e.outcomes = Outcomes::single("yield", false);
    e.evaluator.kind = EvaluatorSpec::Kind::Manual;
    e.method.budget = 20;
    e.trials = {completed(0, 1, 1, 5.0), pending(1, 2, 2), pending(2, 3, 3)};
    return e;
}

void record(Experiment& e, int index, double value) {
    Trial* t = e.find_trial(index);
    QVERIFY(t);
    t->status = TrialStatus::Completed;
    t->values["yield"] = {value, std::nullopt};
    t->completed_at = "2026-11-25T12:00:00Z";
}

const Trial& trial(const Experiment& e, int index) {
    const Trial* t = e.find_trial(index);
    if (!t) throw std::runtime_error("no trial " + std::to_string(index));
    return *t;
}

std::vector<int> indices(const Experiment& e) {
    std::vector<int> out;
    for (const Trial& t : e.trials) out.push_back(t.index);
    std::sort(out.begin(), out.end());
    return out;
}

using Pairs = std::vector<std::pair<int, int>>;

// What a fast SAAS-NUTS step records (issue 15): the fit behind a trial, and the sampler state
// of the experiment (2 inputs: 5 coordinates, diagonal metric).
FitRecord fit_record(double rhat) {
    FitRecord r;
    r.nuts = "fast";
    r.chains = 2;
    r.start = "warm";
    r.warmup = 64;
    r.draws = 128;
    r.rhat = rhat;
    r.ess_bulk = 310.5;
    r.parameters = {{"x", 1.002, 250.0}, {"y", std::nullopt, std::nullopt}};
    r.seconds = 1.25;
    return r;
}

// The objective's state (one metric: the state of version 3-5 files, as version 6 keeps it).
SamplerState sampler_state(double step_size) {
    MetricSamplerState s;
    s.metric = "yield";
    s.trials = {0};
    s.fingerprint = 12345;
    s.step_size = step_size;
    s.dense_metric = false;
    s.positions = {{-1.0, 0.5, 0.25, -2.0, 0.1}, {-0.9, 0.4, 0.3, -2.1, 0.2}};
    s.inverse_metric = {1.0, 0.5, 0.5, 2.0, 0.1};
    return SamplerState{{s}};
}

}  // namespace

class TestExperimentMerge : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // The case: `sebo observe` records trial 1 while the explorer holds an older copy.
    void resultRecordedElsewhereIsKept() {
        const Experiment base = base_experiment();
        Experiment theirs = base;
        record(theirs, 1, 7.5);
        const MergeResult r = merge_experiments(&base, base, theirs);
        QCOMPARE(trial(r.experiment, 1).status, TrialStatus::Completed);
        QCOMPARE(*trial(r.experiment, 1).value("yield"), 7.5);
        QCOMPARE(r.report.results_recorded, std::vector<int>{1});
        QVERIFY(r.report.trials_added.empty() && r.report.renumbered.empty());
        QCOMPARE(qs(describe_merge(r.report, "outside the explorer").at(0)),
                 QString("Trial 1's result was recorded outside the explorer."));
    }

    void resultsOnBothSidesForDifferentTrialsAreAllKept() {
        const Experiment base = base_experiment();
        Experiment mine = base, theirs = base;
        record(mine, 1, 1.5);
        record(theirs, 2, 2.5);
        const MergeResult r = merge_experiments(&base, mine, theirs);
        QCOMPARE(*trial(r.experiment, 1).value("yield"), 1.5);
        QCOMPARE(*trial(r.experiment, 2).value("yield"), 2.5);
        QCOMPARE(r.report.results_recorded, std::vector<int>{2});
        QCOMPARE(r.experiment.count(TrialStatus::Pending), 0);
    }

    // `sebo suggest` elsewhere added pending trial 3; this side added nothing: kept as it is.
    void newTrialsElsewhereAreKept() {
        const Experiment base = base_experiment();
        Experiment theirs = base;
        theirs.trials.push_back(pending(3, 4, 4));
        theirs.trials.push_back(completed(4, 5, 5, 9.0));
        const MergeResult r = merge_experiments(&base, base, theirs);
        QCOMPARE(indices(r.experiment), (std::vector<int>{0, 1, 2, 3, 4}));
        QCOMPARE(r.report.trials_added, (std::vector<int>{3, 4}));
        QCOMPARE(qs(describe_merge(r.report).at(0)), QString("Trials 3 and 4 were added elsewhere."));
    }

    // Both sides made a trial 3 (a run's step and a suggest at the same time): the file's keeps
    // the number, this side's becomes trial 4, and its pick follows it.
    void sameNewIndexOnBothSidesRenumbersMine() {
        const Experiment base = base_experiment();
        Experiment mine = base, theirs = base;
        mine.trials.push_back(completed(3, 6, 6, 4.0));
        mine.chosen.push_back({3, "mine"});
        theirs.trials.push_back(pending(3, 7, 7));
        const MergeResult r = merge_experiments(&base, mine, theirs);
        QCOMPARE(indices(r.experiment), (std::vector<int>{0, 1, 2, 3, 4}));
        QCOMPARE(trial(r.experiment, 3).parameters, (std::vector<double>{7, 7}));
        QCOMPARE(trial(r.experiment, 3).status, TrialStatus::Pending);
        QCOMPARE(trial(r.experiment, 4).parameters, (std::vector<double>{6, 6}));
        QCOMPARE(*trial(r.experiment, 4).value("yield"), 4.0);
        QCOMPARE(r.report.renumbered, (Pairs{{3, 4}}));
        QCOMPARE(r.report.new_index(3), 4);
        QCOMPARE(r.report.new_index(1), 1);
        QCOMPARE(r.experiment.chosen.size(), std::size_t{1});
        QCOMPARE(r.experiment.chosen[0].trial, 4);
        QVERIFY(!r.experiment.validate());
    }

    // Two different measurements of trial 1 (the explorer and `sebo observe` both recorded it):
    // the file's stays trial 1, this side's becomes trial 3 with the same configuration.
    void differentResultsForOneTrialAreBothKept() {
        const Experiment base = base_experiment();
        Experiment mine = base, theirs = base;
        record(mine, 1, 3.0);
        record(theirs, 1, 4.0);
        const MergeResult r = merge_experiments(&base, mine, theirs);
        QCOMPARE(*trial(r.experiment, 1).value("yield"), 4.0);
        QCOMPARE(*trial(r.experiment, 3).value("yield"), 3.0);
        QCOMPARE(trial(r.experiment, 3).parameters, trial(r.experiment, 1).parameters);
        QCOMPARE(r.report.kept_both, (Pairs{{1, 3}}));
        QCOMPARE(r.report.results_recorded, std::vector<int>{1});
        QCOMPARE(qs(describe_merge(r.report, "outside the explorer", "in the explorer").at(1)),
                 QString("Trial 1 got different results in the explorer and outside the explorer: the one recorded "
                         "outside the explorer stays trial 1, the one recorded in the explorer is kept as trial 3 "
                         "(same configuration)."));
    }

    // The same measurement recorded on both sides (at different times) is one result, not two.
    void sameResultOnBothSidesIsOne() {
        const Experiment base = base_experiment();
        Experiment mine = base, theirs = base;
        record(mine, 1, 3.0);
        record(theirs, 1, 3.0);
        theirs.find_trial(1)->completed_at = "2026-11-25T12:30:00Z";
        const MergeResult r = merge_experiments(&base, mine, theirs);
        QCOMPARE(indices(r.experiment), (std::vector<int>{0, 1, 2}));
        QCOMPARE(qs(trial(r.experiment, 1).completed_at), QString("2026-11-25T12:30:00Z"));
        QCOMPARE(r.report.kept_file_version, std::vector<int>{1});
    }

    // A result here, and a non-result change of the same pending trial elsewhere: the result wins.
    void resultBeatsOtherChangesOfAPendingTrial() {
        const Experiment base = base_experiment();
        Experiment mine = base, theirs = base;
        record(mine, 2, 8.0);
        theirs.find_trial(2)->generator = "relabelled";
        const MergeResult r = merge_experiments(&base, mine, theirs);
        QCOMPARE(trial(r.experiment, 2).status, TrialStatus::Completed);
        QCOMPARE(*trial(r.experiment, 2).value("yield"), 8.0);
    }

    // The file was replaced by an older copy (without trial 2 and the result of trial 1): this
    // side's trials are kept, and a merge never undoes a result.
    void trialsMissingFromTheFileAreKept() {
        Experiment base = base_experiment();
        record(base, 1, 6.0);
        Experiment theirs = base;
        theirs.trials.pop_back();             // no trial 2
        theirs.find_trial(1)->status = TrialStatus::Pending;  // an older copy: trial 1 still pending
        theirs.find_trial(1)->values.clear();
        theirs.find_trial(1)->completed_at.clear();
        const MergeResult r = merge_experiments(&base, base, theirs);
        QCOMPARE(indices(r.experiment), (std::vector<int>{0, 1, 2}));
        QCOMPARE(r.report.restored, (std::vector<int>{1, 2}));
        QCOMPARE(trial(r.experiment, 1).status, TrialStatus::Completed);
        QCOMPARE(*trial(r.experiment, 1).value("yield"), 6.0);
        QVERIFY(r.report.trials_changed.empty());
    }

    void settingsTakeTheSideThatChangedThem() {
        const Experiment base = base_experiment();
        Experiment mine = base, theirs = base;
        mine.method.budget = 30;  // here
        theirs.name = "renamed";  // elsewhere
        theirs.description = "from the lab";
        MergeResult r = merge_experiments(&base, mine, theirs);
        QCOMPARE(r.experiment.method.budget, 30);
        QCOMPARE(qs(r.experiment.name), QString("renamed"));
        QCOMPARE(qs(r.experiment.description), QString("from the lab"));
        QVERIFY(std::find(r.report.settings_changed.begin(), r.report.settings_changed.end(), "name") !=
                r.report.settings_changed.end());
        QVERIFY(r.report.settings_kept.empty());
        // Both changed the method: this side's is kept, and said so.
        theirs.method.budget = 40;
        r = merge_experiments(&base, mine, theirs);
        QCOMPARE(r.experiment.method.budget, 30);
        QCOMPARE(r.report.settings_kept, std::vector<std::string>{"method"});
        // Only the file changed it: taken.
        r = merge_experiments(&base, base, theirs);
        QCOMPARE(r.experiment.method.budget, 40);
        // BONSAI's tolerance is a method setting like the others (issue 16 item 1).
        Experiment tuned = base;
        tuned.method.bonsai_tolerance = 0.05;
        r = merge_experiments(&base, base, tuned);
        QCOMPARE(r.experiment.method.bonsai_tolerance, 0.05);
        QCOMPARE(r.report.settings_changed, std::vector<std::string>{"method"});
        r = merge_experiments(&base, mine, tuned);
        QCOMPARE(r.experiment.method.bonsai_tolerance, 0.2);
        QCOMPARE(r.report.settings_kept, std::vector<std::string>{"method"});
    }

    void chosenConfigurationsMergePerTrial() {
        Experiment base = base_experiment();
        base.chosen = {{0, "baseline"}, {1, "to drop elsewhere"}};
        Experiment mine = base, theirs = base;
        mine.chosen.push_back({2, "mine"});              // added here
        mine.chosen[0].note = "baseline, checked";       // changed here
        theirs.chosen.erase(theirs.chosen.begin() + 1);  // un-chosen elsewhere
        const MergeResult r = merge_experiments(&base, mine, theirs);
        QCOMPARE(r.experiment.chosen.size(), std::size_t{2});
        QCOMPARE(r.experiment.chosen[0].trial, 0);
        QCOMPARE(qs(r.experiment.chosen[0].note), QString("baseline, checked"));
        QCOMPARE(r.experiment.chosen[1].trial, 2);
        QVERIFY(r.report.chosen_changed);
    }

    void anotherProblemIsRefused() {
        const Experiment base = base_experiment();
        Experiment theirs = base;
        theirs.space = SearchSpace({parameter("x"), parameter("z")});
        theirs.trials.clear();
        try {
            merge_experiments(&base, base, theirs);
            QFAIL("merged into another problem");
        } catch (const MergeError& error) {
            QVERIFY2(QString(error.what()).contains("search space"), error.what());
        }
        theirs = base;
        theirs.outcomes.objectives.front().minimize = true;
        QVERIFY_THROWS_EXCEPTION(MergeError, merge_experiments(&base, base, theirs));
    }

    // Without a base (this side never read the file), equal trials are one and different trials
    // with the same index are both kept.
    void withoutABaseNothingIsLost() {
        const Experiment theirs = base_experiment();
        Experiment mine = base_experiment();
        mine.trials[2] = completed(2, 9, 9, 1.0);
        const MergeResult r = merge_experiments(nullptr, mine, theirs);
        QCOMPARE(indices(r.experiment), (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(r.report.renumbered, (Pairs{{2, 3}}));
        QCOMPARE(trial(r.experiment, 3).parameters, (std::vector<double>{9, 9}));
    }

    // Two proposals made from the same data at the same time are flagged.
    void sameConfigurationProposedTwiceIsFlagged() {
        const Experiment base = base_experiment();
        Experiment mine = base, theirs = base;
        mine.trials.push_back(pending(3, 5, 5));
        theirs.trials.push_back(pending(3, 5, 5));
        theirs.trials.back().created_at = "2026-11-25T10:00:01Z";
        const MergeResult r = merge_experiments(&base, mine, theirs);
        QCOMPARE(r.report.renumbered, (Pairs{{3, 4}}));
        QCOMPARE(r.report.same_configuration, (Pairs{{4, 3}}));
    }

    // A trial excluded from the analysis (or included again) on one side is a change of that
    // trial like any other: the side that made it wins, with its reason and time, whatever the
    // other side recorded meanwhile.
    void exclusionsMergeLikeOtherChanges() {
        const Experiment base = base_experiment();
        Experiment mine = base, theirs = base;
        QVERIFY(!exclude_trial(theirs, 0, "sensor fault", "2026-11-25T13:00:00Z"));  // `sebo observe --exclude`
        record(mine, 1, 1.5);
        MergeResult r = merge_experiments(&base, mine, theirs);
        QVERIFY(trial(r.experiment, 0).exclusion.has_value());
        QCOMPARE(qs(trial(r.experiment, 0).exclusion->reason), QString("sensor fault"));
        QCOMPARE(qs(trial(r.experiment, 0).exclusion->at), QString("2026-11-25T13:00:00Z"));
        QCOMPARE(*trial(r.experiment, 0).value("yield"), 5.0);  // the value stays
        QCOMPARE(*trial(r.experiment, 1).value("yield"), 1.5);
        QCOMPARE(r.report.trials_changed, std::vector<int>{0});
        QCOMPARE(r.experiment.excluded_count(), 1);

        // Excluded here, a result recorded elsewhere: both kept.
        mine = base;
        theirs = base;
        QVERIFY(!exclude_trial(mine, 0, "unit slip", "2026-11-25T13:30:00Z"));
        record(theirs, 2, 2.5);
        r = merge_experiments(&base, mine, theirs);
        QCOMPARE(qs(trial(r.experiment, 0).exclusion->reason), QString("unit slip"));
        QCOMPARE(*trial(r.experiment, 2).value("yield"), 2.5);
        QCOMPARE(r.report.results_recorded, std::vector<int>{2});
        QVERIFY(r.report.trials_changed.empty() && r.report.kept_file_version.empty());

        // Included again elsewhere: the trial counts again.
        Experiment excluded = base;
        QVERIFY(!exclude_trial(excluded, 0, "sensor fault", "2026-11-25T13:00:00Z"));
        mine = excluded;
        theirs = excluded;
        QVERIFY(!include_trial(theirs, 0));
        record(mine, 1, 1.5);
        r = merge_experiments(&excluded, mine, theirs);
        QVERIFY(!trial(r.experiment, 0).exclusion.has_value());
        QCOMPARE(r.experiment.excluded_count(), 0);
        QCOMPARE(*trial(r.experiment, 1).value("yield"), 1.5);

        // Two different measurements of one trial, mine excluded: its copy keeps the exclusion.
        mine = base;
        theirs = base;
        record(mine, 1, 3.0);
        QVERIFY(!exclude_trial(mine, 1, "timeout reported as a value", "2026-11-25T14:00:00Z"));
        record(theirs, 1, 4.0);
        r = merge_experiments(&base, mine, theirs);
        QCOMPARE(r.report.kept_both, (Pairs{{1, 3}}));
        QVERIFY(!trial(r.experiment, 1).exclusion.has_value());
        QCOMPARE(qs(trial(r.experiment, 3).exclusion->reason), QString("timeout reported as a value"));
    }

    // A trial's fit record is part of the trial (operator== compares it): one added elsewhere
    // keeps it, and a record changed elsewhere is a change of that trial. The sampler state
    // merges like a setting — the side that replaced it wins, this side when both did — without
    // being reported: it is no one's decision, and a stale one only costs a warm start.
    void fitRecordsAndSamplerStateMerge() {
        const Experiment base = base_experiment();
        Experiment mine = base, theirs = base;
        Trial proposed = pending(3, 4, 4);  // a model step elsewhere
        proposed.generator = "sebo-l0";
        proposed.fit = fit_record(1.01);
        theirs.trials.push_back(proposed);
        theirs.sampler_state = sampler_state(0.25);
        record(mine, 1, 1.5);
        MergeResult r = merge_experiments(&base, mine, theirs);
        QVERIFY(trial(r.experiment, 3).fit == proposed.fit);
        QVERIFY(r.experiment.sampler_state.has_value());
        QCOMPARE(r.experiment.sampler_state->metrics[0].step_size, 0.25);
        QCOMPARE(r.experiment.sampler_state->metrics[0].positions, theirs.sampler_state->metrics[0].positions);
        QCOMPARE(r.report.trials_added, std::vector<int>{3});
        QVERIFY(r.report.settings_changed.empty() && r.report.settings_kept.empty());
        QCOMPARE(describe_merge(r.report).size(), std::size_t{1});
        QVERIFY(r.report.sampler_states_taken);

        // Both sides fitted again; elsewhere, trial 3's record was also changed.
        const Experiment base2 = r.experiment;
        mine = base2;
        theirs = base2;
        mine.sampler_state->metrics[0].step_size = 0.5;
        theirs.sampler_state->metrics[0].step_size = 0.75;
        theirs.find_trial(3)->fit = fit_record(1.2);
        r = merge_experiments(&base2, mine, theirs);
        QCOMPARE(r.experiment.sampler_state->metrics[0].step_size, 0.5);
        QVERIFY(r.report.settings_kept.empty());
        QVERIFY(!r.report.sampler_states_taken);  // mine kept
        QCOMPARE(*trial(r.experiment, 3).fit->rhat, 1.2);
        QCOMPARE(r.report.trials_changed, std::vector<int>{3});
        // Only this side fitted: kept; a state dropped elsewhere only: dropped.
        mine = base2;
        mine.sampler_state->metrics[0].step_size = 0.5;
        QCOMPARE(merge_experiments(&base2, mine, base2).experiment.sampler_state->metrics[0].step_size, 0.5);
        theirs = base2;
        theirs.sampler_state.reset();
        r = merge_experiments(&base2, base2, theirs);
        QVERIFY(!r.experiment.sampler_state.has_value());
        // Nothing to tell anyone, but a window showing base2 must take the merge.
        QVERIFY(r.report.empty());
        QVERIFY(r.report.sampler_states_taken);
        QVERIFY(!merge_experiments(&base2, base2, base2).report.sampler_states_taken);
    }

    void nothingChangedReportsNothing() {
        const Experiment base = base_experiment();
        Experiment mine = base;
        mine.trials.push_back(pending(3, 1, 2));
        const MergeResult r = merge_experiments(&base, mine, base);
        QVERIFY(r.report.empty());
        QCOMPARE(experiment_to_json_text(r.experiment), experiment_to_json_text(mine));
        QVERIFY(describe_merge(r.report).empty());
    }

    // -----------------------------------------------------------------------------------------
    // The shared-file protocol on real files.

    void saveMergesWhatAnotherWriterRecorded() {
        const std::string path = dir_.filePath("shared.sebo.json").toStdString();
        save_experiment(base_experiment(), path);
        FileLockOptions o;
        o.program = "test";
        SharedExperimentFile explorer(path, o), observer(path, o);
        Experiment mine = explorer.load();
        // Another writer records trial 1 (a short read-modify-write under the lock).
        observer.edit([](Experiment& e) { record(e, 1, 11.0); });
        // This side adds a trial and saves: both are in the file.
        mine.trials.push_back(completed(3, 4, 4, 2.0));
        const MergeReport report = explorer.save(mine);
        QCOMPARE(report.results_recorded, std::vector<int>{1});
        const Experiment on_disk = load_experiment(path);
        QCOMPARE(*trial(on_disk, 1).value("yield"), 11.0);
        QCOMPARE(*trial(on_disk, 3).value("yield"), 2.0);
        QCOMPARE(experiment_to_json_text(mine), experiment_to_json_text(on_disk));
        // Nothing changed since: the next save merges nothing.
        QVERIFY(explorer.save(mine).empty());
        QVERIFY(!QFile::exists(qs(write_lock_path(path))));
    }

    // A `sebo run` step saves its trial's fit record and the sampler state while `sebo observe`
    // records a result: the file gets all three, exactly.
    void saveKeepsFitRecordsAndTheSamplerState() {
        const std::string path = dir_.filePath("fitted.sebo.json").toStdString();
        save_experiment(base_experiment(), path);
        FileLockOptions o;
        o.program = "test";
        SharedExperimentFile run(path, o), observer(path, o);
        Experiment mine = run.load();
        observer.edit([](Experiment& e) { record(e, 1, 11.0); });
        Trial proposed = completed(3, 4, 4, 2.0);
        proposed.generator = "sebo-l0";
        proposed.fit = fit_record(1.01);
        mine.trials.push_back(proposed);
        mine.sampler_state = sampler_state(1.0 / 3.0);
        const MergeReport report = run.save(mine);
        QCOMPARE(report.results_recorded, std::vector<int>{1});
        const Experiment on_disk = load_experiment(path);
        QCOMPARE(*trial(on_disk, 1).value("yield"), 11.0);
        QVERIFY(trial(on_disk, 3).fit == proposed.fit);
        QVERIFY(on_disk.sampler_state.has_value());
        QCOMPARE(on_disk.sampler_state->metrics[0].step_size, 1.0 / 3.0);
        QCOMPARE(on_disk.sampler_state->metrics[0].inverse_metric, mine.sampler_state->metrics[0].inverse_metric);
        QCOMPARE(experiment_to_json_text(mine), experiment_to_json_text(on_disk));
        QVERIFY(run.save(mine).empty());
    }

    // An exclusion made by another writer (`sebo observe --exclude` takes the write lock the
    // same way) reaches the file through this side's save, in the file's `excluded` field.
    void saveKeepsAnExclusionMadeElsewhere() {
        const std::string path = dir_.filePath("excluded.sebo.json").toStdString();
        save_experiment(base_experiment(), path);
        FileLockOptions o;
        o.program = "test";
        SharedExperimentFile explorer(path, o), observer(path, o);
        Experiment mine = explorer.load();
        observer.edit([](Experiment& e) { QVERIFY(!exclude_trial(e, 0, "sensor fault", "2026-11-25T13:00:00Z")); });
        record(mine, 1, 1.5);
        const MergeReport report = explorer.save(mine);
        QCOMPARE(report.trials_changed, std::vector<int>{0});
        QVERIFY(read_experiment_text(path).find("\"excluded\"") != std::string::npos);
        const Experiment on_disk = load_experiment(path);
        QCOMPARE(qs(trial(on_disk, 0).exclusion->reason), QString("sensor fault"));
        QCOMPARE(*trial(on_disk, 1).value("yield"), 1.5);
        QCOMPARE(experiment_to_json_text(mine), experiment_to_json_text(on_disk));
    }

    void refreshBringsChangesInWithoutWriting() {
        const std::string path = dir_.filePath("refresh.sebo.json").toStdString();
        save_experiment(base_experiment(), path);
        FileLockOptions o;
        o.program = "test";
        SharedExperimentFile explorer(path, o), observer(path, o);
        Experiment mine = explorer.load();
        record(mine, 2, 1.0);  // not saved yet
        observer.edit([](Experiment& e) { record(e, 1, 3.0); });
        const std::string before = read_experiment_text(path);
        const MergeReport report = explorer.refresh(mine);
        QCOMPARE(report.results_recorded, std::vector<int>{1});
        QCOMPARE(*trial(mine, 1).value("yield"), 3.0);
        QCOMPARE(*trial(mine, 2).value("yield"), 1.0);
        QCOMPARE(read_experiment_text(path), before);
        QVERIFY(explorer.refresh(mine).empty());
        explorer.save(mine);
        QCOMPARE(load_experiment(path).count(TrialStatus::Pending), 0);
    }

    // A file that was deleted is written again; one that no longer loads is never written over.
    void missingAndBrokenFiles() {
        const std::string path = dir_.filePath("gone.sebo.json").toStdString();
        FileLockOptions o;
        o.program = "test";
        SharedExperimentFile file(path, o);
        Experiment e = base_experiment();
        file.replace(e, true);
        QVERIFY_THROWS_EXCEPTION(InputError, file.replace(e, true));  // exists now
        QVERIFY(QFile::remove(qs(path)));
        QVERIFY(file.save(e).file_was_missing);
        QVERIFY(QFile::exists(qs(path)));
        {
            QFile f(qs(path));
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write("{ broken");
        }
        QVERIFY_THROWS_EXCEPTION(InputError, file.save(e));
        QVERIFY_THROWS_EXCEPTION(InputError, file.refresh(e));
        QCOMPARE(qs(read_experiment_text(path)), QString("{ broken"));
        QCOMPARE(e.trials.size(), std::size_t{3});
    }

    // Two names of one file (a symbolic link) share its locks; a save through the link writes
    // the file it points to and keeps the link.
    void symbolicLinksShareLocksAndStayLinks() {
        const std::string real = dir_.filePath("real.sebo.json").toStdString();
        const std::string link = dir_.filePath("link.sebo.json").toStdString();
        save_experiment(base_experiment(), real);
        QVERIFY(QFile::link(qs(real), qs(link)));
        QCOMPARE(qs(run_lock_path(link)), qs(run_lock_path(real)));
        QCOMPARE(qs(write_lock_path(link)), qs(write_lock_path(real)));
        QCOMPARE(qs(run_lock_path(dir_.filePath("new.sebo.json").toStdString())),
                 QFileInfo(dir_.path()).canonicalFilePath() + "/new.sebo.json.lock");
        FileLockOptions o;
        o.program = "test";
        SharedExperimentFile through_link(link, o);
        Experiment e = through_link.load();
        record(e, 1, 6.5);
        through_link.save(e);
        QVERIFY(QFileInfo(qs(link)).isSymLink());
        QCOMPARE(*trial(load_experiment(real), 1).value("yield"), 6.5);
    }

    void editThatThrowsWritesNothing() {
        const std::string path = dir_.filePath("edit.sebo.json").toStdString();
        save_experiment(base_experiment(), path);
        const std::string before = read_experiment_text(path);
        FileLockOptions o;
        o.program = "test";
        SharedExperimentFile file(path, o);
        QVERIFY_THROWS_EXCEPTION(InputError, file.edit([](Experiment& e) {
            record(e, 1, 1.0);
            throw InputError("--trial 1", "refused");
        }));
        QCOMPARE(read_experiment_text(path), before);
        QVERIFY(!QFile::exists(qs(write_lock_path(path))));
    }
};

SEBO_TEST_MAIN(TestExperimentMerge)
}  // namespace test_experiment_merge
#include "test_experiment_merge.moc"
