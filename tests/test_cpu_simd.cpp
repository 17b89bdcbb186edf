// cpu-simd at every SIMD level this CPU has, against the reference, stage by stage, on fresh
// random planes (checkasm's way: same input, reference and twin, compare bits).
#include <bit>
#include <cstdlib>
#include <random>

#include <boost/test/unit_test.hpp>

#include "extractors/float_motion/cpu_simd.hpp"
#include "extractors/registry.hpp"
#include "harness/scores.hpp"
#include "tests/support.hpp"

using namespace twinproof;
using float_motion::SimdLevel;

namespace {

void check_level(SimdLevel level, std::uint64_t seed) {
  setenv("TWINPROOF_SIMD", std::string(float_motion::to_string(level)).c_str(), 1);
  std::mt19937_64 rng(seed);
  struct Case {
    Format fmt;
    OptionList options;
  };
  const Case cases[] = {{{1920, 1080, 8, Chroma::c420}, {{"mau", "true"}}},
                        {{67, 45, 10, Chroma::c422}, {{"mau", "true"}, {"mdc", "true"}}},
                        {{33, 17, 12, Chroma::c444}, {{"mfs", "3"}}},
                        {{9, 8, 16, Chroma::c400}, {}},   // narrower than one AVX-512 vector
                        {{3, 3, 8, Chroma::c444}, {{"mfs", "1"}}},
                        {{2, 2, 8, Chroma::c444}, {{"mfs", "3"}}},
                        {{101, 23, 8, Chroma::c420}, {{"mfs", "3"}, {"mau", "true"}}}};
  for (const Case& c : cases) {
    ExtractorContext ctx;
    ctx.capture_stages = true;
    auto ref = make_extractor(*find_backend("float_motion", "cpu"), ctx);
    auto dut = make_extractor(*find_backend("float_motion", "cpu-simd"), ctx);
    ref->init(c.fmt, c.options);
    dut->init(c.fmt, c.options);
    ScoreTable rt, dt;
    const unsigned max = (1u << c.fmt.bitdepth) - 1;
    for (unsigned t = 0; t < 3; ++t) {
      const Frame f = test::make_frame(c.fmt, [&](int, int, int) { return static_cast<unsigned>(rng() % (max + 1)); });
      ref->extract(f.view(), t, rt);
      dut->extract(f.view(), t, dt);
      for (Stage s : {Stage::vertical, Stage::blurred, Stage::row_sums, Stage::plane_totals}) {
        const auto a = ref->inspect(s), b = dut->inspect(s);
        BOOST_REQUIRE_EQUAL(a.has_value(), b.has_value());
        if (!a) continue;
        for (std::size_t i = 0; i < a->arrays.size(); ++i)
          for (std::size_t k = 0; k < a->arrays[i].values.size(); ++k)
            if (std::bit_cast<std::uint64_t>(a->arrays[i].values[k]) != std::bit_cast<std::uint64_t>(b->arrays[i].values[k])) {
              BOOST_ERROR(float_motion::to_string(level) << " " << describe(c.fmt) << " frame " << t << " " << to_string(s) << " "
                                                         << a->arrays[i].name << "[" << k << "] differs (seed " << seed << ")");
              break;
            }
      }
    }
    ref->flush(rt);
    dut->flush(dt);
    BOOST_TEST(compare_tables(rt, dt, Tolerance::exact()).pass, float_motion::to_string(level) << " " << describe(c.fmt));
  }
  unsetenv("TWINPROOF_SIMD");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cpu_simd)

BOOST_AUTO_TEST_CASE(every_level_matches_the_reference_bit_for_bit) {
  std::random_device rd;
  const SimdLevel best = float_motion::detected_simd_level();
  BOOST_TEST_MESSAGE("this CPU: " << float_motion::to_string(best));
  for (SimdLevel l : {SimdLevel::scalar, SimdLevel::avx2, SimdLevel::avx512})
    if (l <= best) check_level(l, (static_cast<std::uint64_t>(rd()) << 32) | rd());
}

BOOST_AUTO_TEST_SUITE_END()
