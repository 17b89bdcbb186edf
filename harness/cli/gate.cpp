// twinproof gate | merge | report: the harness's main job and its shard plumbing.
#include <algorithm>
#include <chrono>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include "extractors/devices.hpp"
#include "harness/cli/commands.hpp"
#include "harness/gate/calibrate.hpp"
#include "harness/gate/gate.hpp"
#include "harness/report/render.hpp"
#include "harness/support/environment.hpp"
#include "harness/support/errors.hpp"
#include "harness/support/interrupt.hpp"
#include "harness/support/json_file.hpp"
#include "harness/support/paths.hpp"

namespace twinproof::cli {
namespace fs = std::filesystem;

namespace {

struct GateArgs {
  std::optional<std::string> matrix;  // set from matrix_text when --matrix was given
  std::string matrix_text, calibration, baseline, report_dir = "twinproof-gate", shard, devices, today, ctest_script;
  std::vector<std::string> filters, require;
  bool list = false, allow_loosen = false, with_mutants = false, quiet = false, allow_empty = false;
  unsigned jobs = 0, gpu_workers = GateOptions{}.gpu_workers;
  std::size_t max_failures = 0;
  unsigned repeat = 1, concurrent = 1;
  double cell_timeout = 0;
  double heartbeat = GateOptions{}.heartbeat_s;
};

fs::path default_matrix() { return data_root() / "ci" / "matrices" / "gate.json"; }

// --matrix: a file, or the bare name of a shipped matrix ("exec" is ci/matrices/exec.json wherever
// the data is: the source tree or an installed share/twinproof); absent: gate.json. An empty
// value is refused rather than taken for the default.
fs::path resolve_matrix(const std::optional<std::string>& given) {
  if (!given) return default_matrix();
  if (given->empty())
    throw UsageError("--matrix", "\"\"", "--matrix is empty: name a matrix file or a shipped matrix (e.g. gate)");
  const fs::path path(*given);
  std::error_code ec;
  // A file of that name wins; a folder of that name (a report folder called "gate") does not.
  if (fs::is_regular_file(path, ec) || given->find('/') != std::string::npos || path.extension() == ".json") return path;
  const fs::path shipped = data_root() / "ci" / "matrices" / (*given + ".json");
  if (fs::exists(shipped, ec)) return shipped;
  std::string names;
  for (const auto& e : fs::directory_iterator(data_root() / "ci" / "matrices", ec))
    if (e.path().extension() == ".json") names += (names.empty() ? "" : ", ") + e.path().stem().string();
  throw UsageError("--matrix", *given,
                   fmt::format("--matrix '{}' is neither a file nor a shipped matrix (shipped: {})", *given, names));
}
fs::path default_calibration() { return data_root() / "ci" / "calibration.json"; }

// Under `ctest --resource-spec-file`, CTest hands each test its GPU as
// CTEST_RESOURCE_GROUP_0_GPUS="id:N,slots:1".
std::optional<int> ctest_device() {
  const char* spec = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS");
  if (spec == nullptr) return std::nullopt;
  const std::string s = spec;
  const auto id = s.find("id:");
  if (id == std::string::npos) return std::nullopt;
  try {
    return std::stoi(s.substr(id + 3));
  } catch (const std::exception&) {
    throw UsageError("CTEST_RESOURCE_GROUP_0_GPUS", s, "CTEST_RESOURCE_GROUP_0_GPUS: expected id:N,slots:M");
  }
}

std::vector<int> parse_devices(const std::string& s) {
  std::vector<int> out;
  if (s.empty()) {
    out.push_back(ctest_device().value_or(0));
    return out;
  }
  if (s == "all") {
    for (const DeviceDescription& d : cuda_devices()) out.push_back(d.ordinal);
    if (out.empty()) out.push_back(0);  // GPU cells then report themselves not supported
    return out;
  }
  for (const std::string& part : split_list(s)) {
    if (part.size() > 4 || part.find_first_not_of("0123456789") != std::string::npos)
      throw UsageError("--devices", s, fmt::format("--devices '{}': expected all or a list of ordinals like 0,1", s));
    out.push_back(std::stoi(part));
  }
  if (out.empty()) throw UsageError("--devices", s, "--devices: no device named");
  return out;
}

std::optional<Shard> effective_shard(const std::string& shard) {
  return shard.empty() ? shard_from_environment() : std::optional<Shard>(parse_shard(shard));
}

std::vector<Cell> select_cells(const Matrix& m, const std::vector<std::string>& filters, const std::optional<Shard>& shard) {
  std::vector<Cell> cells = filter_cells(m.cells, filters);
  if (shard) cells = take_shard(cells, *shard);
  return cells;
}

// What a run selected, kept in its report folder (selection.json) beside the list of its cells, so
// that `merge` need not be told the matrix and filters again and `report` knows how many cells the
// list must hold.
constexpr const char* kSelectionFile = "selection.json";

void write_selection(const fs::path& dir, const Matrix& m, const std::vector<std::string>& filters,
                     const std::optional<Shard>& shard, std::size_t cells) {
  const nlohmann::json j = {
      {"schema_version", 1},
      {"matrix", fs::absolute(m.file).lexically_normal().string()},
      {"matrix_name", m.name},
      {"filters", filters},
      {"shard", shard ? nlohmann::json(fmt::format("{}/{}", shard->index, shard->count)) : nlohmann::json()},
      {"cells", cells}};
  write_file(dir / kSelectionFile, json_text(j, 1) + "\n", "the run's selection", OutputOwner::twinproof);
}

struct Selection {
  std::string matrix, matrix_name;
  std::vector<std::string> filters;
  std::size_t cells = 0;
};

// A folder's selection.json, or nothing when the folder has none (a run killed before it began).
std::optional<Selection> read_selection(const fs::path& dir) {
  const fs::path file = dir / kSelectionFile;
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(file, ec))) return std::nullopt;
  const nlohmann::json j = read_json_file(file, "a run's selection");
  return walking_json_file(file.string(), [&] {
    reject_unknown_keys(j, {"schema_version", "matrix", "matrix_name", "filters", "shard", "cells"}, file.string(), "");
    Selection s;
    s.matrix = j.at("matrix").get<std::string>();
    s.matrix_name = j.at("matrix_name").get<std::string>();
    s.filters = j.at("filters").get<std::vector<std::string>>();
    s.cells = json_integer<std::size_t>(j.at("cells"), "cells");
    return s;
  });
}

