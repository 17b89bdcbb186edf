// Golden files: cases, hex-float columns, refusals, options.
#include "harness/goldens/goldens.hpp"
#include "tests/fuzz/fuzz_input.hpp"

TWINPROOF_FUZZ_USES_PROJECT_DATA

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace twinproof;
  const auto file = fuzz::write_input("golden.json", data, size);
  fuzz::expect_refusal_or_success([&] { (void)load_golden_file(file); });
  return 0;
}
