// sebo fit — fit the surrogate of a model-based step to an experiment's completed trials and
// report what it learned: which parameters matter (relevance = inverse squared lengthscale),
// its output scale and noise, the sampler's or optimizer's diagnostics, and leave-one-out
// predictive quality.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/method_options.h"
#include "cli/sampler_options.h"
#include "core/input_error.h"
#include "core/thread_pool.h"
#include "experiment/model_step.h"
#include "io/experiment_file.h"
#include "model/leave_one_out.h"
#include "model/parameter_relevance.h"
#include "model/power_transform.h"
#include "model/surrogate.h"

namespace sebo::cli {

namespace {

using Json = nlohmann::ordered_json;

constexpr double kLowQuantile = 0.1;  // spread of the relevance over the samples: 10th–90th percentile
constexpr double kHighQuantile = 0.9;

const char* describe(SurrogateKind kind) {
    switch (kind) {
    case SurrogateKind::Gp: return "standard GP, MAP hyperparameters";
    case SurrogateKind::SaasNuts: return "SAAS GP, hyperparameters sampled with NUTS";
    case SurrogateKind::SaasMap: return "SAAS GP, MAP hyperparameters";
    }
    return "";
}

// Progress of a NUTS fit on stderr: one self-overwriting line on a terminal, a line per quarter
// otherwise (logs).
class FitProgress {
public:
    explicit FitProgress(bool enabled) : enabled_(enabled), terminal_(isatty(STDERR_FILENO) != 0) {}
    ~FitProgress() {
        if (shown_ && terminal_) std::fprintf(stderr, "\r%60s\r", "");
    }
    void operator()(int iteration, int total) {
        if (!enabled_ || total <= 1) return;
        if (terminal_) {
            const auto now = std::chrono::steady_clock::now();
            if (shown_ && iteration < total && now - last_ < std::chrono::milliseconds(100)) return;
            last_ = now;
            shown_ = true;
            std::fprintf(stderr, "\r  fitting: NUTS iteration %d/%d", iteration, total);
            std::fflush(stderr);
        } else if (const int quarter = 4 * iteration / total; quarter > quarter_) {
            quarter_ = quarter;
            std::fprintf(stderr, "  fitting: NUTS iteration %d/%d\n", iteration, total);
        }
    }

private:
    bool enabled_, terminal_;
    bool shown_ = false;
    int quarter_ = 0;
    std::chrono::steady_clock::time_point last_{};
};

// Leave-one-out quality in the objective's units: the model predicts the warped, standardized
// utility t = (ψ(u) − m)/s, so a point prediction maps back through the inverse transforms (the
// image of the mixture mean, i.e. the predictive median when one member dominates), and a
// density picks up the Jacobian dt/du = ψ'(u)/s (the sign flip of a minimized objective has
// Jacobian 1).
struct ObjectiveUnitsScore {
    double rmse = 0.0;
    double mean_log_predictive_density = 0.0;
};

ObjectiveUnitsScore in_objective_units(const LeaveOneOutScore& loo, const TrainingSet& training) {
    const Eigen::VectorXd& u = training.utility;
    const Eigen::Index n = u.size();
    const double spread = std::max(u.maxCoeff() - u.minCoeff(), 1e-12);
    double squared_error = 0.0, log_jacobian = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
        const double z = training.standardizer.mean() + training.standardizer.scale() * loo.mean[i];
        const double predicted = training.warp.inverse(z, u[i], spread);
        squared_error += (predicted - u[i]) * (predicted - u[i]);
        log_jacobian += std::log(training.warp.derivative(u[i]) / training.standardizer.scale());
    }
    return {std::sqrt(squared_error / static_cast<double>(n)),
            loo.mean_log_predictive_density + log_jacobian / static_cast<double>(n)};
}

std::string describe_start(SaasNutsStart start, const std::string& cold_reason) {
    std::string text;
    switch (start) {
    case SaasNutsStart::Warm: return "warm-started from the file's sampler state";
    case SaasNutsStart::Mode: text = "started at the posterior mode"; break;
    case SaasNutsStart::Full: text = "full warm-up"; break;
    }
    return cold_reason.empty() ? text : text + "; " + cold_reason;
}

double median_of(const std::vector<GpHyperparameters>& samples, double GpHyperparameters::*field) {
    std::vector<double> values;
    for (const GpHyperparameters& h : samples) values.push_back(h.*field);
    return quantile(std::move(values), 0.5);
}

}  // namespace

