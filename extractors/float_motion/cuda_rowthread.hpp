// cuda-rowthread: the plain exact design, also the engine of `cuda` until that one has its own.
#pragma once

#include "extractors/float_motion/cuda_engine.hpp"

namespace twinproof::float_motion {

class CudaRowThreadEngine : public CudaEngineBase {
 public:
  using CudaEngineBase::CudaEngineBase;
  void submit(const PictureView& pic) override;

 protected:
  bool has_stage(Stage) const override { return true; }
  void allocate(DevicePlane& p) override;
};

}  // namespace twinproof::float_motion
