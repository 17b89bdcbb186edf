// cpu-simd: the exact SIMD twin of the CPU reference, and the fast CPU path.
//  - Each plane is processed row by row in one pass: samples converted into a ring of rows,
//    the vertical pass over 4 output rows a sweep (each input row loaded once for all of them),
//    then the horizontal pass, each of 8 (AVX2) or 16 (AVX-512) neighbouring outputs at once,
//    each output still 0.0f + f[0]*v[0] + f[1]*v[1] + ... with a separate multiply and add per
//    tap, in tap order (no FMA: -ffp-contract=off, and the AVX2 code does not enable FMA);
//  - the row SADs run 8 rows at once, one row per vector lane: an 8x8 block of |A - B| is
//    transposed so that each add advances every lane's own row by one column, left to right,
//    while the 8 freshly blurred rows are still in cache;
//  - without stage capture or scale1, a pass takes 4 frames: only the last one's blurred plane
//    goes to memory (the others' rows meet their pairs in cache), so the fp32 plane's round trip
//    is paid once per 4 frames.
// The rest (downscale, totals, scores, frame loop) is the reference's own code. The level is
// chosen from the CPU at run time (TWINPROOF_SIMD=scalar|avx2|avx512 lowers it, for tests and
// benchmarks); the scalar level is the reference itself.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string_view>

#include "extractors/float_motion/cpu.hpp"
#include "extractors/float_motion/cpu_simd.hpp"

namespace twinproof::float_motion {

namespace {

// Frames a band's pass takes at once when no stage is captured (fused_batch). Measured with
// `bench --feature float_motion --backends cpu-simd`, 1080p 8 bit, frames in memory, against one
// frame a pass: 2-core EPYC on 2 threads 0.63-0.68 -> 0.59-0.61 ms a frame (2 frames a pass:
// 0.69-0.74); H200 host on 16 threads 0.20-0.22 -> 0.16-0.17 (2: 0.17-0.18). At 4K neither
// moved beyond the noise: there the rings and windows of 4 frames (1 MB a thread) leave L2.
constexpr int kBatchFrames = 4;
static_assert(kBatchFrames <= kMaxBatchFrames);

class CpuSimdEngine final : public CpuEngine {
 public:
  explicit CpuSimdEngine(const ExtractorContext& ctx) : CpuEngine(ctx), level_(simd_level()), scratch_(bands_.threads()) {
    whole_stage_planes_ = level_ == SimdLevel::scalar || ctx.capture_stages;  // fused: rows only
  }

  void init(const Format& fmt, const std::vector<PlaneGeometry>& planes, const MotionOptions& o) override {
    CpuEngine::init(fmt, planes, o);
    // Stage capture inspects every frame, and scale1 needs every frame's blurred plane: those go
    // frame by frame.
    batching_ = level_ != SimdLevel::scalar && !ctx_.capture_stages && !add_scale1_;
    pending_.clear();
  }
  void submit(const PictureView& pic) override {
    if (!batching_) {
      CpuEngine::submit(pic);
      return;
    }
    pending_.push_back(pic);
    // A picture whose owner does not keep its samples once submit returns is scored now.
    if (!pic.keep || pending_.size() == static_cast<std::size_t>(kBatchFrames)) run_batch();
  }
  std::optional<double> take(bool wait) override {
    if (auto s = ready_.take()) return s;
    if (!wait || pending_.empty()) return std::nullopt;
    run_batch();  // a partial batch: the caller needs its scores now
    return ready_.take();
  }

