#include "extractors/psnr/cpu.hpp"

namespace twinproof::psnr {

void CpuSseEngine::init(const Format& fmt, int planes) {
  fmt_ = fmt;
  planes_ = planes;
  for (int k = 0; k < 3; ++k) rows_[k].assign(k < planes ? read_plane(fmt, k).h : 0, 0);
  sse_ = {};
  have_frame_ = false;
  queue_.clear();
}

void CpuSseEngine::rows(const PlaneJob& job) {
  for (int y = job.first_row; y < job.end_row; ++y) {
    const std::uint8_t* r = job.ref + job.ref_stride * y;
    const std::uint8_t* d = job.dist + job.dist_stride * y;
    job.row_sse[y] = job.wide
                         ? row_sse(reinterpret_cast<const std::uint16_t*>(r), reinterpret_cast<const std::uint16_t*>(d), job.w)
                         : row_sse(r, d, job.w);
  }
}

void CpuSseEngine::submit(const PictureView& ref, const PictureView& dist) {
  for (int k = 0; k < planes_; ++k) {
    const PlaneSize ps = read_plane(fmt_, k);
    bands_.run(ps.h, [&](int, int begin, int end) {
      rows({k, ref.data[k], dist.data[k], ref.stride[k], dist.stride[k], ps.w, ps.h, fmt_.bitdepth > 8, rows_[k].data(), begin,
            end});
    });
    std::uint64_t total = 0;
    for (const std::uint64_t r : rows_[k]) total += r;
    sse_[k] = total;
  }
  have_frame_ = true;
  queue_.push(sse_);
}

std::optional<Probe> CpuSseEngine::inspect(std::string_view stage) const {
  if (!ctx_.capture_stages || !have_frame_) return std::nullopt;
  if (stage == "plane_sse") return plane_sse_probe(sse_, planes_);
  if (stage != "row_sums") return std::nullopt;
  return row_sums_probe({rows_[0], rows_[1], rows_[2]}, planes_);
}

std::unique_ptr<Extractor> make_cpu(const ExtractorContext& ctx) { return with_engine<PsnrExtractor, CpuSseEngine>(ctx); }

}  // namespace twinproof::psnr
