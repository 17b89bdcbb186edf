#include "harness/support/environment.hpp"

#include <chrono>
#include <fstream>
#include <set>
#include <sstream>

#include <ctime>

#include <fmt/chrono.h>
#include <unistd.h>

#include "extractors/devices.hpp"
#include "extractors/simd.hpp"
#include "harness/support/version.hpp"

namespace twinproof {
using nlohmann::json;

namespace {

std::string cpu_field(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) {
      const auto colon = line.find(':');
      return colon == std::string::npos ? "" : line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  return "unknown";
}

// The compiler that built this binary, named as it names itself: clang's __VERSION__ says
// "Clang 14.0.6" (and it defines __GNUC__ too), GCC's only its number.
std::string compiler_name() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("gcc ") + __VERSION__;
#else
  return "unknown compiler";
#endif
}

}  // namespace

std::string today_utc() {
  const std::chrono::year_month_day day{std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now())};
  return fmt::format("{:04}-{:02}-{:02}", static_cast<int>(day.year()), static_cast<unsigned>(day.month()),
                     static_cast<unsigned>(day.day()));
}

json environment_fingerprint() {
  // The CPU flags that matter to this project's code paths.
  std::set<std::string> flags;
  std::istringstream all(cpu_field("flags"));
  for (std::string f; all >> f;)
    if (f == "sse4_2" || f == "avx" || f == "avx2" || f == "fma" || f.rfind("avx512", 0) == 0) flags.insert(f);
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  json devices = json::array();
  for (const DeviceDescription& d : cuda_devices())
    devices.push_back({{"ordinal", d.ordinal},
                       {"name", d.name},
                       {"compute_capability", d.compute_capability},
                       {"memory_bytes", d.memory},
                       {"multiprocessors", d.multiprocessors}});
  return {{"twinproof", TWINPROOF_VERSION},
          {"git_commit", git_commit()},
          {"compiler", compiler_name()},
          {"host", host},
          {"cpu", cpu_field("model name")},
          {"cpu_flags", flags},
          {"simd_level", std::string(to_string(simd_level()))},  // what cpu-simd twins run
          {"cores", sysconf(_SC_NPROCESSORS_ONLN)},
          {"cuda_runtime", cuda_runtime_version()},
          {"cuda_driver", cuda_driver_version()},
          {"devices", devices},
          {"date", today_utc()},
          {"time", fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr)))}};  // when the reports were made
}

}  // namespace twinproof
