// float_motion's cuda-block on a device: a places=4 twin, so the generic exact-twin checks
// (test_twins.cpp) do not cover it; its blur is still exact and its reduction differs. Skipped
// (not failed) without a device.
#include <bit>
#include <cstring>

#include <boost/test/unit_test.hpp>

#include "extractors/devices.hpp"
#include "extractors/registry.hpp"
#include "harness/scores.hpp"
#include "harness/twin_check.hpp"
#include "tests/support.hpp"

using namespace twinproof;
namespace utf = boost::unit_test;

namespace {

boost::test_tools::assertion_result cuda_present(utf::test_unit_id) {
  const Availability a = find_backend("float_motion", "cuda-rowthread")->availability();
  boost::test_tools::assertion_result r(a.available);
  r.message() << a.reason;
  return r;
}

struct Config {
  Format fmt;
  OptionList options;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(cuda_twins, *utf::precondition(cuda_present))

BOOST_AUTO_TEST_CASE(block_twin_blurs_exactly_and_sums_within_places_4) {
  const Config c{{1920, 1080, 8, Chroma::c420}, {}};
  ExtractorContext ctx;
  ctx.capture_stages = true;
  auto ref = make_extractor(*find_backend("float_motion", "cpu"), ctx);
  auto dut = make_extractor(*find_backend("float_motion", "cuda-block"), ctx);
  ref->init(c.fmt, c.options);
  dut->init(c.fmt, c.options);
  ScoreTable rt, dt;
  const auto frames = random_frames(c.fmt, 2, 12345);
  for (unsigned t = 0; t < 2; ++t) {
    ref->extract(frames[t].view(), t, rt);
    dut->extract(frames[t].view(), t, dt);
  }
  BOOST_TEST(!dut->inspect("row_sums").has_value());  // it has block sums, not row sums
  BOOST_TEST(ref->inspect("blurred")->arrays[0].values == dut->inspect("blurred")->arrays[0].values);
  ref->flush(rt);
  dut->flush(dt);
  BOOST_TEST(compare_tables(rt, dt, Tolerance::at_places(4)).pass);
}

BOOST_AUTO_TEST_SUITE_END()
