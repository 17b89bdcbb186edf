// Mirror, taps, blur, the SAD order and the downscale: the arithmetic every backend shares.
#include <bit>
#include <cstdint>
#include <numeric>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "extractors/float_motion/arithmetic.hpp"
#include "extractors/float_motion/cpu.hpp"

using namespace twinproof::float_motion;

namespace {
std::uint32_t bits(float f) { return std::bit_cast<std::uint32_t>(f); }
}  // namespace

BOOST_AUTO_TEST_SUITE(mirror_and_taps)

BOOST_AUTO_TEST_CASE(reflect_101) {
  // n = 5: ... 2 1 | 0 1 2 3 4 | 3 2 ...
  const int expect[] = {2, 1, 0, 1, 2, 3, 4, 3, 2};
  for (int k = -2; k <= 6; ++k) BOOST_TEST(mirror(k, 5) == expect[k + 2]);
  // The smallest legal planes keep every index inside: n = radius + 1.
  for (int k = -2; k <= 4; ++k) BOOST_TEST((mirror(k, 3) >= 0 && mirror(k, 3) < 3));
  for (int k = -1; k <= 2; ++k) BOOST_TEST((mirror(k, 2) >= 0 && mirror(k, 2) < 2));
  BOOST_TEST(mirrorf(-1.0f, 5) == 1.0f);
  BOOST_TEST(mirrorf(5.0f, 5) == 3.0f);
  BOOST_TEST(mirrorf(2.5f, 5) == 2.5f);
}

BOOST_AUTO_TEST_CASE(taps_by_filter_size) {
  const Taps t3 = taps_for(3);
  BOOST_TEST(t3.count == 3);
  BOOST_TEST(t3.radius == 1);
  BOOST_TEST(bits(t3.f[1]) == bits(0.667243004f));
  const Taps id = taps_for(1);
  BOOST_TEST(id.count == 5);
  BOOST_TEST(id.f[2] == 1.0f);
  BOOST_TEST(id.f[0] == 0.0f);
  for (int fs : {0, 2, 4, 5, 6, 7, 8, 9}) {
    const Taps t = taps_for(fs);
    BOOST_TEST(t.count == 5);
    BOOST_TEST(bits(t.f[2]) == bits(0.402619947f));
  }
  BOOST_TEST(min_plane_extent(3) == 2);
  BOOST_TEST(min_plane_extent(5) == 3);
  BOOST_TEST(min_plane_extent(1) == 3);
}

BOOST_AUTO_TEST_CASE(sample_conversion) {
  BOOST_TEST(to_float(0, 8) == -128.0f);
  BOOST_TEST(to_float(255, 8) == 127.0f);
  BOOST_TEST(to_float(1023, 10) == 1023.0f / 4.0f - 128.0f);
  BOOST_TEST(to_float(1, 12) == 0.0625f - 128.0f);
  BOOST_TEST(to_float(65535, 16) == 65535.0f / 256.0f - 128.0f);
}

BOOST_AUTO_TEST_CASE(the_biased_conversion_gives_to_floats_bits_for_every_sample) {
  // Kernels form 2^23 + sample with a byte permute (bits 0x4B000000 | sample) and subtract.
  for (int bpc : {8, 10, 12, 16}) {
    int differing = 0;
    // Every value a sample of that storage can hold (16-bit storage for 10 and 12 bits too).
    for (unsigned s = 0; s < (bpc == 8 ? 256u : 65536u); ++s) {
      const float biased = std::bit_cast<float>(kBiasedSampleBits | s);
      differing += bits(biased_to_float(biased, bpc)) != bits(to_float(s, bpc));
    }
    BOOST_TEST(differing == 0, bpc << "-bit samples");
  }
  BOOST_TEST(bits(biased_to_float(std::bit_cast<float>(kBiasedSampleBits | 128u), 8)) == 0u);  // +0, not -0
  BOOST_TEST(bits(biased_to_float(std::bit_cast<float>(kBiasedSampleBits | 512u), 10)) == 0u);
}

