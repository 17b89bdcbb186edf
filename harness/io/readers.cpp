// Readers of raw planar .yuv and YUV4MPEG2 streams. Frames are streamed one at a time.
#include <charconv>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "harness/io/frame.hpp"
#include "harness/support/errors.hpp"

namespace twinproof {
namespace {

// A frame's samples once read: a short read is a truncated frame, and every sample must fit the
// bit depth. `why` says how a short read came about.
void check_payload(const InputFile& in, const Frame& f, unsigned index, std::size_t got, const char* why) {
  if (got != f.size())
    throw InputError(in.path(), fmt::format("frame {}", index), fmt::format("{} of {} bytes", got, f.size()), why);
  check_sample_range(f, in.path(), index);
}

// Reads one frame's samples from the stream: the planes the frame reads, then past the others
// (which the input must still hold: a frame cut short is truncated whichever planes are read).
void read_payload(InputFile& in, Frame& f, unsigned index) {
  std::size_t got = in.read(f.bytes(), f.read_size());
  if (got == f.read_size()) got += in.skip(f.size() - got);
  check_payload(in, f, index, got, "truncated frame: the input ends inside it");
}

// The same from a place in the file, for readers that fetch frames side by side.
void read_payload_at(const InputFile& in, Frame& f, unsigned index, std::uint64_t offset) {
  std::size_t got = in.read_at(f.bytes(), f.read_size(), offset);
  if (got == f.read_size()) got += in.held_at(offset + got, f.size() - got);
  check_payload(in, f, index, got, "truncated frame: the input ends inside it (did the file shrink while it was read?)");
}

class YuvSource final : public FrameSource {
 public:
  YuvSource(const std::string& path, const Format& fmt) : in_(path), fmt_(fmt) {
    bytes_ = frame_bytes(fmt, path);
    if (auto size = in_.regular_size()) {
      if (*size == 0) throw InputError(path, "size", "0 bytes", "empty input: no frames");
      if (*size % bytes_ != 0)
        throw InputError(path, "size", fmt::format("{} bytes", *size),
                         fmt::format("not a whole number of {} frames of {} bytes: the last frame is truncated "
                                     "(or the geometry flags are wrong)",
                                     describe(fmt), bytes_));
      left_ = static_cast<unsigned>(*size / bytes_);
    }
  }
  const Format& format() const override { return fmt_; }
  const std::string& name() const override { return in_.path(); }
  bool may_block() const override { return !left_; }  // only a regular file has a size
  std::optional<unsigned> frames_left() const override {
    if (!left_) return std::nullopt;
    return *left_ - index_;
  }

  bool next(Frame& f) override {
    if (f.size() != bytes_ || !(f.format() == fmt_)) f.reset(fmt_);
    // Peek one byte to tell a clean end from a truncated frame.
    const int c = std::fgetc(in_.get());
    if (c == EOF) {
      if (index_ == 0) throw InputError(in_.path(), "size", "0 bytes", "empty input: no frames");
      return false;
    }
    std::ungetc(c, in_.get());
    read_payload(in_, f, index_++);
    return true;
  }

  std::optional<unsigned> random_access() override { return index_ == 0 ? left_ : std::nullopt; }
  void read_frame(unsigned index, Frame& f) const override {
    read_payload_at(in_, f, index, static_cast<std::uint64_t>(index) * bytes_);
  }

