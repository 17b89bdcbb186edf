// What `bench`'s two modes share: the flags, medians, and judging a backend's scores against the
// reference by its calibration row before any of its times is shown.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "extractors/registry.hpp"
#include "harness/bench/saved_runs.hpp"
#include "harness/calibration/table.hpp"
#include "harness/scoring/scores.hpp"

namespace twinproof {

struct BenchArgs {
  std::string feature = "float_motion";
  std::string backends;  // default: every available one
  std::string sizes = "576x324,1920x1080,3840x2160";
  bool sizes_given = false;
  unsigned frames = 32;
  unsigned reps = 5;
  int bitdepth = 8;
  std::string chroma = "420";
  std::vector<std::string> options;
  std::string json;
  std::string calibration;
  std::string host_memory = "pinned";
  int device = 0;
  unsigned threads = 0;   // CPU backends' threads; 0: every hardware thread
  unsigned readers = 0;   // --from-file: threads reading ahead; 0: chosen from the hardware
  std::string compare;    // an earlier run's --json to compare with
  std::string from_file;  // time whole `score` processes on this file instead of frames in memory
  std::string distorted;  // --from-file: the distorted clip of the pair (the file is its reference)
};

struct Size {
  int w, h;
};
// "WxH" with plain decimal extents (no sign, spaces, fractions or trailing text); UsageError naming --sizes.
Size parse_size(const std::string& s);

double median(std::vector<double> v);

// Prints each backend's (row) speed-up over each other one (column): the other's time over its own.
// Nothing for fewer than two.
void print_speedups(std::string_view what, const std::vector<std::pair<std::string, double>>& times);

// Prints this run's times over an earlier run's per size and backend; kExitFail when a backend is
// slower beyond the noise both runs measured, or nothing could be compared.
int print_comparison(const BenchRun& old_run, const BenchRun& new_run);

struct Judgement {
  bool refused = false;
  bool fails_row = false;  // refused because its scores fail its calibration row (not for want of one)
  std::string why;         // when refused
  std::string judged;      // "exact (max |diff| 0, 0 ULP)"
};
// A backend's scores against the reference's, by the gate's own rows (metric and device rows
// included); the reference itself is judged against itself. A twin without a row is refused. An
// outside twin that reports fewer metrics than the reference for this format and these options
// (ffmpeg's vmafmotion prints motion alone) is judged on those, as the gate judges it.
Judgement judge_scores(const Calibration& table, const Backend& reference, const Backend& b, int device, const Format& format,
                       const OptionList& options, const ScoreTable& expected, const ScoreTable& actual);

// The backends a bench runs: those named (each must be available here), or every built-in one
// available here (outside twins, programs and plugins, run only when named).
std::vector<const Backend*> bench_backends(const BenchArgs& a);

// bench: every chosen backend on generated frames in memory, per size, judged first.
int run_bench(const BenchArgs& a);
// bench --from-file: whole `twinproof score` processes on a file, against its read bound.
int run_bench_from_file(const BenchArgs& a);

}  // namespace twinproof
