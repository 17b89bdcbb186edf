// psnr's deliberately broken twin (registered only with --with-mutants): the gate's and repro's
// self-test for a pair feature. Its U plane's rows each count their last sample's squared error
// twice, so the row squared errors of U depart while Y's stay equal: repro must name that stage
// and plane.
#include "extractors/psnr/cpu.hpp"

namespace twinproof::psnr {
namespace {

class LastColumnTwiceEngine final : public CpuSseEngine {
 public:
  using CpuSseEngine::CpuSseEngine;

 protected:
  void rows(const PlaneJob& job) override {
    CpuSseEngine::rows(job);
    if (job.plane != 1 || job.w == 0) return;
    for (int y = job.first_row; y < job.end_row; ++y) {
      const std::uint8_t* r = job.ref + job.ref_stride * y;
      const std::uint8_t* d = job.dist + job.dist_stride * y;
      const std::int64_t e = job.wide ? std::int64_t(reinterpret_cast<const std::uint16_t*>(r)[job.w - 1]) -
                                            reinterpret_cast<const std::uint16_t*>(d)[job.w - 1]
                                      : std::int64_t(r[job.w - 1]) - d[job.w - 1];
      job.row_sse[y] += static_cast<std::uint64_t>(e * e);
    }
  }
};

}  // namespace
std::unique_ptr<Extractor> make_mutant_rows(const ExtractorContext& ctx) {
  return with_engine<PsnrExtractor, LastColumnTwiceEngine>(ctx);
}

}  // namespace twinproof::psnr