 private:
  InputFile in_;
  Format fmt_;
  std::size_t bytes_ = 0;
  unsigned index_ = 0;
  std::optional<unsigned> left_;
};

struct Colorspace {
  const char* tag;
  Chroma chroma;
  int bitdepth;
};
constexpr Colorspace kColorspaces[] = {
    {"420jpeg", Chroma::c420, 8},  {"420mpeg2", Chroma::c420, 8}, {"420paldv", Chroma::c420, 8}, {"420", Chroma::c420, 8},
    {"422", Chroma::c422, 8},      {"444", Chroma::c444, 8},      {"mono", Chroma::c400, 8},     {"420p10", Chroma::c420, 10},
    {"422p10", Chroma::c422, 10},  {"444p10", Chroma::c444, 10},  {"mono10", Chroma::c400, 10},  {"monop10", Chroma::c400, 10},
    {"420p12", Chroma::c420, 12},  {"422p12", Chroma::c422, 12},  {"444p12", Chroma::c444, 12},  {"mono12", Chroma::c400, 12},
    {"monop12", Chroma::c400, 12}, {"420p16", Chroma::c420, 16},  {"422p16", Chroma::c422, 16},  {"444p16", Chroma::c444, 16},
    {"mono16", Chroma::c400, 16},  {"monop16", Chroma::c400, 16},
};

// The longest header line accepted; real headers are well under 100 bytes.
constexpr std::size_t kMaxHeaderLine = 4096;

class Y4mSource final : public FrameSource {
 public:
  explicit Y4mSource(const std::string& path) : in_(path) {
    // The magic first, so that a file of another kind is named as such, not as a bad header.
    char magic[10] = {};
    const std::size_t got = in_.read(magic, 10);
    if (got == 0) throw InputError(path, "size", "0 bytes", "empty input: no YUV4MPEG2 header");
    if (got < 10 || std::memcmp(magic, "YUV4MPEG2", 9) != 0 || (magic[9] != ' ' && magic[9] != '\n'))
      throw InputError(path, "magic", std::string(magic, got), "not a YUV4MPEG2 stream (expected 'YUV4MPEG2')");
    const std::string header = "YUV4MPEG2 " + (magic[9] == '\n' ? std::string() : read_line("header"));
    bool have_w = false, have_h = false;
    std::string seen;            // tags read so far
    fmt_.chroma = Chroma::c420;  // the format's default colour space: 420jpeg
    fmt_.bitdepth = 8;
    std::size_t pos = 9;
    while (pos < header.size()) {
      while (pos < header.size() && header[pos] == ' ') ++pos;
      if (pos >= header.size()) break;
      std::size_t end = header.find(' ', pos);
      if (end == std::string::npos) end = header.size();
      const std::string tok = header.substr(pos, end - pos);
      pos = end;
      const char key = tok[0];
      const std::string val = tok.substr(1);
      // Every tag but X (extensions) says one thing once: a second W or C is a contradiction,
      // not a correction.
      if (key != 'X' && seen.find(key) != std::string::npos)
        throw InputError(path, std::string("header field ") + key, tok, "the tag appears twice in the header");
      if (key != 'X') seen += key;
      switch (key) {
        case 'W':
          fmt_.width = parse_dimension("W", val);
          have_w = true;
          break;
        case 'H':
          fmt_.height = parse_dimension("H", val);
          have_h = true;
          break;
        case 'I':
          if (val != "p" && val != "?")
            throw InputError(path, "header field I", val, "interlaced streams are not supported (only 'Ip')");
          break;
        case 'C': set_colorspace(val); break;
        default: break;  // F (frame rate), A (aspect), X (extensions): not needed to score
      }
    }
    if (!have_w) throw InputError(path, "header field W", "(missing)", "the header has no width");
    if (!have_h) throw InputError(path, "header field H", "(missing)", "the header has no height");
    bytes_ = frame_bytes(fmt_, path);
    // A file must hold at least one whole frame after its header: checked before a frame buffer
    // is allocated, so that a 100-byte header cannot claim gigabytes.
    const auto size = in_.regular_size();
    regular_ = size.has_value();
    header_end_ = std::ftell(in_.get());
    if (size) {
      const long header_end = header_end_;
      const std::uint64_t need = static_cast<std::uint64_t>(header_end < 0 ? 0 : header_end) + 6 + bytes_;
      if (header_end >= 0 && *size == static_cast<std::uint64_t>(header_end))
        throw InputError(path, "frames", "0", "empty input: the stream has a header but no frame");
      if (*size < need)
        throw InputError(path, "size", fmt::format("{} bytes", *size),
                         fmt::format("too small for one {} frame of {} bytes after its header (the header claims {}x{})",
                                     describe(fmt_), bytes_, fmt_.width, fmt_.height));
    }
  }

  const Format& format() const override { return fmt_; }
  const std::string& name() const override { return in_.path(); }
  bool may_block() const override { return !regular_; }

  bool next(Frame& f) override {
    const std::string line = read_line(fmt::format("frame {} header", index_));
    if (line.empty() && at_eof_) {
      if (index_ == 0) throw InputError(in_.path(), "frames", "0", "empty input: the stream has a header but no frame");
      return false;
    }
    if (line.rfind("FRAME", 0) != 0 || (line.size() > 5 && line[5] != ' '))
      throw InputError(in_.path(), fmt::format("frame {} header", index_), line.substr(0, 16),
                       "expected 'FRAME' (a previous frame may be longer than its header says)");
    if (f.size() != bytes_ || !(f.format() == fmt_)) f.reset(fmt_);
    read_payload(in_, f, index_++);
    return true;
  }

  // Every frame at a known place: the file is the header and frames of "FRAME\n" and samples, each
  // header checked where it must be. Frame parameters (rare) leave the stream to be read in order.
  std::optional<unsigned> random_access() override {
    if (!regular_ || index_ != 0 || header_end_ < 0) return std::nullopt;
    if (!frame_count_) frame_count_ = count_plain_frames();
    return *frame_count_ > 0 ? frame_count_ : std::nullopt;
  }
  void read_frame(unsigned index, Frame& f) const override { read_payload_at(in_, f, index, payload_offset(index)); }

