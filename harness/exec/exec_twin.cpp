// An exec twin: an Extractor whose frames are written to a file that an external program scores.
// init checks what the program can take (bit depth, chroma, options) and opens the file; extract
// appends frames; flush runs the program, reads its score file and emits the scores under the
// frames' labels. Every way that can go wrong is a fault with the program's words, never a pass.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include "extractors/feature.hpp"
#include "harness/exec/twins_file.hpp"
#include "harness/io/frame.hpp"
#include "harness/support/errors.hpp"
#include "harness/support/faults.hpp"
#include "harness/support/interrupt.hpp"
#include "harness/support/json_file.hpp"
#include "harness/support/process.hpp"
#include "harness/support/sha256.hpp"

namespace twinproof {
namespace fs = std::filesystem;

namespace {

// ffmpeg's name of a raw layout: what a program reading the raw file needs to be told.
std::string pixfmt(const Format& f) {
  const std::string depth = f.bitdepth == 8 ? "" : fmt::format("{}le", f.bitdepth);
  if (f.chroma == Chroma::c400) return f.bitdepth == 8 ? "gray" : "gray" + depth;
  return fmt::format("yuv{}p{}", to_string(f.chroma), depth);
}

// Where the program is, or why it cannot be found.
struct Located {
  fs::path path;
  std::string why_not;
};

Located locate(const ExecTwinSpec& s) {
  const auto missing = [&](std::string why) {
    if (!s.missing_hint.empty()) why += "; " + s.missing_hint;
    return Located{{}, why};
  };
  switch (s.locate) {
    case ExecTwinSpec::Locate::self: {
      std::error_code ec;
      const fs::path self = fs::read_symlink("/proc/self/exe", ec);
      if (ec) return missing("cannot find this twinproof's executable: " + ec.message());
      return {self, {}};
    }
    case ExecTwinSpec::Locate::program: {
      const fs::path found = find_program(s.locate_value);
      if (found.empty()) return missing(s.locate_value + " is not in PATH");
      // A folder is executable as far as access(2) says, and a device or FIFO may be: a program
      // is a regular file that may be run.
      std::error_code ec;
      if (!fs::is_regular_file(found, ec) || ::access(found.c_str(), X_OK) != 0)
        return missing(fmt::format("{}: not an executable file", escape_control(found.string())));
      return {found, {}};
    }
    case ExecTwinSpec::Locate::env: {
      const char* value = std::getenv(s.locate_value.c_str());
      if (value == nullptr || *value == '\0') return missing(s.locate_value + " is not set");
      const fs::path p(value);
      if (!fs::is_regular_file(p) || ::access(p.c_str(), X_OK) != 0)
        return missing(fmt::format("{}={}: not an executable file", s.locate_value, escape_control(value)));
      return {fs::absolute(p), {}};
    }
  }
  return missing("?");
}

// What identifies a program in a record, computed once per executable and process.
struct Identity {
  std::string sha256, version;
};
std::mutex identities_mu;
std::map<std::string, Identity>& identities() {
  static std::map<std::string, Identity> m;
  return m;
}

// The first line of what a program printed (its version), control characters escaped: at most
// its first 4000 bytes are read (a program may print without end), and the newline is found
// before anything is escaped.
std::string first_line(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string line(4000, '\0');
  in.read(line.data(), static_cast<std::streamsize>(line.size()));
  line.resize(static_cast<std::size_t>(in.gcount()));
  if (const auto nl = line.find('\n'); nl != std::string::npos) line.resize(nl);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return escape_control(line);
}

std::atomic<bool> keep_work_folders{false};

class ExecTwin final : public Extractor {
 public:
  ExecTwin(std::shared_ptr<const ExecTwinSpec> spec, const FeatureDescriptor& feature, const ExtractorContext& ctx)
      : spec_(std::move(spec)), feature_(feature), ctx_(ctx) {}

  ~ExecTwin() override {
    std::error_code ec;
    if (!dir_.empty() && !keep_dir_) fs::remove_all(dir_, ec);
  }

