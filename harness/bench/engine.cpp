// twinproof bench: backends side by side over the same frames in one run. Every backend's
// scores are first judged against cpu by its calibration row (bit for bit for exact twins): a
// bench of a wrong twin is refused. Times are medians over repetitions after a warm-up.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "extractors/devices.hpp"
#include "extractors/feature.hpp"
#include "extractors/row_bands.hpp"
#include "harness/bench/engine.hpp"
#include "harness/bench/saved_runs.hpp"
#include "harness/calibration/table.hpp"
#include "harness/scoring/run_settings.hpp"
#include "harness/scoring/scores.hpp"
#include "harness/support/environment.hpp"
#include "harness/support/errors.hpp"
#include "harness/support/faults.hpp"
#include "harness/support/json_file.hpp"
#include "harness/support/paths.hpp"
#include "harness/support/text.hpp"
#include "harness/vectors/vectors.hpp"

namespace twinproof {

void print_speedups(std::string_view what, const std::vector<std::pair<std::string, double>>& times) {
  if (times.size() < 2) return;
  std::string head = fmt::format("{:<16}", fmt::format("speed-up, {}", what));
  for (const auto& [name, ms] : times) head += fmt::format(" {:>14}", "vs " + name);
  fmt::print("{}\n", head);
  for (const auto& [name, ms] : times) {
    std::string line = fmt::format("{:<16}", name);
    for (const auto& [other, other_ms] : times) line += fmt::format(" {:>14.2f}", other_ms / ms);
    fmt::print("{}\n", line);
  }
}

namespace {
using Clock = std::chrono::steady_clock;

struct Run {
  double init_ms = 0;               // init (allocation, device set-up): once per clip
  double frame_ms = 0;              // extract of every frame plus flush, per frame
  std::optional<double> device_ms;  // device time per frame
  ScoreTable scores;
};

// One clip through one backend: frames handed over as views of memory that is already
// filled, so the time is the backend's alone.
// The benchmark's frames, generated once into one host block (page-locked with
// --host-memory pinned, so that device twins can upload without a staging copy). A feature that
// reads the distorted clip gets a distorted clip too, in the same block: the reference with the
// bench's distortion (noise of amplitude 4, in 8-bit units); any other sees each frame as both.
struct FrameStore {
  HostBuffer memory;
  std::vector<PictureView> views, distorted;
  std::size_t size() const { return views.size(); }
};

FrameStore make_frames(const VectorSpec& spec, bool pinned, bool with_distorted) {
  std::vector<Frame> frames;
  const auto read_all = [&](FrameSource& src) {
    Frame f;
    while (src.next(f)) frames.push_back(f);
  };
  read_all(*generate(spec));
  const std::size_t n = frames.size();
  if (with_distorted) {
    const DistortionSpec noise{"bench-noise4", "noise", {{"seed", 2027}, {"amplitude", 4}}, {}};
    read_all(*distort(generate(spec), noise));
  }
  FrameStore store;
  store.memory = allocate_host_buffer(frames.size() * frames.front().size(), pinned);
  for (std::size_t i = 0; i < frames.size(); ++i) {
    std::uint8_t* at = store.memory.data.get() + i * frames.front().size();
    std::memcpy(at, frames[i].bytes(), frames[i].size());
    PictureView v = frames[i].view();
    for (int p = 0; p < v.fmt.planes(); ++p) v.data[p] = at + frames[i].plane_offset(p);
    v.keep = store.memory.data;  // the block is never written again while the bench runs
    (i < n ? store.views : store.distorted).push_back(v);
  }
  if (!with_distorted) store.distorted = store.views;
  return store;
}

Run run_once(const Backend& b, const FrameStore& frames, const OptionList& options, int device, unsigned threads) {
  ExtractorContext ctx;
  ctx.device = device;
  ctx.threads = threads;
  auto ex = make_extractor(b, ctx);
  Run r;
  const auto t0 = Clock::now();
  ex->init(frames.views.front().fmt, options);
  const auto t1 = Clock::now();
  r.scores.set_frames(0, static_cast<unsigned>(frames.size()));
  for (unsigned i = 0; i < frames.size(); ++i) ex->extract(frames.views[i], frames.distorted[i], i, r.scores);
  ex->flush(r.scores);
  const auto t2 = Clock::now();
  r.init_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  r.frame_ms = std::chrono::duration<double, std::milli>(t2 - t1).count() / frames.size();
  if (auto d = ex->device_ms()) r.device_ms = *d / frames.size();
  return r;
}

struct Row {
  const Backend* b = nullptr;
  bool refused = false;
  std::string why;
  std::string judged;  // "exact (0 ULP)", "places=4 (max |diff| 2.1e-05)"
  double frame_ms = 0, min_ms = 0, init_ms = 0;
  double spread = 0;  // (slowest - fastest) / median of the timed repetitions: this run's noise
  std::vector<double> rep_ms, rep_device_ms;
  std::optional<double> device_ms;
};

// The bench's flags checked and resolved, in the order a user's mistakes are reported.
struct Plan {
  OptionList options;
  unsigned threads = 0;
  Calibration table;
  const FeatureDescriptor* feature = nullptr;
  const Backend* reference = nullptr;
  std::vector<const Backend*> chosen;
  std::vector<Size> sizes;
  Chroma chroma{};
  bool any_gpu = false;
};

Plan plan_bench(const BenchArgs& a) {
  Plan p;
  p.options = parse_option_flags(a.options);
  p.threads = resolve_threads(checked_threads(a.threads));
  p.table =
      Calibration::load(a.calibration.empty() ? data_root() / "ci" / "calibration.json" : std::filesystem::path(a.calibration));
  p.feature = &feature_or_throw(a.feature);
  p.reference = &backend_or_throw(a.feature, std::string(p.feature->reference));
  p.chosen = bench_backends(a);
  for (const std::string& text : split_list(a.sizes)) p.sizes.push_back(parse_size(text));
  if (p.sizes.empty()) throw UsageError("--sizes", a.sizes, fmt::format("--sizes '{}' names no size", a.sizes));
  if (a.frames < 2) throw UsageError("--frames", std::to_string(a.frames), "--frames: at least 2 frames (one pair)");
  if (a.reps < 1) throw UsageError("--reps", std::to_string(a.reps), "--reps: at least 1");
  const auto chroma = parse_chroma(a.chroma);
  if (!chroma) throw UsageError("--chroma", a.chroma, "--chroma: 400, 420, 422 or 444");
  p.chroma = *chroma;
  p.any_gpu =
      std::any_of(p.chosen.begin(), p.chosen.end(), [](const Backend* b) { return b->gpu() && b->availability().available; });
  return p;
}

nlohmann::json setup_json(const BenchArgs& a, const Plan& p) {
  nlohmann::json option_map = nlohmann::json::object();
  for (const auto& [k, v] : p.options) option_map[k] = v;
  return {{"feature", a.feature},  {"bitdepth", a.bitdepth}, {"chroma", a.chroma},
          {"frames", a.frames},    {"reps", a.reps},         {"host_memory", a.host_memory},
          {"options", option_map}, {"threads", p.threads},   {"device", a.device}};
}

// One backend over the frames: a warm-up whose scores are judged against the reference's, then
// the timed repetitions. A backend that cannot run this configuration here is refused with the
// reason; a bad input or a bug stops the bench.
Row time_backend(const BenchArgs& a, const Plan& p, const Backend& b, const FrameStore& frames, const Format& format,
                 const ScoreTable& expected) {
  Row r;
  r.b = &b;
  try {
    const Run warm = run_once(b, frames, p.options, a.device, p.threads);  // warm-up, and the check
    const Judgement j = judge_scores(p.table, *p.reference, b, a.device, format, p.options, expected, warm.scores);
    r.refused = j.refused;
    r.why = j.why;
    r.judged = j.judged;
  } catch (...) {
    const Fault f = classify_fault(std::current_exception());
    if (f.kind != FaultKind::refused && f.kind != FaultKind::unavailable && f.kind != FaultKind::device) throw;
    r.refused = true;
    r.why = f.text();
  }
  if (r.refused) return r;
  std::vector<double> frame_ms, device_ms, init_ms;
  for (unsigned i = 0; i < a.reps; ++i) {
    const Run run = run_once(b, frames, p.options, a.device, p.threads);
    frame_ms.push_back(run.frame_ms);
    init_ms.push_back(run.init_ms);
    if (run.device_ms) device_ms.push_back(*run.device_ms);
  }
  r.frame_ms = median(frame_ms);
  r.min_ms = *std::min_element(frame_ms.begin(), frame_ms.end());
  r.spread = (*std::max_element(frame_ms.begin(), frame_ms.end()) - r.min_ms) / r.frame_ms;
  r.rep_ms = frame_ms;
  r.rep_device_ms = device_ms;
  r.init_ms = median(init_ms);
  if (!device_ms.empty()) r.device_ms = median(device_ms);
  return r;
}

// The table of one size: its heading, the floors when a device was measured, a line per backend
// and the speed-ups; returns the size's part of the JSON report.
nlohmann::json print_size(const BenchArgs& a, const Plan& p, const Size& size, const FrameStore& frames,
                          const DeviceTraffic& traffic, const std::optional<DeviceBandwidth>& bw, const std::vector<Row>& rows) {
  const FeatureDescriptor& feature = *p.feature;
  const double sample_bytes = traffic.upload_bytes, floor_bytes = traffic.floor_bytes;
  std::string option_text;
  for (const auto& [k, v] : p.options) option_text += fmt::format(" {}={}", k, v);
  fmt::print(
      "\n{} {}x{} {}-bit {}{}, {} frames in {} host memory, median of {} runs after a warm-up, CPU backends on {} "
      "thread(s)\n",
      feature.name, size.w, size.h, a.bitdepth, a.chroma, option_text, frames.size(),
      frames.memory.pinned ? "pinned" : "pageable", a.reps, p.threads);
  if (bw)
    fmt::print(
        "memory floor: {:.1f} MB per frame / {:.0f} GB/s = {:.4f} ms on the device; upload floor: {:.1f} MB / {:.1f} GB/s "
        "= {:.4f} ms per frame ({:.0f} fps)\n",
        floor_bytes / 1e6, bw->d2d_gbps, floor_bytes / (bw->d2d_gbps * 1e6), sample_bytes / 1e6, bw->h2d_pinned_gbps,
        sample_bytes / (bw->h2d_pinned_gbps * 1e6), bw->h2d_pinned_gbps * 1e9 / sample_bytes);
  fmt::print("{:<16} {:>10} {:>9} {:>10} {:>11} {:>8} {:>9}  {}\n", "backend", "ms/frame", "fps", "init ms", "device ms",
             "x floor", "x upload", "judged against " + std::string(feature.reference));
  nlohmann::json size_report = {{"size", fmt::format("{}x{}", size.w, size.h)},
                                {"frames", frames.size()},
                                {"reps", a.reps},
                                {"floor_bytes_per_frame", floor_bytes},
                                {"upload_bytes_per_frame", sample_bytes},
                                {"backends", nlohmann::json::array()}};
  for (const Row& r : rows) {
    if (r.refused) {
      fmt::print("{:<16} REFUSED: {}\n", r.b->name, r.why);
      size_report["backends"].push_back({{"backend", r.b->name}, {"refused", r.why}});
      continue;
    }
    std::string floor = "-", upload = "-";
    if (bw && r.device_ms) floor = fmt::format("{:.2f}", *r.device_ms / (floor_bytes / (bw->d2d_gbps * 1e6)));
    // Upload-limited share: the end-to-end frame rate over what pinned upload bandwidth allows.
    if (bw && r.b->gpu()) upload = fmt::format("{:.0f}%", 100.0 * (sample_bytes / (bw->h2d_pinned_gbps * 1e6)) / r.frame_ms);
    fmt::print("{:<16} {:>10.4f} {:>9.1f} {:>10.2f} {:>11} {:>8} {:>9}  {}\n", r.b->name, r.frame_ms, 1e3 / r.frame_ms, r.init_ms,
               r.device_ms ? fmt::format("{:.4f}", *r.device_ms) : std::string("-"), floor, upload, r.judged);
    size_report["backends"].push_back(
        {{"backend", r.b->name},
         {"ms_per_frame", r.frame_ms},
         {"min_ms_per_frame", r.min_ms},
         {"spread", r.spread},
         {"rep_ms_per_frame", r.rep_ms},
         {"rep_device_ms_per_frame", r.rep_device_ms},
         {"init_ms", r.init_ms},
         {"device_ms_per_frame", r.device_ms ? nlohmann::json(*r.device_ms) : nlohmann::json(nullptr)},
         {"judged", r.judged}});
  }
  const auto ratios = [&](const char* what, auto time_of) {
    std::vector<std::pair<std::string, double>> times;
    for (const Row& r : rows)
      if (!r.refused && time_of(r)) times.emplace_back(std::string(r.b->name), *time_of(r));
    print_speedups(what, times);
  };
  ratios("end to end", [](const Row& r) -> std::optional<double> { return r.frame_ms; });
  ratios("device", [](const Row& r) { return r.device_ms; });
  return size_report;
}

}  // namespace

int run_bench(const BenchArgs& a) {
  const Plan p = plan_bench(a);
  // Read before the run: a comparison that cannot be made must not cost a bench first.
  std::optional<BenchRun> old_run;
  if (!a.compare.empty()) old_run = load_bench_run(a.compare);
  nlohmann::json report = {
      {"environment", environment_fingerprint()}, {"setup", setup_json(a, p)}, {"sizes", nlohmann::json::array()}};
  // Ceilings for GPU figures, measured in this run on the device used.
  std::optional<DeviceBandwidth> bw;
  if (p.any_gpu) bw = measure_bandwidth(a.device);
  if (bw) {
    fmt::print(
        "device {}: measured copy bandwidth {:.0f} GB/s device-to-device (read + write), {:.1f} GB/s pinned host-to-device\n",
        a.device, bw->d2d_gbps, bw->h2d_pinned_gbps);
    report["bandwidth"] = {{"d2d_gbps", bw->d2d_gbps}, {"h2d_pinned_gbps", bw->h2d_pinned_gbps}};
  }
  int rc = kExitPass;
  for (const Size& size : p.sizes) {
    VectorSpec spec;
    spec.id = fmt::format("bench-pan-{}x{}", size.w, size.h);
    spec.recipe = "pan";
    spec.fmt = {size.w, size.h, a.bitdepth, p.chroma};
    spec.frames = a.frames;
    spec.params = {{"seed", 2026}, {"dx", 2}, {"dy", 1}};
    validate_format(spec.fmt, "--sizes");
    const FrameStore frames = make_frames(spec, pinned_host_memory(a.host_memory), p.feature->reads_distorted);
    const ScoreTable expected = run_once(*p.reference, frames, p.options, a.device, p.threads).scores;
    // Bytes one frame must move on the device, as the feature's descriptor counts them.
    const DeviceTraffic traffic = p.feature->traffic(spec.fmt, p.options);
    std::vector<Row> rows;
    for (const Backend* b : p.chosen) {
      rows.push_back(time_backend(a, p, *b, frames, spec.fmt, expected));
      if (rows.back().refused) rc = kExitFail;
    }
    report["sizes"].push_back(print_size(a, p, size, frames, traffic, bw, rows));
  }
  if (!a.json.empty()) write_file(a.json, json_text(report, 2) + "\n", "the JSON output");
  if (old_run) {
    const int compared = print_comparison(*old_run, bench_run_from_json(report, "this run"));
    if (rc == kExitPass) rc = compared;
  }
  return rc;
}

// The comparison with an earlier run, per size and backend, new time over old.
int print_comparison(const BenchRun& old_run, const BenchRun& new_run) {
  const BenchComparison cmp = compare_bench_runs(old_run, new_run);
  fmt::print(
      "\ncompared with {} ({}): time per frame, this run over that one; noise is the larger spread of the two "
      "runs' repetitions\n",
      old_run.file, old_run.label.empty() ? "no environment recorded" : old_run.label);
  fmt::print("{:<11} {:<16} {:>10} {:>10} {:>8} {:>7} {:>12} {:>12}  {}\n", "size", "backend", "old ms", "new ms", "new/old",
             "noise", "old device", "new device", "verdict");
  const auto device = [](const std::optional<double>& d) { return d ? fmt::format("{:.4f}", *d) : std::string("-"); };
  for (const BenchChange& c : cmp.changes)
    fmt::print("{:<11} {:<16} {:>10.4f} {:>10.4f} {:>8.3f} {:>6.1f}% {:>12} {:>12}  {}\n", c.size, c.backend, c.old_ms, c.new_ms,
               c.ratio, 100 * c.noise, device(c.old_device_ms), device(c.new_device_ms), bench_verdict_name(c.verdict));
  for (const std::string& u : cmp.unmatched) fmt::print("not compared: {}\n", u);
  if (cmp.changes.empty()) {
    fmt::print("compare: no size and backend timed in both runs\n");
    return kExitFail;
  }
  if (cmp.slower()) {
    fmt::print("compare: SLOWER beyond the noise measured (see the verdicts above)\n");
    return kExitFail;
  }
  fmt::print("compare: no backend slower beyond the noise measured\n");
  return kExitPass;
}

// "WxH" with plain decimal extents (no sign, spaces, fractions or trailing text).
Size parse_size(const std::string& s) {
  const auto x = s.find('x');
  const auto extent = [](const std::string& t, int& out) {
    if (t.empty() || t.size() > 6 || t.find_first_not_of("0123456789") != std::string::npos) return false;
    out = std::stoi(t);
    return out > 0;
  };
  Size size{};
  if (x != std::string::npos && extent(s.substr(0, x), size.w) && extent(s.substr(x + 1), size.h)) return size;
  throw UsageError("--sizes", s, fmt::format("--sizes: '{}' is not WxH (two whole numbers above 0, like 1920x1080)", s));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

Judgement judge_scores(const Calibration& table, const Backend& reference, const Backend& b, int device, const Format& format,
                       const OptionList& options, const ScoreTable& all_expected, const ScoreTable& actual) {
  const CellTolerance t(table, std::string(b.feature), std::string(reference.name), std::string(b.name),
                        compute_capability_of(b.gpu(), device));
  const ScoreTable expected = [&] {
    if (is_built_in(b)) return all_expected;
    auto ex = make_extractor(b, ExtractorContext{});
    ex->init(format, options);
    const auto metrics = ex->judged_metrics();
    return metrics ? all_expected.only(*metrics) : all_expected;
  }();
  Judgement j;
  if (&b != &reference && t.row("") == nullptr) {
    j.refused = true;
    j.why = "no calibration row";
    return j;
  }
  const TableComparison cmp = compare_tables(expected, actual, t);
  j.judged = fmt::format("{} (max |diff| {:.2g}, {} ULP)", t.describe(expected.metrics()), cmp.max_abs_diff, cmp.max_ulp);
  if (!cmp.pass) {
    j.refused = true;
    j.fails_row = true;
    j.why = "fails its calibration row (" + t.describe(expected.metrics()) + "): " + cmp.summary();
  }
  return j;
}

std::vector<const Backend*> bench_backends(const BenchArgs& a) {
  std::vector<const Backend*> chosen;
  if (a.backends.empty()) {
    for (const Backend* b : backends())
      if (b->feature == a.feature && is_built_in(*b) && b->availability().available) chosen.push_back(b);
  } else {
    for (const std::string& name : split_list(a.backends)) {
      const Backend& b = backend_or_throw(a.feature, name);
      // A backend named on the command line that cannot run here is an error of this run, not a
      // row to skip.
      if (const Availability av = b.availability(); !av.available)
        throw BackendUnavailable("--backends", name, fmt::format("--backends: '{}' is unavailable here: {}", name, av.reason));
      chosen.push_back(&b);
    }
  }
  if (chosen.empty())
    throw UsageError("--backends", a.backends,
                     a.backends.empty() ? "no backend of " + a.feature + " is available here"
                                        : fmt::format("--backends '{}' names no backend", a.backends));
  return chosen;
}

}  // namespace twinproof
