// Frames as the raw stream holds them, and the sources that yield them one at a time.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "extractors/extractor.hpp"

namespace twinproof {

// Largest width or height accepted from any input: above 16K, and small enough that every
// plane size and w * h stays far from integer overflow.
inline constexpr int kMaxDimension = 32768;
// The most one frame may take in memory (a 16K 4:4:4 16-bit frame takes 0.8 GiB): a bound on
// what a header from outside can make the harness allocate.
inline constexpr std::uint64_t kMaxFrameBytes = std::uint64_t{1} << 30;

// Bytes of one frame in the raw layout (Y, then U, then V; no padding). Throws InputError
// naming `file` when the format is invalid or its frame would not fit in memory.
std::size_t frame_bytes(const Format& fmt, const std::string& file);
// Validates width, height, bit depth and chroma of an input format (same errors).
void validate_format(const Format& fmt, const std::string& file);

// One frame in the raw stream layout; 16-bit samples are little-endian words. Its samples live in
// ordinary memory, or in memory a backend asked for (HostMemory: page-locked for a device twin).
// Copies own their samples (in ordinary memory); moves and swaps hand the same samples over. A
// view holds the samples (PictureView::keep), so they outlive the frame while the view is kept.
class Frame {
 public:
  Frame() = default;
  Frame(const Frame& o);
  Frame& operator=(const Frame& o);
  Frame(Frame&&) noexcept = default;
  Frame& operator=(Frame&&) noexcept = default;

  // (Re)shapes for fmt. The samples are reallocated when they do not fit, from the memory the
  // frame already uses; reset(fmt, memory) moves them to `memory` (nullptr: ordinary memory).
  void reset(const Format& fmt);
  void reset(const Format& fmt, const std::shared_ptr<HostMemory>& memory);
  // Readers fill only the leading `planes` planes (1: luma alone) of this frame from now on, when
  // that loses no check: at 10 and 12 bits every plane is still read, since each sample read is
  // checked against the bit depth. A plane not read holds whatever the buffer held before, and
  // views show it as absent (a null pointer). Kept across reset(); a copy reads like its source.
  void read_leading_planes(int planes) { wanted_planes_ = planes; }
  // How many leading planes readers fill, and their bytes.
  int planes_read() const;
  std::size_t read_size() const { return offset_[planes_read()]; }
  const Format& format() const { return fmt_; }
  std::uint8_t* bytes() { return data_.get(); }
  const std::uint8_t* bytes() const { return data_.get(); }
  std::size_t size() const { return offset_[3]; }
  std::size_t plane_offset(int plane) const { return offset_[plane]; }
  std::size_t plane_size(int plane) const { return offset_[plane + 1] - offset_[plane]; }
  const std::shared_ptr<HostMemory>& memory() const { return memory_; }
  // Whether someone besides this frame holds its samples (a view's `keep`: a device upload in flight).
  bool held_elsewhere() const { return data_ && data_.use_count() > 1; }
  PictureView view() const;

