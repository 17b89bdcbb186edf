// float_psnr's deliberately broken twin, registered only with --with-mutants: the self-test's
// proof that the gate fails a twin that drops samples, and that repro traces it to the running
// noise sum (the first row whose last sample differs), not to the score.
#include "extractors/float_psnr/cpu.hpp"

namespace twinproof::float_psnr {
namespace {

class EdgeMutantEngine final : public CpuNoiseEngine {
 public:
  using CpuNoiseEngine::CpuNoiseEngine;

 protected:
  // Each row's last sample left out: the reference's loop over pictures one column narrower.
  double noise(const PictureView& ref, const PictureView& dist, std::vector<double>& after_row) const override {
    PictureView narrower_ref = ref, narrower_dist = dist;
    narrower_ref.fmt.width -= 1;
    narrower_dist.fmt.width -= 1;
    return sequential_noise(narrower_ref, narrower_dist, after_row);
  }
};

}  // namespace

std::unique_ptr<Extractor> make_mutant_edge(const ExtractorContext& ctx) {
  return with_engine<FloatPsnrExtractor, EdgeMutantEngine>(ctx);
}

}  // namespace twinproof::float_psnr
