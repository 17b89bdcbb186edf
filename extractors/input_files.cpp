#include "extractors/input_files.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "extractors/extractor.hpp"

namespace twinproof {
namespace {

struct NotedInput {
  dev_t device;
  ino_t inode;
  std::string path, role;
};

std::mutex& inputs_mutex() {
  static std::mutex m;
  return m;
}
std::vector<NotedInput>& inputs() {
  static std::vector<NotedInput> v;
  return v;
}

// Closes a descriptor on every way out.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

void note_run_input(int fd, const std::string& path, std::string_view role) {
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return;
  const std::lock_guard lock(inputs_mutex());
  for (const NotedInput& n : inputs())
    if (n.device == st.st_dev && n.inode == st.st_ino) return;
  inputs().push_back({st.st_dev, st.st_ino, path, std::string(role)});
}

std::optional<std::string> run_input_at(const std::filesystem::path& target) {
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  const std::lock_guard lock(inputs_mutex());
  for (const NotedInput& n : inputs())
    if (n.device == st.st_dev && n.inode == st.st_ino) return n.role + " " + n.path;
  return std::nullopt;
}

std::string read_bounded_file(const std::filesystem::path& file, std::uintmax_t max_bytes, const std::string& what) {
  const std::string name = file.string();
  const auto refuse = [&](const char* subject, const std::string& value, const std::string& why) {
    return ConfigError(subject, value, fmt::format("cannot open {}: {}", what, why));
  };
  // O_NONBLOCK: opening a FIFO must not wait for a writer before its type is seen and refused.
  Descriptor d{::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)};
  if (d.fd < 0) throw refuse("file", name, errno == ENOENT ? "no such file" : std::strerror(errno));
  struct stat st {};
  if (::fstat(d.fd, &st) != 0) throw refuse("file", name, std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw refuse("file", name, "is a directory");
  if (!S_ISREG(st.st_mode)) throw refuse("file", name, "not a regular file");
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes)
    throw ConfigError("size", fmt::format("{} bytes", st.st_size),
                      fmt::format("larger than the {} bytes allowed for {}", max_bytes, what));
  // Read to the end, but never past the limit: a file that grows while it is read is refused too.
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t got = 0;
  for (;;) {
    if (got == text.size()) {
      if (text.size() > max_bytes)
        throw ConfigError("size", fmt::format("more than {} bytes", max_bytes),
                          fmt::format("larger than the {} bytes allowed for {} (it grew while read)", max_bytes, what));
      text.resize(std::min<std::uintmax_t>(text.size() + 65536, max_bytes + 1));
      if (got == text.size()) continue;
    }
    const ssize_t r = ::read(d.fd, text.data() + got, text.size() - got);
    if (r == 0) break;
    if (r < 0) {
      if (errno == EINTR) continue;
      throw refuse("file", name, std::string("read failed: ") + std::strerror(errno));
    }
    got += static_cast<std::size_t>(r);
  }
  text.resize(got);
  note_run_input(d.fd, name, what);
  return text;
}

int json_nesting_depth(std::string_view text, int limit) {
  int depth = 0, deepest = 0;
  for_each_outside_json_strings(text, [&](std::size_t i) {
    if (text[i] == '[' || text[i] == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return std::string_view::npos;
    } else if (text[i] == ']' || text[i] == '}') {
      --depth;
    }
    return i;
  });
  return deepest;
}

std::optional<std::string> json_overflowing_number(std::string_view text) {
  std::optional<std::string> found;
  for_each_outside_json_strings(text, [&](std::size_t i) {
    if (text[i] != '-' && (text[i] < '0' || text[i] > '9')) return i;
    std::size_t end = i;
    while (end < text.size() && ((text[end] >= '0' && text[end] <= '9') || std::strchr("+-.eE", text[end]) != nullptr)) ++end;
    const std::string token(text.substr(i, end - i));
    if (!std::isinf(std::strtod(token.c_str(), nullptr))) return end - 1;
    found = fmt::format("byte {}: {}", i, token.substr(0, 40));
    return std::string_view::npos;
  });
  return found;
}

}  // namespace twinproof
