// twinproof score: one input through one backend, a per-frame table or vmaf-shaped JSON.
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "harness/cli/commands.hpp"
#include "harness/paths.hpp"
#include "harness/cli/input.hpp"
#include "harness/compare.hpp"
#include "harness/errors.hpp"
#include "harness/scores.hpp"

namespace twinproof::cli {
namespace {

struct ScoreArgs {
  InputArgs input;
  std::string feature = "float_motion";
  std::string backend = "cpu";
  std::vector<std::string> options;
  std::string frames;
  std::string json;
  int device = 0;
};

nlohmann::json to_vmaf_json(const ScoreTable& t, const std::vector<std::string>& metrics, const ScoreArgs& a,
                            const FrameSource& src) {
  using nlohmann::json;
  json frames = json::array();
  for (unsigned i = 0; i < t.frames(); ++i) {
    const unsigned f = t.first_frame() + i;
    json m = json::object();
    for (const std::string& metric : metrics)
      if (auto v = t.get(metric, f)) m[metric] = *v;  // not emitted: absent
    frames.push_back({{"frameNum", f}, {"metrics", m}});
  }
  json pooled = json::object();
  for (const std::string& metric : metrics) {
    double mn = 0, mx = 0, sum = 0, inv = 0;
    unsigned n = 0;
    for (unsigned i = 0; i < t.frames(); ++i)
      if (auto v = t.get(metric, t.first_frame() + i)) {
        mn = n == 0 ? *v : std::min(mn, *v);
        mx = n == 0 ? *v : std::max(mx, *v);
        sum += *v;
        inv += 1.0 / (*v + 1.0);
        ++n;
      }
    if (n > 0) pooled[metric] = {{"min", mn}, {"max", mx}, {"mean", sum / n}, {"harmonic_mean", n / inv - 1.0}};
  }
  json opts = json::object();
  for (const auto& [k, v] : parse_option_flags(a.options)) opts[k] = v;
  return {{"version", "twinproof " TWINPROOF_VERSION},
          {"input", src.name()},
          {"format", describe(src.format())},
          {"feature", a.feature},
          {"backend", a.backend},
          {"options", opts},
          {"frames", frames},
          {"pooled_metrics", pooled}};
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
  const Backend& b = backend_or_throw(a.feature, a.backend);
  const OptionList options = parse_option_flags(a.options);
  RunOptions run;
  if (!a.frames.empty()) run.range = parse_frame_range(a.frames);
  auto src = open_cli_input(a.input);
  ExtractorContext ctx;
  ctx.device = a.device;
  auto ex = make_extractor(b, ctx);
  ScoreTable table;
  try {
    table = run_extractor(*ex, *src, options, run);
  } catch (const ConfigError& e) {
    throw in_file(src->name(), e);
  }
  // Everything is known before anything is printed: a failure above leaves no partial table.
  const std::vector<std::string> metrics = ex->metrics();
  if (!a.json.empty()) {
    const std::string text = to_vmaf_json(table, metrics, a, *src).dump(2) + "\n";
    if (a.json == "-") {
      std::cout << text;
      return kExitPass;
    }
    write_file(a.json, text, "the JSON output");
  }
  fmt::print("# {} ({}), feature {}, backend {}\n", src->name(), describe(src->format()), a.feature, a.backend);
  print_table(table, metrics);
  return kExitPass;
}

}  // namespace

void add_score(CLI::App& app, int& rc) {
  auto a = std::make_shared<ScoreArgs>();
  CLI::App* sub = app.add_subcommand("score", "Score one input with one backend: a per-frame table (decimal and %a)");
  add_input_flags(*sub, a->input);
  sub->add_option("--feature", a->feature, "Feature")->capture_default_str();
  sub->add_option("--backend,-b", a->backend, "Backend (see `twinproof backends`)")->capture_default_str();
  sub->add_option("--option,-o", a->options, "NAME=VALUE, by libvmaf option name or alias (repeatable)");
  sub->add_option("--frames", a->frames, "Frames A:B (inclusive), A: or :B");
  sub->add_option("--json", a->json, "Also write vmaf-shaped JSON to FILE (- for stdout, instead of the table)");
  sub->add_option("--device", a->device, "GPU ordinal for GPU backends")->capture_default_str();
  sub->callback([a, &rc] { rc = run_score(*a); });
}

}  // namespace twinproof::cli
