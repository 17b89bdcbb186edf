#include "extractors/vif/cpu.hpp"

#include <cmath>

namespace twinproof::vif {

const std::uint16_t* log2_table() {
  // One entry more than the indices reach: a vector kernel reads each entry as a 32-bit word.
  static const std::array<std::uint16_t, 65536 + 2> table = [] {
    std::array<std::uint16_t, 65536 + 2> t{};
    // libvmaf's own table: the C library's float log2 of each 16-bit value, times 2048 (exact),
    // rounded half away from zero. Only [32767, 65535] is ever read.
    for (unsigned i = 32767; i < 65536; ++i)
      t[i] = static_cast<std::uint16_t>(std::round(std::log2f(static_cast<float>(i)) * 2048));
    return t;
  }();
  return table.data();
}

void RowScratch::fit(int w) {
  const std::size_t n = cache_line_stride<std::uint32_t>(static_cast<std::size_t>(w) + 2 * kPad + kSlack);
  for (auto& v : vertical) v.assign(n, 0);
  for (auto& v : pixel) v.assign(n, 0);
}

namespace {

template <class Sample>
const Sample* row_of(const std::uint8_t* base, std::ptrdiff_t stride, int y) {
  return reinterpret_cast<const Sample*>(base + stride * y);
}

template <class Sample>
void statistic_row(const ScalePictures& p, int i, RowScratch& t, ScaleSums& out, const std::uint16_t* log2t, double gain_limit) {
  const int fw = kFilterWidth[p.scale], half = fw / 2;
  const std::uint16_t* f = kFilter[p.scale];
  const VerticalShift vs = vertical_shift(p.scale, p.bpc);
  for (int j = 0; j < p.w; ++j) {
    std::uint32_t mu1 = 0, mu2 = 0;
    std::uint64_t xx = 0, yy = 0, xy = 0;
    for (int k = 0; k < fw; ++k) {
      const int y = mirror(i - half + k, p.h);
      const std::uint32_t a = row_of<Sample>(p.ref, p.ref_stride, y)[j];
      const std::uint32_t b = row_of<Sample>(p.dist, p.dist_stride, y)[j];
      const std::uint32_t fa = f[k] * a, fb = f[k] * b;
      mu1 += fa;
      mu2 += fb;
      xx += std::uint64_t{fa} * a;
      yy += std::uint64_t{fb} * b;
      xy += std::uint64_t{fa} * b;
    }
    t.row(0)[j] = (mu1 + vs.mu_round) >> vs.mu_shift;
    t.row(1)[j] = (mu2 + vs.mu_round) >> vs.mu_shift;
    t.row(2)[j] = static_cast<std::uint32_t>((xx + vs.sq_round) >> vs.sq_shift);
    t.row(3)[j] = static_cast<std::uint32_t>((yy + vs.sq_round) >> vs.sq_shift);
    t.row(4)[j] = static_cast<std::uint32_t>((xy + vs.sq_round) >> vs.sq_shift);
  }
  for (int j = 0; j < p.w; ++j) {
    std::uint32_t mu1 = 0, mu2 = 0;
    std::uint64_t xx = 0, yy = 0, xy = 0;
    for (int k = 0; k < fw; ++k) {
      const int x = mirror(j - half + k, p.w);
      mu1 += f[k] * t.row(0)[x];
      mu2 += f[k] * t.row(1)[x];
      xx += f[k] * std::uint64_t{t.row(2)[x]};
      yy += f[k] * std::uint64_t{t.row(3)[x]};
      xy += f[k] * std::uint64_t{t.row(4)[x]};
    }
    add_pixel(out, mu1, mu2, xx, yy, xy, log2t, gain_limit);
  }
}

// Row `i` of the next scale: row 2i of this scale filtered vertically over the whole width, then
// horizontally at the even columns (the decimation keeps even rows and columns only).
template <class Sample>
void subsample_row(const ScalePictures& p, int i, std::uint16_t* ref_out, std::uint16_t* dist_out, RowScratch& t) {
  const int next = p.scale + 1;
  const int fw = kFilterWidth[next], half = fw / 2;
  const std::uint16_t* f = kFilter[next];
  const VerticalShift vs = subsample_shift(next, p.bpc);
  const int src = 2 * i;
  for (int j = 0; j < p.w; ++j) {
    std::uint32_t a = 0, b = 0;
    for (int k = 0; k < fw; ++k) {
      const int y = mirror(src - half + k, p.h);
      a += f[k] * std::uint32_t{row_of<Sample>(p.ref, p.ref_stride, y)[j]};
      b += f[k] * std::uint32_t{row_of<Sample>(p.dist, p.dist_stride, y)[j]};
    }
    t.row(0)[j] = static_cast<std::uint16_t>((a + vs.mu_round) >> vs.mu_shift);
    t.row(1)[j] = static_cast<std::uint16_t>((b + vs.mu_round) >> vs.mu_shift);
  }
  for (int jo = 0; jo < p.w / 2; ++jo) {
    std::uint32_t a = 0, b = 0;
    for (int k = 0; k < fw; ++k) {
      const int x = mirror(2 * jo - half + k, p.w);
      a += f[k] * t.row(0)[x];
      b += f[k] * t.row(1)[x];
    }
    ref_out[jo] = static_cast<std::uint16_t>((a + 32768u) >> 16);
    dist_out[jo] = static_cast<std::uint16_t>((b + 32768u) >> 16);
  }
}

}  // namespace

void CpuVifEngine::statistic_rows(const ScalePictures& p, int begin, int end, ScaleSums* rows, RowScratch& t) const {
  for (int i = begin; i < end; ++i) {
    rows[i] = {};
    if (p.wide) statistic_row<std::uint16_t>(p, i, t, rows[i], log2t_, params_.gain_limit);
    else statistic_row<std::uint8_t>(p, i, t, rows[i], log2t_, params_.gain_limit);
  }
}

void CpuVifEngine::subsample_rows(const ScalePictures& p, int begin, int end, std::uint16_t* ref_out, std::uint16_t* dist_out,
                                  std::ptrdiff_t out_stride, RowScratch& t) const {
  for (int i = begin; i < end; ++i) {
    if (p.wide) subsample_row<std::uint16_t>(p, i, ref_out + out_stride * i, dist_out + out_stride * i, t);
    else subsample_row<std::uint8_t>(p, i, ref_out + out_stride * i, dist_out + out_stride * i, t);
  }
}

void CpuVifEngine::init(const Format& fmt, const EngineParams& params) {
  fmt_ = fmt;
  params_ = params;
  log2t_ = log2_table();
  scratch_.assign(bands_.threads(), RowScratch{});
  for (RowScratch& t : scratch_) t.fit(fmt.width);
  for (int s = 0; s < kScales; ++s) {
    const PlaneSize ps = scale_size(fmt, s);
    rows_[s].assign(static_cast<std::size_t>(ps.h), ScaleSums{});
    const std::size_t n = s == 0 ? 0 : static_cast<std::size_t>(ps.w) * ps.h;
    ref_[s].assign(n, 0);
    dist_[s].assign(n, 0);
  }
  sums_ = {};
  have_frame_ = false;
  queue_.clear();
}

void CpuVifEngine::submit(const PictureView& ref, const PictureView& dist) {
  ScalePictures p{ref.data[0], dist.data[0], ref.stride[0], dist.stride[0], fmt_.bitdepth > 8, fmt_.width, fmt_.height,
                  0,           fmt_.bitdepth};
  sums_ = {};
  for (int s = 0; s < kScales; ++s) {
    if (s > 0) {
      // This scale's pictures from the previous scale's.
      const PlaneSize ps = scale_size(fmt_, s);
      bands_.run(ps.h, [&](int slot, int begin, int end) {
        subsample_rows(p, begin, end, ref_[s].data(), dist_[s].data(), ps.w, scratch_[static_cast<std::size_t>(slot)]);
      });
      p = {reinterpret_cast<const std::uint8_t*>(ref_[s].data()),
           reinterpret_cast<const std::uint8_t*>(dist_[s].data()),
           static_cast<std::ptrdiff_t>(ps.w * sizeof(std::uint16_t)),
           static_cast<std::ptrdiff_t>(ps.w * sizeof(std::uint16_t)),
           true,
           ps.w,
           ps.h,
           s,
           fmt_.bitdepth};
    }
    if (s < params_.first_scale) continue;
    bands_.run(p.h, [&](int slot, int begin, int end) {
      statistic_rows(p, begin, end, rows_[s].data(), scratch_[static_cast<std::size_t>(slot)]);
    });
    for (const ScaleSums& r : rows_[s]) sums_.scale[s] += r;
  }
  have_frame_ = true;
  queue_.push(sums_);
}

std::optional<Probe> CpuVifEngine::inspect(std::string_view stage) const {
  if (!ctx_.capture_stages || !have_frame_) return std::nullopt;
  if (stage == "scale_pictures") return scale_pictures_probe(ref_, dist_, fmt_);
  if (stage == "row_sums") return row_sums_probe(rows_, params_.first_scale);
  if (stage == "scale_sums") return scale_sums_probe(sums_, params_.first_scale);
  return std::nullopt;
}

std::unique_ptr<Extractor> make_cpu(const ExtractorContext& ctx) { return with_engine<VifExtractor, CpuVifEngine>(ctx); }

}  // namespace twinproof::vif
