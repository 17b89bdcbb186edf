// adm's scalar CPU engine (the reference): per scale, the wavelet of both pictures row by row, then
// decoupling and the CSF over the written rect, then each scored row's nine sums. Rows may be split
// over threads: every value is computed as one thread would, and the sums are integers.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "extractors/adm/frame_loop.hpp"
#include "extractors/ready_queue.hpp"
#include "extractors/row_bands.hpp"

namespace twinproof::adm {

// One scale's input pictures: the luma planes (8- or 16-bit samples) at scale 0, the previous
// scale's low-pass bands (32-bit) after.
struct ScaleInput {
  const std::uint8_t* ref;
  const std::uint8_t* dist;
  std::ptrdiff_t ref_stride, dist_stride;  // bytes
  int sample_bytes;                        // 1, 2 or 4
  int w, h;
  int scale;
  int bpc;
};

// The CSF-weighted bands of a scale and their shares of the masking threshold: [0] from the
// impairment (masks the DLM sums), [1] from the restored bands (masks AIM's).
struct ScaleMasks {
  std::vector<std::int32_t> csf[2][kAngles], flt[2][kAngles];
};

// A thread's vertical-pass rows (low and high pass of both pictures).
struct DwtScratch {
  std::vector<std::int64_t> lo[2], hi[2];
  void fit(int w);
};

// What a scored sample's sums need of its scale.
struct SampleSums {
  const ScaleGeometry* geometry;
  const SumShifts* shifts;
  const CsfWeights* weights;
  bool scale0;
  bool skip_aim;
};
// Scored sample (i, j)'s DLM and AIM masked cubes and denominator cubes, added to each angle's
// sums: the reference's own code, which the vector kernels call for the columns they cannot take
// (compiled here, for the baseline ISA).
void add_scored_sample(const SampleSums& at, int i, int j, const ScaleBands& b, const ScaleMasks& m, std::int64_t (&dlm)[kAngles],
                       std::int64_t (&aim)[kAngles], std::uint64_t (&den)[kAngles]);

class CpuAdmEngine : public AdmEngine {
 public:
  explicit CpuAdmEngine(const ExtractorContext& ctx) : ctx_(ctx), bands_(ctx.threads) {}
  void init(const Format& fmt, const EngineParams& params) override;
  void submit(const PictureView& ref, const PictureView& dist) override;
  std::optional<FrameSums> take(bool) override { return queue_.take(); }
  std::optional<Probe> inspect(std::string_view stage) const override;

 protected:
  // Rows [begin, end) of a scale's bands from its input.
  virtual void dwt_rows(const ScaleInput& in, int begin, int end, ScaleBands& out, DwtScratch& t) const;
  // Rows [begin, end) of the written rect: decoupled bands, then their CSF values.
  virtual void decouple_rows(int scale, int begin, int end, ScaleBands& b) const;
  virtual void csf_rows(int scale, int begin, int end, const ScaleBands& b, ScaleMasks& m) const;
  // Scored rows [begin, end): each row's sums (rows[i - scored.top]).
  virtual void sum_rows(int scale, int begin, int end, const ScaleBands& b, const ScaleMasks& m, ScaleSums* rows) const;

  const EngineParams& params() const { return params_; }
  const ScaleGeometry& geometry(int scale) const { return geometry_[static_cast<std::size_t>(scale)]; }
  const SumShifts& shifts(int scale) const { return shifts_[static_cast<std::size_t>(scale)]; }

 private:
  const ExtractorContext ctx_;
  RowBands bands_;
  std::vector<DwtScratch> scratch_;  // one per thread slot
  Format fmt_{};
  EngineParams params_;
  std::array<ScaleGeometry, kScales> geometry_{};
  std::array<SumShifts, kScales> shifts_{};
  std::array<ScaleBands, kScales> scale_bands_;
  std::array<ScaleMasks, kScales> masks_;
  std::array<std::vector<ScaleSums>, kScales> rows_;  // the latest frame's row sums
  FrameSums sums_{};
  bool have_frame_ = false;
  ReadyQueue<FrameSums> queue_;
};

}  // namespace twinproof::adm
