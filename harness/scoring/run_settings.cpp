#include "harness/scoring/run_settings.hpp"

#include <algorithm>
#include <string>
#include <thread>

#include <fmt/format.h>

namespace twinproof {

OptionList parse_option_flags(const std::vector<std::string>& flags) {
  OptionList out;
  for (const std::string& f : flags) {
    const auto eq = f.find('=');
    if (eq == std::string::npos || eq == 0) throw UsageError("--option", f, fmt::format("--option '{}' is not NAME=VALUE", f));
    out.emplace_back(f.substr(0, eq), f.substr(eq + 1));
  }
  return out;
}

unsigned checked_threads(unsigned threads) {
  if (threads > kMaxThreads)
    throw UsageError("--threads", std::to_string(threads),
                     fmt::format("--threads {}: at most {} (0: every hardware thread)", threads, kMaxThreads));
  return threads;
}

unsigned resolve_readers(unsigned readers, const Backend& b, unsigned threads) {
  if (readers > kMaxReaders)
    throw UsageError("--readers", std::to_string(readers),
                     fmt::format("--readers {}: at most {} (0: by backend)", readers, kMaxReaders));
  if (readers > 0) return readers;
  const unsigned hardware = std::max(std::thread::hardware_concurrency(), 1u);
  // A device twin's host threads mostly wait: readers may take a quarter of the cores. A host
  // twin's threads are the compute, and a reader copies frames about 8 times as fast as a thread
  // of cpu-simd scores them (H200 host, 240 4K frames on 16 threads: 1 reader 400 ms, 2 readers
  // 200 ms, 4 readers 227 ms, the extra readers taking cores from the compute).
  if (b.gpu()) return std::clamp(hardware / 4, 1u, 4u);
  return std::clamp((threads > 0 ? threads : hardware) / 8, 1u, 4u);
}

bool pinned_host_memory(const std::string& value) {
  if (value != "pinned" && value != "pageable") throw UsageError("--host-memory", value, "--host-memory: pinned or pageable");
  return value == "pinned";
}

}  // namespace twinproof
