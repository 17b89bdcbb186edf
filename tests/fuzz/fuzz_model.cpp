// libvmaf model files (the vmaf feature's model=PATH, score -m path=FILE): the JSON, the libsvm
// text inside it, and the prediction over whatever support vectors a file holds.
#include <vector>

#include "extractors/vmaf/model.hpp"
#include "extractors/vmaf/predict.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace twinproof;
  const auto file = fuzz::write_input("model.json", data, size);
  fuzz::expect_refusal_or_success([&] {
    for (const bool flags : {false, true}) {
      const vmaf::Model m = vmaf::load_model(file.string(), {.disable_clip = flags, .enable_transform = flags});
      const std::vector<double> values(m.features.size(), 0.5);
      (void)vmaf::predict(m, values);
    }
  });
  return 0;
}