BOOST_AUTO_TEST_CASE(a_tap_sum_from_its_first_product_equals_the_sum_from_zero_where_the_spec_allows_it) {
  // Converted samples and vertical-pass values, through the 3- and 5-tap filters: same bits.
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  const auto next = [&] { return state = state * 6364136223846793005ull + 1442695040888963407ull; };
  int compared = 0;
  for (int fs : {3, 5}) {
    const Taps t = taps_for(fs);
    BOOST_TEST(first_tap_positive(t));
    for (int bpc : {8, 10, 16})
      for (int n = 0; n < 20000; ++n) {
        float v[5], tmp[5];
        for (float& x : v) x = to_float(static_cast<unsigned>(next() >> 40) % (1u << bpc), bpc);
        if (n % 7 == 0) v[0] = 0.0f;   // the middle sample: +0
        for (int k = 0; k < 5; ++k) {  // vertical-pass values over 5 columns of random samples
          float col[5];
          for (float& x : col) x = to_float(static_cast<unsigned>(next() >> 40) % (1u << bpc), bpc);
          if (n % 5 == 0)
            for (float& x : col) x = 0.0f;  // flat columns sum to exactly +0
          tmp[k] = tap_sum<5>(t.f, [&](int i) { return col[i]; });
        }
        const auto at_v = [&](int k) { return v[k]; };
        const auto at_tmp = [&](int k) { return tmp[k]; };
        if (t.count == 3) {
          compared += bits(tap_sum<3>(t.f, at_v)) == bits(tap_sum_from_first<3>(t.f, at_v));
          compared += bits(tap_sum<3>(t.f, at_tmp)) == bits(tap_sum_from_first<3>(t.f, at_tmp));
        } else {
          compared += bits(tap_sum<5>(t.f, at_v)) == bits(tap_sum_from_first<5>(t.f, at_v));
          compared += bits(tap_sum<5>(t.f, at_tmp)) == bits(tap_sum_from_first<5>(t.f, at_tmp));
        }
      }
  }
  BOOST_TEST(compared == 2 * 3 * 20000 * 2);
  // Why the identity filter keeps the sum from zero: its first tap is 0, and 0 * -0 is -0,
  // which 0.0f + ... turns into +0.
  const Taps id = taps_for(1);
  BOOST_TEST(!first_tap_positive(id));
  const float z[5] = {-1.0f, -1.0f, -0.0f, -1.0f, -1.0f};
  const auto at_z = [&](int k) { return z[k]; };
  BOOST_TEST(bits(tap_sum<5>(id.f, at_z)) != bits(tap_sum_from_first<5>(id.f, at_z)));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(blur)

BOOST_AUTO_TEST_CASE(identity_filter_returns_the_plane) {
  const int w = 4, h = 3;
  std::vector<float> in = {1, -2, 3, 4, 5, 6.5f, -7, 8, 9, 10, 11, -12.25f}, tmp(12), out(12);
  blur_vertical(in.data(), w, h, taps_for(1), tmp.data());
  blur_horizontal(tmp.data(), w, h, taps_for(1), out.data());
  for (int i = 0; i < w * h; ++i) BOOST_TEST(bits(out[i]) == bits(in[i]));
}

BOOST_AUTO_TEST_CASE(three_tap_is_the_spec_sum_with_mirror) {
  // One row of 3, one column of 2 (the smallest 3-tap plane): every output by hand.
  const Taps t = taps_for(3);
  const std::vector<float> in = {10, 20, 40, 1, 2, 4};  // 3 x 2
  std::vector<float> tmp(6), out(6);
  blur_vertical(in.data(), 3, 2, t, tmp.data());
  blur_horizontal(tmp.data(), 3, 2, t, out.data());
  // Vertical, row 0: taps over rows mirror(-1)=1, 0, 1.
  for (int j = 0; j < 3; ++j) {
    float s = 0.0f;
    s += t.f[0] * in[3 + j];
    s += t.f[1] * in[j];
    s += t.f[2] * in[3 + j];
    BOOST_TEST(bits(tmp[j]) == bits(s));
  }
  // Horizontal, row 0, column 0: columns mirror(-1)=1, 0, 1.
  float s = 0.0f;
  s += t.f[0] * tmp[1];
  s += t.f[1] * tmp[0];
  s += t.f[2] * tmp[1];
  BOOST_TEST(bits(out[0]) == bits(s));
  // Column 2: columns 1, 2, mirror(3)=1.
  float e = 0.0f;
  e += t.f[0] * tmp[1];
  e += t.f[1] * tmp[2];
  e += t.f[2] * tmp[1];
  BOOST_TEST(bits(out[2]) == bits(e));
}

BOOST_AUTO_TEST_CASE(five_tap_interior_and_edges_match_a_direct_evaluation) {
  const int w = 9, h = 7;
  std::vector<float> in(w * h), tmp(w * h), out(w * h);
  for (int i = 0; i < w * h; ++i) in[i] = static_cast<float>((i * 37) % 255) - 128.0f + 0.25f * (i % 3);
  const Taps t = taps_for(5);
  blur_vertical(in.data(), w, h, t, tmp.data());
  blur_horizontal(tmp.data(), w, h, t, out.data());
  for (int i = 0; i < h; ++i)
    for (int j = 0; j < w; ++j) {
      float v = 0.0f;
      for (int k = 0; k < 5; ++k) v += t.f[k] * in[mirror(i - 2 + k, h) * w + j];
      BOOST_TEST(bits(tmp[i * w + j]) == bits(v));
      float o = 0.0f;
      for (int k = 0; k < 5; ++k) o += t.f[k] * tmp[i * w + mirror(j - 2 + k, w)];
      BOOST_TEST(bits(out[i * w + j]) == bits(o));
    }
}

BOOST_AUTO_TEST_CASE(tap_order_matters) {
  // The spec's order gives a different number than the reversed order for these values, so a
  // backend that reorders the taps is caught.
  const Taps t = taps_for(5);
  const float v[5] = {121.0f, -114.0f, 71.0f, 93.0f, -127.0f};
  float fwd = 0.0f, rev = 0.0f;
  for (int k = 0; k < 5; ++k) fwd += t.f[k] * v[k];
  for (int k = 4; k >= 0; --k) rev += t.f[k] * v[k];
  BOOST_TEST(bits(fwd) != bits(rev));
  BOOST_TEST(bits(tap_sum<5>(t.f, [&](int k) { return v[k]; })) == bits(fwd));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(sad_order)

// A row where left-to-right fp32 accumulation, a pairwise sum and an fp64 sum give three
// different fp32 results: 2^24 followed by many ones. Left to right, each 1 is lost against
// 2^24 (ties to even); pairwise, the ones add up among themselves first.
BOOST_AUTO_TEST_CASE(left_to_right_differs_from_pairwise_and_fp64) {
  const int w = 64;
  std::vector<float> a(w, 0.0f), b(w, 1.0f);
  b[0] = 16777216.0f;  // 2^24
  const float seq = row_sad(a.data(), b.data(), w);
  BOOST_TEST(seq == 16777216.0f);  // every +1 rounds back to 2^24
  // Pairwise (tree) sum of the same |a - b|.
  std::vector<float> d(w);
  for (int j = 0; j < w; ++j) d[j] = b[j] - a[j];
  for (int n = w; n > 1; n /= 2)
    for (int j = 0; j < n / 2; ++j) d[j] = d[2 * j] + d[2 * j + 1];
  BOOST_TEST(d[0] == 16777216.0f + 62.0f);  // only the first 1 is lost
  BOOST_TEST(bits(seq) != bits(d[0]));
  double fp64 = 0;
  for (int j = 0; j < w; ++j) fp64 += b[j];
  BOOST_TEST(bits(static_cast<float>(fp64)) != bits(seq));
}

BOOST_AUTO_TEST_CASE(rows_then_total_then_divide) {
  // Three rows whose sums only keep their low bits when added top to bottom.
  const std::vector<float> rows = {16777216.0f, 1.0f, 1.0f};
  // Top to bottom: (2^24 + 1) rounds to 2^24, then again: 2^24. Bottom-up would give 2^24 + 2.
  const float total = total_of_row_sums(rows);
  BOOST_TEST(total == 16777216.0f);
  BOOST_TEST(bits(score_from_row_sums(rows, 8)) == bits(16777216.0f / 24.0f));
}

BOOST_AUTO_TEST_CASE(absolute_difference_is_exact_and_signless) {
  const float a[3] = {-0.0f, 1.5f, -128.0f}, b[3] = {0.0f, -1.5f, 127.0f};
  BOOST_TEST(row_sad(a, b, 3) == 258.0f);
  BOOST_TEST(row_sad(b, a, 3) == 258.0f);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(downscale)

BOOST_AUTO_TEST_CASE(half_size_extents) {
  BOOST_TEST(scaled_extent(1920) == 960);
  BOOST_TEST(scaled_extent(175) == 88);
  BOOST_TEST(scaled_extent(3) == 2);
  BOOST_TEST(scaled_extent(2) == 1);
}

BOOST_AUTO_TEST_CASE(bilinear_indices_follow_the_spec) {
  // n = 9 -> 5, x = 4: r = 9.0f / 5 in fp32; xx evaluated in double and rounded once gives
  // 7.5999999f, while the same expression in fp32 steps gives 7.5999994f. The spec's is the first.
  const float r = 9.0f / 5.0f;
  const float xx = static_cast<float>(4.5 * static_cast<double>(r) - 0.5);
  const float xx_fp32 = 4.5f * r - 0.5f;
  BOOST_TEST(bits(xx) != bits(xx_fp32));
  const BilinearIndex b = bilinear_index(4, 9, 5);
  BOOST_TEST(b.i1 == 7);
  BOOST_TEST(b.i2 == 8);
  BOOST_TEST(bits(b.d) == bits(xx - 7.0f));
  // The first output sample of a 2:1 axis sits between source 0 and 1, weight 0.5.
  const BilinearIndex first = bilinear_index(0, 1920, 960);
  BOOST_TEST(first.i1 == 0);
  BOOST_TEST(first.i2 == 1);
  BOOST_TEST(first.d == 0.5f);
}

BOOST_AUTO_TEST_CASE(unchanged_size_is_a_copy) {
  // The spec's "copied unchanged" branch: no interpolation, not even of weight 1.
  std::vector<float> in = {1.5f, -2.25f, 3.0f, 4.125f, -0.0f, 6.0f}, out(6, 99.0f);
  downscale_plane(in.data(), 3, 2, 3, 2, out.data());
  for (int i = 0; i < 6; ++i) BOOST_TEST(bits(out[i]) == bits(in[i]));
}

BOOST_AUTO_TEST_CASE(downscale_is_the_four_term_sum) {
  const int w = 6, h = 4, sw = 3, sh = 2;
  std::vector<float> in(w * h), out(sw * sh);
  for (int i = 0; i < w * h; ++i) in[i] = static_cast<float>(i * i % 17) - 8.5f;
  downscale_plane(in.data(), w, h, sw, sh, out.data());
  for (int y = 0; y < sh; ++y)
    for (int x = 0; x < sw; ++x) {
      const BilinearIndex bx = bilinear_index(x, w, sw), by = bilinear_index(y, h, sh);
      const float dx = bx.d, dy = by.d;
      const float p11 = in[by.i1 * w + bx.i1], p12 = in[by.i1 * w + bx.i2];
      const float p21 = in[by.i2 * w + bx.i1], p22 = in[by.i2 * w + bx.i2];
      float v = (1 - dy) * (1 - dx) * p11;
      v = v + (1 - dy) * dx * p12;
      v = v + dy * (1 - dx) * p21;
      v = v + dy * dx * p22;
      BOOST_TEST(bits(out[y * sw + x]) == bits(v));
    }
}

BOOST_AUTO_TEST_SUITE_END()
