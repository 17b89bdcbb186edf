#include "extractors/float_ansnr/frame_loop.hpp"

#include "extractors/float_ansnr/options.hpp"
#include "extractors/format_checks.hpp"

namespace twinproof::float_ansnr {

Probe filtered_probe(std::span<const float> ref, std::span<const float> dis, int w, int h) {
  return Probe{
      "filtered",
      {ProbeArray{"ref", w, h, true, {ref.begin(), ref.end()}}, ProbeArray{"dis", w, h, true, {dis.begin(), dis.end()}}}};
}

Probe row_energy_probe(std::span<const Energy> rows) {
  Probe p{"row_energy",
          {ProbeArray{"sig", 1, static_cast<int>(rows.size()), true, {}},
           ProbeArray{"noise", 1, static_cast<int>(rows.size()), true, {}}}};
  for (const Energy& e : rows) {
    p.arrays[0].values.push_back(e.sig);
    p.arrays[1].values.push_back(e.noise);
  }
  return p;
}

Probe energy_probe(const Energy& e) {
  return Probe{"energy", {ProbeArray{"sig", 1, 1, true, {e.sig}}, ProbeArray{"noise", 1, 1, true, {e.noise}}}};
}

void FloatAnsnrExtractor::init(const Format& fmt, const OptionList& options) {
  (void)parse_options(options);
  // The 5x5 filter's mirror reaches two samples past each edge: below 3x3 libvmaf reads outside
  // the picture.
  refuse_small_luma(fmt, "float_ansnr", 3,
                    "its 5x5 filter mirrors two samples past each edge, which libvmaf reads outside the picture");
  params_ = float_psnr_limits(fmt.bitdepth);
  engine().init(fmt);
  start(fmt);
}

void FloatAnsnrExtractor::emit_scores(const Energy& energy, const Emit& emit) const {
  emit("float_ansnr", ansnr(energy, params_));
  emit("float_anpsnr", anpsnr(energy, format().width, format().height, params_));
}

}  // namespace twinproof::float_ansnr
