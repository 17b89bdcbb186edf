// twinproof gate | merge | report: the harness's main job and its shard plumbing.
#include <fstream>
#include <set>

#include <fmt/format.h>

#include "extractors/devices.hpp"
#include "harness/cli/commands.hpp"
#include "harness/environment.hpp"
#include "harness/errors.hpp"
#include "harness/gate.hpp"
#include "harness/paths.hpp"
#include "harness/report.hpp"

namespace twinproof::cli {
namespace fs = std::filesystem;

namespace {

struct GateArgs {
  std::string matrix, calibration, baseline, report_dir = "twinproof-gate", shard, devices, today;
  std::vector<std::string> filters, require;
  bool list = false, allow_loosen = false, with_mutants = false, quiet = false;
  unsigned jobs = 0;
  double cell_timeout = 0;
};

fs::path default_matrix() { return data_root() / "ci" / "matrices" / "gate.json"; }
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
    throw ConfigError("CTEST_RESOURCE_GROUP_0_GPUS", s, "CTEST_RESOURCE_GROUP_0_GPUS: expected id:N,slots:M");
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
    try {
      std::size_t used = 0;
      const int d = std::stoi(part, &used);
      if (used != part.size() || d < 0) throw std::invalid_argument(part);
      out.push_back(d);
    } catch (const std::exception&) {
      throw ConfigError("--devices", s, fmt::format("--devices '{}': expected all or a list of ordinals like 0,1", s));
    }
  }
  if (out.empty()) throw ConfigError("--devices", s, "--devices: no device named");
  return out;
}

std::vector<Cell> select_cells(const Matrix& m, const std::vector<std::string>& filters, const std::string& shard) {
  std::vector<Cell> cells = filter_cells(m.cells, filters);
  std::optional<Shard> s = shard.empty() ? shard_from_environment() : std::optional<Shard>(parse_shard(shard));
  if (s) cells = take_shard(cells, *s);
  return cells;
}

int run_gate_command(const GateArgs& a) {
  const Matrix m = load_matrix(a.matrix.empty() ? default_matrix() : fs::path(a.matrix));
  const std::vector<Cell> cells = select_cells(m, a.filters, a.shard);
  if (a.list) {
    for (const Cell& c : cells) fmt::print("{}\n", c.id);
    return kExitPass;
  }
  const Calibration table = Calibration::load(a.calibration.empty() ? default_calibration() : fs::path(a.calibration));
  std::optional<Calibration> baseline;
  if (!a.baseline.empty()) baseline = Calibration::load(a.baseline);
  std::vector<std::string> notes;
  for (const Loosening& l : table.loosenings(baseline ? &*baseline : nullptr)) {
    const std::string text = fmt::format("calibration loosened: {} (was {}, {}); reason: {}", l.row->describe(), l.from,
                                         l.where, l.row->reason);
    if (!a.allow_loosen)
      throw InputError(table.file().string(), fmt::format("rows[{}]", l.row->index), l.row->tolerance.describe(),
                       text + "; pass --allow-loosen to accept it (the run will report it)");
    notes.push_back(text);
  }
  if (cells.empty()) throw ConfigError("--filter", fmt::format("{} filters", a.filters.size()), "no cell is selected");
  GateOptions o;
  o.jobs = a.jobs;
  o.devices = parse_devices(a.devices);
  o.require = a.require;
  o.with_mutants = a.with_mutants;
  o.cell_timeout_s = a.cell_timeout;
  o.today = a.today;
  o.report_dir = a.report_dir;
  o.progress = !a.quiet;
  for (const std::string& n : notes) fmt::print(stderr, "twinproof: {}\n", n);
  const GateOutcome out = run_gate(cells, table, o);
  const nlohmann::json env = environment_fingerprint();
  if (!a.report_dir.empty()) render_reports(a.report_dir, out.results, env, notes);
  const nlohmann::json counts = status_counts(out.results);
  std::size_t ran = 0;
  for (const CellResult& r : out.results) ran += r.status != CellStatus::not_supported;
  fmt::print("gate {}: {} cells: {} pass, {} fail, {} not-supported, {} waived, {} error, {} timeout\n", m.name, cells.size(),
             counts["pass"].get<int>(), counts["fail"].get<int>(), counts["not-supported"].get<int>(),
             counts["waived"].get<int>(), counts["error"].get<int>(), counts["timeout"].get<int>());
  if (ran == 0) fmt::print("gate: no cell ran: every selected backend is unavailable\n");
  if (!a.report_dir.empty()) fmt::print("reports: {}/summary.md, junit.xml, report.html, summary.json\n", a.report_dir);
  std::size_t failing = 0;
  for (const CellResult& r : out.results) failing += r.failing() || r.status == CellStatus::error || r.status == CellStatus::timeout;
  fmt::print("{} passed, {} failed\n", counts["pass"].get<int>(), failing);
  return out.exit_code;
}

struct MergeArgs {
  std::string matrix, out = "twinproof-gate-merged";
  std::vector<std::string> filters, shards;
};

