// The common extractor interface: every backend of every feature is driven through it.
// Lifecycle as libvmaf's: init once, extract per frame, flush at the end of the clip.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace twinproof {

enum class Chroma { c400, c420, c422, c444 };

std::string_view to_string(Chroma c);
std::optional<Chroma> parse_chroma(std::string_view s);  // "400" "420" "422" "444"

// Horizontal and vertical chroma subsampling shifts (libvmaf's picture geometry).
struct ChromaShift {
  int hs, vs;
};
ChromaShift chroma_shift(Chroma c);

struct Format {
  int width = 0;
  int height = 0;
  int bitdepth = 8;
  Chroma chroma = Chroma::c420;

  int planes() const { return chroma == Chroma::c400 ? 1 : 3; }
  int bytes_per_sample() const { return bitdepth > 8 ? 2 : 1; }
  bool operator==(const Format&) const = default;
};

std::string describe(const Format& f);  // "1920x1080 8-bit 4:2:0"

struct PlaneSize {
  int w = 0, h = 0;
  bool operator==(const PlaneSize&) const = default;
};

// The plane as files store it: chroma is ceil(w/2) (and ceil(h/2) for 4:2:0).
PlaneSize stored_plane_size(const Format& f, int plane);

// A read-only view of one picture. Samples are unsigned; one byte for 8-bit, otherwise
// 16-bit native (little-endian) words holding values below 2^bitdepth.
struct PictureView {
  Format fmt;
  const std::uint8_t* data[3] = {nullptr, nullptr, nullptr};
  std::ptrdiff_t stride[3] = {0, 0, 0};  // bytes from one row to the next
  // The owner of the samples, when they stay unchanged for as long as someone holds it (a frame
  // read ahead: its reader sets a held buffer aside instead of refilling it). A device twin may
  // then upload from the samples after extract returns, holding `keep` until the copy is done;
  // without it the samples are the caller's again once extract returns.
  std::shared_ptr<const void> keep;

  unsigned sample(int plane, int x, int y) const {
    const std::uint8_t* row = data[plane] + stride[plane] * y;
    if (fmt.bitdepth == 8) return row[x];
    return reinterpret_cast<const std::uint16_t*>(row)[x];
  }
};

// Options as given (name, value), in order. Each feature parses its own.
using OptionList = std::vector<std::pair<std::string, std::string>>;