// A CMake bracket argument holding `s` whatever it contains: [=[...]=] with as many '=' as keep
// its closing bracket out of `s` (a path may hold "]=]").
std::string cmake_bracket(const std::string& s) {
  std::string eq = "=";
  while (s.find("]" + eq + "]") != std::string::npos) eq += "=";
  return "[" + eq + "[" + s + "]" + eq + "]";
}

// CTest's view of the gate: one test per feature, twin and vector, written as a script that CTest
// includes (TEST_INCLUDE_FILES), regenerated whenever the binary, a matrix or a golden changes.
// A device twin's test asks for one GPU and is skipped when no cell could run; the label comes
// from the backend's kind, never from its name.
int write_ctest_script(const Matrix& m, const std::vector<Cell>& cells, const fs::path& file) {
  const fs::path self = fs::canonical("/proc/self/exe");
  const fs::path reports = fs::absolute(file).parent_path() / "gate";
  std::set<std::string> groups;
  std::string script = fmt::format("# Generated by `twinproof gate --ctest-script` from {}: do not edit.\n", m.file.string());
  for (const Cell& c : cells) {
    const std::string group = fmt::format("{}/{}/{}", c.feature, c.twin, c.vector);
    if (!groups.insert(group).second) continue;
    const Backend* b = find_backend(c.feature, c.twin);
    const std::string name = "gate/" + group;
    script += fmt::format("add_test({} {} gate --quiet --matrix {} --filter {} --report-dir {})\n", cmake_bracket(name),
                          cmake_bracket(self.string()), cmake_bracket(fs::absolute(m.file).string()), cmake_bracket(group + "/*"),
                          cmake_bracket((reports / group).string()));
    if (b != nullptr && b->gpu())
      script += fmt::format(
          "set_tests_properties({} PROPERTIES LABELS \"gate;gpu\" RESOURCE_GROUPS \"gpus:1\" TIMEOUT 1200 "
          "SKIP_REGULAR_EXPRESSION \"no cell ran: every selected backend is unavailable\")\n",
          cmake_bracket(name));
    else script += fmt::format("set_tests_properties({} PROPERTIES LABELS \"gate\" TIMEOUT 1200)\n", cmake_bracket(name));
  }
  write_file(file, script, "the CTest script");
  fmt::print("{}: {} gate tests from {} cells\n", file.string(), groups.size(), cells.size());
  return kExitPass;
}

