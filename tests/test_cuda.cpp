// The CUDA twins on a device: every stage they expose equals the CPU reference's bits, on fresh
// random frames of many geometries, depths and options. Skipped (not failed) without a device;
// `twinproof gate --require cuda` is what makes a GPU runner without one fail.
#include <bit>
#include <cstring>
#include <random>

#include <boost/test/unit_test.hpp>

#include "extractors/devices.hpp"
#include "extractors/registry.hpp"
#include "harness/scores.hpp"
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

std::vector<Frame> random_frames(const Format& fmt, unsigned n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const unsigned max = (1u << fmt.bitdepth) - 1;
  std::vector<Frame> frames;
  for (unsigned i = 0; i < n; ++i)
    frames.push_back(test::make_frame(fmt, [&](int, int, int) { return static_cast<unsigned>(rng() % (max + 1)); }));
  return frames;
}

// Runs both backends frame by frame and compares, after each frame, every stage the twin
// exposes and every score, bit for bit.
void expect_stage_parity(const char* twin, const Config& c, std::uint64_t seed) {
  ExtractorContext ctx;
  ctx.capture_stages = true;
  auto ref = make_extractor(*find_backend("float_motion", "cpu"), ctx);
  auto dut = make_extractor(*find_backend("float_motion", twin), ctx);
  ref->init(c.fmt, c.options);
  dut->init(c.fmt, c.options);
  ScoreTable rt, dt;
  const std::vector<Frame> frames = random_frames(c.fmt, 4, seed);
  for (unsigned t = 0; t < frames.size(); ++t) {
    ref->extract(frames[t].view(), t, rt);
    dut->extract(frames[t].view(), t, dt);
    for (Stage s : kAllStages) {
      const auto a = ref->inspect(s), b = dut->inspect(s);
      if (!b) continue;
      BOOST_REQUIRE_MESSAGE(a.has_value(), "reference lacks stage " << to_string(s));
      BOOST_REQUIRE_EQUAL(a->arrays.size(), b->arrays.size());
      for (std::size_t i = 0; i < a->arrays.size(); ++i) {
        const auto& x = a->arrays[i].values;
        const auto& y = b->arrays[i].values;
        BOOST_REQUIRE_EQUAL(x.size(), y.size());
        std::size_t diff = 0, first = x.size();
        for (std::size_t k = 0; k < x.size(); ++k)
          if (std::bit_cast<std::uint64_t>(x[k]) != std::bit_cast<std::uint64_t>(y[k])) {
            if (first == x.size()) first = k;
            ++diff;
          }
        BOOST_CHECK_MESSAGE(diff == 0, twin << " frame " << t << " stage " << to_string(s) << " array " << a->arrays[i].name
                                             << ": " << diff << " differ, first at " << first << " (seed " << seed << ")");
      }
    }
  }
  ref->flush(rt);
  dut->flush(dt);
  const TableComparison cmp = compare_tables(rt, dt, Tolerance::exact());
  BOOST_CHECK_MESSAGE(cmp.pass, twin << ": " << cmp.summary() << " (seed " << seed << ")");
}

std::vector<Config> configurations() {
  std::vector<Config> c;
  for (int bpc : {8, 10, 12, 16})
    for (Chroma ch : {Chroma::c400, Chroma::c420, Chroma::c422, Chroma::c444}) {
      OptionList o;
      if (ch != Chroma::c400) o.emplace_back("motion_add_uv", "true");
      c.push_back({{67, 45, bpc, ch}, o});
    }
  c.push_back({{3, 3, 8, Chroma::c444}, {{"mfs", "1"}}});
  c.push_back({{2, 2, 8, Chroma::c444}, {{"mfs", "3"}}});
  c.push_back({{175, 99, 8, Chroma::c420}, {{"mau", "true"}, {"mdc", "true"}}});
  c.push_back({{640, 360, 10, Chroma::c422}, {{"mdc", "true"}, {"mfs", "3"}}});
  c.push_back({{1920, 1080, 8, Chroma::c420}, {{"mdc", "true"}, {"mau", "true"}}});
  c.push_back({{33, 2000, 12, Chroma::c444}, {}});  // tall and narrow
  c.push_back({{4001, 5, 8, Chroma::c400}, {}});    // wide and flat
  return c;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cuda_twins, *utf::precondition(cuda_present))

