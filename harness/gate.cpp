#include "harness/gate.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include "extractors/devices.hpp"
#include "harness/environment.hpp"
#include "harness/errors.hpp"
#include "harness/faults.hpp"
#include "harness/goldens.hpp"
#include "harness/interrupt.hpp"
#include "harness/parallel.hpp"
#include "harness/paths.hpp"
#include "harness/report.hpp"
#include "harness/vectors/vectors.hpp"

namespace twinproof {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

namespace {

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

CellResult base_result(const Cell& c) {
  CellResult r;
  r.cell = c;
  return r;
}

json mismatch_json(const Mismatch& m) {
  const auto value = [](const std::optional<double>& v) -> json {
    if (!v) return nullptr;
    return {{"decimal", fmt::format("{:.17g}", *v)}, {"hex", hex(*v)}};
  };
  json j = {{"frame", m.frame}, {"metric", m.metric}, {"expected", value(m.expected)}, {"actual", value(m.actual)}};
  if (m.expected && m.actual) {
    j["ulp"] = m.cmp.ulp == std::numeric_limits<std::uint64_t>::max() ? json(nullptr) : json(m.cmp.ulp);
    j["abs_diff"] = m.cmp.abs_diff;
    if (!m.cmp.note.empty()) j["note"] = m.cmp.note;
  }
  return j;
}

void fill_comparison(CellResult& r, const TableComparison& cmp) {
  r.values = cmp.values;
  r.mismatches = cmp.mismatches;
  r.max_abs_diff = cmp.max_abs_diff;
  r.max_ulp = cmp.max_ulp;
  if (cmp.first) r.first_mismatch = mismatch_json(*cmp.first);
}

}  // namespace

Outcome run_backend(const Backend& b, const Cell& cell, const ExtractorContext& ctx, double timeout_s) {
  Outcome o;
  const auto t0 = Clock::now();
  if (b.gpu()) {
    const DeviceDescription* d = host_device(ctx.device);
    o.device = d ? fmt::format("cuda:{} {} ({})", d->ordinal, d->name, d->compute_capability) : fmt::format("cuda:{}", ctx.device);
    o.compute_capability = d ? d->compute_capability : std::string();
  }
  try {
    const Manifest& m = Manifest::project();
    auto src = open_vector(m.variant(cell.vector, cell.bitdepth, cell.chroma), m);
    auto ex = make_extractor(b, ctx);
    RunOptions run;
    run.after_frame = [&](unsigned frame, const Extractor&) {
      if (const int sig = interrupt_signal()) throw Interrupted{sig};
      if (timeout_s > 0 && since(t0) > timeout_s)
        throw TimeoutError(fmt::format("exceeded --cell-timeout {}s at frame {}", timeout_s, frame));
    };
    o.table = run_extractor(*ex, *src, cell.options, run);
    o.kind = Outcome::Kind::scores;
  } catch (const Interrupted&) {
    throw;  // the cell has no verdict; the runner stops
  } catch (...) {
    const Fault f = classify_fault(std::current_exception());
    o.kind = f.kind == FaultKind::refused   ? Outcome::Kind::refused
             : f.kind == FaultKind::timeout ? Outcome::Kind::timeout
                                            : Outcome::Kind::error;
    o.message = f.text();
  }
  o.seconds = since(t0);
  return o;
}

CellResult judge_parity(const Cell& cell, const Outcome& ref, const Outcome& twin, const Calibration& table,
                        const std::string& today) {
  CellResult r = base_result(cell);
  r.seconds = twin.seconds;
  r.device = twin.device;
  using K = Outcome::Kind;
  // Each metric is judged by its most specific row for this twin and device (every twin has a
  // general row: run_gate checks that before anything runs).
  const CellTolerance tolerance_of(table, cell.feature, cell.reference, cell.twin, twin.compute_capability);
  r.tolerance = tolerance_of("").describe();  // the general row, for cells that end before comparing
  if (twin.kind == K::timeout) {
    r.status = CellStatus::timeout;
    r.detail = twin.message;
    return r;
  }
  if (ref.kind == K::error || ref.kind == K::timeout) {
    r.status = ref.kind == K::timeout ? CellStatus::timeout : CellStatus::error;
    r.detail = "reference: " + ref.message;
    return r;
  }
  if (twin.kind == K::error) {
    r.status = CellStatus::error;
    r.detail = twin.message;
    return r;
  }
  if (ref.kind == K::refused || twin.kind == K::refused) {
    const bool both = ref.kind == twin.kind;
    r.status = both ? CellStatus::pass : CellStatus::fail;
    r.detail = both ? "both refuse: " + twin.message
                    : (ref.kind == K::refused ? "the reference refuses (" + ref.message + ") but the twin scores"
                                              : "the twin refuses what the reference scores: " + twin.message);
  } else {
    const TableComparison cmp = compare_tables(ref.table, twin.table, tolerance_of);
    fill_comparison(r, cmp);
    r.status = cmp.pass ? CellStatus::pass : CellStatus::fail;
    r.detail = fmt::format("{} frames: {}", twin.table.frames(), cmp.summary());
  }
  if (twin.kind == K::scores) r.tolerance = tolerance_of.describe(twin.table.metrics());
  // Waivers: a failing cell under a live waiver is waived; a passing one is an unexpected pass;
  // an expired waiver fails the cell whatever it did.
  for (const Waiver* w : table.waivers_for(cell.id)) {
    r.waiver = fmt::format("waivers[{}] until {}: {} ({})", w->index, w->expires, w->reason, w->issue);
    if (w->expired(today)) {
      r.status = CellStatus::fail;
      r.detail = fmt::format("waiver expired on {} ({}); {}", w->expires, w->issue, r.detail);
    } else if (r.status == CellStatus::fail) {
      r.status = CellStatus::waived;
    } else if (r.status == CellStatus::pass) {
      r.unexpected_pass = true;
    }
    break;
  }
  return r;
}

CellResult judge_regression(const Cell& cell, const Outcome& ref) {
  CellResult r = base_result(cell);
  r.seconds = ref.seconds;
  r.device = ref.device;
  r.tolerance = "golden (exact)";
  using K = Outcome::Kind;
  if (ref.kind == K::error || ref.kind == K::timeout) {
    r.status = ref.kind == K::timeout ? CellStatus::timeout : CellStatus::error;
    r.detail = ref.message;
    return r;
  }
  const GoldenFile g = load_golden_file(data_root() / "goldens" / cell.feature / (cell.vector + ".json"));
  for (const GoldenRefusal& refusal : g.refusals)
    if (refusal.id == cell.golden) {
      r.status = ref.kind == K::refused ? CellStatus::pass : CellStatus::fail;
      r.detail = ref.kind == K::refused ? "refused, as the golden says: " + ref.message
                                        : "scored a configuration the golden says must be refused";
      return r;
    }
  for (const GoldenCase& gc : g.cases)
    if (gc.id == cell.golden) {
      if (ref.kind == K::refused) {
        r.status = CellStatus::fail;
        r.detail = "refused a configuration the golden scores: " + ref.message;
        return r;
      }
      const TableComparison cmp = compare_tables(gc.expected, ref.table, Tolerance::exact());
      fill_comparison(r, cmp);
      r.status = cmp.pass ? CellStatus::pass : CellStatus::fail;
      r.detail = fmt::format("golden {} ({}): {}", gc.id, g.provenance.value("kind", "?"), cmp.summary());
      return r;
    }
  r.status = CellStatus::error;
  r.detail = "golden " + cell.golden + " not found";
  return r;
}

namespace {

// One run of a backend: the reference for a unit, or a twin for a cell.
struct Task {
  const Backend* backend = nullptr;
  const Cell* cell = nullptr;  // for the reference: any cell of the unit
  bool reference = false;
};

class Runner {
 public:
  Runner(const std::vector<Cell>& cells, const Calibration& table, const GateOptions& o)
      : cells_(cells), table_(table), o_(o), today_(o.today.empty() ? today_utc() : o.today) {}