// The calibration table's loosenings (against --baseline when given): refused without
// --allow-loosen, else notes the run reports.
std::vector<std::string> loosening_notes(const GateArgs& a, const Calibration& table) {
  std::optional<Calibration> baseline;
  if (!a.baseline.empty()) baseline = Calibration::load(a.baseline);
  std::vector<std::string> notes;
  for (const Loosening& l : table.loosenings(baseline ? &*baseline : nullptr)) {
    const std::string text =
        fmt::format("calibration loosened: {} (was {}, {}); reason: {}", l.row->describe(), l.from, l.where, l.row->reason);
    if (!a.allow_loosen)
      throw InputError(table.file().string(), fmt::format("rows[{}]", l.row->index), l.row->tolerance.describe(),
                       text + "; pass --allow-loosen to accept it (the run will report it)");
    notes.push_back(text);
  }
  return notes;
}

GateOptions gate_options(const GateArgs& a) {
  GateOptions o;
  o.jobs = a.jobs;
  o.devices = parse_devices(a.devices);
  o.require = a.require;
  o.with_mutants = a.with_mutants;
  o.cell_timeout_s = a.cell_timeout;
  o.today = a.today;
  o.report_dir = a.report_dir;
  o.progress = !a.quiet;
  o.max_failures = a.max_failures;
  o.repeat = a.repeat;
  o.concurrent = a.concurrent;
  o.gpu_workers = a.gpu_workers;
  o.heartbeat_s = a.heartbeat;
  return o;
}

// Before any cell runs, a report folder holds an empty record, the selection, and reports that
// say this run has not finished: an earlier run's reports must not outlive its start (if this
// run is killed, by SIGKILL or a plugin that ends the process, they would say PASS beside this
// run's record).
void start_report_folder(const GateArgs& a, const Matrix& m, const std::optional<Shard>& shard, const std::vector<Cell>& cells) {
  const fs::path dir = a.report_dir;
  write_file(dir / "results.jsonl", "", "the results record",
             OutputOwner::twinproof);  // first: no earlier verdict may be read as this run's
  write_selection(dir, m, a.filters, shard, cells.size());
  std::vector<CellResult> pending;
  for (const Cell& c : cells) pending.push_back(no_verdict(c.id, "no verdict yet: the run writing this folder has not finished"));
  const nlohmann::json started = environment_fingerprint();
  render_reports(
      a.report_dir, pending, started,
      {fmt::format("INCOMPLETE: the run started at {} (pid {}) has not finished writing this folder; if it is no longer "
                   "running, it was killed: `twinproof report {}` renders what it recorded",
                   started.value("time", "?"), ::getpid(), a.report_dir)});
}

// The run's closing lines: the counts, the time, the failures, the verdict.
void print_gate_end(const GateArgs& a, const Matrix& m, const GateOutcome& out, const RunTally& tally, double report_s) {
  fmt::print("gate: matrix {}: {}{}\n", m.name, tally.counts_text(),
             out.interrupted_by  ? " (INCOMPLETE)"
             : out.stopped_early ? fmt::format(" (--max-failures {})", a.max_failures)
                                 : "");
  fmt::print("gate: time: {}; reports {:.1f} s\n", describe(out.times), report_s);
  if (tally.judged_nothing && tally.total > 0) fmt::print("gate: no cell ran: every selected backend is unavailable\n");
  fmt::print("{}", failure_recap(out.results));
  if (!a.report_dir.empty()) fmt::print("reports: {}/summary.md, junit.xml, report.html, summary.json\n", a.report_dir);
  fmt::print("{}: {}\n", tally.verdict, tally.junit_text());
  if (!out.interrupted_by && tally.judged_nothing && !a.allow_empty)
    fmt::print(stderr,
               "twinproof: error: the gate judged no cell (every selected one is not supported here); "
               "pass --allow-empty if that is expected\n");
}

