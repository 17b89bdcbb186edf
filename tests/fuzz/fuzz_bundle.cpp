// Repro bundles: the input is a bundle's cell.json; the bundle around it is whole (frames and
// SHA256SUMS rewritten to match), so every field check of the loader is reached.
#include "harness/gate/repro.hpp"
#include "harness/support/sha256.hpp"
#include "tests/fuzz/fuzz_input.hpp"

TWINPROOF_FUZZ_USES_PROJECT_DATA

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace twinproof;
  const auto cell = fuzz::write_input("bundle/cell.json", data, size);
  const auto dir = cell.parent_path();
  static const bool frames_written = [&] {
    // Two 8x4 4:2:0 8-bit frames.
    std::ofstream f(dir / "frames.y4m", std::ios::binary);
    f << "YUV4MPEG2 W8 H4 F25:1 Ip A1:1 C420jpeg\n";
    for (int n = 0; n < 2; ++n) f << "FRAME\n" << std::string(48, static_cast<char>(16 + n));
    return true;
  }();
  (void)frames_written;
  std::ofstream(dir / "SHA256SUMS") << sha256_file(cell.string()) << "  cell.json\n"
                                    << sha256_file((dir / "frames.y4m").string()) << "  frames.y4m\n";
  fuzz::expect_refusal_or_success([&] {
    const ReproTarget t = load_bundle(dir);
    ClipPair clips = t.open();
    Frame f;
    while (clips.reference->next(f)) {
    }
    while (clips.distorted && clips.distorted->next(f)) {
    }
  });
  return 0;
}
