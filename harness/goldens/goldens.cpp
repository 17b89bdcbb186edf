#include "harness/goldens/goldens.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>

#include <fmt/format.h>

#include "extractors/feature.hpp"
#include "harness/support/errors.hpp"
#include "harness/support/faults.hpp"
#include "harness/support/json_file.hpp"
#include "harness/support/paths.hpp"
#include "harness/vectors/vectors.hpp"

namespace twinproof {
namespace fs = std::filesystem;
using nlohmann::json;

std::string_view to_string(GoldenStatus s) {
  switch (s) {
    case GoldenStatus::pass: return "PASS";
    case GoldenStatus::fail: return "FAIL";
    case GoldenStatus::absent: return "ABSENT";
    case GoldenStatus::error: return "ERROR";
  }
  return "?";
}

OptionList options_from_json(const json& j, const std::string& file, const std::string& where) {
  if (!j.is_object()) throw InputError(file, where, json_excerpt(j), "options must be an object of strings");
  OptionList out;
  for (const auto& [k, v] : j.items()) {
    if (!v.is_string()) throw InputError(file, where + "." + k, json_excerpt(v), "option values are strings");
    out.emplace_back(k, v.get<std::string>());
  }
  return out;
}

GoldenFile load_golden_file(const fs::path& path) {
  const std::string file = path.string();
  const json j = read_json_file(path, "the golden file");
  return walking_json_file(file, [&] { return golden_from_json(j, path); });
}

GoldenFile golden_from_json(const json& j, const fs::path& path) {
  const std::string file = path.string();
  if (!j.is_object()) throw InputError(file, "golden", json_excerpt(j), "a golden file is a JSON object");
  GoldenFile g;
  g.file = path;
  g.feature = j.value("feature", "");
  g.vector = j.value("vector", "");
  g.provenance = j.value("provenance", json::object());
  if (g.vector.empty()) throw InputError(file, "vector", "(missing)", "a golden file names its vector");
  const FeatureDescriptor* feature = find_feature(g.feature);
  if (feature == nullptr) throw InputError(file, "feature", g.feature, "no such feature (see `twinproof features`)");
  if (!g.provenance.contains("kind")) throw InputError(file, "provenance.kind", "(missing)", "goldens carry their provenance");
  for (const json& c : j.value("cases", json::array())) {
    GoldenCase gc;
    gc.id = c.value("id", "");
    gc.vector = g.vector;
    gc.option_set = gc.id.substr(gc.id.find('/') + 1);
    gc.options = options_from_json(c.value("options", json::object()), file, gc.id + ".options");
    const auto frames = c.contains("frames") ? json_integer<unsigned>(c["frames"], gc.id + ".frames") : 0u;
    gc.expected.set_frames(0, frames);
    for (const std::string_view metric_name : feature->metrics) {
      const std::string metric(metric_name);
      const json col = c.value(metric, json::array());
      if (col.size() != frames)
        throw InputError(file, gc.id + "." + metric, std::to_string(col.size()), fmt::format("expected {} values", frames));
      std::vector<std::optional<double>> values;
      for (const json& v : col) {
        if (v.is_null()) {
          values.emplace_back();
          continue;
        }
        const auto d = v.is_string() ? parse_double(v.get<std::string>()) : std::nullopt;
        if (!d) throw InputError(file, gc.id + "." + metric, json_excerpt(v), "values are hex float strings or null");
        values.emplace_back(*d);
      }
      if (std::any_of(values.begin(), values.end(), [](const auto& v) { return v.has_value(); }))
        gc.expected.set_column(metric, std::move(values));
    }
    g.cases.push_back(std::move(gc));
  }
  for (const json& e : j.value("errors", json::array())) {
    GoldenRefusal r;
    r.id = e.value("id", "");
    r.vector = g.vector;
    r.options = options_from_json(e.value("options", json::object()), file, r.id + ".options");
    r.refused_by_libvmaf = e.value("refused_by_libvmaf", false);
    g.refusals.push_back(std::move(r));
  }
  return g;
}

std::vector<GoldenFile> load_goldens(const std::string& feature) {
  const fs::path dir = data_root() / "goldens" / feature;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError(dir.string(), "folder", dir.string(), "no goldens for this feature");
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<GoldenFile> out;
  for (const fs::path& f : files) out.push_back(load_golden_file(f));
  return out;
}

namespace {
// A golden's clips (a vector, or a pair "VECTOR~DISTORTION" at the reference vector's own depth
// and chroma) through `ex`.
ScoreTable run_golden_clips(Extractor& ex, const std::string& vector, const VectorSpec& reference, const OptionList& options) {
  ClipPair clips = open_pair(vector, reference.fmt.bitdepth, reference.fmt.chroma);
  return run_extractor(ex, clips, options);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

GoldenResult check_case(const Backend& b, const GoldenCase& c, const ExtractorContext& ctx, const Tolerance& t) {
  GoldenResult r;
  r.id = c.id;
  const auto t0 = std::chrono::steady_clock::now();
  const VectorSpec& v = Manifest::project().reference_of(c.vector);
  if (!clips_present(c.vector)) {
    r.status = GoldenStatus::absent;
    r.detail = fmt::format("{} is not in the cache; run `twinproof vectors fetch {}`", c.vector, c.vector);
    return r;
  }
  try {
    auto ex = make_extractor(b, ctx);
    const ScoreTable got = run_golden_clips(*ex, c.vector, v, c.options);
    r.comparison = compare_tables(c.expected, got, t);
    r.status = r.comparison.pass ? GoldenStatus::pass : GoldenStatus::fail;
    r.detail = fmt::format("{} frames, {}", got.frames(), r.comparison.summary());
  } catch (...) {
    const Fault f = classify_fault(std::current_exception());
    r.status = GoldenStatus::error;
    r.detail = f.kind == FaultKind::refused ? "refused a configuration libvmaf scores: " + f.message : f.text();
  }
  r.seconds = seconds_since(t0);
  return r;
}

GoldenResult check_refusal(const Backend& b, const GoldenRefusal& g, const ExtractorContext& ctx) {
  GoldenResult r;
  r.id = g.id;
  const auto t0 = std::chrono::steady_clock::now();
  const VectorSpec& v = Manifest::project().reference_of(g.vector);
  try {
    // The whole clip, not init alone: a twin may refuse while extracting (samples out of range),
    // and an exec twin's program only runs, and refuses, once it has the frames.
    auto ex = make_extractor(b, ctx);
    if (clips_present(g.vector)) {
      (void)run_golden_clips(*ex, g.vector, v, g.options);  // its init refuses as init alone would
    } else {
      ex->init(v.fmt, g.options);  // most refusals come here, clip or no clip
      r.status = GoldenStatus::absent;
      r.detail = fmt::format("accepted at init; whether it refuses the frames needs {} (`twinproof vectors fetch {}`)", g.vector,
                             g.vector);
      r.seconds = seconds_since(t0);
      return r;
    }
    r.status = GoldenStatus::fail;
    r.detail =
        fmt::format("accepted a configuration that must be refused{}", g.refused_by_libvmaf ? " (libvmaf refuses it)" : "");
  } catch (...) {
    // Only a refusal passes: an unavailable backend or a device fault is an error, never a
    // refusal. A program's failure (an exec twin's) is its refusal here, as in the gate.
    const Fault f = classify_fault(std::current_exception());
    const bool refused = f.kind == FaultKind::refused || f.kind == FaultKind::tool;
    r.status = refused ? GoldenStatus::pass : GoldenStatus::error;
    r.detail = refused ? "refused: " + f.message : f.text();
  }
  r.seconds = seconds_since(t0);
  return r;
}

std::shared_ptr<const GoldenFile> golden_file_of(const Cell& cell) {
  if (cell.golden_file) return cell.golden_file;
  return std::make_shared<const GoldenFile>(load_golden_file(data_root() / "goldens" / cell.feature / (cell.vector + ".json")));
}

}  // namespace twinproof
