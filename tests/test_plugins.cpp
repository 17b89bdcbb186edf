// Plugin twins (extractors/twinproof_plugin.h): the example plugins gated end to end (the exact one
// passes, the reordered one fails and repro names the reduction), and every way a plugin can break
// the ABI ending as a clear error or the right status.
#include <cstdlib>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include "harness/gate/gate.hpp"
#include "harness/report/results.hpp"
#include "harness/support/paths.hpp"
#include "tests/support.hpp"

using namespace twinproof;
using twinproof::test::contains;
using twinproof::test::run_cli;
using twinproof::test::TempDir;
namespace fs = std::filesystem;

namespace {

const std::string kExact = TWINPROOF_EXAMPLE_PLUGIN;
const std::string kSadOrder = TWINPROOF_EXAMPLE_PLUGIN_SAD_ORDER;
const std::string kBroken = TWINPROOF_BROKEN_PLUGIN;
const std::string kPsnr = TWINPROOF_EXAMPLE_PSNR_PLUGIN;
const std::string kPsnrV1 = TWINPROOF_EXAMPLE_PSNR_V1_PLUGIN;

std::string plugins_matrix() { return (data_root() / "ci" / "matrices" / "plugins.json").string(); }

// TWINPROOF_BROKEN_CASE for the commands run inside one scope.
struct BrokenCase {
  explicit BrokenCase(const char* c) { ::setenv("TWINPROOF_BROKEN_CASE", c, 1); }
  ~BrokenCase() { ::unsetenv("TWINPROOF_BROKEN_CASE"); }
};

// The broken plugin's one cell: a matrix and a table with an exact row for it, written into `dir`.
std::pair<fs::path, fs::path> broken_plugin_cell(const TempDir& dir) {
  const fs::path matrix = dir / "broken.json", calibration = dir / "calibration.json";
  test::write_file(matrix, R"({"schema": 2, "name": "broken", "description": "the broken plugin's one cell",
    "features": [{"feature": "float_motion", "reference": "cpu", "option_sets": {"default": {}},
      "axes": {"twin": ["broken-plugin"], "vector": ["pan576"], "bitdepth": ["native"], "chroma": ["native"], "options": ["default"]}}]})");
  test::write_table_with_exact_rows(calibration, {"broken-plugin"});
  return {matrix, calibration};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(plugins)

BOOST_AUTO_TEST_CASE(a_plugin_twin_is_a_backend_like_any_other) {
  const auto r = run_cli({"--plugin", kExact, "backends"});
  BOOST_TEST(r.rc == 0, r.err);
  BOOST_TEST(contains(r.out, "example-plugin"), r.out);
  BOOST_TEST(contains(r.out, "example C plugin: float_motion luma, the contract's order (exact)"), r.out);
  // TWINPROOF_PLUGINS loads the same, several at once.
  ::setenv("TWINPROOF_PLUGINS", (kExact + ":" + kSadOrder).c_str(), 1);
  const auto env = run_cli({"backends"});
  ::unsetenv("TWINPROOF_PLUGINS");
  BOOST_TEST(env.rc == 0, env.err);
  BOOST_TEST(contains(env.out, "example-plugin-sad-order"), env.out);
  // Without it, the matrix's plugin cells are not supported (never passed), and say why.
  TempDir dir;
  const auto absent = run_cli({"gate", "--matrix", plugins_matrix(), "--filter", "*/example-plugin/pan576/*/default", "--quiet",
                               "--report-dir", (dir / "r").string()});
  BOOST_TEST(absent.rc == 2, absent.out << absent.err);  // a run that judged nothing says so
  BOOST_TEST(contains(absent.err, "the gate judged no cell"), absent.err);
  for (const CellResult& c : read_results(dir / "r" / "results.jsonl")) BOOST_TEST(c.status == CellStatus::not_supported);
  // Every report states the exit code the process returned: never a PASS for a run that judged nothing...
  const nlohmann::json summary = nlohmann::json::parse(test::read_file(dir / "r" / "summary.json"));
  BOOST_TEST(summary["exit_code"] == 2);
  BOOST_TEST(summary["verdict"] == "ERROR");
  BOOST_TEST(contains(test::read_file(dir / "r" / "summary.md"), "## twinproof gate: ERROR: no cell judged"));
  BOOST_TEST(contains(test::read_file(dir / "r" / "report.html"), "<div class=\"banner ERROR\">ERROR: no cell judged"));
  // ...unless the run was told that none may be judged here.
  const auto allowed = run_cli({"gate", "--matrix", plugins_matrix(), "--filter", "*/example-plugin/pan576/*/default", "--quiet",
                                "--allow-empty", "--report-dir", (dir / "a").string()});
  BOOST_TEST(allowed.rc == 0, allowed.out << allowed.err);
  const nlohmann::json accepted = nlohmann::json::parse(test::read_file(dir / "a" / "summary.json"));
  BOOST_TEST(accepted["exit_code"] == 0);
  BOOST_TEST(accepted["verdict"] == "PASS");
  BOOST_TEST(contains(test::read_file(dir / "a" / "summary.md"),
                      "no cell judged, every selected cell is not supported here (accepted: --allow-empty)"));
}

BOOST_AUTO_TEST_CASE(the_exact_example_plugin_passes_every_cell_it_supports) {
  TempDir dir;
  const auto r = run_cli({"gate", "--plugin", kExact, "--matrix", plugins_matrix(), "--filter", "*/example-plugin/*", "--quiet",
                          "--report-dir", (dir / "r").string()});
  BOOST_TEST(r.rc == 0, r.out << r.err);
  std::size_t pass = 0, refusals = 0, unsupported = 0;
  for (const CellResult& c : read_results(dir / "r" / "results.jsonl")) {
    BOOST_TEST((c.status == CellStatus::pass || c.status == CellStatus::not_supported), c.cell.id << ": " << c.detail);
    if (c.status == CellStatus::pass && !contains(c.detail, "both refuse")) {
      ++pass;
      BOOST_TEST(c.tolerance == "exact");
      BOOST_TEST(c.max_ulp == 0u);
      BOOST_TEST(c.twin_provenance.value("sha256", "").size() == 64u);
      BOOST_TEST(c.twin_provenance.value("plugin", "") == fs::absolute(kExact).string());
    }
    refusals += contains(c.detail, "both refuse");
    // What the example leaves out is not supported, with its reason, never a pass.
    if (c.status == CellStatus::not_supported) {
      ++unsupported;
      BOOST_TEST(contains(c.detail, "without motion_add_uv and motion_add_scale1"), c.detail);
    }
  }
  // ci/matrices/plugins.json: 47 cells, 24 scored, 11 refused by both, 12 with chroma or scale1.
  BOOST_TEST(pass == 24u);
  BOOST_TEST(refusals == 11u);
  BOOST_TEST(unsupported == 12u);
}

BOOST_AUTO_TEST_CASE(the_reordered_sum_fails_and_repro_names_the_reduction) {
  TempDir dir;
  const auto r = run_cli({"gate", "--plugin", kSadOrder, "--matrix", plugins_matrix(), "--filter", "*/example-plugin-sad-order/*",
                          "--quiet", "--report-dir", (dir / "r").string()});
  BOOST_TEST(r.rc == 1, r.out << r.err);
  std::size_t failed = 0;
  for (const CellResult& c : read_results(dir / "r" / "results.jsonl")) {
    BOOST_TEST(c.status != CellStatus::error, c.cell.id << ": " << c.detail);
    failed += c.status == CellStatus::fail;
  }
  // 14 of the 24 scored cells: on the others (a still or flat clip, force_zero, the identity
  // filter) the two orders happen to give the same floats.
  BOOST_TEST(failed == 14u);
  // The recap's repro command carries the --plugin that finds the twin again.
  const std::string cell = "float_motion/example-plugin-sad-order/pan576/8b/420/default";
  BOOST_TEST(contains(r.out, "twinproof repro " + cell + " --plugin " + fs::absolute(kSadOrder).string()), r.out);
  const auto repro = run_cli({"repro", cell, "--plugin", kSadOrder});
  BOOST_TEST(repro.rc == 1, repro.err);
  BOOST_TEST(contains(repro.out, "blur             equal bit for bit"), repro.out);
  BOOST_TEST(contains(repro.out, "first divergence: row sums, plane Y, row"), repro.out);
  BOOST_TEST(contains(repro.out, "(blur equal before it)"), repro.out);
  BOOST_TEST(contains(repro.out, "the reduction departs, its inputs (blur) are equal"), repro.out);
  BOOST_TEST(contains(repro.out, "rerun: twinproof repro " + cell + " --plugin " + fs::absolute(kSadOrder).string()), repro.out);
}

BOOST_AUTO_TEST_CASE(a_version_2_plugin_gets_both_pictures_of_a_pair_and_a_version_1_plugin_none) {
  // example-psnr (extract_pair) over pan576's pairs (every option set and the refusals) and a
  // 16-bit 4:4:4 pair: exact, like twinproof's own. main.sh runs its every pair cell (148).
  TempDir dir;
  const auto r =
      run_cli({"gate", "--plugin", kPsnr, "--matrix", plugins_matrix(), "--filter", "psnr/example-psnr/pan576~*", "--filter",
               "psnr/example-psnr/noise67_16b_444~noise4/*", "--quiet", "--report-dir", (dir / "v2").string()});
  BOOST_TEST(r.rc == 0, r.out << r.err);
  std::size_t pass = 0;
  for (const CellResult& c : read_results(dir / "v2" / "results.jsonl")) pass += c.status == CellStatus::pass;
  BOOST_TEST(pass == 34u);  // pan576: 4 distortions x 6 option sets and noise4's 4 refusals; noise67_16b_444~noise4's 6
  // The same twin as a version-1 table is handed one picture: never scored, never a pass.
  const auto v1 = run_cli({"gate", "--plugin", kPsnrV1, "--matrix", plugins_matrix(), "--filter", "psnr/example-psnr-v1/*",
                           "--quiet", "--report-dir", (dir / "v1").string()});
  BOOST_TEST(v1.rc == 2, v1.out << v1.err);  // every selected cell not supported: the run judged nothing
  const auto records = read_results(dir / "v1" / "results.jsonl");
  BOOST_TEST(!records.empty());
  for (const CellResult& c : records) {
    BOOST_TEST((c.status == CellStatus::not_supported), c.cell.id);
    BOOST_TEST(contains(c.detail, "has no extract_pair (plugin ABI version 1"), c.detail);
  }
  // A version-1 table is still served where the feature reads the reference alone.
  const auto listed = run_cli({"--plugin", kPsnrV1, "backends"});
  BOOST_TEST(listed.rc == 0, listed.err);
  BOOST_TEST(contains(listed.out, "example-psnr-v1"), listed.out);
}

BOOST_AUTO_TEST_CASE(a_plugin_that_breaks_the_abi_is_refused_by_name) {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"abi", "is built for plugin ABI version 99; this twinproof takes versions 1 and 2"},
      {"size", "declares a table of 8 bytes"},
      {"name", "is named 'Broken/Plugin': a twin name is 1 to 64 of a-z, 0-9, '-' and '_'"},
      {"feature", "twins 'psnr_hvs', which is no feature of this twinproof"},
      {"missing", "twin broken-plugin has no extract function"},
      {"none", "exports no twin"},
      {"device", "has device kind 7, neither host (0) nor GPU (1)"},
  };
  for (const auto& [which, message] : cases) {
    BrokenCase c(which);
    const auto r = run_cli({"--plugin", kBroken, "backends"});
    BOOST_TEST(r.rc == 2, which);
    BOOST_TEST(contains(r.err, "plugin " + kBroken), which << ": " << r.err);
    BOOST_TEST(contains(r.err, message), which << ": " << r.err);
  }
  TempDir dir;
  test::write_file(dir / "not-a-library.so", "text\n");
  const auto text = run_cli({"--plugin", (dir / "not-a-library.so").string(), "backends"});
  BOOST_TEST(text.rc == 2);
  BOOST_TEST(contains(text.err, "cannot be loaded"), text.err);
  const auto none = run_cli({"--plugin", (dir / "none.so").string(), "backends"});
  BOOST_TEST(none.rc == 2);
  BOOST_TEST(contains(none.err, "no such file"), none.err);
  // The same twin twice (a plugin given twice) is refused, not silently replaced.
  const auto twice = run_cli({"--plugin", kExact, "--plugin", kExact, "backends"});
  BOOST_TEST(twice.rc == 2);
  BOOST_TEST(contains(twice.err, "already registered"), twice.err);
}

