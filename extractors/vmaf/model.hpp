// A libvmaf model (its JSON model file: a support-vector regression over features) as the
// prediction reads it (extractors/vmaf/CONTRACT.md). Parsing refuses, with the file, the field and
// the value, anything libvmaf would read differently or twinproof cannot compute.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "extractors/extractor.hpp"

namespace twinproof::vmaf {

// One entry of a support vector: libsvm's (index, value), indices from 1.
struct SvmNode {
  int index;
  double value;
};

struct ModelFeature {
  std::string libvmaf_name;         // as the model names it: "VMAF_integer_feature_adm2_score"
  std::string feature;              // the twinproof feature computing it: "adm"
  std::string metric;               // that feature's metric: "adm2"
  OptionList options;               // the model's options for that feature (feature_opts_dicts)
  double slope = 1, intercept = 0;  // linear_rescale: x' = slope * x + intercept
};

struct Point {
  double x, y;
};

struct ScoreTransform {
  bool enabled = false;  // the file's "enabled" (false when absent), or the enable_transform option
  bool has_p0 = false, has_p1 = false, has_p2 = false;
  double p0 = 0, p1 = 0, p2 = 0;
  bool has_knots = false;
  std::vector<Point> knots;
  bool out_lte_in = false, out_gte_in = false;
};

struct Model {
  std::string source;               // "vmaf_v0.6.1 (built in)" or the file's path
  bool linear_rescale = true;       // norm_type linear_rescale; false: none
  double slope = 1, intercept = 0;  // the prediction's: y = (svm - intercept) / slope
  std::vector<ModelFeature> features;
  ScoreTransform transform;
  bool clip = false;
  double clip_min = 0, clip_max = 0;
  // libsvm nu_svr with an rbf kernel.
  double gamma = 0, rho = 0;
  std::vector<double> sv_coef;
  std::vector<std::vector<SvmNode>> support_vectors;
};

struct ModelFlags {
  bool disable_clip = false;      // libvmaf's VMAF_MODEL_FLAG_DISABLE_CLIP
  bool enable_transform = false;  // libvmaf's VMAF_MODEL_FLAG_ENABLE_TRANSFORM
};

// The models built into twinproof (extractors/vmaf/models/, byte for byte upstream's files).
struct BuiltInModel {
  std::string_view version;  // "vmaf_v0.6.1"
  std::string_view json;     // the file's bytes
};
std::vector<BuiltInModel> built_in_models();
// The built-in model of that version, or nullopt.
std::optional<BuiltInModel> find_built_in_model(std::string_view version);

// `spec`: a built-in version, or a model file's path (any value that is not a version).
// Throws RefusedConfiguration naming the file, the field and the value.
Model load_model(const std::string& spec, ModelFlags flags);
// The same from a file's text; `source` names it in errors.
Model parse_model(std::string_view json_text, const std::string& source, ModelFlags flags);

}  // namespace twinproof::vmaf
