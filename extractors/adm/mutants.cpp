// adm's deliberately broken twins (registered only with --with-mutants): the gate's and repro's
// self-test. One moves the wavelet (the distorted picture's scale-0 h band one unit up), the other
// the masking (scale 1's neighbour shares one unit too many, so each threshold is 24 units up);
// repro must name the wavelet bands and the row sums respectively.
#include "extractors/adm/cpu.hpp"

namespace twinproof::adm {
namespace {

class ShiftedBandEngine final : public CpuAdmEngine {
 public:
  using CpuAdmEngine::CpuAdmEngine;

 protected:
  void dwt_rows(const ScaleInput& in, int begin, int end, ScaleBands& out, DwtScratch& t) const override {
    CpuAdmEngine::dwt_rows(in, begin, end, out, t);
    if (in.scale != 0) return;
    const int w = (in.w + 1) / 2;
    for (std::size_t o = static_cast<std::size_t>(begin) * w; o < static_cast<std::size_t>(end) * w; ++o) out.dist[1][o] += 1;
  }
};

class HeavierMaskEngine final : public CpuAdmEngine {
 public:
  using CpuAdmEngine::CpuAdmEngine;

 protected:
  void csf_rows(int scale, int begin, int end, const ScaleBands& b, ScaleMasks& m) const override {
    CpuAdmEngine::csf_rows(scale, begin, end, b, m);
    if (scale != 1) return;
    const ScaleGeometry& g = geometry(scale);
    for (int i = begin; i < end; ++i)
      for (int j = g.written.left; j < g.written.right; ++j)
        for (auto& flt : m.flt[0]) flt[static_cast<std::size_t>(i) * g.w + j] += 1;
  }
};

}  // namespace
std::unique_ptr<Extractor> make_mutant_band(const ExtractorContext& ctx) {
  return with_engine<AdmExtractor, ShiftedBandEngine>(ctx);
}
std::unique_ptr<Extractor> make_mutant_mask(const ExtractorContext& ctx) {
  return with_engine<AdmExtractor, HeavierMaskEngine>(ctx);
}

}  // namespace twinproof::adm
