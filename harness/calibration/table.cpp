#include "harness/calibration/table.hpp"

#include <set>

#include "extractors/devices.hpp"

#include <chrono>
#include <ctime>
#include <fstream>
#include <map>
#include <tuple>

#include <fmt/format.h>
#include <fnmatch.h>

#include "harness/support/errors.hpp"
#include "harness/support/json_file.hpp"

namespace twinproof {
namespace fs = std::filesystem;
using nlohmann::json;

std::string CalibrationRow::describe() const {
  std::string key = fmt::format("{} {} vs {}", feature, twin, reference);
  if (!metric.empty()) key += " metric " + metric;
  if (!compute_capability.empty()) key += " on sm " + compute_capability;
  return fmt::format("row {} ({}): {}", index, key, tolerance.describe());
}

bool is_calendar_date(std::string_view s) {
  // Exactly YYYY-MM-DD, zero-padded, naming a real day: then the text order is the date order.
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u})
    if (s[i] < '0' || s[i] > '9') return false;
  const auto num = [&](std::size_t at, std::size_t n) {
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) v = v * 10 + (s[i] - '0');
    return v;
  };
  const std::chrono::year_month_day d{std::chrono::year{num(0, 4)}, std::chrono::month{static_cast<unsigned>(num(5, 2))},
                                      std::chrono::day{static_cast<unsigned>(num(8, 2))}};
  return d.ok();
}

namespace {

std::string text(const json& j, const std::string& file, const std::string& where, const char* key, bool required) {
  const auto it = j.find(key);
  if (it == j.end()) {
    if (required) throw InputError(file, where + "." + key, "(missing)", "required field is missing");
    return {};
  }
  if (!it->is_string() || (required && it->get<std::string>().empty()))
    throw InputError(file, where + "." + key, json_excerpt(*it), "must be a non-empty string");
  return it->get<std::string>();
}

}  // namespace

Calibration Calibration::load(const fs::path& path) {
  const std::string file = path.string();
  const json j = read_json_file(path, "the calibration table (it fails closed: no table, no gate)");
  return walking_json_file(file, [&] { return from_json(j, path); });
}

