#include "harness/gate/gate.hpp"

#include <chrono>
#include <cstdio>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "extractors/devices.hpp"
#include "harness/gate/plan.hpp"
#include "harness/gate/record.hpp"
#include "harness/gate/watchdog.hpp"
#include "harness/report/render.hpp"
#include "harness/support/environment.hpp"
#include "harness/support/errors.hpp"
#include "harness/support/faults.hpp"
#include "harness/support/interrupt.hpp"
#include "harness/support/parallel.hpp"
#include "harness/support/paths.hpp"
#include "harness/vectors/vectors.hpp"

namespace twinproof {
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

}  // namespace

Outcome run_backend(const Backend& b, const Cell& cell, const ExtractorContext& ctx, double timeout_s) {
  Outcome o;
  const auto t0 = Clock::now();
  if (b.gpu()) {
    const DeviceDescription* d = host_device(ctx.device);
    o.device =
        d ? fmt::format("cuda:{} {} ({})", d->ordinal, d->name, d->compute_capability) : fmt::format("cuda:{}", ctx.device);
    o.compute_capability = d ? d->compute_capability : std::string();
  }
  std::unique_ptr<Extractor> ex;
  try {
    const Manifest& m = Manifest::project();
    const auto opening = Clock::now();
    ClipPair clips = open_pair(cell.vector, cell.bitdepth, cell.chroma, m);
    o.input_seconds = since(opening);
    ExtractorContext limited = ctx;
    if (timeout_s > 0)
      limited.deadline = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
    ex = make_extractor(b, limited);
    RunOptions run;
    run.after_frame = [&](unsigned frame, const Extractor&) {
      if (const int sig = interrupt_signal()) throw Interrupted{sig};
      if (timeout_s > 0 && since(t0) > timeout_s)
        throw TimeoutError(fmt::format("exceeded --cell-timeout {}s at frame {}", timeout_s, frame));
    };
    o.table = run_extractor(*ex, clips, cell.options, run);
    // Scores that came after the limit (an outside program's, a plugin's flush) are no pass.
    if (timeout_s > 0 && since(t0) > timeout_s)
      throw TimeoutError(fmt::format("exceeded --cell-timeout {}s ({:.1f}s)", timeout_s, since(t0)));
    o.judged_metrics = ex->judged_metrics();
    o.kind = Outcome::Kind::scores;
  } catch (const Interrupted&) {
    throw;  // the cell has no verdict; the runner stops
  } catch (...) {
    const Fault f = classify_fault(std::current_exception());
    switch (f.kind) {
      case FaultKind::refused: o.kind = Outcome::Kind::refused; break;
      case FaultKind::timeout: o.kind = Outcome::Kind::timeout; break;
      case FaultKind::tool: o.kind = Outcome::Kind::tool_failed; break;  // tool_error: an error
      case FaultKind::unavailable: o.kind = Outcome::Kind::not_supported; break;
      default: o.kind = Outcome::Kind::error; break;
    }
    o.message = f.text();
  }
  if (ex) o.provenance = ex->provenance();
  o.seconds = since(t0);
  return o;
}

Outcome run_backend_repeated(const Backend& b, const Cell& cell, const ExtractorContext& ctx, double timeout_s, unsigned repeat,
                             unsigned concurrent) {
  repeat = std::max(1u, repeat);
  concurrent = std::max(1u, concurrent);
  std::optional<Outcome> first;
  const auto kind_name = [](Outcome::Kind k) {
    switch (k) {
      case Outcome::Kind::scores: return "scored";
      case Outcome::Kind::refused: return "refused";
      case Outcome::Kind::error: return "failed";
      case Outcome::Kind::timeout: return "timed out";
      case Outcome::Kind::tool_failed: return "exited non-zero";
      case Outcome::Kind::not_supported: return "was not supported";
    }
    return "?";
  };
  for (unsigned rep = 0; rep < repeat; ++rep) {
    std::vector<Outcome> runs(concurrent);
    if (concurrent == 1) {
      runs[0] = run_backend(b, cell, ctx, timeout_s);
    } else {
      std::vector<std::thread> threads;
      std::exception_ptr fault;
      std::mutex fault_mu;
      for (unsigned k = 0; k < concurrent; ++k)
        threads.emplace_back([&, k] {
          try {
            runs[k] = run_backend(b, cell, ctx, timeout_s);
          } catch (...) {  // an interrupt: rethrown once every instance has stopped
            std::lock_guard lock(fault_mu);
            if (!fault) fault = std::current_exception();
          }
        });
      for (std::thread& t : threads) t.join();
      if (fault) std::rethrow_exception(fault);
    }
    for (unsigned k = 0; k < concurrent; ++k) {
      if (!first) {
        first = std::move(runs[k]);
        continue;
      }
      const Outcome& o = runs[k];
      const std::string which = fmt::format("run {} (repetition {} of {}, instance {} of {})", rep * concurrent + k + 1, rep + 1,
                                            repeat, k + 1, concurrent);
      if (o.kind != first->kind) {
        first->nondeterminism =
            fmt::format("{} {} where run 1 {}: {}", which, kind_name(o.kind), kind_name(first->kind), o.message);
        return *first;
      }
      if (o.kind != Outcome::Kind::scores) continue;
      const TableComparison cmp = compare_tables(first->table, o.table, Tolerance::exact());
      if (!cmp.pass) {
        first->nondeterminism = fmt::format("{} differs from run 1: {}", which, cmp.first ? describe(*cmp.first) : cmp.summary());
        return *first;
      }
    }
  }
  return *first;
}

