// The calibration table (ci/calibration.json): how each twin is judged against its reference,
// and the waivers in force. It fails closed: a missing or malformed table, or a twin without a
// row, is an error, never a silent default.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "extractors/devices.hpp"
#include "harness/calibration/rules.hpp"

namespace twinproof {

struct CalibrationRow {
  // feature "*" (kEveryFeature): the twin's row for every feature without a row of its own, for a
  // twin judged the same way whatever it computes (twinproof itself as a program, a tool that
  // prints every score with the same format).
  std::string feature, reference, twin;
  std::string metric;              // empty: every metric
  std::string compute_capability;  // "9.0"; empty: every device (and host twins)
  Tolerance tolerance;
  std::string reason;
  nlohmann::json provenance;  // who measured, on what, when
  std::size_t index = 0;      // position in the file
  std::string describe() const;
};

inline constexpr std::string_view kEveryFeature = "*";

// Exactly YYYY-MM-DD naming a real calendar day (2026-02-29 is not one).
bool is_calendar_date(std::string_view text);

struct Waiver {
  std::string cells;  // glob over cell ids
  std::string reason, issue;
  std::string expires;  // YYYY-MM-DD, a real day (checked on load)
  // The most cells of a matrix the glob may match: a waiver is for named cells, not for a twin.
  std::size_t max_cells = kDefaultWaiverMaxCells;
  std::size_t index = 0;
  static constexpr std::size_t kDefaultWaiverMaxCells = 8;
  // Both dates are checked YYYY-MM-DD texts, whose order is the calendar's.
  bool expired(const std::string& today) const { return today > expires; }
};

// A row that is looser than the exact row it overrides (or than the baseline table's row).
struct Loosening {
  const CalibrationRow* row;
  std::string from;   // "exact", or the baseline's tolerance
  std::string where;  // "overrides row N" or "baseline FILE"
};

class Calibration {
 public:
  // Throws InputError naming the file and field: missing file, bad JSON, a row without mode,
  // reason or provenance, places out of [1, 15], a duplicate key, a waiver without an expiry.
  static Calibration load(const std::filesystem::path& file);
  // The same from a parsed document (`file` names it in errors).
  static Calibration from_json(const nlohmann::json& document, const std::filesystem::path& file);

  // The most specific row for the key (metric and device rows before general ones), or nullopt.
  const CalibrationRow* find(const std::string& feature, const std::string& reference, const std::string& twin,
                             const std::string& metric, const std::string& compute_capability) const;
  bool has_twin(const std::string& feature, const std::string& reference, const std::string& twin) const;

  // Rows looser than what they override, and (with a baseline) than the baseline's same key.
  std::vector<Loosening> loosenings(const Calibration* baseline) const;

  // Waivers whose glob matches the cell id, in file order.
  std::vector<const Waiver*> waivers_for(const std::string& cell_id) const;

  const std::filesystem::path& file() const { return file_; }
  const std::vector<CalibrationRow>& rows() const { return rows_; }
  const std::vector<Waiver>& waivers() const { return waivers_; }

 private:
  std::filesystem::path file_;
  std::vector<CalibrationRow> rows_;
  std::vector<Waiver> waivers_;
  // (feature, reference, twin, metric, compute capability) -> position in rows_.
  std::map<std::tuple<std::string, std::string, std::string, std::string, std::string>, std::size_t> index_;
};

// How one cell's values are judged: each metric by its most specific row for the cell's feature,
// reference, twin and device (metric and compute-capability rows included). This is the one
// lookup that the gate, repro and bench share, so a cell cannot pass one and fail another.
class CellTolerance {
 public:
  CellTolerance(const Calibration& table, std::string feature, std::string reference, std::string twin,
                std::string compute_capability)
      : table_(&table),
        feature_(std::move(feature)),
        reference_(std::move(reference)),
        twin_(std::move(twin)),
        cc_(std::move(compute_capability)) {}
  // The row that judges `metric` ("" asks for the twin's general row), or nullptr.
  const CalibrationRow* row(const std::string& metric) const;
  // Its tolerance; exact where no row exists (the gate refuses a twin without a row beforehand).
  Tolerance operator()(const std::string& metric) const;
  // "exact" or "exact, places=4 (motion3)": every tolerance in force for these metrics.
  std::string describe(const std::vector<std::string>& metrics) const;

 private:
  const Calibration* table_;
  std::string feature_, reference_, twin_, cc_;
};

// The host's CUDA device with this ordinal, described once per process (the query reads every
// device's properties), or nullptr.
const DeviceDescription* host_device(int ordinal);
// The compute capability ("9.0") of a GPU backend's device, "" for host backends or no device.
std::string compute_capability_of(bool gpu_backend, int device);

}  // namespace twinproof