 protected:
  void blur_and_sum(const PictureView& pic, PlaneState& s, unsigned cur, unsigned prev, bool pair) override {
    if (level_ == SimdLevel::scalar) {
      CpuEngine::blur_and_sum(pic, s, cur, prev, pair);
      return;
    }
    const PlaneGeometry& g = s.g;
    SimdBatchJob job = plane_job(g, pic.fmt.bitdepth);
    job.samples[0] = pic.data[g.plane];
    job.stride[0] = pic.stride[g.plane];
    job.frames = 1;
    job.previous = pair ? s.blurred[prev].data() : nullptr;
    job.last_blurred = s.blurred[cur].data();
    job.row_sums = s.rows.data();
    job.converted = ctx_.capture_stages ? s.converted.data() : nullptr;
    job.vertical = ctx_.capture_stages ? s.vertical.data() : nullptr;
    run_bands(job);
  }
  void row_sums(const float* a, const float* b, int w, int h, float* out) override {
    if (level_ == SimdLevel::scalar) CpuEngine::row_sums(a, b, w, h, out);
    else row_sums_avx2(a, static_cast<std::size_t>(w), b, static_cast<std::size_t>(w), w, h, out);
  }

 private:
  // A fused job's plane and filter; the caller adds its frames and outputs.
  SimdBatchJob plane_job(const PlaneGeometry& g, int bitdepth) const {
    SimdBatchJob job{};
    job.bitdepth = bitdepth;
    job.w = g.w;
    job.h = g.h;
    job.taps = taps_;
    return job;
  }

  // A fused job over the bands of its plane's rows, at this engine's level. A fused pass needs
  // nothing from another band's output: one pass over the bands.
  void run_bands(const SimdBatchJob& job) {
    bands_.run(job.h, [&](int slot, int begin, int end) {
      SimdBatchJob mine = job;
      mine.first_row = begin;
      mine.end_row = end;
      if (level_ == SimdLevel::avx512) fused_batch_avx512(mine, scratch_[slot]);
      else fused_batch_avx2(mine, scratch_[slot]);
    });
  }

  // The pending frames through fused_batch, plane by plane; then each pair's score, its planes
  // added in plane order from 0 in double, as CpuEngine::submit adds them.
  void run_batch() {
    const int n = static_cast<int>(pending_.size());
    const bool has_previous = frames_ > 0;
    const int pairs = has_previous ? n : n - 1;
    pair_scores_.assign(static_cast<std::size_t>(std::max(pairs, 0)), 0.0);
    for (PlaneState& s : planes_) {
      const PlaneGeometry& g = s.g;
      batch_rows_.resize(static_cast<std::size_t>(g.h) * std::max(pairs, 1));
      SimdBatchJob job = plane_job(g, pending_.front().fmt.bitdepth);
      for (int f = 0; f < n; ++f) {
        job.samples[f] = pending_[f].data[g.plane];
        job.stride[f] = pending_[f].stride[g.plane];
      }
      job.frames = n;
      // One plane, overwritten in place: s.blurred[1] is never touched, so its pages are never
      // faulted in (on the 2-core VM first touches cost a fifth of a 60-frame 1080p score).
      job.previous = has_previous ? s.blurred[0].data() : nullptr;
      job.last_blurred = s.blurred[0].data();
      job.row_sums = batch_rows_.data();
      run_bands(job);
      for (int p = 0; p < pairs; ++p) {
        const std::span<const float> rows(batch_rows_.data() + static_cast<std::size_t>(g.h) * p, static_cast<std::size_t>(g.h));
        pair_scores_[p] += static_cast<double>(plane_score(score_from_row_sums(rows, g.w), 0.0f, false));
      }
    }
    for (const double score : pair_scores_) ready_.push(score);
    frames_ += static_cast<unsigned>(n);
    pending_.clear();  // the samples go back to their owners
  }

  SimdLevel level_;
  std::vector<SimdScratch<float>> scratch_;  // a ring of converted rows per thread (RowBands slot)
  bool batching_ = false;
  std::vector<PictureView> pending_;  // frames submitted and not yet scored (their samples kept)
  std::vector<float> batch_rows_;     // a plane's row sums, h per pair
  std::vector<double> pair_scores_;
};

}  // namespace
std::unique_ptr<Extractor> make_cpu_simd(const ExtractorContext& ctx) { return with_engine<MotionExtractor, CpuSimdEngine>(ctx); }

}  // namespace twinproof::float_motion
