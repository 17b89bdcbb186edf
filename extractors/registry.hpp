// The registry of backends: each is a name bound to a factory and an availability check.
// The list itself is extractors/backends.inc, one line per backend.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "extractor.hpp"

namespace twinproof {

enum class BackendKind { host, gpu };

struct Availability {
  bool available = false;
  std::string reason;  // why not, when not
};

struct Backend {
  std::string_view feature;  // "float_motion"
  std::string_view name;     // "cpu", "cuda", ...
  BackendKind kind;
  bool mutant;  // a deliberately broken twin (self-test of the gate)
  std::string_view summary;
  std::function<Availability()> availability;
  std::function<std::unique_ptr<Extractor>(const ExtractorContext&)> make;
  std::string_view origin = "built in";  // or the twins file or plugin that declared it
  // The global options a command line needs to find this backend again ("--plugin PATH" for a
  // plugin twin, "--twins FILE" for a user's twins file): repro commands carry them.
  std::string_view rerun_args = {};

  bool gpu() const { return kind == BackendKind::gpu; }
};

// Every registered backend, the built-in ones first; mutants only when asked for.
std::vector<const Backend*> backends(bool with_mutants = false);
// The backend or UsageError (--backend) naming the feature's known backends; an unknown feature
// is named as such (feature_or_throw).
const Backend& backend_or_throw(std::string_view feature, std::string_view name, bool with_mutants = false);
const Backend* find_backend(std::string_view feature, std::string_view name, bool with_mutants = false);

// A backend declared at run time (an exec twin, a plugin). The registry keeps its strings; call
// before any run starts (the registry is read without a lock). Throws UsageError when the
// feature already has a backend of that name.
struct RuntimeBackend {
  std::string feature, name, summary, origin, rerun_args;
  BackendKind kind = BackendKind::host;
  std::function<Availability()> availability;
  std::function<std::unique_ptr<Extractor>(const ExtractorContext&)> make;
};
const Backend& register_backend(RuntimeBackend b);
bool is_built_in(const Backend& b);

// Builds an extractor or throws ConfigError naming the backend and why it cannot run.
std::unique_ptr<Extractor> make_extractor(const Backend& b, const ExtractorContext& ctx);

}  // namespace twinproof
