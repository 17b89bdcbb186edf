// twinproof bench: its flags. The engine (both modes) is harness/bench/.
#include <memory>

#include "harness/bench/engine.hpp"
#include "harness/cli/commands.hpp"
#include "harness/support/errors.hpp"

namespace twinproof::cli {

void add_bench(CLI::App& app, int& rc) {
  auto a = std::make_shared<BenchArgs>();
  CLI::App* sub =
      app.add_subcommand("bench", "Time backends side by side; each is judged against cpu by its calibration row first");
  sub->add_option("--feature", a->feature, "Feature")->capture_default_str();
  sub->add_option("--backends", a->backends,
                  "Comma-separated backends (default: every built-in one available here; outside twins run only when named)");
  sub->add_option("--sizes", a->sizes, "Comma-separated WxH")->capture_default_str();
  sub->add_option("--frames", a->frames, "Frames per run")->capture_default_str();
  sub->add_option("--reps", a->reps, "Timed repetitions (the median is reported)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 10000u));
  sub->add_option("--bitdepth", a->bitdepth, "Bit depth of the generated frames")->capture_default_str();
  sub->add_option("--chroma", a->chroma, "Chroma format of the generated frames")->capture_default_str();
  sub->add_option("--option,-o", a->options, "NAME=VALUE (repeatable)");
  sub->add_option("--calibration", a->calibration, "Calibration table (default: ci/calibration.json)");
  sub->add_option("--json", a->json, "Write the results as JSON");
  sub->add_option("--host-memory", a->host_memory,
                  "Where the frames wait: pinned (device twins upload from them directly) or pageable (staged)")
      ->capture_default_str();
  sub->add_option("--device", a->device, "GPU ordinal")->capture_default_str();
  sub->add_option("--threads", a->threads, threads_help)->capture_default_str();
  sub->add_option("--compare", a->compare,
                  "An earlier run's --json: print this run's time over that one's per size and backend; exit 1 when a "
                  "backend is slower beyond the noise both runs measured");
  sub->add_option("--from-file", a->from_file,
                  "Time whole `twinproof score` processes on FILE (a .y4m, or raw: one --sizes WxH with --bitdepth and --chroma) "
                  "per backend, against the time to read FILE with the same readers (and to start the device)");
  sub->add_option("--distorted", a->distorted,
                  "--from-file: the distorted clip of a pair whose reference is FILE (the same format and frame count); "
                  "without it a feature that compares two clips is given FILE as both");
  sub->add_option("--readers", a->readers, std::string("--from-file: ") + readers_help)->capture_default_str();
  sub->callback([a, sub, &rc] {
    a->sizes_given = sub->count("--sizes") > 0;
    if (a->from_file.empty() && !a->distorted.empty())
      throw UsageError("--distorted", a->distorted,
                       "--distorted names the second clip of --from-file; the in-memory bench makes its own pair");
    rc = a->from_file.empty() ? run_bench(*a) : run_bench_from_file(*a);
  });
}

}  // namespace twinproof::cli