  GateOutcome run() {
    start_ = Clock::now();
    open_record();
    std::deque<Task> cpu, gpu;
    std::map<std::string, const Cell*> units;
    for (const Cell& c : cells_) {
      const Backend* twin = find_backend(c.feature, c.twin, o_.with_mutants);
      if (c.kind == CellKind::parity) {
        const Availability a = twin == nullptr ? Availability{false, "no such backend"} : twin->availability();
        if (!a.available) {
          CellResult r = base_result(c);
          r.status = CellStatus::not_supported;
          r.detail = a.reason;
          r.required = std::find(o_.require.begin(), o_.require.end(), c.twin) != o_.require.end() ||
                       (twin != nullptr && twin->gpu() && std::find(o_.require.begin(), o_.require.end(), "cuda") != o_.require.end());
          emit(std::move(r));
          continue;
        }
        (twin->gpu() ? gpu : cpu).push_back({twin, &c, false});
      }
      units_[c.unit()].cells.push_back(&c);
      units.emplace(c.unit(), &c);
    }
    const Backend* reference = nullptr;
    for (auto& [unit, cell] : units) {
      reference = find_backend(cell->feature, cell->reference);
      if (reference == nullptr) throw UsageError("reference", cell->reference, "no such reference backend");
      cpu.push_front({reference, cell, true});  // references first: they unblock judging
    }
    for (auto& [unit, state] : units_) state.pending = state.cells.size();
    planned_ = results_.size();  // not-supported cells, judged without running
    if (o_.progress)
      fmt::print(stderr, "gate: {} cells ({} not supported here): {} reference run(s) first, then {} CPU and {} GPU twin run(s)\n",
                 cells_.size(), planned_, units.size(), cpu.size() - units.size(), gpu.size());

    // Workers: at most one per CPU task (-j bounds them), one per device for GPU tasks. A thread
    // the system refuses stops the run with an error, never a std::terminate.
    std::mutex qmu, gmu;
    const auto stop = [&] { stop_ = true; };
    std::vector<std::thread> workers;
    if (!cpu.empty()) workers = start_workers(worker_count(o_.jobs, cpu.size()), [&] { drain(cpu, qmu, ExtractorContext{}); }, stop);
    const auto join_all = [&] {
      for (auto& w : workers)
        if (w.joinable()) w.join();
    };
    try {
      if (!gpu.empty())
        for (int device : o_.devices) {
          ExtractorContext ctx;
          ctx.device = device;
          for (std::thread& t : start_workers(1, [&, ctx] { drain(gpu, gmu, ctx); }, stop)) workers.push_back(std::move(t));
        }
      if (o_.cell_timeout_s > 0) watchdog_ = std::thread([&] { watch(); });
    } catch (...) {
      stop();
      join_all();
      throw;
    }
    join_all();
    finished_ = true;
    if (watchdog_.joinable()) watchdog_.join();
    if (o_.progress && isatty(2)) fmt::print(stderr, "\n");
    if (!fatal_.empty()) throw InputError(record_file(), "file", record_file(), fatal_);
    GateOutcome out;
    out.results = results_;
    out.interrupted_by = interrupt_signal();
    out.stopped_early = stopped_early_;
    if (out.interrupted_by || out.stopped_early)
      for (const Cell& c : cells_)
        if (!emitted_ids_.count(c.id)) {
          CellResult r = base_result(c);
          r.status = CellStatus::no_verdict;
          r.detail = out.interrupted_by
                         ? fmt::format("no verdict: the run was interrupted (signal {}) before this cell was judged", out.interrupted_by)
                         : fmt::format("no verdict: the run stopped after {} failing or erroring cell(s) (--max-failures {})",
                                       failures_, o_.max_failures);
          out.results.push_back(std::move(r));
        }
    out.exit_code = out.interrupted_by ? 128 + out.interrupted_by : exit_code_for(out.results);
    return out;
  }

