// float_moment's arithmetic (extractors/float_moment/CONTRACT.md), written once for every
// backend: samples to fp32 as libvmaf's picture copy makes them, each picture's samples and their
// fp32 squares added to a double in raster order, the frame's four moments from those sums.
#pragma once

#include <array>
#include <cstdint>

#include "extractors/extractor.hpp"
#include "extractors/float_picture.hpp"
#include "extractors/host_device.hpp"

namespace twinproof::float_moment {

// A sample as fp32, as libvmaf's picture copy makes it with offset 0 (extractors/float_picture.hpp).
TP_HD float to_float(unsigned sample, int bitdepth) { return float_picture_sample(sample, bitdepth, 0); }
// A sample's term of the second moment: its fp32 value squared in fp32.
TP_HD float square(float v) { return v * v; }

// The four sums of a frame pair, in libvmaf's output order: the reference's samples, the
// distorted picture's, the reference's squares, the distorted picture's.
using MomentSums = std::array<double, 4>;
inline constexpr const char* kMomentNames[4] = {"float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd",
                                                "float_moment_dis2nd"};

// The log2 of the unit every term is a whole multiple of. A sample is a multiple of
// 1 / 2^(bitdepth - 8); its square one of the square of that (at 16 bits after the fp32 rounding of
// the square too, as every rounded square keeps a multiple of 2^-16). An exact twin adds terms as
// integers of the unit: while the total stays below 2^53 units every partial sum of the
// reference's double is exact, so the two sums are the same number.
TP_HD int sample_unit_log2(int bitdepth) { return bitdepth == 8 ? 0 : -(bitdepth - 8); }
TP_HD int square_unit_log2(int bitdepth) { return 2 * sample_unit_log2(bitdepth); }

}  // namespace twinproof::float_moment
