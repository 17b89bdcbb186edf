#include "extractors/float_psnr/cpu.hpp"

#include <cstdint>

namespace twinproof::float_psnr {
namespace {

template <class Sample>
double sequential_noise_of(const PictureView& ref, const PictureView& dist, std::vector<double>& after_row) {
  const int w = ref.fmt.width, h = ref.fmt.height, bitdepth = ref.fmt.bitdepth;
  double noise = 0;
  for (int y = 0; y < h; ++y) {
    const auto* r = reinterpret_cast<const Sample*>(ref.data[0] + ref.stride[0] * y);
    const auto* d = reinterpret_cast<const Sample*>(dist.data[0] + dist.stride[0] * y);
    for (int x = 0; x < w; ++x) noise += squared_difference(to_float(r[x], bitdepth), to_float(d[x], bitdepth));
    after_row[y] = noise;
  }
  return noise;
}

}  // namespace

double sequential_noise(const PictureView& ref, const PictureView& dist, std::vector<double>& after_row) {
  after_row.resize(ref.fmt.height);
  return ref.fmt.bitdepth > 8 ? sequential_noise_of<std::uint16_t>(ref, dist, after_row)
                              : sequential_noise_of<std::uint8_t>(ref, dist, after_row);
}

void CpuNoiseEngine::init(const Format& fmt) {
  after_row_.assign(fmt.height, 0);
  have_frame_ = false;
  queue_.clear();
}

void CpuNoiseEngine::submit(const PictureView& ref, const PictureView& dist) {
  noise_ = noise(ref, dist, after_row_);
  have_frame_ = true;
  queue_.push(noise_);
}

std::optional<Probe> CpuNoiseEngine::inspect(std::string_view stage) const {
  if (!ctx_.capture_stages || !have_frame_) return std::nullopt;
  if (stage == "running_noise") return running_noise_probe(after_row_);
  if (stage == "noise") return noise_probe(noise_);
  return std::nullopt;
}

std::unique_ptr<Extractor> make_cpu(const ExtractorContext& ctx) { return with_engine<FloatPsnrExtractor, CpuNoiseEngine>(ctx); }

}  // namespace twinproof::float_psnr
