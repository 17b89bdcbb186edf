// The gate: matrices, shards, the calibration table, comparison rules, statuses, waivers,
// mutants, merge and reports.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <fstream>
#include <limits>
#include <mutex>
#include <set>
#include <thread>

#include <csignal>
#include <ctime>

#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <boost/test/unit_test.hpp>
#include <pugixml.hpp>

#include "extractors/feature.hpp"
#include "harness/calibration/table.hpp"
#include "harness/gate/calibrate.hpp"
#include "harness/gate/gate.hpp"
#include "harness/gate/matrix.hpp"
#include "harness/gate/plan.hpp"
#include "harness/gate/record.hpp"
#include "harness/gate/watchdog.hpp"
#include "harness/report/markup.hpp"
#include "harness/report/render.hpp"
#include "harness/support/errors.hpp"
#include "harness/support/faults.hpp"
#include "harness/support/interrupt.hpp"
#include "harness/support/parallel.hpp"
#include "harness/support/paths.hpp"
#include "tests/support.hpp"

using namespace twinproof;
using twinproof::test::contains;
using twinproof::test::run_cli;
using twinproof::test::TempDir;
namespace fs = std::filesystem;

namespace {

fs::path matrix_file(const char* name) { return data_root() / "ci" / "matrices" / name; }
fs::path table_file() { return data_root() / "ci" / "calibration.json"; }

// A calibration table of one row per twin with the given mode.
fs::path write_table(const TempDir& dir, const std::vector<std::pair<std::string, std::string>>& twin_modes,
                     const std::string& waivers = "[]") {
  std::string rows;
  for (const auto& [twin, mode] : twin_modes) {
    if (!rows.empty()) rows += ",";
    rows += R"({"feature":"float_motion","reference":"cpu","twin":")" + twin + R"(",)" +
            (mode == "exact" ? std::string(R"("mode":"exact")") : R"("mode":"places","places":)" + mode.substr(7)) +
            R"(,"reason":"test","provenance":{"measured_by":"test"}})";
  }
  const fs::path p = dir / "calibration.json";
  test::write_file(p, R"({"rows":[)" + rows + R"(],"waivers":)" + waivers + "}");
  return p;
}

GateOptions quiet_options(const fs::path& report_dir = {}) {
  GateOptions o;
  o.progress = false;
  o.with_mutants = true;
  o.report_dir = report_dir;
  return o;
}

}  // namespace

namespace twinproof {
// Boost.Test prints what it compares.
std::ostream& operator<<(std::ostream& o, FaultKind k) { return o << to_string(k); }
}  // namespace twinproof

BOOST_AUTO_TEST_SUITE(gate)

BOOST_AUTO_TEST_CASE(comparison_rules) {
  const Tolerance exact = Tolerance::exact(), p4 = Tolerance::at_places(4);
  BOOST_TEST(compare_values(1.5, 1.5, exact).pass);
  const ValueComparison one = compare_values(1.0, std::nextafter(1.0, 2.0), exact);
  BOOST_TEST(!one.pass);
  BOOST_TEST(one.ulp == 1u);
  const ValueComparison zero = compare_values(0.0, -0.0, exact);
  BOOST_TEST(!zero.pass);
  BOOST_TEST(zero.note == "signed zero");
  BOOST_TEST(compare_values(0.0, -0.0, p4).pass);
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  BOOST_TEST(!compare_values(nan, nan, exact).pass);
  BOOST_TEST(!compare_values(nan, nan, p4).pass);
  BOOST_TEST(!compare_values(1.0, nan, p4).pass);
  BOOST_TEST(compare_values(inf, inf, p4).pass);
  BOOST_TEST(!compare_values(inf, -inf, p4).pass);
  BOOST_TEST(!compare_values(inf, 1e308, p4).pass);
  // places=4: |a - b| < 5e-5 strictly. 0.5 and 0.5 + 2^-15 - ... pick exact binary values:
  // 2^-15 = 3.0517578125e-05 passes; a difference of exactly 5e-5 fails.
  BOOST_TEST(compare_values(1.0, 1.0 + 0.000030517578125, p4).pass);
  BOOST_TEST(!compare_values(0.0, 5e-5, p4).pass);
  BOOST_TEST(compare_values(0.0, std::nextafter(5e-5, 0.0), p4).pass);
  BOOST_TEST(!compare_values(10.0, 10.0 + 6e-5, p4).pass);
  BOOST_TEST(ulp_distance(-0.0, 0.0) == 0u);
  BOOST_TEST(ulp_distance(-std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::denorm_min()) == 2u);
  BOOST_TEST(hex(21.896764755249023) == "0x1.5e5926p+4");
}

BOOST_AUTO_TEST_CASE(cell_ids_are_coordinates) {
  const Matrix m = load_matrix(matrix_file("gate.json"));
  std::set<std::string> ids;
  for (const Cell& c : m.cells) ids.insert(c.id);
  BOOST_TEST(ids.count("float_motion/cuda/pan576/8b/420/add_uv") == 1u);
  BOOST_TEST(ids.count("float_motion/cpu/pan4k/8b/420/default") == 1u);  // regression cell
  BOOST_TEST(ids.count("float_motion/cpu/pan576/8b/420/refuse_foo_1") == 1u);
  BOOST_TEST(ids.count("float_motion/cuda/pan4k/8b/420/add_uv") == 0u);  // pan4k has no add_uv golden
  BOOST_TEST(std::is_sorted(m.cells.begin(), m.cells.end(), [](const Cell& a, const Cell& b) { return a.id < b.id; }));
  // Every feature: each golden configuration (scored or refused) is a regression cell of the
  // reference and a parity cell of every registered twin ("twin": ["*"]).
  std::size_t expected = 0;
  for (const FeatureDescriptor* f : features()) {
    std::size_t configurations = 0, registered = 0;
    for (const GoldenFile& g : load_goldens(std::string(f->name))) configurations += g.cases.size() + g.refusals.size();
    for (const Backend* b : backends()) registered += b->feature == f->name;
    expected += configurations * registered;
  }
  BOOST_TEST(m.cells.size() == expected);
  std::vector<std::string> registered;
  for (const FeatureDescriptor* f : features()) registered.emplace_back(f->name);
  BOOST_TEST(m.features == registered, boost::test_tools::per_element());
  BOOST_TEST(ids.count("psnr/cuda/pan576~noise4/8b/420/default") == 1u);  // a pair: vector~distortion
  BOOST_TEST(ids.count("motion/cuda/pan576/8b/420/five_frame") == 1u);
  BOOST_TEST(ids.count("motion/cpu/tiny2/8b/444/default") == 1u);  // the reference must refuse 2x2
  const Matrix sweep = load_matrix(matrix_file("sweep.json"));
  std::set<std::string> sweep_ids;
  for (const Cell& c : sweep.cells) sweep_ids.insert(c.id);
  BOOST_TEST(sweep_ids.count("float_motion/cuda/pan576/10b/444/add_uv") == 1u);
  BOOST_TEST(sweep_ids.count("float_motion/cuda/pan576/16b/400/add_uv") == 0u);  // excluded: no chroma
  BOOST_TEST(sweep_ids.count("float_motion/cpu/pan576/8b/420/add_uv") == 1u);    // native, golden exists
  BOOST_TEST(sweep_ids.count("float_motion/cpu/pan576/10b/420/add_uv") == 0u);   // no golden for a variant
}

BOOST_AUTO_TEST_CASE(filters_and_shards) {
  const Matrix m = load_matrix(matrix_file("gate.json"));
  const auto cuda = filter_cells(m.cells, {"float_motion/cuda/*"});
  BOOST_TEST(cuda.size() == 66u);
  const auto no_big = filter_cells(m.cells, {"float_motion/cuda/*", "-*/bbb1080_t240/*", "-*/city720x405/*"});
  BOOST_TEST(no_big.size() == 66u - 4 - 3);
  // The union of the shards is the full list, each cell exactly once, k in shard k mod N.
  for (unsigned n : {1u, 2u, 3u, 7u}) {
    std::multiset<std::string> all;
    for (unsigned i = 0; i < n; ++i)
      for (const Cell& c : take_shard(m.cells, {i, n})) all.insert(c.id);
    BOOST_TEST(all.size() == m.cells.size());
    std::set<std::string> unique(all.begin(), all.end());
    BOOST_TEST(unique.size() == m.cells.size());
  }
  BOOST_TEST(take_shard(m.cells, {1, 3}).front().id == m.cells[1].id);
  BOOST_TEST(take_shard(m.cells, {1, 3})[1].id == m.cells[4].id);
  BOOST_CHECK_THROW(parse_shard("3/3"), ConfigError);
  BOOST_CHECK_THROW(parse_shard("x/3"), ConfigError);
  BOOST_TEST(parse_shard("2/5").index == 2u);
}

