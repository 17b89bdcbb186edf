// Y4M streams: header, tags, frame markers and samples, read to the end.
#include "harness/io/frame.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace twinproof;
  const auto file = fuzz::write_input("input.y4m", data, size);
  fuzz::expect_refusal_or_success([&] {
    auto src = open_y4m(file.string());
    Frame f;
    for (unsigned n = 0; n < 64 && src->next(f); ++n) {
    }
  });
  return 0;
}
