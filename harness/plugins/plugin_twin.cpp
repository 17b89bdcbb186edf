#include "harness/plugins/plugin_twin.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string_view>

#include <fmt/format.h>

#include "extractors/devices.hpp"
#include "extractors/feature.hpp"
#include "extractors/registry.hpp"
#include "extractors/twinproof_plugin.h"
#include "harness/support/exit_guard.hpp"
#include "harness/support/faults.hpp"
#include "harness/support/process.hpp"
#include "harness/support/sha256.hpp"

namespace twinproof {
namespace fs = std::filesystem;

namespace {

// One twin of a loaded plugin, with what the record says about it.
struct PluginTwinInfo {
  const TwinproofPluginTwin* twin = nullptr;
  const FeatureDescriptor* feature = nullptr;
  std::string path, sha256, name, version;
  std::string label;  // "plugin twin NAME (PATH)", for messages
};

// Text a plugin wrote, bounded: at most `limit` bytes are read whatever it forgot (a NUL), and
// control bytes are escaped so that it cannot rewrite a report line.
std::string plugin_text(const char* s, std::size_t limit = 256) {
  return s == nullptr ? std::string() : escape_control(std::string_view(s, strnlen(s, limit)));
}

// The buffer a call writes its reason into.
struct ErrorBuffer {
  std::array<char, 1024> bytes{};
  char* data() { return bytes.data(); }
  std::size_t size() const { return bytes.size(); }
  std::string text() const {
    const std::string t = plugin_text(bytes.data(), bytes.size());
    return t.empty() ? "(it gave no reason)" : t;
  }
};

// An exception must not cross the plugin's C frames: a callback keeps it here, and it is
// rethrown once the plugin has returned.
// `last_frame` is the latest frame the plugin has been handed (-1 before the first): a score for a
// frame past it is a fault at once, never dropped and never stored (a frame number of 1e8 would
// otherwise grow a table to billions of entries before anything noticed).
struct ScoreRelay {
  ScoreSink* sink;
  const PluginTwinInfo* info;
  long long last_frame;
  std::exception_ptr fault;
};
struct ArrayRelay {
  std::vector<ProbeArray> arrays;
  std::exception_ptr fault;
};

// A metric name a plugin handed over, checked against its feature's metrics (else a fault:
// `did` says what the plugin did with it).
std::string feature_metric(const PluginTwinInfo& info, const char* metric, const char* did) {
  const std::string name = plugin_text(metric, 64);
  const auto& known = info.feature->metrics;
  if (std::find(known.begin(), known.end(), name) == known.end())
    throw ToolFailed(
        0, fmt::format("plugin twin {} {} '{}', which is not a metric of {}", info.name, did, name, info.feature->name), false);
  return name;
}

}  // namespace

extern "C" {
static void twinproof_relay_score(void* sink, const char* metric, unsigned frame, double value) {
  auto* relay = static_cast<ScoreRelay*>(sink);
  if (relay->fault) return;
  try {
    const std::string name = feature_metric(*relay->info, metric, "emitted");
    if (static_cast<long long>(frame) > relay->last_frame)
      throw ToolFailed(0,
                       relay->last_frame < 0
                           ? fmt::format("plugin twin {} emitted {} for frame {} before it was handed any frame",
                                         relay->info->name, name, frame)
                           : fmt::format("plugin twin {} emitted {} for frame {}, past frame {}, the latest it has been handed",
                                         relay->info->name, name, frame, relay->last_frame),
                       false);
    relay->sink->put(name, frame, value);
  } catch (...) {
    relay->fault = std::current_exception();
  }
}

static void twinproof_relay_array(void* sink, const char* name, int width, int height, int fp32, const double* values) {
  auto* relay = static_cast<ArrayRelay*>(sink);
  if (relay->fault) return;
  try {
    constexpr long long kMaxValues = 1ll << 28;
    if (width <= 0 || height <= 0 || static_cast<long long>(width) * height > kMaxValues || values == nullptr)
      throw ToolFailed(0,
                       fmt::format("a plugin stage array '{}' of {}x{} values is not one twinproof can take",
                                   plugin_text(name, 32), width, height),
                       false);
    relay->arrays.push_back({plugin_text(name, 32), width, height, fp32 != 0,
                             std::vector<double>(values, values + static_cast<std::size_t>(width) * height)});
  } catch (...) {
    relay->fault = std::current_exception();
  }
}
}

namespace {

TwinproofChroma abi_chroma(Chroma c) {
  switch (c) {
    case Chroma::c400: return TWINPROOF_CHROMA_400;
    case Chroma::c420: return TWINPROOF_CHROMA_420;
    case Chroma::c422: return TWINPROOF_CHROMA_422;
    case Chroma::c444: return TWINPROOF_CHROMA_444;
  }
  return TWINPROOF_CHROMA_420;
}

// A twin's extract_pair: a member of version 2 tables only (a version-1 table ends before it).
TwinproofStatus (*extract_pair_of(const TwinproofPluginTwin* t))(void*, const TwinproofPicture*, const TwinproofPicture*,
                                                                 unsigned, TwinproofEmitScore, void*, char*, std::size_t) {
  return t->abi_version >= 2 ? t->extract_pair : nullptr;
}

class PluginTwin final : public Extractor {
 public:
  PluginTwin(std::shared_ptr<const PluginTwinInfo> info, const ExtractorContext& ctx) : info_(std::move(info)) {
    ErrorBuffer err;
    const ForeignCode running(info_->label, "create");
    instance_ = twin().create(ctx.device, ctx.capture_stages ? 1 : 0, err.data(), err.size());
    if (instance_ == nullptr)
      throw ToolFailed(0, fmt::format("plugin twin {} could not create an instance: {}", info_->name, err.text()), false);
  }
  ~PluginTwin() override {
    const ForeignCode running(info_->label, "destroy");
    twin().destroy(instance_);
  }
  PluginTwin(const PluginTwin&) = delete;
  PluginTwin& operator=(const PluginTwin&) = delete;