BOOST_AUTO_TEST_CASE(gtest_shard_variables_select_and_touch_the_status_file) {
  TempDir dir;
  const fs::path status = dir / "shard-status";
  setenv("GTEST_SHARD_INDEX", "1", 1);
  setenv("GTEST_TOTAL_SHARDS", "4", 1);
  setenv("GTEST_SHARD_STATUS_FILE", status.c_str(), 1);
  const auto s = shard_from_environment();
  unsetenv("GTEST_SHARD_INDEX");
  unsetenv("GTEST_TOTAL_SHARDS");
  unsetenv("GTEST_SHARD_STATUS_FILE");
  BOOST_REQUIRE(s.has_value());
  BOOST_TEST(s->index == 1u);
  BOOST_TEST(s->count == 4u);
  BOOST_TEST(fs::exists(status));
}

BOOST_AUTO_TEST_CASE(the_table_fails_closed) {
  TempDir dir;
  BOOST_CHECK_THROW(Calibration::load(dir / "missing.json"), InputError);
  test::write_file(dir / "bad.json", "{ not json");
  BOOST_CHECK_THROW(Calibration::load(dir / "bad.json"), InputError);
  test::write_file(dir / "norows.json", R"({"rows": []})");
  BOOST_CHECK_THROW(Calibration::load(dir / "norows.json"), InputError);
  test::write_file(
      dir / "noreason.json",
      R"({"rows":[{"feature":"float_motion","reference":"cpu","twin":"cuda","mode":"exact","provenance":{"by":"x"}}]})");
  try {
    Calibration::load(dir / "noreason.json");
    BOOST_FAIL("a row without a reason must be refused");
  } catch (const InputError& e) {
    BOOST_TEST(e.field() == "rows[0].reason");
  }
  test::write_file(
      dir / "places.json",
      R"({"rows":[{"feature":"float_motion","reference":"cpu","twin":"cuda","mode":"places","places":0,"reason":"r","provenance":{"by":"x"}}]})");
  BOOST_CHECK_THROW(Calibration::load(dir / "places.json"), InputError);
  // A twin without a row: the gate refuses to start.
  const fs::path only_cuda = write_table(dir, {{"cuda", "exact"}});
  const Matrix m = load_matrix(matrix_file("selftest.json"));
  BOOST_CHECK_THROW(run_gate(m.cells, Calibration::load(only_cuda), quiet_options()), InputError);
  const auto r = run_cli({"gate", "--matrix", matrix_file("selftest.json").string(), "--with-mutants", "--calibration",
                          only_cuda.string(), "--report-dir", (dir / "r").string()});
  BOOST_TEST(r.rc == 2);
  BOOST_TEST(contains(r.err, "no calibration row"));
  BOOST_TEST(run_cli({"gate", "--calibration", (dir / "missing.json").string()}).rc == 2);
}

BOOST_AUTO_TEST_CASE(every_shipped_matrix_can_be_judged_by_the_shipped_table) {
  // The gate refuses a matrix with a twin the table has no row for: each shipped matrix must
  // start (a twin renamed or dropped from one feature shows here, not in a CI job).
  const Calibration table = Calibration::load(data_root() / "ci" / "calibration.json");
  std::size_t matrices = 0;
  for (const auto& entry : fs::directory_iterator(data_root() / "ci" / "matrices")) {
    if (entry.path().extension() != ".json") continue;
    ++matrices;
    for (const Cell& c : load_matrix(entry.path()).cells)
      if (c.kind == CellKind::parity)
        BOOST_TEST(table.has_twin(c.feature, c.reference, c.twin), entry.path().filename().string() << ": " << c.id);
  }
  BOOST_TEST(matrices >= 7u);
}

BOOST_AUTO_TEST_CASE(a_row_for_every_feature_comes_after_the_feature_own_rows) {
  TempDir dir;
  test::write_file(dir / "t.json", R"({"rows":[
    {"feature":"*","reference":"cpu","twin":"exec-self","mode":"exact","reason":"every feature","provenance":{"by":"x"}},
    {"feature":"psnr","reference":"cpu","twin":"exec-self","mode":"places","places":6,"reason":"psnr's own","provenance":{"by":"x"}},
    {"feature":"*","reference":"cpu","twin":"exec-self","metric":"vif","mode":"places","places":3,"reason":"one metric","provenance":{"by":"x"}}]})");
  const Calibration t = Calibration::load(dir / "t.json");
  // The feature's own row, whatever the "*" rows say, even a more specific one.
  BOOST_TEST(t.find("psnr", "cpu", "exec-self", "psnr_y", "")->reason == "psnr's own");
  BOOST_TEST(t.find("psnr", "cpu", "exec-self", "vif", "")->reason == "psnr's own");
  // A feature without a row of its own: the most specific "*" row.
  BOOST_TEST(t.find("adm", "cpu", "exec-self", "adm2", "")->reason == "every feature");
  BOOST_TEST(t.find("vif", "cpu", "exec-self", "vif", "")->reason == "one metric");
  BOOST_TEST(t.has_twin("adm", "cpu", "exec-self"));
  // Only the twin and the reference it names.
  BOOST_TEST(t.find("adm", "cpu", "vmaf", "adm2", "") == nullptr);
  BOOST_TEST(!t.has_twin("adm", "cpu", "vmaf"));
  BOOST_TEST(!t.has_twin("adm", "other", "exec-self"));
}

BOOST_AUTO_TEST_CASE(loosening_an_exact_row_needs_allow_loosen) {
  TempDir dir;
  test::write_file(dir / "t.json", R"({"rows":[
    {"feature":"float_motion","reference":"cpu","twin":"mutant-drift","mode":"exact","reason":"r","provenance":{"by":"x"}},
    {"feature":"float_motion","reference":"cpu","twin":"mutant-drift","metric":"motion3","mode":"places","places":4,"reason":"blend","provenance":{"by":"x"}}]})");
  const Calibration t = Calibration::load(dir / "t.json");
  BOOST_TEST(t.loosenings(nullptr).size() == 1u);
  BOOST_TEST(t.find("float_motion", "cpu", "mutant-drift", "motion3", "")->tolerance.describe() == "places=4");
  BOOST_TEST(t.find("float_motion", "cpu", "mutant-drift", "motion", "")->tolerance.describe() == "exact");
  const std::vector<std::string> args = {"gate",
                                         "--matrix",
                                         matrix_file("selftest.json").string(),
                                         "--with-mutants",
                                         "--filter",
                                         "*/mutant-drift/*",
                                         "--calibration",
                                         (dir / "t.json").string(),
                                         "--report-dir",
                                         (dir / "r").string()};
  const auto refused = run_cli(args);
  BOOST_TEST(refused.rc == 2);
  BOOST_TEST(contains(refused.err, "--allow-loosen"));
  auto allowed_args = args;
  allowed_args.push_back("--allow-loosen");
  const auto allowed = run_cli(allowed_args);
  BOOST_TEST(allowed.rc == 1);  // motion and motion2 are still exact: the drift fails them
  BOOST_TEST(contains(test::read_file(dir / "r" / "summary.md"), "calibration loosened"));
  // Against a baseline whose row was exact, a places row is a loosening too.
  const fs::path base = write_table(dir, {{"mutant-drift", "exact"}});
  test::write_file(
      dir / "now.json",
      R"({"rows":[{"feature":"float_motion","reference":"cpu","twin":"mutant-drift","mode":"places","places":4,"reason":"r","provenance":{"by":"x"}}]})");
  const Calibration baseline = Calibration::load(base);
  BOOST_TEST(Calibration::load(dir / "now.json").loosenings(&baseline).size() == 1u);
  BOOST_TEST(Calibration::load(dir / "now.json").loosenings(nullptr).empty());
}

