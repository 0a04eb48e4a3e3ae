#pragma once
// A strategy that proposes configurations chosen elsewhere, in order: the steps of a simplified
// path (experiment/simplify.h) that the user wants measured with the experiment's own evaluator
// (issue 16 item 3). Run through run_step like any strategy, so the trials are evaluated, checked
// and recorded exactly as the proposals of the other strategies are.

#include <deque>

#include "experiment/strategy.h"

namespace sebo {

class GivenPointsStrategy final : public Strategy {
public:
    // `points` in user units (the varying parameters); `generator` is recorded on the trials.
    GivenPointsStrategy(std::vector<std::vector<double>> points, std::string generator);

    std::string name() const override { return generator_; }
    // The next `count` points (fewer when fewer are left). Failed, naming the point, when one is
    // not a configuration of the experiment's space (SearchSpace::check_point) or when none is left.
    Proposal propose(const Experiment& experiment, int count, const StepControl& control) override;
    int remaining() const { return static_cast<int>(points_.size()); }

private:
    std::deque<std::vector<double>> points_;
    std::string generator_;
};

}  // namespace sebo
