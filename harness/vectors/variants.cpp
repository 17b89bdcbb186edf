// Bit-depth and chroma variants of an 8-bit vector, made with libyuv: chroma planes resampled
// with ScalePlane (bilinear up, box down; 4:0:0 drops them), then every plane widened with
// Convert8To16Plane. libyuv runs its portable C paths only (MaskCpuFlags), so that a variant's
// bytes do not depend on the SIMD of the machine that makes it; each variant is still pinned
// by SHA-256 in the manifest.
#include <mutex>

#include <fmt/format.h>
#include <libyuv/cpu_id.h>
#include <libyuv/planar_functions.h>
#include <libyuv/scale.h>

#include "harness/support/errors.hpp"
#include "harness/vectors/vectors.hpp"

namespace twinproof {
namespace {

void portable_libyuv() {
  static std::once_flag once;
  std::call_once(once, [] { libyuv::MaskCpuFlags(1); });  // 1 = initialised, no SIMD
}

class VariantSource final : public FrameSource {
 public:
  VariantSource(std::unique_ptr<FrameSource> base, const VectorSpec& v) : base_(std::move(base)), v_(v) {
    portable_libyuv();
    if (base_->format().bitdepth != 8) throw InputError(v.id, "base", base_->name(), "variants are made from 8-bit vectors only");
    if (base_->format().chroma == Chroma::c400 && v.fmt.chroma != Chroma::c400)
      throw InputError(v.id, "chroma", std::string(to_string(v.fmt.chroma)), "a 4:0:0 vector has no chroma to resample");
    mid_.reset({v.fmt.width, v.fmt.height, 8, v.fmt.chroma});
  }
  const Format& format() const override { return v_.fmt; }
  const std::string& name() const override { return v_.id; }
  bool may_block() const override { return base_->may_block(); }
  bool next(Frame& out) override {
    if (!base_->next(in_)) return false;
    // 1. Chroma geometry at 8 bits.
    const Format& bf = in_.format();
    std::copy(in_.bytes(), in_.bytes() + in_.plane_size(0), mid_.bytes());
    for (int p = 1; p < mid_.format().planes(); ++p) {
      const PlaneSize s = stored_plane_size(bf, p), d = stored_plane_size(mid_.format(), p);
      const bool up = d.w >= s.w && d.h >= s.h;
      libyuv::ScalePlane(in_.bytes() + in_.plane_offset(p), s.w, s.w, s.h, mid_.bytes() + mid_.plane_offset(p), d.w, d.w, d.h,
                         up ? libyuv::kFilterBilinear : libyuv::kFilterBox);
    }
    // 2. Bit depth: 8 -> 10/12/16 with the scale that maps 255 to the new maximum.
    if (v_.fmt.bitdepth == 8) {
      out = mid_;
      return true;
    }
    if (!(out.format() == v_.fmt) || out.size() == 0) out.reset(v_.fmt);
    for (int p = 0; p < v_.fmt.planes(); ++p) {
      const PlaneSize s = stored_plane_size(v_.fmt, p);
      libyuv::Convert8To16Plane(mid_.bytes() + mid_.plane_offset(p), s.w,
                                reinterpret_cast<std::uint16_t*>(out.bytes() + out.plane_offset(p)), s.w, 1 << v_.fmt.bitdepth,
                                s.w, s.h);
    }
    return true;
  }

 private:
  std::unique_ptr<FrameSource> base_;
  VectorSpec v_;
  Frame in_, mid_;
};

}  // namespace

std::string variant_id(const std::string& base, int bitdepth, Chroma chroma) {
  return fmt::format("{}@{}b-{}", base, bitdepth, to_string(chroma));
}

VectorSpec variant_spec(const VectorSpec& base, int bitdepth, Chroma chroma) {
  VectorSpec v;
  v.id = variant_id(base.id, bitdepth, chroma);
  v.recipe = "variant";
  v.base = base.id;
  v.fmt = {base.fmt.width, base.fmt.height, bitdepth, chroma};
  v.frames = base.frames;
  return v;
}

std::unique_ptr<FrameSource> convert_variant(std::unique_ptr<FrameSource> base, const VectorSpec& v) {
  return std::make_unique<VariantSource>(std::move(base), v);
}

}  // namespace twinproof
