#include "harness/scoring/scores.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "harness/io/read_ahead.hpp"
#include "harness/support/errors.hpp"

namespace twinproof {

void ScoreTable::put(std::string_view metric, unsigned frame, double value) {
  auto& col = cols_[std::string(metric)];
  if (frame < first_) throw std::logic_error(fmt::format("score for frame {} before the first frame {}", frame, first_));
  const unsigned i = frame - first_;
  if (col.size() <= i) col.resize(i + 1);
  if (col[i]) throw std::logic_error(fmt::format("metric {} emitted twice for frame {}", metric, frame));
  col[i] = value;
  if (i + 1 > count_) count_ = i + 1;
}

std::vector<std::string> ScoreTable::metrics() const {
  std::vector<std::string> m;
  for (const auto& [k, v] : cols_) m.push_back(k);
  return m;
}

ScoreTable ScoreTable::only(const std::vector<std::string>& metrics) const {
  ScoreTable t;
  t.set_frames(first_, count_);
  for (const std::string& m : metrics)
    if (const auto it = cols_.find(m); it != cols_.end()) t.set_column(m, it->second);
  return t;
}

std::optional<double> ScoreTable::get(const std::string& metric, unsigned frame) const {
  const auto it = cols_.find(metric);
  if (it == cols_.end() || frame < first_ || frame - first_ >= it->second.size()) return std::nullopt;
  return it->second[frame - first_];
}

FrameRange parse_frame_range(const std::string& s) {
  const auto colon = s.find(':');
  const auto parse = [&](const std::string& part, const char* which) -> std::optional<unsigned> {
    if (part.empty()) return std::nullopt;
    unsigned v = 0;
    auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (ec != std::errc() || p != part.data() + part.size())
      throw UsageError("--frames", s, fmt::format("--frames: the {} frame '{}' is not a frame number", which, part));
    return v;
  };
  if (colon == std::string::npos)
    throw UsageError("--frames", s, fmt::format("--frames '{}': not A:B (first and last frame, inclusive), A: or :B", s));
  FrameRange r;
  r.first = parse(s.substr(0, colon), "first").value_or(0);
  r.last = parse(s.substr(colon + 1), "last");
  if (r.last && *r.last < r.first)
    throw UsageError("--frames", s, fmt::format("--frames '{}': the last frame comes before the first", s));
  return r;
}

ReadPlan plan_reading(std::size_t frame_bytes, unsigned readers) {
  constexpr std::size_t kRingBytes = std::size_t{256} << 20;
  const unsigned wanted = 2 * std::max(readers, 1u) + 1;
  const auto fit = static_cast<unsigned>(std::min<std::size_t>(kRingBytes / std::max<std::size_t>(frame_bytes, 1), wanted));
  ReadPlan plan;
  plan.depth = std::max(fit, 2u);
  plan.readers = std::clamp(readers, 1u, plan.depth - 1);
  return plan;
}

namespace {

// A clip read ahead of the extractor (unless a read could block without end), into the memory
// the backend asks for when the run wants it.
class ClipReader {
 public:
  ClipReader(FrameSource& input, const RunOptions& run) {
    if (!input.may_block()) {
      const ReadPlan plan = plan_reading(frame_bytes(input.format(), input.name()), run.readers);
      ahead_.emplace(input, plan.depth, plan.readers);
    }
    src_ = ahead_ ? &*ahead_ : &input;
  }
  FrameSource& source() { return *src_; }
  void adapt_to(const Extractor& ex, const RunOptions& run) {
    if (!ahead_) return;
    ahead_->read_leading_planes(ex.planes_read());
    if (run.backend_memory)
      if (auto memory = ex.frame_memory()) ahead_->use_memory(std::move(memory));
  }

