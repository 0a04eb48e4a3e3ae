#include "io/recorded_step.h"

#include <cmath>

#include "core/format.h"
#include "core/input_error.h"
#include "experiment/model_step.h"
#include "io/experiment_file.h"
#include "io/file_io.h"
#include "io/json_fields.h"
#include "model/input_encoding.h"

namespace sebo {

using json_fields::Document;
using json_fields::fail;
using json_fields::Json;
using json_fields::read_optional;
using json_fields::read_required;

namespace {

Json vector_json(const Eigen::VectorXd& v) {
    Json out = Json::array();
    for (Eigen::Index i = 0; i < v.size(); ++i) out.push_back(v[i]);
    return out;
}

Eigen::VectorXd read_vector(const Document& object, const std::string& path, const char* key) {
    std::vector<double> values;
    read_required(object, path, key, values);
    return Eigen::Map<const Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(values.size()));
}

Json samples_json(const std::vector<GpHyperparameters>& samples) {
    Json out = Json::array();
    for (const GpHyperparameters& h : samples) {
        Json s = Json::object();
        s["inverse_squared_lengthscales"] = vector_json(h.inverse_squared_lengthscales);
        s["output_scale"] = h.output_scale;
        s["noise"] = h.noise;
        s["mean"] = h.mean;
        out.push_back(std::move(s));
    }
    return out;
}

GpHyperparameters read_sample(const Document& value, const std::string& path, int dimension) {
    json_fields::expect_object(value, path);
    GpHyperparameters h;
    h.inverse_squared_lengthscales = read_vector(value, path, "inverse_squared_lengthscales");
    read_required(value, path, "output_scale", h.output_scale);
    read_required(value, path, "noise", h.noise);
    read_required(value, path, "mean", h.mean);
    if (h.dimension() != dimension)
        fail(member_path(path, "inverse_squared_lengthscales"),
             std::to_string(h.dimension()) + " values, but the models have " + std::to_string(dimension) + " inputs");
    if (auto error = h.validate()) json_fields::fail_with_message(path + "." + *error);
    return h;
}

// The number of inputs of the step's models: the space's parameters, or the features of its
// choices' encoding (experiment/model_step.h).
int model_inputs(const SearchSpace& space) {
    const std::shared_ptr<const InputEncoding> encoding = input_encoding(space);
    return encoding ? encoding->feature_dimension() : space.dimension();
}

RecordedCandidate read_reference(const Document& value, const std::string& path, const SearchSpace& space) {
    json_fields::expect_object(value, path);
    RecordedCandidate r;
    r.x = read_vector(value, path, "x");
    if (r.x.size() != space.dimension())
        fail(member_path(path, "x"), std::to_string(r.x.size()) + " coordinates, but the space has " +
                                         std::to_string(space.dimension()) + " parameters");
    for (Eigen::Index i = 0; i < r.x.size(); ++i)
        if (!(r.x[i] >= 0.0 && r.x[i] <= 1.0))
            fail(element_path(member_path(path, "x"), static_cast<std::size_t>(i)),
                 format_number(r.x[i]) + " is outside the unit interval");
    read_required(value, path, "value", r.value);
    read_required(value, path, "changes", r.changes);
    if (r.changes != changed_parameters(space, r.x))
        fail(member_path(path, "changes"), std::to_string(r.changes) + " is not the number of changed parameters of x, " +
                                               std::to_string(changed_parameters(space, r.x)));
    read_required(value, path, "stages", r.stages);
    read_required(value, path, "local_optimizations", r.local_optimizations);
    read_required(value, path, "evaluations", r.evaluations);
    read_required(value, path, "stage_paths", r.stage_paths);
    read_required(value, path, "stage_evaluations", r.stage_evaluations);
    const std::string endings_path = member_path(path, "endings");
    const Document& endings = json_fields::expect_object(json_fields::required_member(value, path, "endings"), endings_path);
    read_required(endings, endings_path, "converged", r.endings.converged);
    read_required(endings, endings_path, "limit", r.endings.limit);
    read_required(endings, endings_path, "failed", r.endings.failed);
    return r;
}

}  // namespace

int changed_parameters(const SearchSpace& space, const Eigen::VectorXd& x) {
    return static_cast<int>(make_sparsity_penalty(space, PenaltyKind::L0).exact(x));
}

