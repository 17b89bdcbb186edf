#include "extractors/psnr/frame_loop.hpp"

#include <fmt/format.h>

#include "extractors/format_checks.hpp"

namespace twinproof::psnr {
namespace {
constexpr const char* kPsnrNames[3] = {"psnr_y", "psnr_cb", "psnr_cr"};
constexpr const char* kMseNames[3] = {"mse_y", "mse_cb", "mse_cr"};
constexpr const char* kPlaneNames[3] = {"Y", "U", "V"};
}  // namespace

Probe plane_sse_probe(const PlaneSse& sse, int planes) {
  Probe p{"plane_sse", {}};
  for (int k = 0; k < planes; ++k)
    p.arrays.push_back(
        ProbeArray{kPlaneNames[k], 2, 1, false, {static_cast<double>(sse[k] >> 32), static_cast<double>(sse[k] & 0xffffffffu)}});
  return p;
}

Probe row_sums_probe(const std::array<std::span<const std::uint64_t>, 3>& rows, int planes) {
  Probe p{"row_sums", {}};
  for (int k = 0; k < planes; ++k)
    p.arrays.push_back(ProbeArray{kPlaneNames[k], 1, static_cast<int>(rows[k].size()), false,
                                  std::vector<double>(rows[k].begin(), rows[k].end())});
  return p;
}

void PsnrExtractor::init(const Format& fmt, const OptionList& options) {
  opts_ = parse_options(options);
  refuse_unsupported_bitdepth(fmt);
  planes_ = planes_scored(fmt, opts_);
  params_ = score_params(fmt, opts_);
  engine().init(fmt, planes_);
  start(fmt);
}

std::vector<std::string> PsnrExtractor::metrics() const {
  // libvmaf's order: each plane's PSNR, then its MSE when asked.
  std::vector<std::string> m;
  for (int k = 0; k < planes_; ++k) {
    m.emplace_back(kPsnrNames[k]);
    if (opts_.enable_mse) m.emplace_back(kMseNames[k]);
  }
  return m;
}

void PsnrExtractor::emit_scores(const PlaneSse& sse, const Emit& emit) const {
  for (int k = 0; k < planes_; ++k) {
    const double mse = plane_mse(sse[k], read_plane(format(), k));
    emit(kPsnrNames[k], plane_psnr(mse, params_, k));
    if (opts_.enable_mse) emit(kMseNames[k], mse);
  }
}

}  // namespace twinproof::psnr
