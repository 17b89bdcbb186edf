// adm: the parts of the contract the goldens cannot show on their own (the division table, the
// smallest picture, the CSF's fixed-point limits and libvmaf's refusals, the frames whose scores
// have no value, libvmaf's option names), the reference against its goldens with one thread and
// with several, and repro naming the stage each mutant breaks.
#include <array>
#include <random>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "extractors/adm/arithmetic.hpp"
#include "extractors/feature.hpp"
#include "extractors/registry.hpp"
#include "harness/gate/repro.hpp"
#include "harness/goldens/goldens.hpp"
#include "harness/scoring/scores.hpp"
#include "harness/support/paths.hpp"
#include "tests/support.hpp"

using namespace twinproof;
using twinproof::test::contains;

namespace {

std::unique_ptr<Extractor> reference(unsigned threads = 1) {
  return make_extractor(*find_backend("adm", "cpu"), ExtractorContext{.threads = threads});
}

// Scores one pair of single frames with the adm reference.
ScoreTable score_frames(const Frame& ref, const Frame& dist, const OptionList& options = {}) {
  return test::score_pair("adm", "cpu", ref, dist, options);
}

// The refusal a configuration meets: its subject and message.
std::pair<std::string, std::string> refusal_of(const Format& fmt, const OptionList& options) {
  auto ex = reference();
  try {
    ex->init(fmt, options);
  } catch (const RefusedConfiguration& e) {
    return {e.subject(), e.what()};
  }
  return {};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(adm)

BOOST_AUTO_TEST_CASE(the_division_table_is_two_to_the_30_over_i) {
  const std::int32_t* t = twinproof::adm::div_lookup();
  BOOST_TEST(t[32768] == 0);
  BOOST_TEST(t[32768 + 1] == 1073741824);
  BOOST_TEST(t[32768 - 1] == -1073741824);
  BOOST_TEST(t[32768 + 3] == 357913941);  // truncated
  BOOST_TEST(t[32768 - 3] == -357913941);
  BOOST_TEST(t[65536] == 32768);  // i = 32768
  BOOST_TEST(t[0] == -32768);     // i = -32768, a 16-bit band's smallest value
  // Later scales round a wide |o| to 15 significant bits before the table: 2^20 + 2^4 rounds to
  // 2^14 at shift 6, so t / o is read as t * 2^30 / 2^14 >> (15 + 6).
  BOOST_TEST(twinproof::adm::gain_q15((1 << 20) + 16, 1 << 19, false, t) == 16384);
  BOOST_TEST(twinproof::adm::gain_q15(-(1 << 20), 1 << 19, false, t) == 0);  // opposite signs clamp at 0
  BOOST_TEST(twinproof::adm::gain_q15(0, -5, true, t) == 32768);             // o = 0: the gain is 1
}

// The device's 32-bit scale-0 wavelet against the contract's 64-bit passes: every combination of
// extreme samples (and of extreme 16-bit values for the horizontal pass), then random ones.
BOOST_AUTO_TEST_CASE(scale_0s_32_bit_wavelet_is_the_contracts_64_bit_one) {
  namespace a = twinproof::adm;
  std::mt19937 rng(39);
  int checked = 0, differing = 0;
  auto each_combination = [](const std::vector<std::int64_t>& values, auto&& visit) {
    const std::size_t n = values.size();
    for (std::size_t c = 0; c < n * n * n * n; ++c)
      visit(std::array<std::int64_t, 4>{values[c % n], values[c / n % n], values[c / (n * n) % n], values[c / (n * n * n)]});
  };
  for (const int bpc : {8, 10, 12, 16}) {
    const a::DwtShifts d = a::dwt_shifts(0, bpc);
    const std::int64_t top = (std::int64_t{1} << bpc) - 1;
    auto vertical = [&](const std::array<std::int64_t, 4>& s) {
      const std::uint32_t narrow[4] = {static_cast<std::uint32_t>(s[0]), static_cast<std::uint32_t>(s[1]),
                                       static_cast<std::uint32_t>(s[2]), static_cast<std::uint32_t>(s[3])};
      for (const bool low : {true, false}) {
        ++checked;
        differing += a::dwt_vertical_scale0(narrow, low, d) != a::dwt_vertical(s.data(), low, d);
      }
    };
    each_combination({0, 1, top / 2, top / 2 + 1, top - 1, top}, vertical);
    std::uniform_int_distribution<std::int64_t> sample(0, top);
    for (int r = 0; r < 20000; ++r) vertical({sample(rng), sample(rng), sample(rng), sample(rng)});
  }
  const a::DwtShifts d = a::dwt_shifts(0, 8);  // the horizontal pass's shifts do not depend on the depth
  auto horizontal = [&](const std::array<std::int64_t, 4>& s) {
    const std::int32_t narrow[4] = {static_cast<std::int32_t>(s[0]), static_cast<std::int32_t>(s[1]),
                                    static_cast<std::int32_t>(s[2]), static_cast<std::int32_t>(s[3])};
    for (const bool low : {true, false}) {
      ++checked;
      differing += a::dwt_horizontal_scale0(narrow, low, d) != a::dwt_horizontal(s.data(), low, d);
    }
  };
  each_combination({-32768, -32767, -1, 0, 1, 32766, 32767}, horizontal);
  std::uniform_int_distribution<std::int64_t> value(-32768, 32767);
  for (int r = 0; r < 20000; ++r) horizontal({value(rng), value(rng), value(rng), value(rng)});
  BOOST_TEST(checked == 4 * 2 * (1296 + 20000) + 2 * (2401 + 20000));
  BOOST_TEST(differing == 0);
}

BOOST_AUTO_TEST_CASE(pictures_smaller_than_four_scales_allow_are_refused) {
  // libvmaf crashes on 3x3 and reads outside its buffers on 37x21 and 40x24 (scale 3's input is 3
  // rows there, and its mirror reaches row -1).
  for (const auto& [w, h] : {std::pair{32, 33}, std::pair{33, 32}, std::pair{40, 24}, std::pair{3, 3}}) {
    const auto [subject, message] = refusal_of({w, h, 8, Chroma::c420}, {});
    BOOST_TEST(subject == "picture");
    BOOST_TEST(contains(message, "at least 33x33"), message);
  }
  const Frame ref =
      test::make_frame({33, 33, 10, Chroma::c444}, [](int, int x, int y) { return unsigned(x * 37 + y * 11) % 1024; });
  const Frame dist =
      test::make_frame({33, 33, 10, Chroma::c444}, [](int, int x, int y) { return unsigned(x * 37 + y * 13) % 1024; });
  const ScoreTable t = score_frames(ref, dist);
  for (const char* m : {"adm2", "aim", "adm3", "adm_scale0", "adm_scale3"}) BOOST_TEST(std::isfinite(*t.get(m, 0)), m);
}

BOOST_AUTO_TEST_CASE(views_and_csf_factors_libvmaf_cannot_take_are_refused) {
  const Format fmt{64, 36, 8, Chroma::c420};
  // libvmaf refuses every frame below 1080 lines at 3 heights.
  BOOST_TEST(refusal_of(fmt, {{"adm_norm_view_dist", "2.99"}}).first == "adm_norm_view_dist");
  BOOST_TEST(refusal_of(fmt, {{"adm_ref_display_height", "1079"}}).first == "adm_norm_view_dist");
  BOOST_TEST(refusal_of(fmt, {{"adm_norm_view_dist", "1.5"}, {"adm_ref_display_height", "2160"}}).first.empty());
  // Barten's CSF at the default view: a scale-0 factor of 1.21, 2.5 million in Q21, beyond 16 bits.
  const auto barten = refusal_of(fmt, {{"adm_csf_mode", "1"}});
  BOOST_TEST(barten.first == "adm_csf_mode");
  BOOST_TEST(contains(barten.second, "leaves libvmaf's 16-bit fixed point"), barten.second);
  // The blends have tables for a few displays only.
  const auto blend = refusal_of(fmt, {{"adm_csf_mode", "3"}, {"adm_ref_display_height", "1440"}});
  BOOST_TEST(blend.first == "adm_csf_mode");
  BOOST_TEST(contains(blend.second, "factor of -22"), blend.second);
  // The default view's scale-0 weights are libvmaf's constants; 1.5 heights of 2160 lines are the
  // same view (its product is exactly 3240), any other view converts its factors.
  using twinproof::adm::CsfModel;
  const auto default_view = twinproof::adm::csf_weights(CsfModel{});
  const auto same_view = twinproof::adm::csf_weights(CsfModel{.norm_view_dist = 1.5, .display_height = 2160});
  BOOST_TEST(default_view[0].w[0] == 36453u);
  BOOST_TEST(default_view[0].w[2] == 49417u);
  BOOST_TEST(same_view[0].w[1] == 36453u);
  const auto further = twinproof::adm::csf_weights(CsfModel{.norm_view_dist = 5});
  BOOST_TEST(further[0].w[0] < 36453u);  // further away, less sensitive
  BOOST_TEST(default_view[3].w[2] > 0u);
}

BOOST_AUTO_TEST_CASE(frames_whose_scores_have_no_value_are_refused) {
  // A flat picture has no detail: with adm_noise_weight=0 each of its scales is 0/0, and a flat
  // reference leaves the whole denominator 0 (libvmaf then reads aim from an unset variable).
  const Format fmt{64, 48, 8, Chroma::c420};
  const Frame flat = test::make_frame(fmt, [](int, int, int) { return 128u; });
  const Frame noisy = test::make_frame(fmt, [](int, int x, int y) { return 128u + unsigned(x * 7 + y * 3) % 9; });
  auto ex = reference();
  ex->init(fmt, {{"adm_noise_weight", "0"}});
  ScoreTable t;
  BOOST_CHECK_EXCEPTION(ex->extract(flat.view(), flat.view(), 0, t), RefusedConfiguration, [](const RefusedConfiguration& e) {
    return e.subject() == "adm_noise_weight" && contains(e.what(), "is 0/0");
  });
  // With the noise floor the same reference scores 1 at every scale: nothing of the distorted
  // detail is restored from it (every gain is 1 on a zero coefficient, so r = 0), so each scale's
  // numerator is the floor alone, as its denominator is; the detail is all impairment (aim > 0).
  const ScoreTable floor = score_frames(flat, noisy, {{"debug", "true"}});
  for (int s = 0; s < 4; ++s) {
    BOOST_TEST(*floor.get("adm_scale" + std::to_string(s), 0) == 1.0);
    BOOST_TEST(*floor.get("adm_num_scale" + std::to_string(s), 0) == *floor.get("adm_den_scale" + std::to_string(s), 0));
  }
  BOOST_TEST(*floor.get("adm2", 0) == 1.0);
  BOOST_TEST(*floor.get("aim", 0) > 0.0);
  BOOST_TEST(*floor.get("adm3", 0) == 0.5 + (1 - *floor.get("aim", 0)) * 0.5);
}

BOOST_AUTO_TEST_CASE(a_skipped_scale_0_scores_zero_over_its_guard) {
  const Format fmt{80, 48, 8, Chroma::c420};
  const Frame ref = test::make_frame(fmt, [](int, int x, int y) { return unsigned(x * x + 3 * y) % 256; });
  const Frame dist = test::make_frame(fmt, [](int, int x, int y) { return unsigned(x * x + 3 * y + (x & 3)) % 256; });
  const ScoreTable all = score_frames(ref, dist, {{"debug", "true"}});
  const ScoreTable skip = score_frames(ref, dist, {{"debug", "true"}, {"adm_skip_scale0", "true"}});
  BOOST_TEST(*skip.get("adm_scale0", 0) == 0.0);
  BOOST_TEST(*skip.get("adm_num_scale0", 0) == 0.0);
  BOOST_TEST(*skip.get("adm_den_scale0", 0) == double(1e-10f));
  for (const char* m : {"adm_scale1", "adm_scale2", "adm_scale3", "adm_num_scale3"})
    BOOST_TEST(*skip.get(m, 0) == *all.get(m, 0), m);
  double num = 0, den = double(1e-10f);
  for (int s = 1; s < 4; ++s) {
    num += *all.get("adm_num_scale" + std::to_string(s), 0);
    den += *all.get("adm_den_scale" + std::to_string(s), 0);
  }
  BOOST_TEST(*skip.get("adm_num", 0) == num);
  BOOST_TEST(*skip.get("adm2", 0) == num / den);
  // aim skipped: 0, and adm3 is then dlm_weight * adm2 + (1 - dlm_weight).
  const ScoreTable no_aim = score_frames(ref, dist, {{"adm_skip_aim", "true"}, {"adm_dlm_weight", "0.25"}});
  BOOST_TEST(*no_aim.get("aim", 0) == 0.0);
  BOOST_TEST(*no_aim.get("adm3", 0) == *no_aim.get("adm2", 0) * 0.25 + 0.75);
}

BOOST_AUTO_TEST_CASE(every_probe_option_set_is_one_the_reference_scores) {
  // The twin checks run each probe set on every twin: a set the contract refuses would check nothing.
  const Format fmt{64, 36, 10, Chroma::c420};
  const Frame ref = test::make_frame(fmt, [](int, int x, int y) { return unsigned(x * 37 + y * 11) % 1024; });
  const Frame dist = test::make_frame(fmt, [](int, int x, int y) { return unsigned(x * 37 + y * 13) % 1024; });
  for (const OptionList& o : find_feature("adm")->probe_option_sets) {
    const ScoreTable t = score_frames(ref, dist, o);
    BOOST_TEST(std::isfinite(*t.get("adm2", 0)));
  }
}

BOOST_AUTO_TEST_CASE(options_and_output_names_follow_libvmafs_table) {
  auto ex = reference();
  ex->init({64, 36, 8, Chroma::c420}, {});
  BOOST_TEST(
      ex->metrics() == (std::vector<std::string>{"adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2", "adm_scale3"}),
      boost::test_tools::per_element());
  ex->init({64, 36, 8, Chroma::c420}, {{"debug", "true"}});
  BOOST_TEST(ex->metrics().size() == 18u);
  BOOST_TEST(ex->metrics().at(7) == "adm");
  BOOST_TEST(ex->metrics().at(10) == "adm_num_scale0");
  BOOST_TEST(ex->planes_read() == 1);  // luma alone
  for (const auto& [name, bad] : std::vector<std::pair<std::string, std::string>>{{"adm_enhn_gain_limit", "0.99"},
                                                                                  {"adm_csf_mode", "4"},
                                                                                  {"adm_ref_display_height", "4321"},
                                                                                  {"adm_noise_weight", "nan"}})
    BOOST_CHECK_THROW(ex->init({64, 36, 8, Chroma::c420}, {{name, bad}}), ConfigError);
  const FeatureDescriptor& f = *find_feature("adm");
  BOOST_TEST(libvmaf_metric_name(f, "adm2", {}) == "integer_adm2");
  BOOST_TEST(libvmaf_metric_name(f, "adm2", {}, LibvmafKey::collector) == "VMAF_integer_feature_adm2_score");
  BOOST_TEST(libvmaf_metric_name(f, "adm_scale1", {}, LibvmafKey::collector) == "integer_adm_scale1");
  // Sorted by option name; debug and adm_skip_aim never name an output.
  const OptionList named = {
      {"adm_skip_scale0", "true"}, {"egl", "1.2"}, {"adm_norm_view_dist", "4"}, {"adm_skip_aim", "true"}, {"debug", "true"}};
  BOOST_TEST(libvmaf_metric_name(f, "aim", named, LibvmafKey::collector) == "integer_aim_egl_1.2_nvd_4_ssz");
  BOOST_TEST(libvmaf_metric_name(f, "adm_den", {{"adm_csf_mode", "2"}, {"min", "0.25"}}) == "integer_adm_den_csf_2_min_0.25");
}

BOOST_AUTO_TEST_CASE(the_reference_matches_goldens_with_one_thread_and_with_three) {
  const Backend& cpu = *find_backend("adm", "cpu");
  for (const char* pair : {"noise67_16b_444~noise32", "pan99_12b_444~dct24", "odd175_420~noise4", "pan352_12b_422~blur1"}) {
    const GoldenFile g = load_golden_file(data_root() / "goldens/adm" / (std::string(pair) + ".json"));
    BOOST_TEST(g.cases.size() == 12u);
    for (const GoldenCase& c : g.cases)
      for (const unsigned threads : {1u, 3u}) {
        const GoldenResult r = check_case(cpu, c, ExtractorContext{.threads = threads});
        BOOST_TEST_CONTEXT(c.id << " on " << threads << " thread(s): " << r.detail) {
          BOOST_TEST(r.status == GoldenStatus::pass);
          BOOST_TEST(r.comparison.max_ulp == 0u);
          BOOST_TEST(r.comparison.values >= 7u * c.expected.frames());  // every score of every frame
        }
      }
  }
  for (const char* small : {"tiny3~noise32", "noise37_10b_422~noise32"}) {
    const GoldenFile tiny = load_golden_file(data_root() / "goldens/adm" / (std::string(small) + ".json"));
    BOOST_REQUIRE(tiny.refusals.size() == 1u);
    BOOST_TEST(!tiny.refusals[0].refused_by_libvmaf);  // libvmaf crashes on the one, reads outside its buffers on the other
    BOOST_TEST(check_refusal(cpu, tiny.refusals[0], ExtractorContext{}).status == GoldenStatus::pass);
  }
}

BOOST_AUTO_TEST_CASE(repro_names_the_stage_each_mutant_breaks) {
  // A wavelet band moved: the bands depart first.
  const ReproResult band = test::replay_cell("adm/mutant-band/odd175_420~noise4/8b/420/debug");
  BOOST_TEST(band.mismatch);
  BOOST_TEST(band.exit_code == 1);
  BOOST_TEST(contains(band.verdict, "first divergence: wavelet bands, plane scale0/dist/h"), band.verdict);
  // A heavier mask: bands and decoupled bands equal, scale 1's first scored row departs.
  const ReproResult mask = test::replay_cell("adm/mutant-mask/odd175_420~noise4/8b/420/debug");
  BOOST_TEST(mask.mismatch);
  BOOST_TEST(contains(mask.verdict, "first divergence: masked row sums, plane scale1/dlm_h, row 0"), mask.verdict);
  BOOST_REQUIRE(mask.first.has_value());
  BOOST_TEST(mask.first->frame == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