  // Before init, for a twin whose program reads raw frames: the program is to read `file` itself
  // (and `distorted` as a pair's distorted clip; empty: `file` is both), raw files holding
  // exactly `frames` frames of the format init will be given, instead of copies that extract
  // would write (no extract).
  void hand_over(const fs::path& file, const fs::path& distorted, unsigned frames) {
    handed_over_ = fs::absolute(file);
    handed_over_distorted_ = distorted.empty() ? handed_over_ : fs::absolute(distorted);
    frames_ = frames;
  }

  // The wall time of the program's last run, its whole process: what bench reports for it.
  double program_ms() const { return program_ms_; }

  void init(const Format& fmt, const OptionList& options) override {
    const ExecTwinSpec& s = *spec_;
    const auto reason = [&](const std::string& what) {
      return fmt::format("{} ({}) does not take {}{}", s.name, s.file, what,
                         s.unsupported_reason.empty() ? "" : ": " + s.unsupported_reason);
    };
    if (std::find(s.bitdepths.begin(), s.bitdepths.end(), fmt.bitdepth) == s.bitdepths.end())
      throw BackendUnavailable("bitdepth", std::to_string(fmt.bitdepth), reason(fmt::format("{}-bit input", fmt.bitdepth)));
    if (std::find(s.chroma.begin(), s.chroma.end(), fmt.chroma) == s.chroma.end())
      throw BackendUnavailable("chroma", std::string(to_string(fmt.chroma)),
                               reason(fmt::format("{} input", to_string(fmt.chroma))));
    // A command without {distorted} hands its program one clip; a feature that scores the
    // distorted clip against the reference cannot be run through it.
    if (feature_.reads_distorted && !s.takes_pair)
      throw BackendUnavailable(
          "feature", std::string(feature_.name),
          reason(fmt::format("a pair of clips ({} reads the distorted clip too; its command names no {{distorted}})",
                             feature_.name)));
    if (s.options == ExecTwinSpec::Options::none && !options.empty())
      throw BackendUnavailable("option", options.front().first, reason(fmt::format("options ({} given)", options.front().first)));
    const Located where = locate(s);
    if (where.path.empty()) throw BackendUnavailable("twin", s.name, where.why_not);
    exe_ = where.path;
    fmt_ = fmt;
    options_ = options;
    // The program runs in a folder of its own: an option that names a file by a relative path (a
    // model's m.json) is handed over as the same file's absolute path.
    for (auto& [name, value] : options_) {
      const OptionSpec* spec = find_option(feature_.options, name);
      std::error_code ec;
      if (spec != nullptr && spec->names_file && fs::path(value).is_relative() && fs::is_regular_file(value, ec))
        value = fs::absolute(value, ec).string();
    }
    // The reference's metrics for these options: what the program's output must hold. When the
    // reference refuses them, the program is still run (its refusal is what the cell checks).
    try {
      auto reference = make_extractor(*find_backend(feature_.name, feature_.reference), {});
      reference->init(fmt, options);
      for (const std::string& m : reference->metrics())
        if (asked(m)) metrics_.push_back(m);
    } catch (const ConfigError&) {
      // The program is asked for every metric the feature has, so that it is invoked as for any
      // configuration and its own refusal (or its scores) is what the cell sees.
      reference_refuses_ = true;
      for (std::string_view m : feature_.metrics)
        if (asked(std::string(m))) metrics_.emplace_back(m);
    }
    // A fresh folder per instance (TMPDIR, else /tmp), removed with it.
    std::string folder = (fs::temp_directory_path() / "twinproof-exec-XXXXXX").string();
    if (::mkdtemp(folder.data()) == nullptr)
      throw InputError(folder, "folder", folder, "cannot create the exec twin's work folder");
    dir_ = folder;
    keep_dir_ = keep_work_folders.load();
    if (!handed_over_.empty()) {  // a raw file: run_exec_twin_on_file hands over only to twins reading raw frames
      input_ = handed_over_;
      distorted_ = handed_over_distorted_;
      return;
    }
    const char* ext = s.input == ExecTwinSpec::Input::y4m ? ".y4m" : ".yuv";
    const auto writer = [&](const fs::path& p) {
      return s.input == ExecTwinSpec::Input::y4m ? create_y4m_writer(p.string(), fmt) : create_raw_writer(p.string());
    };
    input_ = dir_ / (std::string(s.takes_pair ? "reference" : "input") + ext);
    writer_ = writer(input_);
    // A pair's distorted clip is a file of its own only where the feature reads it; otherwise (the
    // motion features) the program is handed the reference as both, and it is written once.
    distorted_ = input_;
    if (s.takes_pair && feature_.reads_distorted) {
      distorted_ = dir_ / (std::string("distorted") + ext);
      distorted_writer_ = writer(distorted_);
    }
    frame_.reset(fmt);
  }

