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

SimdLevel detected_simd_level() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return SimdLevel::avx512;
  if (__builtin_cpu_supports("avx2")) return SimdLevel::avx2;
  return SimdLevel::scalar;
}

SimdLevel simd_level() {
  const SimdLevel best = detected_simd_level();
  const char* env = std::getenv("TWINPROOF_SIMD");
  if (env == nullptr) return best;
  const std::string_view want(env);
  const SimdLevel asked = want == "scalar" ? SimdLevel::scalar : want == "avx2" ? SimdLevel::avx2 : SimdLevel::avx512;
  return asked < best ? asked : best;
}

std::string_view to_string(SimdLevel l) {
  switch (l) {
    case SimdLevel::scalar: return "scalar";
    case SimdLevel::avx2: return "avx2";
    case SimdLevel::avx512: return "avx512";
  }
  return "?";
}

namespace {

class CpuSimdEngine final : public CpuEngine {
 public:
  explicit CpuSimdEngine(const ExtractorContext& ctx) : CpuEngine(ctx), level_(simd_level()) {
    whole_stage_planes_ = level_ == SimdLevel::scalar || ctx.capture_stages;  // fused: rows only
  }

  void submit(const PictureView& pic) override {
    if (level_ == SimdLevel::scalar) {
      CpuEngine::submit(pic);
      return;
    }
    const unsigned cur = frames_ & 1u, prev = cur ^ 1u;
    const bool pair = frames_ > 0;
    double score = 0;
    for (PlaneState& s : planes_) {
      const PlaneGeometry& g = s.g;
      const SimdPlaneJob job{pic.data[g.plane], pic.stride[g.plane], pic.fmt.bitdepth, g.w, g.h, taps_,
                             s.blurred[cur].data(), pair ? s.blurred[prev].data() : nullptr, s.rows.data(),
                             ctx_.capture_stages ? s.converted.data() : nullptr, ctx_.capture_stages ? s.vertical.data() : nullptr};
      if (level_ == SimdLevel::avx512) fused_plane_avx512(job, scratch_);
      else fused_plane_avx2(job, scratch_);
      if (add_scale1_) downscale_plane(s.blurred[cur].data(), g.w, g.h, g.sw, g.sh, s.down[cur].data());
      if (!pair) continue;
      s.total = total_of_row_sums(s.rows);
      const float sad0 = score_from_row_sums(s.rows, g.w);
      float sad1 = 0;
      if (add_scale1_) {
        row_sums_avx2(s.down[prev].data(), s.down[cur].data(), g.sw, g.sh, s.rows_down.data());
        s.total_down = total_of_row_sums(s.rows_down);
        sad1 = score_from_row_sums(s.rows_down, g.sw);
      }
      s.score = plane_score(sad0, sad1, add_scale1_);
      score += static_cast<double>(s.score);  // Y, then + U, then + V, in double
    }
    if (pair) ready_.push_back(score);
    ++frames_;
  }

 private:
  SimdLevel level_;
  std::vector<float> scratch_;
};

}  // namespace
}  // namespace twinproof::float_motion

namespace twinproof {
std::unique_ptr<Extractor> make_float_motion_cpu_simd(const ExtractorContext& ctx) {
  return float_motion::make_motion_extractor<float_motion::CpuSimdEngine>(ctx);
}
}  // namespace twinproof