BOOST_AUTO_TEST_CASE(mutants_are_caught) {
  const Matrix m = load_matrix(matrix_file("selftest.json"));
  // Against exact rows every mutant fails every cell.
  TempDir dir;
  const fs::path exact = write_table(dir, {{"mutant-ulp", "exact"},
                                           {"mutant-nan", "exact"},
                                           {"mutant-sum", "exact"},
                                           {"mutant-blur", "exact"},
                                           {"mutant-drift", "exact"},
                                           {"mutant-drift-6e-5", "exact"}});
  const GateOutcome strict = run_gate(m.cells, Calibration::load(exact), quiet_options());
  BOOST_TEST(strict.results.size() == m.cells.size());
  for (const CellResult& r : strict.results) BOOST_TEST_CONTEXT(r.cell.id << ": " << r.detail) {
      BOOST_TEST(r.status == CellStatus::fail);
    }
  BOOST_TEST(strict.exit_code == 1);
  // Where the time went: one reference run per unit, one CPU twin run per parity cell, no GPU.
  std::set<std::string> units;
  std::size_t parity = 0;
  for (const Cell& c : m.cells) {
    units.insert(c.unit());
    parity += c.kind == CellKind::parity;
  }
  BOOST_TEST(strict.times.reference_runs == units.size());
  BOOST_TEST(strict.times.cpu_twin_runs == parity);
  BOOST_TEST(strict.times.gpu_twin_runs == 0u);
  BOOST_TEST(strict.times.gpu_workers == 0u);
  BOOST_TEST(strict.times.cpu_workers >= 1u);
  BOOST_TEST(strict.times.wall_s > 0);
  BOOST_TEST(strict.times.input_s <= strict.times.reference_s + strict.times.cpu_twin_s);
  BOOST_TEST(describe(strict.times).find(fmt::format("{} reference run(s)", units.size())) != std::string::npos);
  // The project's table: drift rows are places=4; 4e-5 passes, 6e-5 fails.
  const GateOutcome project = run_gate(m.cells, Calibration::load(table_file()), quiet_options());
  for (const CellResult& r : project.results) {
    const CellStatus want = r.cell.twin == "mutant-drift" ? CellStatus::pass : CellStatus::fail;
    BOOST_TEST_CONTEXT(r.cell.id << ": " << r.detail) { BOOST_TEST(r.status == want); }
  }
  const auto nan_cell = std::find_if(project.results.begin(), project.results.end(),
                                     [](const CellResult& r) { return r.cell.twin == "mutant-nan"; });
  BOOST_TEST(nan_cell->first_mismatch["note"] == "NaN");
  const auto ulp_cell = std::find_if(project.results.begin(), project.results.end(), [](const CellResult& r) {
    return r.cell.id == "float_motion/mutant-ulp/pan576/8b/420/default";
  });
  BOOST_TEST(ulp_cell->max_ulp == 1u);
  BOOST_TEST(ulp_cell->first_mismatch["frame"] == 1);
  BOOST_TEST(ulp_cell->first_mismatch["actual"]["hex"] == "0x1.ce33dc0000001p+4");
}

BOOST_AUTO_TEST_CASE(waivers_waive_report_unexpected_passes_and_expire) {
  TempDir dir;
  const std::string waivers = R"([
    {"cells":"float_motion/mutant-ulp/pan576/*","reason":"known","issue":"https://example.invalid/1","expires":"2030-01-01"},
    {"cells":"float_motion/mutant-drift/pan576/*","reason":"over-cautious","issue":"https://example.invalid/2","expires":"2030-01-01"},
    {"cells":"float_motion/mutant-nan/pan576/*","reason":"old","issue":"https://example.invalid/3","expires":"2026-01-01"}])";
  const fs::path t = write_table(dir, {{"mutant-ulp", "exact"}, {"mutant-nan", "exact"}, {"mutant-drift", "places=4"}}, waivers);
  const Matrix m = load_matrix(matrix_file("selftest.json"));
  GateOptions o = quiet_options();
  o.today = "2026-12-02";
  const auto cells =
      filter_cells(m.cells, {"*/pan576/*/default", "-*/mutant-sum/*", "-*/mutant-blur/*", "-*/mutant-drift-6e-5/*"});
  const GateOutcome out = run_gate(cells, Calibration::load(t), o);
  for (const CellResult& r : out.results) {
    if (r.cell.twin == "mutant-ulp") {
      BOOST_TEST(r.status == CellStatus::waived);
      BOOST_TEST(contains(r.waiver, "example.invalid/1"));
    }
    if (r.cell.twin == "mutant-drift") {
      BOOST_TEST(r.status == CellStatus::pass);
      BOOST_TEST(r.unexpected_pass);
    }
    if (r.cell.twin == "mutant-nan") {
      BOOST_TEST(r.status == CellStatus::fail);
      BOOST_TEST(contains(r.detail, "waiver expired"));
    }
  }
  BOOST_TEST(out.exit_code == 1);  // the expired waiver
}

BOOST_AUTO_TEST_CASE(not_supported_is_not_failed_unless_required) {
  const Matrix m = load_matrix(matrix_file("gate.json"));
  const auto cells = filter_cells(m.cells, {"*/tiny3/*"});
  const GateOutcome plain = run_gate(cells, Calibration::load(table_file()), quiet_options());
  // Without a usable device (CI) the CUDA cells are not supported; the reference cells pass.
  bool any_ns = false;
  for (const CellResult& r : plain.results) any_ns = any_ns || r.status == CellStatus::not_supported;
  if (any_ns) {
    BOOST_TEST(plain.exit_code == 0);
    GateOptions o = quiet_options();
    o.require = {"cuda"};
    const GateOutcome required = run_gate(cells, Calibration::load(table_file()), o);
    BOOST_TEST(required.exit_code == 1);
    for (const CellResult& r : required.results)
      if (r.status == CellStatus::not_supported) BOOST_TEST(r.required);
  }
  for (const CellResult& r : plain.results)
    if (r.cell.twin == "cpu") BOOST_TEST(r.status == CellStatus::pass);
}

BOOST_AUTO_TEST_CASE(results_are_written_as_they_happen_and_merge_checks_coverage) {
  TempDir dir;
  const std::string matrix = matrix_file("selftest.json").string();
  for (int shard = 0; shard < 3; ++shard) {
    const auto r = run_cli({"gate", "--matrix", matrix, "--with-mutants", "--quiet", "--shard", std::to_string(shard) + "/3",
                            "--report-dir", (dir / ("s" + std::to_string(shard))).string()});
    BOOST_TEST(r.rc == 1);
    BOOST_TEST(fs::exists(dir / ("s" + std::to_string(shard)) / "results.jsonl"));
  }
  const auto merged = run_cli({"merge", "--matrix", matrix, "--out", (dir / "m").string(), (dir / "s0").string(),
                               (dir / "s1").string(), (dir / "s2").string()});
  BOOST_TEST(merged.rc == 1);  // the mutants fail
  BOOST_TEST(contains(merged.out, "merged 20 cells"));
  const auto missing =
      run_cli({"merge", "--matrix", matrix, "--out", (dir / "m2").string(), (dir / "s0").string(), (dir / "s1").string()});
  BOOST_TEST(missing.rc == 2);
  BOOST_TEST(contains(missing.err, "missing"));
  const auto dup = run_cli({"merge", "--matrix", matrix, "--out", (dir / "m3").string(), (dir / "s0").string(),
                            (dir / "s1").string(), (dir / "s2").string(), (dir / "s0").string()});
  BOOST_TEST(dup.rc == 2);
  BOOST_TEST(contains(dup.err, "duplicated"));
  // An interrupted record: cut the last line in half; the report says what is missing.
  std::string jsonl = test::read_file(dir / "s0" / "results.jsonl");
  jsonl.resize(jsonl.size() - 40);
  test::write_file(dir / "s0" / "results.jsonl", jsonl);
  const auto report = run_cli({"report", (dir / "s0").string()});
  // A judged failure outranks the cell left without a verdict (exit 1), in the process and its reports alike.
  BOOST_TEST(report.rc == 1, report.out << report.err);
  BOOST_TEST(nlohmann::json::parse(test::read_file(dir / "s0" / "summary.json"))["exit_code"] == 1);
  BOOST_TEST(contains(test::read_file(dir / "s0" / "summary.md"), "truncated"));
  BOOST_TEST(
      contains(test::read_file(dir / "s0" / "summary.md"), "## twinproof gate: FAIL (incomplete: 1 cell(s) without a verdict)"));
}

