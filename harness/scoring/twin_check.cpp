#include "harness/scoring/twin_check.hpp"

#include <algorithm>
#include <bit>
#include <random>

#include <fmt/format.h>

namespace twinproof {
namespace {
bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }
}  // namespace

StageDiff compare_stage(const StageInfo& s, const std::optional<Probe>& a, const std::optional<Probe>& b) {
  StageDiff d;
  d.stage = std::string(s.id);
  d.label = std::string(s.label);
  d.ref_has = a.has_value();
  d.twin_has = b.has_value();
  if (!a || !b) return d;
  for (std::size_t i = 0; i < a->arrays.size() && i < b->arrays.size(); ++i) {
    const ProbeArray& x = a->arrays[i];
    const ProbeArray& y = b->arrays[i];
    const std::size_t n = std::min(x.values.size(), y.values.size());
    for (std::size_t k = 0; k < n; ++k) {
      if (same_bits(x.values[k], y.values[k])) continue;
      if (d.differing++ == 0) {
        d.ref_value = x.values[k];
        d.twin_value = y.values[k];
        d.fp32 = x.fp32 && y.fp32;
        const int w = std::max(1, x.width);
        if (x.width > 1 && x.height >= 1) d.where = fmt::format("plane {}, row {}, column {}", x.name, k / w, k % w);
        else if (x.height > 1) d.where = fmt::format("plane {}, row {}", x.name, k);
        else d.where = x.name;
      }
    }
    if (x.values.size() != y.values.size()) {
      d.differing += std::max(x.values.size(), y.values.size()) - n;
      if (d.where.empty()) d.where = fmt::format("{}: {} values against {}", x.name, x.values.size(), y.values.size());
    }
  }
  if (a->arrays.size() != b->arrays.size()) {
    ++d.differing;
    if (d.where.empty()) d.where = fmt::format("{} arrays against {}", a->arrays.size(), b->arrays.size());
  }
  d.equal = d.differing == 0;
  return d;
}

std::string TwinCheckReport::summary() const {
  if (refused) return "both refuse the configuration";
  if (equal) return fmt::format("equal bit for bit ({})", outputs.summary());
  for (const StageDiff& d : stages)
    if (d.ref_has && d.twin_has && !d.equal)
      return fmt::format("frame {}: first divergence {}, {} ({} differ): {:a} vs {:a}", *frame, d.label, d.where, d.differing,
                         d.ref_value, d.twin_value);
  return "outputs differ: " + outputs.summary();
}

std::vector<Frame> random_frames(const Format& fmt, unsigned count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const unsigned max = (1u << fmt.bitdepth) - 1;
  std::vector<Frame> frames(count);
  for (Frame& f : frames) {
    f.reset(fmt);
    for (int p = 0; p < fmt.planes(); ++p) {
      std::uint8_t* base = f.bytes() + f.plane_offset(p);
      const std::size_t n = f.plane_size(p) / fmt.bytes_per_sample();
      for (std::size_t i = 0; i < n; ++i) {
        const unsigned v = static_cast<unsigned>(rng() % (max + 1));
        if (fmt.bitdepth == 8) base[i] = static_cast<std::uint8_t>(v);
        else reinterpret_cast<std::uint16_t*>(base)[i] = static_cast<std::uint16_t>(v);
      }
    }
  }
  return frames;
}

TwinCheckReport check_twin(const FeatureDescriptor& feature, const Backend& reference, const Backend& twin,
                           const std::vector<Frame>& frames, const OptionList& options, int device, unsigned twin_threads) {
  return check_twin_pair(feature, reference, twin, frames, frames, options, device, twin_threads);
}

TwinCheckReport check_twin_pair(const FeatureDescriptor& feature, const Backend& reference, const Backend& twin,
                                const std::vector<Frame>& frames, const std::vector<Frame>& distorted, const OptionList& options,
                                int device, unsigned twin_threads) {
  if (distorted.size() != frames.size())
    throw std::logic_error(fmt::format("check_twin_pair: {} reference frames and {} distorted", frames.size(), distorted.size()));
  std::size_t next = 0;
  return check_twin(
      feature, reference, twin, frames.front().format(),
      [&]() -> FramePair {
        if (next == frames.size()) return {};
        const std::size_t i = next++;
        return {&frames[i], &distorted[i]};
      },
      options, device, 0, twin_threads);
}

TwinCheckReport check_twin(const FeatureDescriptor& feature, const Backend& reference, const Backend& twin, const Format& fmt,
                           const std::function<FramePair()>& next_pair, const OptionList& options, int device,
                           unsigned first_label, unsigned twin_threads) {
  TwinCheckReport r;
  ExtractorContext ctx;
  ctx.device = device;
  ctx.capture_stages = true;
  auto ref = make_extractor(reference, ctx);
  ctx.threads = twin_threads;
  auto dut = make_extractor(twin, ctx);
  std::optional<std::string> ref_refusal, twin_refusal;
  try {
    ref->init(fmt, options);
  } catch (const ConfigError& e) {
    ref_refusal = e.what();
  }
  try {
    dut->init(fmt, options);
  } catch (const ConfigError& e) {
    twin_refusal = e.what();
  }
  if (ref_refusal || twin_refusal) {
    r.refused = ref_refusal && twin_refusal;
    r.equal = r.refused;
    if (!r.equal) {
      r.outputs.pass = false;
      r.frame = first_label;
      r.outputs.first = Mismatch{
          ref_refusal ? "(only the reference refuses: " + *ref_refusal + ")" : "(only the twin refuses: " + *twin_refusal + ")",
          0,
          {},
          {},
          {}};
    }
    return r;
  }
  ScoreTable rt, dt;
  rt.set_frames(first_label, 0);
  dt.set_frames(first_label, 0);
  unsigned t = first_label;
  for (FramePair pair; (pair = next_pair()).reference != nullptr; ++t) {
    const PictureView ref_view = pair.reference->view();
    const PictureView dist_view = pair.distorted ? pair.distorted->view() : ref_view;
    ref->extract(ref_view, dist_view, t, rt);
    dut->extract(ref_view, dist_view, t, dt);
    std::vector<StageDiff> diffs;
    bool differs = false;
    for (const StageInfo& s : feature.stages) {
      diffs.push_back(compare_stage(s, ref->inspect(s.id), dut->inspect(s.id)));
      const StageDiff& d = diffs.back();
      differs = differs || (d.ref_has && d.twin_has && !d.equal);
      r.stages_compared = r.stages_compared || (d.ref_has && d.twin_has);
    }
    if (differs && !r.frame) {
      r.frame = t;
      r.stages = std::move(diffs);
    }
  }
  rt.set_frames(first_label, t - first_label);
  dt.set_frames(first_label, t - first_label);
  ref->flush(rt);
  dut->flush(dt);
  r.outputs = compare_tables(rt, dt, Tolerance::exact());
  r.equal = !r.frame && r.outputs.pass;
  if (!r.frame && !r.outputs.pass && r.outputs.first) r.frame = r.outputs.first->frame;
  return r;
}

}  // namespace twinproof
