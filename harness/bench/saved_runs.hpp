// A bench run read back from what `bench --json` wrote, and the comparison of two runs: the time
// per frame of every backend at every size, new over old, judged against the noise both runs
// measured themselves (the spread of their timed repetitions).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace twinproof {

// What must be equal for two runs' times to be comparable, as bench --json writes it under
// "setup" (which also holds reps and the device ordinal, free to differ).
inline constexpr const char* kBenchSetupKeys[] = {"feature", "bitdepth", "chroma", "frames", "host_memory", "options", "threads"};

struct BenchTiming {
  std::string size;  // "3840x2160"
  std::string backend;
  unsigned reps = 0;                          // timed repetitions behind the median
  double ms_per_frame = 0;                    // median over the repetitions
  double spread = 0;                          // (slowest - fastest) / median over the repetitions
  std::optional<double> device_ms_per_frame;  // median, for device backends
};

struct BenchRun {
  std::string file;
  nlohmann::json setup;              // kBenchSetupKeys and reps
  std::string label;                 // where it ran: twinproof commit, date, device or CPU
  std::vector<BenchTiming> timings;  // timed backends only (refused ones carry no time)
};

// Throws InputError naming the file and the field for anything bench --json would not write.
BenchRun bench_run_from_json(const nlohmann::json& j, const std::string& file);
BenchRun load_bench_run(const std::filesystem::path& file);

enum class BenchVerdict { slower, faster, within_noise, noise_unmeasured };
const char* bench_verdict_name(BenchVerdict v);

struct BenchChange {
  std::string size, backend;
  double old_ms = 0, new_ms = 0;
  double ratio = 0;  // new / old: above 1 is slower
  double noise = 0;  // the larger spread of the two runs
  BenchVerdict verdict = BenchVerdict::within_noise;
  std::optional<double> old_device_ms, new_device_ms;
};

struct BenchComparison {
  std::vector<BenchChange> changes;
  std::vector<std::string> unmatched;  // "3840x2160 cuda: only in the new run"
  bool slower() const;                 // some backend slowed beyond the noise
};

// A minimum of repetitions per run for the spread to say anything about noise.
inline constexpr unsigned kBenchMinRepsForNoise = 3;

// Refuses (InputError naming the old file and the field) two runs whose setups differ.
// A change is slower when new/old exceeds 1 + noise, faster when old/new does, and
// noise_unmeasured when either run timed fewer than kBenchMinRepsForNoise repetitions.
BenchComparison compare_bench_runs(const BenchRun& old_run, const BenchRun& new_run);

}  // namespace twinproof