int command_fit(const Args& args) {
    Arguments parser(
        "fit", "FILE [--model gp|saas|saas-map] [--nuts fast|paper] [--metric NAME] [--seed S] [--top K] [--json]",
        "Fit the surrogate model to the experiment's completed trials, exactly as a model-based step\n"
        "does (unit-cube inputs; the objective Yeo-Johnson warped when the method warps it, then\n"
        "standardized; known standard errors as noise when every completed trial has one), and report\n"
        "per parameter its relevance - the median inverse squared lengthscale 1/l^2 over the posterior\n"
        "samples, with the 10th-90th percentile for ensembles - the output scale and noise (medians, in\n"
        "the model's units), the fit's diagnostics, and the leave-one-out predictive quality in the\n"
        "objective's units. The leave-one-out predictions are the closed form of an exact GP per sample\n"
        "with its hyperparameters held fixed (no refits), averaged as a mixture over the samples.\n"
        "SAAS + NUTS fits report the chains' rank-normalized split R-hat and bulk effective sample size\n"
        "(Vehtari et al. 2021) of the log density and of each parameter's relevance, and warn when R-hat\n"
        "is above 1.05 or a transition diverged after warm-up. Like a step, a fast fit starts from the\n"
        "file's sampler state of its metric when that still applies (--cold: always the full warm-up).\n"
        "With several objectives or outcome constraints every such metric has a model (and sampler\n"
        "state) of its own; --metric picks which one is fitted (default: the first objective).",
        {{"model", "NAME", "gp (MAP), saas (SAAS + NUTS, default) or saas-map"},
         method_option_specs({MethodFlag::Nuts}).front(),
         {"cold", "", "never warm-start from the file's sampler state"},
         {"metric", "NAME", "the modelled metric to fit: an objective or a constrained metric (default: the first objective)"},
         threads_option(),
         {"seed", "S", "random seed of the fit (default: the experiment's seed)"},
         {"top", "K", "parameters in the relevance table (default 10; --json lists all)"},
         {"json", "", "machine-readable output (no progress on stderr)"}},
        1, "FILE");
    if (!parser.parse(args)) {
        std::fputs(parser.help().c_str(), stdout);
        return 0;
    }
    if (parser.positionals().empty()) throw UsageError("an experiment FILE is required");
    ModelKind model = ModelKind::SaasNuts;
    if (const auto name = parser.value("model")) {
        const auto kind = model_kind_from_string(*name);
        if (!kind) throw UsageError("--model: unknown model '" + *name + "' (known: gp, saas, saas-map)");
        model = *kind;
    }
    const auto top = static_cast<int>(parser.integer("top", 1, 1'000'000).value_or(10));
    const bool json = parser.has("json");
    const std::string& path = parser.positionals().front();

    const Experiment experiment = load_experiment(path);
    // The file's own method (sampler settings, warp) with the model asked for, so that the fit is
    // the one its steps would make with that model.
    MethodSettings method = experiment.method;
    method.model = model;
    apply_method_options(parser, method, {MethodFlag::Nuts});
    if (auto error = method.validate()) throw InputError("method", *error);
    const int threads = threads_from(parser);
    const std::uint64_t seed = parser.unsigned_integer("seed").value_or(experiment.seed);

    const std::string metric = parser.value("metric").value_or(experiment.primary_objective().metric);
    const std::vector<std::string> modelled = experiment.outcomes.modelled_metrics();
    if (std::find(modelled.begin(), modelled.end(), metric) == modelled.end()) {
        std::string names;
        for (const std::string& m : modelled) names += (names.empty() ? "'" : ", '") + m + "'";
        throw UsageError("--metric: '" + metric + "' has no model (neither an objective nor constrained); the modelled metrics are " +
                         names);
    }
    const Objective* objective = experiment.outcomes.objective_on(metric);
    const auto training = make_metric_training_set(experiment, metric, warp_mode(method));
    const int completed = training ? training->data->num_points() : 0;
    if (completed < 2)
        throw InputError(path, std::to_string(completed) + " completed trial" + (completed == 1 ? "" : "s") +
                                   " with a value of '" + metric + "'; fitting a model needs at least 2");
    const SurrogateOptions options = surrogate_options(method, threads);
    if (auto error = options.validate()) throw InputError("method", *error);
    const WarmStartChoice warm =
        parser.has("cold") ? WarmStartChoice{std::nullopt, "--cold"} : choose_warm_start(experiment, metric, *training, method);

    FitProgress progress(!json);
    ThreadPool pool(threads);
    const SurrogateFit fit =
        fit_surrogate(training->data, options, seed, [&progress](int i, int total) { progress(i, total); }, {}, &pool,
                      warm.state ? &*warm.state : nullptr);
    if (fit.status != SurrogateFit::Status::Ok) {
        std::fprintf(stderr, "sebo fit: the %s fit failed: %s\n", to_string(*method.model), fit.message.c_str());
        return 1;
    }

    const SearchSpace& space = experiment.space;
    const bool warped = training->warp.lambda() != 1.0;  // the warp kept (WarpMode::Checked may leave it out)
    const bool known_noise = !training->data->noise_inferred();
    const auto relevance = parameter_relevance(fit.samples, kLowQuantile, kHighQuantile);
    const double output_scale = median_of(fit.samples, &GpHyperparameters::output_scale);
    const double noise = median_of(fit.samples, &GpHyperparameters::noise);
    const LeaveOneOutScore loo = leave_one_out_score(*fit.posterior);
    const ObjectiveUnitsScore loo_objective = in_objective_units(loo, *training);
    const int samples = static_cast<int>(fit.samples.size());
    // R-hat and bulk-ESS of each input's relevance (NUTS only), by input index.
    // The model's inputs: the parameters, or with choices their features ("compression=lz4").
    const int inputs = fit.posterior->model_data().dimension();
    const InputEncoding* encoding = training->data->encoding.get();
    std::vector<const Convergence*> convergence(static_cast<std::size_t>(inputs), nullptr);
    for (std::size_t k = 0; k < fit.diagnostics.relevance_order.size(); ++k)
        convergence[static_cast<std::size_t>(fit.diagnostics.relevance_order[k])] = &fit.diagnostics.parameters[k];
    const NutsSchedule schedule = method.nuts_schedule(threads);
    const std::string cold_reason = warm.cold_reason.empty() || fit.cold_start_reason.empty()
                                        ? warm.cold_reason + fit.cold_start_reason
                                        : warm.cold_reason + "; " + fit.cold_start_reason;
    const std::string warning = fit.sampled ? make_fit_record(fit, method, space).warning() : std::string();
    const auto json_number = [](double x) { return std::isfinite(x) ? Json(x) : Json(nullptr); };

    if (json) {
        Json out;
        out["file"] = path;
        out["model"] = to_string(*method.model);
        out["seed"] = seed;
        out["trials"] = completed;
        out["parameters"] = space.dimension();
        out["metric"] = metric;
        if (objective) out["objective"] = {{"name", objective->metric}, {"minimize", objective->minimize}};
        // The model's units: the utility (objective, negated when minimized), Yeo–Johnson
        // warped when the method warps it, then standardized with this mean and scale.
        out["model_units"] = {{"warped", warped},
                              {"yeo_johnson_lambda", warped ? Json(training->warp.lambda()) : Json(nullptr)},
                              {"mean", training->standardizer.mean()},
                              {"scale", training->standardizer.scale()}};
        out["known_noise"] = known_noise;
        // Extreme values moved onto the far-out fence before the fit (experiment/model_step.h),
        // and trials excluded from analysis (not in the data at all).
        out["winsorized_trials"] = training->winsorized;
        out["excluded_trials"] = experiment.excluded_count();
        out["seconds"] = fit.seconds;
        out["samples"] = samples;
        out["dropped_samples"] = fit.posterior->dropped_members();
        out["relevance_quantiles"] = {kLowQuantile, kHighQuantile};
        out["relevance"] = Json::array();
        for (const ParameterRelevance& r : relevance) {
            Json entry = {{"parameter", feature_name(space, encoding, r.parameter)},
                          {"index", r.parameter},
                          {"relevance", r.median},
                          {"low", r.low},
                          {"high", r.high}};
            if (const Convergence* c = convergence[static_cast<std::size_t>(r.parameter)]) {
                entry["rhat"] = json_number(c->rhat);
                entry["ess_bulk"] = json_number(c->ess_bulk);
            }
            out["relevance"].push_back(std::move(entry));
        }
        out["output_scale"] = output_scale;
        out["noise"] = noise;
        if (fit.sampled) {
            out["diagnostics"] = {{"kind", "nuts"},
                                  {"nuts", to_string(method.nuts)},
                                  {"chains", fit.chains},
                                  {"start", to_string(fit.start)},
                                  {"cold_start_reason", cold_reason},
                                  {"step_size", fit.step_size},
                                  {"mean_tree_depth", fit.mean_tree_depth},
                                  {"divergences", fit.divergences},
                                  {"mean_acceptance", fit.mean_acceptance},
                                  {"gradient_evaluations", fit.gradient_evaluations},
                                  {"warmup", fit.warmup},
                                  {"draws", schedule.samples},
                                  {"thinning", schedule.thinning},
                                  {"rhat", json_number(fit.diagnostics.log_density.rhat)},
                                  {"ess_bulk", json_number(fit.diagnostics.log_density.ess_bulk)},
                                  {"warning", warning}};
        } else {
            out["diagnostics"] = {{"kind", "map"}, {"status", to_string(fit.map_status)}, {"message", fit.message}};
        }
        out["leave_one_out"] = {
            {"rmse", loo_objective.rmse},
            {"mean_log_predictive_density", loo_objective.mean_log_predictive_density},
            {"units", "objective"},
            {"model_units", {{"rmse", loo.rmse}, {"mean_log_predictive_density", loo.mean_log_predictive_density}}},
            {"method", "closed form per sample, hyperparameters held fixed, mixture over samples"}};
        std::printf("%s\n", out.dump(2).c_str());
        return 0;
    }

    std::printf("model         %s (%s), seed %llu\n", to_string(*method.model), describe(options.kind),
                static_cast<unsigned long long>(seed));
    std::printf("data          %d completed trials, %d parameters; %s (%s)%s%s\n", completed, space.dimension(), metric.c_str(),
                objective ? (objective->minimize ? "minimize" : "maximize") : "constrained, as recorded",
                warped ? ", Yeo-Johnson warped, standardized" : ", standardized",
                known_noise ? "; known noise from standard errors" : "");
    if (!training->winsorized.empty() || experiment.excluded_count() > 0) {
        std::string trials;
        for (int t : training->winsorized) trials += (trials.empty() ? "" : ", ") + std::to_string(t);
        std::printf("              %d excluded from analysis; extreme values winsorized: %s\n", experiment.excluded_count(),
                    trials.empty() ? "none" : ("trial " + trials).c_str());
    }
    std::printf("fit           %.3g s, %d sample%s", fit.seconds, samples, samples == 1 ? "" : "s");
    if (fit.posterior->dropped_members() > 0) std::printf(" (%d dropped: covariance did not factor)", fit.posterior->dropped_members());
    std::printf("\n");
    if (fit.sampled) {
        std::printf("NUTS          %s: %d chain%s, %d warm-up iterations each (%s), %d draws, thinning %d;\n"
                    "              step size %.3g, mean tree depth %.2f, mean acceptance %.2f, %lld gradient evaluations\n",
                    to_string(method.nuts), fit.chains, fit.chains == 1 ? "" : "s", fit.warmup,
                    describe_start(fit.start, cold_reason).c_str(),
                    schedule.samples, schedule.thinning, fit.step_size, fit.mean_tree_depth, fit.mean_acceptance,
                    fit.gradient_evaluations);
        std::printf("convergence   R-hat %.3f, bulk ESS %.0f (log density); %d divergent after warm-up\n",
                    fit.diagnostics.log_density.rhat, fit.diagnostics.log_density.ess_bulk, fit.divergences);
    } else {
        std::printf("optimizer     %s%s%s\n", to_string(fit.map_status), fit.message.empty() ? "" : ": ", fit.message.c_str());
    }
    std::printf("output scale  %.4g (median, model units: the %sstandardized objective)\n", output_scale, warped ? "warped, " : "");
    if (known_noise)
        std::printf("noise         known per trial; extra noise %.4g (median, model units)\n", noise);
    else
        std::printf("noise         %.4g (median, model units)\n", noise);
    std::printf("leave-one-out RMSE %.4g, mean log predictive density %.4g (objective units; closed form per\n"
                "              sample with its hyperparameters held fixed, mixture over the samples)\n",
                loo_objective.rmse, loo_objective.mean_log_predictive_density);

    const int shown = std::min(top, static_cast<int>(relevance.size()));
    std::printf("\nrelevance = median of 1/lengthscale^2 over %d sample%s", samples, samples == 1 ? "" : "s");
    if (samples > 1) std::printf(", with its 10th-90th percentile");
    std::printf(" (top %d of %d):\n", shown, inputs);
    std::printf("  %-4s %-20s %12s", "rank", "parameter", "relevance");
    if (samples > 1) std::printf(" %12s %12s", "10%", "90%");
    if (fit.sampled) std::printf(" %8s %9s", "R-hat", "bulk ESS");
    std::printf("\n");
    for (int k = 0; k < shown; ++k) {
        const ParameterRelevance& r = relevance[static_cast<std::size_t>(k)];
        std::printf("  %-4d %-20s %12.4g", k + 1, feature_name(space, encoding, r.parameter).c_str(), r.median);
        if (samples > 1) std::printf(" %12.4g %12.4g", r.low, r.high);
        if (const Convergence* c = convergence[static_cast<std::size_t>(r.parameter)])
            std::printf(" %8.3f %9.0f", c->rhat, c->ess_bulk);
        std::printf("\n");
    }
    if (!warning.empty()) std::fprintf(stderr, "warning: %s\n", warning.c_str());
    return 0;
}

}  // namespace sebo::cli
