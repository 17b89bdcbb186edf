#include "extractors/float_psnr/frame_loop.hpp"

#include "extractors/float_psnr/options.hpp"
#include "extractors/format_checks.hpp"

namespace twinproof::float_psnr {

Probe running_noise_probe(std::span<const double> after_row) {
  return Probe{"running_noise",
               {ProbeArray{"Y", 1, static_cast<int>(after_row.size()), false, {after_row.begin(), after_row.end()}}}};
}

Probe noise_probe(double noise_sum) { return Probe{"noise", {ProbeArray{"Y", 1, 1, false, {noise_sum}}}}; }

void FloatPsnrExtractor::init(const Format& fmt, const OptionList& options) {
  (void)parse_options(options);
  refuse_unsupported_bitdepth(fmt);
  params_ = float_psnr_limits(fmt.bitdepth);
  engine().init(fmt);
  start(fmt);
}

void FloatPsnrExtractor::emit_scores(const double& noise_sum, const Emit& emit) const {
  emit("float_psnr", frame_psnr(noise_sum, format().width, format().height, params_));
}

}  // namespace twinproof::float_psnr
