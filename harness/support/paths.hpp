// Where the project's data (vectors/, goldens/, ci/) and the vector cache are.
#pragma once

#include <filesystem>
#include <string>

namespace twinproof {

// The folder holding vectors/manifest.json, goldens/ and ci/: $TWINPROOF_DATA, else the nearest
// folder above the executable that holds them (a source tree, a bundle's bin/twinproof), or its
// share/twinproof (an installed PREFIX/bin/twinproof). Throws ConfigError when there is none: no
// path of the build machine is compiled in.
std::filesystem::path data_root();

// Decoded real-content vectors: $TWINPROOF_CACHE, else $XDG_CACHE_HOME/twinproof, else
// ~/.cache/twinproof. Never inside the source tree.
std::filesystem::path cache_root();

}  // namespace twinproof

namespace twinproof {

// Makes `dir` (and its parents) a folder, or throws InputError naming `flag` and why not (a file
// is in the way, no permission, a read-only or pseudo file system).
void ensure_directory(const std::filesystem::path& dir, const std::string& flag);

// An exclusive claim on a folder that one run writes into (a gate's report folder, a merge's
// output): a second run that asks for it is refused with the holder's pid, instead of both
// tearing each other's records. Released when the object goes (or the process ends).
class FolderLock {
 public:
  FolderLock(const std::filesystem::path& dir, const std::string& flag);
  ~FolderLock();
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_ = -1;
};

// How an output file is written: whole, through FILE.part and a rename, when it is a regular file
// or absent; straight through when it is a device, a pipe or a link (never replaced by a regular
// file). A folder is refused with an InputError naming `flag`.
bool writes_through(const std::filesystem::path& file, const std::string& flag);

// Writes `text` to `file` whole or throws InputError, as writes_through says.
void write_file(const std::filesystem::path& file, const std::string& text, const std::string& what);

}  // namespace twinproof
