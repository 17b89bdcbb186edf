// Pairs of clips: the distortion recipes (pinned by the SHA-256 of what they make), the frame
// loop's checks of a pair, the motion features' indifference to the distorted clip, and psnr's
// contract where libvmaf's own picture geometry decides the value.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

#include "extractors/feature.hpp"
#include "extractors/registry.hpp"
#include "harness/scoring/scores.hpp"
#include "harness/scoring/twin_check.hpp"
#include "harness/support/errors.hpp"
#include "harness/vectors/vectors.hpp"
#include "tests/support.hpp"

using namespace twinproof;

namespace {

// A clip held in memory, as a FrameSource.
class HeldClip final : public FrameSource {
 public:
  HeldClip(std::vector<Frame> frames, std::string name) : frames_(std::move(frames)), name_(std::move(name)) {}
  const Format& format() const override { return frames_.front().format(); }
  const std::string& name() const override { return name_; }
  bool next(Frame& f) override {
    if (next_ == frames_.size()) return false;
    f = frames_[next_++];
    return true;
  }

 private:
  std::vector<Frame> frames_;
  std::string name_;
  std::size_t next_ = 0;
};

ScoreTable score_pair(const char* feature, const std::vector<Frame>& ref, const std::vector<Frame>& dist,
                      const OptionList& o = {}) {
  auto ex = make_extractor(*find_backend(feature, find_feature(feature)->reference), ExtractorContext{});
  HeldClip r(ref, "ref.yuv"), d(dist, "dist.yuv");
  return run_extractor(*ex, r, d, o);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pairs)

BOOST_AUTO_TEST_CASE(every_distortion_recipe_makes_its_pinned_bytes) {
  // The check pairs of vectors/RECIPES.md: the distorted stream of each recipe over a small
  // vector at 8, 10 and 16 bits. A change to a recipe's arithmetic changes these hashes.
  const Manifest& m = Manifest::project();
  const std::vector<std::pair<std::string, std::string>> pins = {
#include "tests/pair_pins.inc"
  };
  const auto made_here =
      std::count_if(m.distortions().begin(), m.distortions().end(), [](const DistortionSpec& d) { return !d.encoded(); });
  BOOST_REQUIRE_EQUAL(pins.size(), 3 * static_cast<std::size_t>(made_here));  // encoded distortions are pinned in the manifest
  for (const auto& [pair, sha] : pins) {
    const PairName name = split_pair_name(pair);
    const VectorSpec& v = m.reference_of(pair);
    ClipPair clips = open_pair(pair, v.fmt.bitdepth, v.fmt.chroma, m);
    BOOST_REQUIRE(clips.distorted);
    BOOST_TEST(test::stream_sha256(*clips.distorted) == sha, pair);
    BOOST_TEST(!name.distortion.empty());
  }
}

BOOST_AUTO_TEST_CASE(the_equal_pair_is_the_reference_and_the_inverted_pair_differs_everywhere) {
  const Manifest& m = Manifest::project();
  ClipPair equal = open_pair("pan64_f3~equal", 8, Chroma::c420, m), invert = open_pair("pan64_f3~invert", 8, Chroma::c420, m);
  Frame a, b, c;
  while (equal.reference->next(a)) {
    BOOST_REQUIRE(equal.distorted->next(b));
    BOOST_REQUIRE(invert.distorted->next(c));
    BOOST_TEST(std::equal(a.bytes(), a.bytes() + a.size(), b.bytes()));
    for (std::size_t i = 0; i < a.size(); ++i) BOOST_REQUIRE(a.bytes()[i] + c.bytes()[i] == 255);
  }
}

BOOST_AUTO_TEST_CASE(a_pair_names_its_reference_and_distortion_and_unknown_parts_are_refused) {
  BOOST_TEST(split_pair_name("pan576~noise4").reference == "pan576");
  BOOST_TEST(split_pair_name("pan576~noise4").distortion == "noise4");
  BOOST_TEST(split_pair_name("pan576").distortion.empty());
  const Manifest& m = Manifest::project();
  BOOST_CHECK_EXCEPTION(m.reference_of("pan576~nosuch"), InputError,
                        [](const InputError& e) { return test::contains(e.what(), "distortion 'nosuch'"); });
  BOOST_CHECK_EXCEPTION(m.reference_of("nosuch~noise4"), InputError,
                        [](const InputError& e) { return test::contains(e.what(), "vector 'nosuch'"); });
}

BOOST_AUTO_TEST_CASE(distortion_entries_are_checked_field_by_field) {
  const auto refuse = [](const nlohmann::json& j, const std::string& part) {
    BOOST_CHECK_EXCEPTION(parse_distortion(j, "m.json", "distortions[0]"), InputError, [&](const InputError& e) {
      return test::contains(e.what(), part) || (BOOST_TEST_MESSAGE(e.what()), false);
    });
  };
  refuse({{"id", "n"}, {"recipe", "sparkle"}}, "no such distortion recipe");
  refuse({{"id", "n"}, {"recipe", "noise"}, {"params", {{"seed", 1}}}}, "distortions[0].params.amplitude");
  refuse({{"id", "n"}, {"recipe", "noise"}, {"params", {{"seed", 1}, {"amplitude", 0}}}}, "must be an integer in [1, 255]");
  refuse({{"id", "n"}, {"recipe", "blur"}, {"params", {{"radius", 1}, {"sigma", 2}}}}, "takes no such parameter");
  refuse({{"id", "a~b"}, {"recipe", "equal"}}, "a distortion id is");
  refuse({{"id", "n"}, {"recipe", "equal"}, {"colour", 1}}, "unknown key");
  // An encoded distortion pins its clip per reference; a recipe of ours has no pins.
  const nlohmann::json pin = {{"sha256", std::string(64, 'a')}, {"made_by", "ffmpeg version x; x264 - core 1"}};
  refuse({{"id", "h"}, {"recipe", "x264"}, {"params", {{"crf", 30}}}}, "distortions[0].pins");
  refuse({{"id", "h"}, {"recipe", "x264"}, {"params", {{"crf", 30}}}, {"pins", nlohmann::json::object()}},
         "pins its distorted clip per reference");
  refuse({{"id", "h"}, {"recipe", "x264"}, {"params", {{"crf", 52}}}, {"pins", {{"v", pin}}}}, "must be an integer in [0, 51]");
  refuse({{"id", "h"}, {"recipe", "x264"}, {"params", {{"crf", 30}}}, {"pins", {{"v", {{"sha256", "ABC"}, {"made_by", "x"}}}}}},
         "distortions[0].pins.v.sha256");
  refuse({{"id", "h"}, {"recipe", "x264"}, {"params", {{"crf", 30}}}, {"pins", {{"v", {{"sha256", std::string(64, 'a')}}}}}},
         "distortions[0].pins.v");
  refuse({{"id", "n"}, {"recipe", "noise"}, {"params", {{"seed", 1}, {"amplitude", 2}}}, {"pins", {{"v", pin}}}},
         "only an encoded distortion is pinned");
  const DistortionSpec d =
      parse_distortion({{"id", "h"}, {"recipe", "x264"}, {"params", {{"crf", 30}}}, {"pins", {{"v", pin}}}}, "m.json", "d");
  BOOST_TEST(d.encoded());
  BOOST_TEST(d.pins.at("v").made_by == "ffmpeg version x; x264 - core 1");
  BOOST_CHECK_EXCEPTION(distort(nullptr, d), InputError,
                        [](const InputError& e) { return test::contains(e.what(), "read from the cache"); });
}

namespace {
// TWINPROOF_CACHE pointed at a fresh folder for one test, then restored.
class ScopedCache {
 public:
  ScopedCache() {
    if (const char* old = std::getenv("TWINPROOF_CACHE")) old_ = old;
    ::setenv("TWINPROOF_CACHE", dir_.path().c_str(), 1);
  }
  ~ScopedCache() {
    if (old_) ::setenv("TWINPROOF_CACHE", old_->c_str(), 1);
    else ::unsetenv("TWINPROOF_CACHE");
  }

