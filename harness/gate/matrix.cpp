#include "harness/gate/matrix.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <fstream>

#include <fmt/format.h>
#include <fnmatch.h>
#include <nlohmann/json.hpp>

#include "extractors/feature.hpp"
#include "extractors/registry.hpp"
#include "harness/goldens/goldens.hpp"
#include "harness/support/errors.hpp"
#include "harness/support/json_file.hpp"
#include "harness/vectors/vectors.hpp"

namespace twinproof {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

bool glob(const std::string& pattern, const std::string& text) { return ::fnmatch(pattern.c_str(), text.c_str(), 0) == 0; }

// The axis values of a candidate cell, as rules see them.
using Coordinates = std::map<std::string, std::string>;

// The axes a cell has, which rules may name.
constexpr std::array<std::string_view, 7> kRuleAxes = {"twin", "vector", "distortion", "bitdepth", "chroma", "options", "native"};

// A rule: axis -> glob or list of globs; matches when every axis it names matches. Rules are
// checked by check_rules first (objects over known axes, string globs).
bool rule_matches(const json& rule, const Coordinates& c) {
  for (const auto& [axis, want] : rule.items()) {
    const auto it = c.find(axis);
    if (it == c.end()) return false;
    bool any = false;
    if (want.is_array()) {
      for (const json& g : want) any = any || glob(g.get<std::string>(), it->second);
    } else {
      any = glob(want.get<std::string>(), it->second);
    }
    if (!any) return false;
  }
  return true;
}

// A misspelt axis ("twn") would make a rule match nothing, silently: refused.
void check_rules(const json& rules, const std::string& file, const std::string& where) {
  if (!rules.is_array()) throw InputError(file, where, json_excerpt(rules), "rules are an array of objects");
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const std::string at = fmt::format("{}[{}]", where, i);
    if (!rules[i].is_object() || rules[i].empty())
      throw InputError(file, at, json_excerpt(rules[i]), "a rule is a non-empty object");
    reject_unknown_keys(rules[i], kRuleAxes, file, at);
    for (const auto& [axis, want] : rules[i].items()) {
      const bool strings =
          want.is_string() || (want.is_array() && !want.empty() &&
                               std::all_of(want.begin(), want.end(), [](const json& g) { return g.is_string(); }));
      if (!strings)
        throw InputError(file, at + "." + axis, json_excerpt(want), "a rule's value is a glob or a non-empty array of globs");
    }
  }
}

std::vector<std::string> axis(const json& j, const std::string& file, const char* name) {
  const auto it = j.find(name);
  if (it == j.end() || !it->is_array() || it->empty())
    throw InputError(file, fmt::format("axes.{}", name), it == j.end() ? "(missing)" : json_excerpt(*it),
                     "an axis is a non-empty array");
  std::vector<std::string> out;
  for (const json& v : *it) {
    if (v.is_number_unsigned()) {  // bit depths may be written as numbers
      out.push_back(std::to_string(v.get<std::uint64_t>()));
      continue;
    }
    if (!v.is_string() || v.get_ref<const std::string&>().empty())
      throw InputError(file, fmt::format("axes.{}", name), json_excerpt(v),
                       "axis values are non-empty strings (or whole numbers)");
    out.push_back(v.get<std::string>());
  }
  return out;
}

bool same_options(const OptionList& a, const OptionList& b) {
  auto x = a, y = b;
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  return x == y;
}

}  // namespace

