// Every registered exact twin of every feature against its feature's reference, stage by stage
// and output by output, on fresh random frames of many geometries, depths, chroma formats and
// each feature's probe option sets (checkasm's way). The twins come from the registry and the
// calibration table, so a new exact twin is tested here without editing this file. Host twins
// run at every SIMD level this CPU has; device twins need a device and are skipped without one.
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>

#include <boost/test/unit_test.hpp>

#include "extractors/devices.hpp"
#include "extractors/feature.hpp"
#include "extractors/frames_in_flight.hpp"
#include "extractors/registry.hpp"
#include "extractors/simd.hpp"
#include "harness/calibration/table.hpp"
#include "harness/goldens/goldens.hpp"
#include "harness/scoring/twin_check.hpp"
#include "harness/support/environment.hpp"
#include "harness/support/paths.hpp"
#include "tests/support.hpp"

using namespace twinproof;
namespace utf = boost::unit_test;

namespace {

struct Twin {
  const FeatureDescriptor* feature;
  const Backend* reference;
  const Backend* twin;
};

// Built-in twins whose calibration row says exact, of the given kind.
std::vector<Twin> exact_twins(BackendKind kind) {
  const Calibration table = Calibration::load(data_root() / "ci" / "calibration.json");
  std::vector<Twin> out;
  for (const FeatureDescriptor* f : features()) {
    const Backend* ref = find_backend(f->name, f->reference);
    for (const Backend* b : backends()) {
      if (b->feature != f->name || b == ref || b->kind != kind) continue;
      const CalibrationRow* row = table.find(std::string(f->name), std::string(f->reference), std::string(b->name), "", "");
      if (row != nullptr && row->tolerance.describe() == "exact") out.push_back({f, ref, b});
    }
  }
  return out;
}

struct Geometry {
  Format fmt;
  bool large;  // large ones run two option sets, not all of them
};

std::vector<Geometry> geometries() {
  std::vector<Geometry> g;
  for (int bpc : {8, 10, 12, 16})
    for (Chroma ch : {Chroma::c400, Chroma::c420, Chroma::c422, Chroma::c444}) g.push_back({{67, 45, bpc, ch}, false});
  g.push_back({{3, 3, 8, Chroma::c444}, false});    // the smallest legal picture of both features
  g.push_back({{2, 2, 8, Chroma::c444}, false});    // refused by integer motion, scored by float_motion
  g.push_back({{9, 8, 16, Chroma::c400}, false});   // narrower than one AVX-512 vector
  g.push_back({{17, 5, 12, Chroma::c420}, false});  // one vector and a tail
  g.push_back({{175, 99, 8, Chroma::c420}, false});
  g.push_back({{640, 360, 10, Chroma::c422}, true});
  g.push_back({{1920, 1080, 8, Chroma::c420}, true});
  g.push_back({{33, 2000, 12, Chroma::c444}, true});  // tall and narrow
  g.push_back({{4001, 5, 8, Chroma::c400}, true});    // wide and flat
  return g;
}

std::uint64_t fresh_seed() {
  static std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32) | rd();
}

// Runs every configuration for one twin; returns how many were compared.
int check_every_configuration(const Twin& t) {
  int compared = 0;
  std::size_t rotate = 0;
  for (const Geometry& g : geometries()) {
    const std::uint64_t seed = fresh_seed();
    // A pair of unrelated clips: what a feature that reads the distorted clip compares, and what
    // one that reads the reference alone must ignore.
    const std::vector<Frame> frames = random_frames(g.fmt, 5, seed), distorted = random_frames(g.fmt, 5, seed + 1);
    const auto& sets = t.feature->probe_option_sets;
    for (std::size_t i = 0; i < sets.size(); ++i) {
      if (g.large && i != 0 && i != 1 + (rotate % (sets.size() - 1))) continue;
      const TwinCheckReport r = check_twin_pair(*t.feature, *t.reference, *t.twin, frames, distorted, sets[i]);
      compared += r.refused ? 0 : 1;
      BOOST_CHECK_MESSAGE(r.equal, t.feature->name << "/" << t.twin->name << " " << describe(g.fmt) << " option set " << i << ": "
                                                   << r.summary() << " (seed " << seed << ")");
    }
    rotate += g.large ? 1 : 0;
  }
  return compared;
}

