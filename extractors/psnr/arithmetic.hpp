// psnr's arithmetic, once for every backend (extractors/psnr/CONTRACT.md): the planes libvmaf
// reads, the squared error of a row, and the score of a plane from its SSE in libvmaf's order of
// operations. Backends differ only in how they add up the (integer, so exact in any order) SSE.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "extractors/extractor.hpp"
#include "extractors/psnr/options.hpp"

namespace twinproof::psnr {

// The plane as libvmaf's picture holds it: chroma is w >> 1 (and h >> 1 for 4:2:0), so the last
// column (row) of an odd-sized chroma plane in the file is never read.
inline PlaneSize read_plane(const Format& f, int plane) {
  if (plane == 0) return {f.width, f.height};
  const ChromaShift s = chroma_shift(f.chroma);
  return {f.width >> s.hs, f.height >> s.vs};
}

// How many planes are read and scored: luma alone without chroma, and always for 4:0:0 (libvmaf
// turns chroma off there whatever enable_chroma says).
inline int planes_scored(const Format& f, const PsnrOptions& o) { return o.enable_chroma && f.chroma != Chroma::c400 ? 3 : 1; }

// The squared error of one row, summed in 64 bits (each term fits 32 bits unsigned: |e| <= 65535).
template <class Sample>
std::uint64_t row_sse(const Sample* ref, const Sample* dist, int w) {
  std::uint64_t s = 0;
  for (int x = 0; x < w; ++x) {
    const std::int64_t e = std::int64_t(ref[x]) - std::int64_t(dist[x]);
    s += static_cast<std::uint64_t>(e * e);
  }
  return s;
}

struct ScoreParams {
  bool eight_bit = true;
  std::uint32_t peak = 255;  // libvmaf's s->peak (used above 8 bits)
  double psnr_max[3] = {0, 0, 0};
};

// libvmaf's init: the peak and each plane's ceiling.
inline ScoreParams score_params(const Format& f, const PsnrOptions& o) {
  ScoreParams p;
  const unsigned bpc = static_cast<unsigned>(f.bitdepth);
  p.eight_bit = bpc == 8;
  p.peak = o.reduced_hbd_peak ? 255u << (bpc - 8) : (1u << bpc) - 1u;
  const bool ss_hor = f.chroma != Chroma::c444, ss_ver = f.chroma == Chroma::c420;
  const auto w = static_cast<unsigned>(f.width), h = static_cast<unsigned>(f.height);
  for (int i = 0; i < 3; ++i) {
    if (o.min_sse != 0.0) {
      // Plane sizes as libvmaf's init writes them (w / 2 where it subsamples), an unsigned product.
      const unsigned samples = ((i && ss_hor) ? w / 2 : w) * ((i && ss_ver) ? h / 2 : h);
      const double mse = o.min_sse / samples;
      p.psnr_max[i] = std::ceil(10. * std::log10(static_cast<double>(p.peak * p.peak) / mse));
    } else {
      p.psnr_max[i] = static_cast<double>(6 * bpc + 12);
    }
  }
  return p;
}

// The mean squared error of a plane: the SSE over libvmaf's unsigned count of samples.
inline double plane_mse(std::uint64_t sse, PlaneSize ps) {
  return static_cast<double>(sse) / static_cast<unsigned>(static_cast<unsigned>(ps.w) * static_cast<unsigned>(ps.h));
}

// The plane's PSNR: MIN(10 log10(peak^2 / MAX(mse, 1e-16)), ceiling), with libvmaf's MIN and MAX
// (a < b ? a : b). At 8 bits libvmaf's peak is the constant 255 whatever the options say.
inline double plane_psnr(double mse, const ScoreParams& p, int plane) {
  const double peak_squared = p.eight_bit ? static_cast<double>(255 * 255) : static_cast<double>(p.peak * p.peak);
  const double floor_mse = mse > 1e-16 ? mse : 1e-16;
  const double psnr = 10. * std::log10(peak_squared / floor_mse);
  return psnr < p.psnr_max[plane] ? psnr : p.psnr_max[plane];
}

}  // namespace twinproof::psnr