int run_gate_command(const GateArgs& a) {
  // Ctrl-C or SIGTERM: the cells running finish (or stop between frames), the rest get no
  // verdict, and the reports below say INCOMPLETE. Installed first, so that a stop while the
  // matrix and the table load (seconds for a large matrix in a sanitizer build) is a stop too.
  install_interrupt_handlers();
  const Matrix m = load_matrix(resolve_matrix(a.matrix));
  const std::optional<Shard> shard = effective_shard(a.shard);
  const std::vector<Cell> cells = select_cells(m, a.filters, shard);
  if (cells.empty() && !a.allow_empty)
    throw UsageError(
        "--filter", fmt::format("{} filter(s)", a.filters.size()),
        fmt::format("no cell of {} is selected (filters: {}); pass --allow-empty if that is expected", m.file.string(),
                    a.filters.empty() ? std::string("none") : fmt::format("{}", fmt::join(a.filters, " "))));
  if (!a.ctest_script.empty()) return write_ctest_script(m, cells, a.ctest_script);
  if (a.list) {
    for (const Cell& c : cells) fmt::print("{}\n", c.id);
    return interrupt_signal() != 0 ? 128 + interrupt_signal() : kExitPass;  // a stop asked for while listing
  }
  const Calibration table = Calibration::load(a.calibration.empty() ? default_calibration() : fs::path(a.calibration));
  check_waiver_reach(table, m.cells);
  std::vector<std::string> notes = loosening_notes(a, table);
  const GateOptions o = gate_options(a);
  // One run per report folder at a time: a second one would tear the first one's record.
  std::optional<FolderLock> lock;
  if (!a.report_dir.empty()) {
    lock.emplace(a.report_dir, "--report-dir");
    start_report_folder(a, m, shard, cells);
  }
  for (const std::string& n : notes) fmt::print(stderr, "twinproof: {}\n", n);
  const GateOutcome out = run_gate(cells, table, o);
  const nlohmann::json env = environment_fingerprint();
  // One tally for the process and every report: its counts, verdict and exit code.
  const RunEnd end{.interrupted_by = out.interrupted_by, .allow_empty = a.allow_empty, .selection_unknown = {}};
  const RunTally tally = tally_run(out.results, end);
  const std::size_t unjudged = tally.of(Tally::no_verdict);
  if (out.interrupted_by)
    notes.push_back(
        fmt::format("INCOMPLETE: interrupted by signal {}; {} selected cell(s) have no verdict", out.interrupted_by, unjudged));
  if (out.stopped_early)
    notes.push_back(
        fmt::format("stopped early: --max-failures {} was reached; {} selected cell(s) were not run and have no verdict",
                    a.max_failures, unjudged));
  const auto rendering = std::chrono::steady_clock::now();
  if (!a.report_dir.empty()) render_reports(a.report_dir, out.results, env, notes, end);
  const double report_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - rendering).count();
  print_gate_end(a, m, out, tally, report_s);
  return tally.exit_code;
}

struct MergeArgs {
  std::optional<std::string> matrix;  // given on the command line, else recorded
  std::optional<std::vector<std::string>> filters;
  std::string matrix_text, out = "twinproof-gate-merged";
  std::vector<std::string> filter_list;
  std::vector<std::string> shards;
};

// The matrix and filters of a merge: as given, else as the shards recorded them in selection.json
// (every shard alike: shards of one run). Given ones must agree with what a shard recorded.
std::pair<Matrix, std::vector<std::string>> merged_selection(const MergeArgs& a) {
  std::optional<Matrix> m;
  if (a.matrix) m = load_matrix(resolve_matrix(a.matrix));
  std::optional<std::vector<std::string>> filters = a.filters;
  std::optional<std::string> recorded_from;  // the first shard with a selection
  for (const std::string& dir : a.shards) {
    const std::optional<Selection> sel = read_selection(dir);
    if (!sel) continue;  // a folder from before selection.json: the command line says
    const std::string file = (fs::path(dir) / kSelectionFile).string();
    if (!m) {
      std::error_code ec;
      if (!fs::exists(sel->matrix, ec))
        throw InputError(file, "matrix", sel->matrix, "the shard ran a matrix that is not on this machine: pass --matrix");
      m = load_matrix(sel->matrix);
    } else if (sel->matrix_name != m->name) {
      throw InputError(file, "matrix_name", sel->matrix_name,
                       fmt::format("the shard ran another matrix than {} ({})", m->file.string(), m->name));
    }
    if (!filters) {
      filters = sel->filters;
      recorded_from = dir;
    } else if (*filters != sel->filters) {
      throw InputError(
          file, "filters", fmt::format("{}", fmt::join(sel->filters, " ")),
          fmt::format("the shard ran other filters than {} ({})", recorded_from ? *recorded_from : std::string("--filter"),
                      filters->empty() ? std::string("none") : fmt::format("{}", fmt::join(*filters, " "))));
    }
  }
  if (!m) m = load_matrix(default_matrix());
  return {std::move(*m), filters.value_or(std::vector<std::string>{})};
}

