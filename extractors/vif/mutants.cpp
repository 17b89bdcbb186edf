// vif's deliberately broken twins (registered only with --with-mutants): the gate's and repro's
// self-test. One moves a rounding (scale 2's pictures truncated instead of rounded), the other
// adds a term to a sum (each row of scale 1 counts one unit of log2 too many in its denominator);
// repro must name the scale pictures and the row sums respectively. (vif has no floating-point
// sum whose order can show: every sum over pixels is an integer one, and the debug sum over the
// scales adds four floats in double, exactly. Reassociating the per-pixel g * g * sigma1^2 or a
// scale's numerator left all 196 goldens exact, so neither would be a self-test.)
#include "extractors/vif/cpu.hpp"

namespace twinproof::vif {
namespace {

class TruncatedScale2Engine final : public CpuVifEngine {
 public:
  using CpuVifEngine::CpuVifEngine;

 protected:
  void subsample_rows(const ScalePictures& p, int begin, int end, std::uint16_t* ref_out, std::uint16_t* dist_out,
                      std::ptrdiff_t out_stride, RowScratch& t) const override {
    CpuVifEngine::subsample_rows(p, begin, end, ref_out, dist_out, out_stride, t);
    if (p.scale + 1 != 2) return;
    // Scale 1's pictures are 16-bit; redo the horizontal pass without its rounding constant.
    const int fw = kFilterWidth[2], half = fw / 2;
    for (int i = begin; i < end; ++i) {
      for (int j = 0; j < p.w; ++j) {
        std::uint32_t a = 0, b = 0;
        for (int k = 0; k < fw; ++k) {
          const int y = mirror(2 * i - half + k, p.h);
          a += kFilter[2][k] * std::uint32_t{reinterpret_cast<const std::uint16_t*>(p.ref + p.ref_stride * y)[j]};
          b += kFilter[2][k] * std::uint32_t{reinterpret_cast<const std::uint16_t*>(p.dist + p.dist_stride * y)[j]};
        }
        t.row(0)[j] = (a + 32768u) >> 16;
        t.row(1)[j] = (b + 32768u) >> 16;
      }
      for (int jo = 0; jo < p.w / 2; ++jo) {
        std::uint32_t a = 0, b = 0;
        for (int k = 0; k < fw; ++k) {
          const int x = mirror(2 * jo - half + k, p.w);
          a += kFilter[2][k] * t.row(0)[x];
          b += kFilter[2][k] * t.row(1)[x];
        }
        ref_out[out_stride * i + jo] = static_cast<std::uint16_t>(a >> 16);
        dist_out[out_stride * i + jo] = static_cast<std::uint16_t>(b >> 16);
      }
    }
  }
};

class ExtraLogTermEngine final : public CpuVifEngine {
 public:
  using CpuVifEngine::CpuVifEngine;

 protected:
  void statistic_rows(const ScalePictures& p, int begin, int end, ScaleSums* rows, RowScratch& t) const override {
    CpuVifEngine::statistic_rows(p, begin, end, rows, t);
    if (p.scale != 1) return;
    for (int i = begin; i < end; ++i) rows[i].den_log += 1;
  }
};

}  // namespace
std::unique_ptr<Extractor> make_mutant_round(const ExtractorContext& ctx) {
  return with_engine<VifExtractor, TruncatedScale2Engine>(ctx);
}
std::unique_ptr<Extractor> make_mutant_log(const ExtractorContext& ctx) {
  return with_engine<VifExtractor, ExtraLogTermEngine>(ctx);
}

}  // namespace twinproof::vif