  void init(const Format& fmt, const OptionList& options) override {
    // A twin without extract_pair (every version-1 twin) is handed one picture a frame.
    if (info_->feature->reads_distorted && extract_pair_of(info_->twin) == nullptr)
      throw BackendUnavailable(
          "feature", std::string(info_->feature->name),
          fmt::format("plugin twin {}: {} reads a pair of clips, and the twin has no extract_pair (plugin ABI "
                      "version {}; version 2 adds it)",
                      info_->name, info_->feature->name, info_->twin->abi_version));
    const TwinproofFormat f{fmt.width, fmt.height, fmt.bitdepth, abi_chroma(fmt.chroma)};
    std::vector<TwinproofOption> given;
    for (const auto& [name, value] : options) given.push_back({name.c_str(), value.c_str()});
    ErrorBuffer err;
    const ForeignCode running(info_->label, "init");
    judge(twin().init(instance_, &f, given.data(), given.size(), err.data(), err.size()), "init", err);
    format_ = f;
    const char* const* names = twin().metrics(instance_);
    constexpr std::size_t kMaxMetrics = 64;
    for (std::size_t i = 0; names != nullptr && names[i] != nullptr && i < kMaxMetrics; ++i) {
      metrics_.push_back(feature_metric(*info_, names[i], "names among its metrics"));
    }
    if (metrics_.empty()) throw ToolFailed(0, fmt::format("plugin twin {} names no metric after init", info_->name), false);
  }

  void extract(const PictureView& pic, const PictureView& dist, unsigned frame, ScoreSink& sink) override {
    const auto picture = [&](const PictureView& v) {
      return TwinproofPicture{format_, {v.data[0], v.data[1], v.data[2]}, {v.stride[0], v.stride[1], v.stride[2]}};
    };
    const TwinproofPicture p = picture(pic), d = picture(dist);
    last_frame_ = std::max(last_frame_, static_cast<long long>(frame));
    ScoreRelay relay{&sink, info_.get(), last_frame_, nullptr};
    ErrorBuffer err;
    const auto pair = extract_pair_of(info_->twin);
    const ForeignCode running(info_->label, pair != nullptr ? "extract_pair" : "extract");
    const TwinproofStatus st = pair != nullptr
                                   ? pair(instance_, &p, &d, frame, twinproof_relay_score, &relay, err.data(), err.size())
                                   : twin().extract(instance_, &p, frame, twinproof_relay_score, &relay, err.data(), err.size());
    if (relay.fault) std::rethrow_exception(relay.fault);
    judge(st, "extract", err);
  }