namespace {

// The runner wires workers to the plan, the judge, the recorder and the watchdog: CPU workers
// (at most one per CPU task, -j bounds them) and --gpu-workers per listed device for GPU tasks.
class Runner {
 public:
  Runner(const std::vector<Cell>& cells, const Calibration& table, const GateOptions& o)
      : cells_(cells),
        o_(o),
        judge_(table, o.today.empty() ? today_utc() : o.today),
        recorder_(cells, {o.report_dir, o.progress, o.max_failures}) {}

  GateOutcome run() {
    const auto t0 = Clock::now();
    GatePlan plan = plan_gate(cells_, o_.require, o_.with_mutants);
    for (const Cell* c : plan.judged_after_reference) judge_.expect(*c);
    const std::size_t unsupported = plan.not_supported.size();
    recorder_.record_planned(std::move(plan.not_supported));
    if (o_.progress)
      // Only what is known before anything runs: a cell can still turn out not supported (its
      // twin refuses the format, an outside program is absent), which the closing count shows.
      fmt::print(stderr,
                 "gate: {} cells, {} known not supported before running: {} reference run(s) first, then {} CPU and {} GPU twin "
                 "run(s)\n",
                 cells_.size(), unsupported, plan.reference_runs, plan.cpu.size() - plan.reference_runs, plan.gpu.size());

    // A log without a terminal (CI) hears from a run whose cells take long: what runs, how long.
    HangWatchdog::Heartbeat heartbeat;
    if (o_.progress)
      heartbeat = {o_.heartbeat_s, [&](const std::string& longest, double seconds, std::size_t running) {
                     recorder_.print_heartbeat(longest, seconds, running);
                   }};
    HangWatchdog watchdog(
        o_.cell_timeout_s, [&](const std::string& stuck) { abandon_hung_run(stuck); }, -1, std::move(heartbeat));
    // A thread the system refuses stops the run with an error, never a std::terminate.
    std::mutex cpu_mu, gpu_mu;
    const auto stop = [&] { recorder_.request_stop(); };
    WorkerFault fault;
    std::vector<std::thread> workers;
    const auto join_all = [&] {
      for (auto& w : workers)
        if (w.joinable()) w.join();
    };
    try {
      if (!plan.cpu.empty()) {
        times_.cpu_workers = worker_count(o_.jobs, plan.cpu.size());
        workers = start_workers(
            times_.cpu_workers, [&](unsigned) { drain(plan.cpu, cpu_mu, ExtractorContext{}, watchdog); }, stop, fault, "--jobs");
      }
      if (!plan.gpu.empty())
        for (int device : o_.devices) {
          ExtractorContext ctx;
          ctx.device = device;
          const unsigned n = static_cast<unsigned>(std::min<std::size_t>(std::max(1u, o_.gpu_workers), plan.gpu.size()));
          times_.gpu_workers += n;
          for (std::thread& t : start_workers(
                   n, [&, ctx](unsigned) { drain(plan.gpu, gpu_mu, ctx, watchdog); }, stop, fault, "--gpu-workers"))
            workers.push_back(std::move(t));
        }
    } catch (...) {
      stop();
      join_all();
      throw;
    }
    join_all();
    recorder_.end_progress();
    fault.rethrow_if_kept();  // a worker that faulted left cells without a verdict: the run is an error
    if (const std::string fatal = recorder_.fatal(); !fatal.empty())
      throw InputError(recorder_.record_file(), "file", recorder_.record_file(), fatal);
    GateOutcome out = outcome();
    out.times = times_;
    out.times.wall_s = since(t0);
    return out;
  }