namespace {

// One row of the table, its key, mode and tolerance checked.
CalibrationRow read_row(const json& r, const std::string& file, std::size_t i) {
  const std::string where = fmt::format("rows[{}]", i);
  if (!r.is_object()) throw InputError(file, where, json_excerpt(r), "a row is an object");
  reject_unknown_keys(
      r, {"feature", "reference", "twin", "metric", "compute_capability", "mode", "places", "format", "reason", "provenance"},
      file, where);
  CalibrationRow row;
  row.index = i;
  row.feature = text(r, file, where, "feature", true);
  row.reference = text(r, file, where, "reference", true);
  row.twin = text(r, file, where, "twin", true);
  row.metric = text(r, file, where, "metric", false);
  row.compute_capability = text(r, file, where, "compute_capability", false);
  const std::string mode = text(r, file, where, "mode", true);
  if (mode != "printed" && r.contains("format"))
    throw InputError(file, where + ".format", json_excerpt(r["format"]), "only a printed row has a format");
  if (mode == "printed") {
    const std::string format = text(r, file, where, "format", true);
    if (r.contains("places")) throw InputError(file, where + ".places", json_excerpt(r["places"]), "a printed row has no places");
    try {
      row.tolerance = Tolerance::printed_as(format);
    } catch (const std::invalid_argument& e) {
      throw InputError(file, where + ".format", format, e.what());
    }
  } else if (mode == "exact") {
    row.tolerance = Tolerance::exact();
    if (r.contains("places")) throw InputError(file, where + ".places", json_excerpt(r["places"]), "an exact row has no places");
  } else if (mode == "places") {
    const auto it = r.find("places");
    if (it == r.end() || !it->is_number_integer())
      throw InputError(file, where + ".places", it != r.end() ? json_excerpt(*it) : "(missing)",
                       "a places row needs an integer number of places");
    // Range-checked as the 64-bit value written, before any narrowing (4294967300 is not 4).
    const bool in_range = it->is_number_unsigned() ? it->get<std::uint64_t>() >= 1 && it->get<std::uint64_t>() <= 15
                                                   : it->get<std::int64_t>() >= 1 && it->get<std::int64_t>() <= 15;
    if (!in_range) throw InputError(file, where + ".places", it->dump(), "places must be in [1, 15]");
    row.tolerance = Tolerance::at_places(static_cast<int>(it->get<std::int64_t>()));
  } else {
    throw InputError(file, where + ".mode", mode, "mode is 'exact', 'places' or 'printed'");
  }
  row.reason = text(r, file, where, "reason", true);
  if (!r.contains("provenance") || !r["provenance"].is_object() || r["provenance"].empty())
    throw InputError(file, where + ".provenance", r.contains("provenance") ? json_excerpt(r["provenance"]) : "(missing)",
                     "a row says who measured it, on what, when");
  row.provenance = r["provenance"];
  return row;
}

// One waiver: the cells it covers, why, until when.
Waiver read_waiver(const json& v, const std::string& file, std::size_t i) {
  const std::string where = fmt::format("waivers[{}]", i);
  if (!v.is_object()) throw InputError(file, where, json_excerpt(v), "a waiver is an object");
  reject_unknown_keys(v, {"cells", "reason", "issue", "expires", "max_cells"}, file, where);
  Waiver w;
  w.index = i;
  w.cells = text(v, file, where, "cells", true);
  w.reason = text(v, file, where, "reason", true);
  w.issue = text(v, file, where, "issue", true);
  w.expires = text(v, file, where, "expires", true);
  if (!is_calendar_date(w.expires))
    throw InputError(file, where + ".expires", w.expires, "dates are real calendar days written YYYY-MM-DD");
  if (const auto m = v.find("max_cells"); m != v.end()) {
    if (!m->is_number_unsigned() || m->get<std::uint64_t>() == 0 || m->get<std::uint64_t>() > 100000)
      throw InputError(file, where + ".max_cells", json_excerpt(*m), "max_cells is a whole number in [1, 100000]");
    w.max_cells = m->get<std::size_t>();
  }
  return w;
}

}  // namespace

Calibration Calibration::from_json(const json& j, const fs::path& path) {
  const std::string file = path.string();
  if (!j.is_object()) throw InputError(file, "table", json_excerpt(j), "the table is a JSON object");
  reject_unknown_keys(j, {"schema", "about", "rows", "waivers"}, file, "");
  if (!j.contains("rows") || !j["rows"].is_array() || j["rows"].empty())
    throw InputError(file, "rows", j.contains("rows") ? json_excerpt(j["rows"]) : "(missing)",
                     "the table needs a non-empty array of rows");
  Calibration c;
  c.file_ = path;
  const json& rows = j["rows"];
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CalibrationRow row = read_row(rows[i], file, i);
    const std::string where = fmt::format("rows[{}]", i);
    const auto [at, fresh] =
        c.index_.emplace(std::make_tuple(row.feature, row.reference, row.twin, row.metric, row.compute_capability), i);
    if (!fresh) throw InputError(file, where, row.twin, fmt::format("same key as rows[{}]", at->second));
    c.rows_.push_back(std::move(row));
  }
  const json waivers = j.value("waivers", json::array());
  if (!waivers.is_array()) throw InputError(file, "waivers", json_excerpt(waivers), "waivers is an array");
  for (std::size_t i = 0; i < waivers.size(); ++i) c.waivers_.push_back(read_waiver(waivers[i], file, i));
  return c;
}

