#include "extractors/float_moment/cpu.hpp"

#include <cstdint>

namespace twinproof::float_moment {
namespace {

template <class Sample>
MomentSums sequential_sums_of(const PictureView& ref, const PictureView& dist, std::vector<MomentSums>& after_row) {
  const int w = ref.fmt.width, h = ref.fmt.height, bitdepth = ref.fmt.bitdepth;
  // libvmaf runs four loops, one per sum; each sum's order is raster order of its own picture, so
  // adding the four side by side in one pass gives each the same double.
  MomentSums s{};
  for (int y = 0; y < h; ++y) {
    const auto* r = reinterpret_cast<const Sample*>(ref.data[0] + ref.stride[0] * y);
    const auto* d = reinterpret_cast<const Sample*>(dist.data[0] + dist.stride[0] * y);
    for (int x = 0; x < w; ++x) {
      const float rv = to_float(r[x], bitdepth), dv = to_float(d[x], bitdepth);
      s[0] += rv;
      s[1] += dv;
      s[2] += square(rv);
      s[3] += square(dv);
    }
    after_row[y] = s;
  }
  return s;
}

}  // namespace

MomentSums sequential_sums(const PictureView& ref, const PictureView& dist, std::vector<MomentSums>& after_row) {
  after_row.resize(ref.fmt.height);
  return ref.fmt.bitdepth > 8 ? sequential_sums_of<std::uint16_t>(ref, dist, after_row)
                              : sequential_sums_of<std::uint8_t>(ref, dist, after_row);
}

void CpuMomentEngine::init(const Format& fmt) {
  after_row_.assign(fmt.height, MomentSums{});
  have_frame_ = false;
  queue_.clear();
}

void CpuMomentEngine::submit(const PictureView& ref, const PictureView& dist) {
  sums_ = sums(ref, dist, after_row_);
  have_frame_ = true;
  queue_.push(sums_);
}

std::optional<Probe> CpuMomentEngine::inspect(std::string_view stage) const {
  if (!ctx_.capture_stages || !have_frame_) return std::nullopt;
  if (stage == "running_sums") return running_sums_probe(after_row_);
  if (stage == "sums") return sums_probe(sums_);
  return std::nullopt;
}

std::unique_ptr<Extractor> make_cpu(const ExtractorContext& ctx) {
  return with_engine<FloatMomentExtractor, CpuMomentEngine>(ctx);
}

}  // namespace twinproof::float_moment
