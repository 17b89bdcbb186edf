// Calibration proposals: what the records of one or more runs (a sweep) support, per twin, metric
// and compute capability. `exact` where every value was equal; else the tightest places=N that
// held, less a margin; a `printed` row that held is kept. The proposal is printed against the
// table in force and written as a new table; the table itself is never edited.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/calibration/table.hpp"
#include "harness/report/results.hpp"

namespace twinproof {

// What one key's cells showed.
struct Measured {
  std::string feature, reference, twin, metric, compute_capability;
  std::size_t cells = 0, values = 0, unpaired = 0, mismatches = 0;
  double max_abs_diff = 0;  // NaN once a NaN was seen
  std::uint64_t max_ulp = 0;
  std::vector<std::string> tolerances_in_force;  // what judged these cells ("places=4", "printed(vmaf)")
};

struct ProposedRow {
  Measured evidence;
  std::optional<Tolerance> tolerance;  // nullopt: no row can be proposed (why says why)
  std::string why;
  int held = 0;                             // the tightest places=N that held (0: none, or not a places question)
  const CalibrationRow* current = nullptr;  // the row with the same key in the table, if any
  enum class Change { same, tighter, looser, added, none } change = Change::none;
};

struct CalibrationProposal {
  std::vector<ProposedRow> rows;
  std::size_t cells_read = 0, cells_used = 0;
  int margin = 0;
  std::vector<std::string> left_out;  // cells that ended in error or timeout, per twin: "3 of ffmpeg-vmafmotion"
  nlohmann::json table;               // the proposed table: the current one with the proposed rows in
};

// `margin` places are given up from the tightest that held (a sweep never sees every input).
// Throws InputError when the records hold no compared twin cell.
CalibrationProposal propose_calibration(const std::vector<CellResult>& records, const Calibration& table, int margin,
                                        const std::vector<std::string>& sources);

// The diff, one line per row: "tighter  float_motion ffmpeg-vmafmotion motion: places=1 -> places=2 ...".
std::string describe_proposal(const CalibrationProposal& p);

}  // namespace twinproof
