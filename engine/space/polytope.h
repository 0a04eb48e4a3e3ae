#pragma once
// The feasible set of linear parameter constraints in the unit cube (issue 14):
//
//     P = { u ∈ [0,1]^D : A u <= b, E u = f }
//
// Every row is scaled to unit Euclidean norm, so a row's residual is the distance from u to the
// row's hyperplane, and one absolute tolerance (kTolerance, in unit-cube distance) fits every row.
// Rows remember the user constraint they came from ("source"), so that conflicts can be reported
// by the user's own text (space/polytope_analysis.h).
//
// Tolerances: a point within kTolerance of every row satisfies the user's constraint to
// 2·kTolerance relative to its magnitude (space/linear_constraint.h): a unit row is the user row
// times the parameters' ranges, whose norm is at most twice the constraint's magnitude. The
// promise to users is 1e-9 relative; kTolerance = 1e-10 leaves room for the round trip through
// user units.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "space/linear_constraint.h"

namespace sebo {

class Polytope {
public:
    static constexpr double kTolerance = 1e-10;

    // The whole unit cube [0,1]^dimension.
    explicit Polytope(int dimension = 0);

    // The image of user constraints: constraints[k] becomes rows with source k, labelled labels[k]
    // (its canonical text, say) in messages. `coordinates` maps parameters to columns
    // (space/linear_constraint.h). A constraint whose parameters all stay fixed becomes a zero row.
    static Polytope from_constraints(const std::vector<LinearConstraint>& constraints,
                                     const std::vector<UnitCoordinate>& coordinates, int columns,
                                     const std::vector<std::string>& labels);

    // Registers a user constraint for messages; returns its source index. `note` says something
    // about it alone, e.g. the range of its left side within the bounds.
    int add_source(std::string label, std::string note = {});
    // a·u <= b (or = b), normalized on the way in. `source` is an index from add_source, or −1.
    void add_inequality(const Eigen::VectorXd& a, double b, int source = -1);
    void add_equality(const Eigen::VectorXd& a, double b, int source = -1);

    int dimension() const { return dimension_; }
    bool has_constraints() const { return a_.rows() > 0 || e_.rows() > 0; }
    const Eigen::MatrixXd& inequality_matrix() const { return a_; }
    const Eigen::VectorXd& inequality_bound() const { return b_; }
    const Eigen::MatrixXd& equality_matrix() const { return e_; }
    const Eigen::VectorXd& equality_bound() const { return f_; }
    int inequality_source(int row) const { return inequality_sources_[static_cast<std::size_t>(row)]; }
    int equality_source(int row) const { return equality_sources_[static_cast<std::size_t>(row)]; }
    int source_count() const { return static_cast<int>(labels_.size()); }
    const std::string& source_label(int source) const { return labels_[static_cast<std::size_t>(source)]; }
    const std::string& source_note(int source) const { return notes_[static_cast<std::size_t>(source)]; }

    // The largest residual over the rows, the equalities (either side) and the box; infinite
    // for a point with a non-finite coordinate.
    double max_violation(const Eigen::VectorXd& u) const;
    bool contains(const Eigen::VectorXd& u, double tolerance = kTolerance) const {
        return max_violation(u) <= tolerance;
    }

private:
    int dimension_ = 0;
    Eigen::MatrixXd a_, e_;
    Eigen::VectorXd b_, f_;
    std::vector<int> inequality_sources_, equality_sources_;
    std::vector<std::string> labels_, notes_;
};

}  // namespace sebo
