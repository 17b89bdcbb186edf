#include "harness/gate/record.hpp"
#include "harness/support/json_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>
#include <unistd.h>

#include "harness/support/errors.hpp"
#include "harness/support/paths.hpp"

namespace twinproof {
namespace {
double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

GateRecorder::GateRecorder(const std::vector<Cell>& cells, Options options) : cells_(cells), o_(std::move(options)) {
  if (o_.report_dir.empty()) return;
  ensure_directory(o_.report_dir, "--report-dir");
  std::string list;
  for (const Cell& c : cells_) list += c.id + "\n";
  write_file(o_.report_dir / "cells.txt", list, "the list of selected cells", OutputOwner::twinproof);
  // A fresh, regular record (a link or FIFO planted at its name is refused, never followed), then
  // opened for appending.
  write_file(record_file(), "", "the results record", OutputOwner::twinproof);
  record_.open(record_file(), std::ios::app);
  if (!record_) throw InputError(record_file(), "file", o_.report_dir.string(), "cannot write the results record");
}

std::string GateRecorder::record_file() const { return (o_.report_dir / "results.jsonl").string(); }

void GateRecorder::record_planned(std::vector<CellResult> results) {
  for (CellResult& r : results) record(std::move(r));
  std::lock_guard lock(mu_);
  planned_ = results_.size();
}

void GateRecorder::record(CellResult r) {
  std::lock_guard lock(mu_);
  if (!fatal_.empty()) return;
  if (record_.is_open()) {
    record_ << json_text(to_json(r)) << "\n";
    if (!record_.flush()) {
      fatal_ = fmt::format("cannot append the verdict of {} ({}): the run stopped", r.cell.id, std::strerror(errno));
      stop_ = true;
      return;
    }
  }
  recorded_ids_.insert(r.cell.id);
  results_.push_back(std::move(r));
  const CellResult& last = results_.back();
  failures_ += last.needs_attention();
  if (o_.max_failures > 0 && failures_ >= o_.max_failures && !stop_) {
    stopped_early_ = true;  // the cells running finish; no new one starts
    stop_ = true;
  }
  if (o_.progress) print_progress(last);
}

// Under mu_. The rate of cells that ran (not the not-supported ones judged at once), once there is
// enough of it to mean something.
std::string GateRecorder::time_left() const {
  const std::size_t done = results_.size(), total = cells_.size();
  const double elapsed = since(start_);
  const std::size_t ran = done - std::min(done, planned_);
  return ran >= 3 && elapsed >= 2 ? fmt::format("~{:.0f}s left", elapsed / ran * (total - done)) : "time left: estimating";
}

void GateRecorder::print_progress(const CellResult& last) {
  const std::size_t done = results_.size(), total = cells_.size();
  const double elapsed = since(start_);
  if (isatty(2)) {
    fmt::print(stderr, "\r[{}/{}] {} failing, {:.0f}s elapsed, {}   ", done, total, failures_, elapsed, time_left());
  } else {
    fmt::print("[{}/{}] {:<13} {} ({:.2f}s; {:.0f}s elapsed, {})\n", done, total, to_string(last.status), last.cell.id,
               last.seconds, elapsed, time_left());
    std::fflush(stdout);
  }
}

void GateRecorder::print_heartbeat(const std::string& longest, double seconds, std::size_t running) const {
  std::lock_guard lock(mu_);
  const std::string line = fmt::format("[{}/{}] still running: {} for {:.0f}s ({} in flight); {:.0f}s elapsed, {}",
                                       results_.size(), cells_.size(), longest, seconds, running, since(start_), time_left());
  if (isatty(2)) {
    fmt::print(stderr, "\r{}   ", line);
  } else {
    fmt::print("{}\n", line);
    std::fflush(stdout);
  }
}

void GateRecorder::end_progress() const {
  if (o_.progress && isatty(2)) fmt::print(stderr, "\n");
}

bool GateRecorder::stopped_early() const {
  std::lock_guard lock(mu_);
  return stopped_early_;
}

std::size_t GateRecorder::failures() const {
  std::lock_guard lock(mu_);
  return failures_;
}

std::string GateRecorder::fatal() const {
  std::lock_guard lock(mu_);
  return fatal_;
}

std::vector<CellResult> GateRecorder::results() const {
  std::lock_guard lock(mu_);
  return results_;
}

std::vector<CellResult> GateRecorder::without_verdict(CellStatus status, const std::string& detail) const {
  std::lock_guard lock(mu_);
  std::vector<CellResult> rest;
  for (const Cell& c : cells_)
    if (!recorded_ids_.count(c.id)) {
      CellResult r;
      r.cell = c;
      r.status = status;
      r.detail = detail;
      rest.push_back(std::move(r));
    }
  return rest;
}

}  // namespace twinproof
