// The gate: runs the cells of a matrix, judges each by its calibration row (parity) or its
// golden (regression), and appends every verdict to results.jsonl as soon as it is known.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "extractors/registry.hpp"
#include "harness/calibration/table.hpp"
#include "harness/gate/judge.hpp"
#include "harness/gate/matrix.hpp"
#include "harness/report/results.hpp"
#include "harness/scoring/scores.hpp"

namespace twinproof {

struct GateOptions {
  unsigned jobs = 0;                 // CPU workers (0: every core)
  std::vector<int> devices = {0};    // GPU workers: gpu_workers for each entry (0,0: twice as many on 0)
  unsigned gpu_workers = 8;          // per entry of devices: a GPU cell's run is mostly host latency
  std::vector<std::string> require;  // backends whose not-supported is a failure
  bool with_mutants = false;
  double cell_timeout_s = 0;         // 0: none
  std::string today;                 // YYYY-MM-DD for waiver expiry (default: today, UTC)
  std::filesystem::path report_dir;  // results.jsonl and the reports; empty: none
  bool progress = true;              // a line per cell (or a live line on a terminal)
  std::size_t max_failures = 0;      // stop handing out cells once this many need attention (0: never)
  unsigned repeat = 1;               // runs of every twin cell, each with fresh instances
  unsigned concurrent = 1;           // instances of a twin cell run at once in each repetition
  double heartbeat_s = 60;           // with progress: a line this often while cells run (0: none)
};

// Where a run's time went: the wall time, and the seconds the workers spent on each kind of run.
// Workers overlap, so their seconds add up to more than the wall time when several are busy; a
// repeated or concurrent twin cell counts its first run only.
struct GateTimes {
  double wall_s = 0;
  unsigned cpu_workers = 0, gpu_workers = 0;
  double input_s = 0;  // every run's opening of its input (vector variants made or read)
  double reference_s = 0, cpu_twin_s = 0, gpu_twin_s = 0;
  unsigned reference_runs = 0, cpu_twin_runs = 0, gpu_twin_runs = 0;
};
// One line: "12.3 s wall, 16 CPU and 1 GPU worker(s); busy: ...".
std::string describe(const GateTimes& t);

struct GateOutcome {
  std::vector<CellResult> results;  // in completion order; then, when interrupted, the cells without a verdict
  int exit_code = 0;                // 128 + the signal when interrupted
  int interrupted_by = 0;           // SIGINT / SIGTERM that stopped the run, or 0
  bool stopped_early = false;       // --max-failures was reached: the cells not run have no verdict
  GateTimes times;
};

// Throws InputError / ConfigError before anything runs when the table cannot judge the cells
// (a twin without a row), and DeviceError never: device faults become cell errors.
GateOutcome run_gate(const std::vector<Cell>& cells, const Calibration& table, const GateOptions& options);

// Refuses (InputError naming the table and the waiver) a waiver whose glob matches more cells of
// the matrix than its max_cells, or every cell of one twin: a waiver names known failures, it
// must not turn a broken twin, or the whole run, into a PASS.
void check_waiver_reach(const Calibration& table, const std::vector<Cell>& matrix_cells);

// Checks the names given to --require: each is a registered backend (mutants with
// `with_mutants`) or the kind "cuda". Throws ConfigError listing the known names.
void check_required_backends(const std::vector<std::string>& names, bool with_mutants);

// Runs one backend over a cell's vector and options (used by the gate and by repro).
Outcome run_backend(const Backend& b, const Cell& cell, const ExtractorContext& ctx, double timeout_s);

// Runs the backend `repeat` times, `concurrent` fresh instances at once each time (threads; an
// exec twin's are processes), and returns the first run's outcome with `nondeterminism` set when
// any run returned other bits (or another kind of outcome) than the first: shared state, races
// and uninitialised memory show up here.
Outcome run_backend_repeated(const Backend& b, const Cell& cell, const ExtractorContext& ctx, double timeout_s, unsigned repeat,
                             unsigned concurrent);

}  // namespace twinproof