  void flush(ScoreSink& sink) override {
    ScoreRelay relay{&sink, info_.get(), last_frame_, nullptr};
    ErrorBuffer err;
    const ForeignCode running(info_->label, "flush");
    const TwinproofStatus st = twin().flush(instance_, twinproof_relay_score, &relay, err.data(), err.size());
    if (relay.fault) std::rethrow_exception(relay.fault);
    judge(st, "flush", err);
  }

  std::vector<std::string> metrics() const override { return metrics_; }

  std::optional<Probe> inspect(std::string_view stage) const override {
    if (twin().inspect == nullptr) return std::nullopt;
    ArrayRelay relay;
    const std::string id(stage);
    const ForeignCode running(info_->label, "inspect");
    const int exposed = twin().inspect(instance_, id.c_str(), twinproof_relay_array, &relay);
    if (relay.fault) std::rethrow_exception(relay.fault);
    if (exposed == 0 || relay.arrays.empty()) return std::nullopt;
    return Probe{id, std::move(relay.arrays)};
  }

  std::vector<std::pair<std::string, std::string>> provenance() const override {
    return {{"plugin", info_->path}, {"sha256", info_->sha256}, {"version", info_->version}};
  }

 private:
  const TwinproofPluginTwin& twin() const { return *info_->twin; }

  // The plugin's status as the harness's faults: a refusal, not supported, or an error.
  void judge(int status, const char* call, const ErrorBuffer& err) const {
    switch (status) {
      case TWINPROOF_OK: return;
      case TWINPROOF_REFUSED:
        throw RefusedConfiguration("twin", info_->name, fmt::format("{} refuses: {}", info_->name, err.text()));
      case TWINPROOF_UNSUPPORTED:
        throw BackendUnavailable("twin", info_->name,
                                 fmt::format("{} does not support this configuration: {}", info_->name, err.text()));
      case TWINPROOF_FAULT:
        throw ToolFailed(status, fmt::format("plugin twin {} failed in {}: {}", info_->name, call, err.text()), false);
      default:
        throw ToolFailed(
            status,
            fmt::format("plugin twin {} returned {} from {}, which is no status of the plugin ABI", info_->name, status, call),
            false);
    }
  }