  void extract(const PictureView& pic, const PictureView& dist, unsigned frame, ScoreSink&) override {
    if (!handed_over_.empty()) throw std::logic_error("exec twin: frames given to a twin that reads its file itself");
    if (frames_ == 0) first_label_ = frame;
    write_picture(pic, *writer_);
    if (distorted_writer_) write_picture(dist, *distorted_writer_);
    ++frames_;
  }

  void flush(ScoreSink& sink) override {
    const ExecTwinSpec& s = *spec_;
    if (writer_) writer_->close();
    if (distorted_writer_) distorted_writer_->close();
    const fs::path output =
        dir_ / fmt::format("scores.{}", s.output == ScoreFileFormat::ffmpeg_vmafmotion ? "txt" : to_string(s.output));
    argv_ = expand(s.command_of(feature_.name), output);
    identify();
    ToolRun run;
    run.argv = argv_;
    run.cwd = dir_;
    run.stdout_file = s.output_on_stdout ? output : dir_ / "stdout.txt";
    run.stderr_file = dir_ / "stderr.txt";
    run.timeout_s = s.timeout_s;
    const auto started = std::chrono::steady_clock::now();
    // The cell's own limit, where it comes first: the program is stopped then, not when the twins
    // file's timeout would stop it.
    bool cell_limit = false;
    if (ctx_.deadline != std::chrono::steady_clock::time_point{}) {
      const double left = std::max(std::chrono::duration<double>(ctx_.deadline - started).count(), 0.001);
      cell_limit = s.timeout_s <= 0 || left < s.timeout_s;
      if (cell_limit) run.timeout_s = left;
    }
    const ToolExit done = run_tool(run);
    program_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    if (done.interrupted_by) throw Interrupted{done.interrupted_by};
    if (done.timed_out)
      throw TimeoutError(
          cell_limit ? fmt::format("{} was stopped at the cell's time limit, after {:.1f} s: {}", s.name, run.timeout_s,
                                   shell_words(argv_))
                     : fmt::format("{} ran past its timeout of {} s ({}): {}", s.name, s.timeout_s, s.file, shell_words(argv_)));
    if (!done.start_error.empty()) throw ToolFailed(done.status, fmt::format("{} could not start: {}", s.name, done.start_error));
    if (done.status != 0) {
      std::string said = file_tail(run.stderr_file);
      if (said.empty()) said = file_tail(dir_ / "stdout.txt");
      if (done.status == s.unsupported_exit)
        throw BackendUnavailable("twin", s.name,
                                 fmt::format("{} cannot run here: {}", s.name, said.empty() ? "(it printed nothing)" : said));
      // A program killed by a signal crashed or was aborted, and a status from 126 to 192 is a
      // shell's word for the same (126/127: could not run, 128 + N: killed by signal N): never a
      // refusal, whatever the twins file lists. Above that is a program's own status (exit(-1)
      // is 255): a refusal only where the twins file lists it.
      const bool crashed = done.signal != 0 || (done.status >= 126 && done.status <= 192);
      const bool listed = std::find(s.refusal_exits.begin(), s.refusal_exits.end(), done.status) != s.refusal_exits.end();
      const bool may_refuse = !crashed && (listed || (s.refusal_exits.empty() && done.status <= 125));
      const std::string how = done.signal != 0
                                  ? fmt::format("was killed by signal {} ({}; exit status {}), a crash and never a refusal",
                                                done.signal, ::strsignal(done.signal), done.status)
                              : crashed ? fmt::format(
                                              "exited with status {} (a shell's report of a crash or of a program that "
                                              "could not run, never a refusal)",
                                              done.status)
                                        : fmt::format("exited with status {}", done.status);
      throw ToolFailed(done.status,
                       fmt::format("{} {}: {}{}", s.name, how, shell_words(argv_),
                                   said.empty() ? " (it printed nothing)" : "; it said: " + said),
                       may_refuse);
    }
    if (!s.unsupported_if_said.empty())
      for (const fs::path& said : {run.stderr_file, run.stdout_file}) {
        const std::string text = read_text_file(said, s.name + "'s output");
        if (const auto at = text.find(s.unsupported_if_said); at != std::string::npos) {
          const auto line_start = text.rfind('\n', at);
          const auto line_end = text.find('\n', at);
          const std::size_t from = line_start == std::string::npos ? 0 : line_start + 1;
          throw BackendUnavailable(
              "twin", s.name,
              fmt::format("{} exited 0 but said '{}': it did not run as the twin it is declared as ({})", s.name,
                          escape_control(text.substr(from, line_end == std::string::npos ? std::string::npos : line_end - from)),
                          s.file));
        }
      }
    emit(read_score_file(output.string(), s.output), output.string(), sink);
  }

