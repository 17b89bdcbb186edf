// Helpers shared by the suites: temporary folders, files, and running the twinproof binary.
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "extractors/extractor.hpp"
#include "harness/gate/repro.hpp"
#include "harness/goldens/goldens.hpp"
#include "harness/io/frame.hpp"
#include "harness/report/results.hpp"
#include "harness/scoring/scores.hpp"

namespace twinproof {
// Printers for Boost.Test messages.
inline std::ostream& operator<<(std::ostream& os, Chroma c) { return os << to_string(c); }
inline std::ostream& operator<<(std::ostream& os, const PlaneSize& s) { return os << s.w << "x" << s.h; }
inline std::ostream& operator<<(std::ostream& os, const Format& f) { return os << describe(f); }
inline std::ostream& operator<<(std::ostream& os, GoldenStatus s) { return os << to_string(s); }
inline std::ostream& operator<<(std::ostream& os, CellStatus s) { return os << to_string(s); }
}  // namespace twinproof

namespace twinproof::test {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

void write_file(const std::filesystem::path& p, const std::string& bytes);
std::string read_file(const std::filesystem::path& p);
// Whether `part` occurs in `s` (messages, reports, command output).
inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

struct CliResult {
  int rc = -1;
  std::string out, err;
};
// The project's calibration table with one exact row of `feature` for each fixture twin in
// `twins`, written to `file` (a test's own twin must have a row before the gate runs it).
void write_table_with_exact_rows(const std::filesystem::path& file, const std::vector<std::string>& twins,
                                 const std::string& feature = "float_motion");

// Runs the twinproof binary ($TWINPROOF_BIN, else the one built beside the tests).
CliResult run_cli(const std::vector<std::string>& args, const std::string& stdin_file = {});
// Any program, the same way.
CliResult run_program(const std::string& bin, const std::vector<std::string>& args, const std::string& stdin_file = {});

// One pair of single frames (frame 0) scored by a feature's backend.
ScoreTable score_pair(std::string_view feature, std::string_view backend, const Frame& ref, const Frame& dist,
                      const OptionList& options = {}, unsigned threads = 1);
// repro of a shipped matrix's cell (its id), with the deliberately broken twins registered.
ReproResult replay_cell(const std::string& id);

// The SHA-256 of a source's raw stream, read to its end (what a vector's pin covers).
std::string stream_sha256(FrameSource& src);

// A libvmaf document without its version and fps lines: what differs between the vmaf tool's and
// twinproof's documents of the same scores.
std::string without_version_and_fps(const std::string& document);

// A frame with every sample set by fn(plane, x, y).
template <class Fn>
Frame make_frame(const Format& fmt, Fn fn) {
  Frame f;
  f.reset(fmt);
  for (int p = 0; p < fmt.planes(); ++p) {
    const PlaneSize s = stored_plane_size(fmt, p);
    for (int y = 0; y < s.h; ++y)
      for (int x = 0; x < s.w; ++x) {
        const unsigned v = fn(p, x, y);
        std::uint8_t* base = f.bytes() + f.plane_offset(p);
        if (fmt.bitdepth == 8) base[static_cast<std::size_t>(y) * s.w + x] = static_cast<std::uint8_t>(v);
        else reinterpret_cast<std::uint16_t*>(base)[static_cast<std::size_t>(y) * s.w + x] = static_cast<std::uint16_t>(v);
      }
  }
  return f;
}

}  // namespace twinproof::test
