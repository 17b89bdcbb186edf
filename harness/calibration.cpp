#include "harness/calibration.hpp"

#include <set>

#include "extractors/devices.hpp"

#include <chrono>
#include <ctime>
#include <fstream>
#include <regex>

#include <fmt/format.h>
#include <fnmatch.h>

#include "harness/errors.hpp"
#include "harness/json_file.hpp"

namespace twinproof {
namespace fs = std::filesystem;
using nlohmann::json;

std::string CalibrationRow::describe() const {
  std::string key = fmt::format("{} {} vs {}", feature, twin, reference);
  if (!metric.empty()) key += " metric " + metric;
  if (!compute_capability.empty()) key += " on sm " + compute_capability;
  return fmt::format("row {} ({}): {}", index, key, tolerance.describe());
}

std::string today_utc() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

namespace {

std::string text(const json& j, const std::string& file, const std::string& where, const char* key, bool required) {
  const auto it = j.find(key);
  if (it == j.end()) {
    if (required) throw InputError(file, where + "." + key, "(missing)", "required field is missing");
    return {};
  }
  if (!it->is_string() || (required && it->get<std::string>().empty()))
    throw InputError(file, where + "." + key, it->dump(), "must be a non-empty string");
  return it->get<std::string>();
}

}  // namespace

Calibration Calibration::load(const fs::path& path) {
  const std::string file = path.string();
  const json j = read_json_file(path, "the calibration table (it fails closed: no table, no gate)");
  if (!j.is_object() || !j.contains("rows") || !j["rows"].is_array() || j["rows"].empty())
    throw InputError(file, "rows", j.is_object() && j.contains("rows") ? j["rows"].dump().substr(0, 40) : "(missing)",
                     "the table needs a non-empty array of rows");
  Calibration c;
  c.file_ = path;
  for (std::size_t i = 0; i < j["rows"].size(); ++i) {
    const json& r = j["rows"][i];
    const std::string where = fmt::format("rows[{}]", i);
    if (!r.is_object()) throw InputError(file, where, r.dump(), "a row is an object");
    CalibrationRow row;
    row.index = i;
    row.feature = text(r, file, where, "feature", true);
    row.reference = text(r, file, where, "reference", true);
    row.twin = text(r, file, where, "twin", true);
    row.metric = text(r, file, where, "metric", false);
    row.compute_capability = text(r, file, where, "compute_capability", false);
    const std::string mode = text(r, file, where, "mode", true);
    if (mode == "exact") {
      row.tolerance = Tolerance::exact();
      if (r.contains("places")) throw InputError(file, where + ".places", r["places"].dump(), "an exact row has no places");
    } else if (mode == "places") {
      if (!r.contains("places") || !r["places"].is_number_integer())
        throw InputError(file, where + ".places", r.contains("places") ? r["places"].dump() : "(missing)",
                         "a places row needs an integer number of places");
      const int n = r["places"].get<int>();
      if (n < 1 || n > 15) throw InputError(file, where + ".places", std::to_string(n), "places must be in [1, 15]");
      row.tolerance = Tolerance::at_places(n);
    } else {
      throw InputError(file, where + ".mode", mode, "mode is 'exact' or 'places'");
    }
    row.reason = text(r, file, where, "reason", true);
    if (!r.contains("provenance") || !r["provenance"].is_object() || r["provenance"].empty())
      throw InputError(file, where + ".provenance", r.contains("provenance") ? r["provenance"].dump() : "(missing)",
                       "a row says who measured it, on what, when");
    row.provenance = r["provenance"];
    for (const CalibrationRow& o : c.rows_)
      if (o.feature == row.feature && o.reference == row.reference && o.twin == row.twin && o.metric == row.metric &&
          o.compute_capability == row.compute_capability)
        throw InputError(file, where, row.twin, fmt::format("same key as rows[{}]", o.index));
    c.rows_.push_back(std::move(row));
  }
  const json waivers = j.value("waivers", json::array());
  if (!waivers.is_array()) throw InputError(file, "waivers", waivers.dump().substr(0, 40), "waivers is an array");
  static const std::regex date(R"(\d{4}-\d{2}-\d{2})");
  for (std::size_t i = 0; i < waivers.size(); ++i) {
    const std::string where = fmt::format("waivers[{}]", i);
    Waiver w;
    w.index = i;
    w.cells = text(waivers[i], file, where, "cells", true);
    w.reason = text(waivers[i], file, where, "reason", true);
    w.issue = text(waivers[i], file, where, "issue", true);
    w.expires = text(waivers[i], file, where, "expires", true);
    if (!std::regex_match(w.expires, date)) throw InputError(file, where + ".expires", w.expires, "dates are YYYY-MM-DD");
    c.waivers_.push_back(std::move(w));
  }
  return c;
}

const CalibrationRow* Calibration::find(const std::string& feature, const std::string& reference, const std::string& twin,
                                        const std::string& metric, const std::string& cc) const {
  const CalibrationRow* best = nullptr;
  int best_score = -1;
  for (const CalibrationRow& r : rows_) {
    if (r.feature != feature || r.reference != reference || r.twin != twin) continue;
    if (!r.metric.empty() && r.metric != metric) continue;
    if (!r.compute_capability.empty() && r.compute_capability != cc) continue;
    const int score = (r.metric.empty() ? 0 : 2) + (r.compute_capability.empty() ? 0 : 1);
    if (score > best_score) {
      best = &r;
      best_score = score;
    }
  }
  return best;
}

bool Calibration::has_twin(const std::string& feature, const std::string& reference, const std::string& twin) const {
  for (const CalibrationRow& r : rows_)
    if (r.feature == feature && r.reference == reference && r.twin == twin) return true;
  return false;
}

std::vector<Loosening> Calibration::loosenings(const Calibration* baseline) const {
  std::vector<Loosening> out;
  for (const CalibrationRow& r : rows_) {
    // A specific row that relaxes the general row of its twin.
    if (!r.metric.empty() || !r.compute_capability.empty()) {
      for (const CalibrationRow& g : rows_)
        if (g.feature == r.feature && g.reference == r.reference && g.twin == r.twin && g.metric.empty() &&
            g.compute_capability.empty() && r.tolerance.looser_than(g.tolerance))
          out.push_back({&r, g.tolerance.describe(), fmt::format("overrides row {}", g.index)});
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
