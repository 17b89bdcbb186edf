// The scalar CPU reference of float_motion: extractors/float_motion/CONTRACT.md line by line.
// Exposed as a class so that exact CPU twins and the gate's mutants can reuse its stages.
#pragma once

#include <deque>
#include <vector>

#include "extractors/float_motion/motion.hpp"
#include "extractors/large_pages.hpp"
#include "extractors/ready_queue.hpp"
#include "extractors/row_bands.hpp"

namespace twinproof::float_motion {

// Plane operations of the reference, usable on their own (tests, mutants, repro).
// Converts one plane's samples (libvmaf geometry: the top-left w x h of the stored plane).
void convert_plane(const PictureView& pic, int plane, int w, int h, float* out);
// Vertical pass into tmp, then horizontal pass into out; both w x h, row-major, no padding.
void blur_vertical(const float* in, int w, int h, const Taps& t, float* tmp);
void blur_horizontal(const float* tmp, int w, int h, const Taps& t, float* out);
// Half-size bilinear downscale of a w x h plane into sw x sh (copied when the size is unchanged).
void downscale_plane(const float* in, int w, int h, int sw, int sh, float* out);

class CpuEngine : public MotionEngine {
 public:
  explicit CpuEngine(const ExtractorContext& ctx) : ctx_(ctx), bands_(ctx.threads) {}

  void init(const Format& fmt, const std::vector<PlaneGeometry>& planes, const MotionOptions& o) override;
  void submit(const PictureView& pic) override;
  std::optional<double> take(bool wait) override;
  std::optional<Probe> inspect_stage(Stage s) const override;

 protected:
  struct PlaneState;
  // Hooks for twins and mutants that differ from the reference in a stage or two. The first
  // fills s.blurred[cur] from the picture and, for a pair, s.rows; by default it converts,
  // calls blur() and calls row_sums(). row_sums() also sums the half-size planes (scale1).
  virtual void blur_and_sum(const PictureView& pic, PlaneState& s, unsigned cur, unsigned prev, bool pair);
  virtual void blur(const float* converted, const PlaneGeometry& g, float* tmp, float* out);
  virtual void row_sums(const float* a, const float* b, int w, int h, float* out);
  // row_sums() over the bands of the rows (each row's sum is its own: any split is exact).
  void banded_row_sums(const float* a, const float* b, int w, int h, float* out);

  struct PlaneState {
    PlaneGeometry g{};
    // Every plane is written whole before it is read.
    WrittenFirstPlane<float> converted, vertical;
    WrittenFirstPlane<float> blurred[2], down[2];  // [frame parity]
    std::vector<float> rows, rows_down;            // row sums of the latest pair
    float total = 0, total_down = 0, score = 0;
  };

  const ExtractorContext ctx_;
  RowBands bands_;  // the rows of a plane, split over ctx_.threads threads
  // Whether the converted and vertical planes are kept whole (the reference's stages; a fused
  // twin needs them only to expose its stages).
  bool whole_stage_planes_ = true;
  Taps taps_{};
  bool add_scale1_ = false;
  std::vector<PlaneState> planes_;
  unsigned frames_ = 0;
  ReadyQueue<double> ready_;
};

}  // namespace twinproof::float_motion
