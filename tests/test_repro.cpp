// Repro: the verdict names the stage each mutant breaks, bundles replay elsewhere, repeats match.
#include <algorithm>
#include <sstream>

#include <boost/test/unit_test.hpp>

#include "extractors/registry.hpp"
#include "harness/gate/matrix.hpp"
#include "harness/gate/repro.hpp"
#include "harness/support/errors.hpp"
#include "harness/support/paths.hpp"
#include "harness/vectors/vectors.hpp"
#include "tests/support.hpp"

using namespace twinproof;
using twinproof::test::contains;
namespace fs = std::filesystem;

namespace {

ReproTarget target(const std::string& id) { return cell_target(find_cell(id)); }

ReproResult replay(const ReproTarget& t, ReproOptions o = {}) {
  o.with_mutants = true;
  std::ostringstream out;
  ReproResult r = run_repro(t, o, out);
  BOOST_TEST_MESSAGE(out.str());
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(repro)

BOOST_AUTO_TEST_CASE(mutant_blur_is_found_in_the_blur_at_its_row_and_column) {
  const ReproResult r = replay(target("float_motion/mutant-blur/still64/8b/420/default"));
  BOOST_TEST(r.mismatch);
  BOOST_TEST(r.divergence_frame.value() == 1u);
  BOOST_TEST(contains(r.verdict, "first divergence: blur, plane Y, row 17, column 23"), r.verdict);
  BOOST_TEST(r.exit_code == 1);
}

BOOST_AUTO_TEST_CASE(mutant_sum_is_found_in_the_row_sums) {
  const ReproResult r = replay(target("float_motion/mutant-sum/pan576/8b/420/default"));
  BOOST_TEST(contains(r.verdict, "first divergence: row sums, plane Y, row"), r.verdict);
  BOOST_TEST(contains(r.verdict, "blur equal before it"), r.verdict);
}

BOOST_AUTO_TEST_CASE(mutant_ulp_and_nan_are_found_in_the_final_output) {
  const ReproResult ulp = replay(target("float_motion/mutant-ulp/pan576/8b/420/default"));
  BOOST_TEST(contains(ulp.verdict, "first divergence: final output, motion2[1]"), ulp.verdict);
  BOOST_TEST(ulp.first->cmp.ulp == 1u);
  const ReproResult nan = replay(target("float_motion/mutant-nan/still64/8b/420/default"));
  BOOST_TEST(contains(nan.verdict, "first divergence: final output, motion2[1] (NaN)"), nan.verdict);
}

BOOST_AUTO_TEST_CASE(a_pair_features_mutant_is_found_in_the_plane_whose_row_sums_depart) {
  // psnr's mutant-rows counts each U row's last squared error twice: Y's rows are equal, U's
  // first row departs, and the plane sums after it follow.
  const ReproResult r = replay(target("psnr/mutant-rows/pan576~noise4/8b/420/default"));
  BOOST_TEST(r.mismatch);
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.divergence_frame.value() == 0u);
  BOOST_TEST(contains(r.verdict, "first divergence: row squared errors, plane U, row 0"), r.verdict);
  BOOST_TEST(r.first.has_value());
  BOOST_TEST(r.first->metric == "psnr_cb");
  // A bundle of a pair cell holds both clips and replays to the same verdict.
  test::TempDir dir;
  ReproOptions o;
  o.bundle = dir / "b";
  o.frames = FrameRange{2, 3};
  (void)replay(target("psnr/mutant-rows/pan576~noise4/8b/420/default"), o);
  BOOST_TEST(std::filesystem::is_regular_file(dir / "b" / "distorted.y4m"));
  const ReproResult again = replay(load_bundle(dir / "b"));
  BOOST_TEST(contains(again.verdict, "first divergence: row squared errors, plane U, row 0"), again.verdict);
  BOOST_TEST(again.divergence_frame.value() == 2u);
}

BOOST_AUTO_TEST_CASE(every_mutant_is_in_a_self_test_and_repro_finds_where_it_departs) {
  // Each feature's plan names its deliberately broken twins in a self-test section
  // (ci/matrices/selftest*.json are derived from the plans): every registered mutant must have a
  // cell there, its bits must differ from the reference's, and repro must name the first stage
  // where they do.
  std::vector<Cell> self_test;
  for (const char* file : {"selftest.json", "selftest-pairs.json"})
    for (Cell& c : load_matrix(data_root() / "ci" / "matrices" / file).cells) self_test.push_back(std::move(c));
  int mutants = 0;
  for (const Backend* b : backends(/*with_mutants=*/true)) {
    if (!b->mutant) continue;
    ++mutants;
    const auto cell = std::find_if(self_test.begin(), self_test.end(),
                                   [&](const Cell& c) { return c.feature == b->feature && c.twin == b->name; });
    BOOST_TEST_REQUIRE((cell != self_test.end()), b->feature << "/" << b->name << " has no cell in a self-test matrix");
    const ReproResult r = replay(cell_target(*cell));
    BOOST_TEST(r.mismatch, cell->id);
    BOOST_TEST(contains(r.verdict, "first divergence: "), cell->id << ": " << r.verdict);
  }
  BOOST_TEST(mutants >= 13);
}

BOOST_AUTO_TEST_CASE(a_passing_twin_and_a_regression_cell) {
  const ReproResult drift = replay(target("float_motion/mutant-drift/pan576/8b/420/default"));
  BOOST_TEST(drift.mismatch);        // not bit-exact ...
  BOOST_TEST(drift.exit_code == 0);  // ... but within its places=4 row
  const ReproResult golden = replay(target("float_motion/cpu/tiny3/8b/444/default"));
  BOOST_TEST(!golden.mismatch);
  BOOST_TEST(golden.exit_code == 0);
}

BOOST_AUTO_TEST_CASE(a_frame_range_keeps_the_look_ahead_of_its_metrics) {
  // mutant-blur departs in frame 1's blur. Frame 0's motion3 is computed from S(0, 1), so
  // `--frames 0:0` must still score frame 1 (the feature's look-ahead) and show the mismatch
  // in frame 0, while reporting no frame after the range.
  ReproOptions o;
  o.frames = FrameRange{0, 0};
  const ReproResult r = replay(target("float_motion/mutant-blur/still64/8b/420/default"), o);
  BOOST_TEST(r.mismatch);
  BOOST_REQUIRE(r.first.has_value());
  BOOST_TEST(r.first->frame == 0u);
  BOOST_TEST(r.first->metric == "motion3");
}

BOOST_AUTO_TEST_CASE(repeat_requires_identical_bits) {
  ReproOptions o;
  o.repeat = 3;
  const ReproResult r = replay(target("float_motion/mutant-drift/still64/8b/420/default"), o);
  BOOST_TEST(r.repeat_identical);
}

BOOST_AUTO_TEST_CASE(a_bundle_replays_from_another_folder) {
  test::TempDir a, b;
  ReproOptions o;
  o.bundle = a / "bundle";
  o.rerun = "twinproof repro float_motion/mutant-blur/still64/8b/420/default --with-mutants";
  const ReproResult first = replay(target("float_motion/mutant-blur/still64/8b/420/default"), o);
  for (const char* f : {"cell.json", "frames.y4m", "commands.txt", "environment.json"})
    BOOST_TEST(fs::exists(a / "bundle" / f), f);
  fs::copy(a / "bundle", b / "moved", fs::copy_options::recursive);
  fs::remove_all(a / "bundle");
  const ReproResult replayed = replay(load_bundle(b / "moved"));
  BOOST_TEST(replayed.verdict == first.verdict);
  // Through the command line, from the folder that holds it.
  const auto cli = test::run_cli({"repro", "--bundle", (b / "moved").string(), "--with-mutants"});
  BOOST_TEST(cli.rc == 1);
  BOOST_TEST(contains(cli.out, "first divergence: blur, plane Y, row 17, column 23"));
  // A bundle whose frames were altered is refused.
  std::string y4m = test::read_file(b / "moved" / "frames.y4m");
  y4m[y4m.size() - 5] ^= 1;
  test::write_file(b / "moved" / "frames.y4m", y4m);
  BOOST_CHECK_THROW(replay(load_bundle(b / "moved")), InputError);
}

BOOST_AUTO_TEST_CASE(unknown_cells_are_refused) {
  BOOST_CHECK_THROW(find_cell("float_motion/cuda/nosuch/8b/420/default"), ConfigError);
  const auto r = test::run_cli({"repro", "float_motion/cuda/nosuch/8b/420/default"});
  BOOST_TEST(r.rc == 2);
  BOOST_TEST(contains(r.err, "is in no matrix"));
}

BOOST_AUTO_TEST_SUITE_END()
