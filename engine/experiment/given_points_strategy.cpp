#include "experiment/given_points_strategy.h"

namespace sebo {

GivenPointsStrategy::GivenPointsStrategy(std::vector<std::vector<double>> points, std::string generator)
    : points_(points.begin(), points.end()), generator_(std::move(generator)) {}

Proposal GivenPointsStrategy::propose(const Experiment& experiment, int count, const StepControl& /*control*/) {
    Proposal proposal;
    proposal.generator = generator_;
    if (points_.empty()) {
        proposal.status = Proposal::Status::Failed;
        proposal.message = "no configuration is left to run";
        return proposal;
    }
    for (int k = 0; k < count && !points_.empty(); ++k) {
        if (auto error = experiment.space.check_point(points_.front())) {
            proposal.status = Proposal::Status::Failed;
            proposal.message = "the configuration to run is not one of the experiment's space: " + *error;
            proposal.points.clear();
            return proposal;
        }
        proposal.points.push_back(std::move(points_.front()));
        points_.pop_front();
    }
    return proposal;
}

}  // namespace sebo
