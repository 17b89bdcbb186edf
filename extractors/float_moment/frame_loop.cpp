#include "extractors/float_moment/frame_loop.hpp"

#include "extractors/float_moment/options.hpp"
#include "extractors/format_checks.hpp"

namespace twinproof::float_moment {

Probe running_sums_probe(std::span<const MomentSums> after_row) {
  Probe p{"running_sums", {}};
  for (int k = 0; k < 4; ++k) {
    ProbeArray a{kMomentNames[k], 1, static_cast<int>(after_row.size()), false, {}};
    for (const MomentSums& row : after_row) a.values.push_back(row[k]);
    p.arrays.push_back(std::move(a));
  }
  return p;
}

Probe sums_probe(const MomentSums& sums) {
  Probe p{"sums", {}};
  for (int k = 0; k < 4; ++k) p.arrays.push_back(ProbeArray{kMomentNames[k], 1, 1, false, {sums[k]}});
  return p;
}

void FloatMomentExtractor::init(const Format& fmt, const OptionList& options) {
  (void)parse_options(options);
  refuse_unsupported_bitdepth(fmt);
  engine().init(fmt);
  start(fmt);
}

void FloatMomentExtractor::emit_scores(const MomentSums& sums, const Emit& emit) const {
  // Each sum divided by the luma's sample count, in double, as libvmaf divides it.
  const double samples = static_cast<double>(format().width * format().height);
  for (int k = 0; k < 4; ++k) emit(kMomentNames[k], sums[k] / samples);
}

}  // namespace twinproof::float_moment