  std::vector<std::string> metrics() const override { return metrics_; }

  std::optional<std::vector<std::string>> judged_metrics() const override {
    if (keys().keys != ExecTwinSpec::Keys::map && !spec_->provided_metrics.contains(feature_.name)) return std::nullopt;
    return metrics_;
  }

  std::vector<std::pair<std::string, std::string>> provenance() const override {
    std::vector<std::pair<std::string, std::string>> out = {{"twins_file", spec_->file}, {"executable", exe_.string()}};
    if (!argv_.empty()) out.emplace_back("command", shell_words(argv_));
    if (!identity_.sha256.empty()) out.emplace_back("sha256", identity_.sha256);
    if (!identity_.version.empty()) out.emplace_back("version", identity_.version);
    if (keep_dir_) out.emplace_back("work_folder", dir_.string());
    return out;
  }

 private:
  // How the program names this feature's scores.
  const ExecTwinSpec::MetricKeys& keys() const { return spec_->keys_of(feature_.name); }

  bool mapped(const std::string& metric) const {
    for (const auto& [key, m] : keys().key_map)
      if (m == metric) return true;
    return false;
  }
  // Whether the program is asked for (and judged on) a metric: one it emits, under a key it has.
  bool asked(const std::string& metric) const {
    return (keys().keys != ExecTwinSpec::Keys::map || mapped(metric)) && spec_->provides(feature_.name, metric);
  }

  // The program's key for each metric of this configuration.
  std::vector<std::pair<std::string, std::string>> metric_keys() const {
    std::vector<std::pair<std::string, std::string>> out;  // (key, metric)
    switch (keys().keys) {
      case ExecTwinSpec::Keys::twinproof:
        for (const std::string& m : metrics_) out.emplace_back(m, m);
        break;
      case ExecTwinSpec::Keys::libvmaf:
      case ExecTwinSpec::Keys::libvmaf_collector: {
        const LibvmafKey which = keys().keys == ExecTwinSpec::Keys::libvmaf ? LibvmafKey::output : LibvmafKey::collector;
        OptionList naming;  // the options the program's keys carry
        for (const auto& option : options_)
          if (spec_->names_scores_by(feature_.name, option.first)) naming.push_back(option);
        for (const std::string& m : metrics_) {
          std::string key;
          try {
            key = libvmaf_metric_name(feature_, m, naming, which);
          } catch (const ConfigError&) {
            if (!reference_refuses_) throw;
            key = libvmaf_metric_name(feature_, m, {}, which);
          }
          out.emplace_back(key, m);
        }
        break;
      }
      case ExecTwinSpec::Keys::map:
        for (const auto& [key, m] : keys().key_map)
          if (std::find(metrics_.begin(), metrics_.end(), m) != metrics_.end()) out.emplace_back(key, m);
        break;
    }
    return out;
  }

