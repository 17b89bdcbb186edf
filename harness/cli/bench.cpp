// twinproof bench: backends side by side over the same frames, every result checked bit for bit
// against the reference before it is timed.
#include <algorithm>
#include <chrono>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "harness/cli/commands.hpp"
#include "harness/errors.hpp"
#include "harness/scores.hpp"
#include "harness/vectors/vectors.hpp"

namespace twinproof::cli {
namespace {

struct BenchArgs {
  std::string feature = "float_motion";
  std::string backends;  // default: every available backend
  std::string sizes = "576x324,1920x1080,3840x2160";
  unsigned frames = 8;
  unsigned reps = 5;
  int bitdepth = 8;
  std::string chroma = "420";
  std::vector<std::string> options;
  std::string json;
  int device = 0;
};

struct Size {
  int w, h;
};

Size parse_size(const std::string& s) {
  const auto x = s.find('x');
  try {
    if (x != std::string::npos) return {std::stoi(s.substr(0, x)), std::stoi(s.substr(x + 1))};
  } catch (const std::exception&) {
  }
  throw ConfigError("--sizes", s, fmt::format("--sizes: '{}' is not WxH", s));
}

// N frames of a panning texture at the requested size, held in memory so that input I/O stays
// out of the timing.
class MemorySource final : public FrameSource {
 public:
  MemorySource(const std::vector<Frame>& frames, std::string name) : frames_(frames), name_(std::move(name)) {}
  const Format& format() const override { return frames_.front().format(); }
  const std::string& name() const override { return name_; }
  bool next(Frame& f) override {
    if (i_ >= frames_.size()) return false;
    f = frames_[i_++];
    return true;
  }

