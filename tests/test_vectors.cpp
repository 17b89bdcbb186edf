// The generator against the check values of vectors/RECIPES.md, and the SHA-256 pin.
#include <boost/test/unit_test.hpp>

#include "extractors/registry.hpp"
#include "harness/scoring/scores.hpp"
#include "harness/support/errors.hpp"
#include "harness/support/sha256.hpp"
#include "harness/vectors/vectors.hpp"
#include "tests/support.hpp"

using namespace twinproof;

using test::stream_sha256;

BOOST_AUTO_TEST_SUITE(generator)

BOOST_AUTO_TEST_CASE(sha256_known_answer) {
  BOOST_TEST(sha256_hex("abc", 3) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  BOOST_TEST(sha256_hex("", 0) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

BOOST_AUTO_TEST_CASE(splitmix64_first_outputs) {
  // SplitMix64 seeded with 0: the published reference sequence.
  SplitMix64 r(0);
  BOOST_TEST(r.next() == 0xe220a8397b1dcdafull);
  BOOST_TEST(r.next() == 0x6e789e6aa1b965f4ull);
}

// The six check values of vectors/RECIPES.md, one per recipe and format family.
BOOST_AUTO_TEST_CASE(spec_check_values) {
  const char* ids[] = {"check_pan64x48",  "check_cb16x8",   "check_noise33x17",
                       "check_ramp20x10", "check_flash9x7", "check_pan21x11"};
  for (const char* id : ids) {
    const VectorSpec& v = Manifest::project().get(id);
    auto gen = generate(v);
    BOOST_TEST_CONTEXT(id) { BOOST_TEST(stream_sha256(*gen) == v.sha256); }
  }
}

BOOST_AUTO_TEST_CASE(generated_oracle_vectors_hash_to_their_pins) {
  for (const VectorSpec& v : Manifest::project().vectors()) {
    if (v.decoded || v.recipe == "variant" || v.fmt.width * v.fmt.height > 1000000) continue;  // others: below, goldens
    auto gen = generate(v);
    BOOST_TEST_CONTEXT(v.id) { BOOST_TEST(stream_sha256(*gen) == v.sha256); }
  }
}

BOOST_AUTO_TEST_CASE(a_drifted_vector_is_refused_by_name) {
  VectorSpec v = Manifest::project().get("check_cb16x8");
  v.params["hi"] = 941;  // one sample value off
  auto src = verify_stream(generate(v), v.id, v.sha256, v.frames);
  Frame f;
  try {
    while (src->next(f)) {
    }
    BOOST_FAIL("a drifted vector must not be handed out");
  } catch (const InputError& e) {
    BOOST_TEST(e.file() == "check_cb16x8");
    BOOST_TEST(e.field() == "sha256");
    BOOST_TEST(std::string(e.what()).find("drifted") != std::string::npos);
  }
  // A run whose range ends at the first frame still reads such a source to its end, so the
  // drift is seen, not a score of frame 0.
  auto ranged = verify_stream(generate(v), v.id, v.sha256, v.frames);
  BOOST_TEST(ranged->checks_at_end());
  auto ex = make_extractor(*find_backend("float_motion", "cpu"), ExtractorContext{});
  RunOptions first_only;
  first_only.range.last = 0;
  BOOST_CHECK_THROW(run_extractor(*ex, *ranged, {}, first_only), InputError);
  VectorSpec shorter = Manifest::project().get("check_cb16x8");
  shorter.frames = 1;
  auto src2 = verify_stream(generate(shorter), shorter.id, shorter.sha256, 2);
  BOOST_CHECK_THROW(
      {
        while (src2->next(f)) {
        }
      },
      InputError);
}

BOOST_AUTO_TEST_CASE(missing_decoded_vector_says_how_to_fetch) {
  VectorSpec v = Manifest::project().get("city720_f48");
  v.id = "city720_f48_not_cached";
  try {
    open_vector(v);
    BOOST_FAIL("expected an InputError");
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find("twinproof vectors fetch city720_f48_not_cached") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(libyuv_variants_hash_to_their_pins_and_keep_the_picture) {
  const Manifest& m = Manifest::project();
  for (const char* id : {"odd175_420@16b-422", "noise573_444@10b-420", "pan576@12b-400", "flash64@8b-444"}) {
    auto src = open_vector(m.get(id), m);
    Frame f;
    unsigned n = 0;
    BOOST_TEST_CONTEXT(id) {
      BOOST_CHECK_NO_THROW(while (src->next(f))++ n);  // the SHA-256 check runs at the end
      BOOST_TEST(n == m.get(id).frames);
    }
  }
  // 8 -> 16 bit maps 255 to 65535: each luma sample is the base's times 257.
  auto base = open_vector(m.get("odd175_420"), m);
  auto wide = open_vector(m.variant("odd175_420", 16, Chroma::c422), m);
  Frame b, w;
  BOOST_REQUIRE(base->next(b));
  BOOST_REQUIRE(wide->next(w));
  BOOST_TEST(w.format() == (Format{175, 99, 16, Chroma::c422}));
  for (int y = 0; y < 99; y += 7)
    for (int x = 0; x < 175; x += 5) BOOST_TEST(w.view().sample(0, x, y) == b.view().sample(0, x, y) * 257u);
  BOOST_CHECK_THROW(m.variant("tiny3", 10, Chroma::c444), InputError);  // no matrix uses it: not pinned
}

BOOST_AUTO_TEST_CASE(pan_texture_follows_the_recipe) {
  // Frame 1 of pan{dx=2, dy=1} is frame 0 moved by (2, 1): luma (x, y) of frame 1 equals luma
  // (x + 2, y + 1) of frame 0 where both exist.
  const VectorSpec& v = Manifest::project().get("check_pan64x48");
  auto gen = generate(v);
  Frame f0, f1;
  BOOST_REQUIRE(gen->next(f0));
  f1 = f0;
  BOOST_REQUIRE(gen->next(f1));
  for (int y = 0; y < 40; ++y)
    for (int x = 0; x < 60; ++x) BOOST_TEST(f1.view().sample(0, x, y) == f0.view().sample(0, x + 2, y + 1));
  // V is the complement of the texture: U + V == 255 at the same chroma position.
  for (int y = 0; y < 24; ++y)
    for (int x = 0; x < 32; ++x) BOOST_TEST(f0.view().sample(1, x, y) + f0.view().sample(2, x, y) == 255u);
}

BOOST_AUTO_TEST_SUITE_END()
