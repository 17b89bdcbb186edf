// twinproof score: one input through one backend, a per-frame table or vmaf-shaped JSON.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "extractors/feature.hpp"
#include "harness/calibration/rules.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/input.hpp"
#include "harness/report/vmaf_output.hpp"
#include "harness/scoring/scores.hpp"
#include "harness/support/errors.hpp"
#include "harness/support/paths.hpp"

namespace twinproof::cli {
namespace {

struct ScoreArgs {
  ClipSpec input;         // INPUT or -r/--reference, with the raw geometry flags
  std::string distorted;  // -d/--distorted FILE: the pair's distorted clip (the input is its reference)
  std::vector<std::string>
      features;  // --feature, repeatable: NAME or NAME=opt=val:opt=val (default: vmaf for a pair, else float_motion)
  std::string backend = "cpu";
  std::vector<std::string> options;
  std::string frames;
  std::string json;    // --json FILE (a file of its own), or bare --json: the format of --output
  std::string output;  // --output/-o FILE
  bool json_given = false, xml = false, csv = false, sub = false, vmaf_names = false, quiet = false;
  std::optional<unsigned> frame_cnt;                 // vmaf's --frame_cnt: the clips are this many frames long
  unsigned frame_skip_ref = 0, frame_skip_dist = 0;  // vmaf's: frames dropped at the start of each clip
  bool no_prediction = false;                        // vmaf's: no model score (a pair without --feature then needs one)
  std::vector<std::string> models;  // vmaf's -m/--model: version=NAME or path=FILE, with :disable_clip, :enable_transform
  std::string precision = "exact";
  int device = 0;
  unsigned threads = 0;                // CPU backends' threads; 0: every hardware thread
  unsigned readers = 0;                // threads reading ahead; 0: chosen from the hardware
  std::string host_memory = "pinned";  // where frames are read: the backend's page-locked memory, or pageable
};

// "motion=motion_fps_weight=2:debug=true" -> ("motion", {{motion_fps_weight, 2}, {debug, true}}).
std::pair<std::string, OptionList> parse_feature_flag(const std::string& text) {
  const auto eq = text.find('=');
  std::pair<std::string, OptionList> out{text.substr(0, eq), {}};
  if (out.first.empty())
    throw UsageError("--feature", text, fmt::format("--feature '{}': no feature name (NAME=opt=val:opt=val)", text));
  if (eq == std::string::npos) return out;
  std::size_t begin = eq + 1;
  for (;;) {
    const auto colon = text.find(':', begin);
    const std::string pair = text.substr(begin, colon == std::string::npos ? std::string::npos : colon - begin);
    const auto sep = pair.find('=');
    if (sep == std::string::npos || sep == 0)
      throw UsageError("--feature", text, fmt::format("--feature '{}': '{}' is not opt=val (NAME=opt=val:opt=val)", text, pair));
    out.second.emplace_back(pair.substr(0, sep), pair.substr(sep + 1));
    if (colon == std::string::npos) return out;
    begin = colon + 1;
  }
}

// Where the vmaf-shaped document goes and in which format; nothing when no flag asks for one.
struct DocumentPlan {
  std::string destination;  // "-" for stdout
  VmafFormat format = VmafFormat::xml;
};

std::optional<DocumentPlan> plan_document(const ScoreArgs& a, const FeatureDescriptor& feature) {
  // -o named an option before it named the output: an option given that way is refused, not
  // taken for a file name.
  for (const std::string& file : {a.output, a.json})
    if (const auto eq = file.find('='); eq != std::string::npos && find_option(feature.options, file.substr(0, eq)) != nullptr)
      throw UsageError("--output", file,
                       fmt::format("'{}' names an option of {}, not an output file: give it as --option {} "
                                   "(-o is --output, as in the vmaf tool)",
                                   file, feature.name, file));
  if (a.json_given + a.xml + a.csv + a.sub > 1)
    throw UsageError("--json", "", "choose one output format: --json, --xml, --csv or --sub");
  const VmafFormat chosen = a.csv ? VmafFormat::csv : a.sub ? VmafFormat::sub : a.json_given ? VmafFormat::json : VmafFormat::xml;
  if (!a.json.empty()) {
    if (!a.output.empty())
      throw UsageError(
          "--output", a.output,
          fmt::format("--json '{}' and --output '{}' both name the output file: give the file once", a.json, a.output));
    return DocumentPlan{a.json, VmafFormat::json};
  }
  if (!a.output.empty()) return DocumentPlan{a.output, chosen};  // vmaf's default format is XML
  if (a.json_given || a.xml || a.csv || a.sub) return DocumentPlan{"-", chosen};
  return std::nullopt;
}

void print_table(const ScoreTable& t, const std::vector<std::string>& metrics) {
  std::string head = fmt::format("{:>6}", "frame");
  for (const std::string& m : metrics) head += fmt::format("  {:<42}", m + " (decimal, %a)");
  fmt::print("{}\n", head);
  for (unsigned i = 0; i < t.frames(); ++i) {
    const unsigned f = t.first_frame() + i;
    std::string line = fmt::format("{:>6}", f);
    for (const std::string& m : metrics) {
      const auto v = t.get(m, f);
      line += v ? fmt::format("  {:<18.12f} {:<23}", *v, hex(*v)) : fmt::format("  {:<42}", "-");
    }
    fmt::print("{}\n", line);
  }
}

// One feature of a score run: what --feature said, checked, and the scores it gave.
struct FeatureRun {
  const FeatureDescriptor* feature = nullptr;
  OptionList options;
  ScoreTable table;
  std::vector<std::string> metrics;
};

// The run's clips, as vmaf reads them: the reference and the distorted clip (or the input as its
// own), each after its skipped frames and at most --frame_cnt frames long.
ClipPair open_score_clips(const ScoreArgs& a) {
  ClipPair clips = open_clip_pair(a.input, a.distorted);
  const bool pair = clips.distorted != nullptr;
  if (!pair && a.frame_skip_dist != 0)
    throw UsageError("--frame_skip_dist", std::to_string(a.frame_skip_dist),
                     "--frame_skip_dist needs a distorted clip (-d/--distorted)");
  clips.reference = clip_window(std::move(clips.reference), a.frame_skip_ref, a.frame_cnt);
  if (pair) clips.distorted = clip_window(std::move(clips.distorted), a.frame_skip_dist, a.frame_cnt);
  return clips;
}

// The feature a model flag names: the one whose descriptor is a model's.
const FeatureDescriptor& model_feature() {
  for (const FeatureDescriptor* f : features())
    if (f->libvmaf_model != nullptr) return *f;
  throw std::logic_error("no registered feature is a model");
}

// vmaf's model text (version=NAME or path=FILE, then :disable_clip, :enable_transform, each
// optionally =true or =false) as the model feature's options, parsed here once: the run hands them
// on as options, never as text to be read again.
OptionList model_feature_options(const std::string& text) {
  std::string model;
  std::vector<std::string> flags;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t colon = std::min(text.find(':', at), text.size());
    const std::string part = text.substr(at, colon - at);
    at = colon + 1;
    const std::size_t eq = part.find('=');
    const std::string key = part.substr(0, eq);
    const std::string value = eq == std::string::npos ? "true" : part.substr(eq + 1);
    if ((key == "version" || key == "path") && eq != std::string::npos && !value.empty() && model.empty()) {
      if (key == "version" && (value.find('/') != std::string::npos || value.ends_with(".json")))
        throw UsageError("--model", text,
                         fmt::format("-m/--model '{}': version={} names a file: give path={}", text, value, value));
      if (key == "path" && value.find('/') == std::string::npos && !value.ends_with(".json"))
        model = "./" + value;  // a path, never mistaken for a built-in version
      else model = value;
    } else if ((key == "disable_clip" || key == "enable_transform") && (value == "true" || value == "false")) {
      flags.push_back(key + "=" + value);
    } else {
      throw UsageError("--model", text,
                       fmt::format("-m/--model '{}': '{}' is not version=NAME, path=FILE, disable_clip or enable_transform "
                                   "(each once, separated by ':')",
                                   text, part));
    }
  }
  if (model.empty()) throw UsageError("--model", text, fmt::format("-m/--model '{}': give version=NAME or path=FILE", text));
  OptionList options = {{"model", model}};
  for (const std::string& f : flags) {
    const std::size_t eq = f.find('=');
    options.emplace_back(f.substr(0, eq), f.substr(eq + 1));
  }
  return options;
}

// The features to score, each with its options, from --feature, -m/--model and --option; every
// name checked before anything is read.
std::vector<FeatureRun> plan_feature_runs(const ScoreArgs& a) {
  require_input(a.input);
  // Each feature asked for, as the flag that named it and its options, parsed once.
  struct Asked {
    std::string flag, text;  // for messages: "--feature" and its value, or "--model" and its
    std::string name;
    OptionList options;
  };
  std::vector<Asked> asked;
  for (const std::string& text : a.features) {
    auto [name, options] = parse_feature_flag(text);
    asked.push_back({"--feature", text, std::move(name), std::move(options)});
  }
  // vmaf's model flag is the model feature with that model; a pair with neither names the default
  // model, as vmaf computes it.
  if (a.models.size() > 1)
    throw UsageError("--model", a.models[1], "-m/--model is given more than once: twinproof scores one model per run");
  if (!a.models.empty()) {
    if (a.no_prediction) throw UsageError("--model", a.models.front(), "-m/--model and --no_prediction contradict each other");
    asked.push_back({"--model", a.models.front(), std::string(model_feature().name), model_feature_options(a.models.front())});
  }
  if (asked.empty()) {
    const bool pair = names_a_pair(a.input, a.distorted);
    if (pair && a.no_prediction)
      throw UsageError("--no_prediction", "", "--no_prediction without --feature leaves nothing to compute: name the features");
    asked.push_back({"--feature", "", pair ? "vmaf" : "float_motion", {}});
  }
  // Standard input holds one clip, read once: a second clip or a second pass over it would read
  // what is left of the stream (or the other clip's bytes interleaved).
  if (a.input.path == "-" && a.distorted == "-")
    throw UsageError("--distorted", "-", "the reference and the distorted clip both name standard input: give files");
  if (asked.size() > 1 && !a.options.empty())
    throw UsageError(
        "--option", a.options.front(),
        "--option is for a single --feature; with several, give each its options as vmaf does: --feature NAME=opt=val:opt=val");
  std::vector<FeatureRun> runs;
  for (Asked& f : asked) {
    FeatureRun r;
    r.feature = &feature_or_throw(f.name);
    if (a.no_prediction && r.feature->libvmaf_model != nullptr)
      throw UsageError(
          f.flag, f.text,
          fmt::format("--no_prediction and --feature {} contradict each other: {} is a model's prediction", f.name, f.name));
    for (const FeatureRun& earlier : runs)
      if (earlier.feature == r.feature) throw UsageError(f.flag, f.text, fmt::format("--feature {} is given twice", f.name));
    (void)backend_or_throw(f.name, a.backend);  // an unknown backend is refused before anything is read
    r.options = std::move(f.options);
    for (auto& o : parse_option_flags(a.options)) r.options.push_back(std::move(o));
    runs.push_back(std::move(r));
  }
  if (runs.size() > 1 && (a.input.path == "-" || a.distorted == "-"))
    throw UsageError("input", "-", "standard input is read once: with several features, give the clips as files");
  return runs;
}

// Each feature over the clips, read afresh per feature; the format and name of the clip read.
void score_runs(const ScoreArgs& a, const FrameRange& range, std::vector<FeatureRun>& runs, Format& format,
                std::string& source_name, std::string& distorted_name) {
  for (FeatureRun& r : runs) {
    const Backend& b = backend_or_throw(std::string(r.feature->name), a.backend);
    RunOptions run;
    run.range = range;
    run.lookahead = r.feature->lookahead;  // the last frame's motion2 as the whole clip gives it
    run.readers = resolve_readers(a.readers, b, checked_threads(a.threads));
    run.backend_memory = pinned_host_memory(a.host_memory);  // a device twin uploads from the frames as read
    ClipPair clips = open_score_clips(a);                    // each feature reads the clips afresh
    FrameSource* src = clips.reference.get();
    format = src->format();
    source_name = src->name();
    if (clips.distorted) distorted_name = clips.distorted->name();
    ExtractorContext ctx;
    ctx.device = a.device;
    ctx.threads = checked_threads(a.threads);
    auto ex = make_extractor(b, ctx);
    try {
      r.table = run_extractor(*ex, clips, r.options, run);
    } catch (const FileRefusal&) {
      throw;  // names its own file (a model's field), not the clip
    } catch (const ConfigError& e) {
      throw in_file(src->name(), e);
    }
    r.metrics = ex->metrics();
  }
}

// One table of every feature's metrics, each under the key the output uses (libvmaf's with
// --vmaf-names): two features may not write one key. `columns` pairs each metric's key in the
// table with the key printed.
ScoreTable merge_runs(const ScoreArgs& a, const std::vector<FeatureRun>& runs,
                      std::vector<std::pair<std::string, std::string>>& columns) {
  ScoreTable table;
  table.set_frames(runs.front().table.first_frame(), runs.front().table.frames());
  for (const FeatureRun& r : runs) {
    const auto add = [&](const std::string& metric, const std::string& key) {
      for (const auto& c : columns)
        if (c.second == key)
          throw UsageError("--feature", std::string(r.feature->name),
                           fmt::format("two features write '{}': give --vmaf-names to key every metric as libvmaf does", key));
      table.set_column(key,
                       r.table.columns().count(metric) ? r.table.columns().at(metric) : std::vector<std::optional<double>>{});
      columns.emplace_back(key, key);
    };
    if (a.vmaf_names) {  // libvmaf's keys, in the order its output lists them
      for (const LibvmafName& n : r.feature->libvmaf_names)
        if (n.per_frame_in_documents && std::find(r.metrics.begin(), r.metrics.end(), n.metric) != r.metrics.end())
          add(std::string(n.metric), libvmaf_metric_name(*r.feature, n.metric, r.options));
    } else {
      for (const std::string& m : r.metrics) add(m, m);
    }
  }
  return table;
}

// The score document (-o/--json/--xml/--csv), libvmaf's shape; with -o - on stdout.
void write_document(const ScoreArgs& a, const DocumentPlan& plan, NumberStyle style, const std::vector<FeatureRun>& runs,
                    const ScoreTable& table, const std::vector<std::pair<std::string, std::string>>& columns,
                    const Format& format, const std::string& source_name, const std::string& distorted_name, double seconds) {
  VmafDocument doc;
  doc.table = &table;
  doc.columns = columns;
  doc.version = "twinproof " TWINPROOF_VERSION;
  doc.fps = seconds > 0 ? table.frames() / seconds : 0;
  doc.width = format.width;
  doc.height = format.height;
  if (!a.vmaf_names) {  // with libvmaf's names the document is libvmaf's shape and nothing else
    const auto option_map = [](const OptionList& options) {
      nlohmann::json opts = nlohmann::json::object();
      for (const auto& [k, v] : options) opts[k] = v;
      return opts;
    };
    doc.provenance = {{"input", source_name}, {"format", describe(format)}};
    if (!distorted_name.empty()) doc.provenance["distorted"] = distorted_name;
    if (runs.size() == 1) {
      doc.provenance["feature"] = runs.front().feature->name;
      doc.provenance["backend"] = a.backend;
      doc.provenance["options"] = option_map(runs.front().options);
    } else {
      doc.provenance["backend"] = a.backend;
      for (const FeatureRun& r : runs)
        doc.provenance["features"].push_back({{"feature", r.feature->name}, {"options", option_map(r.options)}});
    }
  }
  const std::string text = render_vmaf(doc, plan.format, style);
  if (plan.destination == "-") std::cout << text;
  else write_file(plan.destination, text, "the score output");
}

// A score that is not a number (or infinite) is no score: a backend that gave one (an outside
// program's nan, say) ends the run with one line, and nothing is written.
void refuse_non_finite(const ScoreArgs& a, const ScoreTable& table, const std::string& source_name) {
  for (const auto& [metric, column] : table.columns())
    for (std::size_t i = 0; i < column.size(); ++i)
      if (column[i] && !std::isfinite(*column[i]))
        throw InputError(source_name, fmt::format("frame {} {}", table.first_frame() + i, metric), fmt::format("{}", *column[i]),
                         fmt::format("backend {} gave a score that is not a finite number: nothing is written", a.backend));
}

// The document never lands on a file the run reads: checked before any frame is scored against
// what the command line names (the clips, and options that name files, such as a model's path),
// as OutputFile checks it again against every file the run opened.
void refuse_output_onto_named_inputs(const ScoreArgs& a, const std::vector<FeatureRun>& runs, const std::string& output) {
  std::vector<std::string> named = {a.input.path, a.distorted};
  for (const FeatureRun& r : runs)
    for (const auto& [name, value] : r.options)
      if (const OptionSpec* spec = find_option(r.feature->options, name); spec != nullptr && spec->names_file)
        named.push_back(value);
  for (const std::string& input : named) {
    std::error_code ec;
    if (!input.empty() && input != "-" && std::filesystem::is_regular_file(input, ec) &&
        std::filesystem::equivalent(input, output, ec))
      throw UsageError(
          "--output", output,
          fmt::format("-o/--output '{}' is {}, an input of this run: an output is never written over an input", output, input));
  }
}

int run_score(const ScoreArgs& a) {
  std::vector<FeatureRun> runs = plan_feature_runs(a);
  const std::optional<DocumentPlan> plan = plan_document(a, *runs.front().feature);
  const NumberStyle style = parse_number_style(a.precision, "--precision");
  const FrameRange range = a.frames.empty() ? FrameRange{} : parse_frame_range(a.frames);
  if (plan && plan->destination != "-") refuse_output_onto_named_inputs(a, runs, plan->destination);
  Format format{};
  std::string source_name, distorted_name;
  const auto t0 = std::chrono::steady_clock::now();
  score_runs(a, range, runs, format, source_name, distorted_name);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Everything is known before anything is printed: a failure above leaves no partial table.
  std::vector<std::pair<std::string, std::string>> columns;
  const ScoreTable table = merge_runs(a, runs, columns);
  refuse_non_finite(a, table, source_name);
  std::string names;
  for (const FeatureRun& r : runs) names += (names.empty() ? "" : ", ") + std::string(r.feature->name);
  if (plan) {
    write_document(a, *plan, style, runs, table, columns, format, source_name, distorted_name, seconds);
    if (plan->destination == "-") return kExitPass;
  }
  if (a.quiet) return kExitPass;
  fmt::print("# {} ({}), feature {}, backend {}\n", escape_control(source_name), describe(format), names, a.backend);
  std::vector<std::string> keys;
  for (const auto& c : columns) keys.push_back(c.first);
  print_table(table, keys);
  return kExitPass;
}

}  // namespace

