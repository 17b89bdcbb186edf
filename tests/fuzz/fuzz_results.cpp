// results.jsonl records, as `report` and `merge` read them back (an interrupted run's last line
// included), and the reports rendered from what was read.
#include "harness/report/render.hpp"
#include "harness/report/results.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace twinproof;
  const auto file = fuzz::write_input("results.jsonl", data, size);
  fuzz::expect_refusal_or_success([&] {
    const auto results = read_results(file);
    (void)status_counts(results);
    (void)exit_code_for(results);
  });
  return 0;
}
