// Y4M and raw .yuv readers: formats, streaming, and every bad input refused with a clear error.
#include <boost/test/unit_test.hpp>

#include "harness/errors.hpp"
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

BOOST_AUTO_TEST_SUITE_END()
