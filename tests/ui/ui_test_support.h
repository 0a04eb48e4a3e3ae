#pragma once
// Helpers shared by the UI suites: small experiments built and run with the engine directly
// (independent of the UI code under test), and strategies that keep a step busy until it is
// released or cancelled, so cancellation and responsiveness can be observed without a clock.

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <atomic>
#include <chrono>
#include <thread>

#include "experiment/runner.h"
#include "experiment/sobol_strategy.h"
#include "problems/problem_catalog.h"

namespace sebo::test {

// How long a UI test waits for something that must happen (a step to end, a cancellation to take
// effect). It only bounds a hang: the waits return as soon as the condition holds, and how fast
// things happen is measured by `sebo-latency`, never asserted (SPEC §8).
constexpr int kHangGuardMs = 120000;

// A file's bytes; empty when it cannot be read.
inline QByteArray read_all(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A 10-parameter quadratic (3 effective), Sobol, seed 7: fast and deterministic.
inline Experiment small_problem_experiment(int budget = 20, int dimension = 10, std::uint64_t seed = 7) {
    ProblemSpec spec;
    spec.name = "sparse-quadratic";
    spec.dimension = dimension;
    MethodSettings method;
    method.strategy = StrategyKind::Sobol;
    method.initial_trials = 4;
    method.budget = budget;
    return make_problem_experiment(spec, method, seed);
}

// Runs `trials` steps with the engine's own loop (no UI) and returns the experiment.
inline Experiment run_with_engine(Experiment experiment, int trials) {
    auto problem = make_problem(experiment.evaluator.problem);
    ProblemEvaluator evaluator(problem, experiment.seed);
    auto strategy = make_strategy(experiment.method);
    for (int i = 0; i < trials; ++i) {
        const StepResult r = run_step(experiment, *strategy, &evaluator, StepControl{}, 1);
        if (r.status != StepResult::Status::Completed) break;
    }
    return experiment;
}

// Spins until the step is cancelled, reporting progress as it goes.
class EndlessStrategy final : public Strategy {
public:
    std::atomic<int>* iterations = nullptr;
    std::string name() const override { return "endless"; }
    Proposal propose(const Experiment&, int, const StepControl& control) override {
        int i = 0;
        while (!control.cancelled()) {
            control.report({"spinning", ++i, 0, {}});
            if (iterations) iterations->store(i);
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        Proposal p;
        p.status = Proposal::Status::Cancelled;
        p.message = "cancelled";
        return p;
    }
};

// Keeps a core busy, reporting progress on every iteration as a sampler would, until finished()
// says so, then proposes the next Sobol points (generator: the strategy's name). Cancellation is
// polled inside the loop.
class SpinningStrategy : public Strategy {
public:
    Proposal propose(const Experiment& experiment, int count, const StepControl& control) override {
        started();
        volatile double sink = 0.0;
        int i = 0;
        while (!finished()) {
            if (control.cancelled()) {
                Proposal p;
                p.status = Proposal::Status::Cancelled;
                return p;
            }
            for (int k = 0; k < 2000; ++k) sink = sink + 1e-9 * k;
            control.report({"optimizing acquisition", ++i % 30, 30, {}});
            spun(i);
        }
        Proposal p;
        p.generator = name();
        p.points = next_sobol_points(experiment, count);
        return p;
    }

protected:
    virtual void started() {}
    virtual bool finished() const = 0;
    virtual void spun(int /*iterations*/) {}
};

// Spins until `release` is set.
class BusyStrategy final : public SpinningStrategy {
public:
    explicit BusyStrategy(const std::atomic<bool>* release) : release_(release) {}
    std::atomic<int>* iterations = nullptr;
    std::string name() const override { return "busy"; }

protected:
    bool finished() const override { return release_->load(); }
    void spun(int i) override {
        if (iterations) iterations->store(i);
    }

private:
    const std::atomic<bool>* release_;
};

// Spins for `seconds`. For tests that need steps which take a while (a run's time left); nothing
// may assert how long they took.
class SlowStrategy final : public SpinningStrategy {
public:
    explicit SlowStrategy(double seconds) : seconds_(seconds) {}
    std::string name() const override { return "slow"; }

protected:
    void started() override {
        end_ = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                      std::chrono::duration<double>(seconds_));
    }
    bool finished() const override { return std::chrono::steady_clock::now() >= end_; }

private:
    double seconds_;
    std::chrono::steady_clock::time_point end_;
};

}  // namespace sebo::test