// Shards record what they ran (selection.json): merge needs neither --matrix nor --filter again,
// refuses shards of other selections, and a --filter takes one value (the folders after it are shards).
BOOST_AUTO_TEST_CASE(merge_reads_the_selection_the_shards_recorded) {
  TempDir dir;
  const std::string matrix = matrix_file("gate.json").string();
  for (int shard = 0; shard < 2; ++shard) {
    const auto r = run_cli({"gate", "--matrix", matrix, "--filter", "float_motion/cpu-simd/pan576/*", "--quiet", "--shard",
                            std::to_string(shard) + "/2", "--report-dir", (dir / ("s" + std::to_string(shard))).string()});
    BOOST_TEST(r.rc == 0, r.out << r.err);
  }
  const nlohmann::json selection = nlohmann::json::parse(test::read_file(dir / "s1" / "selection.json"));
  BOOST_TEST(selection["shard"] == "1/2");
  BOOST_TEST(selection["filters"] == nlohmann::json::array({"float_motion/cpu-simd/pan576/*"}));
  const auto merged = run_cli({"merge", "--out", (dir / "m").string(), (dir / "s0").string(), (dir / "s1").string()});
  BOOST_TEST(merged.rc == 0, merged.out << merged.err);
  BOOST_TEST(contains(merged.out, "PASS: "), merged.out);
  // The same, with the filter given before the folders.
  const auto given = run_cli({"merge", "--filter", "float_motion/cpu-simd/pan576/*", (dir / "s0").string(), (dir / "s1").string(),
                              "--out", (dir / "m2").string()});
  BOOST_TEST(given.rc == 0, given.out << given.err);
  // A filter that is not the one the shards ran is refused by name.
  const auto other =
      run_cli({"merge", "--filter", "motion/*", "--out", (dir / "m3").string(), (dir / "s0").string(), (dir / "s1").string()});
  BOOST_TEST(other.rc == 2);
  BOOST_TEST(contains(other.err, "selection.json: filters"), other.err);
  // The merged folder records its selection too: `report` on it is complete.
  const auto report = run_cli({"report", (dir / "m").string()});
  BOOST_TEST(report.rc == 0, report.out << report.err);
}

// `report` says INCOMPLETE when the list of selected cells is absent, short or lacks a recorded cell.
BOOST_AUTO_TEST_CASE(report_needs_the_whole_list_of_selected_cells) {
  TempDir dir;
  const auto r = run_cli({"gate", "--matrix", "gate", "--filter", "float_motion/cpu-simd/pan576/*", "--quiet", "--report-dir",
                          (dir / "r").string()});
  BOOST_TEST_REQUIRE(r.rc == 0, r.out << r.err);
  BOOST_TEST(run_cli({"report", (dir / "r").string()}).rc == 0);
  const std::string list = test::read_file(dir / "r" / "cells.txt");
  for (const std::string& cut : {std::string(), list.substr(0, list.find('\n') + 1)}) {
    test::write_file(dir / "r" / "cells.txt", cut);
    const auto again = run_cli({"report", (dir / "r").string()});
    BOOST_TEST(again.rc == 2, again.out);
    const nlohmann::json summary = nlohmann::json::parse(test::read_file(dir / "r" / "summary.json"));
    BOOST_TEST(summary["verdict"] == "INCOMPLETE");
    BOOST_TEST(summary["exit_code"] == 2);
    BOOST_TEST(contains(test::read_file(dir / "r" / "summary.md"), "which cells the run selected is not known"));
  }
  fs::remove(dir / "r" / "selection.json");
  test::write_file(dir / "r" / "cells.txt", list);
  BOOST_TEST(run_cli({"report", (dir / "r").string()}).rc == 2);
}

BOOST_AUTO_TEST_CASE(a_record_whose_counts_are_not_integers_is_refused_by_name) {
  // nlohmann's get<std::size_t>() of 1e300 or -1 is an undefined or wrapping cast: every integer
  // field read back from a record is checked first, and the line is refused naming the field.
  TempDir dir;
  CellResult r;
  r.cell.id = "float_motion/cpu/tiny3/8b/444/default";
  r.cell.feature = "float_motion";
  r.cell.reference = r.cell.twin = "cpu";
  r.cell.vector = "tiny3";
  r.status = CellStatus::pass;
  r.values = 6;
  const std::string good = to_json(r).dump();
  test::write_file(dir / "good.jsonl", good + "\n");
  BOOST_TEST(read_results(dir / "good.jsonl").at(0).values == 6u);
  for (const auto& [field, value] : std::vector<std::pair<std::string, nlohmann::json>>{
           {"values", 1e300}, {"mismatches", -1}, {"max_ulp", 0.5}, {"bitdepth", 1e19}, {"values", "6"}}) {
    nlohmann::json bad = nlohmann::json::parse(good);
    bad[field] = value;
    test::write_file(dir / "bad.jsonl", bad.dump() + "\n");
    try {
      (void)read_results(dir / "bad.jsonl");
      BOOST_ERROR("a record with " << field << " = " << value.dump() << " was read");
    } catch (const InputError& e) {
      BOOST_TEST(contains(e.what(), "line 1"));
      BOOST_TEST(contains(e.what(), field), e.what());
    }
  }
}

BOOST_AUTO_TEST_CASE(reports_render_from_the_record) {
  TempDir dir;
  const auto r = run_cli({"gate", "--matrix", matrix_file("selftest.json").string(), "--with-mutants", "--quiet", "--filter",
                          "*/still64/*", "--report-dir", (dir / "r").string()});
  BOOST_TEST(r.rc == 1);
  pugi::xml_document junit;
  BOOST_REQUIRE(junit.load_file((dir / "r" / "junit.xml").c_str()));
  int cases = 0, failures = 0;
  for (pugi::xml_node suite : junit.child("testsuites").children("testsuite"))
    for (pugi::xml_node tc : suite.children("testcase")) {
      ++cases;
      failures += tc.child("failure") ? 1 : 0;
    }
  BOOST_TEST(cases == 10);
  BOOST_TEST(failures == 8);  // all but mutant-drift's two cells
  const std::string md = test::read_file(dir / "r" / "summary.md");
  BOOST_TEST(contains(md, "## twinproof gate: FAIL"));
  BOOST_TEST(contains(md, "| float_motion/mutant-nan | 0 | 2 |"));
  BOOST_TEST(contains(md, "`float_motion/mutant-blur/still64/8b/420/default`"));
  const auto summary = nlohmann::json::parse(test::read_file(dir / "r" / "summary.json"));
  BOOST_TEST(summary["schema_version"] == kReportSchemaVersion);
  BOOST_TEST(summary["environment"].contains("git_commit"));
  BOOST_TEST(summary["environment"].contains("cuda_driver"));
  BOOST_TEST(summary["counts"]["fail"] == 8);
  const std::string html = test::read_file(dir / "r" / "report.html");
  BOOST_TEST(contains(html, "<h2>float_motion/mutant-blur</h2>"));
  BOOST_TEST(contains(html, "class=fail"));
}

BOOST_AUTO_TEST_CASE(the_project_gate_passes_its_cpu_cells) {
  const Matrix m = load_matrix(matrix_file("gate.json"));
  const auto cells = filter_cells(m.cells, {"float_motion/cpu/*", "-*/bbb1080_t240/*", "-*/city720x405/*", "-*/bbb640_t240/*",
                                            "-*/city720_f48/*", "-*/pan4k/*", "-*/cb1080*"});
  const GateOutcome out = run_gate(cells, Calibration::load(table_file()), quiet_options());
  for (const CellResult& r : out.results) BOOST_TEST_CONTEXT(r.cell.id << ": " << r.detail) {
      BOOST_TEST(r.status == CellStatus::pass);
    }
  BOOST_TEST(out.results.size() == cells.size());
}