RecordedCandidate recorded_candidate(const OptimizedCandidate& candidate, const SearchSpace& space) {
    RecordedCandidate r;
    r.x = candidate.x;
    r.value = candidate.value;
    r.changes = changed_parameters(space, candidate.x);
    r.stages = candidate.stages;
    r.local_optimizations = candidate.local_optimizations;
    r.evaluations = candidate.evaluations;
    r.stage_paths = candidate.stage_paths;
    r.stage_evaluations = candidate.stage_evaluations;
    r.endings = candidate.endings;
    return r;
}

std::string recorded_step_to_json_text(const RecordedStep& step) {
    Experiment experiment = step.experiment;
    experiment.sampler_state.reset();  // a warm start of the next fit: nothing a replay needs
    Json out = Json::object();
    out["format"] = kRecordedStepFormat;
    out["version"] = kRecordedStepVersion;
    out["label"] = step.label;
    out["recorded_by"] = step.recorded_by;
    out["experiment"] = Json::parse(experiment_to_json_text(experiment));
    Json models = Json::array();
    for (std::size_t j = 0; j < step.samples.size(); ++j)
        models.push_back(Json{{"metric", step.metrics[j]}, {"samples", samples_json(step.samples[j])}});
    out["models"] = std::move(models);
    const RecordedCandidate& r = step.reference;
    out["reference"] = Json{{"x", vector_json(r.x)},
                            {"value", r.value},
                            {"changes", r.changes},
                            {"stages", r.stages},
                            {"local_optimizations", r.local_optimizations},
                            {"evaluations", r.evaluations},
                            {"stage_paths", r.stage_paths},
                            {"stage_evaluations", r.stage_evaluations},
                            {"endings", Json{{"converged", r.endings.converged}, {"limit", r.endings.limit},
                                             {"failed", r.endings.failed}}}};
    return out.dump() + "\n";
}

RecordedStep recorded_step_from_json_text(const std::string& text) {
    const Document document = parse_json_document(text, kMaxJsonNesting);
    json_fields::expect_object(document, "");
    std::string format;
    read_required(document, "", "format", format);
    if (format != kRecordedStepFormat)
        fail("format", shown_text(format) + " is not \"" + std::string(kRecordedStepFormat) + "\"");
    int version = 0;
    read_required(document, "", "version", version);
    if (version != kRecordedStepVersion)
        fail("version", std::to_string(version) + " is not the version this program reads, " +
                            std::to_string(kRecordedStepVersion));
    RecordedStep step;
    read_optional(document, "", "label", step.label);
    read_optional(document, "", "recorded_by", step.recorded_by);
    const Document& experiment = json_fields::expect_object(json_fields::required_member(document, "", "experiment"), "experiment");
    try {
        step.experiment = experiment_from_json_text(experiment.dump());
    } catch (const InputError& e) {
        throw InputError(member_path("experiment", e.field()), std::string(e.what()).substr(e.field().empty() ? 0 : e.field().size() + 2));
    }
    const std::vector<std::string> expected = step.experiment.outcomes.modelled_metrics();
    const Document& models = json_fields::expect_array(json_fields::required_member(document, "", "models"), "models");
    if (models.size() != expected.size())
        fail("models", std::to_string(models.size()) + " models, but the experiment models " +
                           std::to_string(expected.size()) + " metrics");
    const int inputs = model_inputs(step.experiment.space);
    for (std::size_t j = 0; j < models.size(); ++j) {
        const std::string path = element_path("models", j);
        json_fields::expect_object(models[j], path);
        std::string metric;
        read_required(models[j], path, "metric", metric);
        if (metric != expected[j])
            fail(member_path(path, "metric"), shown_text(metric) + " is not the experiment's modelled metric " +
                                                  std::to_string(j) + ", " + shown_text(expected[j]));
        const std::string samples_path = member_path(path, "samples");
        const Document& samples = json_fields::expect_array(json_fields::required_member(models[j], path, "samples"), samples_path);
        if (samples.empty()) fail(samples_path, "no samples");
        std::vector<GpHyperparameters> read;
        for (std::size_t s = 0; s < samples.size(); ++s) read.push_back(read_sample(samples[s], element_path(samples_path, s), inputs));
        step.metrics.push_back(metric);
        step.samples.push_back(std::move(read));
    }
    step.reference = read_reference(json_fields::required_member(document, "", "reference"), "reference", step.experiment.space);
    return step;
}

RecordedStep load_recorded_step(const std::string& path) { return recorded_step_from_json_text(read_experiment_text(path)); }

}  // namespace sebo
