#include "extractors/adm/cpu.hpp"

namespace twinproof::adm {

void DwtScratch::fit(int w) {
  for (auto* v : {&lo[0], &lo[1], &hi[0], &hi[1]}) v->assign(static_cast<std::size_t>(w), 0);
}

namespace {

template <class Sample>
std::int64_t sample_at(const std::uint8_t* base, std::ptrdiff_t stride, int y, int x) {
  return reinterpret_cast<const Sample*>(base + stride * y)[x];
}
std::int64_t sample_at(const std::uint8_t* base, std::ptrdiff_t stride, int bytes, int y, int x) {
  switch (bytes) {
    case 1: return sample_at<std::uint8_t>(base, stride, y, x);
    case 2: return sample_at<std::uint16_t>(base, stride, y, x);
    default: return sample_at<std::int32_t>(base, stride, y, x);
  }
}

}  // namespace

void CpuAdmEngine::dwt_rows(const ScaleInput& in, int begin, int end, ScaleBands& out, DwtScratch& t) const {
  const DwtShifts d = dwt_shifts(in.scale, in.bpc);
  const int w = (in.w + 1) / 2;
  for (int i = begin; i < end; ++i) {
    for (int p = 0; p < 2; ++p) {
      const std::uint8_t* base = p == 0 ? in.ref : in.dist;
      const std::ptrdiff_t stride = p == 0 ? in.ref_stride : in.dist_stride;
      for (int j = 0; j < in.w; ++j) {
        std::int64_t s[4];
        for (int k = 0; k < 4; ++k) s[k] = sample_at(base, stride, in.sample_bytes, dwt_tap(i, k, in.h), j);
        t.lo[p][static_cast<std::size_t>(j)] = dwt_vertical(s, true, d);
        t.hi[p][static_cast<std::size_t>(j)] = dwt_vertical(s, false, d);
      }
      std::vector<std::int32_t>* bands = p == 0 ? out.ref : out.dist;
      for (int j = 0; j < w; ++j) {
        std::int64_t lo[4], hi[4];
        for (int k = 0; k < 4; ++k) {
          const auto x = static_cast<std::size_t>(dwt_tap(j, k, in.w));
          lo[k] = t.lo[p][x];
          hi[k] = t.hi[p][x];
        }
        const std::size_t o = static_cast<std::size_t>(i) * w + j;
        bands[0][o] = dwt_horizontal(lo, true, d);   // a: low-pass both ways
        bands[1][o] = dwt_horizontal(hi, true, d);   // h: high-pass vertically
        bands[2][o] = dwt_horizontal(lo, false, d);  // v: high-pass horizontally
        bands[3][o] = dwt_horizontal(hi, false, d);  // d: high-pass both ways
      }
    }
  }
}

void CpuAdmEngine::decouple_rows(int scale, int begin, int end, ScaleBands& b) const {
  const ScaleGeometry& g = geometry(scale);
  const std::int32_t* lookup = div_lookup();
  for (int i = begin; i < end; ++i)
    for (int j = g.written.left; j < g.written.right; ++j) {
      const std::size_t o = static_cast<std::size_t>(i) * g.w + j;
      const std::int32_t ref[kAngles] = {b.ref[1][o], b.ref[2][o], b.ref[3][o]};
      const std::int32_t dist[kAngles] = {b.dist[1][o], b.dist[2][o], b.dist[3][o]};
      const Decoupled dc = decouple(ref, dist, scale == 0, params_.gain_limit, params_.cos_1deg_sq, lookup);
      for (int k = 0; k < kAngles; ++k) {
        b.restored[k][o] = dc.r[k];
        b.impairment[k][o] = dc.a[k];
      }
    }
}

void CpuAdmEngine::csf_rows(int scale, int begin, int end, const ScaleBands& b, ScaleMasks& m) const {
  const ScaleGeometry& g = geometry(scale);
  const CsfWeights& cw = params_.weights[static_cast<std::size_t>(scale)];
  for (int i = begin; i < end; ++i)
    for (int j = g.written.left; j < g.written.right; ++j) {
      const std::size_t o = static_cast<std::size_t>(i) * g.w + j;
      for (int k = 0; k < kAngles; ++k) {
        const CsfValue from_impairment = csf_value(b.impairment[k][o], k, scale == 0, cw);
        m.csf[0][k][o] = from_impairment.csf;
        m.flt[0][k][o] = from_impairment.flt;
        if (params_.skip_aim) continue;
        const CsfValue from_restored = csf_value(b.restored[k][o], k, scale == 0, cw);
        m.csf[1][k][o] = from_restored.csf;
        m.flt[1][k][o] = from_restored.flt;
      }
    }
}

void add_scored_sample(const SampleSums& at, int i, int j, const ScaleBands& b, const ScaleMasks& m, std::int64_t (&dlm)[kAngles],
                       std::int64_t (&aim)[kAngles], std::uint64_t (&den)[kAngles]) {
  const ScaleGeometry& g = *at.geometry;
  const int rows3[3] = {before(i), i, after(i, g.h)};
  const int cols3[3] = {before(j), j, after(j, g.w)};
  const std::size_t o = static_cast<std::size_t>(i) * g.w + j;
  for (int which = 0; which < (at.skip_aim ? 1 : 2); ++which) {
    const auto& flt = m.flt[which];
    const auto& csf = m.csf[which];
    const std::int32_t threshold =
        masking_threshold([&](int k, int di, int dj) { return flt[k][static_cast<std::size_t>(rows3[di]) * g.w + cols3[dj]]; },
                          [&](int k) { return csf[k][o]; }, at.scale0);
    // DLM masks the restored bands by the impairment; AIM the impairment by the restored bands.
    const std::vector<std::int32_t>* x = which == 0 ? b.restored : b.impairment;
    std::int64_t* out = which == 0 ? dlm : aim;
    for (int k = 0; k < kAngles; ++k) out[k] += masked_cube(x[k][o], threshold, k, at.scale0, *at.weights, *at.shifts);
  }
  for (int k = 0; k < kAngles; ++k) den[k] += denominator_cube(b.ref[k + 1][o], at.scale0, *at.shifts);
}

void CpuAdmEngine::sum_rows(int scale, int begin, int end, const ScaleBands& b, const ScaleMasks& m, ScaleSums* rows) const {
  const ScaleGeometry& g = geometry(scale);
  const SumShifts& sh = shifts(scale);
  const SampleSums at{&g, &sh, &params_.weights[static_cast<std::size_t>(scale)], scale == 0, params_.skip_aim};
  for (int i = begin; i < end; ++i) {
    std::int64_t dlm[kAngles] = {}, aim[kAngles] = {};
    std::uint64_t den[kAngles] = {};
    for (int j = g.scored.left; j < g.scored.right; ++j) add_scored_sample(at, i, j, b, m, dlm, aim, den);
    rows[i - g.scored.top] = rounded_row(dlm, aim, den, sh);
  }
}

void CpuAdmEngine::init(const Format& fmt, const EngineParams& params) {
  fmt_ = fmt;
  params_ = params;
  scratch_.assign(bands_.threads(), DwtScratch{});
  for (DwtScratch& t : scratch_) t.fit(fmt.width);
  for (int s = 0; s < kScales; ++s) {
    const auto us = static_cast<std::size_t>(s);
    geometry_[us] = scale_geometry(fmt.width, fmt.height, s);
    shifts_[us] = sum_shifts(geometry_[us], s);
    const std::size_t n = static_cast<std::size_t>(geometry_[us].w) * geometry_[us].h;
    ScaleBands& b = scale_bands_[us];
    for (int k = 0; k < 4; ++k) {
      b.ref[k].assign(n, 0);
      b.dist[k].assign(n, 0);
    }
    for (int k = 0; k < kAngles; ++k) {
      b.restored[k].assign(n, 0);
      b.impairment[k].assign(n, 0);
      for (int which = 0; which < 2; ++which) {
        masks_[us].csf[which][k].assign(n, 0);
        masks_[us].flt[which][k].assign(n, 0);
      }
    }
    rows_[us].assign(static_cast<std::size_t>(geometry_[us].scored.bottom - geometry_[us].scored.top), ScaleSums{});
  }
  sums_ = {};
  have_frame_ = false;
  queue_.clear();
}

void CpuAdmEngine::submit(const PictureView& ref, const PictureView& dist) {
  ScaleInput in{ref.data[0], dist.data[0], ref.stride[0], dist.stride[0], fmt_.bitdepth > 8 ? 2 : 1, fmt_.width, fmt_.height,
                0,           fmt_.bitdepth};
  sums_ = {};
  for (int s = 0; s < kScales; ++s) {
    const auto us = static_cast<std::size_t>(s);
    const ScaleGeometry& g = geometry_[us];
    ScaleBands& b = scale_bands_[us];
    bands_.run(g.h, [&](int slot, int begin, int end) { dwt_rows(in, begin, end, b, scratch_[static_cast<std::size_t>(slot)]); });
    // The next scale reads this one's low-pass bands.
    in = {reinterpret_cast<const std::uint8_t*>(b.ref[0].data()),
          reinterpret_cast<const std::uint8_t*>(b.dist[0].data()),
          static_cast<std::ptrdiff_t>(g.w * sizeof(std::int32_t)),
          static_cast<std::ptrdiff_t>(g.w * sizeof(std::int32_t)),
          4,
          g.w,
          g.h,
          s + 1,
          fmt_.bitdepth};
    if (s == 0 && params_.skip_scale0) continue;
    const Rect& wr = g.written;
    bands_.run(wr.bottom - wr.top, [&](int, int begin, int end) {
      decouple_rows(s, wr.top + begin, wr.top + end, b);
      csf_rows(s, wr.top + begin, wr.top + end, b, masks_[us]);
    });
    const Rect& sc = g.scored;
    bands_.run(sc.bottom - sc.top,
               [&](int, int begin, int end) { sum_rows(s, sc.top + begin, sc.top + end, b, masks_[us], rows_[us].data()); });
    for (const ScaleSums& r : rows_[us]) sums_.scale[us] += r;
  }
  have_frame_ = true;
  queue_.push(sums_);
}

std::optional<Probe> CpuAdmEngine::inspect(std::string_view stage) const {
  if (!ctx_.capture_stages || !have_frame_) return std::nullopt;
  const int first = params_.skip_scale0 ? 1 : 0;
  if (stage == "dwt_bands") return dwt_bands_probe(scale_bands_, fmt_, first);
  if (stage == "decoupled_bands") return decoupled_bands_probe(scale_bands_, fmt_, first);
  if (stage == "row_sums") return row_sums_probe(rows_, first);
  if (stage == "scale_sums") return scale_sums_probe(sums_, first);
  return std::nullopt;
}

std::unique_ptr<Extractor> make_cpu(const ExtractorContext& ctx) { return with_engine<AdmExtractor, CpuAdmEngine>(ctx); }

}  // namespace twinproof::adm