BOOST_AUTO_TEST_CASE(cell_timeout_is_a_timeout_not_a_pass) {
  const Matrix m = load_matrix(matrix_file("gate.json"));
  GateOptions o = quiet_options();
  o.cell_timeout_s = 1e-9;
  const GateOutcome out =
      run_gate(filter_cells(m.cells, {"float_motion/cpu/pan576/8b/420/default"}), Calibration::load(table_file()), o);
  BOOST_REQUIRE(out.results.size() == 1u);
  BOOST_TEST(out.results[0].status == CellStatus::timeout);
  BOOST_TEST(out.exit_code == 2);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(gate_verdicts)

BOOST_AUTO_TEST_CASE(dates_are_real_calendar_days) {
  for (const char* good : {"2026-12-02", "2028-02-29", "2000-02-29", "0001-01-01", "9999-12-31"})
    BOOST_TEST(is_calendar_date(good));
  for (const char* bad : {"2026-9-1", "2026-13-01", "2026-02-29", "1900-02-29", "2026-04-31", "0", "garbage", "20260901",
                          "2026-09-01x", " 2026-09-01", "2026-00-10", "2026-10-00", "2026/10/01", ""})
    BOOST_TEST(!is_calendar_date(bad), bad);
}

BOOST_AUTO_TEST_CASE(a_waiver_names_cells_not_a_twin) {
  TempDir dir;
  const Matrix m = load_matrix(matrix_file("selftest.json"));
  const auto table_with = [&](const std::string& cells, const std::string& extra = "") {
    return Calibration::load(
        write_table(dir, {{"mutant-ulp", "exact"}},
                    R"([{"cells":")" + cells + R"(","reason":"r","issue":"i","expires":"2030-01-01")" + extra + "}]"));
  };
  BOOST_CHECK_NO_THROW(check_waiver_reach(table_with("float_motion/mutant-ulp/pan576/*"), m.cells));
  // Every cell of mutant-ulp in the selftest matrix.
  BOOST_CHECK_EXCEPTION(check_waiver_reach(table_with("float_motion/mutant-ulp/*"), m.cells), InputError,
                        [](const InputError& e) { return contains(e.what(), "matches every cell of float_motion/mutant-ulp"); });
  BOOST_CHECK_EXCEPTION(check_waiver_reach(table_with("*/pan576/*", R"(,"max_cells":3)"), m.cells), InputError,
                        [](const InputError& e) { return contains(e.what(), "more than its max_cells 3"); });
}

BOOST_AUTO_TEST_CASE(required_backends_must_exist) {
  BOOST_CHECK_NO_THROW(check_required_backends({"cuda", "cpu-simd", "cuda-rowthread"}, false));
  BOOST_CHECK_NO_THROW(check_required_backends({"mutant-sum"}, true));
  for (const std::string bad : {"cuda-rowthred", "CUDA", "", "mutant-sum"})
    BOOST_CHECK_EXCEPTION(check_required_backends({bad}, false), ConfigError,
                          [](const ConfigError& e) { return contains(e.what(), "no such backend"); });
}

BOOST_AUTO_TEST_CASE(a_cell_without_a_verdict_makes_the_run_incomplete) {
  CellResult pass;
  pass.cell.id = "float_motion/cpu-simd/flash64/8b/420/default";
  pass.status = CellStatus::pass;
  const CellResult missing = no_verdict("motion/cuda/pan576/10b/444/five_frame", "interrupted");
  BOOST_TEST(missing.cell.feature == "motion");
  BOOST_TEST(missing.cell.twin == "cuda");
  BOOST_TEST(missing.cell.bitdepth == 10);
  BOOST_TEST(missing.cell.option_set == "five_frame");
  BOOST_TEST(run_verdict({pass}) == "PASS");
  BOOST_TEST(run_verdict({pass, missing}) == "INCOMPLETE");
  BOOST_TEST(exit_code_for({pass, missing}) == kExitError);
  TempDir dir;
  render_reports(dir / "r", {pass, missing}, nlohmann::json::object());
  BOOST_TEST(contains(test::read_file(dir / "r" / "summary.md"), "## twinproof gate: INCOMPLETE"));
  const auto summary = nlohmann::json::parse(test::read_file(dir / "r" / "summary.json"));
  BOOST_TEST(summary["verdict"] == "INCOMPLETE");
  BOOST_TEST(summary["complete"] == false);
  BOOST_TEST(summary["counts"]["no-verdict"] == 1);
  pugi::xml_document junit;
  BOOST_REQUIRE(junit.load_file((dir / "r" / "junit.xml").c_str()));
  BOOST_TEST(junit.select_nodes("//testcase/error").size() == 1u);
  BOOST_TEST(contains(test::read_file(dir / "r" / "report.html"), "banner INCOMPLETE"));
}

BOOST_AUTO_TEST_CASE(faults_are_classified_in_one_place) {
  const auto kind_of = [](auto&& thrower) {
    try {
      thrower();
    } catch (...) {
      return classify_fault(std::current_exception());
    }
    return Fault{};
  };
  BOOST_TEST(kind_of([] { throw RefusedConfiguration("option x", "1", "no"); }).kind == FaultKind::refused);
  BOOST_TEST(kind_of([] { throw ConfigError("plane Y", "2x2", "too small"); }).kind == FaultKind::refused);
  BOOST_TEST(kind_of([] { throw BackendUnavailable("backend", "cuda", "no device"); }).kind == FaultKind::unavailable);
  BOOST_TEST(kind_of([] { throw UsageError("--frames", "x", "bad"); }).kind == FaultKind::usage);
  BOOST_TEST(kind_of([] { throw InputError("f.y4m", "W", "0", "bad"); }).kind == FaultKind::input);
  BOOST_TEST(kind_of([] { throw TimeoutError("slow"); }).kind == FaultKind::timeout);
  BOOST_TEST(kind_of([] { throw std::bad_alloc(); }).kind == FaultKind::no_memory);
  BOOST_TEST(kind_of([] { throw 42; }).kind == FaultKind::internal);
  const Fault device = kind_of([] { throw DeviceError("cudaErrorLaunchFailure\x01"); });
  BOOST_TEST(device.kind == FaultKind::device);
  BOOST_TEST(device.text() == "device: cudaErrorLaunchFailure\\x01");  // control bytes escaped
  BOOST_TEST(kind_of([] { throw std::logic_error("bug"); }).text() == "internal: bug");
  BOOST_TEST(kind_of([] { throw BackendUnavailable("backend", "cuda", "no device"); }).text() == "no device");
}

BOOST_AUTO_TEST_CASE(max_failures_stops_the_run_and_says_so) {
  const Matrix m = load_matrix(matrix_file("selftest.json"));
  TempDir dir;
  GateOptions o = quiet_options(dir / "r");
  o.jobs = 1;  // one worker: nothing else is in flight when the second failure stops the run
  o.max_failures = 2;
  const GateOutcome out = run_gate(m.cells,
                                   Calibration::load(write_table(dir, {{"mutant-ulp", "exact"},
                                                                       {"mutant-nan", "exact"},
                                                                       {"mutant-sum", "exact"},
                                                                       {"mutant-blur", "exact"},
                                                                       {"mutant-drift", "exact"},
                                                                       {"mutant-drift-6e-5", "exact"}})),
                                   o);
  BOOST_TEST(out.stopped_early);
  BOOST_TEST(out.results.size() == m.cells.size());
  const auto count = [&](CellStatus s) {
    return std::count_if(out.results.begin(), out.results.end(), [&](const CellResult& r) { return r.status == s; });
  };
  BOOST_TEST(count(CellStatus::fail) == 2);
  BOOST_TEST(count(CellStatus::no_verdict) == static_cast<long>(m.cells.size()) - 2);
  // A judged failure makes the run FAIL (exit 1) whatever the unjudged cells would say; the
  // headline says the run is incomplete.
  BOOST_TEST(out.exit_code == kExitFail);
  BOOST_TEST(run_verdict(out.results) == "FAIL");
  BOOST_TEST(verdict_line(out.results) == fmt::format("FAIL (incomplete: {} cell(s) without a verdict)", m.cells.size() - 2));
  BOOST_TEST(read_results(dir / "r" / "results.jsonl").size() == 2u);  // no-verdict cells are never recorded
  const auto stopped = std::find_if(out.results.begin(), out.results.end(),
                                    [](const CellResult& r) { return r.status == CellStatus::no_verdict; });
  BOOST_TEST(contains(stopped->detail, "stopped after 2 failing or erroring cell(s) (--max-failures 2)"));
}

BOOST_AUTO_TEST_CASE(bytes_from_outside_never_break_a_report) {
  // A program's stderr, a file name or a plugin's version may hold any bytes: invalid UTF-8
  // (a stray continuation byte, an overlong '/', a surrogate, a cut sequence), controls, and
  // U+FFFF, which XML 1.0 does not allow. Every report is still written and well-formed, each
  // such byte shown as U+FFFD; well-formed text (é, U+1D11E) is kept.
  const std::string hostile =
      std::string("said: \x80 \xC0\xAF \xED\xA0\x80 \x01 \xEF\xBF\xBF caf\xC3\xA9 \xF0\x9D\x84\x9E \xE2\x82");
  BOOST_TEST(xml_text(hostile) ==
             "said: \xEF\xBF\xBD \xEF\xBF\xBD\xEF\xBF\xBD \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD \xEF\xBF\xBD "
             "\xEF\xBF\xBD caf\xC3\xA9 \xF0\x9D\x84\x9E \xEF\xBF\xBD\xEF\xBF\xBD");
  CellResult failed;
  failed.cell.id = "psnr/exec-x/pan576~noise4/8b/420/default";
  failed.cell.feature = "psnr";
  failed.cell.twin = "exec-x";
  failed.status = CellStatus::error;
  failed.detail = "tool error: x exited with status 3; " + hostile;
  failed.twin_provenance = {{"executable", "/tmp/x\xff"}, {"version", "x 1.0 \xfe"}};
  TempDir dir;
  render_reports(dir / "r", {failed}, nlohmann::json::object());
  const auto summary = nlohmann::json::parse(test::read_file(dir / "r" / "summary.json"));
  BOOST_TEST(summary["verdict"] == run_verdict({failed}));
  BOOST_TEST(summary["exit_code"] == exit_code_for({failed}, {}));
  BOOST_TEST(summary["exit_code"] != 0);
  // JSON may hold U+FFFF (it is UTF-8); the markup and the markdown may not.
  BOOST_TEST(contains(test::read_file(dir / "r" / "summary.json"), "\xEF\xBF\xBD"));
  for (const char* report : {"junit.xml", "report.html", "summary.md"}) {
    const std::string text = test::read_file(dir / "r" / report);
    BOOST_TEST(xml_text(text) == text, report << " holds a byte XML or UTF-8 does not allow");
    BOOST_TEST(contains(text, "\xEF\xBF\xBD"), report);
  }
  pugi::xml_document junit;
  BOOST_TEST(static_cast<bool>(junit.load_file((dir / "r" / "junit.xml").c_str())));
  BOOST_TEST(junit.child("testsuites").attribute("errors").as_int() == 1);
}

// One tally renders every output: over runs of each kind, summary.json, JUnit, summary.md and the
// HTML report give the same counts, verdict and exit code, and those are the ones each kind must have.
BOOST_AUTO_TEST_CASE(every_report_renders_the_one_tally) {
  const auto cell = [](const char* option_set, CellStatus status, bool required = false) {
    CellResult r;
    r.cell.feature = "float_motion";
    r.cell.twin = "cpu-simd";
    r.cell.option_set = option_set;
    r.cell.id = std::string("float_motion/cpu-simd/flash64/8b/420/") + option_set;
    r.status = status;
    r.required = required;
    return r;
  };
  struct Run {
    const char* name;
    std::vector<CellResult> results;
    RunEnd end;
    const char* verdict;
    int exit_code;
    std::size_t junit_failures, junit_errors, junit_skipped;
  };
  const CellResult pass = cell("a", CellStatus::pass), fail = cell("b", CellStatus::fail), error = cell("c", CellStatus::error),
                   unsupported = cell("d", CellStatus::not_supported), required = cell("e", CellStatus::not_supported, true),
                   waived = cell("f", CellStatus::waived), unjudged = cell("g", CellStatus::no_verdict),
                   timeout = cell("h", CellStatus::timeout);
  const std::vector<Run> runs = {
      {"pass", {pass, unsupported}, {}, "PASS", 0, 0, 0, 1},
      {"fail", {pass, fail, unsupported}, {}, "FAIL", 1, 1, 0, 1},
      {"error", {pass, fail, error, timeout}, {}, "ERROR", 2, 1, 2, 0},
      {"required not supported", {pass, required}, {}, "FAIL", 1, 0, 1, 0},
      {"every cell not supported", {unsupported, unsupported}, {}, "ERROR", 2, 0, 0, 2},
      {"waived", {pass, waived}, {}, "PASS", 0, 0, 0, 1},
      {"interrupted", {pass, unjudged}, {15, false, {}}, "INCOMPLETE", 143, 0, 1, 0},
      {"interrupted after a failure", {fail, unjudged}, {2, false, {}}, "FAIL", 130, 1, 1, 0},
      {"empty", {}, {}, "ERROR", 2, 0, 0, 0},
      {"empty, allowed", {}, {0, true, {}}, "PASS", 0, 0, 0, 0},
  };
  for (const Run& run : runs) {
    TempDir dir;
    render_reports(dir / "r", run.results, nlohmann::json::object(), {}, run.end);
    const RunTally t = tally_run(run.results, run.end);
    BOOST_TEST(t.verdict == run.verdict, run.name);
    BOOST_TEST(t.exit_code == run.exit_code, run.name);
    BOOST_TEST(t.junit("failure") == run.junit_failures, run.name);
    BOOST_TEST(t.junit("error") == run.junit_errors, run.name);
    BOOST_TEST(t.junit("skipped") == run.junit_skipped, run.name);
    std::size_t sum = 0;
    for (Tally k : kTallies) sum += t.of(k);
    BOOST_TEST(sum == run.results.size(), run.name);
    // summary.json
    const auto summary = nlohmann::json::parse(test::read_file(dir / "r" / "summary.json"));
    BOOST_TEST(summary["verdict"] == t.verdict, run.name);
    BOOST_TEST(summary["exit_code"] == t.exit_code, run.name);
    BOOST_TEST(summary["complete"] == t.complete, run.name);
    BOOST_TEST(summary["counts"] == t.counts_json(), run.name);
    // JUnit: the totals and the elements agree.
    pugi::xml_document junit;
    BOOST_TEST_REQUIRE(static_cast<bool>(junit.load_file((dir / "r" / "junit.xml").c_str())), run.name);
    const pugi::xml_node suites = junit.child("testsuites");
    BOOST_TEST(suites.attribute("tests").as_ullong() == t.total, run.name);
    for (const char* element : {"failure", "error", "skipped"}) {
      const char* total = std::string(element) == "failure" ? "failures" : std::string(element) == "error" ? "errors" : "skipped";
      BOOST_TEST(suites.attribute(total).as_ullong() == t.junit(element), run.name << " " << element);
      BOOST_TEST(junit.select_nodes((std::string("//testcase/") + element).c_str()).size() == t.junit(element),
                 run.name << " " << element);
    }
    // summary.md: the headline and the table's columns.
    const std::string md = test::read_file(dir / "r" / "summary.md");
    BOOST_TEST(md.rfind("## twinproof gate: " + verdict_line(run.results, run.end) + "\n", 0) == 0, run.name << ": " << md);
    BOOST_TEST(md.rfind(std::string("## twinproof gate: ") + run.verdict, 0) == 0, run.name);
    if (!run.results.empty()) {
      std::string row = "| float_motion/cpu-simd |";
      for (Tally k : kTallies) row += fmt::format(" {} |", t.of(k));
      BOOST_TEST(contains(md, row), run.name << ": " << md);
    }
    // The HTML report: the banner and the counts.
    const std::string html = test::read_file(dir / "r" / "report.html");
    BOOST_TEST(contains(html, fmt::format("<div class=\"banner {}\">", t.verdict)), run.name);
    for (Tally k : kTallies) BOOST_TEST(contains(html, fmt::format("<b>{}</b> {} ", to_string(k), t.of(k))), run.name);
  }
}

// calibrate says what happened: no "places=0 held", no "-> no row" for a row it keeps, no failing
// cell dropped without a word, and what the margin gives up.
BOOST_AUTO_TEST_CASE(calibrate_prints_only_what_happened) {
  TempDir dir;
  const Calibration table = Calibration::load(write_table(dir, {{"far", "exact"}, {"near", "places=2"}}));
  const auto record = [](const char* twin, double diff, CellStatus status = CellStatus::fail) {
    CellResult r;
    r.cell.kind = CellKind::parity;
    r.cell.feature = "float_motion";
    r.cell.reference = "cpu";
    r.cell.twin = twin;
    r.cell.id = std::string("float_motion/") + twin + "/pan576/8b/420/default";
    r.status = status;
    r.device = "host";
    r.tolerance = "exact";
    if (diff >= 0)
      r.per_metric = {
          {"motion2", {{"values", 10}, {"unpaired", 0}, {"mismatches", 10}, {"max_abs_diff", diff}, {"max_ulp", 99}}}};
    return r;
  };
  const CalibrationProposal p =
      propose_calibration({record("far", 11.5), record("near", 0.003), record("far", -1)}, table, 1, {"r"});
  const std::string text = describe_proposal(p);
  BOOST_TEST(contains(text, "a places row is the tightest that held less --margin 1 (--margin 0: the tightest)"), text);
  BOOST_TEST(contains(text,
                      "NONE     float_motion far vs cpu: exact -> exact kept unchanged: the evidence supports no row "
                      "(max |diff| 11.5 over 10 values: not even places=1 holds"),
             text);
  BOOST_TEST(!contains(text, "places=0"), text);
  BOOST_TEST(contains(text, "LOOSER   float_motion near vs cpu: places=2 -> places=1"), text);
  BOOST_TEST(contains(text, "places=2 held, so --margin 0 keeps the row in force"), text);
  BOOST_TEST(contains(text, "left out: 1 failing cell(s) of float_motion far compared no value"), text);
  // The proposed table keeps the row it printed as kept.
  BOOST_TEST(
      Calibration::from_json(p.table, "proposed").find("float_motion", "cpu", "far", "motion2", "")->tolerance.describe() ==
      "exact");
}

BOOST_AUTO_TEST_CASE(reports_lead_with_the_verdict_and_the_failures) {
  CellResult pass, fail, skipped;
  pass.cell.id = "float_motion/cpu-simd/flash64/8b/420/default";
  pass.cell.feature = "float_motion";
  pass.cell.twin = "cpu-simd";
  pass.status = CellStatus::pass;
  fail = pass;
  fail.cell.id = "float_motion/cpu-simd/flash64/8b/420/add_uv";
  fail.cell.option_set = "add_uv";
  fail.status = CellStatus::fail;
  fail.seconds = 0.25;
  skipped = pass;
  skipped.cell.id = "float_motion/cuda/flash64/8b/420/default";
  skipped.cell.twin = "cuda";
  skipped.status = CellStatus::not_supported;
  pass.seconds = 0.5;
  TempDir dir;
  render_reports(dir / "r", {pass, fail, skipped}, {{"time", "2026-12-03T01:02:03Z"}, {"host", "runner-7"}});
  BOOST_TEST(verdict_line({pass, skipped}) == "PASS, 1 cell(s) not supported here");
  // HTML: the banner, then the failing cells with their repro command, then the heatmaps; every
  // cell is an anchor, a failing one links to its detail row.
  const std::string html = test::read_file(dir / "r" / "report.html");
  const auto banner = html.find("banner FAIL"), detail = html.find("id=\"detail:" + fail.cell.id + "\""),
             map = html.find("class=map");
  BOOST_TEST(banner < detail);
  BOOST_TEST(detail < map);
  BOOST_TEST(map != std::string::npos);
  BOOST_TEST(contains(html, "twinproof repro " + fail.cell.id));
  BOOST_TEST(contains(html, "<td id=\"" + pass.cell.id + "\""));
  BOOST_TEST(contains(html, "<td id=\"" + fail.cell.id + "\" class=fail"));
  BOOST_TEST(contains(html, "<a href=\"#detail:" + fail.cell.id + "\">"));
  BOOST_TEST(contains(html, "max-width:1360px"));
  // JUnit: totals, timestamp and host on the root and on each suite.
  pugi::xml_document junit;
  BOOST_REQUIRE(junit.load_file((dir / "r" / "junit.xml").c_str()));
  const pugi::xml_node root = junit.child("testsuites");
  BOOST_TEST(root.attribute("tests").as_int() == 3);
  BOOST_TEST(root.attribute("failures").as_int() == 1);
  BOOST_TEST(root.attribute("errors").as_int() == 0);
  BOOST_TEST(root.attribute("skipped").as_int() == 1);
  BOOST_TEST(std::string(root.attribute("time").value()) == "0.750");
  BOOST_TEST(std::string(root.attribute("timestamp").value()) == "2026-12-03T01:02:03Z");
  BOOST_TEST(std::string(root.child("testsuite").attribute("hostname").value()) == "runner-7");
  BOOST_TEST(contains(test::read_file(dir / "r" / "summary.md"), "## twinproof gate: FAIL, 1 cell(s) not supported here"));
  // A required twin that cannot run is a JUnit error (not judged), and fails the run.
  CellResult required = skipped;
  required.required = true;
  render_reports(dir / "q", {pass, required}, nlohmann::json::object());
  pugi::xml_document q;
  BOOST_REQUIRE(q.load_file((dir / "q" / "junit.xml").c_str()));
  BOOST_TEST(q.select_nodes("//testcase/error").size() == 1u);
  BOOST_TEST(q.select_nodes("//testcase/failure").size() == 0u);
  BOOST_TEST(contains(q.select_node("//testcase/error").node().attribute("message").value(), "required but not supported"));
  BOOST_TEST(run_verdict({pass, required}) == "FAIL");
}

BOOST_AUTO_TEST_CASE(the_recap_shows_the_first_difference_and_the_repro_command) {
  const Matrix m = load_matrix(matrix_file("selftest.json"));
  const auto cells = filter_cells(m.cells, {"*/mutant-ulp/still64/*/default"});
  TempDir dir;
  const GateOutcome out = run_gate(cells, Calibration::load(write_table(dir, {{"mutant-ulp", "exact"}})), quiet_options());
  const std::string recap = failure_recap(out.results);
  BOOST_TEST(
      contains(recap, "fail float_motion/mutant-ulp/still64/8b/420/default: frame 1 motion2: reference 0 (0x0p+0) vs twin"));
  BOOST_TEST(contains(recap, "1 ULP"));
  BOOST_TEST(contains(recap, "twinproof repro float_motion/mutant-ulp/still64/8b/420/default --with-mutants"));
  BOOST_TEST(failure_recap({}).empty());
}

// A fault outside a worker's own handling (the gate's bookkeeping out of memory, say) must reach
// the owner as an error once every worker is joined: before, it ended the process through
// std::terminate. (The CI failure of -j 1000 under a 640 MiB address space was a neighbour of
// this: workers running cells while threads were still starting. start_workers now holds them
// until all have started; the hostile corpus covers that case.)
BOOST_AUTO_TEST_CASE(a_fault_that_escapes_a_worker_is_rethrown_after_every_worker_is_joined) {
  std::atomic<int> finished{0}, stops{0};
  std::atomic<bool> stopping{false};
  WorkerFault fault;
  std::atomic<int> started{0};
  auto pool = start_workers(
      4,
      [&](unsigned) {
        if (started++ == 0) throw std::bad_alloc();
        while (!stopping) std::this_thread::yield();  // the others run until the fault stops them
        ++finished;
      },
      [&] {
        ++stops;
        stopping = true;
      },
      fault, "--jobs");
  for (std::thread& t : pool) t.join();
  BOOST_TEST(finished.load() == 3);
  BOOST_TEST(stops.load() == 1);
  BOOST_TEST(fault.kept());
  BOOST_CHECK_THROW(fault.rethrow_if_kept(), std::bad_alloc);
}

// run_ordered reports results in job order and ends at the first error, a job's or the
// reporter's own, without waiting for jobs no worker took (it used to wait for them forever) and
// without leaving a worker unjoined (a throwing reporter used to end the process).
BOOST_AUTO_TEST_CASE(run_ordered_ends_at_the_first_error_and_joins_its_workers) {
  for (unsigned jobs : {1u, 2u, 4u}) {
    std::vector<std::size_t> done;
    BOOST_CHECK_THROW((run_ordered<int>(
                          64, jobs,
                          [](std::size_t i) -> int {
                            if (i == 3) throw std::runtime_error("job 3");
                            return static_cast<int>(i);
                          },
                          [&](std::size_t i, int&) { done.push_back(i); })),
                      std::runtime_error);
    BOOST_TEST(done == (std::vector<std::size_t>{0, 1, 2}));
    done.clear();
    BOOST_CHECK_THROW((run_ordered<int>(
                          64, jobs, [](std::size_t i) -> int { return static_cast<int>(i); },
                          [&](std::size_t i, int&) {
                            done.push_back(i);
                            if (i == 1) throw std::runtime_error("reporting job 1");
                          })),
                      std::runtime_error);
    BOOST_TEST(done == (std::vector<std::size_t>{0, 1}));
    done.clear();
    run_ordered<int>(
        64, jobs, [](std::size_t i) -> int { return static_cast<int>(i); },
        [&](std::size_t i, int& r) {
          BOOST_TEST(r == static_cast<int>(i));
          done.push_back(i);
        });
    BOOST_TEST(done.size() == 64u);
    BOOST_TEST(std::is_sorted(done.begin(), done.end()));
  }
}

BOOST_AUTO_TEST_SUITE_END()

// The gate's parts, each without the others: the plan, the judge, the recorder, the watchdog.
BOOST_AUTO_TEST_SUITE(gate_parts)

namespace {
std::vector<Cell> one_unit() {
  return filter_cells(load_matrix(matrix_file("gate.json")).cells, {"float_motion/*/tiny3/8b/444/default"});
}
const Cell& cell_of(const std::vector<Cell>& cells, const std::string& twin) {
  return *std::find_if(cells.begin(), cells.end(), [&](const Cell& c) { return c.twin == twin; });
}
}  // namespace

BOOST_AUTO_TEST_CASE(the_plan_runs_references_first_and_knows_what_is_required) {
  const std::vector<Cell> cells = one_unit();
  BOOST_REQUIRE(cells.size() >= 5u);  // the reference's regression cell and one cell per twin
  const GatePlan plan = plan_gate(cells, {"cuda"}, false);
  BOOST_TEST(plan.reference_runs == 1u);
  BOOST_REQUIRE(!plan.cpu.empty());
  BOOST_TEST(plan.cpu.front().reference);
  BOOST_TEST(plan.cpu.front().backend->name == "cpu");
  // Every cell is either planned to run or judged not supported, never both, never neither.
  BOOST_TEST(plan.cpu.size() - plan.reference_runs + plan.gpu.size() + plan.not_supported.size() + 1 == cells.size());
  for (const CellResult& r : plan.not_supported) {
    BOOST_TEST(find_backend(r.cell.feature, r.cell.twin)->gpu());  // only a device is missing here
    BOOST_TEST(r.required);                                        // --require cuda: the kind
  }
  for (const GateTask& t : plan.gpu) BOOST_TEST(t.backend->gpu());
  const Cell& simd = cell_of(cells, "cpu-simd");
  BOOST_TEST(is_required({"cpu-simd"}, simd, find_backend("float_motion", "cpu-simd")));
  BOOST_TEST(!is_required({"cuda"}, simd, find_backend("float_motion", "cpu-simd")));
  BOOST_TEST(is_required({"cuda"}, cell_of(cells, "cuda-block"), find_backend("float_motion", "cuda-block")));
  BOOST_CHECK_THROW(plan_gate({[&] {
                                Cell c = simd;
                                c.reference = "nope";
                                return c;
                              }()},
                              {}, false),
                    UsageError);
}

BOOST_AUTO_TEST_CASE(the_judge_waits_for_the_reference_and_needs_no_threads) {
  const std::vector<Cell> cells = one_unit();
  const Cell& golden = cell_of(cells, "cpu");
  const Cell& simd = cell_of(cells, "cpu-simd");
  BOOST_REQUIRE(golden.kind == CellKind::regression);
  const Calibration table = Calibration::load(table_file());
  const Outcome ref = run_backend(*find_backend("float_motion", "cpu"), golden, {}, 0);
  BOOST_REQUIRE(ref.kind == Outcome::Kind::scores);

  UnitJudge judge(table, "2026-01-01");
  judge.expect(golden);
  judge.expect(simd);
  BOOST_TEST(judge.pending() == 2u);
  BOOST_TEST(judge.twin_done(simd, ref).empty());  // waits for its reference
  const std::vector<CellResult> ready = judge.reference_done(golden.unit(), ref);
  BOOST_REQUIRE(ready.size() == 2u);
  for (const CellResult& r : ready) BOOST_TEST(r.status == CellStatus::pass, r.cell.id << ": " << r.detail);
  BOOST_TEST(judge.pending() == 0u);

  // A twin one ULP off in one value fails its exact row; one that refuses fails too.
  UnitJudge later(table, "2026-01-01");
  later.expect(simd);
  BOOST_TEST(later.reference_done(simd.unit(), ref).empty());
  Outcome off = ref;
  auto column = off.table.columns().at("motion2");
  column.at(1) = std::nextafter(*column.at(1), 1e9);
  off.table.set_column("motion2", column);
  const std::vector<CellResult> failed = later.twin_done(simd, off);
  BOOST_REQUIRE(failed.size() == 1u);
  BOOST_TEST(failed[0].status == CellStatus::fail);
  BOOST_TEST(failed[0].max_ulp == 1u);
  Outcome refused;
  refused.kind = Outcome::Kind::refused;
  refused.message = "no";
  const CellResult r = judge_parity(simd, ref, refused, table, "2026-01-01");
  BOOST_TEST(r.status == CellStatus::fail);
  BOOST_TEST(r.detail == "the twin refuses what the reference scores: no");
}

BOOST_AUTO_TEST_CASE(the_recorder_writes_each_verdict_and_stops_at_max_failures) {
  const std::vector<Cell> cells = one_unit();
  TempDir dir;
  GateRecorder recorder(cells, {dir / "r", false, 1});
  CellResult unsupported;
  unsupported.cell = cells.back();
  unsupported.status = CellStatus::not_supported;
  recorder.record_planned({unsupported});
  CellResult pass;
  pass.cell = cells.front();
  pass.status = CellStatus::pass;
  recorder.record(pass);
  BOOST_TEST(!recorder.stop_requested());
  BOOST_TEST(read_results(dir / "r" / "results.jsonl").size() == 2u);  // on disk already
  CellResult fail = pass;
  fail.cell = cells[1];
  fail.status = CellStatus::fail;
  recorder.record(fail);
  BOOST_TEST(recorder.stop_requested());
  BOOST_TEST(recorder.stopped_early());
  BOOST_TEST(recorder.failures() == 1u);
  const auto rest = recorder.without_verdict(CellStatus::no_verdict, "stopped");
  BOOST_TEST(rest.size() == cells.size() - 3);
  for (const CellResult& r : rest) BOOST_TEST(r.status == CellStatus::no_verdict);
  BOOST_TEST(test::read_file(dir / "r" / "cells.txt").find(cells.back().id) != std::string::npos);
  BOOST_CHECK_THROW(GateRecorder(cells, {dir / "r" / "cells.txt" / "x", false, 0}), InputError);
}

namespace {
// The exit status of a child that installs the interrupt handlers and then runs `body` (which
// uses only async-signal-safe calls: the test binary may have threads), or -1 if it was killed.
int exit_status_of_child(void (*body)()) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    install_interrupt_handlers();
    body();
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
}  // namespace

BOOST_AUTO_TEST_CASE(one_stop_delivered_twice_is_one_request_and_a_later_one_quits_at_once) {
  // timeout(1) signals the process and its process group: the run must still finish its reports.
  BOOST_TEST(exit_status_of_child([] {
               ::raise(SIGTERM);
               ::raise(SIGTERM);
               ::raise(SIGINT);
               ::_exit(interrupt_signal() == SIGTERM ? 7 : 8);
             }) == 7);
  // A second request a second or more after the first ends the process at once, as 128 + signal.
  BOOST_TEST(exit_status_of_child([] {
               ::raise(SIGINT);
               timespec left{1, 200'000'000};  // 1.2 s, past the second in which a repeat is the same stop
               while (::nanosleep(&left, &left) != 0) {
               }
               ::raise(SIGINT);
               ::_exit(9);  // not reached
             }) == 130);
}

BOOST_AUTO_TEST_CASE(the_watchdog_names_a_hung_task_once_and_ignores_finished_ones) {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::string> hung;
  {
    HangWatchdog watchdog(
        0.02,
        [&](const std::string& stuck) {
          std::lock_guard lock(mu);
          hung.push_back(stuck);
          cv.notify_all();
        },
        0.02);
    watchdog.end(watchdog.begin("quick"));
    watchdog.begin("stuck");
    std::unique_lock lock(mu);
    BOOST_TEST(cv.wait_for(lock, std::chrono::seconds(10), [&] { return !hung.empty(); }));
  }
  BOOST_TEST(hung == std::vector<std::string>{"stuck"});
  HangWatchdog off(0, [](const std::string&) { BOOST_FAIL("a watchdog without a limit fired"); });
  off.begin("anything");
}

BOOST_AUTO_TEST_SUITE_END()