int run_merge(const MergeArgs& a) {
  // The merged folder gets its own record and reports; writing them into a shard would leave
  // that shard's record and its reports disagreeing.
  for (const std::string& dir : a.shards) {
    std::error_code ec;
    if (fs::exists(a.out, ec) && fs::equivalent(a.out, dir, ec))
      throw UsageError("--out", a.out, fmt::format("--out '{}' is one of the shards: merge into a folder of its own", a.out));
  }
  const auto [m, filters] = merged_selection(a);
  std::set<std::string> expected;
  for (const Cell& c : filter_cells(m.cells, filters)) expected.insert(c.id);
  std::vector<CellResult> merged;
  std::map<std::string, std::string> seen;  // id -> shard folder
  std::vector<std::string> notes;
  for (const std::string& dir : a.shards) {
    std::size_t truncated = 0;
    for (CellResult& r : read_results(fs::path(dir) / "results.jsonl", &truncated)) {
      if (const auto it = seen.find(r.cell.id); it != seen.end())
        throw InputError(dir, "cell", r.cell.id, fmt::format("duplicated: also in {}", it->second));
      if (!expected.count(r.cell.id)) throw InputError(dir, "cell", r.cell.id, "not a cell of the matrix with these filters");
      seen.emplace(r.cell.id, dir);
      merged.push_back(std::move(r));
    }
    if (truncated) notes.push_back(fmt::format("{}: {} truncated record line(s) skipped", dir, truncated));
  }
  std::vector<std::string> missing;
  for (const std::string& id : expected)
    if (!seen.count(id)) missing.push_back(id);
  if (!missing.empty())
    throw InputError(
        fmt::format("{}", fmt::join(a.shards, ", ")), "cells", fmt::format("{} missing", missing.size()),
        fmt::format("no shard holds a verdict for {} cell(s) of the matrix; first missing: {}", missing.size(), missing.front()));
  notes.push_back(fmt::format("merged {} shard(s), {} cells", a.shards.size(), merged.size()));
  const FolderLock lock(a.out, "--out");
  std::string record;
  for (const CellResult& r : merged) record += json_text(to_json(r)) + "\n";
  write_file(fs::path(a.out) / "results.jsonl", record, "the merged results record", OutputOwner::twinproof);
  std::string list;
  for (const std::string& id : expected) list += id + "\n";
  write_file(fs::path(a.out) / "cells.txt", list, "the list of the merged cells", OutputOwner::twinproof);
  write_selection(a.out, m, filters, std::nullopt, expected.size());
  render_reports(a.out, merged, environment_fingerprint(), notes);
  const RunTally tally = tally_run(merged);
  fmt::print("merged {} from {} shard(s) into {}\n{}{}: {}\n", tally.counts_text(), a.shards.size(), a.out, failure_recap(merged),
             tally.verdict, tally.junit_text());
  return tally.exit_code;
}