  std::vector<std::string> expand(const std::vector<std::string>& words, const fs::path& output) const {
    std::string vmaf_options;
    for (const auto& [name, value] : options_) vmaf_options += (vmaf_options.empty() ? "=" : ":") + name + "=" + value;
    std::map<std::string, std::string> values = {
        {"exe", exe_.string()},
        {"input", input_.string()},
        {"reference", input_.string()},
        {"distorted", distorted_.string()},
        {"output", output.string()},
        {"width", std::to_string(fmt_.width)},
        {"height", std::to_string(fmt_.height)},
        {"bitdepth", std::to_string(fmt_.bitdepth)},
        {"pixfmt", pixfmt(fmt_)},
        {"chroma", std::string(to_string(fmt_.chroma))},
        {"frames", std::to_string(frames_)},
        {"feature", std::string(feature_.name)},
        {"vmaf_options", vmaf_options},
        {"device", std::to_string(ctx_.device)},
        {"host_threads", std::to_string(std::max(1u, std::thread::hardware_concurrency()))}};
    if (feature_.libvmaf_model != nullptr) {
      const std::string model = feature_.libvmaf_model(options_);
      values["libvmaf_model"] = model;
      // In an ffmpeg filtergraph a ':' inside an option's value is escaped twice (once for the
      // filter's options, once for the graph): "\\:" in the argument.
      values["libvmaf_model_filter"] = std::regex_replace(model, std::regex(":"), "\\\\:");
    }
    const auto fill = [](const std::string& word, const std::map<std::string, std::string>& v) {
      static const std::regex brace("\\{([a-z_]+)\\}");
      std::string out;
      std::size_t at = 0;
      for (auto it = std::sregex_iterator(word.begin(), word.end(), brace); it != std::sregex_iterator(); ++it) {
        out += word.substr(at, static_cast<std::size_t>(it->position()) - at);
        const auto found = v.find((*it)[1]);
        out += found != v.end() ? found->second : it->str();
        at = static_cast<std::size_t>(it->position() + it->length());
      }
      return out + word.substr(at);
    };
    std::vector<std::string> argv;
    for (const std::string& w : words) {
      if (w == "{variant}") {
        for (const std::string& vw : spec_->variant_words) argv.push_back(fill(vw, values));
        continue;
      }
      if (w == "{metrics}") {
        for (const auto& [key, metric] : metric_keys())
          for (const std::string& mw : spec_->metric_words) argv.push_back(fill(mw, {{"key", key}}));
        continue;
      }
      if (w != "{options}") {
        argv.push_back(fill(w, values));
        continue;
      }
      if (spec_->options != ExecTwinSpec::Options::words) continue;
      for (const auto& [name, value] : options_)
        for (const std::string& ow : spec_->option_words) argv.push_back(fill(ow, {{"name", name}, {"value", value}}));
    }
    return argv;
  }

  void identify() {
    std::lock_guard lock(identities_mu);
    auto [it, fresh] = identities().try_emplace(exe_.string());
    if (fresh) {
      it->second.sha256 = sha256_file(exe_.string());
      if (!spec_->version_command.empty()) {
        ToolRun v;
        v.argv = expand(spec_->version_command, {});
        v.cwd = dir_;
        v.stdout_file = dir_ / "version.txt";
        v.stderr_file = dir_ / "version.err";
        v.timeout_s = 30;
        const ToolExit e = run_tool(v);
        it->second.version =
            e.status == 0 ? first_line(v.stdout_file) : fmt::format("unknown (the version command exited {})", e.status);
        if (it->second.version.empty()) it->second.version = first_line(v.stderr_file);
      }
    }
    identity_ = it->second;
  }

  // The output's frames must be the input's, each once; every metric the cell needs must be there.
  void emit(const ScoreFile& scores, const std::string& file, ScoreSink& sink) const {
    const ExecTwinSpec& s = *spec_;
    if (scores.frames.size() != frames_)
      throw InputError(file, "frames", std::to_string(scores.frames.size()),
                       fmt::format("{} scored {} frame(s) of the {} it was given", s.name, scores.frames.size(), frames_));
    for (const long long n : scores.frames)
      if (n < s.frame_base || n >= s.frame_base + static_cast<long long>(frames_))
        throw InputError(file, "frame", std::to_string(n),
                         fmt::format("{} numbers a frame outside {}..{} (the frames it was given)", s.name, s.frame_base,
                                     s.frame_base + static_cast<long long>(frames_) - 1));
    // Where the reference refuses, a program that exits 0 has accepted the configuration: the cell
    // fails whatever it wrote. Its keys are then named as for the default options, and the
    // program may name its scores by the options as it took them (libvmaf's motion_fps_weight=nan
    // or motion_filter_size=3.7), so that none is under a key asked for: that is no fault of its.
    const bool none = std::all_of(scores.values.begin(), scores.values.end(), [](const auto& kv) { return kv.second.empty(); });
    if (none && !reference_refuses_)
      throw InputError(file, "metrics", "(none)",
                       fmt::format("{} exited 0 without a single score under the keys it was asked for: neither scores nor a "
                                   "refusal",
                                   s.name));
    for (const auto& [key, metric] : metric_keys()) {
      const auto column = scores.values.find(key);
      // Where the reference refuses, whatever the program scored makes the cell fail; a metric
      // it left out is not the question then.
      if (column == scores.values.end() && reference_refuses_) continue;
      if (column == scores.values.end())
        throw InputError(file, "metrics", key,
                         fmt::format("{}'s output lacks {} (metric {} of this configuration); it has: {}", s.name, key, metric,
                                     fmt::join(keys_of(scores), ", ")));
      for (const auto& [n, v] : column->second) sink.put(metric, first_label_ + static_cast<unsigned>(n - s.frame_base), v);
    }
  }