 private:
  struct UnitState {
    std::vector<const Cell*> cells;
    std::optional<Outcome> ref;
    std::vector<std::pair<const Cell*, Outcome>> waiting;  // twins done before the reference
    std::size_t pending = 0;
  };

  void drain(std::deque<Task>& q, std::mutex& mu, ExtractorContext ctx) {
    for (;;) {
      Task t;
      {
        std::lock_guard lock(mu);
        if (q.empty() || stop_ || interrupt_signal()) return;
        t = q.front();
        q.pop_front();
      }
      const std::size_t slot = begin_task(t);
      Outcome o;
      try {
        o = run_backend(*t.backend, *t.cell, ctx, o_.cell_timeout_s);
      } catch (const Interrupted&) {
        end_task(slot);  // abandoned: its cells stay without a verdict
        return;
      }
      end_task(slot);
      finish(t, std::move(o));
    }
  }

  void finish(const Task& t, Outcome o) {
    std::vector<CellResult> ready;
    {
      std::lock_guard lock(mu_);
      UnitState& u = units_[t.cell->unit()];
      if (t.reference) {
        u.ref = std::move(o);
        for (auto& [cell, twin] : u.waiting) ready.push_back(judge_parity(*cell, *u.ref, twin, table_, today_));
        u.waiting.clear();
        for (const Cell* c : u.cells)
          if (c->kind == CellKind::regression) ready.push_back(judge_regression(*c, *u.ref));
      } else if (u.ref) {
        ready.push_back(judge_parity(*t.cell, *u.ref, o, table_, today_));
      } else {
        u.waiting.emplace_back(t.cell, std::move(o));
      }
      u.pending -= ready.size();
      if (u.pending == 0) u.ref.reset();  // every cell of the unit is judged
    }
    for (CellResult& r : ready) emit(std::move(r));
  }