BOOST_AUTO_TEST_CASE(what_a_running_plugin_does_wrong_is_a_status_never_a_pass) {
  struct Expected {
    const char* which;
    CellStatus status;
    const char* detail;
  };
  const std::vector<Expected> cases = {
      {"create", CellStatus::error, "could not create an instance: no licence for this host"},
      {"refuse", CellStatus::fail, "broken-plugin refuses: this plugin refuses everything"},
      {"unsupported", CellStatus::not_supported, "does not support this configuration: only 4:4:4 here"},
      {"unterminated", CellStatus::fail, "broken-plugin refuses: xxxxxxxx"},
      {"metric", CellStatus::error, "emitted 'motion9', which is not a metric of float_motion"},
      {"status", CellStatus::error, "returned 42 from extract, which is no status of the plugin ABI"},
      {"fault", CellStatus::error, "failed in extract: device lost\\x0aFAKE LINE"},
      {"nan", CellStatus::fail, "NaN"},
      {"future", CellStatus::error, "emitted motion2 for frame 100000000, past frame 0, the latest it has been handed"},
      {"", CellStatus::fail, "motion2"},
  };
  TempDir matrix_dir;
  const auto [matrix, calibration] = broken_plugin_cell(matrix_dir);
  for (const Expected& e : cases) {
    BrokenCase c(e.which);
    TempDir dir;
    const auto r = run_cli({"gate", "--plugin", kBroken, "--matrix", matrix.string(), "--calibration", calibration.string(),
                            "--quiet", "--report-dir", (dir / "r").string()});
    BOOST_TEST((r.rc == 1 || r.rc == 2 || r.rc == 0), e.which);
    const auto records = read_results(dir / "r" / "results.jsonl");
    BOOST_TEST_REQUIRE(records.size() == 1u, e.which << ": " << r.out << r.err);
    BOOST_TEST(records[0].status == e.status, e.which << ": " << to_string(records[0].status) << " " << records[0].detail);
    BOOST_TEST(contains(records[0].detail, e.detail), e.which << ": " << records[0].detail);
    // A run whose one cell is not supported judged nothing: exit 2, as the gate says.
    BOOST_TEST(r.rc == (e.status == CellStatus::not_supported ? 2 : exit_code_for(records)), e.which);
  }
}

