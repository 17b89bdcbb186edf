// A feature is data the shared layers read: its name, reference, metrics, pipeline stages, option
// table and device traffic. Goldens, the gate, matrices, repro, bench and the tests read these
// descriptors and the backend registry; none of them names a feature.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "extractors/extractor.hpp"

namespace twinproof {

// ---- Options: one table per feature, one parser for all (libvmaf's VmafOption) -----------------
enum class OptionType { boolean, integer, real, text };
std::string_view to_string(OptionType t);

struct OptionSpec {
  const char* name;   // libvmaf's option name
  const char* alias;  // nullptr: none
  OptionType type;
  const char* default_text;  // the default as text; the options struct's initialiser holds the same value
  double min, max;           // inclusive; unused for booleans
  std::size_t offset;        // offsetof(the feature's options struct, the field): bool, int, double or std::string
  const char* help;
  // libvmaf adds a non-default value of this option to its output's metric names (its
  // VMAF_OPT_FLAG_FEATURE_PARAM); `debug` does not.
  bool names_output = true;
  // A text value may be a file's path (vmaf's model: a built-in version, or a model file): a run
  // reads that file, and a program run elsewhere (an exec twin) is handed its absolute path.
  bool names_file = false;
};

// The `debug` row of a feature that has one: a boolean that adds outputs and never names them.
constexpr OptionSpec debug_option(std::size_t offset, const char* help, const char* default_text = "false") {
  return {.name = "debug",
          .alias = nullptr,
          .type = OptionType::boolean,
          .default_text = default_text,
          .min = 0,
          .max = 0,
          .offset = offset,
          .help = help,
          .names_output = false};
}

// A flag: a boolean option, false unless given. `names_output` as in OptionSpec.
constexpr OptionSpec flag_option(const char* name, const char* alias, std::size_t offset, const char* help,
                                 bool names_output = true) {
  return {.name = name,
          .alias = alias,
          .type = OptionType::boolean,
          .default_text = "false",
          .min = 0,
          .max = 0,
          .offset = offset,
          .help = help,
          .names_output = names_output};
}

// "true or false", "an integer in [0, 9]", "a finite number in [0, 5]"; a text option's help says
// what it takes (the feature checks the text when it starts).
std::string allowed_values(const OptionSpec& spec);

// Parses options given by name or alias into `target` (the feature's options struct, holding its
// defaults), each at its spec's offset. Throws ConfigError naming the option, the value and the
// allowed values for an unknown name, a repeated option, a malformed value or one out of range;
// a number is used exactly as given (it must parse whole to a finite value).
void parse_options(std::span<const OptionSpec> table, const OptionList& given, void* target);

// A feature's options struct (its initialisers are the defaults) filled from `given`.
template <class Options>
Options parse_options_as(std::span<const OptionSpec> table, const OptionList& given) {
  Options o;
  parse_options(table, given, &o);
  return o;
}

// The spec an option name or alias refers to, or nullptr.
const OptionSpec* find_option(std::span<const OptionSpec> table, std::string_view name_or_alias);

// ---- libvmaf's output names --------------------------------------------------------------------
struct LibvmafName {
  std::string_view metric;        // the feature's metric: "motion2"
  std::string_view feature_name;  // what libvmaf's extractor calls it: "VMAF_integer_feature_motion2_score"
  std::string_view alias;         // what libvmaf's output writers print instead, when it has one: "integer_motion2"
  // Whether libvmaf's documents list it per frame (the libvmaf driver's pooled keys of frames 0..t
  // are not: libvmaf writes the clip's pooled scores apart).
  bool per_frame_in_documents = true;
};

// libvmaf's debug outputs of a feature scored over scales (vif, adm): appends `feature`,
// `feature`_num and `feature`_den, then `feature`_num_scaleS and `feature`_den_scaleS for each scale.
void append_scale_debug_metrics(std::vector<std::string>& metrics, std::string_view feature, int scales);

// ---- Pipeline stages (what `inspect` may expose; repro bisects in this order) ----------------
enum class StageRole {
  data,          // per-sample arrays (planes, passes)
  partial_sums,  // reduction inputs (row sums): a twin that exposes them shows where a sum departs
  sums,          // values reduced from the partial sums (totals, scores)
  outputs,       // what the extractor emits
};

struct StageInfo {
  std::string_view id;     // what inspect() takes: "row_sums"
  std::string_view label;  // what reports say: "row sums"
  StageRole role;
};

// ---- Device traffic (bench's memory floor) ---------------------------------------------------
struct DeviceTraffic {
  double floor_bytes = 0;   // bytes one frame must move in device memory at the least
  double upload_bytes = 0;  // bytes of one frame's samples that reach the device
};
// The traffic of a feature that reads both pictures' luma once each and writes a few sums.
DeviceTraffic luma_pair_traffic(const Format& fmt, const OptionList& options);

// Which of libvmaf's two names of a metric (libvmaf_metric_name below).
enum class LibvmafKey { output, collector };

struct FeatureDescriptor {
  std::string_view name;       // first part of every cell id
  std::string_view reference;  // the backend every twin is judged against
  std::string_view summary;
  std::vector<std::string_view> metrics;  // every metric it can emit, in report order
  std::vector<StageInfo> stages;          // pipeline order
  std::span<const OptionSpec> options;
  // Frames after t that metric values of frame t may depend on (motion2 looks one ahead).
  unsigned lookahead = 0;
  // Whether the scores depend on the distorted clip of a pair. The motion features read the
  // reference alone, as libvmaf's do; psnr reads both. A twin that can be handed only one clip (a
  // version-1 plugin) cannot run a feature that reads both.
  bool reads_distorted = false;
  DeviceTraffic (*traffic)(const Format& fmt, const OptionList& options) = nullptr;
  // Option sets that reach every path of the feature's arithmetic: twin checks run each.
  std::vector<OptionList> probe_option_sets;
  // The features whose backends compute this one's values (the vmaf model's), for the default
  // options; empty for a feature that computes its own. Such a feature's twin of a name is made of
  // those features' twins of that name, so it adds no per-sample arithmetic of its own.
  std::vector<std::string_view> built_from = {};
  std::vector<LibvmafName> libvmaf_names;  // one per metric, in the order libvmaf's output lists them
  // libvmaf's key of a metric when it is not libvmaf_names' under the feature's own options (a
  // model's features are named by the model's options for them); nullptr: libvmaf_names.
  std::string (*libvmaf_key)(std::string_view metric, const OptionList& options, LibvmafKey which) = nullptr;
  // A model's options as libvmaf's tools load it: the `vmaf` tool's --model value and ffmpeg's
  // libvmaf filter's model= ("version=NAME" or "path=FILE", then its flags, ':' between them);
  // nullptr for a feature that is not a model.
  std::string (*libvmaf_model)(const OptionList& options) = nullptr;

  const StageInfo* stage(std::string_view id) const;
};

// The key libvmaf's JSON, XML and CSV writers use for `metric` under `options` (valid options):
// with every naming option at its default, the alias (else libvmaf's feature name); otherwise the
// alias (else the name) followed, in the order of the options' names, by `_<alias>` for each
// boolean and `_<alias>_<value>` for each number (%d, or %g of a double) that is not at its
// default. Throws ConfigError for a metric the feature does not have.
// `collector`: the key libvmaf's feature collector stores the score under instead (what
// vmaf_feature_score_at_index takes): the same with options off their defaults, libvmaf's
// feature name (never the alias) with every option at its default.
std::string libvmaf_metric_name(const FeatureDescriptor& feature, std::string_view metric, const OptionList& options,
                                LibvmafKey key = LibvmafKey::output);

// Every registered feature (extractors/features.inc), in registration order.
std::span<const FeatureDescriptor* const> features();
const FeatureDescriptor* find_feature(std::string_view name);
// The feature or ConfigError listing the known ones.
const FeatureDescriptor& feature_or_throw(std::string_view name, std::string_view flag = "--feature");

}  // namespace twinproof
