// Y4M and raw .yuv readers: formats, streaming, and every bad input refused with a clear error.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <thread>

#include "extractors/large_pages.hpp"
#include "harness/io/read_ahead.hpp"
#include "harness/scoring/scores.hpp"
#include "harness/support/errors.hpp"
#include "tests/support.hpp"

using namespace twinproof;
using twinproof::test::contains;
using twinproof::test::TempDir;
using twinproof::test::write_file;

namespace {

std::string y4m(const std::string& header_tags, const std::vector<std::string>& frames) {
  std::string s = "YUV4MPEG2 " + header_tags + "\n";
  for (const std::string& f : frames) s += "FRAME\n" + f;
  return s;
}

// Reads `good` frames whose first byte is their index, then the fault that must follow them (and
// nothing after it).
InputError fault_after(ReadAhead& ahead, unsigned good) {
  Frame f;
  for (unsigned t = 0; t < good; ++t) {
    BOOST_REQUIRE(ahead.next(f));
    BOOST_TEST(f.bytes()[0] == t);
  }
  try {
    (void)ahead.next(f);
  } catch (const InputError& e) {
    BOOST_TEST(!ahead.next(f));
    return e;
  }
  BOOST_FAIL("the fault after frame " << good - 1 << " was lost");
  throw std::logic_error("unreachable");
}

// The InputError that reading every frame of `path` raises.
InputError read_error(const std::string& path, const std::optional<Format>& raw = std::nullopt) {
  try {
    auto src = open_input(path, raw);
    Frame f;
    while (src->next(f)) {
    }
  } catch (const InputError& e) {
    return e;
  }
  BOOST_FAIL("expected an InputError for " + path);
  throw std::logic_error("unreachable");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(readers)

BOOST_AUTO_TEST_CASE(y4m_colour_spaces) {
  TempDir dir;
  struct Case {
    const char* tag;
    Chroma chroma;
    int bitdepth;
  } cases[] = {{"C420jpeg", Chroma::c420, 8}, {"C420mpeg2", Chroma::c420, 8}, {"C420paldv", Chroma::c420, 8},
               {"C420", Chroma::c420, 8},     {"C422", Chroma::c422, 8},      {"C444", Chroma::c444, 8},
               {"Cmono", Chroma::c400, 8},    {"C420p10", Chroma::c420, 10},  {"C422p12", Chroma::c422, 12},
               {"C444p16", Chroma::c444, 16}, {"Cmono12", Chroma::c400, 12},  {"", Chroma::c420, 8}};
  for (const Case& c : cases) {
    const Format fmt{5, 3, c.bitdepth, c.chroma};
    const Frame f = test::make_frame(fmt, [](int p, int x, int y) { return static_cast<unsigned>(p * 50 + x + 7 * y); });
    const std::string frame(reinterpret_cast<const char*>(f.bytes()), f.size());
    write_file(dir / "a.y4m", y4m(std::string("W5 H3 F30:1 Ip A1:1 ") + c.tag, {frame, frame}));
    auto src = open_input((dir / "a.y4m").string(), std::nullopt);
    BOOST_TEST(src->format().chroma == c.chroma);
    BOOST_TEST(src->format().bitdepth == c.bitdepth);
    Frame g;
    int n = 0;
    while (src->next(g)) {
      ++n;
      BOOST_TEST(g.view().sample(0, 4, 2) == f.view().sample(0, 4, 2));
      if (fmt.planes() == 3) BOOST_TEST(g.view().sample(2, 0, 0) == 100u);
    }
    BOOST_TEST(n == 2);
  }
}

BOOST_AUTO_TEST_CASE(odd_sizes_use_ceil_chroma) {
  const Format fmt{5, 3, 8, Chroma::c420};
  Frame f;
  f.reset(fmt);
  BOOST_TEST(f.size() == 5u * 3 + 2 * (3 * 2));
  BOOST_TEST(stored_plane_size({5, 3, 8, Chroma::c422}, 1) == (PlaneSize{3, 3}));
}

BOOST_AUTO_TEST_CASE(y4m_bad_headers) {
  TempDir dir;
  const auto err = [&](const std::string& content) {
    write_file(dir / "b.y4m", content);
    return read_error((dir / "b.y4m").string());
  };
  InputError e = err("RIFF0000WAVE");
  BOOST_TEST(e.field() == "magic");
  BOOST_TEST(contains(e.what(), "b.y4m"));
  e = err(y4m("W5 H3 C411", {}));
  BOOST_TEST(e.field() == "header field C");
  BOOST_TEST(e.value() == "411");
  e = err(y4m("W5 H3 C444alpha", {}));
  BOOST_TEST(contains(e.what(), "alpha"));
  e = err(y4m("W5 H3 It", {}));
  BOOST_TEST(e.field() == "header field I");
  BOOST_TEST(contains(e.what(), "interlaced"));
  e = err(y4m("W0 H3", {}));
  BOOST_TEST(e.field() == "header field W");
  e = err(y4m("W-4 H3", {}));
  BOOST_TEST(e.value() == "-4");
  e = err(y4m("W5 H99999999999", {}));
  BOOST_TEST(e.field() == "header field H");
  e = err(y4m("W40000 H40000", {}));
  BOOST_TEST(contains(e.what(), "largest supported"));
  e = err(y4m("Wfive H3", {}));
  BOOST_TEST(contains(e.what(), "not an integer"));
  e = err(y4m("H3", {}));
  BOOST_TEST(e.field() == "header field W");
  e = err("");
  BOOST_TEST(contains(e.what(), "empty input"));
  e = err(y4m("W5 H3", {}));
  BOOST_TEST(contains(e.what(), "no frame"));
  e = err(y4m("W1 H3 C420", {}));
  BOOST_TEST(contains(e.what(), "cannot hold"));
}

BOOST_AUTO_TEST_CASE(y4m_truncated_and_garbled_frames) {
  TempDir dir;
  const std::string full(5 * 3 + 2 * 6, 'x');
  write_file(dir / "t.y4m", y4m("W5 H3", {full, full.substr(0, 10)}));
  InputError e = read_error((dir / "t.y4m").string());
  BOOST_TEST(e.field() == "frame 1");
  BOOST_TEST(e.value() == "10 of 27 bytes");
  BOOST_TEST(contains(e.what(), "truncated"));
  write_file(dir / "g.y4m", y4m("W5 H3", {full}) + "FRAMX\n" + full);
  e = read_error((dir / "g.y4m").string());
  BOOST_TEST(e.field() == "frame 1 header");
  write_file(dir / "h.y4m", y4m("W5 H3", {full}) + "FRA");
  e = read_error((dir / "h.y4m").string());
  BOOST_TEST(contains(e.what(), "truncated"));
}

BOOST_AUTO_TEST_CASE(sample_above_bit_depth_is_refused) {
  TempDir dir;
  const Format fmt{4, 2, 10, Chroma::c444};
  const Frame f = test::make_frame(fmt, [](int p, int x, int y) { return p == 1 && x == 3 && y == 1 ? 1024u : 512u; });
  write_file(dir / "s.yuv", std::string(reinterpret_cast<const char*>(f.bytes()), f.size()));
  const InputError e = read_error((dir / "s.yuv").string(), fmt);
  BOOST_TEST(e.field() == "frame 0 plane U sample (3, 1)");
  BOOST_TEST(e.value() == "1024");
}

BOOST_AUTO_TEST_CASE(raw_yuv_streams_and_refuses_bad_sizes) {
  TempDir dir;
  const Format fmt{6, 4, 16, Chroma::c422};
  const Frame f = test::make_frame(fmt, [](int p, int x, int y) { return static_cast<unsigned>(60000 + p * 100 + x * 10 + y); });
  const std::string one(reinterpret_cast<const char*>(f.bytes()), f.size());
  write_file(dir / "ok.yuv", one + one + one);
  auto src = open_yuv((dir / "ok.yuv").string(), fmt);
  BOOST_TEST(src->frames_left().value() == 3u);
  Frame g;
  unsigned n = 0;
  while (src->next(g)) {
    ++n;
    BOOST_TEST(g.view().sample(1, 2, 3) == 60000u + 100 + 20 + 3);
  }
  BOOST_TEST(n == 3u);

  write_file(dir / "trunc.yuv", one + one.substr(0, 5));
  InputError e = read_error((dir / "trunc.yuv").string(), fmt);
  BOOST_TEST(e.field() == "size");
  BOOST_TEST(contains(e.what(), "truncated"));
  write_file(dir / "empty.yuv", "");
  e = read_error((dir / "empty.yuv").string(), fmt);
  BOOST_TEST(contains(e.what(), "empty input"));
  e = read_error((dir / "missing.yuv").string(), fmt);
  BOOST_TEST(e.field() == "file");
  e = read_error((dir / "ok.yuv").string(), Format{0, 4, 8, Chroma::c420});
  BOOST_TEST(e.field() == "width");
  e = read_error((dir / "ok.yuv").string(), Format{6, 4, 9, Chroma::c420});
  BOOST_TEST(e.field() == "bitdepth");
  e = read_error((dir / "ok.yuv").string(), Format{2147483647, 2147483647, 16, Chroma::c444});
  BOOST_TEST(contains(e.what(), "largest supported"));
}

BOOST_AUTO_TEST_CASE(y4m_writer_round_trip) {
  TempDir dir;
  const Format fmt{7, 5, 12, Chroma::c420};
  const Frame f = test::make_frame(fmt, [](int p, int x, int y) { return static_cast<unsigned>(4000 + p + x * y); });
  {
    auto w = create_y4m_writer((dir / "w.y4m").string(), fmt);
    w->write(f);
    w->write(f);
    w->close();
  }
  auto src = open_y4m((dir / "w.y4m").string());
  BOOST_TEST(src->format() == fmt);
  Frame g;
  unsigned n = 0;
  while (src->next(g)) {
    BOOST_TEST(std::equal(g.bytes(), g.bytes() + g.size(), f.bytes()));
    ++n;
  }
  BOOST_TEST(n == 2u);
}

BOOST_AUTO_TEST_CASE(read_ahead_hands_over_every_frame_in_order_then_the_readers_fault) {
  // A raw file of 7 distinct frames followed by a truncated one: the reader's fault (a truncated
  // frame) must arrive after the 7 whole frames, as reading in line gives it.
  TempDir dir;
  const Format fmt{9, 5, 10, Chroma::c420};
  std::string bytes;
  std::vector<std::string> expected;
  for (unsigned t = 0; t < 7; ++t) {
    const Frame f = test::make_frame(fmt, [t](int p, int x, int y) { return (t * 97 + p * 31 + x * 7 + y * 3) % 1024; });
    expected.emplace_back(reinterpret_cast<const char*>(f.bytes()), f.size());
    bytes += expected.back();
  }
  write_file(dir / "whole.yuv", bytes);
  write_file(dir / "cut.yuv", bytes + expected.front().substr(0, 11));
  for (unsigned depth : {1u, 3u, 8u}) {
    auto src = open_input((dir / "whole.yuv").string(), fmt);
    BOOST_TEST(!src->may_block());
    ReadAhead ahead(*src, depth);
    BOOST_TEST(ahead.frames_left().value_or(0) == 7u);
    Frame f;
    for (unsigned t = 0; t < 7; ++t) {
      BOOST_REQUIRE(ahead.next(f));
      BOOST_TEST((std::string(reinterpret_cast<const char*>(f.bytes()), f.size()) == expected[t]),
                 "frame " << t << " depth " << depth);
      if (t == 2) std::this_thread::sleep_for(std::chrono::milliseconds(5));  // let the reader fill the ring
    }
    BOOST_TEST(ahead.frames_left().value_or(99) == 0u);
    BOOST_TEST(!ahead.next(f));
    BOOST_TEST(!ahead.next(f));
  }
  // The raw reader refuses a truncated file when it opens (its size is known); a stream read
  // through a source that faults mid-way shows the fault after the frames before it.
  struct Faulting final : FrameSource {
    Format fmt{4, 4, 8, Chroma::c400};
    std::string nm = "faulting";
    unsigned served = 0;
    const Format& format() const override { return fmt; }
    const std::string& name() const override { return nm; }
    bool next(Frame& f) override {
      if (served == 4) throw InputError("faulting", "frame 4", "11 bytes", "truncated");
      f.reset(fmt);
      std::memset(f.bytes(), static_cast<int>(served++), f.size());
      return true;
    }
  } faulting;
  ReadAhead ahead(faulting, 2);
  BOOST_TEST(fault_after(ahead, 4).field() == "frame 4");
}

BOOST_AUTO_TEST_CASE(read_ahead_stops_when_the_caller_stops_early) {
  // A long stream abandoned after two frames: destruction stops the reader and returns.
  struct Endless final : FrameSource {
    Format fmt{64, 64, 8, Chroma::c420};
    std::string nm = "endless";
    const Format& format() const override { return fmt; }
    const std::string& name() const override { return nm; }
    bool next(Frame& f) override {
      f.reset(fmt);
      return true;
    }
  } endless;
  for (int round = 0; round < 50; ++round) {
    ReadAhead ahead(endless, 3);
    Frame f;
    BOOST_REQUIRE(ahead.next(f));
    BOOST_REQUIRE(ahead.next(f));
  }
}

namespace {
// Memory handed out by a test: counts what it gives, or refuses as a device out of page-locked
// memory would.
struct CountingMemory final : HostMemory {
  bool refuse = false;
  std::atomic<unsigned> given{0};
  std::shared_ptr<std::uint8_t> allocate(std::size_t bytes) override {
    if (refuse) throw DeviceError("cudaHostAlloc failed: cudaErrorMemoryAllocation: out of memory");
    ++given;
    return {new std::uint8_t[bytes], std::default_delete<std::uint8_t[]>()};
  }
};

std::string bytes_of(const Frame& f) { return {reinterpret_cast<const char*>(f.bytes()), f.size()}; }

// `count` frames with every sample set by fn(t, plane, x, y): each frame's bytes, written one
// after another to `file` (raw).
template <class Fn>
std::vector<std::string> write_raw_clip(const std::filesystem::path& file, const Format& fmt, unsigned count, Fn fn) {
  std::vector<std::string> frames;
  std::string raw;
  for (unsigned t = 0; t < count; ++t) {
    frames.push_back(bytes_of(test::make_frame(fmt, [&](int p, int x, int y) { return fn(t, p, x, y); })));
    raw += frames.back();
  }
  write_file(file, raw);
  return frames;
}
}  // namespace

BOOST_AUTO_TEST_CASE(several_readers_fetch_frames_by_place_and_hand_them_over_in_order) {
  // 23 distinct 10-bit frames as raw and as plain Y4M: four readers fetch whole frames side by
  // side, and the caller sees them in order, then the end, as one reader in line gives them.
  TempDir dir;
  const Format fmt{13, 7, 10, Chroma::c420};
  const std::vector<std::string> frames = write_raw_clip(
      dir / "a.yuv", fmt, 23, [](unsigned t, int p, int x, int y) { return (t * 131 + p * 17 + x * 5 + y * 11) % 1024; });
  write_file(dir / "a.y4m", y4m("W13 H7 C420p10", frames));
  std::string y4m_params = y4m("W13 H7 C420p10", {});
  for (unsigned t = 0; t < 23; ++t) y4m_params += (t == 17 ? "FRAME Ixyz\n" : "FRAME\n") + frames[t];
  write_file(dir / "params.y4m", y4m_params);
  struct Case {
    std::string file;
    std::optional<Format> raw;
    unsigned readers;  // what the source allows
  };
  for (const Case& c : {Case{"a.yuv", fmt, 4}, Case{"a.y4m", std::nullopt, 4}, Case{"params.y4m", std::nullopt, 1}}) {
    BOOST_TEST_CONTEXT(c.file) {
      auto src = open_input((dir / c.file).string(), c.raw);
      ReadAhead ahead(*src, 5, 4);
      BOOST_TEST(ahead.readers() == c.readers);
      BOOST_TEST(ahead.frames_left().value_or(0) == (c.raw ? 23u : 0u));
      Frame f;
      for (unsigned t = 0; t < 23; ++t) {
        BOOST_REQUIRE(ahead.next(f));
        BOOST_TEST(bytes_of(f) == frames[t], "frame " << t);
      }
      BOOST_TEST(!ahead.next(f));
      BOOST_TEST(!ahead.next(f));
    }
  }
  // Once read in order, a source is not fetched by place any more.
  auto src = open_input((dir / "a.yuv").string(), fmt);
  Frame f;
  BOOST_REQUIRE(src->next(f));
  BOOST_TEST(!src->random_access().has_value());
}

BOOST_AUTO_TEST_CASE(a_frame_may_be_read_in_its_luma_alone_where_no_check_is_lost) {
  // 8-bit 4:2:0, 5 distinct frames, as raw, plain Y4M (read by place) and Y4M with a frame
  // parameter (read in order): luma alone is read, the chroma bytes are left as they were, the
  // stream still advances by whole frames, and a view shows no chroma.
  TempDir dir;
  const Format fmt{13, 7, 8, Chroma::c420};
  const std::vector<std::string> frames = write_raw_clip(
      dir / "a.yuv", fmt, 5, [](unsigned t, int p, int x, int y) { return (t * 37 + p * 71 + x * 5 + y * 11) % 256; });
  const std::size_t luma = 13 * 7;
  write_file(dir / "a.y4m", y4m("W13 H7", frames));
  std::string params = y4m("W13 H7", {});
  for (unsigned t = 0; t < 5; ++t) params += (t == 2 ? "FRAME Ixyz\n" : "FRAME\n") + frames[t];
  write_file(dir / "params.y4m", params);
  for (const auto& [file, raw] :
       {std::pair<std::string, std::optional<Format>>{"a.yuv", fmt}, {"a.y4m", std::nullopt}, {"params.y4m", std::nullopt}}) {
    BOOST_TEST_CONTEXT(file) {
      for (const bool by_place : {false, true}) {
        auto src = open_input((dir / file).string(), raw);
        const std::optional<unsigned> count = by_place ? src->random_access() : std::nullopt;
        if (by_place && !count) continue;  // a frame parameter: read in order only
        for (unsigned t = 0; t < 5; ++t) {
          Frame f;
          f.reset(fmt);
          std::memset(f.bytes(), 0xA5, f.size());
          f.read_leading_planes(1);
          if (by_place) src->read_frame(t, f);
          else BOOST_REQUIRE(src->next(f));
          BOOST_TEST(f.planes_read() == 1);
          BOOST_TEST(f.read_size() == luma);
          const std::string got = bytes_of(f);
          BOOST_TEST(got.substr(0, luma) == frames[t].substr(0, luma), "frame " << t);
          BOOST_TEST(got.substr(luma) == std::string(f.size() - luma, '\xA5'), "frame " << t << ": chroma was read");
          const PictureView v = f.view();
          BOOST_TEST((v.data[0] == f.bytes() && v.data[1] == nullptr && v.data[2] == nullptr));
        }
        if (!by_place) {
          Frame f;
          f.read_leading_planes(1);
          BOOST_TEST(!src->next(f));
        }
      }
    }
  }
  // A frame that ends inside the chroma it does not read is still truncated.
  write_file(dir / "t.y4m", y4m("W13 H7", {frames[0], frames[1].substr(0, luma + 3)}));
  {
    auto src = open_input((dir / "t.y4m").string(), std::nullopt);
    Frame f;
    f.read_leading_planes(1);
    BOOST_REQUIRE(src->next(f));
    try {
      (void)src->next(f);
      BOOST_FAIL("a frame cut inside its chroma was accepted");
    } catch (const InputError& e) {
      BOOST_TEST(e.field() == "frame 1");
      BOOST_TEST(e.value() == std::to_string(luma + 3) + " of " + std::to_string(f.size()) + " bytes");
    }
  }
  // A copy reads like its source; a writer needs every plane.
  Frame partial;
  partial.reset(fmt);
  partial.read_leading_planes(1);
  const Frame copy = partial;
  BOOST_TEST(copy.planes_read() == 1);
  BOOST_CHECK_THROW(create_raw_writer((dir / "w.yuv").string())->write(copy), std::logic_error);
  // At 10 and 12 bits every plane is still read: each sample read is checked against the depth.
  const Format deep{4, 2, 10, Chroma::c444};
  const Frame bad = test::make_frame(deep, [](int p, int x, int y) { return p == 2 && x == 1 && y == 0 ? 1023u + 9 : 512u; });
  write_file(dir / "d.yuv", std::string(reinterpret_cast<const char*>(bad.bytes()), bad.size()));
  auto src = open_yuv((dir / "d.yuv").string(), deep);
  Frame f;
  f.read_leading_planes(1);
  try {
    (void)src->next(f);
    BOOST_FAIL("a 10-bit chroma sample above the depth was accepted when luma alone was asked for");
  } catch (const InputError& e) {
    BOOST_TEST(e.field() == "frame 0 plane V sample (1, 0)");
  }
  BOOST_TEST(f.planes_read() == 3);
}

BOOST_AUTO_TEST_CASE(read_ahead_reads_luma_alone_once_asked) {
  // Frames claimed after read_leading_planes(1) are read in their luma alone (the ring's first
  // frames may already be whole); every frame's luma arrives, in order.
  TempDir dir;
  const Format fmt{16, 8, 16, Chroma::c422};
  const std::vector<std::string> frames = write_raw_clip(
      dir / "a.yuv", fmt, 12, [](unsigned t, int p, int x, int y) { return (t * 4099 + p * 977 + x * 31 + y * 7) % 65536; });
  const std::size_t luma = 16 * 8 * 2;
  auto src = open_input((dir / "a.yuv").string(), fmt);
  ReadAhead ahead(*src, 3, 2);
  ahead.read_leading_planes(1);
  Frame f;
  for (unsigned t = 0; t < 12; ++t) {
    BOOST_REQUIRE(ahead.next(f));
    BOOST_TEST(bytes_of(f).substr(0, luma) == frames[t].substr(0, luma), "frame " << t);
    if (t >= 3) BOOST_TEST(f.view().data[1] == nullptr, "frame " << t);
    if (f.planes_read() == 3) BOOST_TEST(bytes_of(f) == frames[t], "frame " << t);
  }
  BOOST_TEST(!ahead.next(f));
}

BOOST_AUTO_TEST_CASE(a_fault_read_by_place_arrives_after_every_frame_before_it) {
  // Frame 9 of 16 holds a 10-bit sample of 1024: four readers have read frames past it, yet the
  // caller gets frames 0 to 8 and then the fault, naming the frame and the sample.
  TempDir dir;
  const Format fmt{8, 4, 10, Chroma::c400};
  std::string raw;
  for (unsigned t = 0; t < 16; ++t)
    raw += bytes_of(test::make_frame(fmt, [t](int, int x, int y) { return t == 9 && x == 3 && y == 2 ? 1024u : t + x; }));
  write_file(dir / "bad.yuv", raw);
  auto src = open_input((dir / "bad.yuv").string(), fmt);
  ReadAhead ahead(*src, 6, 4);
  BOOST_TEST(ahead.readers() == 4u);
  const InputError e = fault_after(ahead, 9);
  BOOST_TEST(e.field() == "frame 9 plane Y sample (3, 2)");
  BOOST_TEST(e.value() == "1024");
}

BOOST_AUTO_TEST_CASE(large_buffers_are_zeroed_and_aligned_for_huge_pages) {
  // A 1080p 4:2:0 frame: its own mapping, starting on a 2 MiB boundary (on the heap under
  // AddressSanitizer), all zeros, all writable.
  const std::size_t frame = 1920 * 1080 * 3 / 2;
  const auto bytes = allocate_zeroed(frame);
  if (kMapLargeBuffers) BOOST_TEST(reinterpret_cast<std::uintptr_t>(bytes.get()) % kLargeBufferBytes == 0u);
  BOOST_TEST(std::all_of(bytes.get(), bytes.get() + frame, [](std::uint8_t b) { return b == 0; }));
  std::memset(bytes.get(), 0xa5, frame);
  BOOST_TEST(bytes.get()[frame - 1] == 0xa5);
  // Below the threshold the heap serves, zeroed too.
  const auto small = allocate_zeroed(4096);
  BOOST_TEST(std::all_of(small.get(), small.get() + 4096, [](std::uint8_t b) { return b == 0; }));
  // A plane vector keeps std::vector's value-initialisation either way, and its moves and swaps
  // hand the same memory over.
  PlaneVector<float> plane(1920 * 1080, 1.5f), other(16, 2.0f);
  if (kMapLargeBuffers) BOOST_TEST(reinterpret_cast<std::uintptr_t>(plane.data()) % kLargeBufferBytes == 0u);
  BOOST_TEST(plane.back() == 1.5f);
  const float* at = plane.data();
  plane.swap(other);
  BOOST_TEST(other.data() == at);
  BOOST_TEST(plane.size() == 16u);
  other.resize(4);  // shrinking keeps the mapping; clearing frees it with its own length
  other.shrink_to_fit();
  BOOST_TEST(other.size() == 4u);
  BOOST_TEST(other[3] == 1.5f);
  // A frame in ordinary memory reads as zeros before anything is read into it.
  Frame f;
  f.reset({1920, 1080, 8, Chroma::c420});
  BOOST_TEST(f.size() == frame);
  BOOST_TEST(std::all_of(f.bytes(), f.bytes() + f.size(), [](std::uint8_t b) { return b == 0; }));
}

BOOST_AUTO_TEST_CASE(frames_are_read_into_the_memory_a_backend_asks_for) {
  // After use_memory, every frame still to be read lands in the backend's memory; the ring and
  // the caller's frame are allocated there once each, not once a frame. Memory that cannot be
  // had sends the readers back to ordinary memory with the frames intact.
  TempDir dir;
  const Format fmt{16, 8, 8, Chroma::c420};
  const std::vector<std::string> frames =
      write_raw_clip(dir / "a.yuv", fmt, 40, [](unsigned t, int p, int x, int y) { return (t * 7 + p + x * y) % 256; });
  for (const bool refuse : {false, true}) {
    BOOST_TEST_CONTEXT("refuse " << refuse) {
      auto memory = std::make_shared<CountingMemory>();
      memory->refuse = refuse;
      auto src = open_input((dir / "a.yuv").string(), fmt);
      ReadAhead ahead(*src, 4, 2);
      ahead.use_memory(memory);
      Frame f;
      for (unsigned t = 0; t < 40; ++t) {
        BOOST_REQUIRE(ahead.next(f));
        BOOST_TEST(bytes_of(f) == frames[t], "frame " << t);
        if (t >= 10) BOOST_TEST((f.memory() == (refuse ? nullptr : memory)), "frame " << t);
      }
      BOOST_TEST(!ahead.next(f));
      BOOST_TEST(memory->given.load() <= (refuse ? 0u : 5u));  // the ring's 4 frames and the caller's
    }
  }
}

BOOST_AUTO_TEST_CASE(samples_a_backend_still_holds_are_never_refilled) {
  // A device twin holds the samples of frames it uploads in place until the upload is done
  // (PictureView::keep). Holding every third frame's view for eight frames while 60 frames go
  // by, each held view must still show its own frame, and the reader must take held buffers
  // back once they are let go (not allocate one per frame).
  TempDir dir;
  const Format fmt{24, 10, 8, Chroma::c400};
  const std::vector<std::string> frames =
      write_raw_clip(dir / "a.yuv", fmt, 60, [](unsigned t, int, int x, int y) { return (t * 11 + x + 3 * y) % 256; });
  auto memory = std::make_shared<CountingMemory>();
  auto src = open_input((dir / "a.yuv").string(), fmt);
  ReadAhead ahead(*src, 4, 2);
  ahead.use_memory(memory);
  std::deque<std::pair<unsigned, PictureView>> held;
  Frame f;
  for (unsigned t = 0; t < 60; ++t) {
    BOOST_REQUIRE(ahead.next(f));
    BOOST_TEST(bytes_of(f) == frames[t], "frame " << t);
    if (t % 3 == 0) held.emplace_back(t, f.view());
    while (!held.empty() && held.front().first + 8 <= t) {
      const auto& [index, view] = held.front();
      BOOST_TEST(std::string(reinterpret_cast<const char*>(view.data[0]), frames[index].size()) == frames[index],
                 "held frame " << index);
      held.pop_front();
    }
  }
  BOOST_TEST(!ahead.next(f));
  // The ring's 4, the caller's, and the few held at once (3 views of 8 frames) with slack: far
  // fewer than one per frame.
  BOOST_TEST(memory->given.load() <= 12u);
}

BOOST_AUTO_TEST_CASE(a_frame_copy_owns_its_samples_a_move_hands_them_over) {
  const Format fmt{6, 4, 16, Chroma::c444};
  Frame a = test::make_frame(fmt, [](int p, int x, int y) { return 1000u * p + 10u * x + y; });
  const std::string before = bytes_of(a);
  Frame copy = a;
  BOOST_TEST(copy.bytes() != a.bytes());
  BOOST_TEST(bytes_of(copy) == before);
  a.bytes()[0] ^= 0xff;
  BOOST_TEST(bytes_of(copy) == before);
  const std::uint8_t* samples = copy.bytes();
  Frame moved = std::move(copy);
  BOOST_TEST(moved.bytes() == samples);
  // Reshaping to a smaller format keeps the samples' memory; a larger one reallocates.
  moved.reset({4, 4, 16, Chroma::c444});
  BOOST_TEST(moved.bytes() == samples);
  BOOST_TEST(moved.size() == 96u);
  moved.reset({64, 64, 16, Chroma::c444});
  BOOST_TEST(moved.size() == 24576u);
}

BOOST_AUTO_TEST_CASE(reading_is_planned_two_frames_a_reader_within_256_mib) {
  const ReadPlan k4 = plan_reading(3840 * 2160 * 3 / 2, 4);
  BOOST_TEST(k4.readers == 4u);
  BOOST_TEST(k4.depth == 9u);
  const ReadPlan one = plan_reading(100, 1);
  BOOST_TEST(one.readers == 1u);
  BOOST_TEST(one.depth == 3u);
  const ReadPlan big = plan_reading(std::size_t{100} << 20, 8);  // 100 MiB frames: 2 fit
  BOOST_TEST(big.depth == 2u);
  BOOST_TEST(big.readers == 1u);
  const ReadPlan huge = plan_reading(std::size_t{1} << 30, 4);  // the largest frame: still two
  BOOST_TEST(huge.depth == 2u);
  BOOST_TEST(huge.readers == 1u);
}

BOOST_AUTO_TEST_CASE(a_regular_file_never_blocks_a_device_is_refused) {
  TempDir dir;
  const Format fmt{4, 4, 8, Chroma::c400};
  write_file(dir / "a.yuv", std::string(16, 'x'));
  BOOST_TEST(!open_input((dir / "a.yuv").string(), fmt)->may_block());
  write_file(dir / "a.y4m", y4m("W4 H4 Cmono", {std::string(16, 'x')}));
  BOOST_TEST(!open_input((dir / "a.y4m").string(), std::nullopt)->may_block());
  // A device or a pipe named as a file is refused (/dev/zero would be read without end): a stream
  // is given as '-', once.
  BOOST_CHECK_EXCEPTION(open_input("/dev/null", fmt), InputError, [](const InputError& e) {
    return std::string(e.what()).find("/dev/null: file '/dev/null': is not a regular file") != std::string::npos;
  });
}

BOOST_AUTO_TEST_SUITE_END()
