#include "harness/support/paths.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <system_error>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "harness/support/errors.hpp"

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
  // Found from where the binary is, never from where it was built: a source or build tree holds
  // the data in an ancestor folder, an installed binary (PREFIX/bin) in PREFIX/share/twinproof.
  static const fs::path found = [] {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
      for (fs::path dir = exe.parent_path(); !dir.empty(); dir = dir.parent_path()) {
        if (holds_data(dir)) return dir;
        if (holds_data(dir / "share" / "twinproof")) return dir / "share" / "twinproof";
        if (dir == dir.root_path()) break;
      }
    return fs::path();
  }();
  if (found.empty())
    throw UsageError("TWINPROOF_DATA", "",
                     "cannot find twinproof's data (vectors/manifest.json, goldens/, ci/) in a folder above the executable or in "
                     "PREFIX/share/twinproof; set TWINPROOF_DATA to the folder that holds them");
  return found;
}

fs::path cache_root() {
  if (const char* env = std::getenv("TWINPROOF_CACHE"); env != nullptr && *env != '\0') return fs::path(env);
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') return fs::path(xdg) / "twinproof";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') return fs::path(home) / ".cache" / "twinproof";
  return fs::temp_directory_path() / "twinproof-cache";
}

void ensure_directory(const fs::path& dir, const std::string& flag) {
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (fs::exists(st) && !fs::is_directory(st)) throw InputError(dir.string(), flag, dir.string(), "exists and is not a folder");
  if (fs::exists(st)) return;
  fs::create_directories(dir, ec);
  if (ec) throw InputError(dir.string(), flag, dir.string(), "cannot create the folder: " + ec.message());
}

FolderLock::FolderLock(const fs::path& dir, const std::string& flag) {
  ensure_directory(dir, flag);
  const fs::path file = dir / ".twinproof.lock";
  fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd_ < 0)
    throw InputError(file.string(), flag, dir.string(), std::string("cannot lock the folder: ") + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    char buf[32] = {};
    const ssize_t n = ::pread(fd_, buf, sizeof buf - 1, 0);
    ::close(fd_);
    fd_ = -1;
    std::string holder = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string("?");
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
    if (err == EWOULDBLOCK)
      throw InputError(
          dir.string(), flag, dir.string(),
          fmt::format("another twinproof run (pid {}) is writing into this folder; wait for it or choose another", holder));
    throw InputError(file.string(), flag, dir.string(), std::string("cannot lock the folder: ") + std::strerror(err));
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
    // The lock holds without the pid; only the message of a refused second run is poorer.
  }
}

FolderLock::~FolderLock() {
  if (fd_ >= 0) ::close(fd_);
}

bool writes_through(const fs::path& file, const std::string& flag) {
  struct stat st {};
  if (::lstat(file.c_str(), &st) != 0) return false;  // absent: made whole, then renamed into place
  if (S_ISLNK(st.st_mode)) {
    struct stat target {};
    if (::stat(file.c_str(), &target) == 0 && S_ISDIR(target.st_mode))
      throw InputError(file.string(), flag, file.string(), "is a folder: name a file to write");
    return true;
  }
  if (S_ISDIR(st.st_mode)) throw InputError(file.string(), flag, file.string(), "is a folder: name a file to write");
  return !S_ISREG(st.st_mode);
}

void write_file(const fs::path& file, const std::string& text, const std::string& what) {
  if (writes_through(file, "file")) {
    std::ofstream out(file, std::ios::binary);
    if (!out || !(out << text) || !out.flush())
      throw InputError(file.string(), "file", file.string(), fmt::format("cannot write {}: {}", what, std::strerror(errno)));
    return;
  }
  const fs::path part = file.string() + ".part";
  {
    std::ofstream out(part, std::ios::binary | std::ios::trunc);
    if (!out)
      throw InputError(file.string(), "file", file.string(), fmt::format("cannot write {}: {}", what, std::strerror(errno)));
    out << text;
    out.close();
    if (!out) {
      std::error_code ignored;
      fs::remove(part, ignored);
      throw InputError(file.string(), "file", file.string(), fmt::format("cannot write {}: {}", what, std::strerror(errno)));
    }
  }
  std::error_code ec;
  fs::rename(part, file, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(part, ignored);
    throw InputError(file.string(), "file", file.string(), "cannot write " + what + ": " + ec.message());
  }
}

}  // namespace twinproof
