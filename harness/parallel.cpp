#include "harness/parallel.hpp"

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

std::vector<std::thread> start_workers(unsigned count, const std::function<void()>& body, const std::function<void()>& stop) {
  std::vector<std::thread> pool;
  pool.reserve(count);
  for (unsigned t = 0; t < count; ++t) {
    try {
      pool.emplace_back(body);
    } catch (const std::system_error& e) {
      stop();
      for (std::thread& th : pool) th.join();
      throw UsageError("--jobs", std::to_string(count),
                        fmt::format("cannot start worker thread {} of {}: {} (a process or memory limit; lower -j)", t + 1, count,
                                    e.code().message()));
    }
  }
  return pool;
}

}  // namespace twinproof
