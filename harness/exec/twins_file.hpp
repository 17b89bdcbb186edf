// Twins file (ci/twins/*.json, or a user's own with --twins FILE): external programs declared as
// twins of a feature. twinproof hands each cell's frames to the program in a file, runs it with
// the command template, reads its score file and judges the scores like any twin's. The format
// is described in ci/twins/README.md.
#pragma once

#include <algorithm>

#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "extractors/extractor.hpp"
#include "extractors/registry.hpp"
#include "harness/io/score_files.hpp"

namespace twinproof {

struct ExecTwinSpec {
  std::string name;
  std::vector<std::string> features;  // one backend per feature
  std::string summary;
  BackendKind kind = BackendKind::host;
  // How the program is found: this twinproof ("self"), a name in PATH ("program"), or a path in an
  // environment variable ("env"; the command line's --vmaf / --libvmaf-driver set theirs).
  enum class Locate { self, program, env } locate = Locate::program;
  std::string locate_value;          // the program name or the variable
  std::string locate_flag;           // env: twinproof's option that sets the variable (--vmaf), for rerun commands
  std::string missing_hint;          // appended when the program is not found
  std::vector<std::string> command;  // argv template
  // "commands_by_feature": a feature's own argv template, where the program is told to compute it
  // another way (libvmaf's vmaf tool scores a model with --model, a feature with --feature).
  std::map<std::string, std::vector<std::string>, std::less<>> command_by_feature;
  const std::vector<std::string>& command_of(std::string_view feature) const {
    const auto it = command_by_feature.find(feature);
    return it == command_by_feature.end() ? command : it->second;
  }
  // What a "{variant}" word expands to: empty for a twin as declared, a variant's words (one of
  // "variants": the same program with one setting changed, libvmaf's CPU mask or thread count)
  // for a twin made from it.
  std::vector<std::string> variant_words;
  // "requires_cpu": x86 features the host's CPU must have (a SIMD path of the program): without
  // one of them the twin is not supported here.
  std::vector<std::string> required_cpu;
  // "probe": a command run once per program and process whose output must contain a text, or the
  // twin is not supported here (an ffmpeg built without the filter the command uses).
  struct Probe {
    std::vector<std::string> command;
    std::string contains;
    std::string reason;  // why the twin is not supported when the text is absent
  };
  std::optional<Probe> probe;
  // "unsupported_if_said": a text which, in what the program prints, means it did not do what the
  // twin is for even though it exited 0 (a CUDA build of the vmaf tool that falls back to the
  // CPU): the cell is not supported, never judged.
  std::string unsupported_if_said;
  std::vector<std::string> version_command;  // argv template printing the version; empty: none
  std::vector<std::string> option_words;     // per option, e.g. ["--option", "{name}={value}"]
  enum class Options { words, libvmaf, none } options = Options::words;
  enum class Input { y4m, yuv } input = Input::y4m;
  // The command names {distorted}: the program is handed both clips of a pair ({reference} or
  // {input} for the reference). Without it, it is handed one clip, and a feature that reads the
  // distorted clip is not supported by this twin.
  bool takes_pair = false;
  ScoreFileFormat output = ScoreFileFormat::libvmaf_json;
  bool output_on_stdout = false;  // else the file {output}
  long long frame_base = 0;       // the number the program gives the first frame
  // Keys of the program's output: the feature's libvmaf names for the cell's options
  // ("libvmaf"), its metric names ("twinproof"), or an explicit key -> metric map, in which case
  // only those metrics are compared.
  // "libvmaf-collector": the keys libvmaf's feature collector stores scores under (what the
  // libvmaf driver is asked for with {metrics}).
  enum class Keys { libvmaf, libvmaf_collector, twinproof, map };
  struct MetricKeys {
    Keys keys = Keys::twinproof;
    std::map<std::string, std::string> key_map;  // Keys::map: the program's key -> metric
  };
  MetricKeys metric_keys;  // "metrics": every feature's
  // "metrics_by_feature": a feature's own, where the program names its features' scores in
  // different ways (libvmaf's CUDA extractors: motion_cuda lacks motion3, vif_cuda has vif's keys).
  std::map<std::string, MetricKeys, std::less<>> metric_keys_by_feature;
  // "ignores_options": per feature, options the program accepts and silently does not apply
  // (libvmaf passes an option its extractor lacks to no one): libvmaf keys are named as for the
  // options without them, so that the scores show what the program did.
  std::map<std::string, std::vector<std::string>, std::less<>> ignored_options;
  // "unnamed_options": per feature, options the program applies but does not name its scores by
  // (libvmaf names a score by the options its extractor declares as feature parameters; adm_cuda
  // declares adm_norm_view_dist and adm_ref_display_height as plain options): libvmaf keys are
  // named without them, and the reference is run with them.
  std::map<std::string, std::vector<std::string>, std::less<>> unnamed_options;
  // Whether libvmaf keys of the feature's scores are named by an option.
  bool names_scores_by(std::string_view feature, std::string_view option) const {
    for (const auto* lists : {&ignored_options, &unnamed_options})
      if (const auto it = lists->find(feature);
          it != lists->end() && std::find(it->second.begin(), it->second.end(), option) != it->second.end())
        return false;
    return true;
  }
  // "provides": per feature, the only metrics the program emits (libvmaf's adm_cuda has no aim or
  // adm3): it is asked for and judged on those alone. A feature without an entry: every metric.
  std::map<std::string, std::vector<std::string>, std::less<>> provided_metrics;
  bool provides(std::string_view feature, std::string_view metric) const {
    const auto it = provided_metrics.find(feature);
    return it == provided_metrics.end() || std::find(it->second.begin(), it->second.end(), metric) != it->second.end();
  }
  const MetricKeys& keys_of(std::string_view feature) const {
    const auto it = metric_keys_by_feature.find(feature);
    return it == metric_keys_by_feature.end() ? metric_keys : it->second;
  }
  // A template word "{metrics}" expands to these words for each key the cell needs ({key}).
  std::vector<std::string> metric_words = {"--metric", "{key}"};
  std::vector<int> bitdepths = {8, 10, 12, 16};
  std::vector<Chroma> chroma = {Chroma::c400, Chroma::c420, Chroma::c422, Chroma::c444};
  std::string unsupported_reason;  // why a bit depth or chroma format is not taken
  int unsupported_exit = -1;
  // The exit statuses that are the program's refusal of a configuration (empty: any non-zero
  // one); any other non-zero status is an error.
  std::vector<int> refusal_exits;  // the exit status by which the program says "not supported here"
  double timeout_s = 300;
  std::string file;  // where it was declared
};

// The x86 CPU features "requires_cpu" may name, and whether this host has one.
std::span<const std::string_view> known_cpu_features();
bool host_has_cpu_feature(std::string_view name);

// Parses a twins file; InputError names the file, the field and the value. A twin with "variants"
// comes back as itself followed by one twin per variant.
std::vector<ExecTwinSpec> load_twins_file(const std::filesystem::path& file);

// The pieces register_exec_twins binds into a backend (tests use them without registering).
Availability exec_twin_availability(const ExecTwinSpec& spec);
std::unique_ptr<Extractor> make_exec_twin(std::shared_ptr<const ExecTwinSpec> spec, std::string_view feature,
                                          const ExtractorContext& ctx);

// Runs the registered exec twin backend `b` on `raw_file` (with `raw_distorted` as the pair's
// distorted clip; empty: `raw_file` is both), each holding exactly `frames` frames of `fmt`, which
// its program reads as they are (no copy), its scores into `sink`; returns the wall
// time in ms of the program's whole process (what bench reports). nullopt when `b` is not an exec
// twin that reads raw frames; the twin's faults (refusal, exit status, timeout, missing metric)
// are thrown as in any run.
std::optional<double> run_exec_twin_on_file(const Backend& b, const Format& fmt, const OptionList& options,
                                            const std::filesystem::path& raw_file, const std::filesystem::path& raw_distorted,
                                            unsigned frames, ScoreSink& sink);

// What a command line needs to find the twin again, as words (repro and the gate's recap print
// them, bench passes them to its `score` processes): "--twins FILE" for a file not shipped, and
// for a program found through a variable that is set, the option that sets it with its value.
std::string exec_twin_rerun_args(const ExecTwinSpec& spec, bool shipped);

// While on, each exec twin instance keeps its work folder (the clip it wrote, the program's output
// and stderr) instead of removing it, and names it in its provenance ("work_folder"), so that the
// command it ran can be pasted and run again by hand: repro turns it on for one run of the twin.
void keep_exec_work_folders(bool keep);

// Registers each twin of the files as a backend of each of its features (UsageError for a name
// a feature already has). Safe to call once per process.
void register_exec_twins(const std::vector<std::filesystem::path>& files);

// The twins files shipped with the data (ci/twins/*.json), in name order.
std::vector<std::filesystem::path> shipped_twins_files();

}  // namespace twinproof