 private:
  test::TempDir dir_;
  std::optional<std::string> old_;
};

// Debian's ffmpeg on PATH (scripts/setup.sh installs it): what encodes real codec pairs.
boost::test_tools::assertion_result ffmpeg_present(boost::unit_test::test_unit_id) {
  const test::CliResult r = test::run_program("ffmpeg", {"-hide_banner", "-version"});
  boost::test_tools::assertion_result ok(r.rc == 0);
  ok.message() << "ffmpeg is not on PATH (scripts/setup.sh installs Debian's): real codec pairs cannot be encoded";
  return ok;
}

// The project's vector odd175_420 (175x99 4:2:0, odd both ways) with an x264 distortion pinned
// to `sha` for it.
Manifest codec_manifest(const std::string& sha) {
  const Manifest& project = Manifest::project();
  nlohmann::json doc = nlohmann::json::parse(std::ifstream(project.file()));
  nlohmann::json vectors = nlohmann::json::array();
  for (const auto& v : doc["vectors"])
    if (v["id"] == "odd175_420") vectors.push_back(v);
  doc["vectors"] = vectors;
  doc["distortions"] = nlohmann::json::array({{{"id", "h264q30"},
                                               {"recipe", "x264"},
                                               {"params", {{"crf", 30}}},
                                               {"pins", {{"odd175_420", {{"sha256", sha}, {"made_by", "the test's pin"}}}}}}});
  return Manifest::from_json(doc, "codec-manifest.json");
}
}  // namespace

BOOST_AUTO_TEST_CASE(a_real_codec_pair_is_encoded_once_pinned_and_read_from_the_cache,
                     *boost::unit_test::precondition(ffmpeg_present)) {
  // Debian 12's ffmpeg and libx264 (x264 core 164 r3095) made this pin; another libx264 may make
  // other bytes, and the fetch must then say which tools made the pin and which it found.
  const std::string pin = "13cb107a25b7314e46a6097d6a08631527a534ea14e1a6443be6cd8aa526edad";
  ScopedCache cache;
  const Manifest good = codec_manifest(pin), bad = codec_manifest(std::string(64, 'b'));
  const VectorSpec& v = good.get("odd175_420");
  const DistortionSpec& d = good.distortion("h264q30");
  BOOST_CHECK_EXCEPTION(open_pair("odd175_420~h264q30", 8, Chroma::c420, good), InputError, [](const InputError& e) {
    return test::contains(e.what(), "twinproof vectors fetch odd175_420~h264q30");
  });
  BOOST_TEST(!clips_present("odd175_420~h264q30", good));
  BOOST_CHECK_EXCEPTION(encode_pair(bad.get("odd175_420"), bad.distortion("h264q30"), false, bad), InputError,
                        [](const InputError& e) {
                          return test::contains(e.what(), "the pin was made by the test's pin; here: ffmpeg version") &&
                                 test::contains(e.what(), "x264 - core ");
                        });
  BOOST_TEST(!std::filesystem::exists(cached_pair_path("odd175_420", d)));  // nothing drifted is left behind
  BOOST_TEST(test::contains(encode_pair(v, d, false, good), "sha256 ok"));
  BOOST_TEST(clips_present("odd175_420~h264q30", good));
  BOOST_TEST(test::contains(encode_pair(v, d, false, good), "cached, sha256 ok"));
  ClipPair clips = open_pair("odd175_420~h264q30", 8, Chroma::c420, good);
  BOOST_TEST(test::stream_sha256(*clips.distorted) == pin);
  // psnr of the pair: a lossy codec's on pan's noise texture (23.4 to 24.4 dB here), far below the
  // 8-bit ceiling of 60 dB that an equal pair gives.
  ClipPair scored = open_pair("odd175_420~h264q30", 8, Chroma::c420, good);
  auto ex = make_extractor(*find_backend("psnr", "cpu"), ExtractorContext{});
  const ScoreTable t = run_extractor(*ex, scored, {});
  for (unsigned f = 0; f < 5; ++f) {
    BOOST_TEST(*t.get("psnr_y", f) > 20.0);
    BOOST_TEST(*t.get("psnr_y", f) < 30.0);
  }
  // At another depth and chroma format, both clips go through the same libyuv conversion.
  BOOST_CHECK_EXCEPTION(open_pair("odd175_420~h264q30", 10, Chroma::c444, good), InputError,
                        [](const InputError& e) { return test::contains(e.what(), "odd175_420@10b-444"); });
}

BOOST_AUTO_TEST_CASE(clips_of_unequal_frame_counts_or_formats_are_refused_naming_both) {
  const Format fmt{16, 8, 8, Chroma::c420};
  const auto clip = [&](unsigned n, unsigned v) {
    std::vector<Frame> frames;
    for (unsigned i = 0; i < n; ++i) frames.push_back(test::make_frame(fmt, [&](int, int, int) { return v; }));
    return frames;
  };
  try {
    score_pair("psnr", clip(3, 10), clip(2, 12));
    BOOST_ERROR("a 2-frame distorted clip was scored against a 3-frame reference");
  } catch (const InputError& e) {
    BOOST_TEST(test::contains(e.what(), "dist.yuv: frames '2': holds 2 frames, and the reference clip ref.yuv holds more"),
               e.what());
  }
  try {
    score_pair("psnr", clip(2, 10), clip(3, 12));
    BOOST_ERROR("a 3-frame distorted clip was scored against a 2-frame reference");
  } catch (const InputError& e) {
    BOOST_TEST(test::contains(e.what(), "ref.yuv: frames '2': holds 2 frames, and the distorted clip dist.yuv holds more"),
               e.what());
  }
  std::vector<Frame> other{test::make_frame({16, 8, 10, Chroma::c420}, [](int, int, int) { return 1u; })};
  try {
    score_pair("psnr", clip(1, 10), other);
    BOOST_ERROR("clips of two formats were scored as a pair");
  } catch (const InputError& e) {
    BOOST_TEST(test::contains(e.what(), "the distorted clip is 16x8 10-bit 4:2:0, the reference ref.yuv is 16x8 8-bit 4:2:0"),
               e.what());
  }
}

BOOST_AUTO_TEST_CASE(the_motion_features_read_the_reference_alone) {
  // Their scores with a distorted clip unrelated to the reference (and with none) are the same bits.
  const Format fmt{64, 36, 10, Chroma::c420};
  const std::vector<Frame> ref = random_frames(fmt, 4, 11), noise = random_frames(fmt, 4, 12);
  for (const char* feature : {"float_motion", "motion"}) {
    BOOST_TEST(!find_feature(feature)->reads_distorted);
    const ScoreTable alone = score_pair(feature, ref, ref), paired = score_pair(feature, ref, noise);
    const TableComparison c = compare_tables(alone, paired, Tolerance::exact());
    BOOST_TEST(c.pass, feature << ": " << c.summary());
    BOOST_TEST(c.values >= 8u);
  }
  BOOST_TEST(find_feature("psnr")->reads_distorted);
}

BOOST_AUTO_TEST_CASE(psnr_reads_the_chroma_planes_libvmaf_allocates) {
  // libvmaf's picture of an odd-sized 4:2:0 frame has chroma planes of (w >> 1) x (h >> 1): the
  // file's last chroma column and row are never compared. A pair that differs only there has
  // chroma PSNRs at the ceiling (6 * 8 + 12 = 60 dB), and its luma likewise.
  const Format fmt{7, 5, 8, Chroma::c420};  // chroma stored 4x3, read 3x2
  const Frame ref = test::make_frame(fmt, [](int, int, int) { return 100u; });
  const Frame dist = test::make_frame(fmt, [](int p, int x, int y) { return p > 0 && (x == 3 || y == 2) ? 0u : 100u; });
  const ScoreTable t = score_pair("psnr", {ref}, {dist}, {{"enable_mse", "true"}});
  BOOST_TEST(t.get("psnr_cb", 0).value() == 60.0);
  BOOST_TEST(t.get("psnr_cr", 0).value() == 60.0);
  BOOST_TEST(t.get("mse_cb", 0).value() == 0.0);
  // One sample inside the read plane: SSE 100^2 over 3 x 2 samples.
  const Frame inside = test::make_frame(fmt, [](int p, int x, int y) { return p == 1 && x == 2 && y == 1 ? 0u : 100u; });
  const ScoreTable u = score_pair("psnr", {ref}, {inside}, {{"enable_mse", "true"}});
  BOOST_TEST(u.get("mse_cb", 0).value() == 10000.0 / 6.0);
  BOOST_TEST(u.get("psnr_cr", 0).value() == 60.0);
}

BOOST_AUTO_TEST_CASE(psnr_refuses_apsnr_and_turns_chroma_off_for_monochrome) {
  auto ex = make_extractor(*find_backend("psnr", "cpu"), ExtractorContext{});
  BOOST_CHECK_EXCEPTION(ex->init({16, 8, 8, Chroma::c420}, {{"enable_apsnr", "true"}}), RefusedConfiguration,
                        [](const RefusedConfiguration& e) { return test::contains(e.what(), "aggregate of the whole clip"); });
  ex->init({16, 8, 8, Chroma::c400}, {{"enable_chroma", "true"}, {"enable_mse", "true"}});
  BOOST_TEST(ex->metrics() == (std::vector<std::string>{"psnr_y", "mse_y"}), boost::test_tools::per_element());
  BOOST_TEST(ex->planes_read() == 1);
}

BOOST_AUTO_TEST_SUITE_END()