namespace {

// The twins axis: names, or "*" for every twin of the feature compiled into twinproof. Mutants
// (--with-mutants) and twins declared at run time (exec twins, plugins) are named explicitly:
// a matrix must not change its cells with the twin files a machine happens to have.
std::vector<std::string> expand_twins(const std::vector<std::string>& given, const FeatureDescriptor& f) {
  std::vector<std::string> out;
  for (const std::string& t : given) {
    if (t != "*") {
      out.push_back(t);
      continue;
    }
    for (const Backend* b : backends())
      if (b->feature == f.name && is_built_in(*b)) out.emplace_back(b->name);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Expands one feature's block (a whole single-feature matrix, or one entry of "features").
// The path of a block's field in error messages: "axes.chroma", or "blocks[2].axes.chroma".
std::string field_path(const std::string& where, const char* name) {
  return where.empty() ? std::string(name) : where + "." + name;
}

// One block's declarations, checked: its feature and reference, axes, option sets and rules.
struct Block {
  std::string feature_name;
  const FeatureDescriptor* feature = nullptr;
  std::string reference;
  json axes, include, exclude;
  std::map<std::string, OptionList> option_sets;
};

Block read_block(const json& j, const std::string& file, const std::string& where) {
  Block b;
  reject_unknown_keys(j,
                      where.empty()
                          ? std::initializer_list<std::string_view>{"schema", "name", "description", "feature", "reference",
                                                                    "axes", "option_sets", "include", "exclude"}
                          : std::initializer_list<std::string_view>{"description", "feature", "reference", "axes", "option_sets",
                                                                    "include", "exclude"},
                      file, where);
  b.feature_name = j.value("feature", "");
  if (b.feature_name.empty()) throw InputError(file, field_path(where, "feature"), "(missing)", "a matrix names its feature");
  b.feature = find_feature(b.feature_name);
  if (b.feature == nullptr)
    throw InputError(file, field_path(where, "feature"), b.feature_name, "no such feature (see `twinproof features`)");
  b.reference = j.value("reference", std::string(b.feature->reference));
  if (find_backend(b.feature_name, b.reference) == nullptr)
    throw InputError(file, field_path(where, "reference"), b.reference, "no such backend of the feature");
  b.axes = j.value("axes", json::object());
  if (!b.axes.is_object()) throw InputError(file, field_path(where, "axes"), json_excerpt(b.axes), "axes is an object");
  reject_unknown_keys(b.axes, {"twin", "vector", "distortion", "bitdepth", "chroma", "options"}, file, field_path(where, "axes"));
  const json sets = j.value("option_sets", json::object());
  if (!sets.is_object()) throw InputError(file, field_path(where, "option_sets"), json_excerpt(sets), "option_sets is an object");
  for (const auto& [name, opts] : sets.items()) {
    // Set names become the last part of cell ids, file names of CTest tests and report keys.
    if (!is_plain_name(name))
      throw InputError(file, field_path(where, "option_sets"), name,
                       "option set names are 1 to 64 of A-Z a-z 0-9 _ - . = +, not starting with '.'");
    b.option_sets[name] = options_from_json(opts, file, field_path(where, "option_sets") + "." + name);
  }
  b.include = j.value("include", json::array());
  b.exclude = j.value("exclude", json::array());
  check_rules(b.include, file, field_path(where, "include"));
  check_rules(b.exclude, file, field_path(where, "exclude"));
  return b;
}

// A cell's bit depth and chroma: the axes' values, or the vector's own where they say "native".
std::pair<int, Chroma> cell_format(const VectorSpec& v, const std::string& d, const std::string& c, const std::string& file,
                                   const std::string& where) {
  int bitdepth = v.fmt.bitdepth;
  Chroma chroma = v.fmt.chroma;
  if (d != "native") {
    int n = 0;
    auto [p, ec] = std::from_chars(d.data(), d.data() + d.size(), n);
    if (ec != std::errc() || p != d.data() + d.size() || (n != 8 && n != 10 && n != 12 && n != 16))
      throw InputError(file, field_path(where, "axes.bitdepth"), d, "bit depths are 8, 10, 12, 16 or \"native\"");
    bitdepth = n;
  }
  if (c != "native") {
    const auto pc = parse_chroma(c);
    if (!pc) throw InputError(file, field_path(where, "axes.chroma"), c, "chroma is 400, 420, 422, 444 or \"native\"");
    chroma = *pc;
  }
  return {bitdepth, chroma};
}

// The cell at these coordinates; nullopt for the reference where no golden of the vector holds
// its options (or the format is not the vector's own).
std::optional<Cell> make_cell(const Block& b, const std::map<std::string, std::shared_ptr<const GoldenFile>>& goldens,
                              const std::string& twin, const std::string& vid, int bitdepth, Chroma chroma, const std::string& o,
                              bool native) {
  Cell cell;
  cell.feature = b.feature_name;
  cell.reference = b.reference;
  cell.twin = twin;
  cell.vector = vid;
  cell.bitdepth = bitdepth;
  cell.chroma = chroma;
  cell.option_set = o;
  cell.options = b.option_sets.at(o);
  cell.id = cell_id(b.feature_name, twin, vid, bitdepth, chroma, o);
  if (twin == b.reference) {
    // The reference against its goldens, wherever a golden exists.
    cell.kind = CellKind::regression;
    const auto g = goldens.find(vid);
    if (!native || g == goldens.end()) return std::nullopt;
    for (const GoldenCase& gc : g->second->cases)
      if (same_options(gc.options, cell.options)) cell.golden = gc.id;
    for (const GoldenRefusal& gr : g->second->refusals)
      if (same_options(gr.options, cell.options)) cell.golden = gr.id;
    if (cell.golden.empty()) return std::nullopt;
    cell.golden_file = g->second;
  }
  return cell;
}

void expand_block(const json& j, const std::string& file, const std::string& where, Matrix& m) {
  const Block b = read_block(j, file, where);
  m.features.push_back(b.feature_name);
  const json& axes = b.axes;
  const json &include = b.include, &exclude = b.exclude;
  const Manifest& manifest = Manifest::project();
  // Goldens of this feature, by vector: for regression cells.
  std::map<std::string, std::shared_ptr<const GoldenFile>> goldens;
  for (GoldenFile& g : load_goldens(b.feature_name)) {
    std::string vector = g.vector;  // read before the file is moved away
    goldens.emplace(std::move(vector), std::make_shared<const GoldenFile>(std::move(g)));
  }

  const auto twins = expand_twins(axis(axes, file, "twin"), *b.feature), vectors = axis(axes, file, "vector"),
             depths = axis(axes, file, "bitdepth"), chromas = axis(axes, file, "chroma"), opts = axis(axes, file, "options");
  for (const std::string& o : opts)
    if (!b.option_sets.count(o)) throw InputError(file, field_path(where, "axes.options"), o, "not defined under option_sets");
  // The distortion axis: "none" (the vector alone, as every matrix before pairs had it) or
  // distortions of the manifest, each making the pair "VECTOR~DISTORTION".
  const std::vector<std::string> distortions =
      axes.contains("distortion") ? axis(axes, file, "distortion") : std::vector<std::string>{"none"};
  for (const std::string& d : distortions)
    if (d != "none") (void)manifest.distortion(d);
  for (const std::string& base : vectors)
    for (const std::string& distortion : distortions) {
      const std::string vid = distortion == "none" ? base : base + "~" + distortion;
      const VectorSpec& v = manifest.get(base);
      for (const std::string& d : depths)
        for (const std::string& c : chromas) {
          const auto [bitdepth, chroma] = cell_format(v, d, c, file, where);
          const bool native = bitdepth == v.fmt.bitdepth && chroma == v.fmt.chroma;
          for (const std::string& o : opts)
            for (const std::string& twin : twins) {
              const Coordinates co = {{"twin", twin},
                                      {"vector", base},
                                      {"distortion", distortion},
                                      {"bitdepth", std::to_string(bitdepth)},
                                      {"chroma", std::string(to_string(chroma))},
                                      {"options", o},
                                      {"native", native ? "true" : "false"}};
              if (!include.empty() &&
                  std::none_of(include.begin(), include.end(), [&](const json& r) { return rule_matches(r, co); }))
                continue;
              if (std::any_of(exclude.begin(), exclude.end(), [&](const json& r) { return rule_matches(r, co); })) continue;
              if (std::optional<Cell> cell = make_cell(b, goldens, twin, vid, bitdepth, chroma, o, native))
                m.cells.push_back(std::move(*cell));
            }
        }
    }
}

}  // namespace

Matrix load_matrix(const fs::path& path) {
  const std::string file = path.string();
  const json j = read_json_file(path, "the matrix");
  return walking_json_file(file, [&] { return matrix_from_json(j, path); });
}

Matrix matrix_from_json(const json& j, const fs::path& path) {
  const std::string file = path.string();
  if (!j.is_object()) throw InputError(file, "matrix", json_excerpt(j), "a matrix is a JSON object");
  Matrix m;
  m.file = path;
  m.name = j.value("name", path.stem().string());
  if (m.name.empty() || m.name.size() > 64 || m.name != escape_control(m.name))
    throw InputError(file, "name", m.name, "a matrix name is 1 to 64 printable characters");
  if (j.contains("features")) {
    reject_unknown_keys(j, {"schema", "name", "description", "features"}, file, "");
    // Several features in one matrix: each entry is a single-feature block.
    const json& blocks = j["features"];
    if (!blocks.is_array() || blocks.empty())
      throw InputError(file, "features", "", "\"features\" is a non-empty array of per-feature blocks");
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      if (!blocks[i].is_object()) throw InputError(file, fmt::format("features[{}]", i), "", "a feature block is an object");
      expand_block(blocks[i], file, fmt::format("features[{}]", i), m);
    }
  } else {
    expand_block(j, file, "", m);
  }
  std::sort(m.cells.begin(), m.cells.end(), [](const Cell& a, const Cell& b) { return a.id < b.id; });
  for (std::size_t i = 1; i < m.cells.size(); ++i)
    if (m.cells[i].id == m.cells[i - 1].id) throw InputError(file, "cells", m.cells[i].id, "the matrix names this cell twice");
  return m;
}

bool matches_filters(const std::vector<std::string>& globs, std::initializer_list<std::string> names) {
  const auto any_name = [&](const std::string& pattern) {
    return std::any_of(names.begin(), names.end(), [&](const std::string& n) { return glob(pattern, n); });
  };
  bool any_include = false, included = false;
  for (const std::string& g : globs) {
    if (!g.empty() && g[0] == '-') {
      if (any_name(g.substr(1))) return false;
    } else {
      any_include = true;
      included = included || any_name(g);
    }
  }
  return !any_include || included;
}

bool matches_filters(const std::vector<std::string>& globs, const std::string& id) { return matches_filters(globs, {id}); }

std::vector<Cell> filter_cells(const std::vector<Cell>& cells, const std::vector<std::string>& globs) {
  std::vector<Cell> out;
  for (const Cell& c : cells)
    if (matches_filters(globs, c.id)) out.push_back(c);
  return out;
}

Shard parse_shard(const std::string& s) {
  const auto slash = s.find('/');
  Shard r;
  const auto num = [&](const std::string& part, unsigned& out) {
    auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), out);
    return ec == std::errc() && p == part.data() + part.size() && !part.empty();
  };
  if (slash == std::string::npos || !num(s.substr(0, slash), r.index) || !num(s.substr(slash + 1), r.count) || r.count == 0 ||
      r.index >= r.count)
    throw UsageError("--shard", s, fmt::format("--shard '{}': expected I/N with 0 <= I < N", s));
  return r;
}

std::optional<Shard> shard_from_environment() {
  const char* index = std::getenv("GTEST_SHARD_INDEX");
  const char* total = std::getenv("GTEST_TOTAL_SHARDS");
  if (index == nullptr || total == nullptr) return std::nullopt;
  const Shard s = parse_shard(std::string(index) + "/" + total);
  // The protocol: a runner that shards touches this file to say it understood the variables.
  if (const char* status = std::getenv("GTEST_SHARD_STATUS_FILE"); status != nullptr && *status != '\0')
    std::ofstream(status).flush();
  return s;
}

std::vector<Cell> take_shard(const std::vector<Cell>& sorted, const Shard& s) {
  std::vector<Cell> out;
  for (std::size_t k = 0; k < sorted.size(); ++k)
    if (k % s.count == s.index) out.push_back(sorted[k]);
  return out;
}

}  // namespace twinproof