int run_report(const std::string& dir) {
  const FolderLock lock(dir, "report folder");
  std::size_t truncated = 0;
  const fs::path record = fs::path(dir) / "results.jsonl";
  const std::vector<CellResult> results = read_results(record, &truncated);
  std::vector<std::string> notes;
  if (truncated) notes.push_back(fmt::format("{} truncated record line(s) skipped (interrupted run)", truncated));
  if (results.empty()) throw InputError(record.string(), "records", "0", "holds no verdict: nothing to report");
  // The cells the run selected: cells.txt, checked against the count selection.json recorded. A
  // list that is absent, short or missing a recorded cell cannot say the run is complete.
  const fs::path list_file = fs::path(dir) / "cells.txt";
  std::error_code ec;
  const std::string list =
      fs::exists(fs::symlink_status(list_file, ec)) ? read_text_file(list_file, "the list of selected cells") : "";
  std::set<std::string> listed;
  for (std::size_t at = 0; at < list.size();) {
    const std::size_t end = std::min(list.find('\n', at), list.size());
    if (end > at) listed.insert(list.substr(at, end - at));
    at = end + 1;
  }
  std::set<std::string> done;
  for (const CellResult& r : results) done.insert(r.cell.id);
  RunEnd end;
  const std::optional<Selection> selection = read_selection(dir);
  std::vector<std::string> unlisted;
  for (const std::string& id : done)
    if (!listed.count(id)) unlisted.push_back(id);
  if (!selection)
    end.selection_unknown = fmt::format("{} records no selection: the run that wrote it did not start properly", kSelectionFile);
  else if (listed.size() != selection->cells)
    end.selection_unknown = fmt::format("cells.txt lists {} cell(s) where the run selected {}", listed.size(), selection->cells);
  else if (!unlisted.empty())
    end.selection_unknown =
        fmt::format("{} recorded cell(s) are not in cells.txt (first: {})", unlisted.size(), unlisted.front());
  if (!end.selection_unknown.empty())
    notes.push_back(fmt::format("INCOMPLETE: which cells the run selected is not known ({}); the record cannot show it complete",
                                end.selection_unknown));
  std::vector<CellResult> shown = results;
  std::size_t missing = 0;
  for (const std::string& id : listed)
    if (!done.count(id)) {
      shown.push_back(no_verdict(id, "no verdict in results.jsonl: the run did not finish"));
      ++missing;
    }
  if (missing) notes.push_back(fmt::format("INCOMPLETE: {} selected cell(s) have no verdict: the run did not finish", missing));
  render_reports(dir, shown, environment_fingerprint(), notes, end);
  const RunTally tally = tally_run(shown, end);
  fmt::print("{}: {} verdicts rendered{}; {}: {}\n", dir, results.size(),
             missing ? fmt::format(", {} cells without one", missing) : "", tally.verdict, tally.counts_text());
  return tally.exit_code;
}

// gate: run a matrix.
void add_gate_run(CLI::App& app, int& rc) {
  auto a = std::make_shared<GateArgs>();
  CLI::App* sub = app.add_subcommand("gate", "Run a matrix's cells and judge each by the calibration table");
  CLI::Option* matrix = sub->add_option("--matrix", a->matrix_text, "Matrix file, or a shipped matrix's name (default: gate)");
  sub->add_option("--calibration", a->calibration, "Calibration table (default: ci/calibration.json)");
  sub->add_option("--baseline-calibration", a->baseline, "A previous table: any row looser than its row there is a loosening");
  sub->add_option("--filter", a->filters, "Cell id glob (repeatable; a leading - excludes)");
  sub->add_flag("--list", a->list, "Print the selected cell ids and run nothing");
  sub->add_option("--shard", a->shard, "I/N: cell k of the sorted list runs in shard k mod N (default: GTEST_SHARD_* variables)");
  sub->add_option("-j,--jobs", a->jobs, "CPU workers (default: every core); GPU cells have their own workers");
  sub->add_option(
         "--gpu-workers", a->gpu_workers,
         "Workers per entry of --devices (default 8, as GateOptions): a GPU cell's run is mostly host latency, so several "
         "overlap on one device")
      ->check(CLI::Range(1, 64));
  sub->add_option(
      "--devices", a->devices,
      "GPU ordinals for GPU cells (--gpu-workers each; 0,0 doubles them), or all (default: the CTest resource's GPU, else 0)");
  sub->add_option("--require", a->require, "A backend that must be supported (repeatable; 'cuda' means every CUDA backend)");
  sub->add_flag("--allow-loosen", a->allow_loosen, "Accept calibration rows looser than what they override (reported)");
  sub->add_option("--max-failures", a->max_failures,
                  "Stop handing out cells once N cells failed or errored (0: run them all); the rest get no verdict")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{0}, std::size_t{1000000000}));
  sub->add_option("--repeat", a->repeat, "Run every twin cell N times (fresh instances); a cell whose runs differ fails")
      ->check(CLI::Range(1, 1000));
  sub->add_option("--concurrent", a->concurrent, "Run K instances of each twin cell at once (threads; processes for exec twins)")
      ->check(CLI::Range(1, 64));
  sub->add_option("--cell-timeout", a->cell_timeout, "Seconds a cell may run (0: no limit)");
  sub->add_option("--heartbeat", a->heartbeat, "Seconds between 'still running' lines while cells run (0: none)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  sub->add_option("--report-dir", a->report_dir, "Where results.jsonl and the reports go")->capture_default_str();
  sub->add_flag("--with-mutants", a->with_mutants, "Register the deliberately broken twins (self-test)");
  sub->add_option("--today", a->today, "Date for waiver expiry, YYYY-MM-DD (default: today, UTC)");
  sub->add_flag("--quiet", a->quiet, "No per-cell progress");
  sub->add_flag("--allow-empty", a->allow_empty, "Exit 0 even when no cell is selected or none could run (else exit 2)");
  sub->add_option("--ctest-script", a->ctest_script,
                  "Write CTest's gate tests (one per feature, twin and vector) to FILE; run nothing");
  sub->callback([a, matrix, &rc] {
    if (matrix->count() > 0) a->matrix = a->matrix_text;
    rc = run_gate_command(*a);
  });
}

