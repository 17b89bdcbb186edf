// Twins files (ci/twins/*.json, --twins FILE): every field, placeholder and map a user writes.
#include "harness/exec/twins_file.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace twinproof;
  const auto file = fuzz::write_input("twins.json", data, size);
  fuzz::expect_refusal_or_success([&] {
    // A probe runs the twin's program: a fuzzed file could name any program and words, so a twin
    // with one is parsed here, never probed (its probe is tested with sh in the unit tests).
    for (const ExecTwinSpec& s : load_twins_file(file))
      if (!s.probe) (void)exec_twin_availability(s);
  });
  return 0;
}