BOOST_AUTO_TEST_CASE(exact_twins_match_every_stage_of_the_reference) {
  std::random_device rd;
  for (const char* twin : {"cuda-rowthread", "cuda"})
    for (const Config& c : configurations()) {
      const std::uint64_t seed = (static_cast<std::uint64_t>(rd()) << 32) | rd();
      BOOST_TEST_CONTEXT(twin << " " << describe(c.fmt)) { expect_stage_parity(twin, c, seed); }
    }
}

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
  BOOST_TEST(!dut->inspect(Stage::row_sums).has_value());  // it has block sums, not row sums
  BOOST_TEST(ref->inspect(Stage::blurred)->arrays[0].values == dut->inspect(Stage::blurred)->arrays[0].values);
  ref->flush(rt);
  dut->flush(dt);
  BOOST_TEST(compare_tables(rt, dt, Tolerance::at_places(4)).pass);
}

BOOST_AUTO_TEST_CASE(repeated_runs_return_identical_bits) {
  const Config c{{1280, 720, 10, Chroma::c420}, {{"mau", "true"}, {"mdc", "true"}}};
  const auto frames = random_frames(c.fmt, 3, 777);
  for (const char* twin : {"cuda", "cuda-rowthread"}) {
    std::optional<ScoreTable> first;
    for (int rep = 0; rep < 5; ++rep) {
      auto ex = make_extractor(*find_backend("float_motion", twin), ExtractorContext{});
      ex->init(c.fmt, c.options);
      ScoreTable t;
      for (unsigned i = 0; i < frames.size(); ++i) ex->extract(frames[i].view(), i, t);
      ex->flush(t);
      if (!first) first = t;
      else BOOST_TEST(compare_tables(*first, t, Tolerance::exact()).pass);
    }
  }
}

BOOST_AUTO_TEST_CASE(pictures_in_pinned_memory_upload_directly_with_the_same_bits) {
  // cuda uploads page-locked pictures without staging; mix pinned and pageable frames in one clip.
  const Format fmt{1280, 720, 10, Chroma::c422};
  const OptionList options = {{"mau", "true"}};
  const auto frames = random_frames(fmt, 20, 4242);
  const HostBuffer pinned = allocate_host_buffer(frames.size() * frames[0].size(), true);
  BOOST_REQUIRE(pinned.pinned);
  std::vector<PictureView> views;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    PictureView v = frames[i].view();
    if (i % 3 != 2) {  // two of every three frames from pinned memory
      std::uint8_t* at = pinned.data.get() + i * frames[i].size();
      std::memcpy(at, frames[i].bytes(), frames[i].size());
      for (int p = 0; p < fmt.planes(); ++p) v.data[p] = at + frames[i].plane_offset(p);
    }
    views.push_back(v);
  }
  ScoreTable expected, got;
  auto ref = make_extractor(*find_backend("float_motion", "cpu"), ExtractorContext{});
  auto dut = make_extractor(*find_backend("float_motion", "cuda"), ExtractorContext{});
  ref->init(fmt, options);
  dut->init(fmt, options);
  for (unsigned i = 0; i < views.size(); ++i) {
    ref->extract(views[i], i, expected);
    dut->extract(views[i], i, got);
  }
  ref->flush(expected);
  dut->flush(got);
  const TableComparison cmp = compare_tables(expected, got, Tolerance::exact());
  BOOST_TEST(cmp.pass, cmp.summary());
  BOOST_TEST(cmp.values == 60u);
}

BOOST_AUTO_TEST_CASE(a_missing_device_is_a_device_error) {
  ExtractorContext ctx;
  ctx.device = 999;
  auto ex = make_extractor(*find_backend("float_motion", "cuda"), ctx);
  BOOST_CHECK_THROW(ex->init({64, 64, 8, Chroma::c420}, {}), DeviceError);
}

BOOST_AUTO_TEST_SUITE_END()
