#include "cpu.hpp"

#include <cstring>

#include "extractors/registry.hpp"

namespace twinproof::float_motion {

namespace {

// Rows [begin, end) of convert_plane.
void convert_rows(const PictureView& pic, int plane, int w, int begin, int end, float* out) {
  const int bpc = pic.fmt.bitdepth;
  for (int i = begin; i < end; ++i) {
    const std::uint8_t* row = pic.data[plane] + pic.stride[plane] * i;
    float* o = out + static_cast<std::size_t>(i) * w;
    if (bpc == 8) {
      for (int j = 0; j < w; ++j) o[j] = to_float(row[j], 8);
    } else {
      const auto* row16 = reinterpret_cast<const std::uint16_t*>(row);
      for (int j = 0; j < w; ++j) o[j] = to_float(row16[j], bpc);
    }
  }
}

// tmp[i][j] = sum_k f[k] * in[mirror(i - r + k)][j]. The loop runs over j innermost so the
// compiler may compute several j at once; each element's own sum keeps the tap order.
template <int N>
void vertical_pass(const float* in, int w, int h, const float* f, float* tmp, int begin, int end) {
  constexpr int r = N / 2;
  for (int i = begin; i < end; ++i) {
    const float* src[N];
    for (int k = 0; k < N; ++k) src[k] = in + static_cast<std::size_t>(mirror(i - r + k, h)) * w;
    float* o = tmp + static_cast<std::size_t>(i) * w;
    for (int j = 0; j < w; ++j) o[j] = tap_sum<N>(f, [&](int k) { return src[k][j]; });
  }
}

// out[i][j] = sum_k f[k] * tmp[i][mirror(j - r + k)].
template <int N>
void horizontal_pass(const float* tmp, int w, const float* f, float* out, int begin, int end) {
  constexpr int r = N / 2;
  for (int i = begin; i < end; ++i) {
    const float* row = tmp + static_cast<std::size_t>(i) * w;
    float* o = out + static_cast<std::size_t>(i) * w;
    const int edge = r < w ? r : w;
    for (int j = 0; j < edge; ++j) o[j] = tap_sum<N>(f, [&](int k) { return row[mirror(j - r + k, w)]; });
    for (int j = edge; j < w - r; ++j) o[j] = tap_sum<N>(f, [&](int k) { return row[j - r + k]; });
    for (int j = w - r > edge ? w - r : edge; j < w; ++j) o[j] = tap_sum<N>(f, [&](int k) { return row[mirror(j - r + k, w)]; });
  }
}

void vertical_rows(const float* in, int w, int h, const Taps& t, float* tmp, int begin, int end) {
  if (t.count == 3) vertical_pass<3>(in, w, h, t.f, tmp, begin, end);
  else vertical_pass<5>(in, w, h, t.f, tmp, begin, end);
}

void horizontal_rows(const float* tmp, int w, const Taps& t, float* out, int begin, int end) {
  if (t.count == 3) horizontal_pass<3>(tmp, w, t.f, out, begin, end);
  else horizontal_pass<5>(tmp, w, t.f, out, begin, end);
}

// Output rows [begin, end) of downscale_plane.
void downscale_rows(const float* in, int w, int h, int sw, int sh, float* out, int begin, int end) {
  if (sw == w && sh == h) {
    std::memcpy(out + static_cast<std::size_t>(begin) * w, in + static_cast<std::size_t>(begin) * w,
                sizeof(float) * static_cast<std::size_t>(w) * (end - begin));
    return;
  }
  std::vector<BilinearIndex> cols(sw);
  for (int x = 0; x < sw; ++x) cols[x] = bilinear_index(x, w, sw);
  for (int y = begin; y < end; ++y) {
    const BilinearIndex ry = bilinear_index(y, h, sh);
    const float* r1 = in + static_cast<std::size_t>(ry.i1) * w;
    const float* r2 = in + static_cast<std::size_t>(ry.i2) * w;
    for (int x = 0; x < sw; ++x) {
      const BilinearIndex cx = cols[x];
      out[static_cast<std::size_t>(y) * sw + x] = bilinear(r1[cx.i1], r1[cx.i2], r2[cx.i1], r2[cx.i2], cx.d, ry.d);
    }
  }
}

}  // namespace

void convert_plane(const PictureView& pic, int plane, int w, int h, float* out) { convert_rows(pic, plane, w, 0, h, out); }

void blur_vertical(const float* in, int w, int h, const Taps& t, float* tmp) { vertical_rows(in, w, h, t, tmp, 0, h); }

void blur_horizontal(const float* tmp, int w, int h, const Taps& t, float* out) { horizontal_rows(tmp, w, t, out, 0, h); }

void downscale_plane(const float* in, int w, int h, int sw, int sh, float* out) { downscale_rows(in, w, h, sw, sh, out, 0, sh); }

void CpuEngine::init(const Format&, const std::vector<PlaneGeometry>& planes, const MotionOptions& o) {
  taps_ = taps_for(o.filter_size);
  add_scale1_ = o.add_scale1;
  planes_.clear();
  for (const PlaneGeometry& g : planes) {
    PlaneState s;
    s.g = g;
    const std::size_t n = static_cast<std::size_t>(g.w) * g.h;
    if (whole_stage_planes_) {
      s.converted.resize(n);
      s.vertical.resize(n);
    }
    s.blurred[0].resize(n);
    s.blurred[1].resize(n);
    s.rows.resize(g.h);
    if (add_scale1_) {
      const std::size_t sn = static_cast<std::size_t>(g.sw) * g.sh;
      s.down[0].resize(sn);
      s.down[1].resize(sn);
      s.rows_down.resize(g.sh);
    }
    planes_.push_back(std::move(s));
  }
  frames_ = 0;
  ready_.clear();
}

// Each stage over the bands of its rows; the next stage reads rows of its neighbours' bands, so
// every stage ends before the next begins.
void CpuEngine::blur(const float* converted, const PlaneGeometry& g, float* tmp, float* out) {
  bands_.run(g.h, [&](int, int b, int e) { vertical_rows(converted, g.w, g.h, taps_, tmp, b, e); });
  bands_.run(g.h, [&](int, int b, int e) { horizontal_rows(tmp, g.w, taps_, out, b, e); });
}

void CpuEngine::row_sums(const float* a, const float* b, int w, int h, float* out) {
  for (int i = 0; i < h; ++i) out[i] = row_sad(a + static_cast<std::size_t>(i) * w, b + static_cast<std::size_t>(i) * w, w);
}

void CpuEngine::banded_row_sums(const float* a, const float* b, int w, int h, float* out) {
  bands_.run(h, [&](int, int begin, int end) {
    const std::size_t off = static_cast<std::size_t>(begin) * w;
    row_sums(a + off, b + off, w, end - begin, out + begin);
  });
}

void CpuEngine::blur_and_sum(const PictureView& pic, PlaneState& s, unsigned cur, unsigned prev, bool pair) {
  const PlaneGeometry& g = s.g;
  bands_.run(g.h, [&](int, int b, int e) { convert_rows(pic, g.plane, g.w, b, e, s.converted.data()); });
  blur(s.converted.data(), g, s.vertical.data(), s.blurred[cur].data());
  // SAD of A (earlier) and B (later).
  if (pair) banded_row_sums(s.blurred[prev].data(), s.blurred[cur].data(), g.w, g.h, s.rows.data());
}

void CpuEngine::submit(const PictureView& pic) {
  const unsigned cur = frames_ & 1u, prev = cur ^ 1u;
  const bool pair = frames_ > 0;
  double score = 0;
  for (PlaneState& s : planes_) {
    const PlaneGeometry& g = s.g;
    blur_and_sum(pic, s, cur, prev, pair);
    if (add_scale1_)
      bands_.run(g.sh, [&](int, int b, int e) {
        downscale_rows(s.blurred[cur].data(), g.w, g.h, g.sw, g.sh, s.down[cur].data(), b, e);
      });
    if (!pair) continue;
    s.total = total_of_row_sums(s.rows);
    const float sad0 = score_from_row_sums(s.rows, g.w);
    float sad1 = 0;
    if (add_scale1_) {
      banded_row_sums(s.down[prev].data(), s.down[cur].data(), g.sw, g.sh, s.rows_down.data());
      s.total_down = total_of_row_sums(s.rows_down);
      sad1 = score_from_row_sums(s.rows_down, g.sw);
    }
    s.score = plane_score(sad0, sad1, add_scale1_);
    score += static_cast<double>(s.score);  // Y, then + U, then + V, in double
  }
  if (pair) ready_.push(score);
  ++frames_;
}

std::optional<double> CpuEngine::take(bool) { return ready_.take(); }

std::optional<Probe> CpuEngine::inspect_stage(Stage stage) const {
  if (!ctx_.capture_stages || frames_ == 0) return std::nullopt;
  const unsigned cur = (frames_ - 1) & 1u;
  Probe p{std::string(stage_id(stage)), {}};
  auto plane = [](std::string name, int w, int h, const auto& v) {
    return ProbeArray{std::move(name), w, h, true, std::vector<double>(v.begin(), v.end())};
  };
  auto scalar = [](std::string name, float v) { return ProbeArray{std::move(name), 1, 1, true, {v}}; };
  const bool have_pair = frames_ >= 2;
  for (const PlaneState& s : planes_) {
    const PlaneGeometry& g = s.g;
    switch (stage) {
      case Stage::converted: p.arrays.push_back(plane(g.name, g.w, g.h, s.converted)); break;
      case Stage::vertical: p.arrays.push_back(plane(g.name, g.w, g.h, s.vertical)); break;
      case Stage::blurred: p.arrays.push_back(plane(g.name, g.w, g.h, s.blurred[cur])); break;
      case Stage::downscaled:
        if (!add_scale1_) return std::nullopt;
        p.arrays.push_back(plane(g.name, g.sw, g.sh, s.down[cur]));
        break;
      case Stage::row_sums:
        if (!have_pair) return std::nullopt;
        p.arrays.push_back(plane(g.name, 1, g.h, s.rows));
        if (add_scale1_) p.arrays.push_back(plane(std::string(g.name) + "/scale1", 1, g.sh, s.rows_down));
        break;
      case Stage::plane_totals:
        if (!have_pair) return std::nullopt;
        p.arrays.push_back(scalar(g.name, s.total));
        if (add_scale1_) p.arrays.push_back(scalar(std::string(g.name) + "/scale1", s.total_down));
        break;
      case Stage::plane_scores:
        if (!have_pair) return std::nullopt;
        p.arrays.push_back(scalar(g.name, s.score));
        break;
      default: return std::nullopt;
    }
  }
  return p;
}

std::unique_ptr<Extractor> make_cpu(const ExtractorContext& ctx) { return with_engine<MotionExtractor, CpuEngine>(ctx); }

}  // namespace twinproof::float_motion
