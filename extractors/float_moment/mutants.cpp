// float_moment's deliberately broken twin, registered only with --with-mutants: the self-test's
// proof that the gate fails a twin that reads the wrong picture, and that repro traces it to the
// running sums (the distorted picture's second moment, from its first row).
#include "extractors/float_moment/cpu.hpp"

namespace twinproof::float_moment {
namespace {

class SwappedMutantEngine final : public CpuMomentEngine {
 public:
  using CpuMomentEngine::CpuMomentEngine;

 protected:
  // The distorted picture's squares summed over the reference: its first moments stay right.
  MomentSums sums(const PictureView& ref, const PictureView& dist, std::vector<MomentSums>& after_row) const override {
    MomentSums s = sequential_sums(ref, dist, after_row);
    std::vector<MomentSums> from_ref;
    const MomentSums twice_ref = sequential_sums(ref, ref, from_ref);
    s[3] = twice_ref[3];
    for (std::size_t y = 0; y < after_row.size(); ++y) after_row[y][3] = from_ref[y][3];
    return s;
  }
};

}  // namespace

std::unique_ptr<Extractor> make_mutant_swap(const ExtractorContext& ctx) {
  return with_engine<FloatMomentExtractor, SwappedMutantEngine>(ctx);
}

}  // namespace twinproof::float_moment
