// twinproof bench --from-file: what a user waits for when scoring a file. Each backend runs as
// whole `twinproof score FILE` processes (start-up, the device's context, reading, computing,
// writing the scores), side by side with the others, on the whole file and on its first two
// frames (the fixed cost); the bound beside them is what no backend avoids: reading the file
// with the same readers (a backend's own count: resolve_readers), measured in this process, plus
// starting the device for a device twin.
// An exec twin whose program reads raw frames (libvmaf's `vmaf` tool) is given a raw file as it
// is and timed alone: its program's whole process, nothing of twinproof's around it, which is how
// `cpu-simd` is compared with libvmaf itself.
// With --distorted, each process scores the pair (FILE the reference, the other its distorted
// clip), and the read bound reads both, as `score` does.
// Every backend's scores are judged against the reference's first, as in the in-memory bench; an
// outside program whose scores fail its row (libvmaf's CUDA VMAF) is timed all the same, so that
// the comparison has both halves, and the run fails with the reason beside its row.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <variant>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "extractors/devices.hpp"
#include "extractors/feature.hpp"
#include "harness/bench/engine.hpp"
#include "harness/exec/twins_file.hpp"
#include "harness/io/read_ahead.hpp"
#include "harness/io/score_files.hpp"
#include "harness/scoring/run_settings.hpp"
#include "harness/support/environment.hpp"
#include "harness/support/errors.hpp"
#include "harness/support/faults.hpp"
#include "harness/support/interrupt.hpp"
#include "harness/support/json_file.hpp"
#include "harness/support/paths.hpp"
#include "harness/support/process.hpp"
#include "harness/support/text.hpp"
#include "harness/vectors/clip_spec.hpp"

