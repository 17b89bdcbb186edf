#include "harness/support/paths.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <system_error>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "extractors/input_files.hpp"
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

namespace {

// The permissions a new file gets here (0666 less the umask), read without changing the umask
// (umask(2) sets it while it reads it, which would race with other threads creating files).
mode_t new_file_mode() {
  static const mode_t mode = [] {
    mode_t mask = 022;
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
      if (line.rfind("Umask:", 0) == 0) mask = static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
    return static_cast<mode_t>(0666 & ~mask);
  }();
  return mode;
}

// The file a chain of links ends at (relative links read from their own folder); the path itself
// when it is no link. Past 40 links (the kernel's own limit) it is a loop.
fs::path link_destination(const fs::path& file, const std::string& flag) {
  fs::path at = file;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(at.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return at;
    std::error_code ec;
    const fs::path next = fs::read_symlink(at, ec);
    if (ec) throw InputError(file.string(), flag, file.string(), "cannot read the link: " + ec.message());
    at = next.is_absolute() ? next : at.parent_path() / next;
  }
  throw InputError(file.string(), flag, file.string(), "too many levels of links");
}

}  // namespace

void refuse_output_onto_input(const fs::path& target, const std::string& flag) {
  if (const auto input = run_input_at(target))
    throw InputError(target.string(), flag, target.string(),
                     fmt::format("is {} this run reads: an output is never written over an input", *input));
}

OutputFile::OutputFile(const fs::path& target, std::string flag, std::string what, OutputOwner owner)
    : target_(target), flag_(std::move(flag)), what_(std::move(what)) {
  const std::string name = target.string();
  const auto refuse = [&](const std::string& why) { return InputError(name, flag_, name, why); };
  refuse_output_onto_input(target, flag_);
  struct stat st {};
  if (::lstat(target.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) throw refuse("is a folder: name a file to write");
  if (owner == OutputOwner::user) {
    // What a user's target is at the end of its links decides: a device or a pipe (/dev/stdout,
    // a FIFO) cannot be replaced and is written through, by the path given; a regular file or
    // nothing is replaced whole, where the links end (the links stay). twinproof's own files are
    // always replaced whole, links and all.
    if (::stat(target.c_str(), &st) == 0) {
      if (S_ISDIR(st.st_mode)) throw refuse("is a folder: name a file to write");
      if (!S_ISREG(st.st_mode)) {
        through_ = true;
        writing_ = target_;
        return;
      }
    }
    target_ = link_destination(target, flag_);
  }
  const fs::path dir = target_.parent_path().empty() ? fs::path(".") : target_.parent_path();
  std::string pattern = (dir / ("." + target_.filename().string() + ".XXXXXX")).string();
  fd_ = ::mkostemp(pattern.data(), O_CLOEXEC);
  if (fd_ < 0) throw refuse(fmt::format("cannot create {}: {}", what_, std::strerror(errno)));
  writing_ = pattern;
  // A file replaced keeps its permissions; a new one gets what the umask gives (mkostemp's 0600
  // would hide a report from its readers).
  const bool existed = ::stat(target_.c_str(), &st) == 0;
  ::fchmod(fd_, existed ? (st.st_mode & 07777) : new_file_mode());
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !through_ && !writing_.empty()) ::unlink(writing_.c_str());
}

void OutputFile::append(std::string_view bytes) {
  const auto failed = [&] {
    return InputError(target_.string(), flag_, target_.string(), fmt::format("cannot write {}: {}", what_, std::strerror(errno)));
  };
  if (fd_ < 0) {  // written through: opened now, never created
    fd_ = ::open(writing_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY | O_APPEND);
    if (fd_ < 0) throw failed();
  }
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw failed();
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

void OutputFile::commit() {
  if (fd_ >= 0) {
    const int fd = std::exchange(fd_, -1);
    if (::close(fd) != 0 && !through_)
      throw InputError(target_.string(), flag_, target_.string(),
                       fmt::format("cannot write {}: {}", what_, std::strerror(errno)));
  }
  if (!through_ && ::rename(writing_.c_str(), target_.c_str()) != 0)
    throw InputError(target_.string(), flag_, target_.string(),
                     fmt::format("cannot move {} into place: {}", what_, std::strerror(errno)));
  committed_ = true;
}

void write_file(const fs::path& file, const std::string& text, const std::string& what, OutputOwner owner) {
  OutputFile out(file, "file", what, owner);
  out.append(text);
  out.commit();
}

}  // namespace twinproof
