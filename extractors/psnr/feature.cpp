// psnr's descriptor: what the shared layers know of this feature.
#include "extractors/feature.hpp"

#include "extractors/psnr/arithmetic.hpp"
#include "extractors/psnr/options.hpp"

namespace twinproof {
namespace {

// Bytes one frame must move on a device: both pictures' planes that are scored, read once each
// (nothing is written but a few sums).
DeviceTraffic psnr_traffic(const Format& fmt, const OptionList& options) {
  const psnr::PsnrOptions o = psnr::parse_options(options);
  const int planes = psnr::planes_scored(fmt, o);
  double samples = 0;
  for (int k = 0; k < planes; ++k) {
    const PlaneSize ps = psnr::read_plane(fmt, k);
    samples += double(ps.w) * ps.h;
  }
  DeviceTraffic t;
  t.upload_bytes = 2 * samples * fmt.bytes_per_sample();
  t.floor_bytes = t.upload_bytes;
  return t;
}

}  // namespace

const FeatureDescriptor& psnr_feature() {
  static const FeatureDescriptor d{
      .name = "psnr",
      .reference = "cpu",
      .summary =
          "libvmaf's integer PSNR: per plane, the exact 64-bit squared error of the pair, then 10 log10(peak^2 / MSE) "
          "with libvmaf's ceiling",
      .metrics = {"psnr_y", "mse_y", "psnr_cb", "mse_cb", "psnr_cr", "mse_cr"},
      .stages = {{"row_sums", "row squared errors", StageRole::partial_sums},
                 {"plane_sse", "plane squared errors", StageRole::sums},
                 {"outputs", "final output", StageRole::outputs}},
      .options = psnr::option_table(),
      .lookahead = 0,
      .reads_distorted = true,
      .traffic = &psnr_traffic,
      .probe_option_sets = {{},
                            {{"enable_mse", "true"}},
                            {{"enable_chroma", "false"}},
                            {{"reduced_hbd_peak", "true"}, {"min_sse", "0.5"}, {"enable_mse", "true"}}},
      .libvmaf_names = {{"psnr_y", "psnr_y", ""},
                        {"mse_y", "mse_y", ""},
                        {"psnr_cb", "psnr_cb", ""},
                        {"mse_cb", "mse_cb", ""},
                        {"psnr_cr", "psnr_cr", ""},
                        {"mse_cr", "mse_cr", ""}},
  };
  return d;
}

}  // namespace twinproof