void add_score(CLI::App& app, int& rc) {
  auto a = std::make_shared<ScoreArgs>();
  CLI::App* sub = app.add_subcommand("score",
                                     "Score one input (or a pair) with one backend: a per-frame table (decimal and %a), "
                                     "or libvmaf's JSON, XML, CSV or subtitle lines. Takes the vmaf tool's command "
                                     "line: -r REF -d DIST -w W -h H -p 420 -b 10 --feature NAME=opt=val --json -o FILE");
  // vmaf's -h is the height: help is --help alone here.
  sub->set_help_flag("--help", "Print this help message and exit");
  add_input_flags(*sub, a->input);
  sub->add_option("-d,--distorted", a->distorted,
                  "The distorted clip of a pair (INPUT or --reference is its reference): same format and frame count; raw "
                  "with the same geometry flags");
  sub->add_option("--feature", a->features,
                  "Feature, or as vmaf writes it: NAME=opt=val:opt=val; repeatable (default: a pair's VMAF, vmaf_v0.6.1, "
                  "as vmaf computes it; one clip's float_motion)");
  sub->add_option("--backend", a->backend, "Backend (see `twinproof backends`)")->capture_default_str();
  sub->add_option("--option", a->options, "NAME=VALUE, by libvmaf option name or alias (repeatable; one --feature only)");
  sub->add_option("--frames", a->frames, "Frames A:B (inclusive), A: or :B, each scored as the whole clip scores it");
  sub->add_option("--frame_cnt", a->frame_cnt, "vmaf's: the clips end after this many frames (after the skipped ones)");
  sub->add_option("--frame_skip_ref", a->frame_skip_ref, "vmaf's: frames dropped at the start of the reference");
  sub->add_option("--frame_skip_dist", a->frame_skip_dist, "vmaf's: frames dropped at the start of the distorted clip");
  sub->add_option("-o,--output", a->output,
                  "Write libvmaf's document to FILE (- for stdout); format: --xml (default), --json, --csv or --sub");
  sub->add_option("--json", a->json, "JSON: bare, the format of --output (or stdout); with FILE, write it there (- for stdout)")
      ->expected(0, 1);
  sub->add_flag("--xml", a->xml, "XML, libvmaf's shape (to --output, or stdout)");
  sub->add_flag("--csv", a->csv, "CSV, libvmaf's shape (to --output, or stdout)");
  sub->add_flag("--sub", a->sub, "libvmaf's subtitle lines ({i}{i+1}frame: i|key: value|...)");
  sub->add_flag("-q,--quiet", a->quiet, "Print no per-frame table (the document is still written)");
  sub->add_flag("--no_prediction", a->no_prediction, "vmaf's: no model score (the features named by --feature only)");
  sub->add_option("-m,--model", a->models,
                  "vmaf's model: version=NAME (vmaf_v0.6.1, vmaf_v0.6.1neg, vmaf_4k_v0.6.1, vmaf_4k_v0.6.1neg) or path=FILE, "
                  "optionally :disable_clip and :enable_transform; the feature vmaf with that model");
  sub->add_flag("--vmaf-names", a->vmaf_names, "Metric keys as libvmaf names them for these options (integer_motion2_mfw_2)");
  sub->add_option("--precision", a->precision, "Numbers: exact (read back to the same double) or vmaf (libvmaf's %.6f)")
      ->capture_default_str();
  sub->add_option("--device", a->device, "GPU ordinal for GPU backends")->capture_default_str();
  sub->add_option("--threads", a->threads, threads_help)->capture_default_str();
  sub->add_option("--readers", a->readers, readers_help)->capture_default_str();
  sub->add_option("--host-memory", a->host_memory,
                  "Where frames are read: pinned (page-locked memory a device twin uploads from with no staging copy) or "
                  "pageable")
      ->capture_default_str();
  sub->callback([a, sub, &rc] {
    a->json_given = sub->count("--json") > 0;
    rc = run_score(*a);
  });
}

}  // namespace twinproof::cli