 private:
  std::optional<ReadAhead> ahead_;
  FrameSource* src_ = nullptr;
};

void check_same_format(FrameSource& reference, FrameSource& distorted) {
  if (reference.format() == distorted.format()) return;
  throw InputError(distorted.name(), "format", describe(distorted.format()),
                   fmt::format("the distorted clip is {}, the reference {} is {}: a pair's clips share one format",
                               describe(distorted.format()), reference.name(), describe(reference.format())));
}

[[noreturn]] void unequal_frame_counts(FrameSource& shorter, FrameSource& longer, unsigned frames, const char* which_longer) {
  throw InputError(shorter.name(), "frames", std::to_string(frames),
                   fmt::format("holds {} frames, and the {} clip {} holds more: a pair's clips hold the same number of frames",
                               frames, which_longer, longer.name()));
}

ScoreTable run_pair(Extractor& ex, FrameSource& reference_input, FrameSource* distorted_input, const OptionList& options,
                    const RunOptions& run) {
  // The next frames are read while this one computes (and while init sets up the backend: a
  // device's context is created meanwhile).
  ClipReader reference(reference_input, run);
  std::optional<ClipReader> distorted;
  if (distorted_input) {
    check_same_format(reference_input, *distorted_input);
    distorted.emplace(*distorted_input, run);
  }
  FrameSource& ref = reference.source();
  FrameSource* dist = distorted ? &distorted->source() : nullptr;
  ex.init(ref.format(), options);
  reference.adapt_to(ex, run);
  if (distorted) distorted->adapt_to(ex, run);
  ScoreTable table;
  // The last label scored (the range's end plus the frames a window looks ahead), or no end.
  const unsigned scored_last = run.range.last ? *run.range.last + run.lookahead : std::numeric_limits<unsigned>::max();
  const bool read_to_end = ref.checks_at_end() || (dist && dist->checks_at_end());
  Frame frame, distorted_frame;
  unsigned index = 0;
  std::optional<unsigned> first, last;
  for (;;) {
    const unsigned t = run.first_label + index;
    // Nothing after the range (and its look-ahead) is read, unless a source checks it all.
    if (t > scored_last && !read_to_end) break;
    const bool have_ref = ref.next(frame);
    const bool have_dist = dist ? dist->next(distorted_frame) : have_ref;
    if (have_ref != have_dist) {
      if (have_ref) unequal_frame_counts(*distorted_input, reference_input, index, "reference");
      unequal_frame_counts(reference_input, *distorted_input, index, "distorted");
    }
    if (!have_ref) break;
    ++index;
    if (t < run.range.first || t > scored_last) continue;
    if (!first) table.set_frames(t, 0);
    first = first.value_or(t);
    last = t;
    const PictureView view = frame.view();
    ex.extract(view, dist ? distorted_frame.view() : view, t, table);
    if (run.after_frame) run.after_frame(t, ex);
  }
  if (!first)
    throw UsageError("--frames", fmt::format("{}:", run.range.first),
                     fmt::format("the input has {} frames; none is in the requested range", index));
  ex.flush(table);
  // The look-ahead frames served the last frame's metrics; they are not part of the result.
  if (run.range.last && *run.range.last < *last) last = *run.range.last;
  table.set_frames(*first, *last - *first + 1);
  for (const std::string& m : ex.metrics()) {
    auto col = table.columns().count(m) ? table.columns().at(m) : std::vector<std::optional<double>>{};
    col.resize(table.frames());
    table.set_column(m, std::move(col));
  }
  return table;
}

}  // namespace

ScoreTable run_extractor(Extractor& ex, FrameSource& input, const OptionList& options, const RunOptions& run) {
  return run_pair(ex, input, nullptr, options, run);
}

ScoreTable run_extractor(Extractor& ex, FrameSource& reference, FrameSource& distorted, const OptionList& options,
                         const RunOptions& run) {
  return run_pair(ex, reference, &distorted, options, run);
}

ScoreTable run_extractor(Extractor& ex, ClipPair& clips, const OptionList& options, const RunOptions& run) {
  return run_pair(ex, *clips.reference, clips.distorted.get(), options, run);
}

std::string describe(const Mismatch& m) {
  const auto show = [](const std::optional<double>& v) {
    return v ? fmt::format("{:.17g} ({})", *v, hex(*v)) : std::string("(not emitted)");
  };
  std::string s = fmt::format("frame {} {}: expected {}, got {}", m.frame, m.metric, show(m.expected), show(m.actual));
  if (m.expected && m.actual) {
    if (m.cmp.ulp == std::numeric_limits<std::uint64_t>::max()) s += ", ULP distance n/a";
    else s += fmt::format(", |diff| {:.3g}, {} ULP", m.cmp.abs_diff, m.cmp.ulp);
    if (!m.cmp.note.empty()) s += " [" + m.cmp.note + "]";
  }
  return s;
}

std::string TableComparison::summary() const {
  if (pass) return fmt::format("{} values match (max |diff| {:.3g}, max {} ULP)", values, max_abs_diff, max_ulp);
  return fmt::format("{} of {} values differ; first: {} (max |diff| {:.3g})", mismatches, values,
                     first ? describe(*first) : std::string("frame count"), max_abs_diff);
}

TableComparison compare_tables(const ScoreTable& expected, const ScoreTable& actual, const Tolerance& t) {
  return compare_tables(expected, actual, [&](const std::string&) { return t; });
}

TableComparison compare_tables(const ScoreTable& expected, const ScoreTable& actual,
                               const std::function<Tolerance(const std::string& metric)>& tolerance_of) {
  TableComparison r;
  const auto fail = [&](Mismatch m) {
    r.pass = false;
    ++r.mismatches;
    if (!r.first) r.first = std::move(m);
  };
  std::vector<std::string> metrics = expected.metrics();
  for (const std::string& m : actual.metrics())
    if (std::find(metrics.begin(), metrics.end(), m) == metrics.end()) metrics.push_back(m);
  const unsigned frames = std::max(expected.frames(), actual.frames());
  if (expected.frames() != actual.frames() || expected.first_frame() != actual.first_frame()) r.pass = false;
  // Frame by frame, metrics in order within a frame: the first mismatch is the earliest frame's.
  std::vector<Tolerance> tolerances;
  for (const std::string& metric : metrics) tolerances.push_back(tolerance_of(metric));
  for (unsigned i = 0; i < frames; ++i) {
    const unsigned f = expected.first_frame() + i;
    for (std::size_t k = 0; k < metrics.size(); ++k) {
      const std::string& metric = metrics[k];
      const std::optional<double> e = expected.get(metric, f), a = actual.get(metric, f);
      if (!e && !a) continue;
      ++r.values;
      MetricComparison& pm = r.per_metric[metric];
      ++pm.values;
      Mismatch m{metric, f, e, a, {}};
      if (!e || !a) {
        ++pm.unpaired;
        ++pm.mismatches;
        fail(m);
        continue;
      }
      m.cmp = compare_values(*e, *a, tolerances[k]);
      // NaN, once seen, stays the largest difference.
      const auto widen = [&](double& max_abs_diff, std::uint64_t& max_ulp) {
        if (std::isnan(m.cmp.abs_diff)) max_abs_diff = m.cmp.abs_diff;
        else if (!std::isnan(max_abs_diff)) max_abs_diff = std::max(max_abs_diff, m.cmp.abs_diff);
        max_ulp = std::max(max_ulp, m.cmp.ulp);
      };
      widen(r.max_abs_diff, r.max_ulp);
      widen(pm.max_abs_diff, pm.max_ulp);
      if (!m.cmp.pass) {
        ++pm.mismatches;
        fail(m);
      }
    }
  }
  return r;
}

}  // namespace twinproof
