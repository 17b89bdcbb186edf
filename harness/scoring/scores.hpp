// Score tables and running an extractor over a stream of frames.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "extractors/extractor.hpp"
#include "harness/calibration/rules.hpp"
#include "harness/io/frame.hpp"

namespace twinproof {

// Per metric, per frame: the value, or nullopt when the metric was not emitted for that frame.
class ScoreTable final : public ScoreSink {
 public:
  void put(std::string_view metric, unsigned frame, double value) override;
  void set_frames(unsigned first, unsigned count) {
    first_ = first;
    count_ = count;
  }
  unsigned first_frame() const { return first_; }
  unsigned frames() const { return count_; }
  std::vector<std::string> metrics() const;
  std::optional<double> get(const std::string& metric, unsigned frame) const;  // absolute frame label
  const std::map<std::string, std::vector<std::optional<double>>>& columns() const { return cols_; }
  void set_column(const std::string& metric, std::vector<std::optional<double>> values) { cols_[metric] = std::move(values); }
  // The same frames with only these metrics (those it has): what a twin that reports fewer
  // metrics than the reference is judged against.
  ScoreTable only(const std::vector<std::string>& metrics) const;

 private:
  unsigned first_ = 0, count_ = 0;
  std::map<std::string, std::vector<std::optional<double>>> cols_;
};

struct FrameRange {
  unsigned first = 0;
  std::optional<unsigned> last;  // inclusive; nullopt: to the end
};
// "A:B" (inclusive), "A:" or ":B"; throws ConfigError.
FrameRange parse_frame_range(const std::string& s);

struct RunOptions {
  FrameRange range;          // in labels
  unsigned first_label = 0;  // the label of the source's first frame (a repro bundle keeps the clip's own)
  // Frames after range.last that are scored too, then dropped, so that metrics of the last frame
  // that look ahead (motion2) have the values the whole clip gives them: the feature's lookahead.
  unsigned lookahead = 0;
  // Threads that read the input ahead of the extractor (several only where frames lie at known
  // places of a file). The gate keeps one, as it runs cells side by side; score gives a clip more.
  unsigned readers = 1;
  // Read frames into the memory the backend asks for (page-locked for a device twin, so that no
  // staging copy is made). Off in the gate, where many short runs would each pin memory.
  bool backend_memory = false;
  // Called after each frame is extracted, look-ahead frames included (repro inspects stages).
  std::function<void(unsigned frame, const Extractor&)> after_frame;
};

// Readers and ring depth for reading a clip ahead with up to `readers` threads: two frames a
// reader and one more, in at most 256 MiB, and never fewer than two frames.
struct ReadPlan {
  unsigned readers = 1, depth = 3;
};
ReadPlan plan_reading(std::size_t frame_bytes, unsigned readers);

// Streams `src` through a freshly initialised extractor; stops reading after `range` (and its
// look-ahead frames), except that a source that checks_at_end() (a vector's pinned hash) is read
// to the end. Frames are labelled from run.first_label; the table holds range.first ..
// range.last (or the last frame).
ScoreTable run_extractor(Extractor& ex, FrameSource& src, const OptionList& options, const RunOptions& run = {});
// The same over a pair of clips, frame t of `reference` with frame t of `distorted` (libvmaf's
// reference and distorted pictures). Both must have one format and one number of frames: a
// difference is an InputError naming both clips. A clip scored on its own (the overload above) is
// its own distorted clip.
ScoreTable run_extractor(Extractor& ex, FrameSource& reference, FrameSource& distorted, const OptionList& options,
                         const RunOptions& run = {});
// The same over a run's clips: the pair, or the reference alone when there is no distorted clip.
ScoreTable run_extractor(Extractor& ex, ClipPair& clips, const OptionList& options, const RunOptions& run = {});

// One value that differs between two tables.
struct Mismatch {
  std::string metric;
  unsigned frame = 0;
  std::optional<double> expected, actual;
  ValueComparison cmp;
};

// One metric's share of a comparison: what `calibrate` proposes a row from.
struct MetricComparison {
  std::size_t values = 0;      // values compared (present in either table)
  std::size_t mismatches = 0;  // failing under the tolerance in force
  std::size_t unpaired = 0;    // present in one table only
  double max_abs_diff = 0;     // over values both present; NaN once a NaN is seen
  std::uint64_t max_ulp = 0;
};

struct TableComparison {
  std::map<std::string, MetricComparison> per_metric;
  bool pass = true;
  std::size_t values = 0;      // values compared
  std::size_t mismatches = 0;  // failing values
  std::optional<Mismatch> first;
  double max_abs_diff = 0;  // over values both present (NaN wins)
  std::uint64_t max_ulp = 0;
  std::string summary() const;  // one line
};

// Compares every metric and frame of `expected` against `actual`: a value present in one and
// absent in the other fails, a frame count difference fails.
TableComparison compare_tables(const ScoreTable& expected, const ScoreTable& actual, const Tolerance& t);
// The same, each metric judged with its own tolerance (metric-specific calibration rows).
TableComparison compare_tables(const ScoreTable& expected, const ScoreTable& actual,
                               const std::function<Tolerance(const std::string& metric)>& tolerance_of);

std::string describe(const Mismatch& m);

}  // namespace twinproof
