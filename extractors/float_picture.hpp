// libvmaf's float features read a picture the one way its picture copy makes it, and score PSNRs
// against one peak and ceiling per bit depth; written once here for every such feature, host and
// device alike (TP_HD).
#pragma once

#include "extractors/host_device.hpp"

namespace twinproof {

// A sample as fp32 plus libvmaf's integer offset (0, or -128 where the feature centres samples):
// an 8-bit sample converted as it is, a deeper one converted and divided in fp32 by
// 2^(bitdepth - 8) (libvmaf's scalers 4, 16, 256), so every depth spans 0..256. Every step is exact.
TP_HD float float_picture_sample(unsigned sample, int bitdepth, int offset) {
  const float v =
      bitdepth == 8 ? static_cast<float>(sample) : static_cast<float>(sample) / static_cast<float>(1 << (bitdepth - 8));
  return v + static_cast<float>(offset);
}

// The peak a float PSNR is computed against and the ceiling it is capped at, per bit depth:
// 255 / 60, 255.75 / 72, 255.9375 / 84, 255.99609375 / 108 (8, 10, 12, 16 bits).
struct FloatPsnrLimits {
  double peak = 255.0;
  double ceiling = 60.0;
};
inline FloatPsnrLimits float_psnr_limits(int bitdepth) {
  switch (bitdepth) {
    case 10: return {255.75, 72.0};
    case 12: return {255.9375, 84.0};
    case 16: return {255.99609375, 108.0};
    default: return {255.0, 60.0};
  }
}

}  // namespace twinproof
