// Where the project's data (vectors/, goldens/, ci/) and the vector cache are.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

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

// Who a file written belongs to, which decides what may stand where it goes.
enum class OutputOwner {
  // A file a user named (-o, --json, --output): a regular file or nothing there is replaced whole;
  // through a link, the file the link names is (the link stays); a device or a pipe is written
  // straight through; a folder is refused.
  user,
  // A file of a folder twinproof writes (a report folder, a bundle): whatever stands at its name
  // (a link, a FIFO planted there) is replaced by the new regular file, never followed or opened;
  // a folder is refused.
  twinproof,
};

// One output file, written the one way every command writes: into a temporary file created
// exclusively (O_EXCL, so never through a planted link, and never shared by two runs) in the
// target's own folder, renamed over the target once whole. A target that is an input of this
// run (extractors/input_files.hpp: the clips, the model, the table read) is refused before
// anything is written. Dropped without commit(), the temporary file goes and the target is as it
// was. Errors are InputError naming `flag`, the file and why.
class OutputFile {
 public:
  OutputFile(const std::filesystem::path& target, std::string flag, std::string what, OutputOwner owner = OutputOwner::user);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Where the bytes go until commit(): the temporary file, or the target when written through.
  const std::filesystem::path& path() const { return writing_; }
  // Writes `bytes` at the end of path() (for callers that hand the path to no writer of their own).
  void append(std::string_view bytes);
  // Moves the finished file into place.
  void commit();

 private:
  std::filesystem::path target_, writing_;
  std::string flag_, what_;
  bool through_ = false, committed_ = false;
  int fd_ = -1;
};

// Refuses (InputError naming `flag`) a target that is an input of this run, following links.
void refuse_output_onto_input(const std::filesystem::path& target, const std::string& flag);

// Writes `text` to `file` whole, as OutputFile does, or throws InputError.
void write_file(const std::filesystem::path& file, const std::string& text, const std::string& what,
                OutputOwner owner = OutputOwner::user);

}  // namespace twinproof
