#pragma once
// The field lists of the experiment file (io/experiment_file.h), shared by its reader
// (experiment_file.cpp) and its writer (experiment_file_write.cpp), and included by those two only.

namespace sebo::experiment_fields {

// Field lists. These are the single place that names a settings field in the file: adding a
// member to MethodSettings (or ProblemSpec) takes one visit(...) line here, plus a read_value /
// to_json_value overload if its type is new (an enum, or a nested settings struct that gets its
// own field list). Every listed field is optional in the file and defaults to the struct's
// member initializer, so files written before the field existed still load.

struct VisitMethod {
    template <class Settings, class Visit>
    void operator()(Settings& m, Visit&& visit) const {
        visit("strategy", m.strategy);
        visit("initial_trials", m.initial_trials);
        visit("budget", m.budget);
        visit("model", m.model);
        visit("lambda", m.lambda);
        visit("penalty", m.penalty);
        visit("bonsai_tolerance", m.bonsai_tolerance);
        visit("max_active", m.max_active);
        visit("min_active", m.min_active);
        visit("status_quo_first", m.status_quo_first);
        visit("warp_objective", m.warp_objective);
        visit("warp_check", m.warp_check);
        visit("noisy_acquisition", m.noisy_acquisition);
        visit("noisy_draws", m.noisy_draws);
        visit("dense_steps", m.dense_steps);
        visit("dense_steps_max", m.dense_steps_max);
        visit("dense_thompson", m.dense_thompson);
        visit("raw_samples", m.raw_samples);
        visit("restarts", m.restarts);
        visit("homotopy_a_start", m.homotopy_a_start);
        visit("homotopy_a_end", m.homotopy_a_end);
        visit("homotopy_steps", m.homotopy_steps);
        visit("fixed_a", m.fixed_a);
        visit("nuts", m.nuts);
        visit("nuts_warmup", m.nuts_warmup);
        visit("nuts_samples", m.nuts_samples);
        visit("nuts_thinning", m.nuts_thinning);
        visit("nuts_max_tree_depth", m.nuts_max_tree_depth);
        visit("nuts_chains", m.nuts_chains);
        visit("nuts_warm_warmup", m.nuts_warm_warmup);
    }
};

// The SAAS-NUTS record of a trial (experiment/fit_record.h); "nuts" is required, the rest optional.
struct VisitFitRecord {
    template <class Record, class Visit>
    void operator()(Record& r, Visit&& visit) const {
        visit("nuts", r.nuts);
        visit("chains", r.chains);
        visit("start", r.start);
        visit("warmup", r.warmup);
        visit("draws", r.draws);
        visit("divergences", r.divergences);
        visit("rhat", r.rhat);
        visit("ess_bulk", r.ess_bulk);
        visit("seconds", r.seconds);
    }
};

struct VisitProblem {
    template <class Spec, class Visit>
    void operator()(Spec& p, Visit&& visit) const {
        visit("name", p.name);
        visit("dimension", p.dimension);
        visit("effective", p.effective);
        visit("target", p.target);
        visit("repetitions", p.repetitions);
        visit("world_seed", p.world_seed);
    }
};

}  // namespace sebo::experiment_fields