 private:
  static constexpr std::size_t kPlainHeader = 6;  // "FRAME\n"
  std::uint64_t payload_offset(unsigned index) const {
    return static_cast<std::uint64_t>(header_end_) + static_cast<std::uint64_t>(index) * (kPlainHeader + bytes_) + kPlainHeader;
  }
  // How many frames the file holds if every one has a plain header; 0 when any does not.
  unsigned count_plain_frames() const {
    const auto size = in_.regular_size();
    if (!size || *size <= static_cast<std::uint64_t>(header_end_)) return 0;
    const std::uint64_t body = *size - static_cast<std::uint64_t>(header_end_), stride = kPlainHeader + bytes_;
    if (body % stride != 0 || body / stride > std::numeric_limits<unsigned>::max()) return 0;
    const auto n = static_cast<unsigned>(body / stride);
    for (unsigned i = 0; i < n; ++i) {
      char head[kPlainHeader];
      if (in_.read_at(head, kPlainHeader, payload_offset(i) - kPlainHeader) != kPlainHeader ||
          std::memcmp(head, "FRAME\n", kPlainHeader) != 0)
        return 0;
    }
    return n;
  }

  // Reads up to '\n' (not included). At end of file with nothing read: "" and at_eof_.
  std::string read_line(const std::string& what) {
    std::string s;
    for (;;) {
      const int c = std::fgetc(in_.get());
      if (c == EOF) {
        if (std::ferror(in_.get())) throw InputError(in_.path(), what, "", "read failed");
        if (!s.empty()) throw InputError(in_.path(), what, s.substr(0, 32), "truncated: the input ends inside a header line");
        at_eof_ = true;
        return s;
      }
      if (c == '\n') return s;
      s += static_cast<char>(c);
      if (s.size() > kMaxHeaderLine)
        throw InputError(in_.path(), what, s.substr(0, 32), fmt::format("header line longer than {} bytes", kMaxHeaderLine));
    }
  }

  int parse_dimension(const char* key, const std::string& v) {
    long long n = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    const std::string field = std::string("header field ") + key;
    if (v.empty() || ec != std::errc() || p != v.data() + v.size()) throw InputError(in_.path(), field, v, "not an integer");
    if (n <= 0) throw InputError(in_.path(), field, v, "must be at least 1");
    if (n > kMaxDimension) throw InputError(in_.path(), field, v, fmt::format("exceeds the largest supported {}", kMaxDimension));
    return static_cast<int>(n);
  }

  void set_colorspace(const std::string& v) {
    if (v.find("alpha") != std::string::npos)
      throw InputError(in_.path(), "header field C", v, "streams with an alpha plane are not supported");
    for (const Colorspace& c : kColorspaces)
      if (v == c.tag) {
        fmt_.chroma = c.chroma;
        fmt_.bitdepth = c.bitdepth;
        return;
      }
    throw InputError(in_.path(), "header field C", v,
                     "unknown colour space (known: 420jpeg 420mpeg2 420paldv 420 422 444 mono, and "
                     "420/422/444/mono with p10 p12 p16)");
  }

  InputFile in_;
  bool regular_ = false;  // a regular file (else a pipe or terminal)
  Format fmt_{};
  std::size_t bytes_ = 0;
  unsigned index_ = 0;
  bool at_eof_ = false;
  long header_end_ = -1;                 // where the first frame header starts
  std::optional<unsigned> frame_count_;  // random_access()'s answer, once worked out
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::unique_ptr<FrameSource> open_yuv(const std::string& path, const Format& fmt) {
  return std::make_unique<YuvSource>(path, fmt);
}

std::unique_ptr<FrameSource> open_y4m(const std::string& path) { return std::make_unique<Y4mSource>(path); }

std::unique_ptr<FrameSource> open_input(const std::string& path, const std::optional<Format>& raw_format) {
  if (raw_format) return open_yuv(path, *raw_format);
  if (ends_with(path, ".y4m") || path == "-") return open_y4m(path);
  if (ends_with(path, ".yuv"))
    throw InputError(path, "geometry", "(none)", "raw .yuv input needs --width, --height, --pixfmt and --bitdepth");
  return open_y4m(path);
}

namespace {

class WindowSource final : public FrameSource {
 public:
  WindowSource(std::unique_ptr<FrameSource> inner, unsigned skip, std::optional<unsigned> count)
      : inner_(std::move(inner)), skip_(skip), count_(count) {}
  const Format& format() const override { return inner_->format(); }
  const std::string& name() const override { return inner_->name(); }
  bool may_block() const override { return inner_->may_block(); }
  bool checks_at_end() const override { return inner_->checks_at_end(); }
  bool next(Frame& f) override {
    for (; skipped_ < skip_; ++skipped_)
      if (!inner_->next(f)) return false;
    if (count_ && given_ == *count_) {
      if (inner_->checks_at_end())
        while (inner_->next(f)) {
        }
      return false;
    }
    if (!inner_->next(f)) return false;
    ++given_;
    return true;
  }

 private:
  std::unique_ptr<FrameSource> inner_;
  unsigned skip_ = 0, skipped_ = 0, given_ = 0;
  std::optional<unsigned> count_;
};

}  // namespace

std::unique_ptr<FrameSource> clip_window(std::unique_ptr<FrameSource> inner, unsigned skip, std::optional<unsigned> count) {
  if (skip == 0 && !count) return inner;
  return std::make_unique<WindowSource>(std::move(inner), skip, count);
}

}  // namespace twinproof