 private:
  void drain(std::deque<GateTask>& q, std::mutex& mu, ExtractorContext ctx, HangWatchdog& watchdog) {
    for (;;) {
      GateTask t;
      {
        std::lock_guard lock(mu);
        if (q.empty() || recorder_.stop_requested() || interrupt_signal()) return;
        t = q.front();
        q.pop_front();
      }
      const std::size_t slot = watchdog.begin(t.reference ? t.cell->unit() + " (reference)" : t.cell->id);
      Outcome o;
      try {
        o = t.reference ? run_backend(*t.backend, *t.cell, ctx, o_.cell_timeout_s)
                        : run_backend_repeated(*t.backend, *t.cell, ctx, o_.cell_timeout_s, o_.repeat, o_.concurrent);
      } catch (const Interrupted&) {
        watchdog.end(slot);  // abandoned: its cells stay without a verdict
        return;
      }
      watchdog.end(slot);
      std::vector<CellResult> ready;
      {
        std::lock_guard lock(judge_mu_);
        account(t, o);
        ready = t.reference ? judge_.reference_done(t.cell->unit(), std::move(o)) : judge_.twin_done(*t.cell, std::move(o));
      }
      for (CellResult& r : ready) {
        if (r.status == CellStatus::not_supported)
          r.required = is_required(o_.require, r.cell, find_backend(r.cell.feature, r.cell.twin, o_.with_mutants));
        recorder_.record(std::move(r));
      }
    }
  }

  // Under judge_mu_.
  void account(const GateTask& t, const Outcome& o) {
    times_.input_s += o.input_seconds;
    if (t.reference) {
      times_.reference_s += o.seconds;
      ++times_.reference_runs;
    } else if (t.backend->gpu()) {
      times_.gpu_twin_s += o.seconds;
      ++times_.gpu_twin_runs;
    } else {
      times_.cpu_twin_s += o.seconds;
      ++times_.cpu_twin_runs;
    }
  }

  GateOutcome outcome() const {
    GateOutcome out;
    out.results = recorder_.results();
    out.interrupted_by = interrupt_signal();
    out.stopped_early = recorder_.stopped_early();
    if (out.interrupted_by || out.stopped_early) {
      const std::string why =
          out.interrupted_by
              ? fmt::format("no verdict: the run was interrupted (signal {}) before this cell was judged", out.interrupted_by)
              : fmt::format("no verdict: the run stopped after {} failing or erroring cell(s) (--max-failures {})",
                            recorder_.failures(), o_.max_failures);
      for (CellResult& r : recorder_.without_verdict(CellStatus::no_verdict, why)) out.results.push_back(std::move(r));
    }
    out.exit_code = out.interrupted_by ? 128 + out.interrupted_by : exit_code_for(out.results);
    return out;
  }

  // A task hung past twice its limit and will not come back: every cell without a verdict is
  // recorded as timed out, the reports are rendered from what is known, and the process ends.
  [[noreturn]] void abandon_hung_run(const std::string& stuck) {
    recorder_.request_stop();
    for (CellResult& r : recorder_.without_verdict(
             CellStatus::timeout,
             fmt::format("not finished: the run was stopped because {} hung past --cell-timeout {}s", stuck, o_.cell_timeout_s)))
      recorder_.record(std::move(r));
    if (!o_.report_dir.empty()) render_reports(o_.report_dir, recorder_.results(), environment_fingerprint());
    fmt::print(stderr, "\ntwinproof: gate stopped: {} hung past --cell-timeout {}s\n", stuck, o_.cell_timeout_s);
    std::fflush(nullptr);
    std::_Exit(kExitError);
  }

  const std::vector<Cell>& cells_;
  const GateOptions& o_;
  std::mutex judge_mu_;
  UnitJudge judge_;
  GateRecorder recorder_;
  GateTimes times_;  // under judge_mu_ while workers run
};

}  // namespace

std::string describe(const GateTimes& t) {
  return fmt::format(
      "{:.1f} s wall, {} CPU and {} GPU worker(s); busy: {} reference run(s) {:.1f} s, {} CPU twin run(s) {:.1f} s, "
      "{} GPU twin run(s) {:.1f} s; of these, opening inputs (vector variants made or read) {:.1f} s",
      t.wall_s, t.cpu_workers, t.gpu_workers, t.reference_runs, t.reference_s, t.cpu_twin_runs, t.cpu_twin_s, t.gpu_twin_runs,
      t.gpu_twin_s, t.input_s);
}

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
      throw UsageError("--require", name,
                       fmt::format("--require '{}': no such backend (known: {})", name, fmt::join(known, ", ")));
}

GateOutcome run_gate(const std::vector<Cell>& cells, const Calibration& table, const GateOptions& options) {
  // The table must be able to judge every parity cell before anything runs (fails closed).
  for (const Cell& c : cells)
    if (c.kind == CellKind::parity && !table.has_twin(c.feature, c.reference, c.twin))
      throw InputError(table.file().string(), "rows", c.twin,
                       fmt::format("no calibration row for {} {} vs {} (cell {}): the table fails closed", c.feature, c.twin,
                                   c.reference, c.id));
  if (!options.today.empty() && !is_calendar_date(options.today))
    throw UsageError("--today", options.today,
                     fmt::format("--today '{}': expected a real date written YYYY-MM-DD", options.today));
  check_required_backends(options.require, options.with_mutants);
  Runner runner(cells, table, options);
  return runner.run();
}

}  // namespace twinproof