  std::shared_ptr<const PluginTwinInfo> info_;
  void* instance_ = nullptr;
  TwinproofFormat format_{};
  std::vector<std::string> metrics_;
  long long last_frame_ = -1;  // the latest frame handed to the plugin
};

// A twin name goes into cell ids and file names: lower case letters, digits, '-' and '_'.
bool valid_twin_name(std::string_view n) {
  return !n.empty() && n.size() <= 64 && std::all_of(n.begin(), n.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

[[noreturn]] void bad_plugin(const fs::path& path, const std::string& what) {
  throw UsageError("--plugin", path.string(), fmt::format("plugin {}: {}", path.string(), what));
}

void check_twin(const fs::path& path, std::size_t index, const TwinproofPluginTwin* t) {
  const std::string which = fmt::format("twin {}", index);
  if (t == nullptr) bad_plugin(path, which + " is a null pointer");
  if (t->abi_version != 1 && t->abi_version != TWINPROOF_PLUGIN_ABI_VERSION)
    bad_plugin(
        path, fmt::format(
                  "{} is built for plugin ABI version {}; this twinproof takes versions 1 and {} (extractors/twinproof_plugin.h)",
                  which, t->abi_version, TWINPROOF_PLUGIN_ABI_VERSION));
  const std::size_t table = t->abi_version == 1 ? TWINPROOF_PLUGIN_V1_SIZE : sizeof(TwinproofPluginTwin);
  if (t->struct_size < table)
    bad_plugin(path,
               fmt::format("{} declares a table of {} bytes; version {} has {}", which, t->struct_size, t->abi_version, table));
  const std::string name = plugin_text(t->name, 80);
  if (!valid_twin_name(name))
    bad_plugin(path, fmt::format("{} is named '{}': a twin name is 1 to 64 of a-z, 0-9, '-' and '_'", which, name));
  if (find_feature(plugin_text(t->feature, 80)) == nullptr)
    bad_plugin(path, fmt::format("twin {} twins '{}', which is no feature of this twinproof (see `twinproof features`)", name,
                                 plugin_text(t->feature, 80)));
  if (t->device_kind != TWINPROOF_DEVICE_HOST && t->device_kind != TWINPROOF_DEVICE_GPU)
    bad_plugin(path,
               fmt::format("twin {} has device kind {}, neither host (0) nor GPU (1)", name, static_cast<int>(t->device_kind)));
  const bool pair = extract_pair_of(t) != nullptr;
  const std::pair<const char*, bool> required[] = {{"create", t->create != nullptr},   {"init", t->init != nullptr},
                                                   {"metrics", t->metrics != nullptr}, {"extract", t->extract != nullptr || pair},
                                                   {"flush", t->flush != nullptr},     {"destroy", t->destroy != nullptr}};
  for (const auto& [function, present] : required)
    if (!present)
      bad_plugin(path, fmt::format("twin {} has no {} function{}", name, function,
                                   std::string_view(function) == "extract" ? " (nor extract_pair)" : ""));
}

void register_plugin(const fs::path& given) {
  std::error_code ec;
  if (!fs::is_regular_file(given, ec)) bad_plugin(given, fs::exists(given, ec) ? "not a regular file" : "no such file");
  const fs::path path = fs::absolute(given);
  // RTLD_LOCAL: two plugins may define the same symbols. Never closed: the registered backends
  // call into it until the process ends.
  const std::string loading_name = fmt::format("plugin {} (loading it)", path.string());
  const ForeignCode loading(loading_name);
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) bad_plugin(given, fmt::format("cannot be loaded: {}", plugin_text(::dlerror(), 512)));
  void* entry = ::dlsym(handle, TWINPROOF_PLUGIN_ENTRY);
  if (entry == nullptr)
    bad_plugin(given, fmt::format("not a twinproof plugin: it exports no {} function", TWINPROOF_PLUGIN_ENTRY));
  std::size_t count = 0;
  const TwinproofPluginTwin* const* twins = reinterpret_cast<TwinproofPluginEntry>(entry)(&count);
  if (twins == nullptr || count == 0) bad_plugin(given, "exports no twin");
  if (count > 256) bad_plugin(given, fmt::format("says it exports {} twins; at most 256 are taken", count));
  const std::string sha = sha256_file(path.string());
  for (std::size_t i = 0; i < count; ++i) check_twin(given, i, twins[i]);
  for (std::size_t i = 0; i < count; ++i) {
    const TwinproofPluginTwin* t = twins[i];
    auto info = std::make_shared<PluginTwinInfo>();
    info->twin = t;
    info->feature = find_feature(plugin_text(t->feature, 80));
    info->path = path.string();
    info->sha256 = sha;
    info->name = plugin_text(t->name, 80);
    info->version = plugin_text(t->version, 80);
    info->label = fmt::format("plugin twin {} ({})", info->name, info->path);
    RuntimeBackend b;
    b.feature = std::string(info->feature->name);
    b.name = info->name;
    b.summary = plugin_text(t->summary, 200);
    b.origin = "plugin " + path.string();
    b.rerun_args = shell_words({"--plugin", path.string()});  // quoted: bench reads the words back
    b.kind = t->device_kind == TWINPROOF_DEVICE_GPU ? BackendKind::gpu : BackendKind::host;
    const bool gpu = b.kind == BackendKind::gpu;
    b.availability = [gpu] {
      if (gpu && cuda_devices().empty()) return Availability{false, "a GPU plugin twin and no usable CUDA device here"};
      return Availability{true, {}};
    };
    b.make = [info](const ExtractorContext& ctx) -> std::unique_ptr<Extractor> {
      return std::make_unique<PluginTwin>(info, ctx);
    };
    register_backend(std::move(b));
  }
}

}  // namespace

std::vector<fs::path> plugins_from_environment() {
  std::vector<fs::path> out;
  const char* list = std::getenv("TWINPROOF_PLUGINS");
  if (list == nullptr) return out;
  std::string_view rest(list);
  while (!rest.empty()) {
    const auto colon = rest.find(':');
    const std::string_view item = rest.substr(0, colon);
    if (!item.empty()) out.emplace_back(std::string(item));
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return out;
}

void register_plugins(const std::vector<fs::path>& paths) {
  for (const fs::path& p : paths) register_plugin(p);
}

}  // namespace twinproof
