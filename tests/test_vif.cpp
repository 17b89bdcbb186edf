// vif: the parts of the contract the goldens cannot show on their own (the log2 table, the
// smallest picture, a flat picture's exact scores, a skipped scale 0, libvmaf's option names),
// the reference against its goldens with one thread and with several, and repro naming the stage
// each mutant breaks.
#include <boost/test/unit_test.hpp>

#include "extractors/feature.hpp"
#include "extractors/registry.hpp"
#include "extractors/vif/arithmetic.hpp"
#include "harness/gate/repro.hpp"
#include "harness/goldens/goldens.hpp"
#include "harness/scoring/scores.hpp"
#include "harness/support/paths.hpp"
#include "tests/support.hpp"

using namespace twinproof;
using twinproof::test::contains;

namespace {

// Scores one pair of single frames with the vif reference.
ScoreTable score_frames(const Frame& ref, const Frame& dist, const OptionList& options = {}, unsigned threads = 1) {
  return test::score_pair("vif", "cpu", ref, dist, options, threads);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(vif)

BOOST_AUTO_TEST_CASE(the_log2_table_is_libvmafs) {
  // The sum was computed apart from the C library: Python's correctly rounded log2 of each value,
  // rounded to float, times 2048, rounded half away from zero. The C library's log2f gives the
  // same table on this platform; another one that does not shows here first.
  const std::uint16_t* t = twinproof::vif::log2_table();
  std::uint64_t sum = 0;
  for (unsigned i = 32767; i < 65536; ++i) sum += t[i];
  BOOST_TEST(sum == twinproof::vif::kLog2TableSum);
  BOOST_TEST(t[32767] == 30720u);  // 14.99996 * 2048 = 30719.9
  BOOST_TEST(t[32768] == 30720u);  // 15 * 2048
  BOOST_TEST(t[49152] == 31918u);  // log2(3 * 2^14) * 2048 = 31918.05
  BOOST_TEST(t[65535] == 32768u);  // 15.99998 * 2048 = 32767.95
  BOOST_TEST(twinproof::vif::log2_32(t, 1u << 18) == 18 * 2048);
  BOOST_TEST(twinproof::vif::log2_64(t, std::uint64_t{1} << 40) == 40 * 2048);
}

BOOST_AUTO_TEST_CASE(pictures_smaller_than_four_scales_allow_are_refused) {
  // libvmaf's own vif reads outside its buffers below this size (it crashes on the 3x3 vector).
  for (const auto& [w, h] : {std::pair{15, 16}, std::pair{16, 15}, std::pair{3, 3}}) {
    auto ex = make_extractor(*find_backend("vif", "cpu"), ExtractorContext{});
    const std::string size = std::to_string(w) + "x" + std::to_string(h);
    BOOST_CHECK_EXCEPTION(ex->init({w, h, 8, Chroma::c420}, {}), RefusedConfiguration, [&](const RefusedConfiguration& e) {
      return e.subject() == "picture" && e.value() == size && contains(e.what(), "at least 16x16");
    });
  }
  const Frame f =
      test::make_frame({16, 16, 10, Chroma::c444}, [](int, int x, int y) { return unsigned(x * 37 + y * 11) % 1024; });
  const ScoreTable t = score_frames(f, f);
  for (const char* m : {"vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3"}) BOOST_TEST(std::isfinite(*t.get(m, 0)), m);
}

BOOST_AUTO_TEST_CASE(a_flat_pair_scores_one_at_every_scale_exactly) {
  // No variance anywhere: every pixel is below the noise, adds 0 to the numerator's variance term
  // and 1 to the count, so each scale's numerator and denominator are its pixel count and the
  // score is 1, whatever the two levels.
  const Format fmt{32, 48, 12, Chroma::c422};
  const Frame ref = test::make_frame(fmt, [](int, int, int) { return 1000u; });
  const Frame dist = test::make_frame(fmt, [](int, int, int) { return 3000u; });
  const ScoreTable t = score_frames(ref, dist, {{"debug", "true"}});
  for (int s = 0; s < 4; ++s) {
    const double pixels = double(32 >> s) * double(48 >> s);
    BOOST_TEST(*t.get("vif_scale" + std::to_string(s), 0) == 1.0);
    BOOST_TEST(*t.get("vif_num_scale" + std::to_string(s), 0) == pixels);
    BOOST_TEST(*t.get("vif_den_scale" + std::to_string(s), 0) == pixels);
  }
  BOOST_TEST(*t.get("vif", 0) == 1.0);
  BOOST_TEST(*t.get("vif_den", 0) == 1536.0 + 384 + 96 + 24);
}

BOOST_AUTO_TEST_CASE(a_skipped_scale_0_scores_zero_over_minus_one) {
  const Format fmt{40, 24, 8, Chroma::c420};
  const Frame ref = test::make_frame(fmt, [](int, int x, int y) { return unsigned(x * x + 3 * y) % 256; });
  const Frame dist = test::make_frame(fmt, [](int, int x, int y) { return unsigned(x * x + 3 * y + (x & 3)) % 256; });
  const ScoreTable all = score_frames(ref, dist, {{"debug", "true"}});
  const ScoreTable skip = score_frames(ref, dist, {{"debug", "true"}, {"vif_skip_scale0", "true"}});
  BOOST_TEST(*skip.get("vif_scale0", 0) == 0.0);
  BOOST_TEST(*skip.get("vif_num_scale0", 0) == 0.0);
  BOOST_TEST(*skip.get("vif_den_scale0", 0) == -1.0);
  for (const char* m : {"vif_scale1", "vif_scale2", "vif_scale3", "vif_num_scale3"})
    BOOST_TEST(*skip.get(m, 0) == *all.get(m, 0), m);
  const double num = (*all.get("vif_num_scale1", 0) + *all.get("vif_num_scale2", 0)) + *all.get("vif_num_scale3", 0);
  const double den = (*all.get("vif_den_scale1", 0) + *all.get("vif_den_scale2", 0)) + *all.get("vif_den_scale3", 0);
  BOOST_TEST(*skip.get("vif_num", 0) == num);
  BOOST_TEST(*skip.get("vif", 0) == num / den);
}

BOOST_AUTO_TEST_CASE(options_and_output_names_follow_libvmafs_table) {
  auto ex = make_extractor(*find_backend("vif", "cpu"), ExtractorContext{});
  ex->init({64, 36, 8, Chroma::c420}, {});
  BOOST_TEST(ex->metrics() == (std::vector<std::string>{"vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3"}),
             boost::test_tools::per_element());
  ex->init({64, 36, 8, Chroma::c420}, {{"debug", "true"}});
  BOOST_TEST(ex->metrics().size() == 15u);
  BOOST_TEST(ex->metrics().at(4) == "vif");
  BOOST_TEST(ex->metrics().at(7) == "vif_num_scale0");
  BOOST_TEST(ex->planes_read() == 1);  // luma alone
  for (const char* bad : {"0.99", "100.5", "nan"})
    BOOST_CHECK_THROW(ex->init({64, 36, 8, Chroma::c420}, {{"vif_enhn_gain_limit", bad}}), ConfigError);
  const FeatureDescriptor& f = *find_feature("vif");
  const OptionList named = {{"vif_skip_scale0", "true"}, {"vif_enhn_gain_limit", "1.5"}};
  BOOST_TEST(libvmaf_metric_name(f, "vif_scale2", {}) == "integer_vif_scale2");
  BOOST_TEST(libvmaf_metric_name(f, "vif_scale2", {}, LibvmafKey::collector) == "VMAF_integer_feature_vif_scale2_score");
  BOOST_TEST(libvmaf_metric_name(f, "vif_scale2", named, LibvmafKey::collector) == "integer_vif_scale2_egl_1.5_ssclz");
  BOOST_TEST(libvmaf_metric_name(f, "vif_den", {{"debug", "true"}}, LibvmafKey::collector) == "integer_vif_den");
}

BOOST_AUTO_TEST_CASE(the_reference_matches_goldens_with_one_thread_and_with_three) {
  const Backend& cpu = *find_backend("vif", "cpu");
  for (const char* pair : {"flash40_16b~invert", "noise37_10b_422~noise32", "pan99_12b_444~dct24", "mono160~noise4"}) {
    const GoldenFile g = load_golden_file(data_root() / "goldens/vif" / (std::string(pair) + ".json"));
    BOOST_TEST(g.cases.size() == 7u);
    for (const GoldenCase& c : g.cases)
      for (const unsigned threads : {1u, 3u}) {
        const GoldenResult r = check_case(cpu, c, ExtractorContext{.threads = threads});
        BOOST_TEST_CONTEXT(c.id << " on " << threads << " thread(s): " << r.detail) {
          BOOST_TEST(r.status == GoldenStatus::pass);
          BOOST_TEST(r.comparison.max_ulp == 0u);
          BOOST_TEST(r.comparison.values >= 4u * c.expected.frames());  // every score of every frame
        }
      }
  }
  const GoldenFile tiny = load_golden_file(data_root() / "goldens/vif/tiny3~noise32.json");
  BOOST_REQUIRE(tiny.refusals.size() == 1u);
  BOOST_TEST(!tiny.refusals[0].refused_by_libvmaf);  // libvmaf crashes on it
  BOOST_TEST(check_refusal(cpu, tiny.refusals[0], ExtractorContext{}).status == GoldenStatus::pass);
}

BOOST_AUTO_TEST_CASE(repro_names_the_stage_each_mutant_breaks) {
  // A rounding moved: scale 2's pictures depart first (scale 1's stay equal), then its sums.
  const ReproResult round = test::replay_cell("vif/mutant-round/odd175_420~noise4/8b/420/debug");
  BOOST_TEST(round.mismatch);
  BOOST_TEST(round.exit_code == 1);
  BOOST_TEST(contains(round.verdict, "first divergence: scale 1-3 pictures, plane ref/scale2"), round.verdict);
  // A term too many in a sum: scale 0's rows are equal, scale 1's first row departs.
  const ReproResult log = test::replay_cell("vif/mutant-log/odd175_420~noise4/8b/420/debug");
  BOOST_TEST(log.mismatch);
  BOOST_TEST(contains(log.verdict, "first divergence: row sums per scale, plane scale1/den_log, row 0"), log.verdict);
  BOOST_REQUIRE(log.first.has_value());
  BOOST_TEST(log.first->frame == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