namespace twinproof {
namespace {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// A folder of its own under TMPDIR, removed with the object.
class WorkFolder {
 public:
  WorkFolder() {
    std::string path = (fs::temp_directory_path() / "twinproof-bench-XXXXXX").string();
    if (::mkdtemp(path.data()) == nullptr) throw InputError(path, "folder", path, "cannot create the bench's work folder");
    path_ = path;
  }
  ~WorkFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  WorkFolder(const WorkFolder&) = delete;
  WorkFolder& operator=(const WorkFolder&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// How `score` opens the file: a Y4M says its own geometry; a raw file takes one --sizes WxH with
// --bitdepth and --chroma.
ClipSpec input_of(const BenchArgs& a) {
  ClipSpec in;
  in.path = a.from_file;
  if (!a.sizes_given) return in;
  if (in.path.size() >= 4 && in.path.compare(in.path.size() - 4, 4, ".y4m") == 0)
    throw UsageError("--sizes", a.sizes, "--sizes: a .y4m says its own size (--sizes describes a raw file)");
  const std::vector<std::string> sizes = split_list(a.sizes);
  if (sizes.size() != 1) throw UsageError("--sizes", a.sizes, "--sizes: with --from-file, the raw file's one size WxH");
  const Size size = parse_size(sizes[0]);
  in.width = size.w;
  in.height = size.h;
  in.bitdepth = a.bitdepth;
  in.pixfmt = a.chroma;
  return in;
}

std::vector<std::string> geometry_flags(const ClipSpec& in) {
  if (!in.width) return {};
  return {"--width",    std::to_string(*in.width),   "--height", std::to_string(*in.height), "--pixfmt", in.pixfmt,
          "--bitdepth", std::to_string(*in.bitdepth)};
}

// The distorted clip's input: the reference's geometry flags, its own path. nullopt without one.
std::optional<ClipSpec> distorted_of(const BenchArgs& a, const ClipSpec& clip) {
  if (a.distorted.empty()) return std::nullopt;
  ClipSpec in = clip;
  in.path = a.distorted;
  return in;
}

// Reads every frame of the clip (and of the distorted clip, frame by frame beside it) as `score`
// does: the same readers and ring per clip, ordinary memory, the planes the feature reads. Counts
// the frames; clips of unequal length are refused as `score` refuses them.
double read_all(const ClipSpec& in, const std::optional<ClipSpec>& distorted, unsigned readers, int planes, unsigned& frames) {
  const auto t0 = Clock::now();
  auto src = open_clip(in);
  const ReadPlan plan = plan_reading(frame_bytes(src->format(), src->name()), readers);
  ReadAhead ahead(*src, plan.depth, plan.readers);
  ahead.read_leading_planes(planes);
  std::unique_ptr<FrameSource> dist_src;
  std::optional<ReadAhead> dist_ahead;
  if (distorted) {
    dist_src = open_clip(*distorted);
    if (!(dist_src->format() == src->format()))
      throw InputError(distorted->path, "format", describe(dist_src->format()),
                       fmt::format("the distorted clip is {}, the reference {} is {}: a pair's clips share one format",
                                   describe(dist_src->format()), in.path, describe(src->format())));
    dist_ahead.emplace(*dist_src, plan.depth, plan.readers);
    dist_ahead->read_leading_planes(planes);
  }
  Frame f, g;
  frames = 0;
  for (;;) {
    const bool have = ahead.next(f);
    const bool have_dist = dist_ahead && dist_ahead->next(g);
    if (dist_ahead && have != have_dist)
      throw InputError(have ? distorted->path : in.path, "frames", std::to_string(frames),
                       fmt::format("holds {} frames, and {} holds more: a pair's clips hold the same number of frames", frames,
                                   have ? in.path : distorted->path));
    if (!have) break;
    ++frames;
  }
  return ms_since(t0);
}

// The clip's first `count` frames, in its own container.
void write_prefix(const ClipSpec& in, unsigned count, const fs::path& out) {
  auto src = open_clip(in);
  auto writer = in.width ? create_raw_writer(out.string()) : create_y4m_writer(out.string(), src->format());
  Frame f;
  for (unsigned i = 0; i < count && src->next(f); ++i) writer->write(f);
  writer->close();
}

ScoreTable table_of(const ScoreFile& file) {
  ScoreTable t;
  t.set_frames(0, static_cast<unsigned>(file.frames.size()));
  for (const auto& [metric, column] : file.values)
    for (const auto& [frame, value] : column) t.put(metric, static_cast<unsigned>(frame), value);
  t.set_frames(0, static_cast<unsigned>(file.frames.size()));
  return t;
}

struct Timings {
  const Backend* b = nullptr;
  bool program_alone = false;  // an exec twin's program, run on the file itself
  std::vector<double> whole_ms, prefix_ms;
  std::optional<std::string> refused;
  // An outside program whose scores fail its row is still timed (what a user of it waits for is
  // the comparison's other half); the run fails, and the table says why beside its time.
  std::optional<std::string> fails_row;
  std::string judged;
};

class ScoreProcesses {
 public:
  // `prefix` (and `distorted_prefix`): the clips' first `prefix_frames` frames.
  ScoreProcesses(const BenchArgs& a, const ClipSpec& clip, const std::optional<ClipSpec>& distorted, const fs::path& prefix,
                 const fs::path& distorted_prefix, unsigned prefix_frames, unsigned frames, const Format& format,
                 unsigned threads, const fs::path& work)
      : a_(a),
        clip_(clip),
        distorted_(distorted),
        prefix_(prefix),
        distorted_prefix_(distorted_prefix),
        prefix_frames_(prefix_frames),
        frames_(frames),
        format_(format),
        options_(parse_option_flags(a.options)),
        threads_(threads),
        work_(work),
        self_(fs::canonical("/proc/self/exe")) {}

  // An exec twin whose program reads raw frames, given the raw clip (or its prefix) as it is and
  // timed alone; its scores into `scores`. nullopt: `b` is not such a twin, or the clip is a Y4M.
  std::optional<std::variant<double, std::string>> run_program(const Backend& b, bool prefix, ScoreTable& scores) const {
    if (!clip_.width) return std::nullopt;
    try {
      const fs::path distorted = !distorted_ ? fs::path() : prefix ? distorted_prefix_ : fs::path(distorted_->path);
      const auto ms = run_exec_twin_on_file(b, format_, options_, prefix ? prefix_ : fs::path(clip_.path), distorted,
                                            prefix ? prefix_frames_ : frames_, scores);
      if (!ms) return std::nullopt;
      return *ms;
    } catch (const Interrupted&) {
      throw;
    } catch (...) {
      return classify_fault(std::current_exception()).text();
    }
  }

  // One whole process scoring the clip (or its prefix) with `b`, its scores in `json`; the
  // milliseconds it took, or why it failed.
  std::variant<double, std::string> run(const Backend& b, bool prefix, const fs::path& json) const {
    ClipSpec in = clip_;
    if (prefix) in.path = prefix_.string();
    std::vector<std::string> argv = {self_.string()};
    // What finds a twin declared at run time again ("--twins FILE", "--plugin PATH", "--vmaf PATH"),
    // word by word (a path with a space is not taken apart: rerun_args quotes it, and a quoted
    // word is passed whole, its quotes removed).
    for (std::string& w : split_shell_words(b.rerun_args)) argv.push_back(std::move(w));
    for (const std::string& s : {std::string("score"), in.path}) argv.push_back(s);
    if (distorted_) {
      argv.emplace_back("--distorted");
      argv.push_back(prefix ? distorted_prefix_.string() : distorted_->path);
    }
    for (std::string& g : geometry_flags(in)) argv.push_back(std::move(g));
    for (const std::string& s :
         {std::string("--feature"), a_.feature, std::string("--backend"), std::string(b.name), std::string("--readers"),
          std::to_string(resolve_readers(a_.readers, b, threads_)), std::string("--threads"), std::to_string(threads_),
          std::string("--device"), std::to_string(a_.device), std::string("--host-memory"), a_.host_memory, std::string("--json"),
          json.string()})
      argv.push_back(s);
    for (const std::string& o : a_.options) {
      argv.push_back("--option");
      argv.push_back(o);
    }
    ToolRun run;
    run.argv = argv;
    run.stdout_file = work_ / "stdout.txt";
    run.stderr_file = work_ / "stderr.txt";
    run.timeout_s = 3600;
    const auto t0 = Clock::now();
    const ToolExit exit = run_tool(run);
    const double ms = ms_since(t0);
    if (exit.interrupted_by != 0) throw Interrupted{exit.interrupted_by};
    if (exit.status != 0 || exit.timed_out)
      return fmt::format("`{}` {}: {}", shell_words(argv),
                         exit.timed_out ? std::string("timed out") : fmt::format("exited {}", exit.status),
                         exit.start_error.empty() ? file_tail(run.stderr_file, 400) : exit.start_error);
    return ms;
  }

 private:
  const BenchArgs& a_;
  const ClipSpec& clip_;
  const std::optional<ClipSpec>& distorted_;
  const fs::path prefix_, distorted_prefix_;
  const unsigned prefix_frames_, frames_;
  const Format format_;
  const OptionList options_;
  const unsigned threads_;
  const fs::path work_;
  const fs::path self_;
};

constexpr unsigned kPrefixFrames = 2;

// What --from-file compares, resolved in the order a user's mistakes are reported.
struct FilePlan {
  const FeatureDescriptor* feature = nullptr;
  const Backend* reference = nullptr;
  double startup_ms = 0;  // 0: no device to start
  std::vector<const Backend*> chosen;
  Calibration table;
  std::optional<BenchRun> old_run;
  unsigned threads = 0;
  ClipSpec clip;
  std::optional<ClipSpec> distorted;
  Format format;
  OptionList options;
  int planes = 0;  // the planes `score` reads for this configuration; the read bound reads the same
};

FilePlan plan_file_bench(const BenchArgs& a) {
  if (a.reps < 1) throw UsageError("--reps", std::to_string(a.reps), "--reps: at least 1");
  pinned_host_memory(a.host_memory);  // checked before anything is timed
  FilePlan p;
  p.feature = &feature_or_throw(a.feature);
  p.reference = &backend_or_throw(a.feature, std::string(p.feature->reference));
  // The device is started first, before anything else here touches it: what a fresh process pays.
  bool any_gpu = false;
  if (a.backends.empty()) {
    for (const Backend* b : backends()) any_gpu = any_gpu || (b->feature == a.feature && b->gpu());
  } else {
    for (const std::string& name : split_list(a.backends)) any_gpu = any_gpu || backend_or_throw(a.feature, name).gpu();
  }
  p.startup_ms = any_gpu ? measure_device_startup(a.device).value_or(0.0) : 0.0;
  p.chosen = bench_backends(a);
  p.table = Calibration::load(a.calibration.empty() ? data_root() / "ci" / "calibration.json" : fs::path(a.calibration));
  if (!a.compare.empty()) p.old_run = load_bench_run(a.compare);
  p.threads = checked_threads(a.threads);
  p.clip = input_of(a);
  p.distorted = distorted_of(a, p.clip);
  p.format = open_clip(p.clip)->format();
  if (p.distorted) (void)open_clip(*p.distorted);  // opened once here: an input of the run from now on
  // The JSON report never lands on a clip it times (checked now, not after minutes of timing).
  if (!a.json.empty()) refuse_output_onto_input(a.json, "--json");
  p.options = parse_option_flags(a.options);
  const auto ex = p.reference->make(ExtractorContext{});
  ex->init(p.format, p.options);
  p.planes = ex->planes_read();
  return p;
}

// The read bound of each count of readers the backends use: the file read through by this
// process, in the page cache after the first read.
struct ReadBounds {
  unsigned frames = 0;
  std::map<unsigned, std::vector<double>> read_ms;  // by readers
  double file_bytes = 0, read_bytes = 0;
};

ReadBounds measure_read_bounds(const BenchArgs& a, const FilePlan& p) {
  ReadBounds rb;
  read_all(p.clip, p.distorted, 1, p.planes, rb.frames);
  if (rb.frames < 3)
    throw InputError(p.clip.path, "frames", std::to_string(rb.frames), "bench --from-file needs at least 3 frames");
  for (const Backend* b : p.chosen) rb.read_ms.emplace(resolve_readers(a.readers, *b, p.threads), std::vector<double>{});
  for (unsigned r = 0; r < a.reps; ++r)
    for (auto& [readers, reps] : rb.read_ms) reps.push_back(read_all(p.clip, p.distorted, readers, p.planes, rb.frames));
  const double clips = p.distorted ? 2 : 1;
  rb.file_bytes = static_cast<double>(frame_bytes(p.format, p.clip.path)) * rb.frames * clips;
  Frame shape;
  shape.reset(p.format);
  shape.read_leading_planes(p.planes);
  rb.read_bytes = static_cast<double>(shape.read_size()) * rb.frames * clips;
  return rb;
}

// One timed run of a backend: its program alone where it can be, else a whole `score` process.
std::variant<double, std::string> run_timed(const ScoreProcesses& processes, const fs::path& work, Timings& t, bool prefix,
                                            ScoreTable* scores) {
  ScoreTable ignored;
  if (auto alone = processes.run_program(*t.b, prefix, scores ? *scores : ignored)) {
    t.program_alone = true;
    return *alone;
  }
  const fs::path json = work / fmt::format("{}.json", t.b->name);
  auto ran = processes.run(*t.b, prefix, json);
  if (scores != nullptr && std::holds_alternative<double>(ran))
    *scores = table_of(read_score_file(json.string(), ScoreFileFormat::libvmaf_json));
  return ran;
}

// Each backend's warm-up run, its scores judged against the reference's.
std::vector<Timings> judge_backends(const BenchArgs& a, const FilePlan& p, const ScoreProcesses& processes, const fs::path& work,
                                    const ScoreTable& expected, unsigned frames) {
  std::vector<Timings> rows;
  for (const Backend* b : p.chosen) {
    Timings t;
    t.b = b;
    ScoreTable scores;
    const auto warm = run_timed(processes, work, t, false, &scores);
    if (const auto* why = std::get_if<std::string>(&warm)) {
      t.refused = *why;
    } else {
      scores.set_frames(0, frames);
      const Judgement j = judge_scores(p.table, *p.reference, *b, a.device, p.format, p.options, expected, scores);
      if (j.fails_row && t.program_alone) t.fails_row = j.why;
      else if (j.refused) t.refused = j.why;
      t.judged = t.fails_row ? "FAILS: " + j.judged : j.judged;
    }
    rows.push_back(std::move(t));
  }
  return rows;
}

// Repetitions interleave the backends, so that a slow spell of the host falls on all of them,
// and each repetition starts one backend further on (A B, B A, A B, ...), so that each one's
// runs follow every backend's, its own included, equally often. A process pays for what the
// one before it left: on the 2-core VM, a `score` right after an exec twin's program that had
// freed hundreds of MB took 70 to 100 ms, against 72 to 78 back to back.
void time_rounds(const BenchArgs& a, const ScoreProcesses& processes, const fs::path& work, std::vector<Timings>& rows) {
  for (unsigned r = 0; r < a.reps; ++r)
    for (std::size_t k = 0; k < rows.size(); ++k) {
      Timings& t = rows[(k + r) % rows.size()];
      if (t.refused) continue;
      for (const bool is_prefix : {false, true}) {
        const auto ran = run_timed(processes, work, t, is_prefix, nullptr);
        if (const auto* why = std::get_if<std::string>(&ran)) {
          t.refused = *why;
          break;
        }
        (is_prefix ? t.prefix_ms : t.whole_ms).push_back(std::get<double>(ran));
      }
    }
}

std::string readers_text(const BenchArgs& a) {
  return a.readers > 0 ? fmt::format("{} reader(s)", a.readers) : "each backend's readers";
}

// The heading, the read bounds and the device's start-up; returns the read bounds' JSON.
nlohmann::json print_file_heading(const BenchArgs& a, const FilePlan& p, const ReadBounds& rb) {
  std::string option_text;
  for (const std::string& o : a.options) option_text += " " + o;
  const std::string pair_text = p.distorted ? fmt::format(" against the distorted clip {}", escape_control(p.distorted->path))
                                : p.feature->reads_distorted ? std::string(" (as both clips of each pair: no --distorted)")
                                                             : std::string();
  fmt::print(
      "{} from {}{}: {}, {} frames ({:.0f} MB){}; {} into {} memory, CPU backends on {}; median of {} whole "
      "processes each (`twinproof score`, or an exec twin's program) after a warm-up, the backends in turn from a "
      "different one each round, the file in the page cache\n",
      p.feature->name, escape_control(p.clip.path), pair_text, describe(p.format), rb.frames, rb.file_bytes / 1e6,
      option_text.empty() ? std::string() : ", options" + option_text, readers_text(a), a.host_memory,
      p.threads == 0 ? std::string("every hardware thread") : fmt::format("{} thread(s)", p.threads), a.reps);
  nlohmann::json read_bounds = nlohmann::json::array();
  for (const auto& [readers, reps] : rb.read_ms) {
    const double bound = median(reps);
    fmt::print(
        "read bound: {:.1f} ms ({:.3f} ms/frame, {:.2f} GB/s) to read {} with {} reader(s) in this process{}\n", bound,
        bound / rb.frames, rb.read_bytes / (bound * 1e6), p.distorted ? "both files" : "the file", readers,
        rb.read_bytes < rb.file_bytes ? fmt::format(", {:.0f} MB of it: the planes the feature reads", rb.read_bytes / 1e6) : "");
    read_bounds.push_back({{"readers", readers}, {"read_ms", bound}, {"rep_read_ms", reps}});
  }
  if (p.startup_ms > 0)
    fmt::print("device start-up: {:.1f} ms (driver initialisation and context creation, device {})\n", p.startup_ms, a.device);
  return read_bounds;
}

// A timed backend's line of the table and its JSON.
nlohmann::json print_file_row(const BenchArgs& a, const FilePlan& p, const ReadBounds& rb, const Timings& t) {
  const unsigned frames = rb.frames;
  const double whole = median(t.whole_ms), prefix_whole = median(t.prefix_ms);
  const double per_frame = (whole - prefix_whole) / (frames - kPrefixFrames);
  const double fixed = prefix_whole - kPrefixFrames * per_frame;
  // What cannot be avoided: reading with the same readers, and for a device twin starting the device.
  const unsigned readers = resolve_readers(a.readers, *t.b, p.threads);
  const double read_ms = median(rb.read_ms.at(readers));
  const double bound = read_ms + (t.b->gpu() ? p.startup_ms : 0.0);
  const auto [lo, hi] = std::minmax_element(t.whole_ms.begin(), t.whole_ms.end());
  const double spread = (*hi - *lo) / whole;
  fmt::print("{:<16} {:>10.1f} {:>10.1f} {:>10.3f} {:>9.1f} {:>7} {:>8.2f} {:>8.1f}%  {}\n", t.b->name, whole, fixed, per_frame,
             1e3 * frames / whole, t.program_alone ? std::string("-") : std::to_string(readers), whole / bound, 100 * spread,
             t.judged);
  std::vector<double> rep_per_frame;
  for (const double ms : t.whole_ms) rep_per_frame.push_back(ms / frames);
  return {{"backend", t.b->name},
          {"ms_per_frame", whole / frames},
          {"rep_ms_per_frame", rep_per_frame},
          {"spread", spread},
          {"device_ms_per_frame", nullptr},
          {"whole_ms", whole},
          {"rep_whole_ms", t.whole_ms},
          {"prefix_ms", prefix_whole},
          {"rep_prefix_ms", t.prefix_ms},
          {"fixed_ms", fixed},
          {"marginal_ms_per_frame", per_frame},
          {"readers", t.program_alone ? nlohmann::json(nullptr) : nlohmann::json(readers)},
          {"read_ms", read_ms},
          {"bound_ms", bound},
          {"x_bound", whole / bound},
          {"timed", t.program_alone ? "its program alone, on the file itself" : "whole twinproof score processes"},
          {"judged", t.judged},
          {"fails_row", t.fails_row ? nlohmann::json(*t.fails_row) : nlohmann::json(nullptr)}};
}

// The table: a line per backend, the notes under it and the speed-ups; kExitFail when a backend
// was refused or fails its row. Fills the size's JSON.
int print_file_table(const BenchArgs& a, const FilePlan& p, const ReadBounds& rb, const std::vector<Timings>& rows,
                     nlohmann::json& size_report) {
  fmt::print("{:<16} {:>10} {:>10} {:>10} {:>9} {:>7} {:>8} {:>9}  {}\n", "backend", "whole ms", "fixed ms", "ms/frame", "fps",
             "readers", "x bound", "spread", "judged against " + std::string(p.feature->reference));
  int rc = kExitPass;
  std::vector<std::pair<std::string, double>> whole_times;  // the speed-up table's, of the timed backends
  for (const Timings& t : rows) {
    if (t.refused) {
      rc = kExitFail;
      fmt::print("{:<16} REFUSED: {}\n", t.b->name, *t.refused);
      size_report["backends"].push_back({{"backend", t.b->name}, {"refused", *t.refused}});
      continue;
    }
    whole_times.emplace_back(std::string(t.b->name), median(t.whole_ms));
    size_report["backends"].push_back(print_file_row(a, p, rb, t));
  }
  for (const Timings& t : rows) {
    if (t.program_alone && !t.refused)
      fmt::print("{}: its program alone, reading the file itself ({}), not a `twinproof score` process\n", t.b->name,
                 t.b->origin);
    if (t.fails_row && !t.refused) {
      rc = kExitFail;
      fmt::print("{}: timed, but it {}\n", t.b->name, *t.fails_row);
    }
  }
  print_speedups("whole run", whole_times);
  return rc;
}

nlohmann::json file_setup_json(const BenchArgs& a, const FilePlan& p, unsigned frames) {
  nlohmann::json option_map = nlohmann::json::object();
  for (const auto& [k, v] : p.options) option_map[k] = v;
  return {{"feature", a.feature},
          {"file", p.clip.path},
          {"distorted", p.distorted ? nlohmann::json(p.distorted->path) : nlohmann::json(nullptr)},
          {"format", describe(p.format)},
          {"bitdepth", p.format.bitdepth},
          {"chroma", std::string(to_string(p.format.chroma))},
          {"frames", frames},
          {"reps", a.reps},
          {"host_memory", fmt::format("from file, {}, {}", readers_text(a), a.host_memory)},
          {"options", option_map},
          {"threads", p.threads},
          {"device", a.device}};
}

}  // namespace

int run_bench_from_file(const BenchArgs& a) {
  const FilePlan p = plan_file_bench(a);
  const ReadBounds rb = measure_read_bounds(a, p);
  WorkFolder work;
  const fs::path prefix = work.path() / (p.clip.width ? "prefix.yuv" : "prefix.y4m");
  write_prefix(p.clip, kPrefixFrames, prefix);
  const fs::path distorted_prefix = work.path() / (p.clip.width ? "prefix-distorted.yuv" : "prefix-distorted.y4m");
  if (p.distorted) write_prefix(*p.distorted, kPrefixFrames, distorted_prefix);
  const ScoreProcesses processes(a, p.clip, p.distorted, prefix, distorted_prefix, kPrefixFrames, rb.frames, p.format, p.threads,
                                 work.path());
  // The reference's scores, from a process of its own, judge every backend's.
  const auto expected_run = processes.run(*p.reference, false, work.path() / "reference.json");
  if (const auto* why = std::get_if<std::string>(&expected_run))
    throw InputError(p.clip.path, "reference", std::string(p.reference->name), "the reference could not score the file: " + *why);
  const ScoreTable expected = table_of(read_score_file((work.path() / "reference.json").string(), ScoreFileFormat::libvmaf_json));
  std::vector<Timings> rows = judge_backends(a, p, processes, work.path(), expected, rb.frames);
  time_rounds(a, processes, work.path(), rows);

  nlohmann::json size_report = {
      {"size", fmt::format("file {} {}", fs::path(p.clip.path).filename().string(), describe(p.format))},
      {"frames", rb.frames},
      {"reps", a.reps},
      {"read_bounds", print_file_heading(a, p, rb)},
      {"read_bytes", rb.read_bytes},
      {"device_startup_ms", p.startup_ms > 0 ? nlohmann::json(p.startup_ms) : nlohmann::json(nullptr)},
      {"backends", nlohmann::json::array()}};
  int rc = print_file_table(a, p, rb, rows, size_report);
  const nlohmann::json report = {{"environment", environment_fingerprint()},
                                 {"setup", file_setup_json(a, p, rb.frames)},
                                 {"sizes", nlohmann::json::array({size_report})}};
  if (!a.json.empty()) write_file(a.json, json_text(report, 2) + "\n", "the JSON output");
  if (p.old_run) {
    const int compared = print_comparison(*p.old_run, bench_run_from_json(report, "this run"));
    if (rc == kExitPass) rc = compared;
  }
  return rc;
}

}  // namespace twinproof
