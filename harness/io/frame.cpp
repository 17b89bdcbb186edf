#include "harness/io/frame.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include "extractors/input_files.hpp"
#include "extractors/large_pages.hpp"
#include "harness/support/errors.hpp"

namespace twinproof {

static_assert(std::endian::native == std::endian::little,
              "16-bit samples are read as native words; a big-endian host needs byte swapping");

void validate_format(const Format& fmt, const std::string& file) {
  if (fmt.width <= 0) throw InputError(file, "width", std::to_string(fmt.width), "width must be at least 1");
  if (fmt.height <= 0) throw InputError(file, "height", std::to_string(fmt.height), "height must be at least 1");
  if (fmt.width > kMaxDimension)
    throw InputError(file, "width", std::to_string(fmt.width),
                     fmt::format("width exceeds the largest supported {}", kMaxDimension));
  if (fmt.height > kMaxDimension)
    throw InputError(file, "height", std::to_string(fmt.height),
                     fmt::format("height exceeds the largest supported {}", kMaxDimension));
  if (fmt.bitdepth != 8 && fmt.bitdepth != 10 && fmt.bitdepth != 12 && fmt.bitdepth != 16)
    throw InputError(file, "bitdepth", std::to_string(fmt.bitdepth), "bit depth must be 8, 10, 12 or 16");
  // A subsampled chroma plane of a one-sample-wide (or -high) picture has no samples in the
  // geometry float_motion scores: (w >> 1) == 0.
  const ChromaShift cs = chroma_shift(fmt.chroma);
  if (fmt.chroma != Chroma::c400 && ((fmt.width >> cs.hs) == 0 || (fmt.height >> cs.vs) == 0))
    throw InputError(file, "size", fmt::format("{}x{}", fmt.width, fmt.height),
                     fmt::format("a {}x{} picture cannot hold {} chroma (its chroma planes would be empty)", fmt.width,
                                 fmt.height, to_string(fmt.chroma)));
}

std::size_t frame_bytes(const Format& fmt, const std::string& file) {
  validate_format(fmt, file);
  // With both extents <= 32768 and at most 3 planes of 2-byte samples, the product is below
  // 2^33: no overflow in 64-bit arithmetic.
  std::uint64_t total = 0;
  for (int p = 0; p < fmt.planes(); ++p) {
    const PlaneSize s = stored_plane_size(fmt, p);
    total += static_cast<std::uint64_t>(s.w) * static_cast<std::uint64_t>(s.h) * fmt.bytes_per_sample();
  }
  if (total > kMaxFrameBytes)
    throw InputError(
        file, "size", fmt::format("{}x{} {}-bit {}", fmt.width, fmt.height, fmt.bitdepth, to_string(fmt.chroma)),
        fmt::format("one frame would take {} bytes, more than the {} bytes a frame may hold", total, kMaxFrameBytes));
  return static_cast<std::size_t>(total);
}

void Frame::reset(const Format& fmt) { reset(fmt, memory_); }

void Frame::reset(const Format& fmt, const std::shared_ptr<HostMemory>& memory) {
  fmt_ = fmt;
  std::size_t off = 0;
  for (int p = 0; p < 3; ++p) {
    offset_[p] = off;
    if (p < fmt.planes()) {
      const PlaneSize s = stored_plane_size(fmt, p);
      off += static_cast<std::size_t>(s.w) * s.h * fmt.bytes_per_sample();
    }
  }
  offset_[3] = off;
  if (off <= capacity_ && memory == memory_ && data_) return;
  data_.reset();  // the old samples go before the new ones are allocated
  capacity_ = 0;
  memory_ = memory;
  if (off == 0) return;
  data_ = memory_ ? memory_->allocate(off) : allocate_zeroed(off);
  capacity_ = off;
}

int Frame::planes_read() const {
  const int all = fmt_.planes();
  if (fmt_.bitdepth == 10 || fmt_.bitdepth == 12) return all;  // check_sample_range reads every plane
  return std::clamp(wanted_planes_, 1, all);
}

Frame::Frame(const Frame& o) { *this = o; }

Frame& Frame::operator=(const Frame& o) {
  if (this == &o) return *this;
  reset(o.fmt_, nullptr);
  wanted_planes_ = o.wanted_planes_;
  if (size() > 0) std::memcpy(bytes(), o.bytes(), read_size());
  return *this;
}

PictureView Frame::view() const {
  PictureView v;
  v.fmt = fmt_;
  v.keep = data_;
  for (int p = 0; p < planes_read(); ++p) {
    v.data[p] = data_.get() + offset_[p];
    v.stride[p] = static_cast<std::ptrdiff_t>(stored_plane_size(fmt_, p).w) * fmt_.bytes_per_sample();
  }
  return v;
}

void check_sample_range(const Frame& f, const std::string& file, unsigned frame_index) {
  const int bpc = f.format().bitdepth;
  if (bpc == 8 || bpc == 16) return;
  const std::uint16_t limit = static_cast<std::uint16_t>(1u << bpc);
  static const char* const names[] = {"Y", "U", "V"};
  for (int p = 0; p < f.planes_read(); ++p) {
    const auto* s = reinterpret_cast<const std::uint16_t*>(f.bytes() + f.plane_offset(p));
    const std::size_t n = f.plane_size(p) / 2;
    std::uint16_t worst = 0;
    for (std::size_t i = 0; i < n; ++i) worst = s[i] > worst ? s[i] : worst;
    if (worst < limit) continue;
    const int w = stored_plane_size(f.format(), p).w;
    for (std::size_t i = 0; i < n; ++i)
      if (s[i] >= limit)
        throw InputError(file, fmt::format("frame {} plane {} sample ({}, {})", frame_index, names[p], i % w, i / w),
                         std::to_string(s[i]), fmt::format("sample exceeds the {}-bit maximum {}", bpc, limit - 1));
  }
}

InputFile::InputFile(const std::string& path) : path_(path) {
  if (path == "-") {
    f_ = stdin;
    return;
  }
  // Opened without waiting (a FIFO would block here until a writer came), then judged by what it
  // is: a clip is a regular file, or a stream given as '-'. A device (/dev/zero) or a pipe named
  // as a file would be read without end or without a size.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) throw InputError(path, "file", path, std::strerror(errno));
  struct stat st {};
  const char* refusal = ::fstat(fd, &st) != 0  ? std::strerror(errno)
                        : S_ISDIR(st.st_mode)  ? "is a directory"
                        : !S_ISREG(st.st_mode) ? "is not a regular file (a device, a pipe or a socket): give a file, or - "
                                                 "for a stream on standard input"
                                               : nullptr;
  if (refusal == nullptr && ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) refusal = std::strerror(errno);
  if (refusal == nullptr) f_ = ::fdopen(fd, "rb");
  if (f_ == nullptr) {
    const std::string why = refusal != nullptr ? refusal : std::strerror(errno);
    ::close(fd);
    throw InputError(path, "file", path, why);
  }
  note_run_input(fd, path, "the clip");
}

InputFile::~InputFile() {
  if (f_ != nullptr && f_ != stdin) std::fclose(f_);
}

std::optional<std::uint64_t> InputFile::regular_size() const {
  struct stat st {};
  if (::fstat(fileno(f_), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return static_cast<std::uint64_t>(st.st_size);
}

std::size_t InputFile::read(void* dst, std::size_t n) {
  const std::size_t got = std::fread(dst, 1, n, f_);
  if (got < n && std::ferror(f_)) throw InputError(path_, "file", path_, std::string("read failed: ") + std::strerror(errno));
  return got;
}

std::size_t InputFile::skip(std::size_t n) {
  if (n == 0) return 0;
  if (const long at = regular_size() ? std::ftell(f_) : -1; at >= 0) {
    const std::size_t passed = held_at(static_cast<std::uint64_t>(at), n);
    if (std::fseek(f_, static_cast<long>(passed), SEEK_CUR) != 0)
      throw InputError(path_, "file", path_, std::string("seek failed: ") + std::strerror(errno));
    return passed;
  }
  std::vector<std::uint8_t> sink(std::min<std::size_t>(n, std::size_t{1} << 16));
  std::size_t passed = 0;
  while (passed < n) {
    const std::size_t got = read(sink.data(), std::min(sink.size(), n - passed));
    passed += got;
    if (got == 0) break;
  }
  return passed;
}

std::size_t InputFile::held_at(std::uint64_t offset, std::size_t n) const {
  const auto size = regular_size();
  if (!size) return n;
  return *size <= offset ? 0 : static_cast<std::size_t>(std::min<std::uint64_t>(n, *size - offset));
}

std::size_t InputFile::read_at(void* dst, std::size_t n, std::uint64_t offset) const {
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::pread(fileno(f_), static_cast<std::uint8_t*>(dst) + got, n - got, static_cast<off_t>(offset + got));
    if (r == 0) break;
    if (r < 0) {
      if (errno == EINTR) continue;
      throw InputError(path_, "file", path_, std::string("read failed: ") + std::strerror(errno));
    }
    got += static_cast<std::size_t>(r);
  }
  return got;
}

void FrameSource::read_frame(unsigned index, Frame&) const {
  throw std::logic_error(fmt::format("{}: frame {} asked by place of a source that is read in order only", name(), index));
}

namespace {

class FileWriter {
 public:
  explicit FileWriter(const std::string& path) : path_(path) {
    f_ = path == "-" ? stdout : std::fopen(path.c_str(), "wb");
    if (f_ == nullptr) throw InputError(path, "file", path, std::string("cannot create: ") + std::strerror(errno));
  }
  ~FileWriter() {
    if (f_ != nullptr && f_ != stdout) std::fclose(f_);
  }
  void put(const void* p, std::size_t n) {
    if (std::fwrite(p, 1, n, f_) != n)
      throw InputError(path_, "file", path_, std::string("write failed: ") + std::strerror(errno));
  }
  void put(const std::string& s) { put(s.data(), s.size()); }
  void close() {
    if (f_ == nullptr) return;
    const bool ok = f_ == stdout ? std::fflush(f_) == 0 && !std::ferror(f_) : std::fclose(f_) == 0;
    f_ = nullptr;
    if (!ok) throw InputError(path_, "file", path_, std::string("write failed: ") + std::strerror(errno));
  }

 private:
  std::string path_;
  std::FILE* f_ = nullptr;
};

// A frame's bytes for a writer, which needs every plane.
const std::uint8_t* whole(const Frame& f) {
  if (f.planes_read() != f.format().planes())
    throw std::logic_error(
        fmt::format("a frame read without its last {} plane(s) cannot be written out", f.format().planes() - f.planes_read()));
  return f.bytes();
}

class RawWriter final : public FrameWriter {
 public:
  explicit RawWriter(const std::string& path) : out_(path) {}
  void write(const Frame& f) override { out_.put(whole(f), f.size()); }
  void close() override { out_.close(); }

 private:
  FileWriter out_;
};

class Y4mWriter final : public FrameWriter {
 public:
  Y4mWriter(const std::string& path, const Format& fmt) : out_(path) {
    out_.put(fmt::format("YUV4MPEG2 W{} H{} F25:1 Ip A1:1 C{}\n", fmt.width, fmt.height, y4m_colorspace(fmt)));
  }
  void write(const Frame& f) override {
    out_.put("FRAME\n");
    out_.put(whole(f), f.size());
  }
  void close() override { out_.close(); }

 private:
  FileWriter out_;
};

}  // namespace

std::string y4m_colorspace(const Format& fmt) {
  if (fmt.chroma == Chroma::c400) return fmt.bitdepth == 8 ? "mono" : fmt::format("mono{}", fmt.bitdepth);
  const std::string base(to_string(fmt.chroma));
  if (fmt.bitdepth == 8) return fmt.chroma == Chroma::c420 ? "420jpeg" : base;
  return fmt::format("{}p{}", base, fmt.bitdepth);
}

std::unique_ptr<FrameWriter> create_y4m_writer(const std::string& path, const Format& fmt) {
  return std::make_unique<Y4mWriter>(path, fmt);
}
std::unique_ptr<FrameWriter> create_raw_writer(const std::string& path) { return std::make_unique<RawWriter>(path); }

}  // namespace twinproof
