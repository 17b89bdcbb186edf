// Judging: what a backend returned for a cell, turned into the cell's verdict. Nothing here runs
// a backend or a thread; the gate's workers hand outcomes in, the judge hands verdicts out.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/calibration/table.hpp"
#include "harness/gate/matrix.hpp"
#include "harness/report/results.hpp"
#include "harness/scoring/scores.hpp"

namespace twinproof {

// What a backend returned for one cell's input and options.
struct Outcome {
  // tool_failed: an exec twin's program exited non-zero (its refusal where the reference refuses,
  // else an error); not_supported: the twin cannot take this configuration (a bit depth, a chroma
  // format, an option its program lacks).
  enum class Kind { scores, refused, error, timeout, tool_failed, not_supported } kind = Kind::error;
  ScoreTable table;
  std::string message;
  std::optional<std::vector<std::string>> judged_metrics;       // the twin reports only these
  std::vector<std::pair<std::string, std::string>> provenance;  // what ran, when not twinproof's code
  std::string nondeterminism;  // set when repeated runs of the twin disagreed: which run, frame, metric
  double seconds = 0;
  double input_seconds = 0;  // of `seconds`: opening the input (a vector variant made or read)
  std::string device = "host";
  std::string compute_capability;
};

// Judges a parity cell: reference outcome against twin outcome under the table and waivers.
CellResult judge_parity(const Cell& cell, const Outcome& ref, const Outcome& twin, const Calibration& table,
                        const std::string& today);
// Judges a regression cell: the reference outcome against the cell's golden.
CellResult judge_regression(const Cell& cell, const Outcome& ref);

// The books of a run's units (cells that share one reference run): a twin outcome that arrives
// before its reference waits; the reference's arrival judges every waiting twin and the unit's
// regression cells; the reference is let go once every cell of the unit is judged. Not
// thread-safe: the gate calls it under one lock, the tests call it directly.
class UnitJudge {
 public:
  UnitJudge(const Calibration& table, std::string today) : table_(table), today_(std::move(today)) {}

  // A cell whose verdict needs its unit's reference run (a parity twin or a regression cell).
  void expect(const Cell& cell);
  // The verdicts the outcome makes known (none while the twin waits for its reference).
  std::vector<CellResult> reference_done(const std::string& unit, Outcome ref);
  std::vector<CellResult> twin_done(const Cell& cell, Outcome twin);

  std::size_t pending() const;  // cells expected and not judged yet

 private:
  struct Unit {
    std::vector<const Cell*> cells;
    std::optional<Outcome> ref;
    std::vector<std::pair<const Cell*, Outcome>> waiting;  // twins done before the reference
    std::size_t pending = 0;
  };
  void judged(Unit& u, std::size_t n);

  const Calibration& table_;
  const std::string today_;
  std::map<std::string, Unit> units_;
};

}  // namespace twinproof
