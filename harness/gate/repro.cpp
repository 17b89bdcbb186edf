#include "harness/gate/repro.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <fstream>
#include <map>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "extractors/feature.hpp"
#include "extractors/registry.hpp"
#include "harness/calibration/table.hpp"
#include "harness/exec/twins_file.hpp"
#include "harness/goldens/goldens.hpp"
#include "harness/scoring/twin_check.hpp"
#include "harness/support/environment.hpp"
#include "harness/support/errors.hpp"
#include "harness/support/faults.hpp"
#include "harness/support/json_file.hpp"
#include "harness/support/paths.hpp"
#include "harness/support/sha256.hpp"
#include "harness/vectors/vectors.hpp"

namespace twinproof {
namespace fs = std::filesystem;
using nlohmann::json;

Cell find_cell(const std::string& id, const fs::path& matrix) {
  std::vector<fs::path> files;
  if (!matrix.empty()) {
    files.push_back(matrix);
  } else {
    for (const auto& e : fs::directory_iterator(data_root() / "ci" / "matrices"))
      if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
  }
  for (const fs::path& f : files)
    for (const Cell& c : load_matrix(f).cells)
      if (c.id == id) return c;
  throw UsageError("cell", id,
                   fmt::format("cell '{}' is in no matrix ({}); ids are feature/twin/vector/NNb/CCC/option_set, "
                               "see `twinproof gate --list`",
                               id, matrix.empty() ? (data_root() / "ci" / "matrices").string() : matrix.string()));
}

namespace {

std::string value_text(double v, bool fp32) {
  return fp32 ? fmt::format("{} ({})", static_cast<float>(v), hex(v)) : fmt::format("{:.17g} ({})", v, hex(v));
}

// Runs one backend over the target's frames (a sub-clip ending at B is scored up to B + the
// feature's look-ahead, so that B's metrics have the values the whole clip gives them).
// `judged`, when given, receives the metrics the backend says it is judged on (a twin that
// reports fewer than the reference), as the gate judges it.
// `outside`, when given, receives what an outside twin says it ran (its command line, and its work
// folder, kept for the user), whether the run scored or failed.
ScoreTable run(const Backend& b, const ReproTarget& t, const ReproOptions& o,
               std::optional<std::vector<std::string>>* judged = nullptr, std::string* outside = nullptr) {
  ExtractorContext ctx;
  ctx.device = o.device;
  auto ex = make_extractor(b, ctx);
  ClipPair clips = t.open();
  RunOptions run;
  if (o.frames) run.range = *o.frames;
  run.first_label = t.first_label;
  run.lookahead = feature_or_throw(t.cell.feature, "feature").lookahead;
  const auto describe_outside = [&] {
    if (outside == nullptr) return;
    std::string command, folder;
    for (const auto& [key, value] : ex->provenance()) {
      if (key == "command") command = value;
      if (key == "work_folder") folder = value;
    }
    if (!command.empty())
      *outside = fmt::format("{} ran as:\n  {}\n{}", b.name, command,
                             folder.empty()
                                 ? std::string()
                                 : fmt::format("its input, output and messages are kept in {} (remove it when done)\n", folder));
  };
  try {
    ScoreTable table = run_extractor(*ex, clips, t.cell.options, run);
    describe_outside();
    if (judged != nullptr) *judged = ex->judged_metrics();
    return table;
  } catch (...) {
    describe_outside();  // a program that failed is what the user wants to run again by hand
    throw;
  }
}

// The parts of a backend built from other features' backends, under the target's format and
// options; empty for any other backend.
std::vector<ExtractorPart> parts_of(const Backend& b, const ReproTarget& t, const ReproOptions& o) {
  auto ex = make_extractor(b, ExtractorContext{.device = o.device});
  ex->init(t.open().reference->format(), t.cell.options);
  return ex->parts();
}

// A score built from other features departs where one of them does: the part whose metrics
// differ first (earliest frame), replayed as a cell of its own feature with the two backends'
// parts, so that the verdict goes on into that feature's stages.
std::optional<std::string> descend_into_part(const ReproResult& res, const Backend& reference, const Backend& twin,
                                             const ReproTarget& t, const ReproOptions& o) {
  const std::vector<ExtractorPart> ref_parts = parts_of(reference, t, o);
  const std::vector<ExtractorPart> twin_parts = parts_of(twin, t, o);
  const ExtractorPart* first = nullptr;
  const ExtractorPart* first_ref = nullptr;
  std::optional<Mismatch> earliest;
  for (const ExtractorPart& p : twin_parts) {
    const auto r =
        std::find_if(ref_parts.begin(), ref_parts.end(), [&](const ExtractorPart& x) { return x.feature == p.feature; });
    if (r == ref_parts.end()) continue;
    const TableComparison cmp = compare_tables(res.reference.only(p.metrics), res.twin.only(p.metrics), Tolerance::exact());
    if (!cmp.pass && cmp.first && (!earliest || cmp.first->frame < earliest->frame)) {
      earliest = cmp.first;
      first = &p;
      first_ref = &*r;
    }
  }
  if (first == nullptr) return std::nullopt;
  ReproTarget sub = t;
  sub.cell.feature = first->feature;
  sub.cell.reference = first_ref->backend;
  sub.cell.twin = first->backend;
  sub.cell.options = first->options;
  sub.cell.option_set = t.cell.option_set + " (the model's options for " + first->feature + ")";
  sub.cell.id = cell_id(first->feature, first->backend, t.cell.vector, t.cell.bitdepth, t.cell.chroma, sub.cell.option_set);
  ReproOptions inner = o;
  inner.repeat = 0;
  inner.bundle.clear();
  inner.with_mutants = true;  // the part a mutant is built from is one
  const ReproResult r = compute_repro(sub, inner);
  return fmt::format("{} departs first ({}, frame {}): in {}, {} against {}: {}", first->feature, earliest->metric,
                     earliest->frame, first->feature, first->backend, first_ref->backend, r.verdict);
}

// Streams the target's frames first .. limit through both backends with stage capture (the
// twin check the tests run): the first frame where an exposed stage differs, and its stages.
struct Bisection {
  std::optional<unsigned> frame;
  std::vector<StageDiff> stages;
  bool stages_compared = false;  // some stage was exposed by both
};
Bisection bisect_stages(const FeatureDescriptor& feature, const Backend& reference, const Backend& twin, const ReproTarget& t,
                        const ReproOptions& o, unsigned first, unsigned limit) {
  ClipPair clips = t.open();
  unsigned label = t.first_label;
  Frame f, g;
  const auto next = [&]() -> FramePair {
    while (clips.reference->next(f)) {
      if (clips.distorted && !clips.distorted->next(g))
        throw InputError(clips.distorted->name(), "frames", std::to_string(label - t.first_label),
                         "the distorted clip ends before its reference");
      const unsigned l = label++;
      if (l > limit) return {};
      if (l >= first) return {&f, clips.distorted ? &g : &f};
    }
    return {};
  };
  const TwinCheckReport r =
      check_twin(feature, reference, twin, clips.reference->format(), next, t.cell.options, o.device, first);
  if (r.stages.empty()) return {std::nullopt, {}, r.stages_compared};  // no exposed stage differs (or both refused)
  return {r.frame, r.stages, true};
}

// The verdict of a bisection: the first stage that differs, and what was equal before it. A sum
// that departs while the twin hides its partial sums is the twin's own reduction.
std::string bisection_verdict(const FeatureDescriptor& feature, const Cell& c, const Bisection& b) {
  // Nothing to bisect when the two expose no stage in common (an exec twin exposes none).
  if (!b.stages_compared)
    return fmt::format("{} exposes no stage the reference does: the difference is in the outputs (see the first mismatch above)",
                       c.twin);
  if (!b.frame) return "every exposed stage is equal; the difference is in the outputs only";
  std::string last_equal;
  for (const StageDiff& d : b.stages) {
    if (!d.ref_has || !d.twin_has) continue;
    if (d.equal) {
      last_equal = d.label;
      continue;
    }
    const auto role = [&](const StageDiff& x) { return feature.stage(x.stage)->role; };
    if (role(d) == StageRole::sums && std::none_of(b.stages.begin(), b.stages.end(), [&](const StageDiff& x) {
          return role(x) == StageRole::partial_sums && x.twin_has;
        }))
      return fmt::format("{} equal; {} differ ({} reduction): {}", last_equal.empty() ? "stages" : last_equal, d.label, c.twin,
                         d.where);
    std::string verdict = fmt::format("first divergence: {}, {}{}", d.label, d.where, std::isnan(d.twin_value) ? " (NaN)" : "");
    if (!last_equal.empty()) verdict += fmt::format(" ({} equal before it)", last_equal);
    // Equal data into a sum that differs: the order of the additions (the reduction) departs.
    const StageDiff* data_before = nullptr;
    for (const StageDiff& x : b.stages) {
      if (&x == &d) break;
      if (x.ref_has && x.twin_has && role(x) == StageRole::data) data_before = &x;
    }
    if ((role(d) == StageRole::partial_sums || role(d) == StageRole::sums) && data_before != nullptr && data_before->equal)
      verdict += fmt::format(": the reduction departs, its inputs ({}) are equal", data_before->label);
    return verdict;
  }
  return "every exposed stage is equal; the difference is in the outputs only";
}

// The files of a bundle that a replay reads, each pinned in SHA256SUMS (sha256sum's format), so
// that an edit to any byte of them (the Y4M header included) is found before anything runs.
constexpr const char* kBundleSums = "SHA256SUMS";
// The files a replay reads: a pair's bundle holds its distorted clip too.
std::vector<const char*> bundle_files(const Cell& c) {
  if (split_pair_name(c.vector).distortion.empty()) return {"cell.json", "frames.y4m"};
  return {"cell.json", "frames.y4m", "distorted.y4m"};
}

// Writes frames from .. to of `src` (whose first frame is labelled `first_label`) as a .y4m;
// returns the SHA-256 of their raw stream and how many were written.
std::pair<std::string, unsigned> write_frames(FrameSource& src, const fs::path& file, unsigned first_label, unsigned from,
                                              unsigned to) {
  Sha256 hash;
  unsigned written = 0;
  OutputFile out(file, "--bundle", "the bundle's frames", OutputOwner::twinproof);
  auto writer = create_y4m_writer(out.path().string(), src.format());
  Frame f;
  unsigned index = 0;
  while (src.next(f)) {
    const unsigned label = first_label + index++;
    if (label < from || label > to) continue;
    writer->write(f);
    hash.update(f.bytes(), f.size());
    ++written;
  }
  writer->close();
  out.commit();
  return {hash.hex_digest(), written};
}

// Writes the bundle; returns the line that says what it holds.
std::string write_bundle(const ReproTarget& t, const ReproOptions& o, unsigned from, unsigned to) {
  ensure_directory(o.bundle, "--bundle");
  ClipPair clips = t.open();
  const Format frames_format = clips.reference->format();
  const auto [frames_sha, written] = write_frames(*clips.reference, o.bundle / "frames.y4m", t.first_label, from, to);
  const Cell& c = t.cell;
  // The cell's own record, as results.jsonl holds it, and what the frames are.
  json cell = to_json(c);
  cell.update({{"width", frames_format.width},
               {"height", frames_format.height},
               {"first_label", from},
               {"frames", written},
               {"frames_sha256", frames_sha},
               {"with_mutants", o.with_mutants}});
  if (clips.distorted)
    cell["distorted_sha256"] = write_frames(*clips.distorted, o.bundle / "distorted.y4m", t.first_label, from, to).first;
  write_file(o.bundle / "cell.json", json_text(cell, 2) + "\n", "the bundle's cell.json", OutputOwner::twinproof);
  write_file(o.bundle / "environment.json", json_text(environment_fingerprint(), 2) + "\n", "the bundle's environment.json",
             OutputOwner::twinproof);
  write_file(o.bundle / "commands.txt",
             fmt::format("# Replays this repro (frames {} to {} of {}) on any machine with twinproof:\n"
                         "twinproof repro --bundle {}{}\n# The original run:\n{}\n",
                         from, to, c.vector, o.bundle.filename().string(), o.with_mutants ? " --with-mutants" : "", o.rerun),
             "the bundle's commands.txt", OutputOwner::twinproof);
  std::string sums;
  for (const char* name : bundle_files(c)) sums += fmt::format("{}  {}\n", sha256_file((o.bundle / name).string()), name);
  write_file(o.bundle / kBundleSums, sums, "the bundle's SHA256SUMS", OutputOwner::twinproof);
  return fmt::format("bundle: {} ({} frames as .y4m{}, cell.json, commands.txt, environment.json, SHA256SUMS)", o.bundle.string(),
                     written, clips.distorted ? ", reference and distorted" : "");
}

// A bundle file: a regular file directly in the bundle folder (not a link out of it, not a FIFO
// that would block the replay, not a device).
fs::path bundle_file(const fs::path& dir, const char* name) {
  const fs::path p = dir / name;
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(p, ec);
  if (ec || !fs::exists(st)) throw InputError(p.string(), "file", name, "the bundle has no such file");
  if (!fs::is_regular_file(st)) throw InputError(p.string(), "file", name, "not a regular file: a bundle holds plain files only");
  return p;
}

// Checks every file a replay reads against SHA256SUMS: those of a single clip, or of a pair when
// `pair` (cell.json, read after this check, must then name a pair).
void verify_bundle_sums(const fs::path& dir, bool& pair) {
  const fs::path sums_file = bundle_file(dir, kBundleSums);
  std::ifstream in(sums_file);
  std::map<std::string, std::string> listed;
  std::string line;
  unsigned n = 0;
  while (std::getline(in, line) && ++n <= 16) {
    const auto sep = line.find("  ");
    if (sep != 64 || line.find_first_not_of("0123456789abcdef") < 64)
      throw InputError(sums_file.string(), fmt::format("line {}", n), line.substr(0, 80), "expected '<64 hex digits>  <file>'");
    listed[line.substr(sep + 2)] = line.substr(0, 64);
  }
  pair = listed.count("distorted.y4m") != 0;
  Cell shape;
  if (pair) shape.vector = "a~b";
  const std::vector<const char*> files = bundle_files(shape);
  for (const char* name : files) {
    const auto it = listed.find(name);
    if (it == listed.end()) throw InputError(sums_file.string(), name, "(missing)", "every file a replay reads is listed");
    const std::string got = sha256_file(bundle_file(dir, name).string());
    if (got != it->second)
      throw InputError((dir / name).string(), "sha256", got,
                       fmt::format("the bundle was modified after it was written (SHA256SUMS says {})", it->second));
  }
  if (listed.size() != files.size())
    throw InputError(sums_file.string(), "files", std::to_string(listed.size()), "lists files a bundle does not have");
}

// cell.json's fields, each refused by name when it is missing or not what it must be.
struct BundleFields {
  const json& j;
  const std::string& file;
  const json& field(const char* key) const {
    const auto it = j.find(key);
    if (it == j.end()) throw InputError(file, key, "(missing)", "a bundle's cell.json has every field");
    return *it;
  }
  std::string text(const char* key) const {
    const json& v = field(key);
    if (!v.is_string()) throw InputError(file, key, json_excerpt(v), "must be a string");
    return v.get<std::string>();
  }
  std::uint64_t whole(const char* key, std::uint64_t lo, std::uint64_t hi) const {
    const json& v = field(key);
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() < lo || v.get<std::uint64_t>() > hi)
      throw InputError(file, key, json_excerpt(v), fmt::format("must be a whole number in [{}, {}]", lo, hi));
    return v.get<std::uint64_t>();
  }
};

// The cell a bundle replays: its names checked against the registry (those that become paths
// are single plain components), its format and options.
void read_bundle_cell(const BundleFields& f, Cell& c) {
  const std::string& file = f.file;
  const std::string kind = f.text("kind");
  if (kind != "parity" && kind != "regression") throw InputError(file, "kind", kind, "kind is parity or regression");
  c.kind = kind == "regression" ? CellKind::regression : CellKind::parity;
  c.feature = f.text("feature");
  const FeatureDescriptor* feature = find_feature(c.feature);
  if (feature == nullptr) throw InputError(file, "feature", c.feature, "no such feature (see `twinproof features`)");
  c.reference = f.text("reference");
  if (find_backend(c.feature, c.reference) == nullptr)
    throw InputError(file, "reference", c.reference, "no such backend of the feature");
  c.twin = f.text("twin");
  if (find_backend(c.feature, c.twin, true) == nullptr) throw InputError(file, "twin", c.twin, "no such backend of the feature");
  // Names that become paths (goldens/FEATURE/VECTOR.json) are single plain components.
  c.vector = f.text("vector");
  if (!is_plain_name(c.vector))
    throw InputError(file, "vector", c.vector, "a vector id is a plain name (no '/', no leading '.')");
  c.option_set = f.text("option_set");
  if (!is_plain_name(c.option_set)) throw InputError(file, "option_set", c.option_set, "an option set is a plain name");
  c.golden = f.text("golden");
  if (c.kind == CellKind::regression && c.golden.rfind(c.vector + "/", 0) != 0)
    throw InputError(file, "golden", c.golden, "a regression cell names a golden case of its vector (VECTOR/SET)");
  c.bitdepth = static_cast<int>(f.whole("bitdepth", 8, 16));
  if (c.bitdepth != 8 && c.bitdepth != 10 && c.bitdepth != 12 && c.bitdepth != 16)
    throw InputError(file, "bitdepth", std::to_string(c.bitdepth), "bit depths are 8, 10, 12, 16");
  const std::string chroma = f.text("chroma");
  const auto pc = parse_chroma(chroma);
  if (!pc) throw InputError(file, "chroma", chroma, "chroma is 400, 420, 422 or 444");
  c.chroma = *pc;
  c.options = options_from_json(f.field("options"), file, "options");
}

}  // namespace