boost::test_tools::assertion_result device_present(utf::test_unit_id) {
  for (const Twin& t : exact_twins(BackendKind::gpu)) {
    const Availability a = t.twin->availability();
    boost::test_tools::assertion_result r(a.available);
    r.message() << a.reason;
    return r;
  }
  boost::test_tools::assertion_result r(false);
  r.message() << "no device twin is registered (built without CUDA)";
  return r;
}

// Scores the pairs (views[i], distorted[i]) with the twin's reference and with the twin, through
// their ordinary (batched, stage-free) paths; no comparison when the reference refuses the
// configuration.
std::optional<TableComparison> score_both(const Twin& t, const Format& fmt, const std::vector<PictureView>& views,
                                          const std::vector<PictureView>& distorted, const OptionList& options) {
  ScoreTable expected, got;
  auto ref = make_extractor(*t.reference, ExtractorContext{});
  auto dut = make_extractor(*t.twin, ExtractorContext{});
  try {
    ref->init(fmt, options);
  } catch (const RefusedConfiguration&) {
    return std::nullopt;
  }
  dut->init(fmt, options);
  for (unsigned i = 0; i < views.size(); ++i) {
    ref->extract(views[i], distorted[i], i, expected);
    dut->extract(views[i], distorted[i], i, got);
  }
  ref->flush(expected);
  dut->flush(got);
  return compare_tables(expected, got, Tolerance::exact());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(twins)

BOOST_AUTO_TEST_CASE(every_exact_host_twin_matches_every_stage_at_every_simd_level) {
  const std::vector<Twin> twins = exact_twins(BackendKind::host);
  BOOST_TEST_REQUIRE(twins.size() >= 2u);  // cpu-simd of float_motion and of motion at least
  const SimdLevel best = detected_simd_level();
  BOOST_TEST_MESSAGE("this CPU: " << to_string(best));
  for (SimdLevel level : {SimdLevel::scalar, SimdLevel::avx2, SimdLevel::avx512}) {
    if (level > best) continue;
    setenv("TWINPROOF_SIMD", std::string(to_string(level)).c_str(), 1);
    for (const Twin& t : twins) {
      // A twin made of other features' twins (vmaf's) runs their code, checked here feature by
      // feature, and one shared prediction: its scores are judged by the goldens and the gate.
      if (!t.feature->built_from.empty()) continue;
      BOOST_TEST_CONTEXT(t.feature->name << "/" << t.twin->name << " at " << to_string(level)) {
        BOOST_TEST(check_every_configuration(t) > 20);
      }
    }
  }
  unsetenv("TWINPROOF_SIMD");
}

BOOST_AUTO_TEST_CASE(host_backends_give_the_same_bits_on_any_number_of_threads) {
  // A plane's rows split over threads: every stage and output against the reference on one
  // thread, at band counts that divide the rows unevenly, leave bands of the minimum size, or
  // exceed the rows (one band).
  const std::vector<Format> formats = {{67, 45, 8, Chroma::c420},  {1920, 1080, 12, Chroma::c422}, {33, 2000, 16, Chroma::c444},
                                       {4001, 5, 8, Chroma::c400}, {3, 3, 8, Chroma::c444},        {175, 99, 10, Chroma::c420}};
  int compared = 0;
  for (const FeatureDescriptor* f : features()) {
    if (!f->built_from.empty()) continue;  // its parts hand the threads on; each part is checked here
    const Backend* ref = find_backend(f->name, f->reference);
    for (const Backend* b : backends()) {
      if (b->feature != f->name || b->kind != BackendKind::host || !is_built_in(*b) || !b->availability().available) continue;
      for (const Format& fmt : formats) {
        const std::uint64_t seed = fresh_seed();
        const std::vector<Frame> frames = random_frames(fmt, 4, seed), distorted = random_frames(fmt, 4, seed + 1);
        for (unsigned threads : {2u, 3u, 8u}) {
          const OptionList& options = f->probe_option_sets[threads % f->probe_option_sets.size()];
          const TwinCheckReport r = check_twin_pair(*f, *ref, *b, frames, distorted, options, 0, threads);
          compared += r.refused ? 0 : 1;
          BOOST_CHECK_MESSAGE(r.equal, f->name << "/" << b->name << " on " << threads << " threads, " << describe(fmt) << ": "
                                               << r.summary() << " (seed " << seed << ")");
        }
      }
    }
  }
  BOOST_TEST(compared >= 90);  // cpu and cpu-simd of every feature, most configurations scored
}

BOOST_AUTO_TEST_CASE(host_twins_give_the_same_bits_over_clips_of_every_length_and_hand_over) {
  // A host twin may score several frames in one pass (float_motion's cpu-simd: batches of 4,
  // only the last frame's blurred plane kept). Every clip length from 1 to 11 frames (full and
  // partial batches), with every third picture's samples not kept by their owner (such a picture
  // is scored at once, closing the batch early), against the reference through the ordinary path.
  int compared = 0;
  for (const Twin& t : exact_twins(BackendKind::host))
    for (const Format fmt :
         {Format{67, 45, 8, Chroma::c420}, Format{33, 70, 16, Chroma::c444}, Format{640, 120, 10, Chroma::c400}}) {
      const std::uint64_t seed = fresh_seed();
      const auto frames = random_frames(fmt, 11, seed);
      for (const bool all_kept : {true, false}) {
        std::vector<PictureView> views;
        for (std::size_t i = 0; i < frames.size(); ++i) {
          views.push_back(frames[i].view());
          if (!all_kept && i % 3 == 2) views.back().keep = nullptr;
        }
        for (std::size_t n = 1; n <= views.size(); ++n)
          for (const OptionList& options : t.feature->probe_option_sets) {
            const std::vector<PictureView> clip(views.begin(), views.begin() + static_cast<std::ptrdiff_t>(n));
            const std::vector<PictureView> distorted(clip.rbegin(), clip.rend());  // pair i: frames i and n - 1 - i
            const std::optional<TableComparison> cmp = score_both(t, fmt, clip, distorted, options);
            if (!cmp) continue;  // refused by the reference
            BOOST_TEST(cmp->pass, t.feature->name << "/" << t.twin->name << " " << describe(fmt) << ", " << n << " frames"
                                                  << (all_kept ? "" : ", some not kept") << ": " << cmp->summary() << " (seed "
                                                  << seed << ")");
            compared += 1;
          }
      }
    }
  BOOST_TEST(compared >= 200);
}

BOOST_AUTO_TEST_CASE(an_unknown_simd_level_is_refused_and_the_level_used_is_recorded) {
  // The variable is this process's: whatever this case checks or fails, the cases after it run
  // with it unset again.
  struct Unset {
    ~Unset() { unsetenv("TWINPROOF_SIMD"); }
  } unset;
  int simd_twins = 0;
  for (const char* bad : {"AVX2", "bogus", "avx-512"}) {
    setenv("TWINPROOF_SIMD", bad, 1);
    for (const FeatureDescriptor* f : features()) {
      const Backend* simd = find_backend(f->name, "cpu-simd");
      if (simd == nullptr) continue;  // a feature whose host twin picks no ISA
      ++simd_twins;
      try {
        make_extractor(*simd, ExtractorContext{});
        BOOST_ERROR(f->name << "/cpu-simd accepted TWINPROOF_SIMD=" << bad);
      } catch (const ConfigError& e) {
        BOOST_TEST(std::string(e.what()).find(std::string("TWINPROOF_SIMD='") + bad + "'") != std::string::npos, e.what());
      }
    }
  }
  BOOST_TEST(simd_twins >= 3 * 6, "the six features of the first milestones have cpu-simd twins");
  setenv("TWINPROOF_SIMD", "scalar", 1);
  BOOST_TEST(environment_fingerprint()["simd_level"] == "scalar");
  unsetenv("TWINPROOF_SIMD");
  BOOST_TEST(environment_fingerprint()["simd_level"] == std::string(to_string(detected_simd_level())));
}

BOOST_AUTO_TEST_CASE(simd_scratch_rows_start_on_cache_lines) {
  BOOST_TEST(cache_line_stride<float>(1920) == 1920u);
  BOOST_TEST(cache_line_stride<float>(67) == 80u);
  BOOST_TEST(cache_line_stride<float>(0) == 0u);
  BOOST_TEST(cache_line_stride<std::int32_t>(1) == 16u);
  BOOST_TEST(cache_line_stride<std::uint16_t>(33) == 64u);
  for (std::size_t n : {1, 3, 1000, 300000}) {
    SimdScratch<float> rows(n);
    BOOST_TEST(reinterpret_cast<std::uintptr_t>(rows.data()) % kCacheLineBytes == 0u, n << " floats");
    BOOST_TEST(rows[n - 1] == 0.0f);  // value-initialised like any vector
  }
}

BOOST_AUTO_TEST_CASE(the_check_finds_a_broken_stage) {
  // The check itself can fail: float_motion's mutant that moves one blurred sample by one ULP.
  const FeatureDescriptor& f = *find_feature("float_motion");
  const Backend* mutant = find_backend("float_motion", "mutant-blur", true);
  BOOST_REQUIRE(mutant != nullptr);
  const TwinCheckReport r =
      check_twin(f, *find_backend("float_motion", "cpu"), *mutant, random_frames({64, 48, 8, Chroma::c420}, 3, 7), {});
  BOOST_TEST(!r.equal);
  BOOST_TEST(r.summary().find("first divergence blur") != std::string::npos, r.summary());
}

BOOST_AUTO_TEST_CASE(host_twins_with_frames_in_flight_match_goldens) {
  // 8 threads are two frames at once on 4 threads each, 12 three: each frame's arithmetic is one
  // copy's, and the sums come back in frame order (extractors/frames_in_flight.hpp).
  BOOST_TEST(plan_frames_in_flight(8, false).copies == 2u);
  BOOST_TEST(plan_frames_in_flight(12, false).threads_each == 4u);
  BOOST_TEST(plan_frames_in_flight(12, true).copies == 1u);  // repro inspects the frame just given
  BOOST_TEST(plan_frames_in_flight(4, false).copies == 1u);
  const std::pair<const char*, std::vector<const char*>> pairs[] = {
      {"adm", {"noise67_16b_444~noise32", "pan99_12b_444~dct24", "odd175_420~noise4"}},
      {"vif", {"flash40_16b~invert", "pan99_12b_444~dct24", "mono160~noise4"}}};
  for (const auto& [feature, names] : pairs) {
    const Backend& simd = *find_backend(feature, "cpu-simd");
    for (const char* pair : names) {
      const GoldenFile g = load_golden_file(data_root() / "goldens" / feature / (std::string(pair) + ".json"));
      BOOST_TEST(!g.cases.empty());
      for (const GoldenCase& c : g.cases)
        for (const unsigned threads : {8u, 12u}) {
          const GoldenResult r = check_case(simd, c, ExtractorContext{.threads = threads});
          BOOST_TEST_CONTEXT(feature << " " << c.id << " on " << threads << " threads: " << r.detail) {
            BOOST_TEST(r.status == GoldenStatus::pass);
            BOOST_TEST(r.comparison.max_ulp == 0u);
            BOOST_TEST(r.comparison.values >= c.expected.frames() * c.expected.metrics().size());  // every score of every frame
          }
        }
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(gpu_twins, *utf::precondition(device_present))

BOOST_AUTO_TEST_CASE(every_exact_device_twin_matches_every_stage) {
  const std::vector<Twin> twins = exact_twins(BackendKind::gpu);
  for (const Twin& t : twins) BOOST_TEST_CONTEXT(t.feature->name << "/" << t.twin->name) {
      BOOST_TEST(check_every_configuration(t) > 20);
    }
}

BOOST_AUTO_TEST_CASE(repeated_runs_return_identical_bits) {
  for (const Twin& t : exact_twins(BackendKind::gpu)) {
    const Format fmt{1280, 720, 10, Chroma::c420};
    const auto frames = random_frames(fmt, 4, 777);
    const OptionList& options = t.feature->probe_option_sets.back();
    std::optional<ScoreTable> first;
    for (int rep = 0; rep < 5; ++rep) {
      auto ex = make_extractor(*t.twin, ExtractorContext{});
      ex->init(fmt, options);
      ScoreTable s;
      for (unsigned i = 0; i < frames.size(); ++i) ex->extract(frames[i].view(), frames[(i + 1) % frames.size()].view(), i, s);
      ex->flush(s);
      if (!first) first = s;
      else
        BOOST_TEST(compare_tables(*first, s, Tolerance::exact()).pass, t.feature->name << "/" << t.twin->name << " run " << rep);
    }
  }
}

BOOST_AUTO_TEST_CASE(long_clips_give_the_same_bits_across_batches) {
  // Device twins score frames in batches (float_motion's cuda: up to 64 small frames a launch,
  // in groups that each blur the frame before them again); a clip of 150 frames crosses
  // several batches, full and partial, at sizes whose widths take both load paths.
  int compared = 0;
  for (const Twin& t : exact_twins(BackendKind::gpu))
    for (const Format fmt : {Format{96, 40, 8, Chroma::c420}, Format{67, 21, 16, Chroma::c444}}) {
      const auto frames = random_frames(fmt, 150, 9001), distorted = random_frames(fmt, 150, 9002);
      std::vector<PictureView> views, distorted_views;
      for (const Frame& f : frames) views.push_back(f.view());
      for (const Frame& f : distorted) distorted_views.push_back(f.view());
      for (const OptionList& options : t.feature->probe_option_sets) {
        const std::optional<TableComparison> cmp = score_both(t, fmt, views, distorted_views, options);
        if (!cmp) continue;  // refused by the reference
        BOOST_TEST(cmp->pass, t.feature->name << "/" << t.twin->name << " " << describe(fmt) << ": " << cmp->summary());
        compared += cmp->values >= 149u ? 1 : 0;
      }
    }
  BOOST_TEST(compared >= 8);
}

BOOST_AUTO_TEST_CASE(drained_batches_give_the_same_bits_at_every_length) {
  // Device twins score frames in batches, and the end of a clip leaves a partial one, launched
  // when the caller waits for its scores: every clip length up to 21, and around one and two full
  // batches of small frames (float_motion's cuda: 64 a launch), from pinned memory (uploads merged
  // 4 frames a copy, so a partial batch may end inside a merged run) and pageable (staged).
  const std::vector<Twin> twins = exact_twins(BackendKind::gpu);
  BOOST_REQUIRE(!twins.empty());
  std::vector<std::size_t> lengths = {33, 63, 64, 65, 77, 127, 128, 130};
  for (std::size_t n = 1; n <= 21; ++n) lengths.push_back(n);
  std::size_t compared = 0;
  const Format fmt{96, 40, 8, Chroma::c420};
  // The reference clip's frames, then the distorted clip's, in one block (as bench lays them out).
  std::vector<Frame> frames = random_frames(fmt, 130, 2718);
  const std::size_t n_ref = frames.size();
  for (Frame& f : random_frames(fmt, 130, 2719)) frames.push_back(std::move(f));
  const HostBuffer pinned = allocate_host_buffer(frames.size() * frames[0].size(), true);
  BOOST_REQUIRE(pinned.pinned);
  for (const bool from_pinned : {true, false}) {
    std::vector<PictureView> views;
    for (std::size_t i = 0; i < frames.size(); ++i) {
      PictureView v = frames[i].view();
      if (from_pinned) {
        std::uint8_t* at = pinned.data.get() + i * frames[i].size();
        std::memcpy(at, frames[i].bytes(), frames[i].size());
        for (int p = 0; p < fmt.planes(); ++p) v.data[p] = at + frames[i].plane_offset(p);
      }
      views.push_back(v);
    }
    for (const Twin& t : twins)
      for (const std::size_t n : lengths) {
        const std::vector<PictureView> clip(views.begin(), views.begin() + static_cast<std::ptrdiff_t>(n));
        const std::vector<PictureView> distorted(views.begin() + static_cast<std::ptrdiff_t>(n_ref),
                                                 views.begin() + static_cast<std::ptrdiff_t>(n_ref + n));
        const std::optional<TableComparison> cmp = score_both(t, fmt, clip, distorted, t.feature->probe_option_sets.front());
        BOOST_TEST_REQUIRE(cmp.has_value(),
                           t.feature->name << "/" << t.twin->name << ": the reference refused the configuration");
        BOOST_TEST(cmp->pass, t.feature->name << "/" << t.twin->name << ", " << n << " frames"
                                              << (from_pinned ? " pinned" : " pageable") << ": " << cmp->summary());
        compared += 1;
      }
  }
  BOOST_TEST(compared == twins.size() * lengths.size() * 2);  // every twin, every length, both memories
}

BOOST_AUTO_TEST_CASE(pictures_in_pinned_memory_give_the_same_bits) {
  // Device twins may upload page-locked pictures without staging: mix pinned and pageable frames.
  const Format fmt{1280, 720, 10, Chroma::c422};
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
  // Each frame paired with another: the distorted picture of pair i is frame 19 - i.
  const std::vector<PictureView> distorted(views.rbegin(), views.rend());
  for (const Twin& t : exact_twins(BackendKind::gpu)) {
    const std::optional<TableComparison> cmp = score_both(t, fmt, views, distorted, t.feature->probe_option_sets.front());
    BOOST_TEST_REQUIRE(cmp.has_value(), t.feature->name << "/" << t.twin->name << ": the reference refused the configuration");
    BOOST_TEST(cmp->pass, t.feature->name << "/" << t.twin->name << ": " << cmp->summary());
    BOOST_TEST(cmp->values >= 40u);
  }
}

BOOST_AUTO_TEST_CASE(frames_of_one_pinned_block_give_the_same_bits_uploaded_a_run_a_copy) {
  // Device twins upload planes that continue each other (one block, one stride) as one copy
  // (cuda::MergedUpload). 30 frames: 14 back to back in a pinned block (runs of 4 across batch
  // ends), 3 pageable (staged), 6 at twice the frame's stride (a run of another pitch), 7 whose
  // rows are padded (one 2D copy each); every option set, so that chroma planes run too.
  for (const Format fmt : {Format{96, 40, 8, Chroma::c420}, Format{67, 21, 16, Chroma::c444}}) {
    const auto frames = random_frames(fmt, 30, 31337);
    const std::size_t size = frames[0].size();
    std::size_t padded_size = 0;  // frames 23..29: every row 64 bytes longer than its samples
    for (int p = 0; p < fmt.planes(); ++p)
      padded_size +=
          (static_cast<std::size_t>(stored_plane_size(fmt, p).w) * fmt.bytes_per_sample() + 64) * stored_plane_size(fmt, p).h;
    const HostBuffer block = allocate_host_buffer(27 * size, true), padded = allocate_host_buffer(7 * padded_size, true);
    BOOST_REQUIRE((block.pinned && padded.pinned));
    std::vector<PictureView> views;
    for (unsigned i = 0; i < frames.size(); ++i) {
      PictureView v = frames[i].view();
      if (i < 14 || (i >= 17 && i < 23)) {
        std::uint8_t* at = block.data.get() + (i < 14 ? i : 14 + 2 * (i - 17)) * size;
        std::memcpy(at, frames[i].bytes(), size);
        for (int p = 0; p < fmt.planes(); ++p) v.data[p] = at + frames[i].plane_offset(p);
      } else if (i >= 23) {
        std::uint8_t* at = padded.data.get() + (i - 23) * padded_size;
        std::ptrdiff_t offset = 0;
        for (int p = 0; p < fmt.planes(); ++p) {
          const PlaneSize ps = stored_plane_size(fmt, p);
          const std::size_t row = static_cast<std::size_t>(ps.w) * fmt.bytes_per_sample();
          v.data[p] = at + offset;
          v.stride[p] = static_cast<std::ptrdiff_t>(row + 64);
          for (int y = 0; y < ps.h; ++y)
            std::memcpy(at + offset + y * v.stride[p], frames[i].bytes() + frames[i].plane_offset(p) + y * row, row);
          offset += v.stride[p] * ps.h;
        }
      }
      views.push_back(v);
    }
    // Each frame paired with another of other memory: the distorted picture of pair i is frame 29 - i.
    const std::vector<PictureView> distorted(views.rbegin(), views.rend());
    for (const Twin& t : exact_twins(BackendKind::gpu))
      for (const OptionList& options : t.feature->probe_option_sets) {
        const std::optional<TableComparison> cmp = score_both(t, fmt, views, distorted, options);
        if (!cmp) continue;  // refused by the reference
        BOOST_TEST(cmp->pass, t.feature->name << "/" << t.twin->name << " " << describe(fmt) << ": " << cmp->summary());
        BOOST_TEST(cmp->values >= 29u);
      }
  }
}

BOOST_AUTO_TEST_CASE(a_missing_device_is_a_device_error) {
  for (const Twin& t : exact_twins(BackendKind::gpu)) {
    ExtractorContext ctx;
    ctx.device = 999;
    auto ex = make_extractor(*t.twin, ctx);
    BOOST_CHECK_THROW(ex->init({64, 64, 8, Chroma::c420}, {}), DeviceError);
  }
}

BOOST_AUTO_TEST_SUITE_END()