 private:
  Format fmt_{};
  std::shared_ptr<std::uint8_t> data_;
  std::size_t capacity_ = 0;
  std::shared_ptr<HostMemory> memory_;  // where data_ came from; nullptr: ordinary memory
  std::size_t offset_[4] = {0, 0, 0, 0};
  int wanted_planes_ = 3;  // read_leading_planes
};

// One frame of a pair of clips, as a frame loop hands it over: the reference frame and the
// distorted one. A clip scored on its own is its own distorted clip (both point at one frame).
// reference == nullptr: no more frames.
struct FramePair {
  const Frame* reference = nullptr;
  const Frame* distorted = nullptr;
};

class FrameSource;
// The clips a run reads: the reference and, for a pair, the distorted clip (nullptr: the
// reference is its own distorted clip).
struct ClipPair {
  std::unique_ptr<FrameSource> reference, distorted;
};

// Checks that every sample read of a 10- or 12-bit frame is below 2^bitdepth.
void check_sample_range(const Frame& f, const std::string& file, unsigned frame_index);

class FrameSource {
 public:
  virtual ~FrameSource() = default;
  virtual const Format& format() const = 0;
  virtual const std::string& name() const = 0;  // the file, or the vector id
  // The next frame into `f`; false at the end of the stream. Throws InputError on bad input.
  virtual bool next(Frame& f) = 0;
  // Frames still to come, when known.
  virtual std::optional<unsigned> frames_left() const { return std::nullopt; }
  // Whether a read may wait without end (a pipe, a terminal): such a source is never read ahead,
  // as a reader blocked in it could not be stopped.
  virtual bool may_block() const { return false; }
  // Whether the source checks something only once every frame is read (a vector's pinned hash):
  // a run then reads it to the end even when its range of frames ends earlier.
  virtual bool checks_at_end() const { return false; }
  // The number of frames when every frame lies at a known place of a regular file and the stream
  // has not been read yet: read_frame() may then fetch any of them, from several threads at once.
  virtual std::optional<unsigned> random_access() { return std::nullopt; }
  // Frame `index` into `f`, already shaped for format(); only after random_access() gave a count.
  // Checks what next() checks (sample range) and throws the same InputErrors.
  virtual void read_frame(unsigned index, Frame& f) const;
};

// A file opened for reading ("-" is standard input). Closes on destruction.
class InputFile {
 public:
  explicit InputFile(const std::string& path);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  std::FILE* get() const { return f_; }
  const std::string& path() const { return path_; }
  bool is_stdin() const { return path_ == "-"; }
  // Size in bytes for regular files, nullopt for pipes.
  std::optional<std::uint64_t> regular_size() const;
  // Reads up to n bytes; returns how many were read (short only at end of file). Throws on error.
  std::size_t read(void* dst, std::size_t n);
  // Moves past up to n bytes without copying them where the file allows it (a regular file), else
  // reads and drops them; returns how many the file held (short only at end of file).
  std::size_t skip(std::size_t n);
  // How many of the n bytes at `offset` a regular file holds now (n for any other input).
  std::size_t held_at(std::uint64_t offset, std::size_t n) const;
  // Reads up to n bytes at `offset` without moving the stream (pread: several threads may read
  // at once); short only at end of file. Throws on error.
  std::size_t read_at(void* dst, std::size_t n, std::uint64_t offset) const;

 private:
  std::string path_;
  std::FILE* f_ = nullptr;
};

// Raw planar input: geometry given by the caller.
std::unique_ptr<FrameSource> open_yuv(const std::string& path, const Format& fmt);
// YUV4MPEG2 input.
std::unique_ptr<FrameSource> open_y4m(const std::string& path);
// Chooses by extension (.y4m) or magic; raw input needs `raw_format`.
std::unique_ptr<FrameSource> open_input(const std::string& path, const std::optional<Format>& raw_format);

// The frames of `inner` after its first `skip`, at most `count` of them (vmaf's --frame_skip_ref
// / --frame_skip_dist and --frame_cnt: the clip is then that long). A source that checks
// something at its end (a vector's pin) is still read to the end, its frames past `count`
// dropped, so the check is never skipped.
std::unique_ptr<FrameSource> clip_window(std::unique_ptr<FrameSource> inner, unsigned skip, std::optional<unsigned> count);

// Writers (bundles, `vectors make`).
class FrameWriter {
 public:
  virtual ~FrameWriter() = default;
  virtual void write(const Frame& f) = 0;
  // Flushes and closes; throws InputError when the bytes did not all reach the file (a full
  // disk is seen here at the latest). A writer dropped without close() may have lost data.
  virtual void close() = 0;
};
std::unique_ptr<FrameWriter> create_y4m_writer(const std::string& path, const Format& fmt);
std::unique_ptr<FrameWriter> create_raw_writer(const std::string& path);

// "420p10" style name and the Y4M C tag for a format.
std::string y4m_colorspace(const Format& fmt);

}  // namespace twinproof
