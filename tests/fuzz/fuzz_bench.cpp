// Bench reports, as `bench --compare OLD.json` reads them back, compared with themselves.
#include "harness/bench/saved_runs.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace twinproof;
  const auto file = fuzz::write_input("bench.json", data, size);
  fuzz::expect_refusal_or_success([&] {
    const BenchRun run = load_bench_run(file);
    (void)compare_bench_runs(run, run).slower();
  });
  return 0;
}