  static std::vector<std::string> keys_of(const ScoreFile& f) {
    std::vector<std::string> out;
    for (const auto& [k, v] : f.values) out.push_back(k);
    return out;
  }

  std::shared_ptr<const ExecTwinSpec> spec_;
  const FeatureDescriptor& feature_;
  ExtractorContext ctx_;
  Format fmt_;
  OptionList options_;
  std::vector<std::string> metrics_;
  bool keep_dir_ = false;           // keep_exec_work_folders was on when the folder was made
  bool reference_refuses_ = false;  // then keys are named as for the default options when the given ones do not parse
  // Copies a picture's stored planes into the frame buffer and writes it.
  void write_picture(const PictureView& pic, FrameWriter& w) {
    for (int p = 0; p < fmt_.planes(); ++p) {
      const PlaneSize ps = stored_plane_size(fmt_, p);
      const std::size_t row_bytes = static_cast<std::size_t>(ps.w) * fmt_.bytes_per_sample();
      for (int y = 0; y < ps.h; ++y)
        std::copy_n(pic.data[p] + pic.stride[p] * y, row_bytes, frame_.bytes() + frame_.plane_offset(p) + row_bytes * y);
    }
    w.write(frame_);
  }

  fs::path exe_, dir_, input_, distorted_;
  fs::path handed_over_;            // the file the program reads itself (hand_over), else empty
  fs::path handed_over_distorted_;  // and the pair's distorted clip (handed_over_ when there is none)
  double program_ms_ = 0;
  std::unique_ptr<FrameWriter> writer_, distorted_writer_;
  Frame frame_;
  unsigned frames_ = 0, first_label_ = 0;
  std::vector<std::string> argv_;
  Identity identity_;
};

}  // namespace

namespace {
// Why the program cannot run the twin by its probe, or empty: the probe command runs once per
// executable, command and process (availability is asked for every cell), what it printed is kept
// and each twin looks for its own text in it.
std::string probe_failure(const ExecTwinSpec& spec, const fs::path& exe) {
  struct Printed {
    std::string text, failure;  // what it printed; why the probe itself failed
  };
  static std::mutex mu;
  static std::map<std::pair<std::string, std::vector<std::string>>, Printed> known;
  const std::lock_guard lock(mu);
  std::vector<std::string> argv;
  for (const std::string& w : spec.probe->command) argv.push_back(w == "{exe}" ? exe.string() : w);
  const auto key = std::make_pair(exe.string(), argv);
  auto it = known.find(key);
  if (it == known.end()) {
    Printed p;
    std::string folder = (fs::temp_directory_path() / "twinproof-probe-XXXXXX").string();
    if (::mkdtemp(folder.data()) == nullptr) {
      p.failure = "cannot create a folder for the probe command under " + folder;
    } else {
      ToolRun run;
      run.argv = argv;
      run.cwd = folder;
      run.stdout_file = fs::path(folder) / "stdout.txt";
      run.stderr_file = fs::path(folder) / "stderr.txt";
      run.timeout_s = 30;
      const ToolExit done = run_tool(run);
      if (done.interrupted_by) throw Interrupted{done.interrupted_by};
      if (done.timed_out || !done.start_error.empty() || done.status != 0) {
        p.failure = fmt::format("its probe `{}` {}", shell_words(argv),
                                done.timed_out              ? std::string("ran past 30 s")
                                : !done.start_error.empty() ? "could not start: " + done.start_error
                                                            : fmt::format("exited with status {}", done.status));
      } else {
        try {
          p.text = read_text_file(run.stdout_file, "the probe's output") + read_text_file(run.stderr_file, "the probe's output");
        } catch (const InputError& e) {
          p.failure = fmt::format("its probe `{}` printed what cannot be read: {}", shell_words(argv), e.what());
        }
      }
      std::error_code ec;
      fs::remove_all(folder, ec);
    }
    it = known.emplace(key, std::move(p)).first;
  }
  if (!it->second.failure.empty()) return fmt::format("{}: {}", spec.name, it->second.failure);
  if (it->second.text.find(spec.probe->contains) == std::string::npos)
    return fmt::format("{}: {} ({} prints no '{}')", spec.name, spec.probe->reason, shell_words(argv), spec.probe->contains);
  return {};
}
}  // namespace

Availability exec_twin_availability(const ExecTwinSpec& spec) {
  const Located where = locate(spec);
  if (where.path.empty()) return {false, where.why_not};
  for (const std::string& c : spec.required_cpu)
    if (!host_has_cpu_feature(c))
      return {false, fmt::format("{} needs a CPU with {} ({}); this host's has none", spec.name, c, spec.summary)};
  if (spec.probe) {
    const std::string why = probe_failure(spec, where.path);
    if (!why.empty()) return {false, why};
  }
  return {true, {}};
}

std::unique_ptr<Extractor> make_exec_twin(std::shared_ptr<const ExecTwinSpec> spec, std::string_view feature,
                                          const ExtractorContext& ctx) {
  return std::make_unique<ExecTwin>(std::move(spec), feature_or_throw(feature), ctx);
}

namespace {
// The spec behind each registered exec twin backend, for run_exec_twin_on_file.
std::map<const Backend*, std::shared_ptr<const ExecTwinSpec>>& registered_specs() {
  static std::map<const Backend*, std::shared_ptr<const ExecTwinSpec>> m;
  return m;
}
}  // namespace

std::optional<double> run_exec_twin_on_file(const Backend& b, const Format& fmt, const OptionList& options,
                                            const fs::path& raw_file, const fs::path& raw_distorted, unsigned frames,
                                            ScoreSink& sink) {
  const auto found = registered_specs().find(&b);
  if (found == registered_specs().end() || found->second->input != ExecTwinSpec::Input::yuv) return std::nullopt;
  ExecTwin twin(found->second, feature_or_throw(b.feature), ExtractorContext{});
  twin.hand_over(raw_file, raw_distorted, frames);
  twin.init(fmt, options);
  twin.flush(sink);
  return twin.program_ms();
}

void keep_exec_work_folders(bool keep) { keep_work_folders.store(keep); }

std::string exec_twin_rerun_args(const ExecTwinSpec& spec, bool shipped) {
  std::vector<std::string> words;
  if (!shipped) words = {"--twins", spec.file};
  if (spec.locate == ExecTwinSpec::Locate::env && !spec.locate_flag.empty())
    if (const char* value = std::getenv(spec.locate_value.c_str()); value != nullptr && *value != '\0')
      words.insert(words.end(), {spec.locate_flag, fs::absolute(value).string()});
  return words.empty() ? std::string() : shell_words(words);
}

void register_exec_twins(const std::vector<fs::path>& files) {
  const std::vector<fs::path> shipped = shipped_twins_files();
  for (const fs::path& file : files)
    for (ExecTwinSpec& parsed : load_twins_file(file)) {
      auto spec = std::make_shared<const ExecTwinSpec>(std::move(parsed));
      for (const std::string& feature_name : spec->features) {
        RuntimeBackend b;
        b.feature = feature_name;
        b.name = spec->name;
        b.summary = spec->summary;
        b.origin = "exec twin, " + file.string();
        b.rerun_args = exec_twin_rerun_args(*spec, std::find(shipped.begin(), shipped.end(), file) != shipped.end());
        b.kind = spec->kind;
        b.availability = [spec] { return exec_twin_availability(*spec); };
        b.make = [spec, feature_name](const ExtractorContext& ctx) { return make_exec_twin(spec, feature_name, ctx); };
        registered_specs()[&register_backend(std::move(b))] = spec;
      }
    }
}

}  // namespace twinproof