int run_merge(const MergeArgs& a) {
  const Matrix m = load_matrix(a.matrix.empty() ? default_matrix() : fs::path(a.matrix));
  std::set<std::string> expected;
  for (const Cell& c : filter_cells(m.cells, a.filters)) expected.insert(c.id);
  std::vector<CellResult> merged;
  std::map<std::string, std::string> seen;  // id -> shard folder
  std::vector<std::string> notes;
  for (const std::string& dir : a.shards) {
    std::size_t truncated = 0;
    for (CellResult& r : read_results(fs::path(dir) / "results.jsonl", &truncated)) {
      if (const auto it = seen.find(r.id); it != seen.end())
        throw InputError(dir, "cell", r.id, fmt::format("duplicated: also in {}", it->second));
      if (!expected.count(r.id)) throw InputError(dir, "cell", r.id, "not a cell of the matrix with these filters");
      seen.emplace(r.id, dir);
      merged.push_back(std::move(r));
    }
    if (truncated) notes.push_back(fmt::format("{}: {} truncated record line(s) skipped", dir, truncated));
  }
  std::vector<std::string> missing;
  for (const std::string& id : expected)
    if (!seen.count(id)) missing.push_back(id);
  if (!missing.empty())
    throw InputError(a.shards.empty() ? "(no shards)" : a.shards.front(), "cells", fmt::format("{} missing", missing.size()),
                     fmt::format("the shards do not cover the matrix; first missing: {}", missing.front()));
  notes.push_back(fmt::format("merged {} shard(s), {} cells", a.shards.size(), merged.size()));
  render_reports(a.out, merged, environment_fingerprint(), notes);
  std::size_t failing = 0, passed = 0;
  for (const CellResult& r : merged) {
    failing += r.failing() || r.status == CellStatus::error || r.status == CellStatus::timeout;
    passed += r.status == CellStatus::pass;
  }
  fmt::print("merged {} cells from {} shard(s) into {}\n{} passed, {} failed\n", merged.size(), a.shards.size(), a.out, passed, failing);
  return exit_code_for(merged);
}

int run_report(const std::string& dir) {
  std::size_t truncated = 0;
  const std::vector<CellResult> results = read_results(fs::path(dir) / "results.jsonl", &truncated);
  std::vector<std::string> notes;
  if (truncated) notes.push_back(fmt::format("{} truncated record line(s) skipped (interrupted run)", truncated));
  std::ifstream list(fs::path(dir) / "cells.txt");
  std::set<std::string> done;
  for (const CellResult& r : results) done.insert(r.id);
  std::size_t missing = 0;
  for (std::string id; std::getline(list, id);) missing += !id.empty() && !done.count(id);
  if (missing) notes.push_back(fmt::format("{} selected cell(s) have no verdict: the run did not finish", missing));
  render_reports(dir, results, environment_fingerprint(), notes);
  fmt::print("{}: {} verdicts rendered{}\n", dir, results.size(), missing ? fmt::format(", {} cells without one", missing) : "");
  return missing ? kExitError : exit_code_for(results);
}

}  // namespace

void add_gate(CLI::App& app, int& rc) {
  auto a = std::make_shared<GateArgs>();
  CLI::App* sub = app.add_subcommand("gate", "Run a matrix's cells and judge each by the calibration table");
  sub->add_option("--matrix", a->matrix, "Matrix file (default: ci/matrices/gate.json)");
  sub->add_option("--calibration", a->calibration, "Calibration table (default: ci/calibration.json)");
  sub->add_option("--baseline-calibration", a->baseline, "A previous table: any row looser than its row there is a loosening");
  sub->add_option("--filter", a->filters, "Cell id glob (repeatable; a leading - excludes)");
  sub->add_flag("--list", a->list, "Print the selected cell ids and run nothing");
  sub->add_option("--shard", a->shard, "I/N: cell k of the sorted list runs in shard k mod N (default: GTEST_SHARD_* variables)");
  sub->add_option("-j,--jobs", a->jobs, "CPU workers (default: every core); GPU cells have their own workers");
  sub->add_option("--devices", a->devices,
                  "GPU ordinals for GPU cells (one worker each), or all (default: the CTest resource's GPU, else 0)");
  sub->add_option("--require", a->require, "A backend that must be supported (repeatable; 'cuda' means every CUDA backend)");
  sub->add_flag("--allow-loosen", a->allow_loosen, "Accept calibration rows looser than what they override (reported)");
  sub->add_option("--cell-timeout", a->cell_timeout, "Seconds a cell may run (0: no limit)");
  sub->add_option("--report-dir", a->report_dir, "Where results.jsonl and the reports go")->capture_default_str();
  sub->add_flag("--with-mutants", a->with_mutants, "Register the deliberately broken twins (self-test)");
  sub->add_option("--today", a->today, "Date for waiver expiry, YYYY-MM-DD (default: today, UTC)");
  sub->add_flag("--quiet", a->quiet, "No per-cell progress");
  sub->callback([a, &rc] { rc = run_gate_command(*a); });

  auto m = std::make_shared<MergeArgs>();
  CLI::App* merge = app.add_subcommand("merge", "Join shard results; fails on a missing or duplicated cell");
  merge->add_option("shards", m->shards, "Report folders of the shards")->required();
  merge->add_option("--matrix", m->matrix, "The matrix the shards ran (default: ci/matrices/gate.json)");
  merge->add_option("--filter", m->filters, "The filters the shards ran with");
  merge->add_option("--out", m->out, "Folder for the merged reports")->capture_default_str();
  merge->callback([m, &rc] { rc = run_merge(*m); });

  auto dir = std::make_shared<std::string>();
  CLI::App* report = app.add_subcommand("report", "Render the reports again from a results.jsonl (an interrupted run too)");
  report->add_option("dir", *dir, "A gate report folder")->required();
  report->callback([dir, &rc] { rc = run_report(*dir); });
}

}  // namespace twinproof::cli