 private:
  const std::vector<Frame>& frames_;
  std::string name_;
  std::size_t i_ = 0;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int run_bench(const BenchArgs& a) {
  const OptionList options = parse_option_flags(a.options);
  std::vector<const Backend*> chosen;
  const Backend& reference = backend_or_throw(a.feature, "cpu");
  if (a.backends.empty()) {
    for (const Backend* b : backends())
      if (b->feature == a.feature && b->availability().available) chosen.push_back(b);
  } else {
    for (const std::string& name : split_list(a.backends)) chosen.push_back(&backend_or_throw(a.feature, name));
  }
  if (a.frames < 2) throw ConfigError("--frames", std::to_string(a.frames), "--frames: at least 2 frames (one pair)");
  if (a.reps < 1) throw ConfigError("--reps", std::to_string(a.reps), "--reps: at least 1");
  const auto chroma = parse_chroma(a.chroma);
  if (!chroma) throw ConfigError("--chroma", a.chroma, "--chroma: 400, 420, 422 or 444");

  nlohmann::json report = nlohmann::json::array();
  int rc = kExitPass;
  for (const std::string& size_text : split_list(a.sizes)) {
    const Size size = parse_size(size_text);
    VectorSpec spec;
    spec.id = fmt::format("bench-pan-{}x{}", size.w, size.h);
    spec.recipe = "pan";
    spec.fmt = {size.w, size.h, a.bitdepth, *chroma};
    spec.frames = a.frames;
    spec.params = {{"seed", 2026}, {"dx", 2}, {"dy", 1}};
    validate_format(spec.fmt, "--sizes");
    std::vector<Frame> frames;
    {
      auto gen = generate(spec);
      Frame f;
      while (gen->next(f)) frames.push_back(f);
    }
    const auto run_once = [&](const Backend& b, ScoreTable* out) {
      ExtractorContext ctx;
      ctx.device = a.device;
      auto ex = make_extractor(b, ctx);
      MemorySource src(frames, spec.id);
      const auto t0 = std::chrono::steady_clock::now();
      ScoreTable t = run_extractor(*ex, src, options);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (out) *out = std::move(t);
      return s;
    };
    ScoreTable expected;
    run_once(reference, &expected);

    struct Row {
      const Backend* b = nullptr;
      double median_ms = 0, min_ms = 0;
      bool refused = false;
      std::string why;
    };
    std::vector<Row> rows;
    for (const Backend* b : chosen) {
      Row r;
      r.b = b;
      ScoreTable got;
      try {
        run_once(*b, &got);  // warm-up, and the bit check
        const TableComparison cmp = compare_tables(expected, got, Tolerance::exact());
        if (!cmp.pass) {
          r.refused = true;
          r.why = "not exact against cpu: " + cmp.summary();
        }
      } catch (const ConfigError& e) {
        r.refused = true;
        r.why = e.what();
      }
      if (!r.refused) {
        std::vector<double> per_frame;
        for (unsigned i = 0; i < a.reps; ++i) per_frame.push_back(1e3 * run_once(*b, nullptr) / frames.size());
        r.median_ms = median(per_frame);
        r.min_ms = *std::min_element(per_frame.begin(), per_frame.end());
      } else {
        rc = kExitFail;
      }
      rows.push_back(r);
    }

    fmt::print("\n{}x{} {}-bit {}, {} frames, {} reps, median of end-to-end time per frame\n", size.w, size.h,
               a.bitdepth, a.chroma, frames.size(), a.reps);
    std::string head = fmt::format("{:<16} {:>10} {:>10} {:>9}", "backend", "ms/frame", "min ms", "fps");
    for (const Row& r : rows) head += fmt::format(" {:>10}", "x " + std::string(r.b->name));
    fmt::print("{}\n", head);
    for (const Row& r : rows) {
      if (r.refused) {
        fmt::print("{:<16} REFUSED: {}\n", r.b->name, r.why);
        continue;
      }
      std::string line = fmt::format("{:<16} {:>10.3f} {:>10.3f} {:>9.1f}", r.b->name, r.median_ms, r.min_ms, 1e3 / r.median_ms);
      // Speed-up of this backend over each other one: other's time / this time.
      for (const Row& o : rows) line += o.refused ? fmt::format(" {:>10}", "-") : fmt::format(" {:>10.2f}", o.median_ms / r.median_ms);
      fmt::print("{}\n", line);
      report.push_back({{"size", fmt::format("{}x{}", size.w, size.h)},
                        {"backend", r.b->name},
                        {"frames", frames.size()},
                        {"reps", a.reps},
                        {"median_ms_per_frame", r.median_ms},
                        {"min_ms_per_frame", r.min_ms}});
    }
  }
  if (!a.json.empty()) {
    std::ofstream out(a.json);
    if (!(out << report.dump(2) << "\n")) throw InputError(a.json, "file", a.json, "cannot write the JSON output");
  }
  return rc;
}

}  // namespace

void add_bench(CLI::App& app, int& rc) {
  auto a = std::make_shared<BenchArgs>();
  CLI::App* sub = app.add_subcommand("bench", "Time backends side by side; every twin is checked bit for bit against cpu first");
  sub->add_option("--feature", a->feature, "Feature")->capture_default_str();
  sub->add_option("--backends", a->backends, "Comma-separated backends (default: every available one)");
  sub->add_option("--sizes", a->sizes, "Comma-separated WxH")->capture_default_str();
  sub->add_option("--frames", a->frames, "Frames per run")->capture_default_str();
  sub->add_option("--reps", a->reps, "Timed repetitions (the median is reported)")->capture_default_str();
  sub->add_option("--bitdepth", a->bitdepth, "Bit depth of the generated frames")->capture_default_str();
  sub->add_option("--chroma", a->chroma, "Chroma format of the generated frames")->capture_default_str();
  sub->add_option("--option,-o", a->options, "NAME=VALUE (repeatable)");
  sub->add_option("--json", a->json, "Write the results as JSON");
  sub->add_option("--device", a->device, "GPU ordinal")->capture_default_str();
  sub->callback([a, &rc] { rc = run_bench(*a); });
}

}  // namespace twinproof::cli
