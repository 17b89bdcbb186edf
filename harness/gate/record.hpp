// The gate's recorder: appends each verdict to results.jsonl the moment it is known (an
// interrupted run keeps it), keeps the run's results, prints progress, and counts the cells that
// need attention for --max-failures. Thread-safe: the gate's workers and its watchdog call it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "harness/gate/matrix.hpp"
#include "harness/report/results.hpp"

namespace twinproof {

class GateRecorder {
 public:
  struct Options {
    std::filesystem::path report_dir;  // empty: keep results in memory only
    bool progress = true;
    std::size_t max_failures = 0;  // 0: never stop
  };
  // Creates the report folder, its cells.txt and an empty results.jsonl (InputError when it
  // cannot).
  GateRecorder(const std::vector<Cell>& cells, Options options);

  // Records one verdict. A verdict that cannot be written stops the run: a record that silently
  // lost it would lie (fatal() says why).
  void record(CellResult r);
  // Verdicts known before anything runs: they do not count towards the rate of progress.
  void record_planned(std::vector<CellResult> results);

  // Whether workers must hand out no more cells: --max-failures reached or the record failed.
  bool stop_requested() const { return stop_; }
  void request_stop() { stop_ = true; }
  bool stopped_early() const;  // by --max-failures
  std::size_t failures() const;
  std::string fatal() const;  // empty unless the record could not be written
  std::string record_file() const;

  // The cells of the run that have no verdict yet, each given `status` and `detail`.
  std::vector<CellResult> without_verdict(CellStatus status, const std::string& detail) const;
  std::vector<CellResult> results() const;
  void end_progress() const;  // ends a live progress line
  // While cells run: how far the run is, what has run longest and the time left, on a line of its own.
  void print_heartbeat(const std::string& longest, double seconds, std::size_t running) const;

 private:
  void print_progress(const CellResult& last);
  std::string time_left() const;

  const std::vector<Cell>& cells_;
  const Options o_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  mutable std::mutex mu_;
  std::ofstream record_;
  std::vector<CellResult> results_;
  std::set<std::string> recorded_ids_;
  std::size_t failures_ = 0;
  std::size_t planned_ = 0;
  bool stopped_early_ = false;
  std::string fatal_;
  std::atomic<bool> stop_{false};
};

}  // namespace twinproof