// merge: join shards' results.
void add_merge(CLI::App& app, int& rc) {
  auto m = std::make_shared<MergeArgs>();
  CLI::App* merge = app.add_subcommand("merge", "Join shard results; fails on a missing or duplicated cell");
  merge->add_option("shards", m->shards, "Report folders of the shards")->required();
  // Each --filter takes one value: the shard folders that follow are not filters.
  CLI::Option* merge_matrix =
      merge->add_option("--matrix", m->matrix_text, "The matrix the shards ran (default: what they recorded)");
  CLI::Option* merge_filter =
      merge->add_option("--filter", m->filter_list, "A filter the shards ran with (repeatable; default: what they recorded)")
          ->allow_extra_args(false);
  merge->add_option("--out", m->out, "Folder for the merged reports")->capture_default_str();
  merge->callback([m, merge_matrix, merge_filter, &rc] {
    if (merge_matrix->count() > 0) m->matrix = m->matrix_text;
    if (merge_filter->count() > 0) m->filters = m->filter_list;
    rc = run_merge(*m);
  });
}

// calibrate: propose rows from runs' records.
void add_calibrate(CLI::App& app, int& rc) {
  struct CalibrateArgs {
    std::vector<std::string> dirs;
    std::string calibration, output = "calibration.proposed.json";
    int margin = 1;
  };
  auto c = std::make_shared<CalibrateArgs>();
  CLI::App* calibrate = app.add_subcommand(
      "calibrate", "Propose the calibration rows that the records of one or more runs support (never edits the table)");
  calibrate->add_option("dirs", c->dirs, "Gate report folders (their results.jsonl)")->required();
  calibrate->add_option("--margin", c->margin, "Places given up from the tightest that held")
      ->capture_default_str()
      ->check(CLI::Range(0, 14));
  calibrate->add_option("--calibration", c->calibration, "The table in force (default: ci/calibration.json)");
  calibrate->add_option("--output", c->output, "Where the proposed table is written")->capture_default_str();
  calibrate->callback([c, &rc] {
    // The table in force changes by a person's edit, with a reason and provenance: calibrate
    // proposes beside it and never writes it, by any path (the table it read is an input of the
    // run, which OutputFile refuses too).
    std::error_code ec;
    if (fs::equivalent(c->output, default_calibration(), ec))
      throw InputError(c->output, "--output", c->output,
                       "is the calibration table in force: calibrate writes its proposal beside it, never over it");
    std::vector<CellResult> records;
    for (const std::string& d : c->dirs) {
      std::vector<CellResult> run = read_results(fs::path(d) / "results.jsonl");
      records.insert(records.end(), std::make_move_iterator(run.begin()), std::make_move_iterator(run.end()));
    }
    const Calibration table = Calibration::load(c->calibration.empty() ? default_calibration() : fs::path(c->calibration));
    refuse_output_onto_input(c->output, "--output");  // the table and the records just read
    const CalibrationProposal p = propose_calibration(records, table, c->margin, c->dirs);
    fmt::print("{}", describe_proposal(p));
    write_file(c->output, p.table.dump(2) + "\n", "the proposed calibration table");
    fmt::print("calibrate: proposed table written to {} (ci/calibration.json is unchanged)\n", c->output);
    rc = kExitPass;
  });
}

// report: render the reports of a record again.
void add_report(CLI::App& app, int& rc) {
  auto dir = std::make_shared<std::string>();
  CLI::App* report = app.add_subcommand("report", "Render the reports again from a results.jsonl (an interrupted run too)");
  report->add_option("dir", *dir, "A gate report folder")->required();
  report->callback([dir, &rc] { rc = run_report(*dir); });
}

}  // namespace

void add_gate(CLI::App& app, int& rc) {
  add_gate_run(app, rc);
  add_merge(app, rc);
  add_calibrate(app, rc);
  add_report(app, rc);
}

}  // namespace twinproof::cli
