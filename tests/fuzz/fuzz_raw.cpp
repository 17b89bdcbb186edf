// Raw planar input: the first bytes choose the geometry flags (width, height, chroma, bit depth)
// as a command line would give them; the rest is the file.
#include "harness/io/frame.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace twinproof;
  if (size < 6) return 0;
  Format fmt;
  fmt.width = (data[0] | data[1] << 8) - 64;  // negative and zero extents included
  fmt.height = (data[2] | data[3] << 8) - 64;
  constexpr Chroma chromas[] = {Chroma::c400, Chroma::c420, Chroma::c422, Chroma::c444};
  fmt.chroma = chromas[data[4] & 3];
  fmt.bitdepth = data[5] % 20;
  const auto file = fuzz::write_input("input.yuv", data + 6, size - 6);
  fuzz::expect_refusal_or_success([&] {
    auto src = open_yuv(file.string(), fmt);
    Frame f;
    for (unsigned n = 0; n < 64 && src->next(f); ++n) {
    }
  });
  return 0;
}
