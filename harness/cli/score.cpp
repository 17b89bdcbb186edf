// twinproof score: one input through one backend, a per-frame table or vmaf-shaped JSON.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <optional>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "harness/cli/bench.hpp"
#include "harness/cli/commands.hpp"
#include "harness/paths.hpp"
#include "harness/cli/input.hpp"
#include "harness/compare.hpp"
#include "harness/errors.hpp"
#include "harness/scores.hpp"
#include "harness/vmaf_output.hpp"
#include "extractors/feature.hpp"

namespace twinproof::cli {
namespace {

struct ScoreArgs {
  InputArgs input;
  std::string distorted;  // --distorted FILE: the pair's distorted clip (the input is its reference)
  std::string feature = "float_motion";  // NAME, or as vmaf writes it: NAME=opt=val:opt=val
  std::string backend = "cpu";
  std::vector<std::string> options;
  std::string frames;
  std::string json;    // --json FILE (a file of its own), or bare --json: the format of --output
  std::string output;  // --output/-o FILE
  bool json_given = false, xml = false, csv = false, vmaf_names = false;
  std::string precision = "exact";
  int device = 0;
  unsigned threads = 0;  // CPU backends' threads; 0: every hardware thread
  unsigned readers = 0;  // threads reading ahead; 0: chosen from the hardware
  std::string host_memory = "pinned";  // where frames are read: the backend's page-locked memory, or pageable
};

// "motion=motion_fps_weight=2:debug=true" -> ("motion", {{motion_fps_weight, 2}, {debug, true}}).
std::pair<std::string, OptionList> parse_feature_flag(const std::string& text) {
  const auto eq = text.find('=');
  std::pair<std::string, OptionList> out{text.substr(0, eq), {}};
  if (out.first.empty()) throw UsageError("--feature", text, fmt::format("--feature '{}': no feature name (NAME=opt=val:opt=val)", text));
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
  if (a.json_given + a.xml + a.csv > 1)
    throw UsageError("--json", "", "choose one output format: --json, --xml or --csv");
  const VmafFormat chosen = a.csv ? VmafFormat::csv : a.json_given ? VmafFormat::json : VmafFormat::xml;
  if (!a.json.empty()) {
    if (!a.output.empty())
      throw UsageError("--output", a.output,
                        fmt::format("--json '{}' and --output '{}' both name the output file: give the file once", a.json, a.output));
    return DocumentPlan{a.json, VmafFormat::json};
  }
  if (!a.output.empty()) return DocumentPlan{a.output, chosen};  // vmaf's default format is XML
  if (a.json_given || a.xml || a.csv) return DocumentPlan{"-", chosen};
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

int run_score(const ScoreArgs& a) {
  const auto [feature_name, feature_options] = parse_feature_flag(a.feature);
  const FeatureDescriptor& feature = feature_or_throw(feature_name);
  const Backend& b = backend_or_throw(feature_name, a.backend);
  OptionList options = feature_options;
  for (auto& o : parse_option_flags(a.options)) options.push_back(std::move(o));
  const std::optional<DocumentPlan> plan = plan_document(a, feature);
  const NumberStyle style = parse_number_style(a.precision, "--precision");
  RunOptions run;
  if (!a.frames.empty()) run.range = parse_frame_range(a.frames);
  run.lookahead = feature.lookahead;  // the last frame's motion2 as the whole clip gives it
  run.readers = resolve_readers(a.readers, b, checked_threads(a.threads));
  run.backend_memory = pinned_host_memory(a.host_memory);  // a device twin uploads from the frames as read
  ClipPair clips = open_cli_pair(a.input, a.distorted);
  FrameSource* src = clips.reference.get();
  ExtractorContext ctx;
  ctx.device = a.device;
  ctx.threads = checked_threads(a.threads);
  auto ex = make_extractor(b, ctx);
  ScoreTable table;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    table = clips.distorted ? run_extractor(*ex, *src, *clips.distorted, options, run) : run_extractor(*ex, *src, options, run);
  } catch (const ConfigError& e) {
    throw in_file(src->name(), e);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Everything is known before anything is printed: a failure above leaves no partial table.
  const std::vector<std::string> metrics = ex->metrics();
  if (plan) {
    VmafDocument doc;
    doc.table = &table;
    if (a.vmaf_names) {  // libvmaf's keys, in the order its output lists them
      for (const LibvmafName& n : feature.libvmaf_names)
        if (std::find(metrics.begin(), metrics.end(), n.metric) != metrics.end())
          doc.columns.emplace_back(std::string(n.metric), libvmaf_metric_name(feature, n.metric, options));
    } else {
      for (const std::string& m : metrics) doc.columns.emplace_back(m, m);
    }
    doc.version = "twinproof " TWINPROOF_VERSION;
    doc.fps = seconds > 0 ? table.frames() / seconds : 0;
    doc.width = src->format().width;
    doc.height = src->format().height;
    if (!a.vmaf_names) {  // with libvmaf's names the document is libvmaf's shape and nothing else
      nlohmann::json opts = nlohmann::json::object();
      for (const auto& [k, v] : options) opts[k] = v;
      doc.provenance = {{"input", src->name()}, {"format", describe(src->format())}, {"feature", feature.name},
                        {"backend", a.backend}, {"options", opts}};
    }
    const std::string text = render_vmaf(doc, plan->format, style);
    if (plan->destination == "-") {
      std::cout << text;
      return kExitPass;
    }
    write_file(plan->destination, text, "the score output");
  }
  fmt::print("# {} ({}), feature {}, backend {}\n", src->name(), describe(src->format()), feature.name, a.backend);
  print_table(table, metrics);
  return kExitPass;
}

}  // namespace

void add_score(CLI::App& app, int& rc) {
  auto a = std::make_shared<ScoreArgs>();
  CLI::App* sub = app.add_subcommand("score", "Score one input with one backend: a per-frame table (decimal and %a), "
                                              "or libvmaf's JSON, XML or CSV");
  add_input_flags(*sub, a->input);
  sub->add_option("--distorted", a->distorted,
                  "The distorted clip of a pair (INPUT is its reference): same format and frame count; raw with the same "
                  "geometry flags");
  sub->add_option("--feature", a->feature, "Feature, or as vmaf writes it: NAME=opt=val:opt=val")->capture_default_str();
  sub->add_option("--backend,-b", a->backend, "Backend (see `twinproof backends`)")->capture_default_str();
  sub->add_option("--option", a->options, "NAME=VALUE, by libvmaf option name or alias (repeatable)");
  sub->add_option("--frames", a->frames, "Frames A:B (inclusive), A: or :B");
  sub->add_option("--output,-o", a->output, "Write libvmaf's document to FILE (- for stdout); format: --xml (default), --json or --csv");
  sub->add_option("--json", a->json, "JSON: bare, the format of --output (or stdout); with FILE, write it there (- for stdout)")
      ->expected(0, 1);
  sub->add_flag("--xml", a->xml, "XML, libvmaf's shape (to --output, or stdout)");
  sub->add_flag("--csv", a->csv, "CSV, libvmaf's shape (to --output, or stdout)");
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
