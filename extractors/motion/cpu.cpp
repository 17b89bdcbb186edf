#include "extractors/motion/cpu.hpp"

#include <cstdlib>

namespace twinproof::motion {

void LumaRing::init(const Format& fmt, unsigned distance) {
  w_ = fmt.width;
  h_ = fmt.height;
  slots_.assign(distance + 1, PlaneVector<std::uint16_t>(static_cast<std::size_t>(w_) * h_));
}

void LumaRing::store(const PictureView& pic, unsigned index, int begin, int end) {
  std::uint16_t* out = slots_[index % slots_.size()].data();
  for (int y = begin; y < end; ++y) {
    const std::uint8_t* row = pic.data[0] + pic.stride[0] * y;
    std::uint16_t* o = out + static_cast<std::size_t>(y) * w_;
    if (pic.fmt.bitdepth == 8) {
      for (int x = 0; x < w_; ++x) o[x] = row[x];
    } else {
      const auto* row16 = reinterpret_cast<const std::uint16_t*>(row);
      for (int x = 0; x < w_; ++x) o[x] = row16[x];
    }
  }
}

const std::uint16_t* LumaRing::frame(unsigned index) const { return slots_[index % slots_.size()].data(); }

void CpuSadEngine::init(const Format& fmt, unsigned distance) {
  fmt_ = fmt;
  distance_ = distance;
  frames_ = 0;
  ring_.init(fmt, distance);
  queue_.clear();
  const std::size_t n = static_cast<std::size_t>(fmt.width) * fmt.height;
  diff_.assign(n, 0);
  vertical_.assign(n, 0);
  horizontal_.assign(n, 0);
  rows_.assign(fmt.height, 0);
  have_pair_ = false;
}

void CpuSadEngine::submit(const PictureView& pic) {
  bands_.run(fmt_.height, [&](int, int begin, int end) { ring_.store(pic, frames_, begin, end); });
  if (frames_ >= distance_) {
    total_ = pair_total(ring_.frame(frames_ - distance_), ring_.frame(frames_));
    queue_.push(total_);
    have_pair_ = true;
  }
  ++frames_;
}

std::uint64_t CpuSadEngine::pair_total(const std::uint16_t* p, const std::uint16_t* c) {
  const int w = fmt_.width, h = fmt_.height;
  const VerticalRounding vr = vertical_rounding(fmt_.bitdepth);
  const auto at = [w](int y, int x) { return static_cast<std::size_t>(y) * w + x; };
  // Each stage over bands of rows; the vertical pass reads its neighbours' rows, so each stage
  // ends before the next begins.
  // The difference, earlier minus later.
  bands_.run(h, [&](int, int begin, int end) {
    for (std::size_t i = at(begin, 0); i < at(end, 0); ++i) diff_[i] = std::int32_t(p[i]) - std::int32_t(c[i]);
  });
  // The vertical pass on the difference, then the horizontal pass on its rows.
  bands_.run(h, [&](int, int begin, int end) {
    for (int i = begin; i < end; ++i)
      for (int j = 0; j < w; ++j) {
        std::int32_t d[5];
        for (int k = 0; k < 5; ++k) d[k] = diff_[at(mirror(i - kRadius + k, h), j)];
        vertical_[at(i, j)] = vertical_output(d, vr);
      }
  });
  bands_.run(h, [&](int, int begin, int end) {
    for (int i = begin; i < end; ++i) {
      std::uint32_t row_sum = 0;  // modulo 2^32, as libvmaf keeps it (it cannot wrap for w <= 65537)
      for (int j = 0; j < w; ++j) {
        std::int32_t v[5];
        for (int k = 0; k < 5; ++k) v[k] = vertical_[at(i, mirror(j - kRadius + k, w))];
        const std::int32_t x = horizontal_output(v);
        horizontal_[at(i, j)] = x;
        row_sum += static_cast<std::uint32_t>(std::abs(x));
      }
      rows_[i] = row_sum;
    }
  });
  return total_of_rows();
}

std::uint64_t CpuSadEngine::total_of_rows() const {
  std::uint64_t total = 0;
  for (const std::uint32_t r : rows_) total += r;
  return total;
}

std::optional<Probe> CpuSadEngine::inspect(std::string_view stage) const {
  if (!ctx_.capture_stages || !have_pair_) return std::nullopt;
  const int w = fmt_.width, h = fmt_.height;
  const auto plane = [&](const char* name, int pw, int ph, const auto& v) {
    return ProbeArray{name, pw, ph, false, std::vector<double>(v.begin(), v.end())};
  };
  Probe p{std::string(stage), {}};
  if (stage == "difference") p.arrays.push_back(plane("Y", w, h, diff_));
  else if (stage == "vertical") p.arrays.push_back(plane("Y", w, h, vertical_));
  else if (stage == "horizontal") p.arrays.push_back(plane("Y", w, h, horizontal_));
  else if (stage == "row_sums") p.arrays.push_back(plane("Y", 1, h, rows_));
  else if (stage == "total") p.arrays.push_back(ProbeArray{"Y", 1, 1, false, {static_cast<double>(total_)}});
  else return std::nullopt;
  return p;
}

// The reference checks every luma sample against 2^bitdepth: it is the contract's checking mode.
std::unique_ptr<Extractor> make_cpu(const ExtractorContext& ctx) {
  return with_engine<IntegerMotionExtractor, CpuSadEngine>(ctx, /*check_samples=*/true);
}

}  // namespace twinproof::motion
