// Twins files (ci/twins/*.json, --twins FILE): every field, placeholder and map a user writes.
#include "harness/exec/twins_file.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace twinproof;
  const auto file = fuzz::write_input("twins.json", data, size);
  fuzz::expect_refusal_or_success([&] {
    for (const ExecTwinSpec& s : load_twins_file(file)) (void)exec_twin_availability(s);
  });
  return 0;
}
