// The five recipes of vectors/RECIPES.md. Integer arithmetic only: every machine makes the same bytes.
#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "harness/support/errors.hpp"
#include "harness/vectors/vectors.hpp"

namespace twinproof {
namespace {

std::uint64_t param(const VectorSpec& v, const char* key) {
  const auto it = v.params.find(key);
  if (it == v.params.end() || !it->is_number_integer() || it->get<long long>() < 0)
    throw InputError(v.id, std::string("params.") + key, it == v.params.end() ? "(missing)" : it->dump(),
                     "recipe parameter must be a non-negative integer");
  return it->get<std::uint64_t>();
}

// Writes sample value `s` at (x, y) of plane p.
inline void put(Frame& f, int p, int w, int x, int y, std::uint32_t s) {
  std::uint8_t* base = f.bytes() + f.plane_offset(p);
  if (f.format().bitdepth == 8) base[static_cast<std::size_t>(y) * w + x] = static_cast<std::uint8_t>(s);
  else reinterpret_cast<std::uint16_t*>(base)[static_cast<std::size_t>(y) * w + x] = static_cast<std::uint16_t>(s);
}

// Subsampling factors (sx, sy) of plane p.
std::pair<int, int> subsampling(Chroma c, int p) {
  if (p == 0) return {1, 1};
  switch (c) {
    case Chroma::c420: return {2, 2};
    case Chroma::c422: return {2, 1};
    default: return {1, 1};
  }
}

class RecipeSource final : public FrameSource {
 public:
  using FillFn = std::function<void(Frame&, unsigned t)>;
  RecipeSource(const VectorSpec& v, FillFn fill) : v_(v), fill_(std::move(fill)) {}
  const Format& format() const override { return v_.fmt; }
  const std::string& name() const override { return v_.id; }
  std::optional<unsigned> frames_left() const override { return v_.frames - t_; }
  bool next(Frame& f) override {
    if (t_ >= v_.frames) return false;
    if (!(f.format() == v_.fmt) || f.size() == 0) f.reset(v_.fmt);
    fill_(f, t_++);
    return true;
  }

