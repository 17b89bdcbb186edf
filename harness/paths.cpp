#include "harness/paths.hpp"

#include <cstdlib>
#include <system_error>

namespace twinproof {
namespace fs = std::filesystem;

namespace {
bool holds_data(const fs::path& p) {
  std::error_code ec;
  return fs::exists(p / "vectors" / "manifest.json", ec);
}
}  // namespace

fs::path data_root() {
  if (const char* env = std::getenv("TWINPROOF_DATA"); env != nullptr && *env != '\0') return fs::path(env);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (fs::path dir = exe.parent_path(); !dir.empty() && dir != dir.root_path(); dir = dir.parent_path())
      if (holds_data(dir)) return dir;
  }
  return fs::path(TWINPROOF_SOURCE_DIR);
}

fs::path cache_root() {
  if (const char* env = std::getenv("TWINPROOF_CACHE"); env != nullptr && *env != '\0') return fs::path(env);
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') return fs::path(xdg) / "twinproof";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') return fs::path(home) / ".cache" / "twinproof";
  return fs::temp_directory_path() / "twinproof-cache";
}

}  // namespace twinproof
