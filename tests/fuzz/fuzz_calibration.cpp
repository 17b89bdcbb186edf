// Calibration tables: rows, tolerances, waivers and their dates, and the lookups the gate makes.
#include "harness/calibration/table.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace twinproof;
  const auto file = fuzz::write_input("calibration.json", data, size);
  fuzz::expect_refusal_or_success([&] {
    const Calibration c = Calibration::load(file);
    for (const CalibrationRow& r : c.rows()) {
      const CellTolerance t(c, r.feature, r.reference, r.twin, r.compute_capability);
      (void)t.describe({r.metric, "motion2"});
    }
    (void)c.loosenings(&c);
    (void)c.waivers_for("float_motion/cuda/pan576/8b/420/default");
  });
  return 0;
}
