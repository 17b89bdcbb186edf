#include "registry.hpp"

#include <algorithm>
#include <array>
#include <deque>

#include <fmt/format.h>

#include "devices.hpp"
#include "feature.hpp"

namespace twinproof {

Availability cuda_availability();  // extractors/cuda/runtime.cpp (or below, without CUDA)
#if !TWINPROOF_HAVE_CUDA
Availability cuda_availability() { return {false, "built without CUDA"}; }
std::vector<DeviceDescription> cuda_devices() { return {}; }
std::string cuda_runtime_version() { return "none (built without CUDA)"; }
std::string cuda_driver_version() { return "unknown (built without CUDA)"; }
std::optional<DeviceBandwidth> measure_bandwidth(int) { return std::nullopt; }
std::optional<double> measure_device_startup(int) { return std::nullopt; }
HostBuffer allocate_host_buffer(std::size_t bytes, bool) {
  return {std::shared_ptr<std::uint8_t>(new std::uint8_t[bytes], std::default_delete<std::uint8_t[]>()), false};
}
#endif

namespace {
Availability always_available() { return {true, {}}; }
}  // namespace

// Factories, declared from the list: each in its feature's namespace.
#define TP_BACKEND(feature, name, kind, factory, summary)      \
  namespace feature {                                          \
  std::unique_ptr<Extractor> factory(const ExtractorContext&); \
  }
#define TP_MUTANT TP_BACKEND
#if TWINPROOF_HAVE_CUDA
#define TP_CUDA_BACKEND(feature, name, factory, summary) TP_BACKEND(feature, name, gpu, factory, summary)
#else
#define TP_CUDA_BACKEND(feature, name, factory, summary)
#endif
#include "backends.inc"
#undef TP_BACKEND
#undef TP_MUTANT
#undef TP_CUDA_BACKEND

namespace {

#define TP_BACKEND(feature, name, kind, factory, summary) \
  Backend{#feature, name, BackendKind::kind, false, summary, &always_available, &feature::factory},
#define TP_MUTANT(feature, name, kind, factory, summary) \
  Backend{#feature, name, BackendKind::kind, true, summary, &always_available, &feature::factory},
#if TWINPROOF_HAVE_CUDA
#define TP_CUDA_BACKEND(feature, name, factory, summary) \
  Backend{#feature, name, BackendKind::gpu, false, summary, &cuda_availability, &feature::factory},
#else
#define TP_CUDA_BACKEND(feature, name, factory, summary) \
  Backend{#feature, name, BackendKind::gpu, false, summary, &cuda_availability, nullptr},
#endif
const Backend kBackends[] = {
#include "backends.inc"
};
#undef TP_BACKEND
#undef TP_MUTANT
#undef TP_CUDA_BACKEND

}  // namespace

namespace {
// Backends declared at run time, with the strings their views point into (a deque never moves
// its elements).
struct OwnedBackend {
  RuntimeBackend spec;
  Backend backend;
};
std::deque<OwnedBackend>& runtime_backends() {
  static std::deque<OwnedBackend> list;
  return list;
}
}  // namespace

std::vector<const Backend*> backends(bool with_mutants) {
  std::vector<const Backend*> out;
  for (const Backend& b : kBackends)
    if (with_mutants || !b.mutant) out.push_back(&b);
  for (const OwnedBackend& o : runtime_backends()) out.push_back(&o.backend);
  return out;
}

bool is_built_in(const Backend& b) {
  return std::any_of(std::begin(kBackends), std::end(kBackends), [&](const Backend& k) { return &k == &b; });
}

const Backend& register_backend(RuntimeBackend spec) {
  if (find_backend(spec.feature, spec.name, true) != nullptr)
    throw UsageError("twin", spec.name,
                     "twin '" + spec.name + "' of " + spec.feature + " (" + spec.origin + ") is already registered");
  OwnedBackend& o = runtime_backends().emplace_back(OwnedBackend{std::move(spec), {}});
  const RuntimeBackend& s = o.spec;
  o.backend = Backend{s.feature, s.name, s.kind, false, s.summary, s.availability, s.make, s.origin, s.rerun_args};
  return o.backend;
}

const Backend* find_backend(std::string_view feature, std::string_view name, bool with_mutants) {
  for (const Backend* b : backends(with_mutants))
    if (b->feature == feature && b->name == name) return b;
  return nullptr;
}

const Backend& backend_or_throw(std::string_view feature, std::string_view name, bool with_mutants) {
  feature_or_throw(feature, "--feature");  // an unknown feature is named as such, with the known ones
  if (const Backend* b = find_backend(feature, name, with_mutants)) return *b;
  std::string known;
  for (const Backend* b : backends(with_mutants))
    if (b->feature == feature) known += (known.empty() ? "" : ", ") + std::string(b->name);
  throw UsageError("--backend", std::string(name),
                   fmt::format("--backend '{}': no such backend for {}; known: {}", name, feature, known));
}

std::unique_ptr<Extractor> make_extractor(const Backend& b, const ExtractorContext& ctx) {
  Availability a = b.availability();
  if (!a.available || b.make == nullptr)
    throw BackendUnavailable("backend", std::string(b.name), "backend '" + std::string(b.name) + "' is unavailable: " + a.reason);
  return b.make(ctx);
}

}  // namespace twinproof
