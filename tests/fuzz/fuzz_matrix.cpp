// Matrix files: parsed with the project's limits, then expanded against the project's manifest
// and goldens.
#include "harness/gate/matrix.hpp"
#include "harness/support/json_file.hpp"
#include "tests/fuzz/fuzz_input.hpp"

TWINPROOF_FUZZ_USES_PROJECT_DATA

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace twinproof;
  const auto file = fuzz::write_input("matrix.json", data, size);
  fuzz::expect_refusal_or_success([&] { (void)load_matrix(file); });
  return 0;
}