  std::string record_file() const { return (o_.report_dir / "results.jsonl").string(); }

  void open_record() {
    if (o_.report_dir.empty()) return;
    ensure_directory(o_.report_dir, "--report-dir");
    std::string list;
    for (const Cell& c : cells_) list += c.id + "\n";
    write_file(o_.report_dir / "cells.txt", list, "the list of selected cells");
    record_.open(record_file(), std::ios::trunc);
    if (!record_) throw InputError(record_file(), "file", o_.report_dir.string(), "cannot write the results record");
  }

  // Appends a verdict the moment it is known, so that an interrupted run keeps it. A verdict
  // that cannot be written stops the run at once: a record that silently lost it would lie.
  void emit(CellResult r) {
    std::lock_guard lock(emit_mu_);
    if (!fatal_.empty()) return;
    if (record_.is_open()) {
      record_ << to_json(r).dump() << "\n";
      if (!record_.flush()) {
        fatal_ = fmt::format("cannot append the verdict of {} ({}): the run stopped", r.cell.id, std::strerror(errno));
        stop_ = true;
        return;
      }
    }
    emitted_ids_.insert(r.cell.id);
    results_.push_back(std::move(r));
    const CellResult& last = results_.back();
    failures_ += last.needs_attention();
    if (o_.max_failures > 0 && failures_ >= o_.max_failures && !stop_) {
      stopped_early_ = true;  // the cells running finish; no new one starts
      stop_ = true;
    }
    if (!o_.progress) return;
    const std::size_t done = results_.size(), total = cells_.size();
    const double elapsed = since(start_);
    // The rate of cells that ran (not the not-supported ones judged at once), once there is
    // enough of it to mean something.
    const std::size_t ran = done - std::min(done, planned_);
    const std::string left = ran >= 3 && elapsed >= 2 ? fmt::format("~{:.0f}s left", elapsed / ran * (total - done)) : "estimating";
    if (isatty(2)) {
      fmt::print(stderr, "\r[{}/{}] {} failing, {:.0f}s elapsed, {}   ", done, total, failures_, elapsed, left);
    } else {
      fmt::print("[{}/{}] {:<13} {} ({:.2f}s)\n", done, total, to_string(last.status), last.cell.id, last.seconds);
      std::fflush(stdout);
    }
  }

  // Tasks that hang inside a kernel cannot be interrupted: past twice the limit the watchdog
  // records every unfinished cell as timed out, renders the reports, and ends the process.
  std::size_t begin_task(const Task& t) {
    std::lock_guard lock(run_mu_);
    running_.push_back({t, Clock::now(), true});
    return running_.size() - 1;
  }
  void end_task(std::size_t slot) {
    std::lock_guard lock(run_mu_);
    running_[slot].active = false;
  }
  void watch() {
    const double grace = std::max(10.0, o_.cell_timeout_s);
    while (!finished_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      std::string stuck;
      {
        std::lock_guard lock(run_mu_);
        for (const Running& r : running_)
          if (r.active && since(r.since) > o_.cell_timeout_s + grace) stuck = r.task.cell->id;
      }
      if (stuck.empty()) continue;
      std::vector<CellResult> rest;
      {
        std::lock_guard lock(emit_mu_);
        for (const Cell& c : cells_)
          if (!emitted_ids_.count(c.id)) {
            CellResult r = base_result(c);
            r.status = CellStatus::timeout;
            r.detail = fmt::format("not finished: the run was stopped because {} hung past --cell-timeout {}s", stuck, o_.cell_timeout_s);
            rest.push_back(r);
          }
      }
      for (CellResult& r : rest) emit(std::move(r));
      if (!o_.report_dir.empty()) {
        std::lock_guard lock(emit_mu_);
        render_reports(o_.report_dir, results_, environment_fingerprint_cached());
      }
      fmt::print(stderr, "\ntwinproof: gate stopped: {} hung past --cell-timeout {}s\n", stuck, o_.cell_timeout_s);
      std::fflush(nullptr);
      std::_Exit(kExitError);
    }
  }
  static const json& environment_fingerprint_cached();