// `text` with every control byte (and DEL) written as \xNN, so that a name or header from outside
// can neither cut a message (NUL), rewrite the line (CR) nor split it (LF).
inline std::string escape_control(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c != 0x7f) {
      out += ch;
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// Bad configuration or input found before any score exists: the harness exits 2.
// `subject` is what was wrong (an option, a plane, a header field), `value` its value.
class ConfigError : public std::runtime_error {
 public:
  ConfigError(std::string subject, std::string value, const std::string& message)
      : std::runtime_error(escape_control(message)), subject_(std::move(subject)), value_(std::move(value)) {}
  const std::string& subject() const { return subject_; }
  const std::string& value() const { return value_; }

 private:
  std::string subject_, value_;
};

// What a ConfigError is about. Each is exit 2 on the command line; the gate and the goldens tell
// them apart (through classify_fault): a refusal can be the expected verdict, an unavailable
// backend is not-supported, a usage error stops the run.
// The extractor refuses this input or these options (libvmaf does, or the contract makes it an error).
class RefusedConfiguration : public ConfigError {
 public:
  using ConfigError::ConfigError;
};
// A refusal of a file the run reads beside its clips (a model file): its message names that file,
// the field in it and the value, and is the whole line: no clip is its subject.
class FileRefusal : public RefusedConfiguration {
 public:
  FileRefusal(const std::string& file, const std::string& field, const std::string& value, const std::string& why)
      : RefusedConfiguration(file + ": " + field, value, file + ": " + field + " = " + value + ": " + why) {}
};
// The backend cannot run on this machine (built without CUDA, no usable device).
class BackendUnavailable : public ConfigError {
 public:
  using ConfigError::ConfigError;
};
// A flag, an argument or a setting (an environment variable) the harness cannot take.
class UsageError : public ConfigError {
 public:
  using ConfigError::ConfigError;
};

// A fault of the device or its runtime (a CUDA call that failed). Never a result.
class DeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ScoreSink {
 public:
  virtual ~ScoreSink() = default;
  virtual void put(std::string_view metric, unsigned frame, double value) = 0;
};

// One array of a stage: a plane (w x h), a column of row sums (1 x h) or a few scalars.
// Values are held as double; fp32 stages widen exactly and say so through `fp32`.
struct ProbeArray {
  std::string name;  // "Y", "U", "V", "Y/scale1", "motion2" ...
  int width = 0, height = 0;
  bool fp32 = true;
  std::vector<double> values;  // row-major
};

// One stage of the latest frame; `stage` is an id from the feature's descriptor ("row_sums").
struct Probe {
  std::string stage;
  std::vector<ProbeArray> arrays;
};

// Run-time context of one extractor instance.
struct ExtractorContext {
  int device = 0;               // GPU ordinal for device backends
  bool capture_stages = false;  // keep the latest frame's stages for inspect()
  // Threads a CPU backend may split a plane's rows over (0: one per hardware thread). The gate
  // keeps 1, as it runs cells side by side; score and bench give every core to one clip.
  unsigned threads = 1;
  // When the run must have ended (the gate's --cell-timeout); the epoch: no limit. A backend that
  // waits on something outside itself (an exec twin's program) stops waiting then.
  std::chrono::steady_clock::time_point deadline{};
};

// Memory a backend wants its frames read into: page-locked host memory for a device twin, so that
// its upload starts from the frame as read, with no staging copy. Readers allocate from it on
// their own threads.
class HostMemory {
 public:
  virtual ~HostMemory() = default;
  // `bytes` of memory, released when the last owner lets go; DeviceError when it cannot be had.
  virtual std::shared_ptr<std::uint8_t> allocate(std::size_t bytes) = 0;
};

// A backend built from other features' backends (the vmaf model over its features): one of them,
// with the options it runs under and the metrics the whole takes from it.
struct ExtractorPart {
  std::string feature, backend;
  OptionList options;
  std::vector<std::string> metrics;
};

class Extractor {
 public:
  virtual ~Extractor() = default;
  // Validates the options and the format; throws ConfigError. No frame has been seen yet.
  virtual void init(const Format& fmt, const OptionList& options) = 0;
  // One frame of the pair, as libvmaf's extract takes it: the reference picture and the distorted
  // one, of the same format. A feature that reads the reference alone (the motion features)
  // ignores `dist`; one clip scored on its own is passed as both. `frame` is the label written to
  // the sink; labels must be consecutive.
  virtual void extract(const PictureView& ref, const PictureView& dist, unsigned frame, ScoreSink& sink) = 0;
  // Emits whatever the last frames still owe (look-ahead metrics).
  virtual void flush(ScoreSink& sink) = 0;
  // The metrics this configuration emits, in report order.
  virtual std::vector<std::string> metrics() const = 0;
  // The latest frame's stage (an id of the feature's descriptor), when the context asked to
  // capture stages and the backend has it.
  virtual std::optional<Probe> inspect(std::string_view /*stage*/) const { return std::nullopt; }
  // Where frames are best read for this backend (after init); nullptr: ordinary memory serves.
  virtual std::shared_ptr<HostMemory> frame_memory() const { return nullptr; }
  // How many leading planes of each picture this configuration reads (after init: 1 is luma
  // alone). A caller may leave the other planes unread; the pictures then have null pointers there.
  virtual int planes_read() const { return 3; }
  // Device time spent computing (CUDA events around the kernels), for device backends.
  virtual std::optional<double> device_ms() const { return std::nullopt; }
  // What ran, for the record, when it is not twinproof's own code: the command line, the
  // program's version and the SHA-256 of its executable (exec twins, plugins).
  virtual std::vector<std::pair<std::string, std::string>> provenance() const { return {}; }
  // The metrics this twin's scores are judged on when it reports fewer than the reference (a
  // program that prints only `motion`); nullopt: every metric the reference emits.
  virtual std::optional<std::vector<std::string>> judged_metrics() const { return std::nullopt; }
  // The backends this one is built from (after init), so that repro can follow a difference into
  // the feature it starts in; empty for a backend that computes its feature itself.
  virtual std::vector<ExtractorPart> parts() const { return {}; }
};

}  // namespace twinproof
