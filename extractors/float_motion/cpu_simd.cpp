// cpu-simd: the exact SIMD twin of the CPU reference, and the fast CPU path.
//  - Each plane is processed row by row in one pass: samples converted into a ring of rows,
//    vertical then horizontal blur of 8 (AVX2) or 16 (AVX-512) neighbouring outputs at once,
//    each output still 0.0f + f[0]*v[0] + f[1]*v[1] + ... with a separate multiply and add per
//    tap, in tap order (no FMA: -ffp-contract=off, and the AVX2 code does not enable FMA);
//  - the row SADs run 8 rows at once, one row per vector lane: an 8x8 block of |A - B| is
//    transposed so that each add advances every lane's own row by one column, left to right,
//    while the 8 freshly blurred rows are still in cache.
// The rest (downscale, totals, scores, frame loop) is the reference's own code. The level is
// chosen from the CPU at run time (TWINPROOF_SIMD=scalar|avx2|avx512 lowers it, for tests and
// benchmarks); the scalar level is the reference itself.
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "extractors/float_motion/cpu.hpp"
#include "extractors/float_motion/cpu_simd.hpp"

namespace twinproof::float_motion {

namespace {

class CpuSimdEngine final : public CpuEngine {
 public:
  explicit CpuSimdEngine(const ExtractorContext& ctx) : CpuEngine(ctx), level_(simd_level()), scratch_(bands_.threads()) {
    whole_stage_planes_ = level_ == SimdLevel::scalar || ctx.capture_stages;  // fused: rows only
  }

 protected:
  void blur_and_sum(const PictureView& pic, PlaneState& s, unsigned cur, unsigned prev, bool pair) override {
    if (level_ == SimdLevel::scalar) {
      CpuEngine::blur_and_sum(pic, s, cur, prev, pair);
      return;
    }
    const PlaneGeometry& g = s.g;
    const SimdPlaneJob job{pic.data[g.plane], pic.stride[g.plane], pic.fmt.bitdepth, g.w, g.h, taps_,
                           s.blurred[cur].data(), pair ? s.blurred[prev].data() : nullptr, s.rows.data(),
                           ctx_.capture_stages ? s.converted.data() : nullptr, ctx_.capture_stages ? s.vertical.data() : nullptr};
    // The fused pass needs nothing from another band's output: one pass over the bands.
    bands_.run(g.h, [&](int slot, int begin, int end) {
      SimdPlaneJob mine = job;
      mine.first_row = begin;
      mine.end_row = end;
      if (level_ == SimdLevel::avx512) fused_plane_avx512(mine, scratch_[slot]);
      else fused_plane_avx2(mine, scratch_[slot]);
    });
  }
  void row_sums(const float* a, const float* b, int w, int h, float* out) override {
    if (level_ == SimdLevel::scalar) CpuEngine::row_sums(a, b, w, h, out);
    else row_sums_avx2(a, b, w, h, out);
  }

 private:
  SimdLevel level_;
  std::vector<std::vector<float>> scratch_;  // a ring of converted rows per thread (RowBands slot)
};

}  // namespace
}  // namespace twinproof::float_motion

namespace twinproof {
std::unique_ptr<Extractor> make_float_motion_cpu_simd(const ExtractorContext& ctx) {
  return float_motion::make_motion_extractor<float_motion::CpuSimdEngine>(ctx);
}
}  // namespace twinproof
