// Integer motion's own rules: refusals, the sign of the difference, the frame loop's edges, and
// every motion twin on the extreme inputs random frames rarely reach (full-scale flashes and
// checkerboards, where |V| and |X| come near 2^16 and the split products are exercised).
#include <boost/test/unit_test.hpp>

#include "extractors/feature.hpp"
#include "extractors/motion/arithmetic.hpp"
#include "extractors/registry.hpp"
#include "harness/scoring/twin_check.hpp"
#include "tests/support.hpp"

using namespace twinproof;

namespace {

ScoreTable score(const Backend& b, const std::vector<Frame>& frames, const OptionList& options) {
  auto ex = make_extractor(b, ExtractorContext{});
  ex->init(frames.front().format(), options);
  ScoreTable t;
  t.set_frames(0, static_cast<unsigned>(frames.size()));
  for (unsigned i = 0; i < frames.size(); ++i) ex->extract(frames[i].view(), frames[i].view(), i, t);
  ex->flush(t);
  return t;
}

const Backend& reference() { return *find_backend("motion", "cpu"); }

}  // namespace

BOOST_AUTO_TEST_SUITE(motion_rules)

BOOST_AUTO_TEST_CASE(the_reference_refuses_samples_at_or_above_two_to_the_bitdepth) {
  Frame f =
      test::make_frame({16, 8, 10, Chroma::c420}, [](int p, int x, int y) { return p == 0 && x == 5 && y == 3 ? 1024u : 512u; });
  auto ex = make_extractor(reference(), ExtractorContext{});
  ex->init(f.format(), {});
  ScoreTable t;
  try {
    ex->extract(f.view(), f.view(), 0, t);
    BOOST_ERROR("a 10-bit sample of 1024 was accepted");
  } catch (const ConfigError& e) {
    BOOST_TEST(std::string(e.what()).find("luma sample (5, 3) is 1024, not below 2^10 = 1024") != std::string::npos, e.what());
  }
}

BOOST_AUTO_TEST_CASE(pictures_below_three_by_three_are_refused_whatever_the_options) {
  for (const OptionList& o : {OptionList{}, OptionList{{"motion_force_zero", "true"}}})
    for (const Format& fmt : {Format{2, 5, 8, Chroma::c420}, Format{5, 2, 8, Chroma::c420}}) {
      auto ex = make_extractor(reference(), ExtractorContext{});
      BOOST_CHECK_THROW(ex->init(fmt, o), ConfigError);
    }
  auto ok = make_extractor(reference(), ExtractorContext{});
  BOOST_CHECK_NO_THROW(ok->init({3, 3, 8, Chroma::c400}, {}));
}

BOOST_AUTO_TEST_CASE(the_difference_is_earlier_minus_later) {
  // One bright sample appears in frame 1: P - C is negative there, and the floor of the
  // vertical pass rounds it away from zero, so |X| sums differ from the C - P order.
  ExtractorContext ctx;
  ctx.capture_stages = true;
  auto ex = make_extractor(reference(), ctx);
  const Format fmt{8, 8, 8, Chroma::c400};
  ex->init(fmt, {});
  ScoreTable t;
  const Frame still = test::make_frame(fmt, [](int, int, int) { return 0u; });
  const Frame dot = test::make_frame(fmt, [](int, int x, int y) { return x == 3 && y == 3 ? 255u : 0u; });
  ex->extract(still.view(), still.view(), 0, t);
  ex->extract(dot.view(), dot.view(), 1, t);
  const auto d = ex->inspect("difference");
  BOOST_REQUIRE(d.has_value());
  BOOST_TEST(d->arrays[0].values[3 * 8 + 3] == -255.0);
  // The vertical pass at the bright row: a = 26386 * -255; (a + 128) >> 8 = floor(-26282.43...) = -26283.
  const auto v = ex->inspect("vertical");
  BOOST_TEST(v->arrays[0].values[3 * 8 + 3] == -26283.0);
}

BOOST_AUTO_TEST_CASE(the_split_products_equal_64_bit_arithmetic) {
  // The identity the SIMD and CUDA twins rely on, at the extremes of |x| < 2^16.
  const int xs[] = {-65535, -65280, -32769, -32768, -257, -256, -255, -1, 0, 1, 255, 256, 32767, 32768, 65279, 65535};
  for (int a : xs)
    for (int b : xs)
      for (int c : xs) {
        const std::int32_t v[5] = {a, b, c, b, a};
        const std::int32_t w[5] = {c, a, b, c, a};
        for (const std::int32_t* x : {v, w}) {
          int hi = 0, lo = 0;
          for (int k = 0; k < 5; ++k) {
            hi += motion::tap(k) * (x[k] >> 8);
            lo += motion::tap(k) * (x[k] & 255);
          }
          const int split = (hi + ((lo + 32768) >> 8)) >> 8;
          if (split != motion::horizontal_output(x)) {
            BOOST_ERROR("split " << split << " != " << motion::horizontal_output(x) << " for " << x[0] << "," << x[1] << ","
                                 << x[2] << "," << x[3] << "," << x[4]);
            return;
          }
        }
      }
}

BOOST_AUTO_TEST_CASE(every_motion_twin_equals_the_reference_on_full_scale_inputs) {
  const FeatureDescriptor& f = *find_feature("motion");
  for (int bpc : {8, 10, 12, 16}) {
    const unsigned max = (1u << bpc) - 1;
    const Format fmt{70, 37, bpc, Chroma::c420};
    std::vector<Frame> frames;
    for (int t = 0; t < 6; ++t)  // flash, checkerboards of both phases, ramps
      frames.push_back(test::make_frame(fmt, [&](int, int x, int y) {
        switch (t % 3) {
          case 0: return t % 2 ? max : 0u;
          case 1: return ((x / 3 + y / 2 + t) % 2) ? max : 0u;
          default: return static_cast<unsigned>((x * 977 + y * 131 * t) % (max + 1));
        }
      }));
    for (const Backend* b : backends()) {
      if (b->feature != f.name || b->name == f.reference || !b->availability().available) continue;
      for (const OptionList& o : f.probe_option_sets) {
        const TwinCheckReport r = check_twin(f, reference(), *b, frames, o);
        BOOST_TEST(r.equal, b->name << " " << bpc << "-bit: " << r.summary());
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(chroma_is_never_read) {
  const Format a{33, 20, 12, Chroma::c444}, b{33, 20, 12, Chroma::c400};
  std::vector<Frame> fa, fb;
  for (unsigned t = 0; t < 4; ++t) {
    const auto luma = [t](int p, int x, int y) {
      return p == 0 ? static_cast<unsigned>((x * 31 + y * 17 * (t + 1)) % 4096) : (x + t) % 4096u;
    };
    fa.push_back(test::make_frame(a, luma));
    fb.push_back(test::make_frame(b, luma));
  }
  const TableComparison cmp = compare_tables(score(reference(), fa, {{"debug", "true"}}),
                                             score(reference(), fb, {{"debug", "true"}}), Tolerance::exact());
  BOOST_TEST(cmp.pass, cmp.summary());
  BOOST_TEST(cmp.values == 16u);
}

BOOST_AUTO_TEST_SUITE_END()
