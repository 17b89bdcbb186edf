// vif's scalar CPU engine (the reference): per scale, each row's vertical pass over the whole
// width, then its horizontal pass and each pixel's statistics (arithmetic.hpp), summed per row;
// then the next scale's picture, filtered and decimated. Rows may be split over threads: every
// value is computed as one thread would, and the sums are integers.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "extractors/ready_queue.hpp"
#include "extractors/row_bands.hpp"
#include "extractors/simd.hpp"
#include "extractors/vif/frame_loop.hpp"

namespace twinproof::vif {

// One scale's picture pair: scale 0 is the frame's luma (8- or 16-bit samples), later scales the
// engine's own 16-bit pictures.
struct ScalePictures {
  const std::uint8_t* ref;
  const std::uint8_t* dist;
  std::ptrdiff_t ref_stride, dist_stride;  // bytes
  bool wide;                               // 16-bit samples
  int w, h;
  int scale;
  int bpc;  // the clip's bit depth (scale 0's shifts depend on it)
};

// A thread's rows of a scale's vertical pass (mu1, mu2, xx, yy, xy), one entry per column, with
// kPad entries on either side for a kernel's mirrored edges and kSlack beyond for whole vectors;
// and three rows of per-pixel values a kernel may keep (the cpu-simd twin's variances).
struct RowScratch {
  static constexpr int kPad = 8;     // the widest filter's half-width
  static constexpr int kSlack = 32;  // two AVX-512 vectors of 32-bit values
  std::array<SimdScratch<std::uint32_t>, 5> vertical;
  std::array<SimdScratch<std::int32_t>, 3> pixel;
  void fit(int w);
  std::uint32_t* row(int k) { return vertical[static_cast<std::size_t>(k)].data() + kPad; }
  std::int32_t* values(int k) { return pixel[static_cast<std::size_t>(k)].data(); }
};

class CpuVifEngine : public VifEngine {
 public:
  explicit CpuVifEngine(const ExtractorContext& ctx) : ctx_(ctx), bands_(ctx.threads) {}
  void init(const Format& fmt, const EngineParams& params) override;
  void submit(const PictureView& ref, const PictureView& dist) override;
  std::optional<FrameSums> take(bool) override { return queue_.take(); }
  std::optional<Probe> inspect(std::string_view stage) const override;

 protected:
  // The sums of rows [begin, end) of a scale's pictures, one per row.
  virtual void statistic_rows(const ScalePictures& p, int begin, int end, ScaleSums* rows, RowScratch& t) const;
  // Rows [begin, end) of the next scale's pictures (p.w / 2 values a row, `out_stride` apart).
  virtual void subsample_rows(const ScalePictures& p, int begin, int end, std::uint16_t* ref_out, std::uint16_t* dist_out,
                              std::ptrdiff_t out_stride, RowScratch& t) const;

  const EngineParams& params() const { return params_; }
  const std::uint16_t* log2t() const { return log2t_; }

 private:
  const ExtractorContext ctx_;
  RowBands bands_;
  std::vector<RowScratch> scratch_;  // one per thread slot
  Format fmt_{};
  EngineParams params_;
  const std::uint16_t* log2t_ = nullptr;
  std::array<std::vector<std::uint16_t>, kScales> ref_, dist_;  // scales 1..3 (0 unused)
  std::array<std::vector<ScaleSums>, kScales> rows_;            // the latest frame's row sums
  FrameSums sums_{};
  bool have_frame_ = false;
  ReadyQueue<FrameSums> queue_;
};

}  // namespace twinproof::vif
