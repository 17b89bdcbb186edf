// float_motion's cuda-block on a device: a places=4 twin, so the generic exact-twin checks
// (test_twins.cpp) do not cover it; its blur is still exact and its reduction differs. Skipped
// (not failed) without a device.
#include <bit>
#include <cstring>

#include <boost/test/unit_test.hpp>

#include "extractors/devices.hpp"
#if TWINPROOF_HAVE_CUDA
#include "extractors/cuda/merged_upload.hpp"
#include "extractors/cuda/runtime.hpp"
#endif
#include "extractors/registry.hpp"
#include "harness/scoring/scores.hpp"
#include "harness/scoring/twin_check.hpp"
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
    ref->extract(frames[t].view(), frames[t].view(), t, rt);
    dut->extract(frames[t].view(), frames[t].view(), t, dt);
  }
  BOOST_TEST(!dut->inspect("row_sums").has_value());  // it has block sums, not row sums
  BOOST_TEST(ref->inspect("blurred")->arrays[0].values == dut->inspect("blurred")->arrays[0].values);
  ref->flush(rt);
  dut->flush(dt);
  BOOST_TEST(compare_tables(rt, dt, Tolerance::at_places(4)).pass);
}

#if TWINPROOF_HAVE_CUDA
BOOST_AUTO_TEST_CASE(merged_uploads_go_a_run_a_copy_and_every_byte_arrives) {
  // Planes of 600 bytes in 1000-byte frames of one pinned block: 10 back to back go as runs of 4,
  // 4 and 2 (all merged); then planes that break a run (a device place out of line, another
  // block, a shorter plane, a stride that changes, no owner, padded rows) each still land whole
  // where they go.
  constexpr std::size_t kPlane = 600, kFrame = 1000;
  cuda::PinnedBuffer<std::uint8_t> host, other;
  host.resize(32 * kFrame);
  other.resize(4 * kFrame);
  for (std::size_t i = 0; i < 32 * kFrame; ++i) host.get()[i] = static_cast<std::uint8_t>((i * 7 + i / 997) & 255);
  for (std::size_t i = 0; i < 4 * kFrame; ++i) other.get()[i] = static_cast<std::uint8_t>((i * 13 + 5) & 255);
  cuda::DeviceBuffer<std::uint8_t> device(32 * kPlane);
  TP_CUDA(cudaMemset(device.get(), 0, 32 * kPlane));
  cuda::Stream stream;
  cuda::MergedUpload up(4);
  std::vector<std::uint8_t> expected(32 * kPlane, 0);
  const auto add = [&](std::size_t slot, const std::uint8_t* src, std::size_t bytes) {
    up.add(device.get() + slot * kPlane, src, bytes, bytes, 1,
           src >= host.get() && src < host.get() + 32 * kFrame ? host.get() : other.get(), stream.get());
    std::memcpy(expected.data() + slot * kPlane, src, bytes);
  };
  for (std::size_t f = 0; f < 10; ++f) add(f, host.get() + f * kFrame, kPlane);
  up.flush();
  BOOST_TEST(up.merged() == 10u);
  add(10, host.get() + 10 * kFrame, kPlane);
  add(20, host.get() + 11 * kFrame, kPlane);      // out of line on the device
  add(21, other.get(), kPlane);                   // another block
  add(22, host.get() + 12 * kFrame, kPlane - 8);  // shorter
  add(23, host.get() + 13 * kFrame, kPlane);
  add(24, host.get() + 14 * kFrame, kPlane);
  add(25, host.get() + 16 * kFrame, kPlane);                                                               // the stride changes
  up.add(device.get() + 26 * kPlane, host.get() + 17 * kFrame, kPlane, kPlane, 1, nullptr, stream.get());  // no owner
  std::memcpy(expected.data() + 26 * kPlane, host.get() + 17 * kFrame, kPlane);
  add(27, host.get() + 18 * kFrame, kPlane);
  add(28, other.get() + kFrame, kPlane);  // the owner changes (its stride from the run would do)
  // Padded rows (6 rows of 100 bytes, 150 apart): a 2D copy of their own, between two runs.
  up.add(device.get() + 29 * kPlane, host.get() + 20 * kFrame, 150, 100, 6, host.get(), stream.get());
  for (std::size_t y = 0; y < 6; ++y)
    std::memcpy(expected.data() + 29 * kPlane + y * 100, host.get() + 20 * kFrame + y * 150, 100);
  add(30, host.get() + 21 * kFrame, kPlane);
  const std::uint64_t before = up.merged();
  up.flush();
  BOOST_TEST(up.merged() - before == 0u);  // [23, 24] went merged before; nothing since
  BOOST_TEST(before == 12u);
  up.flush();  // nothing left: no copy
  stream.sync();
  std::vector<std::uint8_t> got(32 * kPlane);
  TP_CUDA(cudaMemcpy(got.data(), device.get(), got.size(), cudaMemcpyDeviceToHost));
  for (std::size_t slot = 0; slot < 32; ++slot)
    BOOST_TEST(std::memcmp(got.data() + slot * kPlane, expected.data() + slot * kPlane, kPlane) == 0, "slot " << slot);
}
#endif

BOOST_AUTO_TEST_SUITE_END()
