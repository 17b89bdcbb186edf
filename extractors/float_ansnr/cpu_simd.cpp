// float_ansnr's cpu-simd: the exact SIMD twin and the fast CPU path. Rows on a band of threads (the
// reference's engine); within a row the columns whose filter window lies inside the picture are filtered by
// the SIMD kernel of the CPU's level (cpu_simd_isa.cpp; TWINPROOF_SIMD=scalar|avx2|avx512 lowers
// it), each lane one sample in the reference's order, the columns near the edges by the
// reference's code. The row's energy is one fp32 chain left to right, and the rows are added top
// to bottom: the reference's order for every sum.
#include <vector>

#include "extractors/float_ansnr/cpu.hpp"
#include "extractors/float_ansnr/cpu_simd.hpp"
#include "extractors/simd.hpp"

namespace twinproof::float_ansnr {
namespace {

template <class Sample>
struct Reader {
  const PictureView& pic;
  int bitdepth;
  float operator()(int ii, int jj) const {
    return to_float(reinterpret_cast<const Sample*>(pic.data[0] + pic.stride[0] * ii)[jj], bitdepth);
  }
};

class SimdEnergyEngine final : public CpuEnergyEngine {
 public:
  explicit SimdEnergyEngine(const ExtractorContext& ctx) : CpuEnergyEngine(ctx, ctx.threads) {
    switch (simd_level()) {
      case SimdLevel::avx512: interior_ = &filter_interior_avx512; break;
      case SimdLevel::avx2: interior_ = &filter_interior_avx2; break;
      default: interior_ = nullptr; break;
    }
  }

 protected:
  void rows(const PictureView& ref, const PictureView& dist, int begin, int end) override {
    if (ref.fmt.bitdepth > 8) rows_of<std::uint16_t>(ref, dist, begin, end);
    else rows_of<std::uint8_t>(ref, dist, begin, end);
  }

 private:
  // One picture's row y filtered into `out`: the interior by the SIMD kernel, the rest (and all
  // of it at the scalar level) by the reference's function.
  template <int Taps, class Sample>
  void filter_row(const PictureView& pic, const float* taps, int y, float* out) const {
    const int w = pic.fmt.width, h = pic.fmt.height;
    const Reader<Sample> at{pic, pic.fmt.bitdepth};
    int window[Taps];
    for (int fi = 0; fi < Taps; ++fi) window[fi] = mirror(y - Taps / 2 + fi, h);
    int x = 0, simd_end = 0;
    if (interior_ != nullptr && w > 4) {
      for (; x < 2; ++x) out[x] = filtered<Taps>(taps, y, x, w, h, at);
      simd_end = interior_({pic.data[0], pic.stride[0], pic.fmt.bitdepth, window, taps, out}, Taps, 2, w - 2);
      x = simd_end;
    }
    for (; x < w; ++x) out[x] = filtered<Taps>(taps, y, x, w, h, at);
  }

  template <class Sample>
  void rows_of(const PictureView& ref, const PictureView& dist, int begin, int end) {
    static const Filters taps = filters();
    const int w = ref.fmt.width;
    std::vector<float> r(w), d(w);
    for (int y = begin; y < end; ++y) {
      filter_row<kRefTaps, Sample>(ref, taps.ref, y, r.data());
      filter_row<kDisTaps, Sample>(dist, taps.dis, y, d.data());
      Energy e;
      for (int x = 0; x < w; ++x) add_sample(e, r[x], d[x]);
      rows_[y] = e;
      if (ctx_.capture_stages) {
        std::copy(r.begin(), r.end(), ref_filtered_.begin() + static_cast<std::ptrdiff_t>(w) * y);
        std::copy(d.begin(), d.end(), dis_filtered_.begin() + static_cast<std::ptrdiff_t>(w) * y);
      }
    }
  }

  int (*interior_)(const FilterRow&, int, int, int) = nullptr;
};

}  // namespace

std::unique_ptr<Extractor> make_cpu_simd(const ExtractorContext& ctx) {
  return std::make_unique<FloatAnsnrExtractor>(std::make_unique<SimdEnergyEngine>(ctx), ctx);
}

}  // namespace twinproof::float_ansnr
