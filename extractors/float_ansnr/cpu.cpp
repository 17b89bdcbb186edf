#include "extractors/float_ansnr/cpu.hpp"

namespace twinproof::float_ansnr {
namespace {

template <class Sample>
Energy row_energy_of(const PictureView& ref, const PictureView& dist, int y, float* ref_out, float* dis_out) {
  static const Filters taps = filters();
  const int w = ref.fmt.width, h = ref.fmt.height, bitdepth = ref.fmt.bitdepth;
  const auto sample = [bitdepth](const PictureView& pic) {
    return [&pic, bitdepth](int ii, int jj) {
      return to_float(reinterpret_cast<const Sample*>(pic.data[0] + pic.stride[0] * ii)[jj], bitdepth);
    };
  };
  const auto at_ref = sample(ref), at_dis = sample(dist);
  Energy e;
  for (int x = 0; x < w; ++x) {
    const float r = filtered<kRefTaps>(taps.ref, y, x, w, h, at_ref);
    const float d = filtered<kDisTaps>(taps.dis, y, x, w, h, at_dis);
    if (ref_out != nullptr) ref_out[x] = r;
    if (dis_out != nullptr) dis_out[x] = d;
    add_sample(e, r, d);
  }
  return e;
}

}  // namespace

Energy row_energy(const PictureView& ref, const PictureView& dist, int y, float* ref_out, float* dis_out) {
  return ref.fmt.bitdepth > 8 ? row_energy_of<std::uint16_t>(ref, dist, y, ref_out, dis_out)
                              : row_energy_of<std::uint8_t>(ref, dist, y, ref_out, dis_out);
}

void CpuEnergyEngine::init(const Format& fmt) {
  fmt_ = fmt;
  rows_.assign(fmt.height, Energy{});
  const std::size_t samples = ctx_.capture_stages ? static_cast<std::size_t>(fmt.width) * fmt.height : 0;
  ref_filtered_.assign(samples, 0.0f);
  dis_filtered_.assign(samples, 0.0f);
  have_frame_ = false;
  queue_.clear();
}

void CpuEnergyEngine::rows(const PictureView& ref, const PictureView& dist, int begin, int end) {
  const std::size_t w = static_cast<std::size_t>(fmt_.width);
  for (int y = begin; y < end; ++y)
    rows_[y] = row_energy(ref, dist, y, ctx_.capture_stages ? ref_filtered_.data() + w * y : nullptr,
                          ctx_.capture_stages ? dis_filtered_.data() + w * y : nullptr);
}

void CpuEnergyEngine::submit(const PictureView& ref, const PictureView& dist) {
  bands_.run(fmt_.height, [&](int, int begin, int end) { rows(ref, dist, begin, end); });
  // The rows' energies added in fp32, top to bottom, as libvmaf adds them.
  energy_ = {};
  for (const Energy& row : rows_) {
    energy_.sig += row.sig;
    energy_.noise += row.noise;
  }
  have_frame_ = true;
  queue_.push(energy_);
}

std::optional<Probe> CpuEnergyEngine::inspect(std::string_view stage) const {
  if (!ctx_.capture_stages || !have_frame_) return std::nullopt;
  if (stage == "filtered") return filtered_probe(ref_filtered_, dis_filtered_, fmt_.width, fmt_.height);
  if (stage == "row_energy") return row_energy_probe(rows_);
  if (stage == "energy") return energy_probe(energy_);
  return std::nullopt;
}

std::unique_ptr<Extractor> make_cpu(const ExtractorContext& ctx) {
  return std::make_unique<FloatAnsnrExtractor>(std::make_unique<CpuEnergyEngine>(ctx, 1), ctx);
}

}  // namespace twinproof::float_ansnr