  struct Running {
    Task task;
    Clock::time_point since;
    bool active;
  };

  const std::vector<Cell>& cells_;
  const Calibration& table_;
  const GateOptions& o_;
  const std::string today_;
  Clock::time_point start_;
  std::mutex mu_, emit_mu_, run_mu_;
  std::map<std::string, UnitState> units_;
  std::ofstream record_;
  std::vector<CellResult> results_;
  std::set<std::string> emitted_ids_;
  std::size_t failures_ = 0;
  std::size_t planned_ = 0;  // verdicts known before any task ran
  std::deque<Running> running_;
  std::atomic<bool> finished_{false};
  std::atomic<bool> stop_{false};  // hand out no more tasks
  bool stopped_early_ = false;     // by --max-failures (guarded by emit_mu_)
  std::string fatal_;              // why the run stopped (guarded by emit_mu_)
  std::thread watchdog_;
};

const json& Runner::environment_fingerprint_cached() {
  static const json env = environment_fingerprint();
  return env;
}

}  // namespace

void check_waiver_reach(const Calibration& table, const std::vector<Cell>& matrix_cells) {
  // Each cell counts for the waiver that judges it (the first that matches), per twin.
  std::map<std::string, std::size_t> cells_of_twin;
  std::map<const Waiver*, std::map<std::string, std::size_t>> reach;
  for (const Cell& c : matrix_cells) {
    const std::string twin = c.feature + "/" + c.twin;
    ++cells_of_twin[twin];
    if (const auto ws = table.waivers_for(c.id); !ws.empty()) ++reach[ws.front()][twin];
  }
  for (const Waiver& w : table.waivers()) {
    const std::map<std::string, std::size_t>& matched_of_twin = reach[&w];
    std::size_t matched = 0;
    for (const auto& [twin, n] : matched_of_twin) matched += n;
    const std::string where = fmt::format("waivers[{}].cells", w.index);
    if (matched > w.max_cells)
      throw InputError(table.file().string(), where, w.cells,
                       fmt::format("matches {} cells of the matrix, more than its max_cells {}: waive named cells, or "
                                   "calibrate the twin",
                                   matched, w.max_cells));
    for (const auto& [twin, n] : matched_of_twin)
      if (n == cells_of_twin.at(twin))
        throw InputError(table.file().string(), where, w.cells,
                         fmt::format("matches every cell of {} in the matrix ({}): a whole twin is not waived, it is "
                                     "calibrated or fixed",
                                     twin, n));
  }
}

void check_required_backends(const std::vector<std::string>& names, bool with_mutants) {
  std::set<std::string> known = {"cuda"};  // the kind: every CUDA backend
  for (const Backend* b : backends(with_mutants)) known.emplace(b->name);
  for (const std::string& name : names)
    if (!known.count(name))
      throw UsageError("--require", name, fmt::format("--require '{}': no such backend (known: {})", name, fmt::join(known, ", ")));
}

GateOutcome run_gate(const std::vector<Cell>& cells, const Calibration& table, const GateOptions& options) {
  // The table must be able to judge every parity cell before anything runs (fails closed).
  for (const Cell& c : cells)
    if (c.kind == CellKind::parity && !table.has_twin(c.feature, c.reference, c.twin))
      throw InputError(table.file().string(), "rows", c.twin,
                       fmt::format("no calibration row for {} {} vs {} (cell {}): the table fails closed", c.feature,
                                   c.twin, c.reference, c.id));
  if (!options.today.empty() && !is_calendar_date(options.today))
    throw UsageError("--today", options.today, fmt::format("--today '{}': expected a real date written YYYY-MM-DD", options.today));
  check_required_backends(options.require, options.with_mutants);
  Runner runner(cells, table, options);
  return runner.run();
}

}  // namespace twinproof