ReproTarget load_bundle(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError(dir.string(), "--bundle", dir.string(), "not a folder holding a repro bundle");
  bool pair = false;
  verify_bundle_sums(dir, pair);
  const fs::path cell_file = dir / "cell.json";
  const std::string file = cell_file.string();
  const json j = read_json_file(cell_file, "the repro bundle's cell.json");
  if (!j.is_object()) throw InputError(file, "cell", json_excerpt(j), "cell.json is a JSON object");
  reject_unknown_keys(
      j,
      {"id", "kind", "feature", "reference", "twin", "vector", "bitdepth", "chroma", "width", "height", "option_set", "options",
       "golden", "first_label", "frames", "frames_sha256", "distorted_sha256", "with_mutants"},
      file, "");
  const BundleFields f{j, file};
  ReproTarget t;
  Cell& c = t.cell;
  read_bundle_cell(f, c);
  t.first_label = static_cast<unsigned>(f.whole("first_label", 0, 1u << 30));
  t.from_bundle = true;
  const unsigned count = static_cast<unsigned>(f.whole("frames", 1, 1u << 30));
  const std::string sha = f.text("frames_sha256");
  if (sha.size() != 64 || sha.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw InputError(file, "frames_sha256", sha, "a SHA-256 is 64 lowercase hex digits");
  if (!f.field("with_mutants").is_boolean())
    throw InputError(file, "with_mutants", json_excerpt(f.field("with_mutants")), "true or false");
  c.id = f.text("id");
  const std::string expected_id = cell_id(c.feature, c.twin, c.vector, c.bitdepth, c.chroma, c.option_set);
  if (c.id != expected_id) throw InputError(file, "id", c.id, fmt::format("does not match the cell's fields ({})", expected_id));
  // The frames must be what the cell says: geometry, bit depth and chroma (the sample hash alone
  // cannot tell 64x36 from 36x64).
  const Format want{static_cast<int>(f.whole("width", 1, kMaxDimension)), static_cast<int>(f.whole("height", 1, kMaxDimension)),
                    c.bitdepth, c.chroma};
  const std::string frames = (dir / "frames.y4m").string();
  const Format got = open_y4m(frames)->format();
  if (!(got == want)) throw InputError(frames, "header", describe(got), "cell.json says " + describe(want));
  if (pair != !split_pair_name(c.vector).distortion.empty())
    throw InputError(file, "vector", c.vector,
                     pair ? "the bundle holds distorted.y4m, but its cell is no pair (VECTOR~DISTORTION)"
                          : "a pair's bundle holds distorted.y4m, and this one does not");
  std::string distorted_sha;
  const std::string distorted = (dir / "distorted.y4m").string();
  if (pair) {
    distorted_sha = f.text("distorted_sha256");
    if (distorted_sha.size() != 64 || distorted_sha.find_first_not_of("0123456789abcdef") != std::string::npos)
      throw InputError(file, "distorted_sha256", distorted_sha, "a SHA-256 is 64 lowercase hex digits");
    const Format d = open_y4m(distorted)->format();
    if (!(d == want)) throw InputError(distorted, "header", describe(d), "cell.json says " + describe(want));
  }
  t.open = [frames, sha, count, id = c.id, pair, distorted, distorted_sha] {
    ClipPair clips;
    clips.reference = verify_stream(open_y4m(frames), "bundle " + id, sha, count);
    if (pair) clips.distorted = verify_stream(open_y4m(distorted), "bundle " + id + " (distorted)", distorted_sha, count);
    return clips;
  };
  return t;
}

ReproTarget cell_target(const Cell& cell) {
  ReproTarget t;
  t.cell = cell;
  t.open = [cell] { return open_pair(cell.vector, cell.bitdepth, cell.chroma); };
  return t;
}

namespace {

// A regression cell: the reference against its golden, outputs only (a golden holds no stages).
ReproResult repro_regression(const ReproTarget& t, const ReproOptions& o, const Backend& ref_backend, ReproResult res) {
  const Cell& c = t.cell;
  res.regression = true;
  const std::shared_ptr<const GoldenFile> file = golden_file_of(c);
  const GoldenFile& g = *file;
  const auto gc = std::find_if(g.cases.begin(), g.cases.end(), [&](const GoldenCase& x) { return x.id == c.golden; });
  if (gc == g.cases.end())
    throw UsageError("cell", c.id, "regression cell without a scored golden (refusals have nothing to bisect)");
  res.reference = run(ref_backend, t, o);
  const TableComparison cmp = compare_tables(gc->expected, res.reference, Tolerance::exact());
  res.mismatch = !cmp.pass;
  res.first = cmp.first;
  res.verdict = cmp.pass ? "reference equals its golden bit for bit" : "reference departs from its golden: " + cmp.summary();
  res.exit_code = cmp.pass ? 0 : 1;
  if (!o.bundle.empty())
    res.bundle_note = write_bundle(t, o, res.reference.first_frame(), res.reference.first_frame() + res.reference.frames() - 1);
  return res;
}

// 0. A refusal on either side is the cell's verdict, as the gate judges it: both refusing
// passes; one refusing while the other scores is the mismatch (there is nothing to bisect). Runs
// both sides into res.reference and res.twin; true when a refusal or an outside program's fault
// settles the result.
bool run_both_sides(const ReproTarget& t, const ReproOptions& o, const Backend& ref_backend, const Backend& twin_backend,
                    std::optional<std::vector<std::string>>& judged_metrics, ReproResult& res) {
  const Cell& c = t.cell;
  const Backend* twin = &twin_backend;
  const auto refusal = [&](const Backend& b, ScoreTable& into) -> std::optional<std::string> {
    try {
      into = run(b, t, o, &b == twin ? &judged_metrics : nullptr, &b == twin ? &res.outside_run : nullptr);
      return std::nullopt;
    } catch (...) {
      const Fault f = classify_fault(std::current_exception());
      if (!t.from_bundle && (f.kind == FaultKind::refused || (f.kind == FaultKind::tool && &b == twin))) return f.message;
      throw;
    }
  };
  const std::optional<std::string> ref_refuses = refusal(ref_backend, res.reference);
  // The twin's first run keeps an outside program's work folder: its command can be pasted.
  keep_exec_work_folders(true);
  std::optional<std::string> twin_refuses;
  try {
    twin_refuses = refusal(*twin, res.twin);
  } catch (...) {
    keep_exec_work_folders(false);
    // An outside program that failed (a crash, a timeout, output it could not be judged on) is
    // the cell's error, as in the gate; the command it ran is shown so that it can be run again.
    const Fault f = classify_fault(std::current_exception());
    if (res.outside_run.empty() || f.kind == FaultKind::usage || f.kind == FaultKind::internal) throw;
    res.outside_fault = true;
    res.exit_code = kExitError;
    res.verdict = "error: " + f.text();
    return true;
  }
  keep_exec_work_folders(false);
  if (ref_refuses || twin_refuses) {
    res.refusal = true;
    res.mismatch = !(ref_refuses && twin_refuses);
    res.exit_code = res.mismatch ? 1 : 0;
    res.judged_by = "judged by refusal: a configuration the reference refuses must be refused by the twin, and only that one";
    res.verdict = !res.mismatch ? fmt::format("both refuse: reference: {}; {}: {}", *ref_refuses, c.twin, *twin_refuses)
                  : ref_refuses ? fmt::format("refusal mismatch: the reference refuses ({}) but {} scores {} frame(s)",
                                              *ref_refuses, c.twin, res.twin.frames())
                                : fmt::format("refusal mismatch: {} refuses ({}) but the reference scores {} frame(s)", c.twin,
                                              *twin_refuses, res.reference.frames());
    return true;
  }
  return false;
}

// 1. The calibration row (the gate's own per-metric, per-device rows) decides the exit code; the
// exact comparison finds the first differing bit. A twin that reports only some metrics is
// judged on those, as in the gate.
void judge_by_row(const ReproTarget& t, const ReproOptions& o, const Backend& twin,
                  const std::optional<std::vector<std::string>>& judged_metrics, ReproResult& res) {
  const Cell& c = t.cell;
  if (judged_metrics) res.reference = res.reference.only(*judged_metrics);
  const TableComparison exact = compare_tables(res.reference, res.twin, Tolerance::exact());
  res.mismatch = !exact.pass;
  res.first = exact.first;
  const Calibration table = Calibration::load(data_root() / "ci" / "calibration.json");
  const CellTolerance tol(table, c.feature, c.reference, c.twin, compute_capability_of(twin.gpu(), o.device));
  const TableComparison judged = compare_tables(res.reference, res.twin, tol);
  const CalibrationRow* row = tol.row("");
  res.judged_by =
      fmt::format("judged by {} ({}){}: {}", row ? row->describe() : "no calibration row", tol.describe(res.reference.metrics()),
                  judged_metrics ? fmt::format(" on {} only (what the twin reports)", fmt::join(*judged_metrics, ", ")) : "",
                  judged.summary());
  res.exit_code = judged.pass ? 0 : 1;
}

// 3. Repeat: the twin must return identical bits every time (races, atomics, order).
void repeat_twin(const ReproTarget& t, const ReproOptions& o, const Backend& twin, ReproResult& res) {
  for (unsigned k = 1; k <= o.repeat && res.repeat_identical; ++k) {
    const TableComparison same = compare_tables(res.twin, run(twin, t, o), Tolerance::exact());
    res.repeats_run = k;
    if (!same.pass) {
      res.repeat_identical = false;
      res.repeat_difference = fmt::format("run {} differs from run 0: {}", k, same.summary());
      res.exit_code = 1;
    }
  }
}

}  // namespace

ReproResult compute_repro(const ReproTarget& t, const ReproOptions& o) {
  ReproResult res;
  const Cell& c = t.cell;
  const FeatureDescriptor& feature = feature_or_throw(c.feature, "feature");
  const Backend* ref_backend = find_backend(c.feature, c.reference);
  if (ref_backend == nullptr) throw UsageError("reference", c.reference, "no such reference backend");
  res.rerun = o.rerun;
  if (c.kind == CellKind::regression) {
    return repro_regression(t, o, *ref_backend, std::move(res));
  }
  const Backend* twin = find_backend(c.feature, c.twin, o.with_mutants);
  if (twin == nullptr) throw UsageError("twin", c.twin, fmt::format("no backend '{}' (mutants need --with-mutants)", c.twin));
  const Availability av = twin->availability();
  if (!av.available)
    throw BackendUnavailable("twin", c.twin, fmt::format("backend '{}' is unavailable here: {}", c.twin, av.reason));
  std::optional<std::vector<std::string>> judged_metrics;
  if (run_both_sides(t, o, *ref_backend, *twin, judged_metrics, res)) return res;
  judge_by_row(t, o, *twin, judged_metrics, res);

  // 2. Bisect a mismatch to its stage.
  unsigned last_frame = res.reference.first_frame() + res.reference.frames() - 1;
  if (res.mismatch) {
    const unsigned limit = std::min(last_frame, res.first->frame + 1);
    const Bisection b = bisect_stages(feature, *ref_backend, *twin, t, o, res.reference.first_frame(), limit);
    res.divergence_frame = b.frame;
    res.stages = b.stages;
    res.verdict = bisection_verdict(feature, c, b);
    if (const auto part = descend_into_part(res, *ref_backend, *twin, t, o)) res.verdict += "; " + *part;
    last_frame = limit;
  } else {
    res.verdict = "reference and twin are equal bit for bit on every frame and metric";
  }

  repeat_twin(t, o, *twin, res);

  // 4. The bundle: from the frame before the first mismatch to the divergence.
  if (!o.bundle.empty()) {
    const unsigned first = res.reference.first_frame();
    const unsigned from = res.first ? std::max(first, res.first->frame > 0 ? res.first->frame - 1 : 0) : first;
    res.bundle_note = write_bundle(t, o, from, last_frame);
  }
  return res;
}

void print_repro(const ReproResult& r, const ReproTarget& t, std::ostream& out) {
  const Cell& c = t.cell;
  fmt::print(out, "cell {}\n", c.id);
  if (r.refusal || r.outside_fault) {
    if (!r.judged_by.empty()) fmt::print(out, "{}\n", r.judged_by);
    fmt::print(out, "{}\n{}rerun: {}\n", r.verdict, r.outside_run, r.rerun);
    return;
  }
  if (r.regression) {
    fmt::print(out, "{}\n", r.verdict);
    if (!r.bundle_note.empty()) fmt::print(out, "{}\n", r.bundle_note);
    return;
  }
  // Per frame and metric, both values and their distance; the first mismatch marked.
  fmt::print(out, "{:>6}  {:<8} {:<44} {:<44} {:>10} {:>6}\n", "frame", "metric", "reference (decimal, %a)",
             std::string(c.twin) + " (decimal, %a)", "|diff|", "ULP");
  const auto show = [](const std::optional<double>& v) { return v ? fmt::format("{:.12f} {}", *v, hex(*v)) : std::string("-"); };
  for (unsigned i = 0; i < r.reference.frames(); ++i) {
    const unsigned f = r.reference.first_frame() + i;
    for (const std::string& m : r.reference.metrics()) {
      const auto a = r.reference.get(m, f), b = r.twin.get(m, f);
      std::string diff = "-", ulp = "-";
      if (a && b) {
        const ValueComparison vc = compare_values(*a, *b, Tolerance::exact());
        diff = fmt::format("{:.3g}", vc.abs_diff);
        ulp = vc.ulp == std::numeric_limits<std::uint64_t>::max() ? "n/a" : std::to_string(vc.ulp);
      }
      const bool first = r.first && r.first->frame == f && r.first->metric == m;
      fmt::print(out, "{:>6}  {:<8} {:<44} {:<44} {:>10} {:>6}{}\n", f, m, show(a), show(b), diff, ulp,
                 first ? "  <- first mismatch" : "");
    }
  }
  fmt::print(out, "{}\n", r.judged_by);
  if (r.divergence_frame) {
    fmt::print(out, "\nstages of frame {} (after extracting it; pairs end at this frame), pipeline order:\n",
               *r.divergence_frame);
    for (const StageDiff& d : r.stages) {
      if (!d.ref_has && !d.twin_has) continue;
      const std::string line =
          !d.twin_has  ? fmt::format("not exposed by {}", c.twin)
          : !d.ref_has ? fmt::format("not exposed by {}", c.reference)
          : d.equal    ? std::string("equal bit for bit")
                       : fmt::format("DIFFER: {} element(s); first at {}: {} {} vs {} {}", d.differing, d.where, c.reference,
                                     value_text(d.ref_value, d.fp32), c.twin, value_text(d.twin_value, d.fp32));
      fmt::print(out, "  {:<16} {}\n", d.label, line);
    }
  }
  fmt::print(out, "{}{}\n", r.mismatch ? "\n" : "", r.verdict);
  if (r.repeats_run > 0) {
    if (r.repeat_identical) fmt::print(out, "--repeat {}: identical bits in all {} runs\n", r.repeats_run, r.repeats_run + 1);
    else fmt::print(out, "--repeat: {}\n", r.repeat_difference);
  }
  if (!r.bundle_note.empty()) fmt::print(out, "{}\n", r.bundle_note);
  fmt::print(out, "{}rerun: {}\n", r.outside_run, r.rerun);
}

ReproResult run_repro(const ReproTarget& t, const ReproOptions& o, std::ostream& out) {
  const ReproResult r = compute_repro(t, o);
  print_repro(r, t, out);
  return r;
}

}  // namespace twinproof
