#include "harness/support/parallel.hpp"

#include <atomic>
#include <memory>
#include <new>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "extractors/extractor.hpp"

namespace twinproof {

unsigned default_jobs() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

unsigned worker_count(unsigned requested, std::size_t tasks) {
  if (requested > kMaxJobs)
    throw UsageError("--jobs", std::to_string(requested), fmt::format("-j {}: at most {} workers", requested, kMaxJobs));
  const unsigned want = requested == 0 ? default_jobs() : requested;
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(want, tasks)));
}

}  // namespace twinproof
