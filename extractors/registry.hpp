// The registry of backends: each is a name bound to a factory and an availability check.
// The list itself is extractors/backends.inc, one line per backend.
#pragma once

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
  bool mutant;               // a deliberately broken twin (self-test of the gate)
  std::string_view summary;
  Availability (*availability)();
  std::unique_ptr<Extractor> (*make)(const ExtractorContext&);

  bool gpu() const { return kind == BackendKind::gpu; }
};

// Every registered backend; mutants only when asked for.
std::vector<const Backend*> backends(bool with_mutants = false);
const Backend* find_backend(std::string_view feature, std::string_view name, bool with_mutants = false);

// Builds an extractor or throws ConfigError naming the backend and why it cannot run.
std::unique_ptr<Extractor> make_extractor(const Backend& b, const ExtractorContext& ctx);

}  // namespace twinproof