const CalibrationRow* Calibration::find(const std::string& feature, const std::string& reference, const std::string& twin,
                                        const std::string& metric, const std::string& cc) const {
  // Most specific first: metric and device, metric, device, general (four lookups, whatever the
  // table's size); the feature's own rows before the rows for every feature ("*").
  for (const std::string& f : {feature, std::string(kEveryFeature)})
    for (const auto& [m, d] : {std::pair{metric, cc}, std::pair{metric, std::string()}, std::pair{std::string(), cc},
                               std::pair{std::string(), std::string()}})
      if (const auto it = index_.find(std::make_tuple(f, reference, twin, m, d)); it != index_.end()) return &rows_[it->second];
  return nullptr;
}

bool Calibration::has_twin(const std::string& feature, const std::string& reference, const std::string& twin) const {
  for (const std::string& f : {feature, std::string(kEveryFeature)}) {
    const auto it = index_.lower_bound(std::make_tuple(f, reference, twin, std::string(), std::string()));
    if (it != index_.end() && std::get<0>(it->first) == f && std::get<1>(it->first) == reference &&
        std::get<2>(it->first) == twin)
      return true;
  }
  return false;
}

std::vector<Loosening> Calibration::loosenings(const Calibration* baseline) const {
  std::vector<Loosening> out;
  // Each twin's general row, by key: one pass, so a table of many rows loads in linear time.
  std::map<std::tuple<std::string, std::string, std::string>, const CalibrationRow*> general;
  for (const CalibrationRow& g : rows_)
    if (g.metric.empty() && g.compute_capability.empty()) general.emplace(std::make_tuple(g.feature, g.reference, g.twin), &g);
  for (const CalibrationRow& r : rows_) {
    // A specific row that relaxes the general row of its twin.
    if (!r.metric.empty() || !r.compute_capability.empty()) {
      const auto g = general.find(std::make_tuple(r.feature, r.reference, r.twin));
      if (g != general.end() && r.tolerance.looser_than(g->second->tolerance))
        out.push_back({&r, g->second->tolerance.describe(), fmt::format("overrides row {}", g->second->index)});
    }
    if (baseline == nullptr) continue;
    const CalibrationRow* b = baseline->find(r.feature, r.reference, r.twin, r.metric, r.compute_capability);
    if (b != nullptr && b->metric == r.metric && b->compute_capability == r.compute_capability &&
        r.tolerance.looser_than(b->tolerance))
      out.push_back({&r, b->tolerance.describe(), "baseline " + baseline->file().string()});
  }
  return out;
}

std::vector<const Waiver*> Calibration::waivers_for(const std::string& cell_id) const {
  std::vector<const Waiver*> out;
  for (const Waiver& w : waivers_)
    if (::fnmatch(w.cells.c_str(), cell_id.c_str(), 0) == 0) out.push_back(&w);
  return out;
}

const CalibrationRow* CellTolerance::row(const std::string& metric) const {
  return table_->find(feature_, reference_, twin_, metric, cc_);
}

Tolerance CellTolerance::operator()(const std::string& metric) const {
  const CalibrationRow* r = row(metric);
  return r ? r->tolerance : Tolerance::exact();
}

std::string CellTolerance::describe(const std::vector<std::string>& metrics) const {
  std::set<std::string> used;
  for (const std::string& m : metrics) used.insert((*this)(m).describe());
  if (metrics.empty()) used.insert((*this)("").describe());
  std::string out;
  for (const std::string& d : used) out += (out.empty() ? "" : ", ") + d;
  return out;
}

const DeviceDescription* host_device(int ordinal) {
  static const std::vector<DeviceDescription> devices = cuda_devices();  // each query reads every device
  for (const DeviceDescription& d : devices)
    if (d.ordinal == ordinal) return &d;
  return nullptr;
}

std::string compute_capability_of(bool gpu_backend, int device) {
  const DeviceDescription* d = gpu_backend ? host_device(device) : nullptr;
  return d ? d->compute_capability : std::string();
}

}  // namespace twinproof