// A plugin runs in twinproof's process: its exit(0) must not end a run as a pass with no reports.
BOOST_AUTO_TEST_CASE(a_plugin_that_ends_the_process_never_ends_a_run_as_a_pass) {
  TempDir dir;
  const auto [matrix, calibration] = broken_plugin_cell(dir);
  // An earlier run's passing reports in the folder must not survive into this one.
  const fs::path reports = dir / "r";
  BrokenCase fine("");
  const auto earlier = run_cli({"gate", "--matrix", "gate", "--filter", "float_motion/cpu-simd/pan576/8b/420/blend", "--quiet",
                                "--report-dir", reports.string()});
  BOOST_TEST_REQUIRE(contains(test::read_file(reports / "summary.md"), "## twinproof gate: PASS"), earlier.out << earlier.err);
  for (const char* moment : {"load", "create", "init", "extract", "flush"}) {
    BrokenCase c((std::string("exit-") + moment).c_str());
    const auto r = run_cli({"gate", "--plugin", kBroken, "--matrix", matrix.string(), "--calibration", calibration.string(),
                            "--quiet", "-j", "1", "--report-dir", reports.string()});
    BOOST_TEST(r.rc == 2, moment << ": " << r.out << r.err);
    BOOST_TEST(contains(r.err, "called exit(), which would end the run without its verdicts"), moment << ": " << r.err);
    BOOST_TEST(contains(r.err, std::string(moment) == "load" ? "(loading it)" : std::string("in ") + moment),
               moment << ": " << r.err);
    if (std::string(moment) == "load") continue;  // the run never started: the folder holds the earlier run's reports
    const nlohmann::json summary = nlohmann::json::parse(test::read_file(reports / "summary.json"));
    BOOST_TEST(summary["verdict"] == "INCOMPLETE", moment);
    BOOST_TEST(summary["complete"] == false, moment);
    BOOST_TEST(contains(test::read_file(reports / "summary.md"), "## twinproof gate: INCOMPLETE"), moment);
    BOOST_TEST(contains(test::read_file(reports / "report.html"), "banner INCOMPLETE"), moment);
    BOOST_TEST(contains(test::read_file(reports / "junit.xml"), "has not finished"), moment);
  }
}

BOOST_AUTO_TEST_SUITE_END()