 private:
  VectorSpec v_;
  FillFn fill_;
  unsigned t_ = 0;
};

// Fills plane p with fn(x, y) over its stored size.
template <class Fn>
void fill_plane(Frame& f, int p, Fn fn) {
  const PlaneSize s = stored_plane_size(f.format(), p);
  for (int y = 0; y < s.h; ++y)
    for (int x = 0; x < s.w; ++x) put(f, p, s.w, x, y, fn(x, y));
}

void fill_chroma_mid(Frame& f) {
  const std::uint32_t mid = 1u << (f.format().bitdepth - 1);
  for (int p = 1; p < f.format().planes(); ++p) fill_plane(f, p, [&](int, int) { return mid; });
}

RecipeSource::FillFn checkerboard(const VectorSpec& v) {
  const std::uint64_t square = param(v, "square"), shift = param(v, "shift"), lo = param(v, "lo"), hi = param(v, "hi");
  if (square == 0) throw InputError(v.id, "params.square", "0", "square must be at least 1");
  return [=](Frame& f, unsigned t) {
    fill_plane(f, 0, [&](int x, int y) {
      return static_cast<std::uint32_t>(((x + t * shift) / square + y / square) % 2 == 0 ? lo : hi);
    });
    fill_chroma_mid(f);
  };
}

RecipeSource::FillFn noise(const VectorSpec& v) {
  auto rng = std::make_shared<SplitMix64>(param(v, "seed"));
  const int shift = 64 - v.fmt.bitdepth;
  return [=](Frame& f, unsigned) {
    for (int p = 0; p < f.format().planes(); ++p)
      fill_plane(f, p, [&](int, int) { return static_cast<std::uint32_t>(rng->next() >> shift); });
  };
}

RecipeSource::FillFn flash(const VectorSpec& v) {
  const std::uint64_t lo = param(v, "lo"), hi = param(v, "hi");
  return [=](Frame& f, unsigned t) {
    fill_plane(f, 0, [&](int, int) { return static_cast<std::uint32_t>(t % 2 == 0 ? lo : hi); });
    fill_chroma_mid(f);
  };
}

RecipeSource::FillFn ramp(const VectorSpec& v) {
  const std::uint64_t a = param(v, "a"), b = param(v, "b"), c = param(v, "c");
  const std::uint64_t max = (1ull << v.fmt.bitdepth) - 1;
  return [=](Frame& f, unsigned t) {
    fill_plane(f, 0, [&](std::uint64_t x, std::uint64_t y) { return static_cast<std::uint32_t>((a * x + b * y + c * t) & max); });
    if (f.format().planes() == 3) {
      fill_plane(f, 1,
                 [&](std::uint64_t x, std::uint64_t y) { return static_cast<std::uint32_t>((b * x + a * y + c * t) & max); });
      fill_plane(f, 2, [&](std::uint64_t x, std::uint64_t y) { return static_cast<std::uint32_t>((x + y + t) & max); });
    }
  };
}

RecipeSource::FillFn pan(const VectorSpec& v) {
  const std::uint64_t seed = param(v, "seed"), dx = param(v, "dx"), dy = param(v, "dy");
  const int B = v.fmt.bitdepth;
  const std::uint64_t fw = v.fmt.width + (v.frames - 1) * dx, fh = v.fmt.height + (v.frames - 1) * dy;
  if (fw > 4 * kMaxDimension || fh > 4 * kMaxDimension)
    throw InputError(v.id, "params", v.params.dump(), "the pan field would be too large");
  // Texture field: R drawn in raster order, then S = a 5x5 box average stretched around 128.
  std::vector<std::uint8_t> r(fw * fh);
  SplitMix64 rng(seed);
  for (auto& s : r) s = static_cast<std::uint8_t>(rng.next() >> 56);
  auto field = std::make_shared<std::vector<std::uint8_t>>(fw * fh);
  const auto clampi = [](long long i, long long n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); };
  for (long long fy = 0; fy < static_cast<long long>(fh); ++fy)
    for (long long fx = 0; fx < static_cast<long long>(fw); ++fx) {
      long long sum = 0;
      for (long long ky = fy - 2; ky <= fy + 2; ++ky)
        for (long long kx = fx - 2; kx <= fx + 2; ++kx) sum += r[clampi(ky, fh) * fw + clampi(kx, fw)];
      const long long s = 128 + (sum / 25 - 128) * 4;
      (*field)[fy * fw + fx] = static_cast<std::uint8_t>(std::clamp<long long>(s, 0, 255));
    }
  const std::uint32_t low_mask = B > 8 ? (1u << (B - 8)) - 1 : 0;
  const Chroma chroma = v.fmt.chroma;
  return [=](Frame& f, unsigned t) {
    for (int p = 0; p < f.format().planes(); ++p) {
      const std::pair<int, int> sub = subsampling(chroma, p);
      const int sx = sub.first, sy = sub.second;  // named variables: lambdas capture them in C++17 compilers too
      fill_plane(f, p, [&](std::uint64_t x, std::uint64_t y) {
        std::uint32_t s = (*field)[(y * sy + t * dy) * fw + (x * sx + t * dx)];
        if (p == 2) s = 255 - s;
        if (B == 8) return s;
        return (s << (B - 8)) | static_cast<std::uint32_t>((7 * x + 13 * y + 3 * t) & low_mask);
      });
    }
  };
}

}  // namespace

std::unique_ptr<FrameSource> generate(const VectorSpec& v) {
  RecipeSource::FillFn fill;
  if (v.recipe == "checkerboard") fill = checkerboard(v);
  else if (v.recipe == "noise") fill = noise(v);
  else if (v.recipe == "flash") fill = flash(v);
  else if (v.recipe == "ramp") fill = ramp(v);
  else if (v.recipe == "pan") fill = pan(v);
  else throw InputError(v.id, "recipe", v.recipe, "not a generated recipe (checkerboard, noise, flash, ramp, pan)");
  return std::make_unique<RecipeSource>(v, std::move(fill));
}

}  // namespace twinproof
